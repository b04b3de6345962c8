"""The agent sends the machine's signed identity proof its cloud gives: AWS's PKCS7 through
IMDSv2, Google's identity token made out to the server, Azure's attested document with the
server's nonce; a Fargate task has none and says so (metadata services faked on loopback)."""

import json
import subprocess
import sys
import urllib.parse

import pytest

from tests.agent.conftest import AGENT_PATH
from tests.agent.servers import (
    FakeAzureImds,
    FakeEcs,
    FakeGoogleMetadata,
    FakeImds,
    LoopbackServer,
    _Handler,
    closed_port_url,
    ec2_metadata,
    fargate_task,
)
from tests.conftest import SHARED_DATA

PKCS7_PEM = (SHARED_DATA / "aws-identity" / "t2.micro_us-east-1_2016.pkcs7.pem").read_text()
# As IMDS answers dynamic/instance-identity/pkcs7: the base64 in lines, no armour.
PKCS7 = "\n".join(line for line in PKCS7_PEM.splitlines() if not line.startswith("-----"))
NOWHERE = {"AWS_EC2_METADATA_SERVICE_ENDPOINT": closed_port_url()}
TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3Qta2V5In0.eyJhdWQiOiJodHRwczovL3BiIn0.c2lnbmF0dXJl"


def test_on_ec2_it_sends_the_pkcs7_imdsv2_gives(agent):
    dynamic = {"instance-identity/pkcs7": PKCS7}
    with FakeImds(ec2_metadata("t2.micro", "us-east-1a"), dynamic=dynamic) as imds:
        environ = {"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url}
        machine = agent.find_machine(environ=environ)
        proof = agent.identity_proof(
            machine, choice="auto", environ=environ, server="https://pb.example"
        )
    assert proof.text == PKCS7
    assert "AWS's signed instance identity document" in proof.note
    token_put, pkcs7_get = imds.requests[-2:]
    assert token_put[:2] == ("PUT", "/latest/api/token")
    assert pkcs7_get[:2] == ("GET", "/latest/dynamic/instance-identity/pkcs7")
    assert pkcs7_get[2]["X-aws-ec2-metadata-token"] in imds.tokens
    upload = agent.make_upload(
        "openssl", "out\n", machine=machine, variant="", lscpu="", identity=proof.text
    )
    assert ("identity", PKCS7) in upload.fields


def test_in_a_fargate_task_it_says_there_is_no_proof(agent):
    with FakeEcs(fargate_task(cpu=1, memory=2048, zone="us-east-1b")) as ecs:
        environ = {"ECS_CONTAINER_METADATA_URI_V4": ecs.uri, **NOWHERE}
        machine = agent.find_machine(environ=environ, architecture="x86_64")
        proof = agent.identity_proof(machine, choice="auto", environ=environ, server=None)
    assert proof.text is None
    assert "a Fargate task has no signed identity proof" in proof.note
    assert "unverified" in proof.note
    upload = agent.make_upload("openssl", "out\n", machine=machine, variant="", lscpu="")
    assert "identity" not in dict(upload.fields)


def test_without_the_pkcs7_the_runs_go_unverified_and_it_says_why(agent):
    with FakeImds(ec2_metadata("t2.micro", "us-east-1a")) as imds:
        environ = {"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url}
        machine = agent.find_machine(environ=environ)
        proof = agent.identity_proof(machine, choice="auto", environ=environ, server=None)
    assert proof.text is None
    assert "answered HTTP 404" in proof.note and "unverified" in proof.note


def test_named_by_flags_it_asks_no_metadata_service_unless_told(agent):
    machine = agent.find_machine(environ=NOWHERE, instance_type="n2-standard-2", region="x")
    proof = agent.identity_proof(machine, choice="auto", environ=NOWHERE, server="https://pb")
    assert proof.text is None
    assert "give --identity aws, gcp or azure" in proof.note


def test_on_google_cloud_it_sends_a_token_made_out_to_the_server(agent):
    machine = agent.find_machine(environ=NOWHERE, instance_type="n2-standard-2", region="r")
    with FakeGoogleMetadata(TOKEN) as metadata:
        proof = agent.identity_proof(
            machine,
            choice="gcp",
            environ={"GCE_METADATA_HOST": metadata.host},
            server="https://pricebench.example/",
        )
    assert proof.text == TOKEN
    ((method, path, headers),) = metadata.requests
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    assert query == {"audience": ["https://pricebench.example"], "format": ["full"]}
    assert headers["Metadata-Flavor"] == "Google"


def test_on_azure_it_asks_imds_with_the_servers_nonce(agent):
    machine = agent.find_machine(environ=NOWHERE, instance_type="Standard_D2s_v5", region="r")
    with FakeAzureImds("MIIJ-signature") as imds:
        environ = {"PRICEBENCH_AZURE_METADATA_ENDPOINT": imds.url}
        proof = agent.identity_proof(
            machine, choice="azure", environ=environ, server=None, nonce="0123abcd" * 4
        )
    assert '"signature": "MIIJ-signature"' in proof.text
    ((_, path, headers),) = imds.requests
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)["nonce"] == ["0123abcd" * 4]
    assert headers["Metadata"] == "true"


def test_on_azure_without_the_servers_nonce_it_asks_imds_nothing(agent):
    machine = agent.find_machine(environ=NOWHERE, instance_type="Standard_D2s_v5", region="r")
    with FakeAzureImds("MIIJ-signature") as imds:
        environ = {"PRICEBENCH_AZURE_METADATA_ENDPOINT": imds.url}
        proof = agent.identity_proof(machine, choice="azure", environ=environ, server=None)
    assert proof.text is None and imds.requests == []
    assert "the server issued no nonce" in proof.note and "unverified" in proof.note


@pytest.mark.parametrize("choice", ["gcp", "azure", "aws"])
def test_an_unreachable_metadata_service_leaves_the_runs_unverified(agent, choice):
    machine = agent.find_machine(environ=NOWHERE, instance_type="t2.micro", region="us-east-1")
    closed = closed_port_url()
    environ = {
        **NOWHERE,
        "GCE_METADATA_HOST": closed.removeprefix("http://"),
        "PRICEBENCH_AZURE_METADATA_ENDPOINT": closed,
    }
    proof = agent.identity_proof(
        machine, choice=choice, environ=environ, server="https://pb", nonce="f" * 32
    )
    assert proof.text is None
    assert f"no {choice} identity proof" in proof.note and "HTTP" not in proof.note


def test_the_dry_run_shows_the_proof_shortened(agent, capsys):
    dynamic = {"instance-identity/pkcs7": PKCS7}
    with FakeImds(ec2_metadata("t2.micro", "us-east-1a"), dynamic=dynamic) as imds:
        status = agent.main(
            ["--dry-run", "--no-openssl", "--sysbench", "--seconds", "1"],
            environ={"AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url, "PATH": "/usr/bin:/bin"},
        )
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "identity: AWS's signed instance identity document (IMDSv2, pkcs7)" in printed.err
    assert f"identity: {PKCS7[:40]}... ({len(PKCS7)} characters)" in printed.out


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reference_data")
def test_the_run_it_uploads_from_ec2_is_verified(live_server, token):
    from benchmarks.models import InstanceType, Run

    InstanceType.objects.get_or_create(name="t2.micro")
    dynamic = {"instance-identity/pkcs7": PKCS7}
    with FakeImds(ec2_metadata("t2.micro", "us-east-1a"), dynamic=dynamic) as imds:
        finished = subprocess.run(
            [sys.executable, str(AGENT_PATH), "--server", live_server.url, "--token", token]
            + ["--no-openssl", "--sysbench", "--seconds", "1"],
            capture_output=True,
            text=True,
            timeout=300,
            env={"PATH": "/usr/bin:/bin", "AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.url},
        )
    assert finished.returncode == 0, finished.stderr
    run = Run.objects.get()
    assert (run.verified, run.verified_by, run.verified_instance_id) == (True, "aws", "i-f79fe56c")
    assert "verified by aws" in finished.stderr


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reference_data")
def test_on_azure_each_upload_carries_a_document_asked_with_a_nonce_of_the_servers(
    live_server, token, settings, tmp_path
):
    from benchmarks.models import IdentityNonce, InstanceType, Region, Run
    from tests.api.azure_pki import AzurePki

    InstanceType.objects.get_or_create(name="Standard_D2s_v5")
    Region.objects.get_or_create(code="eastus", defaults={"name": "East US"})
    pki = AzurePki.make()
    settings.PRICEBENCH_AZURE_CERTIFICATES_DIR = str(pki.bundle(tmp_path / "azure"))
    with FakeAzureImds(lambda nonce: json.loads(pki.attested(nonce=nonce))["signature"]) as imds:
        finished = subprocess.run(
            [sys.executable, str(AGENT_PATH), "--server", live_server.url, "--token", token]
            + ["--identity", "azure", "--instance-type", "Standard_D2s_v5", "--region", "eastus"]
            + ["--no-openssl", "--sysbench", "--seconds", "1"],
            capture_output=True,
            text=True,
            timeout=300,
            env={"PATH": "/usr/bin:/bin", "PRICEBENCH_AZURE_METADATA_ENDPOINT": imds.url},
        )
    assert finished.returncode == 0, finished.stderr
    run = Run.objects.get()
    assert (run.verified_by, run.verified_instance_id) == ("azure", pki_vm_id())
    ((_, path, _),) = imds.requests
    (asked,) = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)["nonce"]
    assert IdentityNonce.objects.get(value=asked).used_at is not None
    assert f"Azure's attested document, with the server's nonce {asked}" in finished.stderr


def pki_vm_id() -> str:
    from tests.api.azure_pki import document

    return json.loads(document(nonce=""))["vmId"]


class _NoNonceHandler(_Handler):
    def do_POST(self):
        self._record()
        self._answer(404, '{"detail": "Not found."}', "application/json")


def test_a_server_that_issues_no_nonce_leaves_the_azure_runs_unverified(agent, capsys):
    with LoopbackServer(_NoNonceHandler) as older:
        nonce = agent.Server(older.url, "key", retries=0).nonce()
    assert nonce is None
    assert [request[:2] for request in older.requests] == [("POST", "/api/v1/runs/nonce/")]
    assert "no nonce from the server (HTTP 404: Not found.)" in capsys.readouterr().err
