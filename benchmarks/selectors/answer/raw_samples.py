"""A sample of the raw output behind each kind of benchmark, for `/benchmarks/`.

One query whatever the number of results: the first characters of the outputs of the runs
each benchmark keeps as its sample (`Benchmark.sample_run`, the newest done run with raw
output that measured it, kept at ingest by services/statistics/); the outputs themselves stay
in the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models.functions import Substr
from django.urls import reverse

from benchmarks.models import Benchmark, Run
from benchmarks.selectors.pages.catalogue import BenchmarkGroup

# What a sample shows: the first lines of the output, at most this many characters.
SAMPLE_LINES = 14
SAMPLE_CHARACTERS = 1600


@dataclass(frozen=True)
class RawSample:
    """The head of one run's raw output."""

    run_id: int
    format: str
    instance_type: str
    lines: tuple[str, ...]
    cut: bool

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def run_url(self) -> str:
        return reverse("run", args=[self.run_id])


def samples_by_benchmark(benchmarks: list[Benchmark]) -> dict[str, RawSample]:
    """Benchmark key -> the sample of its raw output (benchmarks of one run share it)."""
    run_of = {
        benchmark.pk: benchmark.sample_run_id for benchmark in benchmarks if benchmark.sample_run_id
    }
    samples = {
        row["pk"]: RawSample(
            run_id=row["pk"],
            format=row["format"],
            instance_type=row["instance_type__name"] or "",
            lines=tuple(row["head"][:SAMPLE_CHARACTERS].splitlines()[:SAMPLE_LINES]),
            cut=len(row["head"]) > SAMPLE_CHARACTERS
            or len(row["head"].splitlines()) > SAMPLE_LINES,
        )
        for row in Run.objects.filter(pk__in=set(run_of.values()))
        .annotate(head=Substr("raw_output", 1, SAMPLE_CHARACTERS + 1))
        .values("pk", "format", "instance_type__name", "head")
    }
    return {
        benchmark.key: samples[run_of[benchmark.pk]]
        for benchmark in benchmarks
        if run_of.get(benchmark.pk) in samples
    }


def samples_by_group(groups: list[BenchmarkGroup]) -> dict[str, list[tuple[RawSample, list[str]]]]:
    """The index's group label -> each distinct sample of the group's benchmarks, with the
    benchmarks of the group it feeds (one sample per tool's output rather than one per
    benchmark)."""
    by_key = samples_by_benchmark(
        [summary.benchmark for group in groups for summary in group.benchmarks]
    )
    answer: dict[str, list[tuple[RawSample, list[str]]]] = {}
    for group in groups:
        fed: dict[RawSample, list[str]] = {}
        for summary in group.benchmarks:
            if summary.key in by_key:
                fed.setdefault(by_key[summary.key], []).append(summary.key)
        answer[group.label] = list(fed.items())
    return answer
