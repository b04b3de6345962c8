"""The demo's study S1 runs carry the study's task counts (Run.observations), also in a
database loaded before the counts were: loading the demo again gives them theirs."""

import pytest

from benchmarks.models import Run, SeriesStatistics
from benchmarks.services import demo, statistics

pytestmark = pytest.mark.django_db

TASK = "fargate-0.25vcpu-0.5gb"


def gcm_row() -> SeriesStatistics:
    return SeriesStatistics.objects.get(
        series__benchmark__key="openssl:aes-128-gcm",
        series__params_key='{"block_size":8192,"processes":1}',
        series__instance_type__name=TASK,
        measured_in="",
    )


def test_every_s1_file_the_counts_name_is_loaded_with_its_count(demo_rolled_back):
    counted = demo.s1_observations()
    stored = dict(Run.objects.filter(filename__in=counted).values_list("filename", "observations"))
    assert stored == counted
    assert sum(count for name, count in counted.items() if name.startswith("fargate-")) == 25


def test_loading_again_gives_runs_loaded_before_the_counts_theirs(demo_rolled_back):
    runs = list(Run.objects.filter(instance_type__name=TASK).values_list("pk", flat=True))
    Run.objects.filter(pk__in=runs).update(observations=1)
    statistics.refresh_series(statistics.series_of_runs(runs))
    before = gcm_row()
    assert before.cpu_models == {"Intel Xeon E5-2676 v3": 1, "Intel Xeon E5-2686 v4": 1}
    assert before.median == (2_779_490_250 + 3_520_877_910) / 2
    demo.load_demo()
    after = gcm_row()
    assert after.cpu_models == {"Intel Xeon E5-2676 v3": 4, "Intel Xeon E5-2686 v4": 1}
    assert after.median == 2_779_490_250
