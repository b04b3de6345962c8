"""The static_web parser against Spare Cores' binserve-and-wrk tables."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, static_web

FORMAT = "static_web"


def result(output, benchmark, size, threads, connections):
    (found,) = [
        r
        for r in output.results
        if r.benchmark == benchmark
        and r.params == {"size": size, "threads": threads, "connections": connections}
    ]
    return found


def test_it_reads_requests_and_latency_of_a_graviton3(inspector):
    # "1k",2,2,45707,0.000043460,0,... and "64k",2,8,37453,0.000248480,0,...
    output = static_web.parse(inspector.text("c7g.large", "static_web"))

    assert output.format == "static_web"
    assert output.warnings == []
    assert len(output.results) == 2 * 69
    first = result(output, "static_web:http", 1024, 2, 2)
    assert (first.value, first.unit, first.higher_is_better) == (45707, "req/s", True)
    assert first.notes is None
    latency = result(output, "static_web:http-latency", 1024, 2, 2)
    assert (latency.value, latency.unit, latency.higher_is_better) == (
        pytest.approx(0.00004346),
        "s",
        False,
    )
    assert result(output, "static_web:http", 64 * 1024, 2, 8).value == 37453
    assert result(output, "static_web:http-latency", 64 * 1024, 2, 8).value == pytest.approx(
        0.00024848
    )


def test_it_reads_sizes_as_the_harness_makes_them_1024_bytes_a_k(inspector):
    # m5.large: "512k",4,32,3993,0.007610000,0,...
    output = static_web.parse(inspector.text("m5.large", "static_web"))

    assert {r.params["size"] for r in output.results} == {1024, 16384, 65536, 262144, 524288}
    assert result(output, "static_web:http", 524288, 4, 32).value == 3993
    assert result(output, "static_web:http-latency", 524288, 4, 32).value == pytest.approx(0.00761)


def test_runs_with_failed_responses_are_kept_with_a_note_and_a_warning(inspector):
    # c8g.metal-48xl: "1k",192,384,103124,0.002610000,4,... and 24 more runs with failures
    output = static_web.parse(inspector.text("c8g.metal-48xl", "static_web"))

    failing = result(output, "static_web:http", 1024, 192, 384)
    assert failing.value == 103124
    assert failing.notes == "4 responses were not 2xx or 3xx"
    assert result(output, "static_web:http-latency", 1024, 192, 384).notes == failing.notes
    assert len(output.results) == 2 * 69
    (warning,) = output.warnings
    assert warning.startswith(
        "25 runs had failed (non-2xx/3xx) responses; their results are kept with a note: "
        "line 3 (4), "
    )
    assert warning.endswith(" and 15 more")


def test_every_static_web_table_in_the_archive_is_detected_and_read(inspector):
    warned = []
    for instance_type, text in inspector.texts("static_web"):
        assert parsers.detect_format(text) == "static_web", instance_type
        output = parsers.parse(text, format=FORMAT)
        assert len(output.results) == 138, instance_type
        if output.warnings:
            warned.append(instance_type)
    # Only the 192-vCPU machines saw failed responses.
    assert len(warned) == 17
    assert all(name.endswith(("48xlarge", "48xl")) for name in warned)


def test_a_row_with_a_size_that_is_not_a_size_is_refused_with_its_line():
    text = (
        '"size","threads","connections","rps","latency","failed"\n'
        '"1k",2,2,45707,0.000043460,0\n'
        '"big",2,2,45707,0.000043460,0\n'
    )

    with pytest.raises(ParseError) as error:
        static_web.parse(text)

    assert error.value.line == 3
    assert error.value.message == "size is not a file size: 'big'"


def test_a_cut_row_is_refused_with_its_line():
    text = '"size","threads","connections","rps","latency","failed"\n"1k",2,2,45707\n'

    with pytest.raises(ParseError) as error:
        static_web.parse(text)

    assert error.value.line == 2
    assert "4 cells where the header names 6 columns" in error.value.message


def test_it_claims_the_static_web_header_and_not_a_users_csv(inspector):
    assert static_web.looks_like(inspector.text("t4g.micro", "static_web"))
    assert not static_web.looks_like(inspector.text("t4g.micro", "redis"))
    assert not static_web.looks_like("size,value\n1k,2\n")
