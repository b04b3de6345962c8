"""`python manage.py calibrate`: the calibration table, and docs/noise.md carrying its output."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from benchmarks.selectors.answer import calibration
from benchmarks.services import statistics
from tests.services.statistics.test_noise import _repeat_all

DOCS = Path(__file__).resolve().parents[1] / "docs" / "noise.md"


def _calibrate(*args) -> str:
    out = StringIO()
    call_command("calibrate", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_it_prints_each_benchmarks_quantiles_and_held_out_shares():
    _repeat_all()
    statistics.keep_noise()
    printed = _calibrate("--benchmark", "stress-ng:cpu")
    assert printed.startswith(calibration.HEADER)
    [line] = [line for line in printed.splitlines() if line.startswith("| `stress-ng:cpu`")]
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    # Ten pairs 1% .. 10% apart: p50 the 6th, p95 the 10th; five held out.
    assert cells[1:4] == ["repeats", "10", "6.00%"]
    assert cells[5] == "10.00%" and cells[7] == "5"
    assert cells[-1] == "fewer than 50 held out"


@pytest.mark.django_db
def test_measure_measures_again_and_an_unknown_benchmark_is_refused():
    _repeat_all()
    assert "not measured yet" in _calibrate("--benchmark", "stress-ng:cpu")
    assert "| repeats | 10 |" in _calibrate("--benchmark", "stress-ng:cpu", "--measure")
    with pytest.raises(CommandError, match="--benchmark: no benchmark 'nope'"):
        _calibrate("--benchmark", "nope")


@pytest.mark.django_db
def test_write_docs_writes_exactly_what_it_prints(tmp_path, monkeypatch):
    from benchmarks.management.commands import calibrate

    _repeat_all()
    statistics.keep_noise()
    copy = tmp_path / "noise.md"
    copy.write_text(DOCS.read_text())
    monkeypatch.setattr(calibrate, "DOCS", copy)
    printed = _calibrate("--write-docs")
    assert calibration.table_in(copy.read_text()) == printed.rstrip("\n")
    # Everything around the table is kept.
    before, after = (
        DOCS.read_text().split(calibration.MARKERS[0])[0],
        DOCS.read_text().split(calibration.MARKERS[1])[1],
    )
    assert copy.read_text().startswith(before) and copy.read_text().endswith(after)


def test_docs_noise_md_holds_the_commands_table_not_a_hand_copy():
    """docs/noise.md's table is `calibrate --write-docs`'s output on the full demo: its header
    and its closing count are the command's, and every line is a benchmark's in its format
    (regenerate with `python manage.py calibrate --write-docs`)."""
    table = calibration.table_in(DOCS.read_text())
    assert table is not None and table.startswith(calibration.HEADER)
    lines = table.splitlines()
    body = [line for line in lines[2:] if line.startswith("|")]
    assert len(body) > 50 and all(line.count("|") == 12 for line in body)
    keys = [line.split("`")[1] for line in body]
    assert keys == sorted(keys)
    assert lines[-1].endswith("meet the goal (beyond the margin at most 5%, coverage 85% to 95%).")
