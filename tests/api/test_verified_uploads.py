"""`POST runs/` with `identity`: the cloud's signed proof of the machine, checked before
anything is stored (AWS's real PKCS7 of a t2.micro; Google's keys served on loopback)."""

import base64
import datetime
import io
import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Run
from tests.agent.servers import LoopbackServer, _Handler
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

IDENTITY = SHARED_DATA / "aws-identity"
PKCS7 = (IDENTITY / "t2.micro_us-east-1_2016.pkcs7.pem").read_text()
OUTPUT = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"


@pytest.fixture
def client(django_user_model):
    for name in ("t2.micro", "c7g.large", "n2-standard-2"):
        InstanceType.objects.get_or_create(name=name)
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def post(client, **fields):
    upload = io.BytesIO(OUTPUT.read_bytes())
    upload.name = "output.txt"
    return client.post("/api/v1/runs/", {"file": upload, **fields}, format="multipart")


def armourless(pem: str) -> str:
    """The proof as IMDS gives it: base64 in lines, no PEM armour."""
    return "\n".join(line for line in pem.splitlines() if not line.startswith("-----"))


def test_the_real_t2_micro_proof_verifies_its_run(client):
    response = post(client, instance_type="t2.micro", region="us-east-1", identity=PKCS7)
    assert response.status_code == 202, response.json()
    detail = client.get(response.json()["status_url"]).json()
    assert (
        detail["verified"],
        detail["verified_by"],
        detail["verified_instance_type"],
        detail["verified_region"],
    ) == (True, "aws", "t2.micro", "us-east-1")
    run = Run.objects.get()
    assert (run.verified_instance_id, run.verified_account) == ("i-f79fe56c", "121659014334")
    assert "121659014334" not in json.dumps(detail)


def test_the_proof_is_taken_without_its_pem_armour(client):
    response = post(
        client, instance_type="t2.micro", region="us-east-1", identity=armourless(PKCS7)
    )
    assert response.status_code == 202
    assert response.json()["verified"] is True


def test_an_upload_without_a_proof_is_not_verified(client):
    response = post(client, instance_type="t2.micro", region="us-east-1")
    assert response.status_code == 202
    body = response.json()
    assert (body["verified"], body["verified_by"], body["verified_region"]) == (False, None, None)


def test_a_document_changed_by_one_character_is_refused_and_nothing_stored(client):
    der = bytearray(base64.b64decode(armourless(PKCS7)))
    at = der.find(b'"t2.micro"')
    der[at + 3] = ord("n")  # the signed document now says t2.nicro
    tampered = base64.b64encode(bytes(der)).decode()
    response = post(client, instance_type="t2.micro", region="us-east-1", identity=tampered)
    assert response.status_code == 400
    assert "does not verify" in response.json()["identity"][0]
    assert not Run.objects.exists()


def test_another_instance_type_is_refused_naming_both(client):
    response = post(client, instance_type="c7g.large", region="us-east-1", identity=PKCS7)
    assert response.status_code == 400
    assert response.json()["identity"] == [
        "the AWS identity proof names instance type t2.micro, the upload c7g.large"
    ]
    assert not Run.objects.exists()


def test_another_region_is_refused_naming_both(client):
    response = post(client, instance_type="t2.micro", region="ap-northeast-1", identity=PKCS7)
    assert response.status_code == 400
    message = response.json()["identity"][0]
    assert "us-east-1" in message and "ap-northeast-1" in message
    assert not Run.objects.exists()


def test_a_run_measured_before_the_instance_started_is_refused(client):
    response = post(
        client,
        instance_type="t2.micro",
        region="us-east-1",
        measured_at="2016-04-07",
        identity=PKCS7,
    )
    assert response.status_code == 400
    assert "2016-04-07" in response.json()["identity"][0]
    assert "pendingTime" in response.json()["identity"][0]
    assert not Run.objects.exists()
    measured_that_day = post(
        client,
        instance_type="t2.micro",
        region="us-east-1",
        measured_at="2016-04-08",
        identity=PKCS7,
    )
    assert measured_that_day.status_code == 202


def test_a_proof_that_is_not_pkcs7_is_refused(client):
    response = post(client, instance_type="t2.micro", region="us-east-1", identity="not a proof")
    assert response.status_code == 400
    assert "PKCS7" in response.json()["identity"][0]
    assert not Run.objects.exists()


# ---- Google Cloud: a token signed by a key the fake keys endpoint publishes ----------------


class _KeysHandler(_Handler):
    def do_GET(self):
        self._record()
        self._answer(200, json.dumps(self.owner.jwks), "application/json")


class FakeGoogleKeys(LoopbackServer):
    """Google's published keys (JWKS), here one RSA key of our own."""

    def __init__(self):
        self.private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private_key.public_key()))
        self.jwks = {"keys": [{**public, "kid": "test-key", "alg": "RS256", "use": "sig"}]}
        super().__init__(_KeysHandler)

    def token(self, **claims) -> str:
        now = int(time.time())
        body = {
            "iss": "https://accounts.google.com",
            "aud": "http://testserver",
            "azp": "1234567890",
            "iat": now,
            "exp": now + 3600,
            "google": {
                "compute_engine": {
                    "instance_creation_timestamp": now - 600,
                    "instance_id": "5420925127543987611",
                    "instance_name": "pricebench-n2",
                    "project_id": "a-project",
                    "project_number": 123456789012,
                    "zone": "us-central1-a",
                }
            },
            **claims,
        }
        return jwt.encode(body, self.private_key, "RS256", headers={"kid": "test-key"})


@pytest.fixture
def google_keys(settings):
    with FakeGoogleKeys() as keys:
        settings.PRICEBENCH_GOOGLE_CERTS_URL = keys.url + "/oauth2/v3/certs"
        yield keys


@pytest.fixture
def us_central1():
    from benchmarks.models import Region

    return Region.objects.get_or_create(code="us-central1", defaults={"name": "Iowa"})[0]


def test_a_google_token_names_the_region_not_the_type(client, google_keys, us_central1):
    response = post(
        client, instance_type="n2-standard-2", region="us-central1", identity=google_keys.token()
    )
    assert response.status_code == 202, response.json()
    body = response.json()
    assert (body["verified_by"], body["verified_region"], body["verified_instance_type"]) == (
        "gcp",
        "us-central1",
        None,
    )
    # The token does not name the machine type: the run is not counted as verified.
    assert body["verified"] is False
    assert [path for _, path, _ in google_keys.requests] == ["/oauth2/v3/certs"]


def test_a_google_token_for_another_audience_or_region_is_refused(client, google_keys, us_central1):
    other_audience = google_keys.token(aud="https://elsewhere.example")
    response = post(
        client, instance_type="n2-standard-2", region="us-central1", identity=other_audience
    )
    assert response.status_code == 400
    assert "does not verify" in response.json()["identity"][0]
    other_zone = google_keys.token(
        google={"compute_engine": {"instance_id": "1", "zone": "europe-west4-b"}}
    )
    response = post(
        client, instance_type="n2-standard-2", region="us-central1", identity=other_zone
    )
    assert response.status_code == 400
    assert "europe-west4" in response.json()["identity"][0]
    assert not Run.objects.exists()


def test_a_google_token_signed_by_another_key_is_refused(client, google_keys, us_central1):
    forged = FakeGoogleKeys()
    forged.httpd.server_close()  # only its key is used
    response = post(
        client, instance_type="n2-standard-2", region="us-central1", identity=forged.token()
    )
    assert response.status_code == 400
    assert not Run.objects.exists()


def test_an_expired_google_token_is_refused(client, google_keys, us_central1):
    hour_ago = int(time.time()) - 3600
    expired = google_keys.token(iat=hour_ago - 3600, exp=hour_ago)
    response = post(client, instance_type="n2-standard-2", region="us-central1", identity=expired)
    assert response.status_code == 400
    assert "expired" in response.json()["identity"][0]


class _CertificateValidUntil:
    """AWS's certificate with another end of validity (the key and names are AWS's)."""

    def __init__(self, certificate, until: datetime.datetime):
        self._certificate = certificate
        self.not_valid_after_utc = until

    def __getattr__(self, name):
        return getattr(self._certificate, name)


@pytest.mark.parametrize(
    ("valid_until", "verifies"),
    [
        # Past today, but valid when AWS signed (2016-04-08): as OpenSSL's smime -verify.
        (datetime.datetime(2017, 1, 1, tzinfo=datetime.UTC), True),
        # Expired before AWS signed: refused.
        (datetime.datetime(2016, 1, 1, tzinfo=datetime.UTC), False),
    ],
)
def test_the_aws_certificate_is_checked_at_signing_time_not_today(
    monkeypatch, valid_until, verifies
):
    from benchmarks.identity import aws
    from benchmarks.identity.proof import IdentityError

    (certificate,) = [c for c in aws.aws_certificates() if c.not_valid_before_utc.year == 2012]
    monkeypatch.setattr(
        aws, "aws_certificates", lambda: (_CertificateValidUntil(certificate, valid_until),)
    )
    if verifies:
        assert aws.verify_pkcs7(PKCS7).instance_type == "t2.micro"
    else:
        with pytest.raises(IdentityError, match="outside its certificate's validity"):
            aws.verify_pkcs7(PKCS7)


def test_aws_certificates_of_every_region_are_bundled():
    from benchmarks.identity import aws

    certificates = aws.aws_certificates()
    # The default DSA certificate, ten opt-in regions' and China's, and 31 RSA-2048 ones.
    assert len(certificates) == 12 + 31
    assert len({(c.issuer, c.serial_number) for c in certificates}) == len(certificates)


def test_the_admin_shows_what_the_proof_named_the_account_too(client, admin_client):
    response = post(client, instance_type="t2.micro", region="us-east-1", identity=PKCS7)
    run_id = response.json()["id"]
    page = admin_client.get(f"/admin/benchmarks/run/{run_id}/change/").content.decode()
    assert "i-f79fe56c" in page and "121659014334" in page
    listed = admin_client.get("/admin/benchmarks/run/?verified_by=aws").content.decode()
    assert f"/admin/benchmarks/run/{run_id}/change/" in listed


def test_the_run_page_shows_the_proof_without_the_account(client):
    from django.test import Client

    verified = post(client, instance_type="t2.micro", region="us-east-1", identity=PKCS7)
    page = Client().get(f"/runs/{verified.json()['id']}/").content.decode()
    assert "<strong>verified</strong>: the AWS signed proof names instance i-f79fe56c" in page
    assert "a t2.micro, in us-east-1" in page and "121659014334" not in page
    plain = post(client, instance_type="c7g.large", region="us-east-1")
    page = Client().get(f"/runs/{plain.json()['id']}/").content.decode()
    assert "unverified: no signed proof of its machine came with it" in page
