"""`manage.py reparse`: stored runs parsed again with today's parsers, idempotent, the kept
statistics following through the one ingest pipeline."""

import pytest
from django.core.management import CommandError, call_command

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.inspector import SOURCE as SPARECORES_SOURCE
from benchmarks.models import InstanceType, Result, Run, SeriesStatistics
from benchmarks.services import ingest, statistics
from benchmarks.services import runs as run_services
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

S1_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"
TABLE = (
    b"benchmark,instance_type,region,value,unit\n"
    b"recover:reparse,t2.nano,us-east-1,10,op/s\n"
    b"recover:reparse,t2.nano,eu-west-1,12,op/s\n"
)


def record(content: bytes = S1_FILE.read_bytes(), **fields) -> Run:
    InstanceType.objects.get_or_create(name="t2.nano")
    machine = {} if content.startswith(b"benchmark,") else {
        "instance_type_name": "t2.nano", "region_code": "us-east-1"
    }  # fmt: skip
    return run_services.record_run(content=content, **machine, **fields)[0]


def reparse(*arguments: str) -> str:
    from io import StringIO

    output = StringIO()
    call_command("reparse", *arguments, stdout=output, stderr=output)
    return output.getvalue()


def kept() -> list[tuple]:
    return sorted(
        SeriesStatistics.objects.values_list(
            "series__benchmark__key",
            "series__instance_type__name",
            "series__params_key",
            "measured_in",
            "runs",
            "median",
        )  # fmt: skip
    )


def test_it_parses_a_run_again_and_changes_nothing_when_the_parser_did_not_change():
    run = record()
    before = kept()
    assert "1 runs parsed again: 0 changed, 1 unchanged" in reparse(str(run.pk))
    assert kept() == before and Result.objects.filter(run=run).count() == 10
    assert statistics.check_statistics().clean


def test_a_run_a_broken_parser_failed_is_stored_once_the_parser_is_fixed(monkeypatch):
    def broken(*args, **kwargs):
        raise parsers.ParseError("line 3: broken on purpose")

    monkeypatch.setattr(ingest.parsers, "parse", broken)
    run = record()
    assert (run.status, Result.objects.count(), kept()) == ("failed", 0, [])
    monkeypatch.undo()
    output = reparse("--failed")
    assert f"run {run.pk}: failed with 0 results -> done with 10 results" in output
    assert "1 changed, 0 unchanged" in output
    run.refresh_from_db()
    assert (run.status, run.error, run.results.count()) == ("done", "", 10)
    assert {runs for *_, runs, _median in kept()} == {1} and len(kept()) >= 10
    assert statistics.check_statistics().clean


def test_parsing_again_twice_leaves_what_once_left():
    table, single = record(TABLE), record()
    reparse("--all")
    once = (kept(), sorted(Result.objects.values_list("benchmark__key", "value")))
    assert "2 runs parsed again: 0 changed, 2 unchanged" in reparse("--all")
    assert (kept(), sorted(Result.objects.values_list("benchmark__key", "value"))) == once
    assert table.children.count() == 2 and single.results.count() == 10
    assert statistics.check_statistics().clean


def test_a_format_chooses_the_runs():
    record(TABLE)
    single = record()
    assert "1 runs parsed again" in reparse("--format", "openssl")
    assert Run.objects.get(pk=single.pk).results.count() == 10


def test_runs_the_spare_cores_import_read_are_left_alone_when_chosen_by_kind():
    record(source=SPARECORES_SOURCE)
    assert "0 runs parsed again" in reparse("--all")


def test_a_spare_cores_run_named_by_id_is_refused_with_the_reason():
    run = record(source=SPARECORES_SOURCE)
    with pytest.raises(CommandError, match="1 runs could not be parsed again"):
        reparse(str(run.pk))
    assert run.results.count() == 10


def test_a_table_row_named_by_id_points_at_its_table():
    table = record(TABLE)
    row = table.children.first()
    with pytest.raises(CommandError):
        call_command("reparse", str(row.pk))
    with pytest.raises(DomainError, match=f"parse that run again|run {table.pk}"):
        run_services.reparse_run(run_id=row.pk)


def test_it_asks_which_runs_and_names_the_missing_ones():
    with pytest.raises(CommandError, match="--format FORMAT, --failed or --all"):
        call_command("reparse")
    with pytest.raises(CommandError, match="no run 999999"):
        call_command("reparse", "999999")
