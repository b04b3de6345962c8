"""Upload tokens: stored as digests, shown once, revocable, listed in the admin."""

import hashlib
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from api.models import UploadToken
from api.tokens import create_upload_token, revoke_upload_tokens
from benchmarks.models import InstanceType, Run
from tests.conftest import SHARED_DATA

S1_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"


def upload(key: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    content = io.BytesIO(S1_FILE.read_bytes())
    content.name = "speed.txt"
    return client.post(
        "/api/v1/runs/",
        {"file": content, "instance_type": "t2.nano", "region": "us-east-1"},
        format="multipart",
    )


@pytest.fixture
def uploader(django_user_model):
    InstanceType.objects.get_or_create(name="t2.nano")
    return django_user_model.objects.create(username="uploader")


@pytest.mark.django_db
def test_only_the_keys_digest_is_stored(uploader):
    token, key = create_upload_token(user=uploader, name="laptop")
    row = UploadToken.objects.filter(pk=token.pk).values().get()
    assert row["digest"] == hashlib.sha256(key.encode()).hexdigest()
    assert not any(key in str(value) for name, value in row.items() if name != "prefix")
    assert row["prefix"] == key[:8] and len(key) >= 40


@pytest.mark.django_db
def test_a_key_authenticates_an_upload_and_records_its_use(uploader):
    token, key = create_upload_token(user=uploader)
    response = upload(key)
    assert response.status_code == 202, response.content
    assert Run.objects.get().uploaded_by == uploader
    token.refresh_from_db()
    assert token.last_used_at is not None


@pytest.mark.django_db
def test_a_wrong_or_revoked_key_is_refused_with_401(uploader):
    token, key = create_upload_token(user=uploader)
    assert upload(key + "x").status_code == 401
    assert revoke_upload_tokens(UploadToken.objects.filter(pk=token.pk)) == 1
    response = upload(key)
    assert response.status_code == 401
    assert response.json()["detail"].startswith("Token revoked on ")
    assert not Run.objects.exists()


@pytest.mark.django_db
def test_an_inactive_users_key_is_refused(uploader):
    _, key = create_upload_token(user=uploader)
    uploader.is_active = False
    uploader.save()
    assert upload(key).status_code == 401


@pytest.mark.django_db
def test_the_command_prints_a_new_working_key_each_time(uploader):
    keys = []
    for _ in range(2):
        printed = io.StringIO()
        call_command("create_upload_token", "uploader", "--name", "ci", stdout=printed,
                     stderr=io.StringIO())  # fmt: skip
        keys.append(printed.getvalue().strip())
    assert keys[0] != keys[1]
    assert UploadToken.objects.filter(user=uploader, name="ci").count() == 2
    assert upload(keys[1]).status_code == 202


@pytest.mark.django_db
def test_the_admin_lists_tokens_without_keys_and_revokes_them(admin_client, uploader):
    token, key = create_upload_token(user=uploader, name="laptop")
    listing = admin_client.get("/admin/api/uploadtoken/").content.decode()
    assert token.prefix in listing and "laptop" in listing
    assert key not in listing
    admin_client.post(
        "/admin/api/uploadtoken/", {"action": "revoke", "_selected_action": [token.pk]}
    )
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert upload(key).status_code == 401


@pytest.mark.django_db
def test_a_token_made_in_the_admin_shows_its_key_once(admin_client, uploader):
    response = admin_client.post(
        "/admin/api/uploadtoken/add/", {"user": uploader.pk, "name": "agent"}, follow=True
    )
    token = UploadToken.objects.get(name="agent")
    message = next(str(m) for m in response.context["messages"])
    key = message.split(" is ", 1)[1].split(" ", 1)[0]
    assert hashlib.sha256(key.encode()).hexdigest() == token.digest
    assert (
        key not in admin_client.get(f"/admin/api/uploadtoken/{token.pk}/change/").content.decode()
    )
    assert upload(key).status_code == 202


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("reference_data")
def test_plain_tokens_are_hashed_by_the_migration_and_keep_working(django_user_model):
    user = django_user_model.objects.create(username="old-uploader")
    InstanceType.objects.get_or_create(name="t2.nano")
    executor = MigrationExecutor(connection)
    executor.migrate([("api", "0001_upload_token")])
    old_apps = executor.loader.project_state(
        [("api", "0001_upload_token"), ("authtoken", "0004_alter_tokenproxy_options")]
    ).apps
    plain_key = "0123456789abcdef0123456789abcdef01234567"
    old_apps.get_model("authtoken", "Token").objects.create(key=plain_key, user_id=user.pk)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
    token = UploadToken.objects.get(user=user)
    assert token.digest == hashlib.sha256(plain_key.encode()).hexdigest()
    assert token.prefix == "01234567"
    assert upload(plain_key).status_code == 202
