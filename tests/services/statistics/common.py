"""What the statistics tests share: tables of results as users upload them, and every kept
statistic in a form that compares across recomputations."""

import csv
import io

from benchmarks.models import Benchmark, BenchmarkCoverage, PeerGroup, Run, SeriesStatistics
from benchmarks.services import runs as run_services
from benchmarks.services.statistics import coverage as coverage_statistics

TYPES = ["c7g.large", "c7a.large", "t2.nano", "fargate-1vcpu-2gb"]
REGIONS = ["us-east-1", "ap-northeast-1", "eu-west-1"]


def table(rows: list[dict]) -> bytes:
    """A CSV upload, the way a user sends a table of results."""
    out = io.StringIO()
    writer = csv.DictWriter(
        out,
        fieldnames=["benchmark", "instance_type", "region", "value", "unit", "variant"]
        + ["cpu_model", "param.block_size", "notes", "measured_at"],
    )
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def upload(rows: list[dict], **submission) -> Run:
    run, created = run_services.record_run(
        content=table(rows), format="csv", filename="t.csv", **submission
    )
    assert run.status == Run.Status.DONE, run.error
    return run


def kept() -> dict:
    """Every kept statistic and summary, comparable across recomputations."""
    rows = {}
    for row in SeriesStatistics.objects.select_related("series"):
        series = row.series
        rows[(series.benchmark_id, series.instance_type_id, series.variant, series.params_key,
              row.measured_in)] = (
            row.sole_region, row.runs, row.results, row.median, row.minimum, row.maximum,
            row.first_quartile, row.third_quartile, row.cpu_models, row.regions, row.sources,
            row.samples, row.first_measured_at, row.last_measured_at, row.flagged_runs,
            row.flags, row.only_flagged,
        )  # fmt: skip
    summaries = {b.key: (b.params, b.families, b.sample_run_id) for b in Benchmark.objects.all()}
    coverage = sorted(
        BenchmarkCoverage.objects.values_list(
            "benchmark__key", "instance_type__name", *coverage_statistics.FIGURES
        )
    )
    peers = sorted(PeerGroup.objects.values_list("benchmark__key", "params_key", "series"))
    return {"statistics": rows, "summaries": summaries, "coverage": coverage, "peers": peers}
