"""Upload tokens expire and are revoked: 401 saying so; `create_upload_token --expires-in`,
`revoke_upload_token` and `--list` (which never prints a key)."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from api.models import UploadToken
from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Run
from tests.api.test_upload_tokens import upload

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


@pytest.fixture
def uploader(django_user_model):
    InstanceType.objects.get_or_create(name="t2.nano")
    return django_user_model.objects.create(username="uploader")


def command(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_an_expired_token_gets_401_saying_when_it_expired(uploader):
    _, key = create_upload_token(user=uploader, expires_at=timezone.now() - DAY)
    response = upload(key)
    assert response.status_code == 401
    assert response.json()["detail"].startswith("Token expired on ")
    assert "ask for a new one" in response.json()["detail"]
    assert not Run.objects.exists()


def test_a_token_works_until_it_expires(uploader):
    token, key = create_upload_token(user=uploader, expires_at=timezone.now() + DAY)
    assert upload(key).status_code == 202
    assert token.state(timezone.now() + 2 * DAY) == "expired"


def test_a_revoked_token_gets_401_saying_so(uploader):
    token, key = create_upload_token(user=uploader)
    UploadToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    response = upload(key)
    assert response.status_code == 401
    assert response.json()["detail"].startswith("Token revoked on ")
    # A key never issued is told apart: DRF's own words, which the agent knows.
    assert upload("f" * 64).json()["detail"] == "Invalid token."


def test_the_command_sets_the_expiry_and_prints_the_key_alone_last(uploader):
    out, err = command("create_upload_token", "uploader", "--name", "ci", "--expires-in", "30")
    key = out.splitlines()[-1]
    assert out == f"{key}\n" and len(key) == 64
    token = UploadToken.objects.get(name="ci")
    assert abs(token.expires_at - (timezone.now() + 30 * DAY)) < datetime.timedelta(minutes=1)
    assert "expires" in err
    assert upload(key).status_code == 202


def test_the_default_lifetime_comes_from_the_setting(uploader, settings):
    settings.PRICEBENCH_UPLOAD_TOKEN_DAYS = 7
    command("create_upload_token", "uploader", "--name", "default")
    command("create_upload_token", "uploader", "--name", "forever", "--expires-in", "0")
    default = UploadToken.objects.get(name="default")
    assert abs(default.expires_at - (timezone.now() + 7 * DAY)) < datetime.timedelta(minutes=1)
    assert UploadToken.objects.get(name="forever").expires_at is None
    settings.PRICEBENCH_UPLOAD_TOKEN_DAYS = 0
    assert create_upload_token(user=uploader)[0].expires_at is None


@pytest.mark.parametrize("days", ["-1", "soon"])
def test_the_command_refuses_a_bad_lifetime(uploader, days):
    with pytest.raises(CommandError, match="--expires-in"):
        command("create_upload_token", "uploader", "--expires-in", days)
    assert not UploadToken.objects.exists()


def test_revoke_by_prefix_and_the_key_stops_working(uploader):
    token, key = create_upload_token(user=uploader, name="laptop")
    out, _ = command("revoke_upload_token", key[:6])
    assert f"revoked {token.prefix}" in out
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert upload(key).status_code == 401
    with pytest.raises(CommandError, match="no active token matches"):
        command("revoke_upload_token", key[:6])


def test_revoke_by_name_refuses_when_several_match_unless_all(uploader):
    first, _ = create_upload_token(user=uploader, name="ci")
    second, _ = create_upload_token(user=uploader, name="ci")
    kept, kept_key = create_upload_token(user=uploader, name="laptop")
    with pytest.raises(CommandError, match="2 active tokens match 'ci'"):
        command("revoke_upload_token", "ci")
    assert not UploadToken.objects.filter(revoked_at__isnull=False).exists()
    command("revoke_upload_token", "ci", "--all")
    assert set(UploadToken.objects.filter(revoked_at__isnull=False)) == {first, second}
    assert upload(kept_key).status_code == 202


def test_the_list_shows_every_token_and_its_state_but_no_key(uploader):
    active, active_key = create_upload_token(user=uploader, name="laptop")
    expired, expired_key = create_upload_token(
        user=uploader, name="old", expires_at=timezone.now() - DAY
    )
    revoked, revoked_key = create_upload_token(user=uploader, name="lost")
    command("revoke_upload_token", revoked.prefix)
    out, _ = command("revoke_upload_token", "--list")
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["prefix", "user", "name"]
    states = {line.split()[0]: line.split()[-1] for line in lines[1:]}
    assert states == {active.prefix: "active", expired.prefix: "expired", revoked.prefix: "revoked"}
    for token, key in ((active, active_key), (expired, expired_key), (revoked, revoked_key)):
        assert key not in out and token.digest not in out and key[8:16] not in out


def test_the_admin_shows_expiry_state_and_sets_an_expiry(admin_client, uploader):
    create_upload_token(user=uploader, name="old", expires_at=timezone.now() - DAY)
    listing = admin_client.get("/admin/api/uploadtoken/")
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "expired" in text and "Expires at" in text and "Last used at" in text
    until = (timezone.now() + 10 * DAY).replace(microsecond=0)
    admin_client.post(
        "/admin/api/uploadtoken/add/",
        {
            "user": uploader.pk,
            "name": "agent",
            "expires_at_0": until.strftime("%Y-%m-%d"),
            "expires_at_1": until.strftime("%H:%M:%S"),
        },
    )
    assert UploadToken.objects.get(name="agent").expires_at == until
