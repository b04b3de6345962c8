"""The workload matrix is stored (models.WorkloadMatrix): a process's first question reads it in
one query instead of every kept median, and a stale one answers while the statistics are read
again behind it."""

import csv
import io
import time

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks.errors import DomainError
from benchmarks.models import (
    InstanceType,
    Region,
    Run,
    Series,
    SeriesStatistics,
    WorkloadMatrix,
)
from benchmarks.selectors.subjects import workload_vectors
from benchmarks.selectors.subjects.workload import WorkloadQuestion, predict_workload
from benchmarks.services import runs as run_services
from benchmarks.services.statistics import rebuild_statistics

pytestmark = pytest.mark.django_db


def _store(names: list[str], benchmark: str = "stored:alpha") -> None:
    # A transactional test's flush empties the migrated regions.
    Region.objects.get_or_create(code="us-east-1", defaults={"name": "US East (N. Virginia)"})
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["benchmark", "instance_type", "region", "value", "unit", "param.threads"])
    for number, name in enumerate(names, start=1):
        InstanceType.objects.get_or_create(name=name, defaults={"vcpus": 2 * number})
        writer.writerow([benchmark, name, "us-east-1", 100.0 * number, "ops/s", 1])
        writer.writerow(["stored:time", name, "us-east-1", 10.0 / number, "s", 4])
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error


def _names(loaded) -> set[str]:
    return {loaded.types[type_id].name for type_id in loaded.vectors.types}


def _statistics_read(queries) -> bool:
    table = SeriesStatistics._meta.db_table
    return any(table in query["sql"] for query in queries)


def _first_question(monkeypatch) -> tuple:
    """A new process's first read: nothing kept in the process. The vectors, and whether
    they were read from the statistics."""
    workload_vectors.forget()
    with CaptureQueriesContext(connection) as queries:
        loaded = workload_vectors.load_vectors()
    return loaded, _statistics_read(queries.captured_queries)


def _same(one, other) -> None:
    assert one.vectors.types == other.vectors.types
    assert one.vectors.columns == other.vectors.columns
    np.testing.assert_array_equal(one.vectors.logs, other.vectors.logs)
    np.testing.assert_array_equal(one.vectors.reaches, other.vectors.reaches)
    np.testing.assert_array_equal(one.vectors.groups, other.vectors.groups)
    assert one.columns == other.columns
    assert one.types == other.types


def test_a_process_first_question_reads_the_stored_matrix_not_the_statistics(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    _store(["ws1.large", "ws2.large", "ws3.large"])
    read, from_statistics = _first_question(monkeypatch)
    assert from_statistics  # none stored: read from the statistics, and stored
    assert WorkloadMatrix.objects.count() == 1
    again, from_statistics = _first_question(monkeypatch)
    assert not from_statistics
    _same(again, read)
    assert _names(again) == {"ws1.large", "ws2.large", "ws3.large"}
    # The vCPU count's column is read from the types, not stored.
    assert again.columns[-1].benchmark == workload_vectors.VCPUS
    np.testing.assert_allclose(np.exp(again.vectors.logs[:, -1]), [2, 4, 6])


def test_a_stale_stored_matrix_is_read_again_when_answers_may_not_be_behind(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    _store(["ws1.large", "ws2.large", "ws3.large"])
    _first_question(monkeypatch)
    _store(["ws4.large"])
    loaded, from_statistics = _first_question(monkeypatch)
    assert from_statistics
    assert "ws4.large" in _names(loaded)
    # And stored again: the next process's first question reads it.
    loaded, from_statistics = _first_question(monkeypatch)
    assert not from_statistics
    assert "ws4.large" in _names(loaded)


def test_a_matrix_stored_by_another_reading_is_not_used(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    _store(["ws1.large", "ws2.large", "ws3.large"])
    _first_question(monkeypatch)
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 4)
    _store(["ws4.large"], benchmark="stored:beta")  # beta on one type: no column at 3 or 4
    WorkloadMatrix.objects.update(arrays=b"not arrays")  # nor would it be read
    loaded, from_statistics = _first_question(monkeypatch)
    assert from_statistics
    assert [column.benchmark for column in loaded.columns] == ["stored:time", "vcpus"]


def test_an_unreadable_stored_matrix_is_read_from_the_statistics(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    _store(["ws1.large", "ws2.large", "ws3.large"])
    read, _ = _first_question(monkeypatch)
    WorkloadMatrix.objects.update(arrays=b"not arrays")
    loaded, from_statistics = _first_question(monkeypatch)
    assert from_statistics
    _same(loaded, read)


def test_a_type_deleted_since_the_matrix_was_stored_is_not_in_the_vectors(monkeypatch, settings):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND = True
    monkeypatch.setattr(workload_vectors, "_read_behind", lambda database: True)
    _store(["ws1.large", "ws2.large", "ws3.large", "ws4.large"])
    _first_question(monkeypatch)
    # Its runs and series gone first (they protect it), as a withdrawal then a cleanup would.
    Run.objects.filter(instance_type__name="ws2.large").delete()
    Series.objects.filter(instance_type__name="ws2.large").delete()
    InstanceType.objects.filter(name="ws2.large").delete()
    loaded, from_statistics = _first_question(monkeypatch)
    assert not from_statistics  # the stored one answers behind the change
    assert _names(loaded) == {"ws1.large", "ws3.large", "ws4.large"}
    assert loaded.vectors.logs.shape[0] == 3


def test_rebuilding_the_statistics_stores_the_matrix(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    _store(["ws1.large", "ws2.large", "ws3.large"])
    assert not WorkloadMatrix.objects.exists()  # an upload stores nothing
    rebuild_statistics()
    loaded, from_statistics = _first_question(monkeypatch)
    assert not from_statistics
    assert _names(loaded) == {"ws1.large", "ws2.large", "ws3.large"}


@pytest.mark.django_db(transaction=True)
def test_a_stale_stored_matrix_answers_a_first_question_while_a_thread_reads(monkeypatch, settings):
    # The thread reads through its own connection: the test's writes must be committed.
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND = True
    _store(["ws1.large", "ws2.large", "ws3.large"])
    workload_vectors.keep_stored()
    _store(["ws4.large"])
    stamps = WorkloadMatrix.objects.get().stamps
    loaded, from_statistics = _first_question(monkeypatch)
    assert not from_statistics
    assert "ws4.large" not in _names(loaded)
    deadline = time.monotonic() + 30
    while WorkloadMatrix.objects.get().stamps == stamps and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "ws4.large" in _names(workload_vectors.load_vectors())  # the thread's, kept
    loaded, from_statistics = _first_question(monkeypatch)  # and stored
    assert not from_statistics
    assert "ws4.large" in _names(loaded)


def test_a_question_naming_a_type_the_stored_matrix_lacks_reads_the_statistics(monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    # Answers may be behind (no thread here: the test's data is in its transaction).
    monkeypatch.setattr(workload_vectors, "_read_behind", lambda database: True)
    _store(["ws1.large", "ws2.large", "ws3.large"])
    _first_question(monkeypatch)
    _store(["ws4.large"])
    workload_vectors.forget()
    given = [("ws1.large", 100.0), ("ws3.large", 300.0)]
    behind = predict_workload(WorkloadQuestion(figures=given))
    assert behind["model"]["benchmarks"]  # the stored matrix answered, behind the upload
    answer = predict_workload(WorkloadQuestion(figures=[*given, ("ws4.large", 400.0)]))
    assert answer["model"]["benchmarks"][0]["benchmark"] == "stored:alpha"
    with pytest.raises(DomainError, match="unknown instance type 'ws9.large'"):
        predict_workload(WorkloadQuestion(figures=[*given, ("ws9.large", 400.0)]))


@pytest.mark.django_db(transaction=True)
def test_after_a_change_a_matrix_another_process_stored_is_read_instead_of_the_statistics(
    monkeypatch, settings
):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND = True
    _store(["ws1.large", "ws2.large", "ws3.large"])
    first = workload_vectors.load_vectors()
    _store(["ws4.large"])
    workload_vectors.keep_stored()  # as another process's thread would, after the change

    def statistics_read():
        raise AssertionError("the statistics were read")

    monkeypatch.setattr(workload_vectors, "_read", statistics_read)
    assert workload_vectors.load_vectors() is first  # kept ones answer; a thread reads
    deadline = time.monotonic() + 30
    while (now := workload_vectors.load_vectors()) is first and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "ws4.large" in _names(now)
