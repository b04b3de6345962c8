"""Test-wide fixtures: paths to the shared real data."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    assert SHARED_DATA.is_dir(), f"{SHARED_DATA} is missing: tests read ../shared/data in place"
    return SHARED_DATA
