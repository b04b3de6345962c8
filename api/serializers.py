"""Serializers: declarations of what the API reads and writes."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Region, Result, Run


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


class PricePerformanceRowSerializer(serializers.Serializer):
    """One row; burstable, baseline and value fields only where they apply."""

    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    kind = serializers.CharField()
    family = serializers.CharField()
    vcpus = serializers.FloatField(allow_null=True)
    runs = serializers.IntegerField()
    results = serializers.IntegerField(help_text="Single values behind the statistics")
    median = serializers.FloatField()
    min = serializers.FloatField()
    max = serializers.FloatField()
    first_quartile = serializers.FloatField()
    third_quartile = serializers.FloatField()
    cpu_models = serializers.DictField(child=serializers.IntegerField())
    measured_in = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Regions the results were measured in; null: not recorded",
    )
    usd_per_hour = serializers.FloatField()
    price_note = serializers.CharField(allow_null=True)
    per_dollar = serializers.FloatField(allow_null=True)
    baseline_share = serializers.FloatField(required=False)
    sustained_per_dollar = serializers.FloatField(required=False, allow_null=True)
    relative_throughput = serializers.FloatField(required=False, allow_null=True)
    relative_cost = serializers.FloatField(required=False, allow_null=True)
    relative_per_dollar = serializers.FloatField(required=False, allow_null=True)
    values = serializers.ListField(child=serializers.FloatField(), required=False)
    values_cut = serializers.BooleanField(required=False)

    BURSTABLE = ("baseline_share", "sustained_per_dollar")
    RELATIVE = ("relative_throughput", "relative_cost", "relative_per_dollar")

    def to_representation(self, row):
        data = super().to_representation(row)
        if row.baseline_share is None:
            for name in self.BURSTABLE:
                data.pop(name)
        if not self.context.get("baseline"):
            for name in self.RELATIVE:
                data.pop(name)
        if self.context.get("include_values"):
            data["values"] = [value for value, _cpu in row.samples]
            data["values_cut"] = row.values_cut
        else:
            data.pop("values", None)
            data.pop("values_cut", None)
        return data


class UnpricedSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    runs = serializers.IntegerField()
    median = serializers.FloatField()


class PricePerformanceSerializer(serializers.Serializer):
    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")
    higher_is_better = serializers.BooleanField(source="benchmark.higher_is_better")
    region = serializers.CharField(source="region.code", help_text="Where the prices come from")
    purchase_option = serializers.CharField()
    at = serializers.DateField()
    params = serializers.DictField()
    baseline = serializers.CharField(allow_null=True)
    measured_in = serializers.CharField(allow_null=True)
    results = serializers.SerializerMethodField()
    unpriced = UnpricedSerializer(many=True)

    @extend_schema_field(PricePerformanceRowSerializer(many=True))
    def get_results(self, table):
        context = {"baseline": table.baseline, "include_values": table.include_values}
        return PricePerformanceRowSerializer(table.results, many=True, context=context).data
