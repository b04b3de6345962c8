"""Specifications through one writer (services/prices/spec_sources.py): each field keeps its
source, a better source replaces a weaker one's value, never the reverse."""

import datetime
from collections import Counter
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Region, SpecSource
from benchmarks.parsers import CpuInfo
from benchmarks.pricing import snapshot
from benchmarks.pricing.records import InstanceSpecRecord, PriceRecord
from benchmarks.services import prices as price_services
from benchmarks.services import sparecores
from benchmarks.services.prices.spec_sources import SpecUpdate, apply_specs, record_specs
from benchmarks.services.prices.specs import BUNDLED_SPECS_FILE

pytestmark = pytest.mark.django_db

DESCRIBE = SpecSource.DESCRIBE_INSTANCE_TYPES
SPARECORES = SpecSource.SPARECORES


def record(source: str, name: str = "m5.large", **values) -> None:
    record_specs(specs=[SpecUpdate(name, values, source_text=f"from {source}")], source=source)


def test_sources_rank_best_first_and_an_unknown_source_last():
    assert [SpecSource.rank(key) for key in SpecSource.values] == list(
        range(len(SpecSource.values))
    )
    assert SpecSource.rank(DESCRIBE) < SpecSource.rank(SpecSource.AWS_DOCUMENTATION)
    assert SpecSource.rank(SpecSource.AWS_DOCUMENTATION) < SpecSource.rank(SPARECORES)
    assert SpecSource.rank(SpecSource.VENDOR_DOCUMENTATION) < SpecSource.rank(SPARECORES)
    assert SpecSource.rank(SPARECORES) < SpecSource.rank(SpecSource.PRICE_LIST)
    # A size read from the vendor's naming rules is below anything said of the size itself.
    assert SpecSource.rank(SpecSource.SPARECORES_LSCPU) < SpecSource.rank(SpecSource.VENDOR_NAMING)
    assert SpecSource.rank(None) == len(SpecSource.values)


def test_a_better_source_replaces_a_weaker_ones_value():
    record(SPARECORES, vcpus=4, memory_gib=Decimal(16), cpu_model="Intel Xeon 8175M")
    record(DESCRIBE, vcpus=2, memory_gib=Decimal(8))
    m5 = InstanceType.objects.get(name="m5.large")
    assert (m5.vcpus, m5.memory_gib, m5.cpu_model) == (2, 8, "Intel Xeon 8175M")
    assert m5.spec_sources == {"vcpus": DESCRIBE, "memory_gib": DESCRIBE, "cpu_model": SPARECORES}
    assert m5.source == "from describe_instance_types"


def test_a_weaker_source_never_overwrites_but_fills_what_is_unknown():
    record(DESCRIBE, vcpus=2, memory_gib=Decimal(8), architecture="x86_64")
    record(SPARECORES, vcpus=4, memory_gib=Decimal(16), architecture="arm64", gpu_count=0)
    m5 = InstanceType.objects.get(name="m5.large")
    assert (m5.vcpus, m5.memory_gib, m5.architecture, m5.gpu_count) == (2, 8, "x86_64", 0)
    assert m5.spec_sources["vcpus"] == DESCRIBE
    assert m5.spec_sources["gpu_count"] == SPARECORES
    # The full provenance stays the best source's.
    assert m5.source == "from describe_instance_types"


def test_a_source_replaces_its_own_earlier_values():
    record(SPARECORES, network_gbps=Decimal("0.75"))
    record(SPARECORES, network_gbps=Decimal("10"))
    assert InstanceType.objects.get(name="m5.large").network_gbps == 10


def test_loading_the_same_values_again_changes_nothing():
    first = record_specs(
        specs=[SpecUpdate("m2.4xlarge", {"memory_gib": Decimal(70041) / 1024})], source=SPARECORES
    )
    again = record_specs(
        specs=[SpecUpdate("m2.4xlarge", {"memory_gib": Decimal(70041) / 1024})], source=SPARECORES
    )
    assert (first.instance_types_created, again.specs_updated, again.unchanged) == (1, 0, 1)
    assert InstanceType.objects.get(name="m2.4xlarge").memory_gib == Decimal("68.399")


def test_a_burstable_type_gets_awss_documented_baseline_and_credits():
    record(
        SPARECORES, name="t4g.nano", vcpus=2, memory_gib=Decimal("0.5"), cpu_allocation="burstable"
    )
    nano = InstanceType.objects.get(name="t4g.nano")
    assert (nano.burstable, nano.baseline_share, nano.cpu_credits_per_hour) == (
        True,
        Decimal("0.05"),
        Decimal(6),
    )
    assert nano.spec_sources["baseline_share"] == SpecSource.AWS_DOCUMENTATION
    assert nano.spec_sources["cpu_allocation"] == SpecSource.AWS_DOCUMENTATION
    assert nano.specs_source == "AWS documentation; " + SPARECORES.label


def test_a_burstable_type_known_only_by_its_name_is_made_burstable():
    instance_type = InstanceType(name="t3a.micro")
    changed = apply_specs(instance_type, {}, source=SpecSource.PRICE_LIST)
    assert {"vcpus", "cpu_allocation", "burstable", "baseline_share"} <= changed
    assert (instance_type.vcpus, instance_type.baseline_share) == (2, Decimal("0.1"))


def test_a_type_that_is_not_burstable_has_no_baseline_or_credits():
    record(DESCRIBE, cpu_allocation="burstable", baseline_share=Decimal("0.2"))
    assert InstanceType.objects.get(name="m5.large").burstable
    record(DESCRIBE, cpu_allocation="dedicated")
    m5 = InstanceType.objects.get(name="m5.large")
    assert (m5.burstable, m5.baseline_share, m5.cpu_credits_per_hour) == (False, None, None)
    assert "baseline_share" not in m5.spec_sources


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"vcpus": 0}, "m5.large: vcpus must be above zero"),
        ({"architecture": "sparc"}, "m5.large: architecture 'sparc' is not x86_64 or arm64"),
        ({"cpu_allocation": "spare"}, "m5.large: cpu_allocation 'spare' is not one of"),
        ({"baseline_share": Decimal(2)}, "m5.large: baseline share 2 is not in (0, 1]"),
        ({"colour": "blue"}, "m5.large: colour are not specifications"),
    ],
)
def test_impossible_values_are_refused_naming_the_type_and_field(values, message):
    with pytest.raises(DomainError, match=message.replace("(", r"\(").replace("]", r"\]")):
        record(SPARECORES, **values)
    assert not InstanceType.objects.filter(name="m5.large").exists()


def test_describe_instance_types_wins_over_spare_cores_whichever_loads_first(aws_snapshot):
    price_services.import_bundled_specs()
    c7a = InstanceType.objects.get(name="c7a.xlarge")
    assert c7a.spec_sources["vcpus"] == DESCRIBE
    assert c7a.spec_sources["cpu_model"] == SPARECORES
    assert c7a.cpu_model.startswith("AMD EPYC")
    assert c7a.source.startswith("EC2 describe_instance_types response")
    # A fresh describe_instance_types import replaces what it says, and only that.
    spec = InstanceSpecRecord(
        name="c7a.xlarge", vcpus=4, memory_gib=Decimal(16), architecture="x86_64", source="new"
    )
    price_services.update_instance_specs(specs=[spec])
    c7a.refresh_from_db()
    assert (c7a.memory_gib, c7a.source, c7a.spec_sources["cpu_model"]) == (16, "new", SPARECORES)


@pytest.fixture
def aws_snapshot():
    price_services.import_snapshot()


def test_the_bundled_specifications_load_in_bulk_once(django_assert_max_num_queries):
    rows = list(snapshot.read_instance_specs(BUNDLED_SPECS_FILE))
    by_source = Counter(row.spec_source for row in rows)
    # Spare Cores' 1,145 types; AWS's guide for three previous-generation ones it lacks; 56
    # newer types as the machines described themselves in Spare Cores' inspector data; 14
    # measured in the newer kinds' archive alone, from AWS's describe_instance_types.
    assert by_source == {
        SPARECORES: 1145,
        "aws_documentation": 3,
        "sparecores_lscpu": 56,
        "describe_instance_types": 14,
    }
    with django_assert_max_num_queries(30):
        summary = price_services.import_bundled_specs()
    assert summary.instance_types_created == len(rows) == 1218
    again = price_services.import_bundled_specs()
    assert (again.instance_types_created, again.specs_updated, again.unchanged) == (0, 0, 1218)
    cr1 = InstanceType.objects.get(name="cr1.8xlarge")
    assert (cr1.vcpus, cr1.memory_gib, cr1.architecture) == (32, Decimal("243.76"), "x86_64")
    assert cr1.specs_source == SpecSource.AWS_DOCUMENTATION.label
    t2 = InstanceType.objects.get(name="t2.nano")
    assert (t2.architecture, t2.memory_gib, t2.cpu_allocation) == (
        "x86_64",
        Decimal("0.5"),
        "burstable",
    )
    assert t2.cpu_model == "Intel Xeon E5-2686 v4"
    assert "CC BY-SA 4.0" in InstanceType.objects.get(name="m5.large").source


def test_writing_specifications_moves_every_regions_stamp():
    record(SPARECORES, vcpus=2)
    assert not Region.objects.filter(prices_updated_at=None).exists()


def test_lscpu_from_spare_cores_fills_but_never_replaces_the_server_table():
    record(SPARECORES, name="c7g.large", vcpus=2, architecture="arm64")
    cpu = CpuInfo(
        model_name="Neoverse-V1",
        architecture="aarch64",
        cpus=4,
        threads_per_core=1,
        cores_per_socket=4,
        sockets=1,
    )
    created = sparecores.ensure_instance_type("c7g.large", cpu, source="lscpu")
    c7g = InstanceType.objects.get(name="c7g.large")
    assert not created
    assert (c7g.vcpus, c7g.physical_cores) == (2, 4)
    assert c7g.spec_sources["physical_cores"] == SpecSource.SPARECORES_LSCPU


def test_the_price_lists_network_performance_fills_but_never_replaces(aws_snapshot):
    def price(name: str) -> PriceRecord:
        return PriceRecord(
            instance_type=name,
            region="us-east-1",
            purchase_option="on_demand",
            usd_per_hour=Decimal("0.2"),
            effective_from=datetime.date(2026, 8, 1),
            source="a price list",
            network_performance="Very fast",
        )

    price_services.record_prices(records=[price("c7a.xlarge"), price("m7i-flex.large")])
    c7a = InstanceType.objects.get(name="c7a.xlarge")
    assert c7a.network_performance == "Up to 12.5 Gigabit"
    assert c7a.spec_sources["network_performance"] == DESCRIBE
    flex = InstanceType.objects.get(name="m7i-flex.large")
    assert flex.network_performance == "Very fast"
    assert flex.spec_sources == {"network_performance": SpecSource.PRICE_LIST}


def test_a_burstable_type_first_seen_in_a_price_gets_awss_figures():
    price_services.record_prices(
        records=[
            PriceRecord(
                instance_type="t4g.nano",
                region="us-east-1",
                purchase_option="on_demand",
                usd_per_hour=Decimal("0.0042"),
                effective_from=datetime.date(2026, 7, 20),
                source="a price list",
            )
        ]
    )
    nano = InstanceType.objects.get(name="t4g.nano")
    assert (nano.vcpus, nano.cpu_allocation, nano.baseline_share) == (
        2,
        "burstable",
        Decimal("0.05"),
    )
