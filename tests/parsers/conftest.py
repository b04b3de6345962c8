"""Spare Cores' inspector archive (../shared/data/sparecores-inspector/aws.tar.xz), read in
place once per test session: one pass over the .tar.xz with tarfile, nothing extracted."""

import tarfile
from collections.abc import Iterator

import pytest

from benchmarks.parsers import decode
from tests.conftest import SHARED_DATA

INSPECTOR_ARCHIVE = SHARED_DATA / "sparecores-inspector" / "aws.tar.xz"


class InspectorArchive:
    """The archive's files by `<instance type>/<benchmark folder>/<file>`."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files

    def data(self, instance_type: str, folder: str, name: str = "stdout") -> bytes:
        """One file's bytes; KeyError names the missing member."""
        return self.files[f"{instance_type}/{folder}/{name}"]

    def text(self, instance_type: str, folder: str, name: str = "stdout") -> str:
        """One file as the parsers get it."""
        return decode(self.data(instance_type, folder, name))

    def has(self, instance_type: str, folder: str, name: str = "stdout") -> bool:
        return f"{instance_type}/{folder}/{name}" in self.files

    def instance_types(self, folder: str, name: str = "stdout") -> list[str]:
        """Every type whose folder holds that file, sorted."""
        suffix = f"/{folder}/{name}"
        return sorted(path.removesuffix(suffix) for path in self.files if path.endswith(suffix))

    def texts(self, folder: str, name: str = "stdout") -> Iterator[tuple[str, str]]:
        """(instance type, text) of every such file."""
        for instance_type in self.instance_types(folder, name):
            yield instance_type, self.text(instance_type, folder, name)


@pytest.fixture(scope="session")
def inspector() -> InspectorArchive:
    assert INSPECTOR_ARCHIVE.is_file(), f"{INSPECTOR_ARCHIVE} is missing: tests read it in place"
    files: dict[str, bytes] = {}
    with tarfile.open(INSPECTOR_ARCHIVE, "r:xz") as archive:
        for member in archive:
            if member.isfile():
                files[member.name.removeprefix("aws/")] = archive.extractfile(member).read()
    return InspectorArchive(files)


NEWER_KINDS_ARCHIVE = SHARED_DATA / "sparecores-inspector" / "more" / "aws.tar.xz"


@pytest.fixture(scope="session")
def newer_kinds() -> InspectorArchive:
    """The newer kinds' archive of AWS (more/aws.tar.xz: stressngfull, membench, vllm,
    nvbandwidth, ffmpeg, stressnglongrun), read in place like the main one."""
    assert NEWER_KINDS_ARCHIVE.is_file(), f"{NEWER_KINDS_ARCHIVE} is missing"
    files: dict[str, bytes] = {}
    with tarfile.open(NEWER_KINDS_ARCHIVE, "r:xz") as archive:
        for member in archive:
            if member.isfile():
                files[member.name.removeprefix("aws/")] = archive.extractfile(member).read()
    return InspectorArchive(files)
