"""The database a fleet is re-bought against, for the fleet tests of every layer (the re-buy,
the API, the page): one benchmark with its noise, types measured on it and their prices."""

from decimal import Decimal

from benchmarks.models import Benchmark, InstanceType, Price, Region, Result, Run
from benchmarks.services import statistics

KEY = "openssl:sha256"
NOISE = {"relative": 0.02, "series": 40, "method": "test"}
# The acceptance bill's two types do 100 an hour at their prices; c7g does 150 for less.
FLEET_TYPES = (
    ("m5.xlarge", 100, "0.192"),
    ("c5.xlarge", 100, "0.17"),
    ("c7g.xlarge", 150, "0.145"),
)


def make_type(name: str) -> InstanceType:
    return InstanceType.objects.get_or_create(name=name)[0]


def price(name, usd, *, region="us-east-1", option="on_demand"):
    # A commitment at the answers' default terms: 1 year, no upfront, standard.
    commitment = (
        {"term": "1y", "payment": "no_upfront", "offering_class": "standard"}
        | {"upfront_usd": Decimal(0), "hourly_usd": Decimal(usd)}
        if option == "reserved"
        else {}
    )
    Price.objects.create(
        instance_type=make_type(name),
        region=Region.objects.get_or_create(code=region)[0],
        purchase_option=option,
        usd_per_hour=Decimal(usd),
        **commitment,
        effective_from="2024-01-01",
        source="test",
    )


def measured(name, value):
    benchmark, _ = Benchmark.objects.get_or_create(
        key=KEY, defaults={"unit": "B/s", "higher_is_better": True, "noise": NOISE}
    )
    run = Run.objects.create(
        instance_type=make_type(name),
        region=Region.objects.get_or_create(code="us-east-1")[0],
        status=Run.Status.DONE,
    )
    results = [Result(run=run, benchmark=benchmark, params={}, value=value)]
    statistics.attach_series(results)
    Result.objects.bulk_create(results)
    statistics.refresh_series({result.series_id for result in results})


def measure_fleet_types() -> None:
    """FLEET_TYPES measured and priced on-demand in us-east-1."""
    for name, value, usd in FLEET_TYPES:
        measured(name, value)
        price(name, usd)
