"""Price-performance from kept statistics: fixed queries, any region's prices, lean answers."""

import csv
import datetime
import gc
import gzip
import io
import json
import time
from decimal import Decimal
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from benchmarks.models import Benchmark, InstanceType, Price, Region, Run, SeriesStatistics
from benchmarks.selectors.pages.comparison import BARS_CHARTED
from benchmarks.services import runs as run_services

pytestmark = pytest.mark.django_db

URL = "/api/v1/price-performance/"
START = datetime.date(2024, 1, 1)


def fleet(count: int, *, measured_in: str = "us-east-1", runs_each: int = 1) -> list[str]:
    """`count` instance types priced in us-east-1 and Tokyo, each with `runs_each` results of
    `tool:x` measured in `measured_in`, stored through the upload service."""
    names = [f"zz{index // 100}.n{index % 100}" for index in range(count)]
    InstanceType.objects.bulk_create(
        [InstanceType(name=name, vcpus=2) for name in names], ignore_conflicts=True
    )
    types = {it.name: it for it in InstanceType.objects.filter(name__in=names)}
    regions = {region.code: region for region in Region.objects.all()}
    Price.objects.bulk_create(
        Price(
            instance_type=types[name],
            region=regions[code],
            purchase_option="on_demand",
            usd_per_hour=Decimal("0.1") * factor,
            effective_from=START,
            source="test",
        )
        for name in names
        for code, factor in (("us-east-1", 1), ("ap-northeast-1", 2))
    )
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["benchmark", "instance_type", "region", "value", "unit", "cpu_model"])
    for repeat in range(runs_each):
        for index, name in enumerate(names):
            writer.writerow(["tool:x", name, measured_in, 1000 + index + repeat, "op/s", "CPU A"])
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error
    return names


def queries_of(client, url, params) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200, response.content[:500]
    return len(captured), response


@pytest.mark.parametrize("count", [10, 1000])
def test_the_api_answers_in_six_queries_whatever_the_number_of_types(count):
    fleet(count)
    used, response = queries_of(APIClient(), URL, {"benchmark": "tool:x", "region": "us-east-1"})
    assert len(response.json()["results"]) == count
    assert used <= 6, used


@pytest.mark.parametrize("count", [10, 1000])
def test_the_comparison_page_renders_in_eleven_queries_whatever_the_number_of_types(client, count):
    from benchmarks.selectors.answer.shown_rows import ROWS_SHOWN

    fleet(count)
    used, response = queries_of(
        client, "/", {"benchmark": "tool:x", "region": "us-east-1", "families": ""}
    )
    # The first ROWS_SHOWN rows as ranked, the rest behind "Show all" (rows=all).
    assert response.content.count(b"<tr data-instance-type=") == min(count, ROWS_SHOWN)
    assert (b"rows=all" in response.content) is (count > ROWS_SHOWN)
    # The benchmark and region come from what the menus read, not a lookup of their own; the
    # family picker's facts (its presets, order and search) are one query over the types; the
    # basis of Fargate's estimated rows is one more (selectors/answer/fargate_estimates.py).
    assert used <= 11, used


def test_the_page_sends_single_values_only_for_the_rows_its_charts_draw(client):
    fleet(BARS_CHARTED + 20, runs_each=2)
    text = client.get("/", {"benchmark": "tool:x", "region": "us-east-1", "families": ""})
    text = text.content.decode()
    data = json.loads(text.split('id="chart-data" type="application/json">')[1].split("<")[0])
    assert len(data["rows"]) == BARS_CHARTED + 20 and len(data["bars"]) == BARS_CHARTED
    assert len(data["cpu_models"]) == 1  # "CPU A", as benchmarks.cpu_models normalises it
    drawn = {row["key"]: row["samples"] for row in data["rows"] if row["key"] in data["bars"]}
    assert len(drawn) == BARS_CHARTED
    # Each run's value with its CPU model's index in cpu_models.
    assert all(len(samples) == 2 and {model for _, model in samples} == {0}
               for samples in drawn.values())  # fmt: skip
    assert all(row["samples"] == [] for row in data["rows"] if row["key"] not in drawn)


def test_a_row_of_several_cpu_models_left_out_of_the_charts_keeps_each_models_median(client):
    names = fleet(BARS_CHARTED + 5)
    content = "benchmark,instance_type,region,value,unit,cpu_model\n" + "".join(
        f"tool:x,{names[0]},us-east-1,{value},op/s,CPU B\n" for value in (600, 700)
    )
    run, _ = run_services.record_run(content=content.encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error
    page = client.get("/", {"benchmark": "tool:x", "region": "us-east-1", "families": ""})
    comparison = page.context["comparison"]
    assert names[0] not in {row.key for row in comparison.bars}
    medians = sorted(part.median for part in comparison.cpu_breakdowns[names[0]])
    assert medians == [650.0, 1000.0]  # CPU B's two results, CPU A's one
    # A row of one CPU model: its model's median is the row's.
    one = comparison.cpu_breakdowns[names[1]]
    assert [(part.machines, part.median) for part in one] == [(1, 1001.0)]


def test_results_measured_anywhere_are_priced_with_the_regions_prices():
    fleet(3, measured_in="us-east-1")
    client = APIClient()
    tokyo = client.get(URL, {"benchmark": "tool:x", "region": "ap-northeast-1"}).json()
    assert tokyo["region"] == "ap-northeast-1"
    assert [row["usd_per_hour"] for row in tokyo["results"]] == [0.2, 0.2, 0.2]
    assert {tuple(row["measured_in"]) for row in tokyo["results"]} == {("us-east-1",)}
    narrowed = client.get(
        URL, {"benchmark": "tool:x", "region": "ap-northeast-1", "measured_in": "us-east-1"}
    ).json()
    assert len(narrowed["results"]) == 3
    elsewhere = client.get(
        URL, {"benchmark": "tool:x", "region": "ap-northeast-1", "measured_in": "eu-west-1"}
    ).json()
    assert elsewhere["results"] == []


def test_measured_in_keeps_only_the_runs_of_that_region():
    [name] = fleet(1, measured_in="us-east-1")
    out = "benchmark,instance_type,region,value,unit\n" + f"tool:x,{name},eu-west-1,9000,op/s\n"
    run_services.record_run(content=out.encode(), format="csv")
    client = APIClient()
    everywhere = client.get(URL, {"benchmark": "tool:x", "region": "us-east-1"}).json()
    [row] = everywhere["results"]
    assert (row["runs"], row["measured_in"]) == (2, ["eu-west-1", "us-east-1"])
    ireland = client.get(
        URL, {"benchmark": "tool:x", "region": "us-east-1", "measured_in": "eu-west-1"}
    ).json()
    [row] = ireland["results"]
    assert (row["runs"], row["median"], row["measured_in"]) == (1, 9000.0, ["eu-west-1"])


def test_types_without_a_price_in_the_region_are_listed_as_unpriced_with_the_reason():
    fleet(2)
    InstanceType.objects.create(name="zz9.lonely", vcpus=1)
    out = "benchmark,instance_type,region,value,unit\ntool:x,zz9.lonely,us-east-1,5,op/s\n"
    run_services.record_run(content=out.encode(), format="csv")
    body = APIClient().get(URL, {"benchmark": "tool:x", "region": "ap-northeast-1"}).json()
    assert "zz9.lonely" not in {row["instance_type"] for row in body["results"]}
    [unpriced] = body["unpriced"]
    assert unpriced["instance_type"] == "zz9.lonely"
    assert "no on_demand price known for zz9.lonely in ap-northeast-1" in unpriced["reason"]


def test_single_values_only_on_request_and_capped_with_a_flag():
    fleet(1, runs_each=150)
    client = APIClient()
    plain = client.get(URL, {"benchmark": "tool:x", "region": "us-east-1"}).json()
    assert "values" not in plain["results"][0]
    [row] = client.get(
        URL, {"benchmark": "tool:x", "region": "us-east-1", "include": "values"}
    ).json()["results"]
    assert row["results"] == 150 and row["values_cut"] is True
    assert len(row["values"]) == 100
    assert (row["values"][0], row["values"][-1]) == (row["min"], row["max"])
    assert row["values"] == sorted(row["values"])
    assert "first_quartile" not in row
    [row] = client.get(
        URL, {"benchmark": "tool:x", "region": "us-east-1", "include": "quartiles,values"}
    ).json()["results"]
    assert row["min"] <= row["first_quartile"] <= row["median"] <= row["third_quartile"]
    refused = client.get(URL, {"benchmark": "tool:x", "region": "us-east-1", "include": "all"})
    assert refused.status_code == 400 and "include" in refused.json()


def test_every_key_of_a_row_is_described_in_the_schema():
    from api.price_performance_serializers import PricePerformanceRowSerializer

    fleet(1)
    [row] = APIClient().get(
        URL,
        {"benchmark": "tool:x", "region": "us-east-1", "include": "values,quartiles",
         "baseline": "zz0.n0"},
    ).json()["results"]  # fmt: skip
    assert set(row) <= set(PricePerformanceRowSerializer().fields), row


def test_a_thousand_row_answer_stays_under_500_kb():
    # 300 kB until each row also named its price's first day, whether it is burstable and
    # its CPU allocation (about 80 bytes a row); 340 kB until it named its vendor, currency,
    # price in it and exchange rate with its day (about 80 bytes more); 430 kB until it named
    # its rank, the ranks it could take within the noise and its runs' spread (40 bytes); 480
    # kB until it said whether it is estimated (18 bytes); 500 kB until it carried its tie
    # margin and its two 90% intervals (about 60 bytes here, where no noise is measured and
    # they are null; about 150 with a measured noise).
    fleet(1000)
    response = APIClient().get(URL, {"benchmark": "tool:x", "region": "us-east-1"})
    assert len(response.content) < 560_000, len(response.content)
    assert len(response.json()["results"]) == 1000


def test_whole_figures_are_written_without_a_decimal_point_and_keep_their_value():
    fleet(1)
    response = APIClient().get(URL, {"benchmark": "tool:x", "region": "us-east-1"})
    text = response.content.decode()
    assert '"vcpus":2,' in text and '"median":1000,' in text and '"max":1000,' in text, text
    assert '"per_dollar":36000000,' in text, text
    [row] = response.json()["results"]
    assert row["median"] == 1000.0 and row["usd_per_hour"] == 0.1
    extras = APIClient().get(
        URL,
        {"benchmark": "tool:x", "region": "us-east-1", "include": "values,quartiles",
         "baseline": "zz0.n0"},
    ).content.decode()  # fmt: skip
    for written in ('"first_quartile":1000,', '"values":[1000]', '"relative_per_dollar":1,'):
        assert written in extras, (written, extras)


def test_a_client_that_accepts_gzip_gets_the_answer_compressed_and_revalidates_it():
    fleet(1000)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1"}
    plain = client.get(URL, query)
    packed = client.get(URL, query, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) * 5 < len(plain.content)
    assert json.loads(gzip.decompress(packed.content)) == plain.json()
    again = client.get(URL, query, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
    assert again.status_code == 304


def test_an_unchanged_answer_revalidates_with_304_and_a_new_run_changes_it():
    [name] = fleet(1)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1"}
    first = client.get(URL, query)
    assert first["ETag"] and first["Last-Modified"]
    again = client.get(URL, query, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    out = f"benchmark,instance_type,region,value,unit\ntool:x,{name},us-east-1,7,op/s\n"
    run_services.record_run(content=out.encode(), format="csv")
    changed = client.get(URL, query, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_a_repeated_question_is_answered_from_the_cache_until_the_data_changes():
    [name] = fleet(1)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1"}
    first = client.get(URL, query).content
    with CaptureQueriesContext(connection) as captured:
        assert client.get(URL, query).content == first
    assert len(captured) == 0
    out = f"benchmark,instance_type,region,value,unit\ntool:x,{name},us-east-1,7,op/s\n"
    run_services.record_run(content=out.encode(), format="csv")
    [row] = client.get(URL, query).json()["results"]
    assert row["runs"] == 2


def test_a_kept_answer_is_sent_again_without_validating_the_question_again():
    fleet(2)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1", "families": "zz0"}
    first = client.get(URL, query)
    with mock.patch("api.views.PricePerformanceForm", side_effect=AssertionError("validated")):
        again = client.get(URL, query)
        revalidated = client.get(URL, query, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (again.status_code, again.content, again["ETag"]) == (200, first.content, first["ETag"])
    assert revalidated.status_code == 304
    # Any other question, even one differing only in a refused value, is validated.
    refused = client.get(URL, {**query, "purchase_option": "bogus"})
    assert refused.status_code == 400 and "purchase_option" in refused.json()


def test_a_change_written_by_another_process_shows_within_the_freshness_window(settings):
    settings.PRICEBENCH_FRESHNESS_SECONDS = 1
    fleet(1)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1"}
    assert client.get(URL, query).json()["results"][0]["median"] == 1000.0
    # Another process's ingest: the statistics change and the stamp moves, and this process
    # is not told.
    SeriesStatistics.objects.update(median=5.0)
    Benchmark.objects.filter(key="tool:x").update(stats_updated_at=timezone.now())
    assert client.get(URL, query).json()["results"][0]["median"] == 1000.0
    time.sleep(1.1)
    assert client.get(URL, query).json()["results"][0]["median"] == 5.0


def test_noise_measured_again_changes_the_answer_it_was_kept_under(settings):
    # The noise is measured after the results changed (beat, every ten minutes) without
    # moving their stamp: an answer kept under the stamp alone outlived the noise it showed.
    from benchmarks.services.statistics.noise import keep_noise

    settings.PRICEBENCH_FRESHNESS_SECONDS = 1
    fleet(1)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1"}
    first = client.get(URL, query)
    stamp = Benchmark.objects.get(key="tool:x").stats_updated_at
    keep_noise(stale_only=False)
    assert Benchmark.objects.get(key="tool:x").stats_updated_at == stamp
    time.sleep(1.1)
    again = client.get(URL, query, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]


def test_price_performance_as_csv_has_the_rows_of_the_json_answer():
    fleet(3)
    client = APIClient()
    query = {"benchmark": "tool:x", "region": "us-east-1"}
    rows = client.get(URL, query).json()["results"]
    response = client.get(URL, {**query, "format": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["instance_type"] for row in table] == [row["instance_type"] for row in rows]
    assert [float(row["per_dollar"]) for row in table] == [row["per_dollar"] for row in rows]


def test_the_page_and_the_api_refuse_the_same_bad_field():
    fleet(1)
    api = APIClient().get(URL, {"benchmark": "tool:x", "region": "us-east-1", "at": "tomorrow"})
    assert api.status_code == 400 and "at" in api.json()


def test_the_page_shows_a_bad_field_beside_its_control_and_still_renders(client):
    fleet(2)
    page = client.get(
        "/", {"benchmark": "tool:x", "region": "us-east-1", "at": "tomorrow", "families": ""}
    )
    assert page.status_code == 400
    text = page.content.decode()
    assert "Date has wrong format" in text
    assert text.count("<tr data-instance-type=") == 2
    data = json.loads(text.split('id="chart-data" type="application/json">')[1].split("<")[0])
    assert len(data["rows"]) == 2


def test_an_answer_leaves_its_rows_to_reference_counting_not_to_the_garbage_collector():
    # Rows kept alive by a reference cycle pile up until the collector runs, and it then ran
    # in the middle of a later answer: 10 to 20 ms every tenth 1,000-row answer.
    fleet(400)
    client = APIClient()
    question = {"benchmark": "tool:x", "region": "us-east-1"}
    assert client.get(URL, question).status_code == 200  # first-use caches filled
    gc.collect()
    gc.disable()
    try:
        content = client.get(URL, {**question, "at": "2025-01-02"}).content
        collected = gc.collect()
    finally:
        gc.enable()
    assert len(json.loads(content)["results"]) == 400
    assert collected < 400, collected
