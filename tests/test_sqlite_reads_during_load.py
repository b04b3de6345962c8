"""`make run` serves pages while `loaddemo` writes the rest of the demo into the same SQLite
file: every read is answered during the load. With SQLite's rollback journal a writer's commit
locked the readers out, and pages waited 5 s and answered 503 "the database is unavailable";
in WAL mode (dashboard/settings.py) a reader never waits for a writer."""

import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.sqlite_demo import ROOT, load, served

QUESTION = "/api/v1/price-performance/?benchmark=passmark:cpu-mark&region=us-east-1"
PAGES = ("/", QUESTION, "/instance-types/c7g.large/")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("sqlite-load")
    env = load(directory)
    with served(env, directory / "server.log") as url:
        yield directory, env, url


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_database_file_is_in_wal_mode(site):
    directory, _env, _url = site
    with sqlite3.connect(directory / "demo.sqlite3") as reader:
        assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_pages_are_answered_while_a_writer_holds_the_database_locked(site):
    directory, _env, url = site
    writer = sqlite3.connect(directory / "demo.sqlite3", isolation_level=None, timeout=30)
    try:
        # What a load's commit takes. With the rollback journal, every reader then waited
        # out its busy timeout and the page answered 503.
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("UPDATE benchmarks_benchmark SET stats_updated_at = stats_updated_at")
        assert {page: status(url + page) for page in PAGES} == dict.fromkeys(PAGES, 200)
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_pages_are_answered_while_loaddemo_writes(site):
    directory, env, url = site
    # Another connection open throughout, as the server's are: the log is not emptied when
    # the loader's closes.
    watcher = sqlite3.connect(directory / "demo.sqlite3")
    watcher.execute("SELECT count(*) FROM benchmarks_benchmark").fetchone()
    loader = subprocess.Popen(
        [sys.executable, "manage.py", "loaddemo", "--part", "clouds", "--families", "cax,t2a"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    answered = []
    try:
        while loader.poll() is None:
            answered.extend(status(url + page) for page in PAGES)
        output = loader.communicate(timeout=600)[0]
    finally:
        if loader.poll() is None:
            loader.kill()
    assert loader.returncode == 0, output[-3000:]
    assert "demo loaded" in output
    assert answered and set(answered) == {200}
    # The load's last pages are in the database file, not only in its write-ahead log.
    assert (directory / "demo.sqlite3-wal").stat().st_size == 0
    watcher.close()
