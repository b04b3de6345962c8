"""A pg_dump of a loaded database, restored with pg_restore into a new one, holds every row."""

import glob
import os
import subprocess

import psycopg
import pytest
from django.db import connection

from benchmarks.services.demo import load_demo

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reference_data")]


def pg_binary(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(f"{name} is missing: `make test` installs PostgreSQL from Debian")
    return found[-1]


def fingerprints(dsn: str) -> dict[str, tuple[int, str]]:
    """Every table of the public schema: its row count and an md5 of its rows in order."""
    with psycopg.connect(dsn) as db:
        tables = [
            name
            for (name,) in db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        return {
            table: db.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))"
                f' FROM "{table}" t'
            ).fetchone()
            for table in tables
        }


def test_a_dump_restored_into_a_new_database_holds_every_row(tmp_path, django_user_model):
    load_demo()
    django_user_model.objects.create_user(username="restored", password="kept-hash")
    settings = connection.settings_dict
    base = {
        "host": settings["HOST"],
        "port": str(settings["PORT"]),
        "user": settings["USER"],
        "password": settings["PASSWORD"] or "",
    }
    dsn = " ".join(f"{key}={value}" for key, value in base.items() if value)
    env = {**os.environ, "PGPASSWORD": base["password"]}
    source, copy = settings["NAME"], f"{settings['NAME']}_restored"
    dump = tmp_path / "pricebench.dump"
    common = ["--host", base["host"], "--port", base["port"], "--username", base["user"]]

    subprocess.run([pg_binary("pg_dump"), *common, "--format=custom", "--file", str(dump),
                    source], check=True, env=env, capture_output=True)  # fmt: skip
    with psycopg.connect(f"{dsn} dbname=postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy}"')
        admin.execute(f'CREATE DATABASE "{copy}"')
    try:
        restored = subprocess.run(
            [pg_binary("pg_restore"), *common, "--dbname", copy, "--exit-on-error",
             "--no-owner", str(dump)],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
        assert restored.returncode == 0, restored.stderr
        before = fingerprints(f"{dsn} dbname={source}")
        after = fingerprints(f"{dsn} dbname={copy}")
    finally:
        with psycopg.connect(f"{dsn} dbname=postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{copy}"')
    assert after == before
    # The dump held real data, not only empty tables.
    assert before["benchmarks_result"][0] > 100
    assert before["benchmarks_price"][0] > 0 and before["benchmarks_seriesstatistics"][0] > 0
    assert before["auth_user"][0] == 1
