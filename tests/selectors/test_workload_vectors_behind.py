"""The workload vectors are read again behind the answers: after a change of the statistics, a
question is answered from the vectors kept while a thread reads the new ones."""

import csv
import io
import time

import pytest

from benchmarks.models import InstanceType, Region, Run
from benchmarks.selectors.subjects import workload_vectors
from benchmarks.services import runs as run_services

# The thread reads through its own connection: the test's writes must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


def _store(names: list[str]) -> None:
    # A transactional test's flush empties the migrated regions.
    Region.objects.get_or_create(code="us-east-1", defaults={"name": "US East (N. Virginia)"})
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["benchmark", "instance_type", "region", "value", "unit", "param.threads"])
    for number, name in enumerate(names, start=1):
        InstanceType.objects.get_or_create(name=name, defaults={"vcpus": 2})
        writer.writerow(["behind:alpha", name, "us-east-1", 100.0 * number, "ops/s", 1])
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error


def _names(loaded) -> set[str]:
    return {loaded.types[type_id].name for type_id in loaded.vectors.types}


def test_after_a_change_the_kept_vectors_answer_while_a_thread_reads_the_new(settings, monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND = True
    _store(["wb1.large", "wb2.large", "wb3.large"])
    first = workload_vectors.load_vectors()  # none kept: read here
    assert _names(first) == {"wb1.large", "wb2.large", "wb3.large"}
    assert workload_vectors.load_vectors() is first

    _store(["wb4.large"])
    started = time.perf_counter()
    assert workload_vectors.load_vectors() is first  # kept ones answer; a thread reads
    assert time.perf_counter() - started < 0.5
    deadline = time.monotonic() + 30
    while (now := workload_vectors.load_vectors()) is first and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "wb4.large" in _names(now)
    assert workload_vectors.load_vectors() is now


def test_turned_off_a_change_is_read_by_the_question_that_sees_it(settings, monkeypatch):
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND = False
    _store(["wb1.large", "wb2.large", "wb3.large"])
    first = workload_vectors.load_vectors()
    _store(["wb4.large"])
    assert "wb4.large" in _names(workload_vectors.load_vectors())
    assert "wb4.large" not in _names(first)
