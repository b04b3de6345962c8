"""API views of databases (study S5): RDS and Aurora side by side, per dollar."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from api.answer_fields import benchmark_fields, run_statistics
from api.question_views import QuestionView
from api.schema import benchmark_parameters
from benchmarks.questions.scaling import DatabaseForm
from benchmarks.selectors.subjects import databases


class DatabaseRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField(help_text="The DB instance class, e.g. db.r3.large")
    engine = serializers.CharField(help_text="The run's variant, e.g. aurora-mysql")
    engine_name = serializers.CharField(help_text="AWS's name, e.g. Aurora MySQL")
    runs, median, min, max = run_statistics()
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
    benchmark, unit, higher_is_better = benchmark_fields()
    region = serializers.CharField()
    deployment_option = serializers.CharField()
    at = serializers.DateField()
    params = serializers.DictField()
    results = DatabaseRowSerializer(many=True)
    unpriced = DatabaseUnpricedSerializer(many=True)
    summary = serializers.CharField(
        allow_null=True,
        help_text="Before any DB instance class is measured: what the answer needs and how",
    )


@extend_schema(parameters=[benchmark_parameters("e.g. threads=16")])
class DatabasePricePerformanceView(QuestionView):
    """RDS and Aurora engines on each DB instance class: the benchmark's statistics, the
    hourly price of the engine and deployment option, and what a dollar buys; rows of one
    class sit side by side. `format=csv` answers the rows as CSV. The benchmark's own
    parameters (`params`) are the ones it was measured with: any other is a 400 naming
    them, and so is one that a class's results were measured with several values of, until
    the question chooses one."""

    query_form = DatabaseForm
    takes_benchmark_parameters = True
    selector = staticmethod(databases.database_price_performance)
    serializer_class = DatabaseTableSerializer
