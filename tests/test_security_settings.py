"""Production settings pass `check --deploy`; the secret key is never a hard-coded one."""

import os
import re
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from dashboard.env import secret_key

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # A deployment's environment: none of the test suite's own variables.
    base = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_finds_no_issue_with_production_settings():
    done = _manage(
        "check",
        "--deploy",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="pricebench.example.com",
    )
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout, done.stdout + done.stderr


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off():
    done = _manage("check", DEBUG="0")
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr


def test_a_checkouts_commands_run_as_development_when_nothing_is_set():
    # The models and the migrations agree, checked as a newcomer would run it.
    done = _manage("makemigrations", "--check", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "No changes detected" in done.stdout


def test_debug_makes_one_random_key_and_keeps_it(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key_file = tmp_path / "var" / "secret_key"
    first = secret_key(debug=True, development_key_file=key_file)
    assert len(first) >= 50
    assert secret_key(debug=True, development_key_file=key_file) == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    other = secret_key(debug=True, development_key_file=tmp_path / "other")
    assert other != first


def test_an_empty_secret_key_is_refused_without_debug(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "  ")
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        secret_key(debug=False, development_key_file=tmp_path / "secret_key")
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.django_db
def test_pages_send_a_policy_that_allows_only_our_own_scripts(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_the_api_docs_load_their_start_up_script_from_a_file(client):
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert re.search(r"<script>\s*\S", html) is None, "inline script on the docs page"
    script = client.get("/api/v1/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
    assert "script-src 'self';" in page["Content-Security-Policy"]


# An inline <script> with code (json_script data blocks are allowed), an on...= handler or a
# javascript: URL in any of our templates would be blocked by the policy.
INLINE_CODE = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>|\son[a-z]+\s*=|javascript:",
    re.IGNORECASE,
)


def test_no_template_of_ours_holds_inline_script_code():
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if INLINE_CODE.search(line)
    ]
    assert offenders == []
