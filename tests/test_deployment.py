"""docker-compose.yml and the Dockerfile stay consistent with the project."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_docker_compose_config_is_valid():
    compose = shutil.which("docker-compose")
    if compose is None:
        pytest.fail("docker-compose (Debian's package) is missing: `make test` installs it")
    done = subprocess.run(
        [compose, "config", "-q"],
        cwd=ROOT,
        env={**os.environ, "SECRET_KEY": "check"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_compose_runs_every_service_the_product_needs():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    assert "gunicorn dashboard.wsgi" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "dashboard", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "dashboard", "beat"]


def test_the_compose_file_refuses_to_start_without_a_secret_key():
    compose = shutil.which("docker-compose")
    if compose is None:
        pytest.fail("docker-compose (Debian's package) is missing: `make test` installs it")
    env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    done = subprocess.run(
        [compose, "config", "-q"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


def _gunicorn_settings(env: dict) -> list[str]:
    """gunicorn.conf.py read as gunicorn reads it (a fresh interpreter), then a fork's hook."""
    script = (
        "import gc, runpy; settings = runpy.run_path('gunicorn.conf.py'); "
        "print(gc.get_threshold()[0]); settings['pre_fork'](None, None); "
        "print(gc.get_freeze_count() > 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env={**os.environ, **env},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.split()


def test_web_workers_collect_garbage_rarely_and_fork_with_imports_frozen():
    assert _gunicorn_settings({}) == ["50000", "True"]
    assert _gunicorn_settings({"PRICEBENCH_GC_YOUNG_THRESHOLD": "2000"})[0] == "2000"
