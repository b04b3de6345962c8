"""The compression_text parser against Spare Cores' compression benchmark JSON."""

import json
import re

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, compression_text

FORMAT = "compression_text"


def values(output, benchmark, **params):
    return [r.value for r in output.results if r.benchmark == benchmark and r.params == params]


def test_it_reads_levels_threads_and_the_three_figures_of_a_graviton3(inspector):
    # zstd level 7: threads 1 ratio 32.824..., compress 41005199.747..., decompress 700088710.657...
    #               threads 2 ratio 32.868..., compress 54656194.500..., decompress 597763007.782...
    output = compression_text.parse(inspector.text("c7g.large", "compression_text"))

    assert output.format == "compression_text"
    # zpaq crashed on this arm64 machine: every figure of its three levels is null.
    assert output.warnings == [
        "skipped 9 null figures of 3 runs that crashed: zpaq level 1, threads 1 (line 235); "
        "zpaq level 3, threads 1 (line 244); zpaq level 5, threads 1 (line 253)"
    ]
    assert not [r for r in output.results if r.benchmark.startswith("compression:zpaq")]
    assert values(output, "compression:zstd-compress", level=7, threads=1) == [41005199.74714452]
    assert values(output, "compression:zstd-decompress", level=7, threads=1) == [700088710.6574086]
    assert values(output, "compression:zstd-ratio", level=7, threads=1) == [32.82436816442294]
    assert values(output, "compression:zstd-compress", level=7, threads=2) == [54656194.50037971]
    ratio = next(r for r in output.results if r.benchmark == "compression:zstd-ratio")
    assert (ratio.unit, ratio.higher_is_better) == ("%", False)
    compress = next(r for r in output.results if r.benchmark == "compression:zstd-compress")
    assert (compress.unit, compress.higher_is_better) == ("B/s", True)


def test_bzip3_has_no_level_and_takes_its_block_size_from_extra_args(inspector):
    output = compression_text.parse(inspector.text("c7g.large", "compression_text"))

    bzip3 = [r for r in output.results if r.benchmark == "compression:bzip3-compress"]
    assert [r.params for r in bzip3] == [
        {"threads": 1, "block_size": 1048576},
        {"threads": 1, "block_size": 67108864},
        {"threads": 2, "block_size": 1048576},
        {"threads": 2, "block_size": 67108864},
    ]
    assert bzip3[1].value == 6267057.234666458
    assert values(output, "compression:lz4-decompress", level=16, threads=1, block_size=65536) == [
        1372002215.3337398
    ]


def test_it_reads_an_intel_machine_with_one_physical_core(inspector):
    # m5.large: gzip level 9, threads 1 only: ratio 37.819..., compress 10098739.666...
    output = compression_text.parse(inspector.text("m5.large", "compression_text"))

    assert values(output, "compression:gzip-ratio", level=9, threads=1) == [37.81964603982204]
    assert values(output, "compression:gzip-compress", level=9, threads=1) == [10098739.666581232]
    assert {r.params["threads"] for r in output.results} == {1}


def test_null_figures_of_crashed_runs_are_skipped_and_counted(inspector):
    text = inspector.text("t3.nano", "compression_text")
    document = json.loads(text)
    runs = [run for levels in document.values() for runs in levels.values() for run in runs]
    crashed = [run for run in runs if run["ratio"] is None]

    output = compression_text.parse(text)

    assert len(crashed) == 10
    assert len(output.results) == 3 * (len(runs) - len(crashed))
    (warning,) = output.warnings
    assert warning.startswith(
        "skipped 30 null figures of 10 runs that crashed: brotli level 11, threads 1 (line "
    )
    # bzip3 ran with 1 MiB blocks but crashed with 64 MiB ones on this 512 MB machine.
    assert values(output, "compression:bzip3-ratio", threads=1, block_size=1048576) == [
        24.660773282487835,
        24.660773282487835,
    ]
    assert values(output, "compression:bzip3-ratio", threads=1, block_size=67108864) == []


def test_every_compression_output_in_the_archive_is_read_and_its_nulls_counted(inspector):
    crashed_runs = 0
    for instance_type, text in inspector.texts("compression_text"):
        assert parsers.detect_format(text) == "compression_text", instance_type
        output = parsers.parse(text, format=FORMAT)
        document = json.loads(text)
        runs = sum(len(runs) for levels in document.values() for runs in levels.values())
        crashed = 0
        for warning in output.warnings:
            crashed += int(re.match(r"skipped \d+ null figures of (\d+) runs?", warning)[1])
        assert len(output.results) == 3 * (runs - crashed), instance_type
        crashed_runs += crashed
    # The archive's README: 1,357 of its 42,946 runs are null.
    assert crashed_runs == 1357


def test_a_figure_that_is_not_a_number_is_refused_with_its_line(inspector):
    text = inspector.text("c7g.large", "compression_text")
    lines = text.split("\n")
    number = next(i for i, line in enumerate(lines) if '"ratio"' in line) + 1
    lines[number - 1] = '        "ratio": "43.25",'

    with pytest.raises(ParseError) as error:
        compression_text.parse("\n".join(lines))

    assert error.value.line == number == 7
    assert error.value.message == (
        "brotli level 0 run 0: ratio is not a number that is not negative: '43.25'"
    )


def test_a_truncated_document_is_refused_with_its_last_line(inspector):
    text = inspector.text("c7g.large", "compression_text")[:1000]

    with pytest.raises(ParseError) as error:
        compression_text.parse(text)

    assert error.value.line == text.rstrip().count("\n") + 1
    assert "ends before it is complete" in error.value.message


def test_it_claims_the_compression_json_and_not_other_json(inspector):
    assert compression_text.looks_like(inspector.text("m5.large", "compression_text"))
    assert not compression_text.looks_like(inspector.text("m5.large", "geekbench", "results.json"))
    assert not compression_text.looks_like(
        inspector.text("m5.large", "compression_text", "meta.json")
    )
