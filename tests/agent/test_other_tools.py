"""--iperf3, --sysbench and --fio run the real tools; the project's parsers read the uploads."""

import shutil
import socket
import subprocess
import sys
import time

import pytest

from benchmarks import parsers
from tests.agent.conftest import AGENT_PATH


def parsed_upload(agent, tool, output):
    """What the server would parse: the upload's file, lscpu first."""
    machine = agent.Machine("c7g.large", "us-east-1", None, "flags")
    upload = agent.make_upload(
        tool, output, machine=machine, variant="", lscpu=agent.lscpu_section()
    )
    return parsers.parse(upload.content)


def _listening(port: int) -> bool:
    """Whether a socket listens on this TCP port (IPv4 or IPv6), from /proc/net."""
    listen = "0A"
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == listen:
                    return True
    return False


@pytest.fixture
def iperf3_server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["iperf3", "-s", "-B", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # The kernel's socket table tells when it listens. (Knocking on the port raced: a loaded
    # server still busy with the knock reset the test's own connection.)
    deadline = time.monotonic() + 10
    while not _listening(port):
        assert time.monotonic() < deadline, "iperf3 -s did not start listening"
        time.sleep(0.05)
    yield f"127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=10)


def test_iperf3_measures_tcp_throughput_to_the_given_server(agent, iperf3_server):
    parsed = parsed_upload(agent, "iperf3", agent.iperf3_output(iperf3_server, seconds=1))
    assert parsed.format == "iperf3"
    assert parsed.cpu_model
    directions = {r.params["direction"] for r in parsed.results if r.benchmark == "iperf3:tcp"}
    assert directions == {"send", "receive"}
    assert all(r.value > 0 and r.params["streams"] == 1 for r in parsed.results)


def test_iperf3_without_a_server_says_why_it_failed(agent):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = f"127.0.0.1:{probe.getsockname()[1]}"
    with pytest.raises(agent.AgentError, match=f"iperf3 to {nobody} failed .*unable to connect"):
        agent.iperf3_output(nobody, seconds=1)


def test_sysbench_measures_the_cpu_with_every_thread_and_one(agent):
    cpus = agent.cpu_count()
    parsed = parsed_upload(agent, "sysbench", agent.sysbench_output(seconds=1, cpus=cpus))
    assert parsed.format == "sysbench"
    threads = {r.params["threads"] for r in parsed.results if r.benchmark == "sysbench:cpu"}
    assert threads == {cpus, 1}


def test_fio_measures_random_reads_and_writes_and_deletes_its_file(agent, tmp_path):
    output = agent.fio_output(str(tmp_path), seconds=1, size="16M")
    parsed = parsed_upload(agent, "fio", output)
    assert parsed.format == "fio"
    iops = {r.benchmark: r for r in parsed.results if r.unit == "op/s"}
    assert set(iops) == {"fio:randread", "fio:randwrite"}
    assert all(r.value > 0 and r.params["block_size"] == 4096 for r in iops.values())
    assert list(tmp_path.iterdir()) == []


def test_a_tool_that_is_not_installed_is_named_before_anything_runs(tmp_path):
    # A PATH holding only python: neither openssl nor fio can be found.
    (tmp_path / "python3").symlink_to(sys.executable)
    finished = subprocess.run(
        [sys.executable, str(AGENT_PATH), "--dry-run", "--instance-type", "c7g.large"]
        + ["--region", "us-east-1", "--no-openssl", "--fio", str(tmp_path)],
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path)},
        timeout=60,
    )
    assert finished.returncode == 2
    assert "fio is not installed: install the fio package" in finished.stderr
    assert shutil.which("fio"), "the suite runs fio itself: scripts/test.sh installs it"
