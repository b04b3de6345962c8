"""The one ingest pipeline: an upload, `import_results` and many outputs of one machine all go
through `ingest.store_outputs`, and the same output gives the same rows whichever way it came."""

import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks import parsers
from benchmarks.models import Benchmark, InstanceType, Result, Run, SeriesStatistics
from benchmarks.parsers import ParsedOutput, ParsedResult
from benchmarks.services import ingest, machine_runs
from benchmarks.services import runs as run_services
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

S1_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"


@pytest.fixture
def calls(monkeypatch) -> list[list[ingest.OutputToStore]]:
    """Every call of the pipeline, with the outputs it was given."""
    seen = []
    real = ingest.store_outputs

    def spy(*, outputs):
        seen.append(list(outputs))
        return real(outputs=outputs)

    monkeypatch.setattr(ingest, "store_outputs", spy)
    return seen


def by_api(variant: str, django_user_model, capture) -> Run:
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    upload = io.BytesIO(S1_FILE.read_bytes())
    upload.name = S1_FILE.name
    fields = {"instance_type": "t2.nano", "region": "us-east-1", "variant": variant}
    with capture(execute=True):
        response = client.post("/api/v1/runs/", {"file": upload, **fields}, format="multipart")
    assert response.status_code == 202
    return Run.objects.get(pk=response.json()["id"])


def by_command(variant: str) -> Run:
    call_command(
        "import_results", str(S1_FILE), "--instance-type", "t2.nano", "--region", "us-east-1",
        "--variant", variant,
    )  # fmt: skip
    return Run.objects.get(variant=variant)


def by_machine_runs(variant: str) -> Run:
    outcome = machine_runs.record_machine_runs(
        instance_type_name="t2.nano",
        region_code="us-east-1",
        variant=variant,
        outputs=[machine_runs.MachineOutput(content=S1_FILE.read_bytes(), filename=S1_FILE.name)],
    )
    assert outcome.stored == {S1_FILE.name: 10}
    return Run.objects.get(variant=variant)


def stored(run: Run) -> tuple:
    """What a run holds, whichever way it came: its fields, results and statistics."""
    results = sorted(
        (result.benchmark.key, result.series.params_key, result.value, result.notes)
        for result in run.results.select_related("benchmark", "series")
    )
    statistics = sorted(
        (row.series.benchmark.key, row.series.params_key, row.measured_in, row.runs, row.median,
         row.cpu_models, row.regions)
        for row in SeriesStatistics.objects.filter(series__variant=run.variant)
        .select_related("series__benchmark")
    )  # fmt: skip
    fields = (run.status, run.format, run.tool_version, run.cpu_model, run.warnings, run.error)
    return fields, results, statistics


def test_an_upload_the_command_and_machine_runs_share_one_pipeline_and_store_the_same(
    calls, django_user_model, django_capture_on_commit_callbacks
):
    InstanceType.objects.get_or_create(name="t2.nano")
    runs = [
        by_api("api", django_user_model, django_capture_on_commit_callbacks),
        by_command("cli"),
        by_machine_runs("bulk"),
    ]
    assert [[output.run.pk for output in outputs] for outputs in calls] == [
        [run.pk] for run in runs
    ]
    api, cli, bulk = (stored(run) for run in runs)
    assert api[0][0] == "done" and len(api[1]) == 10 and api[2]
    assert api == cli == bulk


def test_a_parser_that_crashes_fails_the_run_the_same_way_on_every_path(monkeypatch):
    InstanceType.objects.get_or_create(name="t2.nano")

    def broken(text, **options):
        raise KeyError("a parser bug")

    monkeypatch.setattr(parsers.PARSERS["openssl"], "parse", broken)
    recorded, _ = run_services.record_run(
        content=S1_FILE.read_bytes(), instance_type_name="t2.nano", region_code="us-east-1"
    )
    outcome = machine_runs.record_machine_runs(
        instance_type_name="t2.nano",
        region_code="us-east-1",
        variant="bulk",
        outputs=[machine_runs.MachineOutput(content=S1_FILE.read_bytes(), filename="s1.txt")],
    )
    bulk = Run.objects.get(variant="bulk")
    assert recorded.status == bulk.status == Run.Status.FAILED
    assert recorded.error == bulk.error == outcome.failed["s1.txt"]
    assert "parser failed: KeyError" in bulk.error
    assert not Result.objects.exists()


def test_an_output_whose_unit_disagrees_fails_alone_and_creates_no_benchmark():
    InstanceType.objects.get_or_create(name="t2.nano")
    Benchmark.objects.create(key="tool:known", unit="op/s")

    def output(name: str, *results: tuple[str, str]) -> machine_runs.MachineOutput:
        parsed = ParsedOutput(
            format="openssl",
            results=[ParsedResult(benchmark=key, params={}, value=1.0, unit=unit)
                     for key, unit in results],
        )  # fmt: skip
        return machine_runs.MachineOutput(
            content=name.encode(), filename=name, parsed=parsed, format="openssl"
        )

    outcome = machine_runs.record_machine_runs(
        instance_type_name="t2.nano",
        region_code="us-east-1",
        outputs=[
            output("good", ("tool:known", "op/s"), ("tool:new", "s")),
            output("bad", ("tool:other", "s"), ("tool:known", "B/s")),
            output("late", ("tool:new", "ms")),
        ],
    )
    assert outcome.stored == {"good": 2}
    assert outcome.failed == {
        "bad": "tool:known is measured in 'op/s', not 'B/s'",
        "late": "tool:new is measured in 's', not 'ms'",
    }
    assert set(Benchmark.objects.values_list("key", flat=True)) >= {"tool:known", "tool:new"}
    assert not Benchmark.objects.filter(key="tool:other").exists()
