"""Reading parts of a big file: a binary file that reports its progress, a byte range of a
JSON file read as a document of its own, and a quick scan for a top-level key."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

# (bytes read, bytes to read, what is being read): called after every block read.
Progress = Callable[[int, int, str], None]


class CountingFile(io.RawIOBase):
    """A binary file that reports how much of it has been read."""

    def __init__(self, path: Path, progress: Progress | None, label: str):
        super().__init__()
        self._file = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by close()
        self._total = self.size = os.fstat(self._file.fileno()).st_size
        self._done = 0
        self._progress = progress
        self._label = label
        if progress is not None:
            progress(0, self._total, label)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = self._file.readinto(buffer)
        self._done += count
        if self._progress is not None:
            self._progress(self._done, self._total, self._label)
        return count

    def close(self) -> None:
        self._file.close()
        super().close()


class JsonSection:
    """Bytes `start` to `end` of a file, with `lead` before and `tail` after; reports progress.

    With lead b"{" from the top-level "terms" key, or with tail '"terms":{}}' up to it, a
    section of an offer file is a JSON document of its own.
    """

    def __init__(
        self,
        path: Path,
        progress: Progress | None,
        label: str,
        *,
        start: int = 0,
        end: int | None = None,
        lead: bytes = b"",
        tail: bytes = b"",
    ):
        self._file = open(path, "rb")  # noqa: SIM115 - closed by __exit__
        self._file.seek(start)
        self.position = self._start = start
        self._end = os.fstat(self._file.fileno()).st_size if end is None else end
        self._lead, self._tail = lead, tail
        self._progress, self._label = progress, label
        self._report()

    def read(self, size: int = -1) -> bytes:
        if size == 0:  # ijson asks for nothing to learn whether the file gives bytes or text
            return b""
        left = self._end - self.position
        if size < 0 or size > left:
            size = left
        data = self._file.read(size) if size > 0 else b""
        self.position += len(data)
        if data:
            self._report()
        if self._lead:
            data, self._lead = self._lead + data, b""
        if not data and self._tail:
            data, self._tail = self._tail, b""
        return data

    def _report(self, *, done: bool = False) -> None:
        """Progress through this section: a pass that stops early is done all the same."""
        if self._progress is not None:
            size = self._end - self._start
            self._progress(size if done else self.position - self._start, size, self._label)

    def __enter__(self) -> JsonSection:
        return self

    def __exit__(self, error_type, *exc_info) -> None:
        self._file.close()
        if error_type is None:
            self._report(done=True)


def top_level_key_offset(path: Path, key: bytes) -> int | None:
    """Where `key` (quoted) is the key of a member after the first, by a quick byte scan.

    A guess: a string value or a nested key can look the same, which the parser then notices
    (the section before it does not close), and the caller reads the whole file instead.
    """
    block_size, overlap = 1024 * 1024, 256
    with open(path, "rb") as file:
        offset = 0
        while block := file.read(block_size):
            start = 0
            while (found := block.find(key, start)) >= 0:
                before = block[max(0, found - overlap) : found].rstrip()
                after = block[found + len(key) : found + len(key) + overlap].lstrip()
                if before.endswith(b",") and after.startswith(b":"):
                    return offset + found
                start = found + 1
            if len(block) < block_size:
                return None
            # Step back a little so that a key across two blocks is seen whole.
            offset += len(block) - overlap
            file.seek(offset)
    return None
