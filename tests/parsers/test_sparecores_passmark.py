"""The passmark parser against Spare Cores' PassMark PerformanceTest Linux reports."""

import re

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, passmark

FORMAT = "passmark"
MEMORY_SUITE_SKIPPED = (
    "PassMark reports 0 for ME_ALLOC_S, ME_READ_S, ME_READ_L, ME_WRITE, ME_LARGE, ME_LATENCY, "
    "ME_THREADED, SUMM_ME: the memory suite did not run (PassMark runs only its CPU suite with "
    "under 512 MB free); not stored"
)


def by_key(output):
    return {result.benchmark: result for result in output.results}


def test_it_turns_passmarks_units_into_base_units_on_a_graviton3(inspector):
    output = passmark.parse(inspector.text("c7g.large", "passmark"))

    results = by_key(output)
    assert output.format == "passmark"
    assert output.tool_version == "11.0.1002"
    # CPU_INTEGER_MATH: 9486.2626666666656 million operations per second
    assert results["passmark:cpu-integer-math"].value == pytest.approx(9486.2626666666656e6)
    assert results["passmark:cpu-integer-math"].unit == "op/s"
    # CPU_COMPRESSION: 10310.538144695141 KB/s, PassMark's KB being 1024 bytes
    assert results["passmark:cpu-compression"].value == pytest.approx(10310.538144695141 * 1024)
    assert results["passmark:cpu-compression"].unit == "B/s"
    # CPU_ENCRYPTION: 273.96330494452803 MB/s of 2^20 bytes, m_CPU_enc_SHA in bytes/s
    assert results["passmark:cpu-encryption"].value == pytest.approx(273.96330494452803 * 2**20)
    assert results["passmark:cpu-enc-sha"].value == pytest.approx(418949570.23480469)
    # CPU_PRIME 25.22654447798563 million primes/s; CPU_SORTING 7837.4553863108995 thousand/s
    assert results["passmark:cpu-prime"].value == pytest.approx(25.22654447798563e6)
    assert results["passmark:cpu-prime"].unit == "prime/s"
    assert results["passmark:cpu-sorting"].value == pytest.approx(7837.4553863108995e3)
    assert results["passmark:cpu-sorting"].unit == "string/s"
    # ME_LATENCY: 50.719554645669824 ns, lower is better
    latency = results["passmark:me-latency"]
    assert (latency.value, latency.unit, latency.higher_is_better) == (
        pytest.approx(50.719554645669824e-9),
        "s",
        False,
    )
    # ME_LARGE: 560.91666666666663 MB available; ME_READ_S 19677.442968750001 MB/s
    assert results["passmark:me-large"].value == pytest.approx(560.91666666666663 * 2**20)
    assert results["passmark:me-large"].unit == "B"
    assert results["passmark:me-read-s"].value == pytest.approx(19677.442968750001 * 2**20)
    # The marks and the extended-instruction parts, whose unit PassMark does not print.
    assert results["passmark:cpu-mark"].value == pytest.approx(1559.1311685055814)
    assert results["passmark:memory-mark"].value == pytest.approx(1056.8975115143242)
    assert results["passmark:cpu-fma"].unit == "score"
    assert all(r.higher_is_better for r in output.results if r is not latency)
    assert all(r.params == {} for r in output.results)
    # CPU_avx and CPU_avx512 are 0 on this arm64 machine.
    assert output.warnings == [
        "PassMark reports 0 for CPU_avx, CPU_avx512: the CPU lacks these instructions; not stored"
    ]
    assert len(output.results) == 24


def test_it_reads_every_test_of_an_intel_machine(inspector):
    # m5.large: CPU_avx512 1955.7592688575003, ME_LARGE 628, SUMM_CPU 1995.9792159817569
    output = passmark.parse(inspector.text("m5.large", "passmark"))

    results = by_key(output)
    assert output.warnings == []
    assert len(output.results) == 26
    assert results["passmark:cpu-avx512"].value == pytest.approx(1955.7592688575003)
    assert results["passmark:me-large"].value == 628 * 2**20
    assert results["passmark:cpu-mark"].value == pytest.approx(1995.9792159817569)


def test_the_memory_suite_of_a_cpu_only_run_is_not_stored(inspector):
    # t2.nano (x86) ran the CPU suite only; t4g.nano (arm64) too, and its CPU Mark is 0 as well.
    t2 = passmark.parse(inspector.text("t2.nano", "passmark"))
    t4g = passmark.parse(inspector.text("t4g.nano", "passmark"))

    assert not [r for r in t2.results if r.benchmark.startswith("passmark:me-")]
    assert "passmark:memory-mark" not in by_key(t2)
    assert by_key(t2)["passmark:cpu-mark"].value == pytest.approx(1428.4916806114377)
    assert t2.warnings == [
        MEMORY_SUITE_SKIPPED,
        "PassMark reports 0 for CPU_avx512: the CPU lacks these instructions; not stored",
    ]
    assert t4g.warnings == [
        MEMORY_SUITE_SKIPPED,
        "PassMark reports 0 for CPU_avx, CPU_avx512: the CPU lacks these instructions; not stored",
        "PassMark reports 0 for CPU_PHYSICS, SUMM_CPU: not run; not stored",
    ]
    assert "passmark:cpu-mark" not in by_key(t4g)


def test_the_encryption_test_is_the_mean_of_its_parts_in_mebibytes_in_every_report(inspector):
    # The evidence for PassMark's MB being 2^20 bytes (and so its KB 2^10).
    reports = 0
    for instance_type, text in inspector.texts("passmark"):
        assert parsers.detect_format(text) == "passmark", instance_type
        results = by_key(parsers.parse(text, format=FORMAT))
        parts = [results[f"passmark:cpu-enc-{part}"].value for part in ("sha", "aes", "ecdsa")]
        assert results["passmark:cpu-encryption"].value == pytest.approx(sum(parts) / 3)
        reports += 1
    assert reports == 890


def test_every_report_in_the_archive_warns_only_about_zeros(inspector):
    cpu_only = []
    for instance_type, text in inspector.texts("passmark"):
        output = parsers.parse(text, format=FORMAT)
        assert output.tool_version in ("11.0.1002", "11.0.1004"), instance_type
        assert all(w.startswith("PassMark reports 0 for ") for w in output.warnings)
        if MEMORY_SUITE_SKIPPED in output.warnings:
            cpu_only.append(instance_type)
    assert cpu_only == ["t2.nano", "t3.nano", "t3a.micro", "t3a.nano", "t4g.nano"]


def test_it_reads_build_1004(inspector):
    output = passmark.parse(inspector.text("c8gb.48xlarge", "passmark"))

    assert output.tool_version == "11.0.1004"
    assert by_key(output)["passmark:cpu-mark"].value == pytest.approx(77457.04794836673)


def test_a_figure_that_is_not_a_number_is_refused_with_its_line(inspector):
    text = inspector.text("c7g.large", "passmark")
    garbled = re.sub(r"(?m)^  ME_WRITE: .*$", "  ME_WRITE: n/a", text)

    with pytest.raises(ParseError) as error:
        passmark.parse(garbled)

    assert error.value.line == 33
    assert error.value.message == "ME_WRITE is not a number: 'n/a'"


def test_a_report_cut_before_its_results_is_refused(inspector):
    text = inspector.text("c7g.large", "passmark").split("Results:")[0]

    with pytest.raises(ParseError) as error:
        passmark.parse(text)

    assert error.value.line == 9  # its last line, `ptArchitecture: aarch64_linux`
    assert "no `Results:` section" in error.value.message


def test_it_claims_passmark_reports_and_nothing_else(inspector):
    assert passmark.looks_like(inspector.text("t4g.nano", "passmark"))
    assert not passmark.looks_like(inspector.text("t4g.nano", "stressng"))
    assert not passmark.looks_like("Results:\n  total: 3\n")
