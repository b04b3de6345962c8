"""`DELETE /api/v1/runs/ID/`: only the uploader or staff; the kept statistics follow."""

import io

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Result, Run, SeriesStatistics
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

S1 = SHARED_DATA / "seed-studies" / "fargate-openssl"
NANO_FILE = S1 / "t2.nano__e5-2676-v3-2-40ghz.txt"


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


@pytest.fixture
def uploader(django_user_model):
    return django_user_model.objects.create(username="uploader")


@pytest.fixture
def uploaded(uploader, django_capture_on_commit_callbacks):
    """Two runs of the same instance type and tool by `uploader`, parsed."""
    InstanceType.objects.get_or_create(name="t2.nano")
    client = client_of(uploader)
    ids = []
    for copy in (b"", b"\n"):
        # A trailing newline makes a second upload (the content is the natural key).
        content = io.BytesIO(NANO_FILE.read_bytes() + copy)
        content.name = "speed.txt"
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/api/v1/runs/",
                {"file": content, "instance_type": "t2.nano", "region": "us-east-1",
                 "variant": "base"},
                format="multipart",
            )  # fmt: skip
        assert response.status_code == 202, response.content
        ids.append(response.json()["id"])
    assert set(Run.objects.values_list("status", flat=True)) == {"done"}
    return ids


def kept_runs() -> set[int]:
    return set(SeriesStatistics.objects.filter(measured_in="").values_list("runs", flat=True))


def test_the_uploader_deletes_a_run_and_its_statistics_follow(uploader, uploaded):
    assert kept_runs() == {2}
    response = client_of(uploader).delete(f"/api/v1/runs/{uploaded[0]}/")
    assert response.status_code == 204
    assert not Run.objects.filter(pk=uploaded[0]).exists()
    assert not Result.objects.filter(run_id=uploaded[0]).exists()
    assert kept_runs() == {1}
    assert client_of().get(f"/api/v1/runs/{uploaded[0]}/").status_code == 404


def test_the_last_run_of_a_series_takes_its_statistics_along(uploader, uploaded):
    for run_id in uploaded:
        assert client_of(uploader).delete(f"/api/v1/runs/{run_id}/").status_code == 204
    assert not SeriesStatistics.objects.exists()


def test_another_user_gets_403_and_the_run_stays(uploaded, django_user_model):
    stranger = django_user_model.objects.create(username="stranger")
    response = client_of(stranger).delete(f"/api/v1/runs/{uploaded[0]}/")
    assert response.status_code == 403
    assert "uploader or staff" in response.json()["detail"]
    assert Run.objects.filter(pk=uploaded[0]).exists()
    assert kept_runs() == {2}


def test_anonymous_gets_401(uploaded):
    response = client_of().delete(f"/api/v1/runs/{uploaded[0]}/")
    assert response.status_code == 401
    assert Run.objects.filter(pk=uploaded[0]).exists()


def test_staff_may_delete_anyones_run(uploaded, django_user_model):
    staff = django_user_model.objects.create(username="operator", is_staff=True)
    assert client_of(staff).delete(f"/api/v1/runs/{uploaded[1]}/").status_code == 204
    assert list(Run.objects.values_list("pk", flat=True)) == [uploaded[0]]


def test_deleting_an_unknown_run_is_404(uploader):
    assert client_of(uploader).delete("/api/v1/runs/999999/").status_code == 404
