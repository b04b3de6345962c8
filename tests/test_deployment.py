"""docker-compose.yml and the Dockerfile stay consistent with the project."""

import gc
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from unittest import mock

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


@pytest.mark.django_db
@pytest.mark.parametrize(("setting", "warmed"), [(None, True), ("false", False)])
def test_each_web_worker_warms_up_before_taking_requests(monkeypatch, setting, warmed):
    if setting is None:
        monkeypatch.delenv("PRICEBENCH_WARM_UP", raising=False)
    else:
        monkeypatch.setenv("PRICEBENCH_WARM_UP", setting)
    threshold = gc.get_threshold()
    try:
        hooks = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    finally:
        gc.set_threshold(*threshold)
    worker = mock.Mock(wsgi=object())
    try:
        with mock.patch("dashboard.warmup.warm_up") as warm_up:
            hooks["post_worker_init"](worker)
        # What the worker keeps after its warm-up is out of the collector's way.
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert warm_up.call_args_list == ([mock.call(worker.wsgi)] if warmed else [])


def test_web_workers_collect_an_answers_leftovers_after_sending_it():
    """A cycle left by a request is gone once `post_request` has run; the older generations
    are collected as often as Python would (every tenth young collection, and so on)."""
    script = (
        "import gc, runpy, weakref\n"
        "hooks = runpy.run_path('gunicorn.conf.py')\n"
        "gc.disable()\n"
        "class Node: pass\n"
        "node = Node(); node.me = node; left = weakref.ref(node); del node\n"
        "print(left() is not None)\n"
        "gc.collect()\n"
        "counts = []\n"
        "for _ in range(11):\n"
        "    hooks['post_request'](None, None, None, None)\n"
        "    counts.append(gc.get_count()[1:])\n"
        "node = Node(); node.me = node; left = weakref.ref(node); del node\n"
        "hooks['post_request'](None, None, None, None)\n"
        "print(left() is None, counts[9], counts[10])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[:2] == ["True", "True (10, 0) (0, 1)"]
