"""Back up pricebench's database to one file, and restore it (`make backup`, `make restore`).

    python scripts/backup.py backup [FILE]     # default var/backups/pricebench-<UTC time>.<ext>
    python scripts/backup.py restore FILE

The database is the one the application uses (DATABASE_URL; unset: SQLite under var/).
PostgreSQL: pg_dump's custom format, restored by pg_restore in one transaction (all or
nothing) over the database's own objects, which it drops first; the database must exist
(`createdb`), empty or not. SQLite: SQLite's online backup, a consistent copy even while the
server writes, restored the same way. Exit status 2 and one line naming what is wrong when
the file or the database cannot be used.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKUP_DIR = ROOT / "var" / "backups"
# The first bytes of each kind of backup file.
PG_DUMP_MAGIC = b"PGDMP"
SQLITE_MAGIC = b"SQLite format 3\x00"


class BackupError(Exception):
    """What stops a backup or restore, said in one line."""


def database() -> dict:
    """The application's database settings, read the way the application reads them."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    os.environ.setdefault("DEBUG", "true")  # only so that settings load without SECRET_KEY
    from django.conf import settings

    return settings.DATABASES["default"]


def kind_of(db: dict) -> str:
    engine = db["ENGINE"]
    if engine.endswith("postgresql"):
        return "postgresql"
    if engine.endswith("sqlite3"):
        return "sqlite"
    raise BackupError(f"backups know PostgreSQL and SQLite, not {engine}")


def default_file(kind: str) -> Path:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return BACKUP_DIR / f"pricebench-{stamp}.{'dump' if kind == 'postgresql' else 'sqlite3'}"


def pg_tool(name: str) -> str:
    """The newest installed pg_dump/pg_restore (Debian keeps them per major version)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    found = str(versions[-1]) if versions else shutil.which(name)
    if not found:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def pg_connection(db: dict) -> tuple[list[str], dict[str, str]]:
    """pg_dump/pg_restore's connection options and environment for these settings."""
    options = []
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            options += [option, str(db[key])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return options, env


def sqlite_path(db: dict) -> Path:
    name = str(db["NAME"])
    if not name or name == ":memory:" or name.startswith("file:"):
        raise BackupError(f"the SQLite database {name!r} is not a file")
    return Path(name)


def backup(db: dict, file: Path) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    if kind_of(db) == "postgresql":
        options, env = pg_connection(db)
        _run([pg_tool("pg_dump"), *options, "--format=custom", "--file", str(file), db["NAME"]],
             env)  # fmt: skip
        return
    source = sqlite_path(db)
    if not source.is_file():
        raise BackupError(f"no SQLite database at {source}: nothing to back up")
    _sqlite_copy(source, file)


def restore(db: dict, file: Path) -> None:
    if not file.is_file():
        raise BackupError(f"no backup file at {file}")
    kind = kind_of(db)
    head = _head(file)
    if kind == "postgresql":
        if not head.startswith(PG_DUMP_MAGIC):
            raise BackupError(
                f"{file} is not a pg_dump custom-format file (it does not start with PGDMP): "
                "restore it into the kind of database it came from"
            )
        options, env = pg_connection(db)
        _run([pg_tool("pg_restore"), *options, "--dbname", db["NAME"], "--clean", "--if-exists",
              "--no-owner", "--single-transaction", "--exit-on-error", str(file)], env)  # fmt: skip
        return
    if not head.startswith(SQLITE_MAGIC):
        raise BackupError(
            f"{file} is not an SQLite database: restore it into the kind it came from"
        )
    _sqlite_copy(file, sqlite_path(db))


def _head(file: Path) -> bytes:
    with open(file, "rb") as handle:
        return handle.read(16)


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup: every page of `source` into `target`, consistent even while
    another process writes `source`, replacing whatever `target` held."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(source) as reader, sqlite3.connect(target) as writer:
        reader.backup(writer)
    reader.close()
    writer.close()


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tool = Path(command[0]).name
        raise BackupError(f"{tool} failed: {done.stderr.strip() or done.returncode}")


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("backup", help="write the database to FILE").add_argument(
        "file", nargs="?", type=Path, help="default: var/backups/pricebench-<UTC time>"
    )
    commands.add_parser("restore", help="replace the database's contents with FILE's").add_argument(
        "file", type=Path
    )
    options = parser.parse_args(arguments)
    try:
        db = database()
        if options.command == "backup":
            file = options.file or default_file(kind_of(db))
            backup(db, file)
            print(f"backed up {kind_of(db)} database {db['NAME']} to {file}")
        else:
            restore(db, options.file)
            print(
                f"restored {options.file} into {kind_of(db)} database {db['NAME']}; restart the "
                "web and worker processes (they keep answers in memory)"
            )
    except BackupError as error:
        print(f"{options.command}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
