"""Serializers: declarations of what the API reads and writes."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Region, Result, Run
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
            "burstable",
            "baseline_share",
            "source",
        ]


class PriceSerializer(serializers.ModelSerializer):
    instance_type = serializers.CharField(source="instance_type.name")
    region = serializers.CharField(source="region.code")
    availability_zone = serializers.SerializerMethodField()
    usd_per_hour = serializers.FloatField()

    class Meta:
        model = Price
        fields = [
            "instance_type",
            "region",
            "purchase_option",
            "availability_zone",
            "usd_per_hour",
            "effective_from",
            "effective_to",
            "source",
        ]

    def get_availability_zone(self, price: Price) -> str | None:
        return price.availability_zone or None


class FargateRateSerializer(serializers.ModelSerializer):
    region = serializers.CharField(source="region.code")
    usd_per_unit_hour = serializers.FloatField()
    unit = serializers.SerializerMethodField()

    class Meta:
        model = FargateRate
        fields = [
            "region",
            "architecture",
            "operating_system",
            "component",
            "unit",
            "usd_per_unit_hour",
            "effective_from",
            "effective_to",
            "source",
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


class PricePerformanceRowSerializer(serializers.Serializer):
    """One row; burstable, baseline and value fields only where they apply.

    A declaration for the schema: `price_performance_answer` writes the rows."""

    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    family = serializers.CharField(help_text="c7g for c7g.xlarge; fargate for Fargate tasks")
    vcpus = serializers.FloatField(allow_null=True)
    runs = serializers.IntegerField()
    results = serializers.IntegerField(help_text="Single values behind the statistics")
    median = serializers.FloatField()
    min = serializers.FloatField()
    max = serializers.FloatField()
    first_quartile = serializers.FloatField(required=False, help_text="With include=quartiles")
    third_quartile = serializers.FloatField(required=False, help_text="With include=quartiles")
    cpu_models = serializers.DictField(child=serializers.IntegerField())
    measured_in = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Regions the results were measured in; null: not recorded",
    )
    usd_per_hour = serializers.FloatField()
    price_note = serializers.CharField(allow_null=True)
    per_dollar = serializers.FloatField(allow_null=True)
    flagged_runs = serializers.IntegerField(
        help_text="Runs left out of the figures: capped, reported errors, failed responses"
    )
    only_flagged = serializers.BooleanField(
        required=False, help_text="Present (true) when every run was flagged: figures from them"
    )
    baseline_share = serializers.FloatField(required=False)
    sustained_per_dollar = serializers.FloatField(required=False, allow_null=True)
    relative_throughput = serializers.FloatField(required=False, allow_null=True)
    relative_cost = serializers.FloatField(required=False, allow_null=True)
    relative_per_dollar = serializers.FloatField(required=False, allow_null=True)
    values = serializers.ListField(child=serializers.FloatField(), required=False)
    values_cut = serializers.BooleanField(required=False)
    advertised_bandwidth = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="Bandwidths (bit/s): AWS's words, e.g. 100 Gigabit",
    )
    gbit_per_second_per_usd_hour = serializers.FloatField(
        required=False, allow_null=True, help_text="Bandwidths (bit/s): Gbit/s per dollar-hour"
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
    at = serializers.DateField()
    params = serializers.DictField()
    baseline = serializers.CharField(allow_null=True)
    measured_in = serializers.CharField(allow_null=True)
    results = PricePerformanceRowSerializer(many=True)
    unpriced = UnpricedSerializer(many=True)


def price_performance_answer(table: PricePerformanceTable) -> dict:
    """The answer PricePerformanceSerializer declares, written by hand in plain dicts.

    DRF's field-by-field path took most of a 1,000-row answer's time. And a serializer keeps
    its instance in a reference cycle (its fields point back at it): each answer's thousand
    rows then waited for the garbage collector, which ran in the middle of a later answer
    for 10 to 20 ms every tenth answer (docs/performance.md). Plain dicts go as soon as the
    answer is sent.
    """
    benchmark = table.benchmark
    return {
        "benchmark": benchmark.key,
        "unit": benchmark.unit,
        "higher_is_better": benchmark.higher_is_better,
        "region": table.region.code,
        "purchase_option": table.purchase_option,
        "at": table.at.isoformat(),
        "params": table.params,
        "baseline": table.baseline,
        "measured_in": table.measured_in,
        "results": [_row(row, table) for row in table.results],
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

    JSON has one kind of number and JavaScript reads both alike; the ".0" of a thousand rows'
    five figures was 3% of a 1,000-row answer. From 1e16 on, floats are written with an
    exponent (1.2345e+16), shorter than the integer's digits.
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return int(value)
    return value


def _row(row: PricePerformanceRow, table: PricePerformanceTable) -> dict:
    """One row as PricePerformanceRowSerializer declares it."""
    data = {
        "instance_type": row.instance_type,
        "variant": row.variant,
        "family": row.family,
        "vcpus": _number(row.vcpus),
        "runs": row.runs,
        "results": row.results,
        "median": _number(row.median),
        "min": _number(row.min),
        "max": _number(row.max),
        "cpu_models": row.cpu_models,
        "measured_in": row.measured_in,
        "usd_per_hour": _number(row.usd_per_hour),
        "price_note": row.price_note,
        "per_dollar": _number(row.per_dollar),
        "flagged_runs": row.flagged_runs,
    }
    if row.only_flagged:
        data["only_flagged"] = True
    if table.include_quartiles:
        data["first_quartile"] = _number(row.first_quartile)
        data["third_quartile"] = _number(row.third_quartile)
    if row.gbit_per_second_per_usd_hour is not None or row.advertised_bandwidth:
        data["advertised_bandwidth"] = row.advertised_bandwidth
        data["gbit_per_second_per_usd_hour"] = _number(row.gbit_per_second_per_usd_hour)
    if row.baseline_share is not None:
        data["baseline_share"] = _number(row.baseline_share)
        data["sustained_per_dollar"] = _number(row.sustained_per_dollar)
    if table.baseline:
        data["relative_throughput"] = _number(row.relative_throughput)
        data["relative_cost"] = _number(row.relative_cost)
        data["relative_per_dollar"] = _number(row.relative_per_dollar)
    if table.include_values:
        data["values"] = [_number(value) for value, _cpu in row.samples]
        data["values_cut"] = row.values_cut
    return data
