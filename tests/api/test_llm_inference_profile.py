"""The LLM-inference workload profile (issue 46 item 4): llama.cpp's generation and prompt
figures of a 7B model, a thread per vCPU, ranked per dollar like every profile; a type
measured with another thread count lacks the member."""

import datetime
import math

import pytest

from benchmarks.models import InstanceType
from benchmarks.profiles import BY_KEY, LLAMA_7B
from tests.selectors.test_price_performance import price, run_with

pytestmark = pytest.mark.django_db

PROFILE = BY_KEY["llm-inference"]


def llama(name, vcpus, generate, prompt, *, threads=None):
    InstanceType.objects.get_or_create(name=name, defaults={"vcpus": vcpus})
    for key, value, tokens in (
        ("llama-bench:generate", generate, 128),
        ("llama-bench:prompt", prompt, 128),
    ):
        params = {"gpu_layers": 0, "model": LLAMA_7B, "threads": threads or vcpus, "tokens": tokens}
        run_with(name, [value], key=key, params=params)


def test_the_profile_ranks_types_by_llama_cpp_tokens_per_dollar_a_thread_per_vcpu(client):
    llama("c7g.xlarge", 4, 10.0, 100.0)
    llama("c7a.2xlarge", 8, 20.0, 400.0)
    # Measured with 2 threads on 4 vCPUs: not the member's series.
    llama("c7i.xlarge", 4, 5.0, 50.0, threads=2)
    for name in ("c7g.xlarge", "c7a.2xlarge", "c7i.xlarge"):
        price(name, "0.2", datetime.date(2024, 1, 1))
    response = client.get(
        "/api/v1/price-performance/",
        {"profile": "llm-inference", "region": "us-east-1", "at": "2024-06-01"},
    )
    assert response.status_code == 200, response.content
    answer = response.json()
    assert [row["instance_type"] for row in answer["results"]] == ["c7a.2xlarge", "c7g.xlarge"]
    # Each member over its median (15 tokens/s generated, 250 read), weighted 0.6 and 0.4.
    expected = math.exp(0.6 * math.log(20 / 15) + 0.4 * math.log(400 / 250))
    assert answer["results"][0]["score"] == pytest.approx(expected, rel=1e-6)
    assert "c7i.xlarge" not in str(answer["results"])
