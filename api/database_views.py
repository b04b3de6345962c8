"""API views of databases (study S5): RDS and Aurora side by side, per dollar."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.forms import RESERVED
from benchmarks.selectors import databases


class DatabaseQuerySerializer(serializers.Serializer):
    """`database-price-performance/`: a benchmark, where prices come from, which engines."""

    benchmark = serializers.CharField(help_text="e.g. sysbench:oltp_read_write:queries")
    region = serializers.CharField(help_text="Region whose prices apply")
    engine = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text=f"Comma-separated engines ({', '.join(databases.ENGINES)}); default all",
    )
    deployment_option = serializers.ChoiceField(
        choices=databases.DEPLOYMENT_OPTIONS, default="Single-AZ"
    )
    instance_types = serializers.CharField(
        required=False, allow_blank=True, help_text="Comma-separated DB instance classes"
    )
    at = serializers.DateField(required=False, help_text="Prices in force that day")


class DatabaseRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField(help_text="The DB instance class, e.g. db.r3.large")
    engine = serializers.CharField(help_text="The run's variant, e.g. aurora-mysql")
    engine_name = serializers.CharField(help_text="AWS's name, e.g. Aurora MySQL")
    runs = serializers.IntegerField()
    median = serializers.FloatField()
    min = serializers.FloatField()
    max = serializers.FloatField()
    usd_per_hour = serializers.FloatField()
    price_source = serializers.CharField()
    per_dollar = serializers.FloatField(
        allow_null=True, help_text="Work per dollar: median * 3600 / usd_per_hour"
    )
    per_usd_hour = serializers.FloatField(
        allow_null=True, help_text="Per second per dollar-hour: median / usd_per_hour"
    )


class DatabaseUnpricedSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    engine = serializers.CharField()
    reason = serializers.CharField()
    runs = serializers.IntegerField()
    median = serializers.FloatField()


class DatabaseTableSerializer(serializers.Serializer):
    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")
    higher_is_better = serializers.BooleanField(source="benchmark.higher_is_better")
    region = serializers.CharField()
    deployment_option = serializers.CharField()
    at = serializers.DateField()
    params = serializers.DictField()
    results = DatabaseRowSerializer(many=True)
    unpriced = DatabaseUnpricedSerializer(many=True)


def _split(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


class DatabasePricePerformanceView(APIView):
    """RDS and Aurora engines on each DB instance class: the benchmark's statistics, the
    hourly price of the engine and deployment option, and what a dollar buys; rows of one
    class sit side by side. `format=csv` answers the rows as CSV."""

    @extend_schema(
        parameters=[
            DatabaseQuerySerializer,
            OpenApiParameter("<param>", str, description="Any parameter, e.g. threads=16"),
        ],
        responses=DatabaseTableSerializer,
    )
    def get(self, request):
        query = DatabaseQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        params = {
            name: value
            for name, value in request.query_params.items()
            if name not in DatabaseQuerySerializer().fields and name not in RESERVED and value
        }
        table = databases.database_price_performance(
            benchmark_key=data["benchmark"],
            region_code=data["region"],
            engines=_split(data.get("engine", "")),
            deployment_option=data["deployment_option"],
            at=data.get("at"),
            params=params,
            instance_types=_split(data.get("instance_types", "")),
        )
        return Response(DatabaseTableSerializer(table).data)
