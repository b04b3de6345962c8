"""Serializers: declarations of what the API reads and writes."""

from rest_framework import serializers
from rest_framework.reverse import reverse

from benchmarks import selectors
from benchmarks.models import Benchmark, InstanceType, Price, PurchaseOption, Region, Result, Run


class RegionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Region
        fields = ["code", "name", "pricing_location"]


class InstanceTypeSerializer(serializers.ModelSerializer):
    vcpus = serializers.FloatField()
    memory_gib = serializers.FloatField()
    baseline_share = serializers.FloatField()

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


class BenchmarkSerializer(serializers.ModelSerializer):
    class Meta:
        model = Benchmark
        fields = ["key", "unit", "higher_is_better", "description"]


class BenchmarkDetailSerializer(BenchmarkSerializer):
    """A benchmark with the parameter values its results were measured with."""

    params = serializers.SerializerMethodField()

    class Meta(BenchmarkSerializer.Meta):
        fields = [*BenchmarkSerializer.Meta.fields, "params"]

    def get_params(self, benchmark: Benchmark) -> dict[str, list]:
        return selectors.benchmark_params(benchmark)


class ResultSerializer(serializers.ModelSerializer):
    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")

    class Meta:
        model = Result
        fields = ["benchmark", "params", "value", "unit", "notes"]


class RunSerializer(serializers.ModelSerializer):
    instance_type = serializers.CharField(source="instance_type.name", default=None)
    region = serializers.CharField(source="region.code", default=None)
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


class RunUploadSerializer(serializers.Serializer):
    """`POST runs/`: a raw output with its machine, or a CSV/JSON table naming its own."""

    file = serializers.FileField()
    instance_type = serializers.CharField(required=False, allow_blank=True)
    region = serializers.CharField(required=False, allow_blank=True)
    variant = serializers.CharField(required=False, allow_blank=True, default="")
    measured_at = serializers.DateField(required=False, allow_null=True)
    format = serializers.CharField(required=False, default="auto")
    source = serializers.CharField(required=False, allow_blank=True, default="")
    licence = serializers.CharField(required=False, allow_blank=True, default="")


def _comma_list(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


class PricePerformanceQuerySerializer(serializers.Serializer):
    """The fixed query parameters of `price-performance/`; others are benchmark params."""

    benchmark = serializers.CharField()
    region = serializers.CharField()
    purchase_option = serializers.ChoiceField(
        choices=PurchaseOption.choices, default=PurchaseOption.ON_DEMAND
    )
    at = serializers.DateField(required=False)
    instance_types = serializers.CharField(required=False)
    families = serializers.CharField(required=False, help_text="e.g. fargate,t2,c7g")
    baseline = serializers.CharField(required=False)

    # DRF's own query parameters, never a benchmark's.
    reserved = ("format", "limit", "offset")

    def to_internal_value(self, data):
        """The fixed fields, plus `params`: every other query parameter, by name."""
        values = super().to_internal_value(data)
        values["params"] = {
            name: value
            for name, value in data.items()
            if name not in self.fields and name not in self.reserved
        }
        return values

    def validate_instance_types(self, value: str) -> list[str]:
        return _comma_list(value)

    def validate_families(self, value: str) -> list[str]:
        return _comma_list(value)


class PricePerformanceRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    kind = serializers.CharField()
    family = serializers.CharField()
    runs = serializers.IntegerField()
    median = serializers.FloatField()
    min = serializers.FloatField()
    max = serializers.FloatField()
    values = serializers.ListField(child=serializers.FloatField())
    cpu_models = serializers.DictField(child=serializers.IntegerField())
    usd_per_hour = serializers.FloatField(allow_null=True)
    price_note = serializers.CharField(allow_null=True)
    per_dollar = serializers.FloatField(allow_null=True)
    baseline_share = serializers.FloatField(allow_null=True)
    sustained_per_dollar = serializers.FloatField(allow_null=True)
    relative_throughput = serializers.FloatField(allow_null=True)
    relative_cost = serializers.FloatField(allow_null=True)
    relative_per_dollar = serializers.FloatField(allow_null=True)


class PricePerformanceSerializer(serializers.Serializer):
    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")
    higher_is_better = serializers.BooleanField(source="benchmark.higher_is_better")
    region = serializers.CharField(source="region.code")
    purchase_option = serializers.CharField()
    at = serializers.DateField()
    params = serializers.DictField()
    baseline = serializers.CharField(allow_null=True)
    results = PricePerformanceRowSerializer(many=True)
