"""The agent names the machine it runs on from IMDSv2 or the Fargate task metadata."""

import platform
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from benchmarks.models import fargate_name
from benchmarks.reference import fargate_task_sizes
from tests.agent.conftest import AGENT_PATH
from tests.agent.servers import FakeEcs, FakeImds, closed_port_url, ec2_metadata, fargate_task

NOWHERE = {"AWS_EC2_METADATA_SERVICE_ENDPOINT": closed_port_url()}


def test_it_names_the_instance_type_region_and_zone_through_imdsv2(agent):
    with FakeImds(ec2_metadata("c7g.large", "us-east-1a")) as imds:
        machine = agent.find_machine(environ={"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url})
    assert (machine.instance_type, machine.region, machine.zone) == (
        "c7g.large",
        "us-east-1",
        "us-east-1a",
    )
    assert machine.found_through == "IMDSv2"
    token_request, *reads = imds.requests
    assert token_request[:2] == ("PUT", "/latest/api/token")
    assert token_request[2]["X-aws-ec2-metadata-token-ttl-seconds"] == "21600"
    assert all(headers.get("X-aws-ec2-metadata-token") in imds.tokens for _, _, headers in reads)


def test_the_fake_imds_refuses_a_metadata_get_without_a_token():
    with FakeImds(ec2_metadata("c7g.large", "us-east-1a")) as imds:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{imds.url}/latest/meta-data/instance-type", timeout=5)
        wrong_token = urllib.request.Request(
            f"{imds.url}/latest/meta-data/instance-type",
            headers={"X-aws-ec2-metadata-token": "not-a-token"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused_again:
            urllib.request.urlopen(wrong_token, timeout=5)
    assert refused.value.code == refused_again.value.code == 401


def test_a_refused_imds_token_is_reported(agent):
    with FakeImds(ec2_metadata("c7g.large", "us-east-1a"), token_status=403) as imds:
        with pytest.raises(agent.AgentError) as stopped:
            agent.find_machine(environ={"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url})
    message = str(stopped.value)
    assert f"IMDSv2 at {imds.url}: PUT /latest/api/token answered HTTP 403" in message
    assert message.endswith("Give --instance-type and --region.")


@pytest.mark.parametrize(
    ("cpu", "memory", "zone", "architecture", "name", "region"),
    [
        (0.25, 512, "us-east-1b", "x86_64", "fargate-0.25vcpu-0.5gb", "us-east-1"),
        (4, 30720, "us-east-1c", "x86_64", "fargate-4vcpu-30gb", "us-east-1"),
        (0.5, 1024, "ap-northeast-1a", "aarch64", "fargate-0.5vcpu-1gb-arm64", "ap-northeast-1"),
    ],
)
def test_it_names_the_fargate_size_and_region_from_the_task_metadata(
    agent, cpu, memory, zone, architecture, name, region
):
    with FakeEcs(fargate_task(cpu=cpu, memory=memory, zone=zone)) as ecs:
        machine = agent.find_machine(
            environ={"ECS_CONTAINER_METADATA_URI_V4": ecs.uri, **NOWHERE},
            architecture=architecture,
        )
    assert (machine.instance_type, machine.region, machine.zone) == (name, region, zone)
    assert machine.found_through == "ECS task metadata v4"
    assert [path for _, path, _ in ecs.requests] == [f"{ecs.prefix}/task"]


def test_every_valid_fargate_size_gets_the_name_pricebench_knows_it_by(agent):
    for size in fargate_task_sizes():
        memory_mib = float(size.memory_gib * 1024)
        architecture = "aarch64" if size.architecture == "arm64" else "x86_64"
        assert agent.fargate_size_name(float(size.vcpus), memory_mib, architecture) == (
            fargate_name(size.vcpus, size.memory_gib, size.architecture)
        )


def test_a_task_on_ec2_capacity_is_named_by_the_instance_it_runs_on(agent):
    task = fargate_task(cpu=1, memory=2048, zone="us-east-1d", launch_type="EC2")
    with FakeEcs(task) as ecs, FakeImds(ec2_metadata("c7a.large", "us-east-1d")) as imds:
        machine = agent.find_machine(
            environ={
                "ECS_CONTAINER_METADATA_URI_V4": ecs.uri,
                "AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url,
            }
        )
    assert (machine.instance_type, machine.region) == ("c7a.large", "us-east-1")


def test_flags_override_what_the_metadata_names(agent):
    with FakeImds(ec2_metadata("c7g.large", "us-east-1a")) as imds:
        environ = {"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url}
        region_only = agent.find_machine(environ=environ, region="ap-northeast-1")
        both = agent.find_machine(environ=environ, instance_type="t2.nano", region="us-west-2")
    assert (region_only.instance_type, region_only.region) == ("c7g.large", "ap-northeast-1")
    assert (both.instance_type, both.region, both.zone) == ("t2.nano", "us-west-2", None)
    assert len(imds.requests) == 4  # the token and three reads, for the first call only


def run_agent(*arguments, environ):
    return subprocess.run(
        [sys.executable, str(AGENT_PATH), *arguments],
        env={"PATH": "/usr/bin:/bin", **environ},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_with_nothing_found_it_says_what_is_missing_and_stops():
    finished = run_agent("--dry-run", environ=NOWHERE)
    assert finished.returncode == 2
    assert finished.stdout == ""
    message = finished.stderr
    assert "could not find the instance type and region" in message
    assert "ECS_CONTAINER_METADATA_URI_V4 is not set" in message
    assert f"IMDSv2 at {NOWHERE['AWS_EC2_METADATA_SERVICE_ENDPOINT']}" in message
    assert "Give --instance-type and --region." in message
    with_region = run_agent("--dry-run", "--region", "us-east-1", environ=NOWHERE)
    assert with_region.returncode == 2
    assert "could not find the instance type:" in with_region.stderr
    assert "Give --instance-type." in with_region.stderr


def test_on_ec2_the_command_needs_no_flags():
    with FakeImds(ec2_metadata("c7g.large", "us-east-1a")) as imds:
        finished = run_agent(
            "--dry-run",
            "--no-openssl",
            "--sysbench",
            "--seconds",
            "1",
            environ={"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url},
        )
    assert finished.returncode == 0, finished.stderr
    assert "c7g.large in us-east-1, zone us-east-1a (from IMDSv2)" in finished.stderr
    assert "instance_type: c7g.large\nregion: us-east-1\n" in finished.stdout
    assert "file: pricebench-agent-sysbench-c7g.large-us-east-1a.txt" in finished.stdout


def test_in_an_arm_fargate_task_the_command_needs_no_flags(agent, monkeypatch, capsys):
    # The one thing a test cannot give this machine is a Graviton CPU.
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    task = fargate_task(cpu=0.5, memory=1024, zone="ap-northeast-1a")
    with FakeEcs(task) as ecs:
        status = agent.main(
            ["--dry-run", "--no-openssl", "--sysbench", "--seconds", "1"],
            environ={"ECS_CONTAINER_METADATA_URI_V4": ecs.uri, "PATH": "/usr/bin:/bin"},
        )
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "fargate-0.5vcpu-1gb-arm64 in ap-northeast-1, zone ap-northeast-1a" in printed.err
    assert "instance_type: fargate-0.5vcpu-1gb-arm64\nregion: ap-northeast-1\n" in printed.out
