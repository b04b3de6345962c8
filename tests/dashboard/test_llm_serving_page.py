"""The LLM-serving page (issue 46 item 4): the answer sentence, the chart's data (cost per
million output tokens against TTFT) through json_script, the table, and what it needs before
any model is measured."""

import json
import re
from html import unescape

import pytest
from django.test import Client

from tests.selectors.test_llm_serving import CPU, GPU, measured  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def chart_data(page: str) -> dict:
    found = re.search(r'<script id="llm-serving-data" type="application/json">(.*?)</script>', page)
    return json.loads(found[1])


def test_the_page_answers_in_a_sentence_with_a_chart_of_cost_against_ttft(measured):  # noqa: F811
    response = Client().get(
        "/llm-serving/", {"regions": "azure:eastus2,azure:westus2", "at": "2026-11-01"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    answer = unescape(re.search(r'data-role="answer">([^<]+)<', page)[1])
    # By default within 2,000 ms p95 TTFT: the A100 at 64 concurrent requests first.
    assert answer.startswith(f"{GPU} (GPU, A100) generates a million llama-8b (chat) output tokens")
    assert "p95 TTFT ≤ 2,000 ms" in answer
    data = chart_data(page)
    by_mode = {series["mode"]: series["points"] for series in data["series"]}
    [gpu], [cpu] = by_mode["gpu"], by_mode["cpu"]
    assert (gpu["x"], gpu["label"]) == (1900.0, f"{GPU} (azure:eastus2)")
    assert cpu["x"] == 1500.0 and cpu["y"] > gpu["y"]
    assert (data["currency"], data["percentile"], data["target"]) == ("USD", "p95", 2000.0)
    table = page[page.index('id="llm-serving-table"') :]
    assert table.index(GPU) < table.index(CPU)
    assert "dashboard/llm-serving.js" in page and "<script>" not in page


def test_a_target_no_type_meets_lists_them_and_draws_nothing(measured):  # noqa: F811
    response = Client().get(
        "/llm-serving/", {"regions": "azure:eastus2,azure:westus2", "max_ttft_ms": "1"}
    )
    page = response.content.decode()
    assert response.status_code == 200 and 'id="llm-serving-unmet"' in page
    assert "llm-serving-data" not in page and "None of the 2 types" in page


def test_a_bad_question_is_refused_by_name(measured):  # noqa: F811
    response = Client().get("/llm-serving/", {"region": "eastus2", "percentile": "p90"})
    assert response.status_code == 400
    assert "percentile: p90 is not a valid choice" in unescape(response.content.decode())


def test_before_any_model_is_measured_the_page_says_what_it_needs():
    response = Client().get("/llm-serving/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "No LLM serving has been measured yet" in page and "import_sparecores" in page
    assert 'href="/llm-serving/"' in page


def test_a_type_with_no_price_in_the_regions_asked_is_named_under_the_table(measured):  # noqa: F811
    page = Client().get("/llm-serving/", {"region": "eastus2"}).content.decode()
    notice = page[page.index('id="llm-serving-unpriced"') :].split("</p>")[0]
    assert "1 type within the targets has no on_demand price in the regions asked" in notice
    assert CPU in notice and GPU not in notice
