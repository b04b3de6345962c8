"""`POST /api/v1/workloads/predict/`: a buyer's figures learned from stored benchmarks,
predicted and ranked on every priced type; bad input is a 400 naming it; nothing stored."""

import csv
import datetime
import io
import json
import math
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from benchmarks import currency
from benchmarks.models import InstanceType, Price, Region, Run
from benchmarks.selectors.subjects import workload_vectors
from benchmarks.services import runs as run_services
from benchmarks.workload import validation

pytestmark = pytest.mark.django_db

URL = "/api/v1/workloads/predict/"
# Per type: price, and two benchmarks' figures (alpha moves like the workload, beta does not).
TYPES = {
    f"wl{i}.large": (Decimal("0.10") * i, (100.0 * i, 50.0 * (9 - i) ** 0.5)) for i in range(1, 9)
}


@pytest.fixture
def stored(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    region = Region.objects.get(code="us-east-1")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["benchmark", "instance_type", "region", "value", "unit", "param.threads"])
    for name, (usd, (alpha, beta)) in TYPES.items():
        machine, _ = InstanceType.objects.get_or_create(name=name, defaults={"vcpus": 2})
        Price.objects.create(
            instance_type=machine, region=region, purchase_option="on_demand",
            usd_per_hour=usd, effective_from=datetime.date(2024, 1, 1), source="test",
        )  # fmt: skip
        writer.writerow(["wltest:alpha", name, "us-east-1", alpha, "ops/s", 1])
        writer.writerow(["wlother:beta", name, "us-east-1", beta, "ops/s", 1])
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error


def _ask(client, figures, **extra):
    body = {"figures": [{"instance_type": t, "value": v} for t, v in figures], "unit": "req/s"}
    return client.post(URL, body | extra, content_type="application/json")


def test_it_learns_the_benchmark_that_moves_like_the_figures_and_predicts_the_rest(client, stored):
    given = [("wl1.large", 20.0), ("wl3.large", 60.0), ("wl5.large", 100.0), ("wl7.large", 140.0)]
    runs = Run.objects.count()
    answer = _ask(client, given, region="us-east-1")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert [b["benchmark"] for b in body["model"]["benchmarks"]] == ["wltest:alpha"]
    rows = {row["instance_type"]: row for row in body["results"]}
    assert len(rows) == len(TYPES)
    assert rows["wl1.large"]["measured"] and not rows["wl2.large"]["measured"]
    assert rows["wl8.large"]["predicted"] == pytest.approx(160.0, rel=0.01)
    low, high = rows["wl8.large"]["interval"]["low"], rows["wl8.large"]["interval"]["high"]
    assert low < 160.0 < high
    # Every type does 200 per dollar: all tied, every rank range spans them all.
    assert all(row["rank_range"] == [1, len(TYPES)] for row in body["results"])
    assert body["validation"]["cases"] == 4
    assert body["validation"]["median_error"] == pytest.approx(0, abs=1e-6)
    assert "wltest:alpha" in body["summary"]
    assert Run.objects.count() == runs  # nothing stored


def test_excluded_tools_are_never_learned_from(client, stored):
    given = [("wl1.large", 20.0), ("wl3.large", 60.0), ("wl5.large", 100.0)]
    body = _ask(client, given, exclude_benchmarks=["wltest"]).json()
    assert [b["benchmark"] for b in body["model"]["benchmarks"]] == ["wlother:beta"]


def test_the_vcpu_count_is_a_column_the_model_learns_from_and_can_be_left_out(client, stored):
    for index, name in enumerate(TYPES, start=1):
        InstanceType.objects.filter(name=name).update(vcpus=index)
    workload_vectors._kept.clear()  # the machines are kept with the vectors
    given = [("wl1.large", 20.0), ("wl3.large", 60.0), ("wl5.large", 100.0)]
    body = _ask(client, given, exclude_benchmarks=["wltest"]).json()
    assert body["model"]["benchmarks"][0]["benchmark"] == "vcpus"
    rows = {row["instance_type"]: row for row in body["results"]}
    assert rows["wl8.large"]["predicted"] == pytest.approx(160.0, rel=0.01)
    left_out = _ask(client, given, exclude_benchmarks=["wltest", "vcpus"])
    assert left_out.status_code == 200, left_out.content
    assert [b["benchmark"] for b in left_out.json()["model"]["benchmarks"]] == ["wlother:beta"]


@pytest.mark.parametrize(
    ("figures", "extra", "named"),
    [
        ([("wl1.large", 20.0)], {}, "figures"),
        ([("wl1.large", 20.0), ("wl2.large", -1.0)], {}, "value"),
        ([("wl1.large", 20.0), ("wl2.large", 0)], {}, "value"),
        ([("wl1.large", 20.0), ("nosuch.type", 5.0)], {}, "nosuch.type"),
        ([("wl1.large", 20.0), ("wl1.large", 40.0), ("wl2.large", 5.0)], {}, "wl1.large"),
        ([("wl1.large", 20.0), ("wl2.large", 40.0)], {"exclude_benchmarks": ["nope"]}, "nope"),
        ([("wl1.large", 20.0), ("wl2.large", 40.0)], {"region": "xx-nowhere-9"}, "region"),
        # Each vendor's types are priced in one region: two of one vendor's would drop one.
        (
            [("wl1.large", 20.0), ("wl2.large", 40.0)],
            {"regions": "aws:us-east-1,aws:eu-west-1"},
            "one region per vendor: aws:us-east-1 and aws:eu-west-1",
        ),
        ([("wl1.large", 20.0), ("wl2.large", 40.0)], {"regions": "us-east-1"}, "vendor:region"),
        ([("wl1.large", 20.0), ("wl2.large", 40.0)], {"currency": "XYZ"}, "currency"),
    ],
)
def test_bad_input_is_a_400_naming_it(client, stored, figures, extra, named):
    answer = _ask(client, figures, **extra)
    assert answer.status_code == 400, answer.content
    assert named in answer.content.decode()


def test_an_answer_in_us_dollars_does_not_load_the_exchange_rate_history(client, stored):
    # Most of a second a process's first question would wait for (docs/workload.md).
    currency._converter.cache_clear()
    answer = _ask(client, [("wl1.large", 20.0), ("wl3.large", 60.0)], region="us-east-1")
    assert answer.status_code == 200, answer.content
    assert currency._converter.cache_info().currsize == 0
    euros = _ask(client, [("wl1.large", 20.0), ("wl3.large", 60.0)], currency="eur")
    assert euros.status_code == 200, euros.content
    assert {row["currency"] for row in euros.json()["results"]} == {"EUR"}


def test_a_burstable_type_is_ranked_on_what_it_sustains(client, stored):
    InstanceType.objects.filter(name="wl8.large").update(burstable=True, baseline_share="0.25")
    workload_vectors._kept.clear()  # the machines are kept with the vectors
    given = [("wl1.large", 20.0), ("wl3.large", 60.0), ("wl5.large", 100.0)]
    rows = {row["instance_type"]: row for row in _ask(client, given).json()["results"]}
    assert rows["wl8.large"]["baseline_share"] == 0.25
    assert rows["wl7.large"]["baseline_share"] is None
    # Both predicted at 200 per dollar on their figure; the burstable one sustains a quarter.
    assert rows["wl8.large"]["per_dollar"] == pytest.approx(rows["wl7.large"]["per_dollar"] / 4)
    assert rows["wl8.large"]["rank"] == len(rows)
    burst = _ask(client, given, basis="burst").json()["results"]
    assert {row["instance_type"]: row for row in burst}["wl8.large"]["per_dollar"] == (
        pytest.approx(rows["wl7.large"]["per_dollar"])
    )


def test_a_form_body_is_refused_as_unsupported_not_a_server_error(client, stored):
    answer = client.post(URL, {"figures": ["wl1.large"], "region": "us-east-1"})
    assert answer.status_code == 415


def test_a_get_is_a_405_naming_post(client):
    # As fleets/: a question asked by POST only says so (tests/api/test_api_root.py).
    answer = client.get(URL)
    assert answer.status_code == 405
    assert answer["Allow"].startswith("POST")


@pytest.mark.parametrize(
    "body",
    [
        {"figures": [{"instance_type": "wl1.large"}, {"instance_type": "wl2.large", "value": 2}]},
        {"figures": ["x", "y"]},
        {
            "figures": [{"instance_type": "wl1.large", "value": 1},
                        {"instance_type": "wl2.large", "value": 2}],
            "exclude_benchmarks": ["a" * 130],
        },
    ],
)  # fmt: skip
def test_a_malformed_figure_is_a_400_naming_its_position(client, body):
    answer = client.post(URL, body, content_type="application/json")
    assert answer.status_code == 400, answer.content


def test_the_answer_quotes_the_held_out_figures_validate_workload_model_wrote(
    client, stored, tmp_path, monkeypatch, request
):
    monkeypatch.setattr(validation, "HELD_OUT_FILE", tmp_path / "held_out.json")
    request.addfinalizer(validation.held_out.cache_clear)  # the kept file again after this
    printed = io.StringIO()
    call_command("validate_workload_model", "--write", stdout=printed)
    kept = json.loads(validation.HELD_OUT_FILE.read_text())
    assert kept["cases"] == 2  # each of the two tools held out in turn
    assert f"\n{validation.overall_line(kept)} (" in printed.getvalue()
    given = [("wl1.large", 20.0), ("wl3.large", 60.0), ("wl5.large", 100.0)]
    quoted = _ask(client, given).json()["validation"]["held_out_benchmarks"]
    assert quoted == {name: kept[name] for name in validation.QUOTED}


def test_only_every_tool_held_out_is_written(stored):
    with pytest.raises(CommandError, match="--write"):
        call_command("validate_workload_model", "--write", "--tool", "wltest")
    for check in (["--workloads", "others"], ["--random-given", "1"]):
        with pytest.raises(CommandError, match="--write keeps the table"):
            call_command("validate_workload_model", "--write", *check)


def test_the_checks_hold_out_each_tool_with_random_given_types(stored):
    printed = io.StringIO()
    call_command("validate_workload_model", "--random-given", "3", stdout=printed)
    assert "2 tools held out" in printed.getvalue()
    # Every benchmark here is its tool's table workload: no other workload to play.
    printed = io.StringIO()
    call_command("validate_workload_model", "--workloads", "others", stdout=printed)
    assert "0 tools held out" in printed.getvalue()


def test_the_vectors_hold_each_column_on_enough_types_and_drop_the_rest(stored):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["benchmark", "instance_type", "region", "value", "unit", "param.threads"])
    for name in ("wl1.large", "wl2.large"):  # on two types: fewer than MINIMUM_TYPES
        writer.writerow(["wltest:alpha", name, "us-east-1", 7.0, "ops/s", 2])
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error
    workload_vectors._kept.clear()
    loaded = workload_vectors.load_vectors()
    assert [column.label for column in loaded.columns] == [
        "wlother:beta (threads=1)",
        "wltest:alpha (threads=1)",
        "vcpus",  # each type's vCPU count, the column after the benchmarks'
    ]
    names = [loaded.types[type_id].name for type_id in loaded.vectors.types]
    assert sorted(names) == sorted(TYPES)
    alpha = {name: loaded.vectors.logs[row, 1] for row, name in enumerate(names)}
    assert alpha == {name: pytest.approx(math.log(100.0 * i)) for i, name in enumerate(TYPES, 1)}
    assert list(loaded.vectors.logs[:, 2]) == pytest.approx([math.log(2)] * len(TYPES))
    assert list(loaded.vectors.groups) == ["wlother:beta", "wltest:alpha", "vcpus"]
