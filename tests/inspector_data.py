"""Spare Cores' inspector archive for the import tests: read in place once, then subsets of
it written as small archives (or folders) of the same layout, as a user's download would be."""

from __future__ import annotations

import io
import json
import tarfile
from functools import cache
from pathlib import Path

from tests.conftest import SHARED_DATA

ARCHIVE = SHARED_DATA / "sparecores-inspector" / "aws.tar.xz"

# A sample with every case the archive holds: Graviton and Intel, a GPU type, a type that is
# not in the price snapshot (hpc7a.12xlarge), exit codes -1 (x8i.64xlarge: nothing ran), -2
# (t4g.micro's compression_text, next to a stdout of an earlier run), -4 and null
# (m9g.12xlarge, m9g.2xlarge geekbench), exit 0 without a result file (c5.9xlarge llm,
# c8g.medium geekbench), and t2.micro's malformed bw_mem lines.
SAMPLE = (
    "c5.9xlarge",
    "c7g.large",
    "c8g.medium",
    "g4dn.xlarge",
    "hpc7a.12xlarge",
    "m9g.12xlarge",
    "m9g.2xlarge",
    "t2.micro",
    "t4g.micro",
    "x8i.64xlarge",
)
RESULT_FILES = {"openssl": "parsed.json", "geekbench": "results.json"}


@cache
def members() -> dict[str, bytes]:
    """Every file of the archive by its name (`aws/<type>/<folder>/<file>`)."""
    assert ARCHIVE.is_file(), f"{ARCHIVE} is missing: tests read it in place"
    with tarfile.open(ARCHIVE, "r:xz") as archive:
        return {
            member.name: archive.extractfile(member).read() for member in archive if member.isfile()
        }


def data(instance_type: str, folder: str, file: str) -> bytes:
    """One file of the archive."""
    return members()[f"aws/{instance_type}/{folder}/{file}"]


def meta(instance_type: str, folder: str) -> dict:
    return json.loads(data(instance_type, folder, "meta.json"))


def files_of(types: tuple[str, ...]) -> dict[str, bytes]:
    """The archive's files of these instance types."""
    prefixes = tuple(f"aws/{name}/" for name in types)
    return {name: content for name, content in members().items() if name.startswith(prefixes)}


def write_archive(
    path: Path, files: dict[str, bytes], *, prefix: str = "", compression: str = "gz"
) -> Path:
    """A tar archive of these files (names below `prefix`), in name order like the original."""
    with tarfile.open(path, f"w:{compression}") as archive:
        for name in sorted(files):
            info = tarfile.TarInfo(prefix + name)
            info.size = len(files[name])
            archive.addfile(info, io.BytesIO(files[name]))
    return path


def write_folder(root: Path, files: dict[str, bytes]) -> Path:
    """The same files as a folder tree below `root`."""
    for name, content in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return root


def expected_outcome(files: dict[str, bytes]) -> dict[str, dict[str, int]]:
    """By kind, the folders a correct import stores as runs and those it skips, read off the
    files directly: a run is a folder whose meta.json has exit_code 0 and no error_msg and
    which holds its result file."""
    outcome: dict[str, dict[str, int]] = {}
    folders = {name.rsplit("/", 1)[0] for name in files}
    for folder in folders:
        kind = folder.split("/")[2]
        document = json.loads(files[f"{folder}/meta.json"])
        result = f"{folder}/{RESULT_FILES.get(kind, 'stdout')}"
        ran = document["exit_code"] == 0 and not document["error_msg"] and result in files
        counts = outcome.setdefault(kind, {"runs": 0, "skipped": 0})
        counts["runs" if ran else "skipped"] += 1
    return outcome
