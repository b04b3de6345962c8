"""A real `openssl speed` run by the agent parses into Spare Cores' benchmark keys and params."""

import re
import shutil
import subprocess

import pytest

from benchmarks import parsers
from tests.agent.conftest import load_agent
from tests.conftest import SHARED_DATA

SPARE_CORES_C7G_LARGE = SHARED_DATA / "sparecores-aws" / "c7g.large" / "openssl_stdout"
ALGORITHMS = ["sha256", "rsa2048"]  # sha256 is in Spare Cores' set: the shapes can be compared


@pytest.fixture(scope="module")
def measured():
    """One short real measurement (1 second per block size or operation) for the module."""
    agent = load_agent()
    openssl = agent.OpenSSL(shutil.which("openssl"))
    cpus = agent.cpu_count()
    output = agent.openssl_output(openssl, algorithms=ALGORITHMS, seconds=1, cpus=cpus)
    text = agent.lscpu_section() + output
    return {"text": text, "cpus": cpus, "parsed": parsers.parse(text)}


def by_params(results, benchmark):
    return {
        tuple(sorted(result.params.items())): result
        for result in results
        if result.benchmark == benchmark
    }


def test_the_output_parses_into_openssl_results_with_the_cpu_model(measured):
    parsed = measured["parsed"]
    assert parsed.format == "openssl"
    assert parsed.warnings == []
    version = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout
    assert version.startswith(f"OpenSSL {parsed.tool_version} ")
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, env={"LC_ALL": "C"}).stdout
    model = re.search(r"^Model name:\s+(.+)$", lscpu, re.MULTILINE)[1].strip()
    assert parsed.cpu_model == model
    assert {result.benchmark for result in parsed.results} == {"openssl:sha256", "openssl:rsa2048"}


def test_each_algorithm_is_measured_with_every_cpu_and_alone(measured):
    cpus, results = measured["cpus"], measured["parsed"].results
    processes = sorted({cpus, 1})
    sha256 = by_params(results, "openssl:sha256")
    assert set(sha256) == {
        (("block_size", size), ("processes", count))
        for size in (16, 64, 256, 1024, 8192, 16384)
        for count in processes
    }
    assert all(result.unit == "B/s" and result.value > 0 for result in sha256.values())
    rsa = by_params(results, "openssl:rsa2048")
    assert {params for params in rsa} >= {
        (("op", op), ("processes", count)) for op in ("sign", "verify") for count in processes
    }
    assert all(result.unit == "op/s" and result.value > 0 for result in rsa.values())


def test_the_multi_process_pass_has_the_shape_of_spare_cores_results(measured):
    """Same key, same params and block sizes, processes = the CPUs, as in their c7g.large file."""
    theirs = parsers.parse(SPARE_CORES_C7G_LARGE.read_bytes())
    ours = by_params(measured["parsed"].results, "openssl:sha256")
    their_sha256 = by_params(theirs.results, "openssl:sha256")
    assert their_sha256
    cpus = measured["cpus"]
    ours_multi = {
        params: result for params, result in ours.items() if dict(params)["processes"] == cpus
    }
    assert {dict(p)["block_size"] for p in ours_multi} == {
        dict(p)["block_size"] for p in their_sha256
    }
    assert {tuple(name for name, _ in p) for p in ours_multi} == {
        tuple(name for name, _ in p) for p in their_sha256
    }
    assert {dict(p)["processes"] for p in their_sha256} == {2}  # c7g.large has 2 vCPUs
    assert {(r.unit, r.higher_is_better) for r in ours_multi.values()} == {
        (r.unit, r.higher_is_better) for r in their_sha256.values()
    }
    assert {type(value) for r in ours_multi.values() for value in r.params.values()} == {int}


def test_each_run_follows_spare_cores_delimiter_line(measured):
    theirs = SPARE_CORES_C7G_LARGE.read_text()
    assert "ALGO: -evp sha256 ----------------------------------------\n" in theirs
    ours = measured["text"]
    passes = 2 if measured["cpus"] > 1 else 1  # with one CPU, -multi 1 is the single pass
    assert ours.count("ALGO: -evp sha256 ----------------------------------------\n") == passes
    assert ours.count("ALGO: rsa2048 ----------------------------------------\n") == passes
    assert ours.count("Forked child 0") == len(ALGORITHMS)


def test_the_command_is_spare_cores_command(agent):
    openssl = agent.OpenSSL(shutil.which("openssl"))
    multi = openssl.speed_command(["-evp", "aes-256-cbc"], processes=8, seconds=None)
    expected = ["speed", "-mr", "-elapsed", "-multi", "8", "-evp", "aes-256-cbc"]
    if "-mlock" in openssl.speed_options:
        expected.insert(2, "-mlock")
    assert multi[1:] == expected
    alone = openssl.speed_command(["rsa2048"], processes=None, seconds=1)
    assert "-multi" not in alone
    assert alone[-3:] == ["-seconds", "1", "rsa2048"]


def test_an_algorithm_openssl_lacks_is_left_out_and_the_rest_kept(agent, capsys):
    openssl = agent.OpenSSL(shutil.which("openssl"))
    output = agent.openssl_output(
        openssl, algorithms=["no-such-cipher", "rsa2048"], seconds=1, cpus=1
    )
    assert "no-such-cipher" not in output
    assert "left out of the upload" in capsys.readouterr().err
    parsed = parsers.parse(output)
    assert {(r.benchmark, r.params["processes"]) for r in parsed.results} == {
        ("openssl:rsa2048", 1)
    }


def test_when_every_run_fails_nothing_is_uploaded(agent, capsys):
    openssl = agent.OpenSSL(shutil.which("openssl"))
    with pytest.raises(agent.AgentError, match="every `openssl speed` run failed"):
        agent.openssl_output(openssl, algorithms=["no-such-cipher"], seconds=1, cpus=2)
    progress = capsys.readouterr().err
    assert "-evp no-such-cipher` failed (exit code 1: " in progress
    assert "left out of the upload" in progress
