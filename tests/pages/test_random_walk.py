"""The controls walked at random (issue 54, item 8): a seeded walk of 200 steps over the
comparison page's benchmark, region, cloud boxes, families and presets, currency, way to buy,
date, estimates, busy, verified and toggles, and over the finder and compare; after each step
the page answered 200 without a console error, its form shows the question its address asks,
Fargate is in it unless the walk unticked it, no family is in it that the walk did not choose,
and an empty answer names the control to change. Then the same walk (a test of its own) after
an upload of one process's `openssl speed` output for c7a.large (Spare Cores measured it with
two).

On `make run`'s SQLite site with the first part of the demo and a few of the other clouds'
families: two or three minutes a walk on a busy machine. One seed runs in the suite; others with
`PRICEBENCH_WALK_SEEDS=1,2,3 bash scripts/test.sh tests/pages/test_random_walk.py`
(`PRICEBENCH_WALK_STEPS` sets the steps, 200 by default).
"""

import os
import random
import shutil
import subprocess
import sys

import pytest

from tests import sqlite_demo
from tests.pages import walk as walking

pytestmark = pytest.mark.browser

SEEDS = [int(seed) for seed in os.environ.get("PRICEBENCH_WALK_SEEDS", "54").split(",")]
STEPS = int(os.environ.get("PRICEBENCH_WALK_STEPS", "200"))
# Hetzner's four, Google Cloud's e2, t2a and t2d, three of Azure's: each other cloud's region
# has something to rank, or says why not.
CLOUD_FAMILIES = "cx,cpx,cax,ccx,e2,t2a,t2d,Dpsv6,Dasv6,Bsv2"


@pytest.fixture(scope="module")
def walk_database(tmp_path_factory):
    """The site's database, loaded once a module: each walk starts from a copy of it."""
    directory = tmp_path_factory.mktemp("walk-site")
    env = sqlite_demo.load(directory, cloud_families=CLOUD_FAMILIES)
    return directory / "demo.sqlite3", env


@pytest.fixture
def walk_site(walk_database, tmp_path):
    """A copy of the walk's database served by runserver: (its address, its environment)."""
    original, env = walk_database
    copy = tmp_path / "demo.sqlite3"
    shutil.copyfile(original, copy)
    env = {**env, "DATABASE_URL": f"sqlite:///{copy}"}
    with sqlite_demo.served(env, tmp_path / "runserver.log") as url:
        yield url, env


def upload_one_process(env: dict, directory) -> None:
    """`openssl speed` of aes-256-cbc in one process, as the agent measures it without -multi,
    stored for c7a.large through the upload service (`import_results`)."""
    speed = subprocess.run(
        ["openssl", "speed", "-mr", "-elapsed", "-seconds", "1", "-bytes", "8192", "-evp",
         "aes-256-cbc"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    version = subprocess.run(["openssl", "version"], capture_output=True, text=True, check=True)
    output = directory / "openssl-one-process.txt"
    output.write_text(version.stdout + speed.stdout)
    done = subprocess.run(
        [sys.executable, "manage.py", "import_results", str(output), "--instance-type",
         "c7a.large", "--region", "us-east-1"],
        cwd=sqlite_demo.ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and "stored 1 results" in done.stdout, done.stderr


def run_walk(page, base: str, seed: int) -> None:
    walk = walking.Walk(rng=random.Random(seed), base=base)
    statuses: list[tuple[int, str]] = []
    page.on(
        "response",
        lambda response: (
            response.request.resource_type in ("document", "fetch")
            and statuses.append((response.status, response.url))
        ),
    )
    walking.keep_static_files(page)
    page.goto(f"{base}/")
    for step in range(STEPS):
        statuses.clear()
        page.console_errors.clear()
        action = walking.next_step(page, walk)
        what = action(page, walk)
        walk.log.append(what)
        problems = walking.problems_after(page, walk, statuses)
        assert not problems, (
            f"seed {seed}, step {step} ({what}) at {page.url}: {problems}; "
            f"the steps before: {walk.log[-8:-1]}"
        )


# Each seed's walk before and after the upload, as two tests (two workers can run them).
WALKS = [(seed, after) for seed in SEEDS for after in (False, True)]


@pytest.mark.parametrize(
    ("seed", "after_upload"),
    WALKS,
    ids=[f"seed{seed}-{'after-upload' if after else 'before'}" for seed, after in WALKS],
)
def test_a_random_walk_keeps_the_question(walk_site, page, seed, after_upload, tmp_path):
    base, env = walk_site
    page.set_default_timeout(60000)
    if after_upload:
        upload_one_process(env, tmp_path)
        answer = page.request.get(
            f"{base}/api/v1/price-performance/?benchmark=openssl:aes-256-cbc&region=us-east-1"
            "&block_size=8192&families=fargate,t2,c7g,c7a,c7i"
        )
        assert answer.status == 200, answer.text()
        assert "Processes left open: one per vCPU" in answer.json()["summary"]
    run_walk(page, base, seed)
