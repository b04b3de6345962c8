"""The instance type page lists its latest runs with what a verified run's proof named (the
real AWS-signed proof of a t2.micro): instance id, type and region, never the account."""

import io

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

PKCS7 = (SHARED_DATA / "aws-identity" / "t2.micro_us-east-1_2016.pkcs7.pem").read_text()
S1 = SHARED_DATA / "seed-studies" / "fargate-openssl"


def upload(client, name: str, **fields) -> int:
    part = io.BytesIO((S1 / name).read_bytes())
    part.name = name
    response = client.post(
        "/api/v1/runs/",
        {"file": part, "instance_type": "t2.micro", "region": "us-east-1", **fields},
        format="multipart",
    )
    assert response.status_code == 202, response.content
    return response.json()["id"]


def test_the_instance_page_shows_a_verified_runs_proof_without_the_account(
    demo_rolled_back, django_user_model, django_capture_on_commit_callbacks
):
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    with django_capture_on_commit_callbacks(execute=True):
        verified = upload(client, "t2.nano__e5-2676-v3-2-40ghz.txt", identity=PKCS7)
        plain = upload(client, "c4.xlarge__e5-2666-v3-2-90ghz.txt")

    page = Client().get("/instance-types/t2.micro/").content.decode()
    listed = page[page.index('<ul id="runs">') :]
    listed = listed[: listed.index("</ul>")]
    item = next(line for line in listed.split("<li>") if f"Run {verified}<" in line)
    assert (
        "<strong>verified</strong>: the AWS signed proof names instance i-f79fe56c, "
        "a t2.micro, in us-east-1" in item
    )
    other = next(line for line in listed.split("<li>") if f"Run {plain}<" in line)
    assert "verified" not in other
    assert 'id="verified-note"' in page
    assert "121659014334" not in page
