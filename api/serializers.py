"""Serializers: declarations of what the API reads and writes."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from benchmarks import per_dollar
from benchmarks.currency import USD
from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Region, Result, Run
from benchmarks.questions.base import day_error
from benchmarks.selectors.pages.runs import held_results


class RegionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Region
        fields = ["code", "name", "pricing_location", "vendor"]


class InstanceTypeSerializer(serializers.ModelSerializer):
    # Null until the type's specifications are imported (a type seen only in prices).
    vcpus = serializers.FloatField(allow_null=True)
    memory_gib = serializers.FloatField(allow_null=True)
    baseline_share = serializers.FloatField(allow_null=True)
    cpu_credits_per_hour = serializers.FloatField(allow_null=True)
    network_gbps = serializers.FloatField(allow_null=True)
    gpu_memory_gib = serializers.FloatField(allow_null=True)
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
            "gpu_fraction",
            "gpu_model",
            "gpu_memory_gib",
            "network_gbps",
            "cpu_allocation",
            "burstable",
            "baseline_share",
            "cpu_credits_per_hour",
            "specs_source",
            "source",
            "vendor",
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
    vendor = serializers.CharField(source="instance_type.vendor", help_text="Whose type it is")
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
    currency = serializers.CharField(
        required=False,
        help_text="Rows of a vendor quoting another currency than USD: that currency (hcloud: EUR)",
    )
    price_per_hour = serializers.FloatField(
        source="quoted_per_hour",
        required=False,
        help_text="Rows of a vendor quoting another currency: its own quote in `currency` "
        "(hcloud: the net hourly price), to ten significant digits at most; `usd_per_hour` is "
        "it in US dollars (hcloud: at the ECB's rates of `effective_from`)",
    )

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
            "currency",
            "price_per_hour",
            *DatedPriceSerializer.PERIOD,
            "vendor",
        ]

    def to_representation(self, price: Price) -> dict:
        row = super().to_representation(price)
        if price.currency == USD or price.quoted_per_hour is None:
            del row["currency"], row["price_per_hour"]  # a US-dollar quote: usd_per_hour is it
        else:
            row["price_per_hour"] = per_dollar.significant(
                row["price_per_hour"], per_dollar.PRICE_DIGITS
            )
        return row


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
    verified = serializers.BooleanField(
        read_only=True, help_text="Its identity proof named this type: that machine, there"
    )
    verified_by = serializers.CharField(default=None, allow_null=True, read_only=True)
    verified_instance_type = serializers.CharField(default=None, allow_null=True, read_only=True)
    verified_region = serializers.CharField(default=None, allow_null=True, read_only=True)

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
            "verified",
            "verified_by",
            "verified_instance_type",
            "verified_region",
        ]

    def get_variant(self, run: Run) -> str | None:
        return run.variant or None

    def to_representation(self, run: Run) -> dict:
        body = super().to_representation(run)
        # What a proof does not name is null, as is everything of a run without a proof.
        for name in ("verified_by", "verified_instance_type", "verified_region"):
            body[name] = body[name] or None
        return body

    def get_url(self, run: Run) -> str:
        return reverse("api:run-detail", args=[run.pk], request=self.context.get("request"))


class RunDetailSerializer(RunSerializer):
    results = ResultSerializer(many=True, read_only=True)
    children = RunSerializer(many=True, read_only=True)
    held = serializers.SerializerMethodField(
        help_text="How many of its results (a table's: its rows') are held for review: "
        "kept, counted nowhere"
    )

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "results", "children", "held"]

    def get_held(self, run: Run) -> int:
        return held_results(run_id=run.pk)


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


class DayField(serializers.DateField):
    """A day, YYYY-MM-DD in ASCII digits: one that does not exist (`2017-02-30`) is refused
    saying so, not as a wrong format."""

    def to_internal_value(self, value):
        if isinstance(value, str) and value.strip():
            error = day_error(value)
            if error is not None:
                raise serializers.ValidationError(error)
        return super().to_internal_value(value)


class RunUploadSerializer(serializers.Serializer):
    """`POST runs/`: a raw output with its machine, or a CSV/JSON table naming its own."""

    file = UploadedFileField()
    instance_type = serializers.CharField(required=False, allow_blank=True)
    region = serializers.CharField(required=False, allow_blank=True)
    variant = serializers.CharField(required=False, allow_blank=True, default="")
    measured_at = DayField(
        required=False,
        allow_null=True,
        help_text="The day it was measured, YYYY-MM-DD: not after tomorrow (a day's allowance "
        "for time zones)",
    )
    format = serializers.CharField(required=False, default="auto")
    source = serializers.CharField(required=False, allow_blank=True, default="")
    licence = serializers.CharField(required=False, allow_blank=True, default="")
    identity = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=20_000,
        help_text="The cloud's signed identity proof as its metadata service gives it (AWS's "
        "PKCS7 instance identity signature, Google's instance identity token made out to "
        "this server, Azure's attested document asked with a nonce from POST runs/nonce/); "
        "checked before anything is stored",
    )


class IdentityNonceSerializer(serializers.Serializer):
    """A nonce for one identity proof (`POST runs/nonce/`)."""

    nonce = serializers.CharField(
        source="value",
        help_text="32 hex digits: ask Azure's IMDS for the attested document with it",
    )
    expires_at = serializers.DateTimeField(help_text="Upload the proof before this")
