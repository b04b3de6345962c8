"""LLM serving per dollar (`llm-serving/`, issue 46 item 4): each type's best measured load
within the latency targets, its tokens per second and dollars per million output tokens,
cheapest first, CPU and GPU types together, across clouds; types meeting no target under
`unmet`. Results stored as the vllm importer stores them (/tmp/vllm_shape.md: one result
per measurement, the load in its parameters), their statistics kept as ingest keeps them."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from benchmarks import freshness
from benchmarks.models import Benchmark, InstanceType, Region, Result, Run, Vendor
from benchmarks.services import statistics
from tests.selectors.test_price_performance import price

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 1)
GPU = "Standard_NC48ads_A100_v4"
CPU = "Standard_E128ds_v7"
# (strategy, concurrency, output tokens/s, p95 TTFT ms, p95 TPOT ms) of each load; p50 is
# half the p95 figure, p99 twice it.
GPU_LOADS = [
    ("synchronous", 1.0, 150.0, 40.0, 6.0),
    ("constant", 16.0, 1800.0, 900.0, 9.0),
    ("constant", 64.0, 4200.0, 1900.0, 14.0),
    ("throughput", 251.37, 6500.0, 5200.0, 30.0),
]
CPU_LOADS = [
    ("synchronous", 1.0, 20.0, 300.0, 45.0),
    ("constant", 4.0, 60.0, 1500.0, 60.0),
    ("throughput", 32.5, 140.0, 9000.0, 200.0),
    # A load whose requests all failed, as Spare Cores' files give it: no load at all.
    ("throughput", 0.0, 0.0, 0.0, 0.0),
]
UNITS = {
    "vllm:ttft": ("ms", False),
    "vllm:tpot": ("ms", False),
    "vllm:output-throughput": ("tokens/s", True),
}


def azure_region(code: str) -> Region:
    return Region.objects.get_or_create(vendor=Vendor.AZURE, code=code, defaults={"name": code})[0]


def serve(name, loads, *, mode, model="llama-8b", workload="chat", gpu_count=None):
    """One run of `name` (an Azure type) with vLLM's measurements of these loads, stored as
    the importer stores them, the statistics kept as ingest keeps them."""
    instance_type = InstanceType.objects.get_or_create(
        name=name,
        defaults={"vendor": Vendor.AZURE, "kind": InstanceType.Kind.VM, "gpu_count": gpu_count},
    )[0]
    benchmarks = {
        key: Benchmark.objects.get_or_create(
            key=key, defaults={"unit": unit, "higher_is_better": higher}
        )[0]
        for key, (unit, higher) in UNITS.items()
    }
    run = Run.objects.create(instance_type=instance_type, status=Run.Status.DONE)
    results = []
    for strategy, concurrency, tokens, ttft, tpot in loads:
        load = {
            "model": model,
            "workload": workload,
            "mode": mode,
            "strategy": strategy,
            "concurrency": concurrency,
        }
        results.append(
            Result(
                run=run, benchmark=benchmarks["vllm:output-throughput"], params=load, value=tokens
            )
        )
        for key, p95 in (("vllm:ttft", ttft), ("vllm:tpot", tpot)):
            for percentile, factor in (("p50", 0.5), ("p95", 1.0), ("p99", 2.0)):
                results.append(
                    Result(
                        run=run,
                        benchmark=benchmarks[key],
                        params={**load, "percentile": percentile},
                        value=p95 * factor,
                    )
                )
    statistics.attach_series(results)
    Result.objects.bulk_create(results)
    statistics.refresh_series({result.series_id for result in results})
    return run


@pytest.fixture
def measured():
    """The A100 type priced in eastus2, the 128-vCPU CPU type in westus2, both serving
    llama-8b chat at several loads."""
    azure_region("eastus2")
    azure_region("westus2")
    serve(GPU, GPU_LOADS, mode="gpu", gpu_count=2)
    InstanceType.objects.filter(name=GPU).update(gpu_model="A100")
    serve(CPU, CPU_LOADS, mode="cpu")
    price(GPU, "7.346", datetime.date(2026, 1, 1), region="eastus2")
    price(CPU, "9.072", datetime.date(2026, 1, 1), region="westus2")


def ask(status=200, **options) -> dict:
    response = APIClient().get(
        "/api/v1/llm-serving/",
        {"model": "llama-8b", "workload": "chat", "at": DAY.isoformat(), **options},
    )
    assert response.status_code == status, response.content
    return response.json()


def per_million(usd_per_hour, tokens_per_second):
    return usd_per_hour / (tokens_per_second * 3600) * 1e6


def test_a_gpu_type_gives_its_fastest_load_within_the_ttft_target(measured):
    answer = ask(regions="azure:eastus2", max_ttft_ms="2000", percentile="p95")
    [row] = answer["results"]
    # The 64-concurrent load (1,900 ms) is the fastest within 2,000 ms; throughput (5,200 ms)
    # is faster but misses it.
    assert (row["instance_type"], row["mode"], row["concurrency"]) == (GPU, "gpu", 64.0)
    assert (row["output_tokens_per_second"], row["ttft_ms"], row["tpot_ms"]) == (
        4200.0,
        1900.0,
        14.0,
    )
    assert row["usd_per_hour"] == pytest.approx(7.346)
    assert row["usd_per_million_output_tokens"] == pytest.approx(
        per_million(7.346, 4200.0), rel=1e-6
    )
    assert (row["loads"], row["loads_within_targets"], row["gpu_count"]) == (4, 3, 2)
    # The GPU from the type's specifications, named by the sentence too.
    assert row["gpu_model"] == "A100" and f"{GPU} (GPU, A100)" in answer["summary"]
    assert answer["unmet"] == [] and answer["regions"] == ["azure:eastus2"]
    assert GPU in answer["summary"] and "p95 TTFT ≤ 2,000 ms" in answer["summary"]


def test_a_cpu_type_is_answered_the_same_way_in_its_region(measured):
    answer = ask(region="westus2", max_ttft_ms="2000")
    [row] = answer["results"]
    assert (row["instance_type"], row["mode"], row["concurrency"]) == (CPU, "cpu", 4.0)
    assert row["usd_per_million_output_tokens"] == pytest.approx(per_million(9.072, 60.0), rel=1e-6)


def test_cpu_and_gpu_types_rank_together_cheapest_per_million_tokens_first(measured):
    answer = ask(regions="azure:eastus2,azure:westus2")
    rows = [(row["instance_type"], row["region"]) for row in answer["results"]]
    # No target: each type's fastest load; the A100's tokens are far cheaper.
    assert rows == [(GPU, "azure:eastus2"), (CPU, "azure:westus2")]
    assert answer["results"][0]["concurrency"] == 251.37
    assert (
        ask(regions="azure:eastus2,azure:westus2", mode="cpu")["results"][0]["instance_type"] == CPU
    )


def test_a_target_no_load_meets_leaves_no_rows_and_lists_the_types_as_unmet(measured):
    answer = ask(regions="azure:eastus2,azure:westus2", max_ttft_ms="1")
    assert answer["results"] == []
    unmet = {row["instance_type"]: row for row in answer["unmet"]}
    assert set(unmet) == {GPU, CPU}
    # Each with its load nearest to the target: the synchronous one.
    assert (unmet[GPU]["concurrency"], unmet[GPU]["ttft_ms"]) == (1.0, 40.0)
    assert "p95 TTFT 40 ms" in unmet[GPU]["reason"]
    assert answer["summary"].startswith("None of the 2 types measured serving llama-8b (chat)")


def test_the_percentile_and_the_tpot_target_choose_the_load(measured):
    # At p50 the throughput load's TTFT is 2,600 ms: still over; at p50 with 3,000 ms, in.
    assert (
        ask(region="eastus2", max_ttft_ms="3000", percentile="p50")["results"][0]["concurrency"]
        == 251.37
    )
    # TPOT at most 10 ms at p95: the 16-concurrent load.
    row = ask(region="eastus2", max_tpot_ms="10")["results"][0]
    assert (row["concurrency"], row["tpot_ms"]) == (16.0, 9.0)


def test_prices_in_another_currency_beside_dollars(measured):
    row = ask(region="eastus2", currency="EUR")["results"][0]
    assert row["currency"] == "EUR" and row["price_per_hour"] != row["usd_per_hour"]
    assert row["price_per_million_output_tokens"] == pytest.approx(
        per_million(row["price_per_hour"], row["output_tokens_per_second"]), rel=1e-6
    )


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"model": "llama-9b"}, "model", "models measured: llama-8b"),
        ({"workload": "poetry"}, "workload", "not a valid choice"),
        ({"percentile": "p90"}, "percentile", "not a valid choice"),
        ({"max_ttft_ms": "-5"}, "max_ttft_ms", ""),
        ({"mode": "tpu"}, "mode", "not a valid choice"),
        ({"region": ""}, "region", "required"),
        ({"regions": "azure"}, "regions", "vendor:region"),
        ({"region": "eastus2", "vendor": "aws"}, "vendor", "not aws"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter(measured, options, field, words):
    question = {"region": "eastus2", **options}
    errors = ask(400, **question)
    assert field in errors and words in " ".join(errors[field])


def test_the_models_are_listed_with_their_types(measured):
    serve("Standard_D4s_v6", CPU_LOADS[:1], mode="cpu", model="smol-135m")
    response = APIClient().get("/api/v1/llm-serving/models/")
    assert response.status_code == 200
    assert response.json()["results"] == [
        {
            "model": "llama-8b",
            "workloads": ["chat"],
            "instance_types": [f"azure:{CPU}", f"azure:{GPU}"],
        },
        {"model": "smol-135m", "workloads": ["chat"], "instance_types": ["azure:Standard_D4s_v6"]},
    ]


def test_a_model_whose_name_begins_with_the_one_asked_is_another_model(measured):
    serve("Standard_NC8_test", GPU_LOADS, mode="gpu", model="llama-8b-instruct")
    price("Standard_NC8_test", "1.0", datetime.date(2026, 1, 1), region="eastus2")
    assert [row["instance_type"] for row in ask(region="eastus2")["results"]] == [GPU]
    answer = ask(region="eastus2", model="llama-8b-instruct")
    assert [row["instance_type"] for row in answer["results"]] == ["Standard_NC8_test"]


def test_before_any_serving_is_measured_it_says_what_to_import():
    answer = ask(region="us-east-1")
    assert answer["results"] == answer["unmet"] == [] and answer["regions"] == ["us-east-1"]
    assert "import Spare Cores' vllm folders" in answer["summary"]
    assert APIClient().get("/api/v1/llm-serving/models/").json() == {"results": []}


def test_the_schema_names_the_models_measured(measured):
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    assert schema["components"]["schemas"]["LlmModelNames"]["enum"] == ["llama-8b"]


def queries_of(**options) -> int:
    """The queries of one answer, nothing remembered from the last (benchmarks.freshness)."""
    freshness.forget()
    with CaptureQueriesContext(connection) as captured:
        ask(**options)
    return len(captured.captured_queries)


def test_it_answers_in_the_same_number_of_queries_whatever_the_types(measured):
    question = {"regions": "azure:eastus2,azure:westus2", "max_ttft_ms": "2000"}
    few = queries_of(**question)
    for number in range(30):
        name = f"Standard_NC{number}_test"
        serve(name, GPU_LOADS, mode="gpu")
        price(name, "3.5", datetime.date(2026, 1, 1), region="eastus2")
    assert len(ask(**question)["results"]) == 32
    # The three benchmarks, the two regions, the statistics, each region's prices.
    assert few == queries_of(**question) == 6
