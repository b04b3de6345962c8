"""`manage.py parse_output`: JSON on stdout, or status 1 and one line on stderr."""

import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

ROOT = Path(__file__).resolve().parent.parent.parent


def parse_output(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "parse_output", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_it_prints_the_contracts_json_object():
    done = parse_output(
        str(
            SHARED_DATA
            / "seed-studies/fargate-openssl/fargate-0.25vcpu-0.5gb__e5-2686-v4-2-30ghz.txt"
        )
    )
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["format"] == "openssl"
    assert body["tool_version"] == "1.0.2g"
    assert body["cpu_model"] == "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz"
    assert body["warnings"] == []
    gcm = [
        r
        for r in body["results"]
        if r["benchmark"] == "openssl:aes-128-gcm" and r["params"]["block_size"] == 8192
    ]
    assert gcm == [
        {
            "benchmark": "openssl:aes-128-gcm",
            "params": {"block_size": 8192, "processes": 1},
            "value": 3520877910.0,
            "unit": "B/s",
            "higher_is_better": True,
        }
    ]


@pytest.mark.parametrize("name", ["c7g.large", "c5.metal", "t2.nano"])
def test_it_agrees_with_spare_cores_parse(name):
    done = parse_output(
        str(SHARED_DATA / "sparecores-aws" / name / "openssl_stdout"), "--format", "openssl"
    )
    assert done.returncode == 0, done.stderr
    ours = {
        (r["benchmark"].removeprefix("openssl:"), r["params"]["block_size"]): r["value"]
        for r in json.loads(done.stdout)["results"]
    }
    theirs = json.loads((SHARED_DATA / "sparecores-aws" / name / "openssl_parsed.json").read_text())
    for record in theirs:
        assert ours[(record["algo"].lower(), record["block_size"])] == pytest.approx(
            record["speed"], rel=1e-4
        )


def test_unreadable_input_exits_1_with_one_line_naming_the_line(tmp_path):
    cut = tmp_path / "cut.txt"
    cut.write_text(
        "OpenSSL 1.1.1f  31 Mar 2020\n"
        "type        16 bytes    64 bytes   256 bytes  1024 bytes  8192 bytes 16384 bytes\n"
        "aes-128-cbc     746471.10k  1451308.33k\n"
    )
    done = parse_output(str(cut))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "line 3" in lines[0]


def test_a_missing_file_exits_1(tmp_path):
    done = parse_output(str(tmp_path / "nope.txt"))
    assert done.returncode == 1
    assert "cannot read" in done.stderr and done.stdout == ""


def archive_member(name: str) -> bytes:
    """One file of Spare Cores' inspector archive, read in place."""
    with tarfile.open(SHARED_DATA / "sparecores-inspector" / "aws.tar.xz", "r:xz") as archive:
        for member in archive:
            if member.name == name:
                return archive.extractfile(member).read()
    raise KeyError(name)


def test_it_reads_a_spare_cores_redis_table_by_its_format_name(tmp_path):
    path = tmp_path / "stdout"
    path.write_bytes(archive_member("aws/c7g.large/redis/stdout"))

    done = parse_output(str(path), "--format", "redis")

    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["format"] == "redis"
    assert body["results"][0] == {
        "benchmark": "redis:set",
        "params": {"threads": 1, "pipeline": 1},
        "value": 135900.0,
        "unit": "op/s",
        "higher_is_better": True,
    }
    assert body["results"][1]["benchmark"] == "redis:set-latency"
    assert body["results"][1]["value"] == pytest.approx(0.00074)


def test_processes_complete_a_parsed_json_as_the_raw_output_has_them():
    done = parse_output(
        str(SHARED_DATA / "sparecores-aws" / "c7g.large" / "openssl_parsed.json"),
        "--processes",
        "2",
    )

    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["format"] == "openssl"
    assert body["warnings"] == []
    assert {json.dumps(r["params"], sort_keys=True) for r in body["results"]} == {
        json.dumps({"block_size": size, "processes": 2}, sort_keys=True)
        for size in (16, 64, 256, 1024, 8192, 16384)
    }


def test_a_stress_ng_log_takes_its_cpu_method_from_the_command_line(tmp_path):
    path = tmp_path / "stdout"
    path.write_bytes(archive_member("aws/c7g.large/stressngsinglecore/stdout"))

    done = parse_output(str(path), "--format", "stressngsinglecore", "--cpu-method", "div16")

    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["format"] == "stressngsinglecore"
    assert body["results"] == [
        {
            "benchmark": "stress-ng:cpu",
            "params": {"method": "div16", "workers": 1},
            "value": 1532.29,
            "unit": "bogo-op/s",
            "higher_is_better": True,
        }
    ]
