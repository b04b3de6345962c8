"""`manage.py import_results`: the upload service from the command line, idempotent."""

import pytest
from django.core.management import CommandError, call_command

from benchmarks.models import InstanceType, Result, Run
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

S1 = SHARED_DATA / "seed-studies" / "fargate-openssl"


def test_it_stores_each_file_once(capsys):
    InstanceType.objects.create(name="c5.large")
    path = S1 / "c5.large__platinum-8124m-3-00ghz.txt"
    call_command(
        "import_results",
        str(path),
        "--instance-type",
        "c5.large",
        "--region",
        "us-east-1",
        "--measured-at",
        "2017-12-10",
    )
    run = Run.objects.get()
    assert (run.status, run.measured_at.isoformat(), run.results.count()) == (
        "done",
        "2017-12-10",
        10,
    )
    call_command(
        "import_results", str(path), "--instance-type", "c5.large", "--region", "us-east-1"
    )
    assert "already imported" in capsys.readouterr().out
    assert Run.objects.count() == 1 and Result.objects.count() == 10


def test_fargate_sizes_are_known_without_any_import():
    path = S1 / "fargate-4vcpu-30gb__e5-2686-v4-2-30ghz.txt"
    call_command(
        "import_results",
        str(path),
        "--instance-type",
        "fargate-4vcpu-30gb",
        "--region",
        "us-east-1",
    )
    assert Run.objects.get().instance_type.kind == "fargate"


def test_an_unknown_instance_type_is_an_error_that_suggests_names():
    with pytest.raises(CommandError, match="did you mean fargate-4vcpu-30gb"):
        call_command(
            "import_results",
            str(S1 / "fargate-4vcpu-30gb__e5-2686-v4-2-30ghz.txt"),
            "--instance-type",
            "fargate-4vcpu-30g",
            "--region",
            "us-east-1",
        )
    assert Run.objects.count() == 0
