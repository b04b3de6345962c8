"""`rebuild_stats --check` on the bundled demo: the statistics it keeps check clean.

Apart from test_check.py, whose transactional test would meet this module's demo, loaded
in a transaction held open until the module ends."""

import pytest

from benchmarks.services import statistics


@pytest.mark.django_db
def test_the_demo_checks_clean(demo_rolled_back):
    report = statistics.check_statistics()
    assert report.clean, report.differences[:5]
    assert report.rows > 100 and report.benchmarks > 5
