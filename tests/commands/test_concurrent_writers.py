"""Writers at the same time on the test PostgreSQL: two Spare Cores imports of one archive,
and a price import while a real Celery worker ingests uploads. Each ends well (no crash, no
deadlock, no partial state), everything is stored once, and the statistics check clean."""

import os
import re
import subprocess
import sys

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Price, Result, Run
from benchmarks.services import statistics
from tests import inspector_data
from tests.conftest import SHARED_DATA
from tests.worker import ROOT, wait_until, worker_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reference_data")]

TYPES = ("c7g.large", "t2.micro", "t4g.micro")
OFFER_FILE = (
    SHARED_DATA / "pricing" / "aws-samples" / "aws_ec2_offer_c4large_us-east-1_201612_lyft.json"
)
S1_DIR = SHARED_DATA / "seed-studies" / "fargate-openssl"
# A deadlock or a lock never released fails the test within 60 s, not the suite.
LOCK_TIMEOUT = {"PGOPTIONS": "-c lock_timeout=60000"}


def manage(*arguments: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": worker_database_url(), **LOCK_TIMEOUT},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(process: subprocess.Popen, timeout: float = 300) -> str:
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err[-3000:]
    return out


def test_two_spare_cores_imports_at_once_store_every_run_once(tmp_path):
    files = inspector_data.files_of(TYPES)
    archive = inspector_data.write_archive(tmp_path / "sample.tar.gz", files)
    expected = inspector_data.expected_outcome(files)
    runs = sum(counts["runs"] for kind, counts in expected.items() if kind != "lscpu")

    first, second = (manage("import_sparecores", str(archive), "--jobs", "1") for _ in range(2))
    outputs = [finished(first), finished(second)]

    stored = sorted(int(re.search(r"runs: ([\d,]+) stored", out)[1]) for out in outputs)
    present = sorted(int(re.search(r"stored, ([\d,]+) already present", out)[1]) for out in outputs)
    # Between them every run once: one stored it, or each stored a part the other then found.
    assert sum(stored) == runs and present[1] <= runs
    assert Run.objects.filter(parent=None).count() == runs
    assert not Run.objects.exclude(status="done").exists()
    keys = list(Run.objects.values_list("upload_key", flat=True))
    assert len(keys) == len(set(keys))
    assert statistics.check_statistics().clean


def test_a_price_import_while_a_worker_ingests_uploads_both_end_well(
    django_user_model, celery_worker_process
):
    for name in ("t2.nano", "m4.large", "c4.xlarge", "c5.large", "c4.large"):
        InstanceType.objects.get_or_create(name=name)
    client = APIClient()
    user = django_user_model.objects.create(username="uploader")
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    paths = sorted(S1_DIR.glob("*.txt"))
    imports = []
    run_ids = []
    for index, path in enumerate(paths):
        if index % 5 == 0:
            imports.append(manage("import_prices", "--offer-file", str(OFFER_FILE)))
        with path.open("rb") as handle:
            response = client.post(
                "/api/v1/runs/",
                {"file": handle, "instance_type": path.name.split("__")[0], "region": "us-east-1"},
                format="multipart",
            )
        assert response.status_code == 202, response.content
        run_ids.append(response.json()["id"])
    for process in imports:
        finished(process)
    wait_until(
        lambda: Run.objects.filter(pk__in=run_ids, status="done").count() == len(paths),
        timeout=120,
        message=f"{len(paths)} runs done",
    )
    assert not Run.objects.filter(pk__in=run_ids, status="failed").exists()
    # The imports stored the file's prices once, however many ran.
    prices = Price.objects.filter(instance_type__name="c4.large")
    assert prices.exists()
    once = manage("import_prices", "--offer-file", str(OFFER_FILE))
    count = prices.count()
    finished(once)
    assert prices.count() == count
    assert Result.objects.filter(run_id__in=run_ids).count() > 0
    assert statistics.check_statistics().clean
