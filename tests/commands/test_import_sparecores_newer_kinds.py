"""`manage.py import_sparecores` of the newer kinds' archive (more/aws.tar.xz): each folder
stored through the one ingest pipeline or skipped with its reason, its figures answered by
the price-performance API as the raw files give them."""

import io
import json
import tarfile
from functools import cache

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from benchmarks.models import Result, Run
from benchmarks.services import prices as price_services
from tests import inspector_data
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

ARCHIVE = SHARED_DATA / "sparecores-inspector" / "more" / "aws.tar.xz"
# stressngfull on Graviton3 and Intel; membench of a priced type (c4.xlarge, 2^20-byte MB),
# vLLM on a GPU (g5.16xlarge), nvbandwidth that ran (g5.8xlarge) and one with exit_code 1
# (p4d.24xlarge), ffmpeg (c8i.4xlarge), the 24-hour run (t4g.medium), a membench folder
# without meta.json (t3a.nano).
SAMPLE = (
    "c4.xlarge",
    "c7g.xlarge",
    "c8i.4xlarge",
    "g5.16xlarge",
    "g5.8xlarge",
    "p4d.24xlarge",
    "t3a.nano",
    "t4g.medium",
)


@cache
def sample_files() -> dict[str, bytes]:
    prefixes = tuple(f"aws/{name}/" for name in SAMPLE)
    with tarfile.open(ARCHIVE, "r:xz") as archive:
        return {
            member.name: archive.extractfile(member).read()
            for member in archive
            if member.isfile() and member.name.startswith(prefixes)
        }


@pytest.fixture
def imported(tmp_path):
    price_services.import_snapshot()
    path = inspector_data.write_archive(tmp_path / "more.tar.gz", sample_files())
    out = io.StringIO()
    call_command("import_sparecores", str(path), "--jobs", "1", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def ranked(benchmark: str, **params) -> dict[str, dict]:
    query = {"benchmark": benchmark, "region": "us-east-1", **params}
    response = APIClient().get("/api/v1/price-performance/", query)
    assert response.status_code == 200, response.json()
    return {row["instance_type"]: row for row in response.json()["results"]}


def test_stress_ng_at_three_workers_is_the_stressngfull_figure(imported):
    # c7g.xlarge/stressngfull/stdout: 3,4595.49
    assert b"3,4595.49\n" in sample_files()["aws/c7g.xlarge/stressngfull/stdout"]

    table = ranked("stress-ng:cpu", workers=3, method="div16")

    assert table["c7g.xlarge"]["median"] == 4595.49
    assert table["c7g.xlarge"]["usd_per_hour"] is not None


def test_membench_read_at_16_kib_is_membench_s_mb_per_second_in_bytes(imported):
    # c4.xlarge/membench/stdout: 16,read,158006.49,...; sc-membench's MB is 2^20 bytes
    assert b"\n16,read,158006.49," in sample_files()["aws/c4.xlarge/membench/stdout"]

    row = ranked("membench:read", size_kb=16)["c4.xlarge"]

    assert row["median"] == pytest.approx(158006.49 * 2**20)
    assert row["usd_per_hour"] is not None
    latency = Result.objects.get(
        benchmark__key="membench:latency",
        params={"size_kb": 16},
        run__instance_type__name="c4.xlarge",
    )
    assert latency.value == pytest.approx(1.29e-9)


def test_every_folder_is_stored_or_skipped_with_its_reason(imported):
    stored = dict(
        Run.objects.filter(status=Run.Status.DONE)
        .values_list("filename", "format")
        .order_by("filename")
    )

    assert stored["aws/g5.16xlarge/vllm/stdout"] == "vllm"
    assert stored["aws/t4g.medium/stressnglongrun/parsed.csv"] == "stressnglongrun"
    assert stored["aws/c8i.4xlarge/ffmpeg/stdout"] == "ffmpeg"
    assert stored["aws/g5.8xlarge/nvbandwidth/stdout"] == "nvbandwidth"
    assert "aws/p4d.24xlarge/nvbandwidth/stdout" not in stored
    assert "aws/p4d.24xlarge/nvbandwidth: exit_code 1" in imported
    assert "aws/t3a.nano/membench: no meta.json" in imported
    files = sample_files()
    folders = {name.rsplit("/", 1)[0] for name in files}
    ran = {
        folder
        for folder in folders
        if f"{folder}/meta.json" in files
        and json.loads(files[f"{folder}/meta.json"])["exit_code"] == 0
    }
    assert {name.rsplit("/", 1)[0] for name in stored} == ran


def test_vllm_results_take_the_agreed_shape(imported):
    result = Result.objects.get(
        benchmark__key="vllm:ttft",
        run__instance_type__name="g5.16xlarge",
        params={
            "model": "llama-8b",
            "workload": "chat",
            "mode": "gpu",
            "strategy": "synchronous",
            "concurrency": 1.0,
            "percentile": "p95",
        },
    )
    assert (result.value, result.benchmark.unit) == (137.5868320465088, "ms")
    assert result.benchmark.higher_is_better is False
