"""Serializers: declarations of what the API reads and writes."""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.answer_fields import purchase_fields
from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Region, Result, Run
from benchmarks.questions.price_performance import BASES, PRICE_DATES
from benchmarks.selectors import answer_sentence
from benchmarks.selectors.price_performance import PricePerformanceRow, PricePerformanceTable


class RegionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Region
        fields = ["code", "name", "pricing_location"]


class InstanceTypeSerializer(serializers.ModelSerializer):
    # Null until the type's specifications are imported (a type seen only in prices).
    vcpus = serializers.FloatField(allow_null=True)
    memory_gib = serializers.FloatField(allow_null=True)
    baseline_share = serializers.FloatField(allow_null=True)
    cpu_credits_per_hour = serializers.FloatField(allow_null=True)
    network_gbps = serializers.FloatField(allow_null=True)
    specs_source = serializers.CharField(
        read_only=True, help_text="The sources of the specifications, best first."
    )

    class Meta:
        model = InstanceType
        fields = [
            "name",
            "kind",
            "family",
            "vcpus",
            "memory_gib",
            "architecture",
            "physical_cores",
            "threads_per_core",
            "cpu_family",
            "cpu_model",
            "gpu_count",
            "network_gbps",
            "cpu_allocation",
            "burstable",
            "baseline_share",
            "cpu_credits_per_hour",
            "specs_source",
            "source",
        ]


# A price period of a region: what every list of prices and rates shares. (No docstring:
# the schema would describe every price list with it.)
class DatedPriceSerializer(serializers.ModelSerializer):
    region = serializers.CharField(source="region.code")

    # The period's fields, last in every price's answer.
    PERIOD = ["effective_from", "effective_to", "source"]


class BlankAsNull(serializers.CharField):
    """A text field that is empty where it does not apply, written as null."""

    def __init__(self, **options):
        super().__init__(allow_null=True, read_only=True, **options)

    def to_representation(self, value):
        return value or None


# A commitment's fields, null where they do not apply (prices/, fargate-rates/).
COMMITMENT_HELP = {
    "term": "reserved, savings_plan: 1y or 3y",
    "payment": "reserved, savings_plan: no_upfront, partial_upfront or all_upfront",
    "offering_class": "reserved: standard or convertible",
    "plan": "savings_plan: compute or ec2_instance",
}


class PriceSerializer(DatedPriceSerializer):
    instance_type = serializers.CharField(source="instance_type.name")
    availability_zone = BlankAsNull(help_text="spot: the zone; null otherwise")
    usd_per_hour = serializers.FloatField(
        help_text="With a commitment: the effective hourly price (upfront / hours + hourly)"
    )
    term = BlankAsNull(help_text=COMMITMENT_HELP["term"])
    payment = BlankAsNull(help_text=COMMITMENT_HELP["payment"])
    offering_class = BlankAsNull(help_text=COMMITMENT_HELP["offering_class"])
    plan = BlankAsNull(help_text=COMMITMENT_HELP["plan"])
    upfront_usd = serializers.FloatField(allow_null=True, help_text="A commitment's upfront fee")
    hourly_usd = serializers.FloatField(allow_null=True, help_text="A commitment's hourly fee")

    class Meta:
        model = Price
        fields = [
            "instance_type",
            "region",
            "purchase_option",
            "availability_zone",
            "os",
            "term",
            "payment",
            "offering_class",
            "plan",
            "upfront_usd",
            "hourly_usd",
            "usd_per_hour",
            *DatedPriceSerializer.PERIOD,
        ]


class FargateRateSerializer(DatedPriceSerializer):
    usd_per_unit_hour = serializers.FloatField()
    unit = serializers.SerializerMethodField()
    term = BlankAsNull(help_text=COMMITMENT_HELP["term"])
    payment = BlankAsNull(help_text=COMMITMENT_HELP["payment"])
    plan = BlankAsNull(help_text="savings_plan: compute")

    class Meta:
        model = FargateRate
        fields = [
            "region",
            "architecture",
            "operating_system",
            "purchase_option",
            "term",
            "payment",
            "plan",
            "component",
            "unit",
            "usd_per_unit_hour",
            *DatedPriceSerializer.PERIOD,
        ]

    def get_unit(self, rate: FargateRate) -> str:
        return FargateRate.Component(rate.component).label


class BenchmarkSerializer(serializers.ModelSerializer):
    class Meta:
        model = Benchmark
        fields = ["key", "unit", "higher_is_better", "group", "description"]


class BenchmarkDetailSerializer(BenchmarkSerializer):
    """A benchmark with the parameter values its results were measured with."""

    class Meta(BenchmarkSerializer.Meta):
        fields = [*BenchmarkSerializer.Meta.fields, "params", "families"]


class ResultSerializer(serializers.ModelSerializer):
    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")

    class Meta:
        model = Result
        fields = ["benchmark", "params", "value", "unit", "notes"]


class RunSerializer(serializers.ModelSerializer):
    # Null for a table upload (its rows name their own) and where it was not recorded.
    instance_type = serializers.CharField(
        source="instance_type.name", default=None, allow_null=True
    )
    region = serializers.CharField(source="region.code", default=None, allow_null=True)
    variant = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Run
        fields = [
            "id",
            "url",
            "status",
            "instance_type",
            "region",
            "variant",
            "cpu_model",
            "measured_at",
            "format",
            "tool_version",
            "filename",
            "content_hash",
            "error",
            "warnings",
            "source",
            "licence",
            "parent",
            "created_at",
            "finished_at",
            "withdrawn_at",
        ]

    def get_variant(self, run: Run) -> str | None:
        return run.variant or None

    def get_url(self, run: Run) -> str:
        return reverse("api:run-detail", args=[run.pk], request=self.context.get("request"))


class RunDetailSerializer(RunSerializer):
    results = ResultSerializer(many=True, read_only=True)
    children = RunSerializer(many=True, read_only=True)

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "results", "children"]


class RunUploadedSerializer(RunSerializer):
    """The answer to `POST runs/` (written by the view): the run, where to follow it, and
    whether it is new."""

    status_url = serializers.URLField(help_text="The run's URL: its status until ingested")
    created = serializers.BooleanField(help_text="False: the same upload was stored before")

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "status_url", "created"]


@extend_schema_field(OpenApiTypes.BINARY)
class UploadedFileField(serializers.FileField):
    """A file part of a multipart body (drf-spectacular would document a file's URL)."""


class RunUploadSerializer(serializers.Serializer):
    """`POST runs/`: a raw output with its machine, or a CSV/JSON table naming its own."""

    file = UploadedFileField()
    instance_type = serializers.CharField(required=False, allow_blank=True)
    region = serializers.CharField(required=False, allow_blank=True)
    variant = serializers.CharField(required=False, allow_blank=True, default="")
    measured_at = serializers.DateField(required=False, allow_null=True)
    format = serializers.CharField(required=False, default="auto")
    source = serializers.CharField(required=False, allow_blank=True, default="")
    licence = serializers.CharField(required=False, allow_blank=True, default="")


@dataclass(frozen=True)
class Column:
    """One field of a price-performance row: its schema and how the answer writes it."""

    name: str
    field: serializers.Field
    # Written through _number (a whole float as an integer).
    number: bool = False
    # The value as a Python expression of `row` (default: the row's attribute of the name).
    read: str | None = None

    @property
    def expression(self) -> str:
        value = self.read or f"row.{self.name}"
        return f"_number({value})" if self.number else value


@dataclass(frozen=True)
class ColumnGroup:
    """Fields written together: for every row, or only where they apply."""

    columns: tuple[Column, ...]
    # Whether the question asks for them (None: always) ...
    asked: Callable[[PricePerformanceTable], bool] | None = None
    # ... and whether a row has them, as a Python expression of `row` (None: every row).
    present: str | None = None


def _float(help_text: str = "", **options) -> serializers.FloatField:
    return serializers.FloatField(help_text=help_text, **options)


# The one declaration of a price-performance row: the schema's serializer is made from it
# and `price_performance_answer` writes rows by it, in this order.
ROW = (
    ColumnGroup(
        (
            Column("instance_type", serializers.CharField()),
            Column("variant", serializers.CharField(allow_null=True)),
            Column(
                "family",
                serializers.CharField(help_text="c7g for c7g.xlarge; fargate for Fargate tasks"),
            ),
            Column("vcpus", _float(allow_null=True), number=True),
            Column("runs", serializers.IntegerField()),
            Column(
                "results",
                serializers.IntegerField(help_text="Single values behind the statistics"),
            ),
            Column("median", _float(), number=True),
            Column("min", _float(), number=True),
            Column("max", _float(), number=True),
            Column("cpu_models", serializers.DictField(child=serializers.IntegerField())),
            Column(
                "measured_in",
                serializers.ListField(
                    child=serializers.CharField(allow_null=True),
                    help_text="Regions the results were measured in; null: not recorded",
                ),
            ),
            Column("usd_per_hour", _float(), number=True),
            Column("price_note", serializers.CharField(allow_null=True)),
            Column(
                "per_dollar",
                _float("What a dollar buys on the basis asked (`basis`)", allow_null=True),
                number=True,
            ),
            Column(
                "price_effective_from",
                serializers.DateField(
                    allow_null=True, help_text="The day the price used came into force"
                ),
                read="row.price_effective_from and row.price_effective_from.isoformat()",
            ),
            Column("burstable", serializers.BooleanField()),
            Column(
                "cpu_allocation",
                serializers.CharField(
                    help_text="dedicated, shared (no published baseline) or burstable; "
                    "empty where unknown"
                ),
            ),
            Column(
                "flagged_runs",
                serializers.IntegerField(
                    help_text="Runs left out of the figures: capped, reported errors, failed "
                    "responses"
                ),
            ),
        )
    ),
    ColumnGroup(
        (
            Column(
                "only_flagged",
                serializers.BooleanField(
                    required=False,
                    help_text="Present (true) when every run was flagged: figures from them",
                ),
            ),
        ),
        present="row.only_flagged",
    ),
    ColumnGroup(
        (
            Column("first_quartile", _float("With include=quartiles", required=False), number=True),
            Column("third_quartile", _float("With include=quartiles", required=False), number=True),
        ),
        asked=lambda table: table.include_quartiles,
    ),
    ColumnGroup(
        (
            Column(
                "advertised_bandwidth",
                serializers.CharField(
                    required=False,
                    allow_null=True,
                    help_text="Bandwidths (bit/s): AWS's words, e.g. 100 Gigabit",
                ),
            ),
            Column(
                "gbit_per_second_per_usd_hour",
                _float(
                    "Bandwidths (bit/s): Gbit/s per dollar-hour", required=False, allow_null=True
                ),
                number=True,
            ),
        ),
        present="row.gbit_per_second_per_usd_hour is not None or row.advertised_bandwidth",
    ),
    ColumnGroup(
        (
            Column(
                "baseline_share",
                _float("Burstable types: the share of each vCPU sustained", required=False),
                number=True,
            ),
            Column(
                "burst_per_dollar",
                _float("Burstable types: per dollar at the burst figure", required=False),
                number=True,
            ),
            Column(
                "sustained_per_dollar",
                _float(
                    "Burstable types: per dollar once the CPU credits are spent",
                    required=False,
                    allow_null=True,
                ),
                number=True,
            ),
            Column(
                "burst_minutes",
                _float(
                    "Burstable types: minutes a full credit balance lasts at full load; null: "
                    "the load never spends more than it earns",
                    required=False,
                    allow_null=True,
                ),
                read="row.burst_minutes and round(row.burst_minutes, 1)",
                number=True,
            ),
        ),
        present="row.baseline_share is not None",
    ),
    ColumnGroup(
        (
            Column(
                "unlimited_usd_per_hour",
                _float(
                    "basis=unlimited, burstable types: the hourly price running flat out, "
                    "surplus credits included",
                    required=False,
                ),
                number=True,
            ),
        ),
        present="row.unlimited_usd_per_hour is not None",
    ),
    ColumnGroup(
        (
            Column("relative_throughput", _float(required=False, allow_null=True), number=True),
            Column("relative_cost", _float(required=False, allow_null=True), number=True),
            Column("relative_per_dollar", _float(required=False, allow_null=True), number=True),
        ),
        asked=lambda table: bool(table.baseline),
    ),
    ColumnGroup(
        (
            Column(
                "values",
                serializers.ListField(child=serializers.FloatField(), required=False),
                read="[_number(value) for value, _cpu in row.samples]",
            ),
            Column("values_cut", serializers.BooleanField(required=False)),
        ),
        asked=lambda table: table.include_values,
    ),
    ColumnGroup(
        (
            Column(
                "upfront_usd",
                _float(
                    "With a commitment: its upfront fee, once per term",
                    allow_null=True,
                    required=False,
                ),
                number=True,
            ),
            Column(
                "hourly_usd",
                _float(
                    "With a commitment: its hourly fee; usd_per_hour spreads the upfront fee "
                    "over the term's hours and adds this",
                    allow_null=True,
                    required=False,
                ),
                number=True,
            ),
        ),
        asked=lambda table: table.purchase.is_commitment,
    ),
)

PricePerformanceRowSerializer = type(
    "PricePerformanceRowSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "One row; burstable, baseline and value fields only where they apply.\n\n"
        "A declaration for the schema, made from ROW: `price_performance_answer` writes the rows.",
        **{column.name: column.field for group in ROW for column in group.columns},
    },
)


class UnpricedSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    runs = serializers.IntegerField()
    median = serializers.FloatField()


class PricePerformanceSerializer(serializers.Serializer):
    """The schema's description of `price-performance/` (`price_performance_answer` writes it)."""

    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")
    higher_is_better = serializers.BooleanField(source="benchmark.higher_is_better")
    region = serializers.CharField(source="region.code", help_text="Where the prices come from")
    purchase_option = serializers.CharField()
    term, payment, offering_class, plan, spot_zone = purchase_fields()
    at = serializers.DateField()
    params = serializers.DictField()
    baseline = serializers.CharField(allow_null=True)
    measured_in = serializers.CharField(allow_null=True)
    basis = serializers.ChoiceField(choices=BASES, help_text="What burstable types are ranked by")
    price_dates = serializers.ChoiceField(choices=PRICE_DATES)
    summary = serializers.CharField(help_text="One sentence answering the question")
    results = PricePerformanceRowSerializer(many=True)
    unpriced = UnpricedSerializer(many=True)


def price_performance_answer(table: PricePerformanceTable) -> dict:
    """The answer PricePerformanceSerializer declares, written as plain dicts by ROW.

    Not through DRF's field-by-field path, which is slow for a thousand rows, and not through
    a serializer instance, which keeps its rows in a reference cycle (its fields point back at
    it) until the garbage collector runs: plain dicts go as soon as the answer is sent.
    """
    benchmark = table.benchmark
    return {
        "benchmark": benchmark.key,
        "unit": benchmark.unit,
        "higher_is_better": benchmark.higher_is_better,
        "region": table.region.code,
        "purchase_option": table.purchase_option,
        **table.purchase.answer_fields(),
        "at": table.at.isoformat(),
        "params": table.params,
        "baseline": table.baseline,
        "measured_in": table.measured_in,
        "basis": table.basis,
        "price_dates": table.price_dates,
        "summary": answer_sentence.summary(table),
        "results": list(map(_row_writer(table), table.results)),
        "unpriced": [
            {
                "instance_type": unpriced.instance_type,
                "variant": unpriced.variant,
                "reason": unpriced.reason,
                "runs": unpriced.runs,
                "median": _number(unpriced.median),
            }
            for unpriced in table.unpriced
        ],
    }


def _number(value: float | int | None) -> float | int | None:
    """A whole float as an integer: 12076, not 12076.0. Every figure of a price-performance
    answer goes through here.

    JSON has one kind of number and JavaScript reads both alike, and the answer is shorter
    without a thousand rows' ".0". From 1e16 on, floats are written with an exponent
    (1.2345e+16), shorter than the integer's digits.
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return int(value)
    return value


def _row_writer(table: PricePerformanceTable) -> Callable[[PricePerformanceRow], dict]:
    """The function that writes one row as ROW declares it, for this question."""
    return _writer(tuple(group.asked is None or bool(group.asked(table)) for group in ROW))


@functools.cache
def _writer(asked: tuple[bool, ...]) -> Callable[[PricePerformanceRow], dict]:
    """A row writer for the groups asked, made from ROW's expressions as `dataclasses` makes
    an `__init__`: as fast as a dict literal written by hand, from the one declaration."""
    first, *rest = [group for group, wanted in zip(ROW, asked, strict=True) if wanted]
    literal = ", ".join(f"{column.name!r}: {column.expression}" for column in first.columns)
    lines = ["def write(row):", f"    data = {{{literal}}}"]
    for group in rest:
        indent = "    "
        if group.present is not None:
            lines.append(f"    if {group.present}:")
            indent += "    "
        lines += [f"{indent}data[{c.name!r}] = {c.expression}" for c in group.columns]
    lines.append("    return data")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), {"_number": _number}, namespace)
    return namespace["write"]
