"""The redis parser against Spare Cores' redis tables (memtier_benchmark against redis-server)."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, redis_benchmark

FORMAT = "redis"


def results_of(output, benchmark):
    return {
        (result.params["threads"], result.params["pipeline"]): result
        for result in output.results
        if result.benchmark == benchmark
    }


def test_it_reads_throughput_and_latency_of_a_graviton3(inspector):
    # "SET",1,16,923936,1.73,6.69,2.15,7.43,3.60
    output = redis_benchmark.parse(inspector.text("c7g.large", "redis"))

    assert output.format == "redis"
    assert output.warnings == []
    throughput = results_of(output, "redis:set")
    latency = results_of(output, "redis:set-latency")
    assert sorted(throughput) == [(1, 1), (1, 4), (1, 16), (1, 64), (1, 256), (1, 512)]
    assert throughput[(1, 16)].value == 923936
    assert throughput[(1, 16)].unit == "op/s"
    assert throughput[(1, 16)].higher_is_better is True
    assert throughput[(1, 16)].params == {"threads": 1, "pipeline": 16}
    assert latency[(1, 16)].value == pytest.approx(1.73e-3)
    assert latency[(1, 16)].unit == "s"
    assert latency[(1, 16)].higher_is_better is False


def test_it_reads_an_intel_machine_in_the_files_order(inspector):
    # "SET",1,1,69962,1.43,... then "SET",1,4,219625,1.82,...
    output = redis_benchmark.parse(inspector.text("m5.large", "redis"))

    assert [(r.benchmark, r.value) for r in output.results[:4]] == [
        ("redis:set", 69962),
        ("redis:set-latency", pytest.approx(0.00143)),
        ("redis:set", 219625),
        ("redis:set-latency", pytest.approx(0.00182)),
    ]


def test_it_keeps_the_client_thread_counts_of_c6g_16xlarge(inspector):
    # The only type measured with 2 and 4 memtier threads: "SET",4,512,32142335,207.77,...
    throughput = results_of(
        redis_benchmark.parse(inspector.text("c6g.16xlarge", "redis")), "redis:set"
    )

    assert {threads for threads, _pipeline in throughput} == {1, 2, 4}
    assert len(throughput) == 18
    assert throughput[(4, 512)].value == 32142335


def test_every_redis_table_in_the_archive_is_detected_and_read(inspector):
    for instance_type, text in inspector.texts("redis"):
        assert parsers.detect_format(text) == "redis", instance_type
        output = parsers.parse(text, format=FORMAT)
        assert len(output.results) == 2 * (text.strip().count("\n")), instance_type
        assert output.warnings == [], instance_type


def test_it_skips_a_run_whose_figures_the_harness_could_not_read():
    text = (
        '"operation","threads","pipeline","rps","latency","server_usr"\n'
        '"SET",1,1,0,0.00,0.10\n'
        '"SET",1,4,219625,1.82,2.44\n'
    )

    output = redis_benchmark.parse(text)

    assert [r.value for r in output.results] == [219625, pytest.approx(0.00182)]
    assert output.warnings == [
        "skipped figures of 0, the harness's value when it could not read memtier's output: "
        "line 2 (rps and latency)"
    ]


def test_a_bare_header_of_an_older_harness_is_read_too():
    output = redis_benchmark.parse(
        "operation,threads,pipeline,rps,latency,server_usr,server_sys,client_usr,client_sys\n"
        "SET,1,1,135900,0.74,2.07,6.40,3.17,8.23\n"
    )

    assert [(r.benchmark, r.value) for r in output.results] == [
        ("redis:set", 135900),
        ("redis:set-latency", pytest.approx(0.00074)),
    ]


@pytest.mark.parametrize(
    "row, message",
    [
        ('"SET",1,16,923936,fast,6.69', "latency is not a number: 'fast'"),
        ('"SET",1,16,923936', "4 cells where the header names 6 columns"),
        ('"SET",one,16,923936,1.73,6.69', "threads is not a whole number: 'one'"),
    ],
)
def test_a_garbled_row_is_refused_with_its_line(row, message):
    text = (
        '"operation","threads","pipeline","rps","latency","server_usr"\n'
        '"SET",1,1,135900,0.74,2.07\n' + row + "\n"
    )

    with pytest.raises(ParseError) as error:
        redis_benchmark.parse(text)

    assert error.value.line == 3
    assert message in error.value.message


def test_a_header_without_the_rps_column_is_refused_with_its_line():
    with pytest.raises(ParseError) as error:
        redis_benchmark.parse('\n"operation","threads","pipeline","latency"\n"SET",1,1,0.74\n')

    assert error.value.line == 2
    assert "lacks rps" in error.value.message


def test_it_claims_the_redis_header_and_not_the_static_web_one(inspector):
    assert redis_benchmark.looks_like(inspector.text("c7g.large", "redis"))
    assert not redis_benchmark.looks_like(inspector.text("c7g.large", "static_web"))
    assert not redis_benchmark.looks_like("benchmark,value\nredis:set,1\n")
