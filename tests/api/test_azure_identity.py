"""Azure's attested document through `POST runs/`: its signature, its signer's chain to the
bundled roots, its expiry, and a nonce the server issued to the uploading token, used once.

Microsoft's key cannot be had: documents are signed by a PKI of our own (tests/api/azure_pki.py)
whose root PRICEBENCH_AZURE_CERTIFICATES_DIR trusts; a real document Microsoft signed checks the
bundled certificates themselves.
"""

import base64
import datetime
import io
import json
from pathlib import Path

import certifi
import pytest
from cryptography import x509
from django.test import Client
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.identity import azure
from benchmarks.identity.proof import IdentityError
from benchmarks.models import IdentityNonce, InstanceType, Region, Run
from tests.api.azure_pki import AzurePki, document, envelope
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

OUTPUT = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"
# A document Azure's IMDS signed in eastus on 2026-07-28 (taskcluster's worker-manager test
# fixture, services/worker-manager/test/fixtures/azure_signature_good.json, commit e6f5adea5b).
REAL = Path(__file__).parent / "data" / "azure-attested-eastus-2026-07-28.json"
REAL_SIGNED_AT = datetime.datetime(2026, 7, 28, 13, 30, tzinfo=datetime.UTC)
VM_ID = "b1310a36-d400-46f6-82cb-6217df846586"
SUBSCRIPTION = "8a205152-b25a-417f-a676-80465535a6c9"


@pytest.fixture(scope="module")
def pki():
    return AzurePki.make()


@pytest.fixture
def trusted(pki, settings, tmp_path):
    settings.PRICEBENCH_AZURE_CERTIFICATES_DIR = str(pki.bundle(tmp_path / "trusted"))
    return pki


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


@pytest.fixture
def client(django_user_model):
    InstanceType.objects.get_or_create(name="Standard_D2s_v5")
    Region.objects.get_or_create(code="eastus", defaults={"name": "East US"})
    return token_client(django_user_model.objects.create(username="uploader"))


def post(client, identity: str, output: bytes | None = None):
    upload = io.BytesIO(OUTPUT.read_bytes() if output is None else output)
    upload.name = "output.txt"
    fields = {"instance_type": "Standard_D2s_v5", "region": "eastus", "identity": identity}
    return client.post("/api/v1/runs/", {"file": upload, **fields}, format="multipart")


def new_nonce(client) -> str:
    response = client.post("/api/v1/runs/nonce/")
    assert response.status_code == 201, response.content
    return response.json()["nonce"]


def refused(response, *words) -> str:
    assert response.status_code == 400, response.content
    message = response.json()["identity"][0]
    assert all(word in message for word in words), message
    assert not Run.objects.exists()
    return message


def test_a_valid_attested_document_gives_an_azure_proof(client, trusted):
    nonce = new_nonce(client)
    assert len(nonce) == 32 and nonce.isalnum()
    response = post(client, trusted.attested(nonce=nonce))
    assert response.status_code == 202, response.json()
    detail = client.get(response.json()["status_url"]).json()
    assert (detail["verified_by"], detail["verified_instance_type"], detail["verified_region"]) == (
        "azure",
        None,
        None,
    )
    # It proves an Azure VM, not its size: not counted as a verified run of that type.
    assert detail["verified"] is False
    run = Run.objects.get()
    assert (run.verified_instance_id, run.verified_account) == (VM_ID, SUBSCRIPTION)
    assert SUBSCRIPTION not in json.dumps(detail)
    assert IdentityNonce.objects.get(value=nonce).used_at is not None
    page = Client().get(f"/runs/{run.pk}/").content.decode()
    assert f"the Azure signed proof names instance {VM_ID} (not the type" in page
    assert SUBSCRIPTION not in page


def test_one_changed_character_of_the_document_is_refused(client, trusted):
    nonce = new_nonce(client)
    der = bytearray(base64.b64decode(json.loads(trusted.attested(nonce=nonce))["signature"]))
    at = der.find(VM_ID.encode())
    der[at] = ord("c")  # the signed vmId now starts with c
    refused(post(client, envelope(bytes(der))), "does not verify")
    # A refused upload writes nothing: its nonce is still good.
    assert IdentityNonce.objects.get(value=nonce).used_at is None
    assert post(client, trusted.attested(nonce=nonce)).status_code == 202


def test_a_signer_under_an_untrusted_root_is_refused(client, trusted):
    impostor = AzurePki.make()  # the same names, other keys
    refused(post(client, impostor.attested(nonce=new_nonce(client))), "does not chain")


def test_a_signer_whose_issuer_is_not_bundled_is_refused_naming_it(client, trusted):
    other = AzurePki.make(issuing_ca="Microsoft TLS G2 RSA CA OCSP 18")
    refused(
        post(client, other.attested(nonce=new_nonce(client))),
        "Microsoft TLS G2 RSA CA OCSP 18",
        "not bundled",
    )


def test_a_signer_not_named_metadata_azure_com_is_refused(client, settings, tmp_path):
    pki = AzurePki.make(signer_names=("metadata.azure.com.example.net",))
    settings.PRICEBENCH_AZURE_CERTIFICATES_DIR = str(pki.bundle(tmp_path / "elsewhere"))
    refused(
        post(client, pki.attested(nonce=new_nonce(client))),
        "metadata.azure.com.example.net",
        "not by metadata.azure.com",
    )


def test_an_expired_document_is_refused(client, trusted):
    created = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=7)
    stale = trusted.attested(nonce=new_nonce(client), created=created)
    refused(post(client, stale), "expired", "expiresOn")


def test_a_nonce_the_server_did_not_issue_is_refused_naming_it(client, trusted):
    refused(post(client, trusted.attested(nonce="0123456789abcdef")), "'0123456789abcdef'")


def test_a_nonce_is_used_once(client, trusted):
    nonce = new_nonce(client)
    assert post(client, trusted.attested(nonce=nonce)).status_code == 202
    # Another upload (another output) with the nonce: refused, nothing more stored.
    other = (OUTPUT.parent / "c5.large__platinum-8124m-3-00ghz.txt").read_bytes()
    again = post(client, trusted.attested(nonce=nonce), output=other)
    assert again.status_code == 400
    assert nonce in again.json()["identity"][0] and "used" in again.json()["identity"][0]
    assert Run.objects.count() == 1


def test_the_upload_that_used_a_nonce_sent_again_is_answered_with_its_run(client, trusted):
    """Its answer lost on the way back, the agent sends the same upload again: the same run,
    not a 400, and nothing stored twice."""
    document = trusted.attested(nonce=new_nonce(client))
    first = post(client, document)
    assert first.status_code == 202, first.content
    again = post(client, document)
    assert again.status_code == 200, again.content
    assert (again.json()["id"], again.json()["created"]) == (first.json()["id"], False)
    assert Run.objects.get().verified_by == "azure"


def test_another_tokens_nonce_is_refused(client, trusted, django_user_model):
    other = token_client(django_user_model.objects.create(username="other"))
    nonce = new_nonce(other)
    message = refused(post(client, trusted.attested(nonce=nonce)), nonce)
    assert "another upload token" in message


def test_an_expired_nonce_is_refused(client, trusted):
    nonce = new_nonce(client)
    IdentityNonce.objects.filter(value=nonce).update(
        expires_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1)
    )
    refused(post(client, trusted.attested(nonce=nonce)), nonce, "expired")


def test_a_nonce_needs_an_upload_token(client):
    anonymous = APIClient()
    assert anonymous.post("/api/v1/runs/nonce/").status_code == 401
    assert IdentityNonce.objects.count() == 0


def test_a_token_holds_a_bounded_number_of_nonces(client):
    from benchmarks.services.identity_nonces import NONCES_PER_TOKEN

    nonces = [new_nonce(client) for _ in range(NONCES_PER_TOKEN + 5)]
    kept = set(IdentityNonce.objects.values_list("value", flat=True))
    assert kept == set(nonces[-NONCES_PER_TOKEN:])


# ---- the bundled certificates: Microsoft's, checked with a document Microsoft signed ------


def test_a_document_microsoft_signed_verifies_against_the_bundled_certificates():
    identity = azure.verify_attested(REAL.read_text(), now=REAL_SIGNED_AT)
    assert (identity.cloud, identity.instance_id, identity.account) == (
        "azure",
        VM_ID,
        SUBSCRIPTION,
    )
    assert identity.nonce == "20260728-192400"
    with pytest.raises(IdentityError, match="expired 2026-07-28T19:24:00"):
        azure.verify_attested(REAL.read_text())


def test_every_bundled_intermediate_is_issued_by_a_bundled_root_or_intermediate():
    roots, intermediates = azure.azure_roots(), azure.azure_intermediates()
    assert {_common_name(c) for c in roots} == {
        "DigiCert Global Root G2",
        "Microsoft RSA Root Certificate Authority 2017",
        "Microsoft TLS RSA Root G2",
    }
    assert len(intermediates) == 16
    for certificate in intermediates:
        (issuer,) = [c for c in roots + intermediates if c.subject == certificate.issuer]
        certificate.verify_directly_issued_by(issuer)


@pytest.mark.filterwarnings("ignore::cryptography.utils.CryptographyDeprecationWarning")
def test_the_bundled_roots_in_the_mozilla_store_are_certifis():
    mozilla = set(x509.load_pem_x509_certificates(Path(certifi.where()).read_bytes()))
    in_store = [c for c in azure.azure_roots() if c in mozilla]
    assert {_common_name(c) for c in in_store} == {
        "DigiCert Global Root G2",
        "Microsoft RSA Root Certificate Authority 2017",
    }


def test_a_proof_that_is_not_imds_json_is_refused(client):
    refused(post(client, '{"encoding": "pkcs7"}'), "no signature")
    refused(post(client, envelope(b"not der")), "PKCS7")


def test_a_document_without_a_vm_is_refused(client, trusted):
    content = json.loads(document(nonce=new_nonce(client)))
    del content["vmId"]
    refused(post(client, envelope(trusted.sign(json.dumps(content).encode()))), "vmId")


def _common_name(certificate) -> str:
    return certificate.subject.get_attributes_for_oid(x509.oid.NameOID.COMMON_NAME)[0].value
