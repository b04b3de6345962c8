"""The agent's uploads land on a live server as parsed runs; transient errors are retried."""

import datetime
import json
import re
import subprocess
import sys
import urllib.request

import pytest

from benchmarks.models import Run
from tests.agent.conftest import AGENT_PATH
from tests.agent.servers import LoopbackServer, _Handler, closed_port_url


def lscpu_model() -> str:
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, env={"LC_ALL": "C"}).stdout
    return re.search(r"^Model name:\s+(.+)$", lscpu, re.MULTILINE)[1].strip()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reference_data")
def test_a_measured_run_is_uploaded_parsed_and_shown_with_its_cpu_model(live_server, token):
    finished = subprocess.run(
        [sys.executable, str(AGENT_PATH), "--server", live_server.url, "--token", token]
        + ["--instance-type", "c7g.large", "--region", "us-east-1"]
        + ["--seconds", "1", "--algorithms", "rsa2048"],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert finished.returncode == 0, finished.stderr
    run = Run.objects.get()
    assert finished.stdout == f"{live_server.url}/runs/{run.pk}/\n"
    assert run.status == Run.Status.DONE, run.error
    assert (run.instance_type.name, run.region.code, run.format) == (
        "c7g.large",
        "us-east-1",
        "openssl",
    )
    assert run.cpu_model == lscpu_model()
    assert run.source == "pricebench agent"
    assert run.measured_at == datetime.datetime.now(datetime.UTC).date()
    assert run.filename == "pricebench-agent-openssl-c7g.large-us-east-1.txt"
    figures = {(r.benchmark.key, r.params["op"], r.params["processes"]) for r in run.results.all()}
    assert ("openssl:rsa2048", "sign", 1) in figures
    assert ("openssl:rsa2048", "verify", 1) in figures
    assert f"openssl: run {run.pk} parsed: {run.results.count()} results" in finished.stderr
    with urllib.request.urlopen(f"{live_server.url}/runs/{run.pk}/", timeout=10) as page:
        assert run.cpu_model in page.read().decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reference_data")
def test_before_measuring_it_stops_on_a_bad_token_or_an_unknown_machine(agent, live_server, token):
    machine = agent.Machine("c7g.large", "us-east-1", None, "flags")
    agent.Server(live_server.url, token).check(machine)  # answers, takes the token, knows it
    with pytest.raises(agent.AgentError, match="refused the token: Invalid token."):
        agent.Server(live_server.url, "0" * 40).check(machine)
    unknown = agent.Machine("c7g.larg", "us-east-1", None, "flags")
    with pytest.raises(agent.AgentError, match="does not know the instance type c7g.larg"):
        agent.Server(live_server.url, token).check(unknown)
    with pytest.raises(agent.AgentError, match="does not know the region us-east-9"):
        agent.Server(live_server.url, token).check(
            agent.Machine("c7g.large", "us-east-9", None, "")
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reference_data")
def test_a_refused_upload_is_reported_as_the_server_words_it_and_not_retried(
    agent, live_server, token
):
    waits = []
    server = agent.Server(live_server.url, token, sleep=waits.append)
    machine = agent.Machine("c7g.large", "us-east-1", None, "flags")
    upload = agent.make_upload(
        "openssl", "Dear diary, no benchmark today.\n", machine=machine, variant="", lscpu=""
    )
    with pytest.raises(agent.AgentError) as refused:
        server.send(upload)
    assert "refused the openssl upload (HTTP 400): file: line 1: could not recognise" in str(
        refused.value
    )
    assert waits == []
    assert Run.objects.count() == 0


class _FlakyApi(_Handler):
    """Fails the first uploads as a busy server would, then accepts."""

    def do_POST(self):
        self._record()
        self.rfile.read(int(self.headers["Content-Length"]))
        answers = self.owner.answers
        status, headers, body = answers.pop(0) if answers else (202, {}, self.owner.accepted)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        data = json.dumps(body).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_transient_errors_are_retried_with_backoff_and_retry_after(agent):
    waits = []
    with LoopbackServer(_FlakyApi) as api:
        api.answers = [
            (503, {}, {"detail": "Service unavailable"}),
            (429, {"Retry-After": "7"}, {"detail": "Request was throttled."}),
        ]
        api.accepted = {"id": 41, "status": "pending"}
        server = agent.Server(api.url, "a-token", retries=3, sleep=waits.append)
        machine = agent.Machine("c7g.large", "us-east-1", None, "flags")
        upload = agent.make_upload(
            "openssl", "OpenSSL 3.0.19\n", machine=machine, variant="", lscpu=""
        )
        run = server.send(upload)
    assert run == {"id": 41, "status": "pending"}
    assert waits == [agent.BACKOFF_SECONDS, 7.0]
    assert [(method, path) for method, path, _ in api.requests] == [("POST", "/api/v1/runs/")] * 3
    assert {headers["Authorization"] for _, _, headers in api.requests} == {"Token a-token"}


def test_a_server_that_never_answers_is_given_up_after_the_retries(agent):
    waits = []
    server = agent.Server(closed_port_url(), "a-token", retries=2, sleep=waits.append)
    with pytest.raises(agent.AgentError, match=r"Connection refused.*3 attempts; giving up"):
        server.request("GET", "/api/v1/regions/us-east-1/")
    assert waits == [agent.BACKOFF_SECONDS, agent.BACKOFF_SECONDS * 2]


@pytest.mark.parametrize(
    ("header", "seconds"),
    [("120", 120.0), ("100000", 300.0), (None, None), ("soon", None)],
)
def test_retry_after_is_read_in_seconds_and_capped(agent, header, seconds):
    assert agent.retry_after_seconds(header) == seconds
