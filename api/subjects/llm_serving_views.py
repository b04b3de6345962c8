"""API views of LLM serving per dollar: a million output tokens of one model on each type at
its best load within the latency targets, and the models measured."""

from rest_framework import serializers

from api.answer_fields import purchase_fields
from api.question_views import QuestionView
from benchmarks.questions.llm_serving import LlmModelsForm, LlmServingForm
from benchmarks.selectors.subjects import llm_serving


class LlmServingRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    vendor = serializers.CharField()
    region = serializers.CharField(help_text="vendor:code of the region whose price it is")
    mode = serializers.CharField(help_text="cpu or gpu: what vLLM served the model on")
    gpu_model = serializers.CharField(
        allow_null=True, help_text="The type's GPU, from its specifications (null: none known)"
    )
    gpu_count = serializers.IntegerField(allow_null=True)
    strategy = serializers.CharField(help_text="GuideLLM's strategy of the load")
    concurrency = serializers.FloatField(help_text="The load's measured concurrent requests")
    output_tokens_per_second = serializers.FloatField()
    ttft_ms = serializers.FloatField(
        allow_null=True, help_text="Time to first token at the percentile asked"
    )
    tpot_ms = serializers.FloatField(
        allow_null=True, help_text="Time per output token at the percentile asked"
    )
    loads = serializers.IntegerField(help_text="Loads of the model and workload measured")
    loads_within_targets = serializers.IntegerField()
    usd_per_hour = serializers.FloatField(allow_null=True)
    usd_per_million_output_tokens = serializers.FloatField(
        allow_null=True,
        help_text="usd_per_hour / (output_tokens_per_second x 3600) x 10^6",
    )
    currency = serializers.CharField()
    price_per_hour = serializers.FloatField(allow_null=True, help_text="In `currency`")
    price_per_million_output_tokens = serializers.FloatField(
        allow_null=True, help_text="In `currency`"
    )
    price_note = serializers.CharField(allow_null=True)
    reason = serializers.CharField(
        allow_null=True, help_text="Why the row is not ranked (unpriced and unmet rows)"
    )


class LlmServingSerializer(serializers.Serializer):
    model = serializers.CharField()
    workload = serializers.CharField()
    percentile = serializers.CharField()
    max_ttft_ms = serializers.FloatField(allow_null=True)
    max_tpot_ms = serializers.FloatField(allow_null=True)
    mode = serializers.CharField(help_text="cpu, gpu, or empty for both")
    regions = serializers.ListField(child=serializers.CharField())
    at = serializers.DateField()
    purchase_option = serializers.CharField(source="purchase.option")
    term, payment, offering_class, plan, spot_zone = purchase_fields("purchase.answer_fields")
    currency = serializers.CharField(source="exchange_rate.currency")
    exchange_rate = serializers.FloatField(
        source="exchange_rate.per_usd", help_text="Units of `currency` per US dollar"
    )
    exchange_rate_date = serializers.DateField(source="exchange_rate.day", allow_null=True)
    summary = serializers.CharField()
    results = LlmServingRowSerializer(many=True, help_text="Cheapest per million tokens first")
    unpriced = LlmServingRowSerializer(many=True)
    unmet = LlmServingRowSerializer(
        many=True, help_text="Types whose loads all miss a target, each at its nearest load"
    )


class LlmServingView(QuestionView):
    """What a million output tokens of one model cost on each type (CPU and GPU together), at
    the load measured on it (vLLM, Spare Cores) that gives the most output tokens per second
    within the latency targets, cheapest first; types whose loads all miss a target are listed
    under `unmet` with their nearest load.

    Parameters bound each other as price-performance's: `region`, or `regions` (each
    vendor:region, a region its vendor has) instead; `vendor` is that of the regions asked."""

    query_form = LlmServingForm
    selector = staticmethod(llm_serving.llm_serving)
    serializer_class = LlmServingSerializer
    schema_names = {"model": llm_serving.llm_model_names}


class LlmModelSerializer(serializers.Serializer):
    model = serializers.CharField()
    workloads = serializers.ListField(child=serializers.CharField())
    instance_types = serializers.ListField(
        child=serializers.CharField(), help_text="vendor:name of each type measured serving it"
    )


class LlmModelsSerializer(serializers.Serializer):
    results = LlmModelSerializer(many=True, source="*", help_text="By model name")


class LlmModelsView(QuestionView):
    """The models vLLM served, each with its workloads and the types measured serving it."""

    query_form = LlmModelsForm
    selector = staticmethod(llm_serving.llm_models)
    serializer_class = LlmModelsSerializer
