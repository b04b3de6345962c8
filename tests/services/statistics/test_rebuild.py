"""Rebuilding every kept statistic from the results, and telling when a database needs it."""

import pytest

from benchmarks.models import InstanceType, Result, SeriesStatistics
from benchmarks.services import statistics
from tests.services.statistics.common import kept, upload


@pytest.mark.django_db
def test_statistics_kept_before_flags_were_counted_are_rebuilt_by_the_demo_loader():
    InstanceType.objects.get_or_create(name="c7g.large")
    upload(
        [{"benchmark": "tool:x", "instance_type": "c7g.large", "region": "us-east-1",
          "value": 5, "unit": "op/s", "cpu_model": "AMD EPYC 9R14 96-Core Processor"}]
    )  # fmt: skip
    assert not statistics.needs_rebuild()
    SeriesStatistics.objects.update(flagged_runs=None, cpu_models={"raw": 1})
    assert statistics.needs_rebuild()
    statistics.rebuild_statistics()
    row = SeriesStatistics.objects.get()
    assert (row.flagged_runs, row.cpu_models) == (0, {"AMD EPYC 9R14": 1})
    assert not statistics.needs_rebuild()


@pytest.mark.django_db
def test_a_rebuild_gives_results_without_a_series_theirs_and_changes_no_statistic():
    InstanceType.objects.get_or_create(name="c7g.large")
    upload(
        [{"benchmark": "tool:x", "instance_type": "c7g.large", "region": region,
          "value": value, "unit": "op/s"}
         for region, value in (("us-east-1", 5), ("eu-west-1", 7))]
    )  # fmt: skip
    before = kept()
    Result.objects.update(series=None)
    assert statistics.needs_rebuild()
    summary = statistics.rebuild_statistics()
    assert summary["results_attached"] == 2
    assert not Result.objects.filter(series=None).exists()
    assert kept() == before
    assert not statistics.needs_rebuild()
