"""`manage.py rebuy_fleet`: a fleet file on disk answered as `POST /api/v1/fleets/` answers it
(JSON or FOCUS-named CSV), with no upload limit, a progress bar over its bytes, and a bad file
refused in one line with exit status 1."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from benchmarks.management.commands.rebuy_fleet import Command
from benchmarks.models import Price, Run
from tests.fleet.fleet_data import KEY, measure_fleet_types
from tests.fleet.focus_rows import acceptance_rows, focus_csv


@pytest.fixture
def bill(tmp_path):
    path = tmp_path / "focus-2026-10.csv"
    path.write_text(focus_csv(acceptance_rows()))
    return path


def rebuy(*args) -> str:
    out = io.StringIO()
    call_command("rebuy_fleet", *map(str, args), stdout=out)
    return out.getvalue()


def post(path, query: str):
    with open(path, "rb") as upload:
        return APIClient().post(f"/api/v1/fleets/?{query}", {"file": upload}, format="multipart")


@pytest.mark.django_db
def test_the_acceptance_bill_gives_the_apis_json(bill):
    measure_fleet_types()
    prices_before = Price.objects.count()

    answer = json.loads(rebuy(bill, "--benchmark", KEY))

    assert answer == post(bill, f"benchmark={KEY}").json()
    assert {line["instance_type"] for line in answer["lines"]} == {"m5.xlarge", "c5.xlarge"}
    assert answer["summary"].startswith("Re-buying 2 of 2 lines")
    # A fleet is a question: nothing stored.
    assert (Price.objects.count(), Run.objects.count()) == (prices_before, 3)


@pytest.mark.django_db
def test_format_csv_gives_the_apis_csv_rows(bill):
    measure_fleet_types()

    text = rebuy(bill, "--benchmark", KEY, "--format", "csv")

    assert text == post(bill, f"benchmark={KEY}&format=csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["x_ReplacementInstanceType"] for row in rows} == {"c7g.xlarge"}


@pytest.mark.django_db
def test_a_file_over_the_upload_limit_is_answered(bill, settings):
    measure_fleet_types()
    settings.PRICEBENCH_MAX_UPLOAD_BYTES = 1024
    assert post(bill, f"benchmark={KEY}").status_code == 413

    answer = json.loads(rebuy(bill, "--benchmark", KEY, "--regions", "any"))

    assert len(answer["lines"]) == 2


@pytest.mark.django_db
def test_progress_shows_a_bar_on_stderr_that_reaches_every_byte(bill, capsys):
    measure_fleet_types()
    size = bill.stat().st_size
    assert size > 3 * 8192  # read in several chunks: the bar moves

    rebuy(bill, "--benchmark", KEY, "--progress")

    bar = capsys.readouterr().err
    last = bar.replace("\n", "\r").strip("\r").split("\r")[-1]
    assert last.startswith(f"{bill.name}: 100%")
    assert f"{size / 1024:.1f}k/{size / 1024:.1f}k" in last


@pytest.mark.django_db
def test_no_bar_when_stderr_is_not_a_terminal(bill, capsys):
    measure_fleet_types()

    rebuy(bill, "--benchmark", KEY)

    assert capsys.readouterr().err == ""


def test_a_bad_file_exits_1_with_one_line_naming_it(tmp_path, capsys):
    path = tmp_path / "bill.csv"
    path.write_text("hello,world\n1,2\n")

    with pytest.raises(SystemExit) as exited:
        Command().run_from_argv(["manage.py", "rebuy_fleet", str(path), "--benchmark", KEY])

    assert exited.value.code == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"CommandError: {path}: not a fleet file")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not a CSV file"),
        (b"BilledCost,ServiceCategory,RegionId\n1,Compute,us-east-1\n", "SkuPriceDetails"),
        (b"instance_type,region,count,hours\nm5.xlarge,us-east-1,1,-730\n", "negative"),
    ],
)
def test_a_bad_file_is_refused_naming_what_is_wrong(tmp_path, content, words):
    path = tmp_path / "bill.csv"
    path.write_bytes(content)

    with pytest.raises(CommandError, match=words) as refused:
        rebuy(path, "--benchmark", KEY)

    assert str(refused.value).startswith(f"{path}: ")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--benchmark", KEY, "--profile", "crypto"], "benchmark: give a benchmark or a profile"),
        (["--profile", "nope"], "profile: nope is not a profile"),
        (["--benchmark", KEY, "--at", "2026-13-01"], "at: "),
        (["--benchmark", KEY, "--param", "threads"], "--param 'threads': write NAME=VALUE"),
        (["--benchmark", KEY, "--param", "regions=any"], "give regions as --regions"),
    ],
)
def test_a_bad_question_is_refused_before_the_file_is_read(tmp_path, args, words):
    with pytest.raises(CommandError, match=words):
        rebuy(tmp_path / "absent.csv", *args)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(CommandError, match="absent.csv: No such file"):
        rebuy(tmp_path / "absent.csv", "--profile", "crypto")


@pytest.mark.django_db
def test_an_unknown_benchmark_is_named_by_its_option(bill):
    with pytest.raises(CommandError, match="^benchmark: "):
        rebuy(bill, "--benchmark", "nope:nothing")
