"""`manage.py loaddemo`: the bundled prices and studies, loaded once however often it runs."""

import pytest
from django.core.management import call_command

from benchmarks.models import FargateRate, Price, Result, Run

pytestmark = pytest.mark.django_db


def counts():
    return (
        Price.objects.count(),
        FargateRate.objects.count(),
        Run.objects.count(),
        Result.objects.count(),
    )


def test_loading_twice_stores_nothing_the_second_time(capsys):
    call_command("loaddemo")
    first = counts()
    assert all(count > 0 for count in first)
    assert Run.objects.filter(status="failed").count() == 0
    call_command("loaddemo")
    assert counts() == first
    assert "runs stored 0" in capsys.readouterr().out.splitlines()[-1]


def test_every_demo_run_names_its_source_and_licence():
    call_command("loaddemo")
    assert not Run.objects.filter(source="").exists()
    assert not Run.objects.filter(licence="").exists()
    spare_cores = Run.objects.filter(source__startswith="Benchmark data: Spare Cores")
    assert spare_cores.exclude(parent=None).count() == 59
    assert set(spare_cores.values_list("licence", flat=True)) == {"CC BY-SA 4.0"}
