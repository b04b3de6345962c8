"""`make backup` / `make restore` (scripts/backup.py): a backup restored into a fresh database,
or over the same one after a loss, gives the same answers; wrong files are refused."""

import json
import os
import sqlite3
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from benchmarks.models import Run
from benchmarks.services import runs as run_services
from benchmarks.services.demo import load_demo
from tests.worker import ROOT, worker_database_url

# S1's benchmark, S2's and one of Spare Cores' (its runs name no region; priced in us-east-1).
QUESTIONS = [
    "/api/v1/price-performance/?benchmark=openssl:aes-128-gcm&region=us-east-1"
    "&block_size=8192&processes=1&at=2024-06-01",
    "/api/v1/price-performance/?benchmark=keycloak:oauth2-login&region=ap-northeast-1"
    "&at=2024-06-01",
    "/api/v1/price-performance/?benchmark=geekbench:single-core&region=us-east-1&at=2024-06-01",
]
ANSWERS = """
import json, sys
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
client = Client()
answers = []
for url in sys.argv[1:]:
    response = client.get(url)
    answers.append([response.status_code, response.json()])
print(json.dumps(answers))
"""


def answers(database_url: str) -> list:
    """The questions' answers, asked of a fresh process on this database."""
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT),
           "DJANGO_SETTINGS_MODULE": "dashboard.settings"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", ANSWERS, *QUESTIONS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def backup_script(database_url: str, *arguments: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "scripts/backup.py", *arguments], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def admin_dsn() -> str:
    db = connection.settings_dict
    return f"host={db['HOST']} port={db['PORT']} user={db['USER']} dbname=postgres"


@pytest.mark.django_db(transaction=True)
def test_a_backup_restored_into_a_fresh_database_and_over_a_loss_gives_the_same_answers(
    reference_data, tmp_path
):
    load_demo()
    original_url = worker_database_url()
    before = answers(original_url)
    assert [status for status, _ in before] == [200, 200, 200]
    assert all(answer["results"] for _, answer in before)
    dump = tmp_path / "pricebench.dump"

    made = backup_script(original_url, "backup", str(dump))
    assert made.returncode == 0, made.stderr
    assert dump.read_bytes().startswith(b"PGDMP")

    fresh = f"{connection.settings_dict['NAME']}_restored"
    fresh_url = original_url.rsplit("/", 1)[0] + f"/{fresh}"
    with psycopg.connect(admin_dsn(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{fresh}"')
        admin.execute(f'CREATE DATABASE "{fresh}"')
    try:
        restored = backup_script(fresh_url, "restore", str(dump))
        assert restored.returncode == 0, restored.stderr
        assert answers(fresh_url) == before
    finally:
        with psycopg.connect(admin_dsn(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{fresh}"')

    # A loss in the database itself: restored over it, the answers come back.
    runs = Run.objects.count()
    for run in Run.objects.filter(source__startswith="Study S1", parent=None):
        run_services.delete_run(run=run)
    assert answers(original_url) != before
    again = backup_script(original_url, "restore", str(dump))
    assert again.returncode == 0, again.stderr
    connection.close()
    assert answers(original_url) == before
    assert Run.objects.count() == runs


def test_a_sqlite_database_is_copied_out_and_back(tmp_path):
    database = tmp_path / "pricebench.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE kept (value TEXT)")
        db.execute("INSERT INTO kept VALUES ('before')")
    url = f"sqlite:///{database}"
    copy = tmp_path / "backups" / "copy.sqlite3"
    made = backup_script(url, "backup", str(copy))
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(database) as db:
        db.execute("UPDATE kept SET value = 'lost'")
    restored = backup_script(url, "restore", str(copy))
    assert restored.returncode == 0, restored.stderr
    assert "restart the web and worker processes" in restored.stdout
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT value FROM kept").fetchall() == [("before",)]


def test_a_file_of_the_wrong_kind_or_none_is_refused_naming_it(tmp_path):
    sqlite_file = tmp_path / "pricebench.sqlite3"
    sqlite3.connect(sqlite_file).close()
    text = tmp_path / "notes.txt"
    text.write_text("not a backup")
    postgres = backup_script(worker_database_url(), "restore", str(text))
    assert postgres.returncode == 2
    assert f"{text} is not a pg_dump custom-format file" in postgres.stderr
    sqlite = backup_script(f"sqlite:///{sqlite_file}", "restore", str(text))
    assert sqlite.returncode == 2 and "is not an SQLite database" in sqlite.stderr
    missing = backup_script(f"sqlite:///{sqlite_file}", "restore", str(tmp_path / "gone.dump"))
    assert missing.returncode == 2 and "no backup file at" in missing.stderr


def test_make_backup_and_make_restore_call_the_script(tmp_path):
    database = tmp_path / "pricebench.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE kept (value TEXT)")
        db.execute("INSERT INTO kept VALUES ('before')")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    copy = tmp_path / "copy.sqlite3"

    def make(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run(["make", "--no-print-directory", *arguments], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)  # fmt: skip

    made = make("backup", f"FILE={copy}")
    assert made.returncode == 0, made.stderr
    assert f"to {copy}" in made.stdout
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM kept")
    restored = make("restore", f"FILE={copy}")
    assert restored.returncode == 0, restored.stderr
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT value FROM kept").fetchall() == [("before",)]
    unnamed = make("restore")
    assert unnamed.returncode != 0 and "make restore FILE=path/to/backup" in unnamed.stderr
