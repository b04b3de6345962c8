"""sysbench parser: real 1.0 and 1.1 reports, several runs in a file, bad input (legacy 0.4
reports: test_sysbench_legacy.py)."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, sysbench

OLTP_1_0 = "parsers/sysbench/pkb_sysbench1.0.12_oltp_16thr_intermediate.txt"
CPU_1_0 = "parsers/sysbench/sunknudsen_sysbench1.0.20_cpu_1984vps.txt"
OLTP_1_1 = "parsers/sysbench/vc_sysbench1.1.0_oltp_mysql_16thr_rate143.txt"


def by_key(output):
    return {result.benchmark: result for result in output.results}


def test_it_reads_transactions_queries_and_latency_of_a_1_0_oltp_run(shared_data):
    output = sysbench.parse((shared_data / OLTP_1_0).read_text())

    results = by_key(output)
    assert output.format == "sysbench"
    assert output.tool_version == "1.0.12"
    assert results["sysbench:oltp"].value == pytest.approx(986.49)
    assert results["sysbench:oltp"].unit == "tx/s"
    assert results["sysbench:oltp"].params == {"threads": 16}
    assert results["sysbench:oltp:queries"].value == pytest.approx(19730.45)
    assert results["sysbench:oltp:queries"].unit == "query/s"
    assert results["sysbench:oltp:latency_p100"].value == pytest.approx(116.80)
    assert results["sysbench:oltp:latency_p100"].higher_is_better is False
    # The progress lines ([ 2s ] thds: 16 tps: 1012.86 ...) are not results; the fourth is
    # the mean response time.
    assert len(output.results) == 4


def test_an_oltp_report_without_its_command_is_stored_as_sysbench_oltp_with_a_warning(
    shared_data,
):
    output = sysbench.parse((shared_data / OLTP_1_0).read_text())

    assert "does not say which OLTP test" in output.warnings[0]


def test_it_reads_events_per_second_and_max_prime_of_a_cpu_run(shared_data):
    output = sysbench.parse((shared_data / CPU_1_0).read_text())

    results = by_key(output)
    assert results["sysbench:cpu"].value == pytest.approx(4312.04)
    assert results["sysbench:cpu"].unit == "event/s"
    assert results["sysbench:cpu"].params == {"threads": 1, "max_prime": 10000}
    assert results["sysbench:cpu:latency_p95"].value == pytest.approx(0.24)
    assert results["sysbench:cpu:latency_p95"].unit == "ms"
    assert output.warnings == []


def test_it_reads_a_1_1_report_with_its_throughput_block_and_rate_cap(shared_data):
    output = parsers.parse((shared_data / OLTP_1_1).read_bytes())

    results = by_key(output)
    assert output.tool_version == "1.1.0-df89d34"
    assert results["sysbench:oltp"].value == pytest.approx(143.01)
    assert results["sysbench:oltp:queries"].value == pytest.approx(3657.94)
    assert results["sysbench:oltp:latency_p95"].value == pytest.approx(68.05)
    assert any("capped at 143 transactions/s" in warning for warning in output.warnings)


@pytest.mark.parametrize("name", [OLTP_1_0, CPU_1_0, OLTP_1_1])
def test_every_sysbench_file_is_detected_and_parsed_through_the_package(shared_data, name):
    output = parsers.parse((shared_data / name).read_bytes())

    assert output.format == "sysbench"
    assert output.results


def test_the_shared_folder_holds_no_sysbench_file_these_tests_skip(shared_data):
    folder = shared_data / "parsers/sysbench"
    assert {f"parsers/sysbench/{path.name}" for path in folder.iterdir()} == {
        OLTP_1_0,
        CPU_1_0,
        OLTP_1_1,
    }


def test_the_command_line_names_the_oltp_test(shared_data):
    report = (shared_data / OLTP_1_0).read_text()
    text = "$ sysbench oltp_read_write --threads=16 --report-interval=2 run\n" + report

    output = sysbench.parse(text)

    assert {result.benchmark for result in output.results} == {
        "sysbench:oltp_read_write",
        "sysbench:oltp_read_write:queries",
        "sysbench:oltp_read_write:latency_p100",
        "sysbench:oltp_read_write:latency_avg",
    }
    assert output.warnings == []


# Several runs in one file -------------------------------------------------------------------

SEVERAL_RUNS = """\
ubuntu@ip-10-0-0-5:~$ sysbench /usr/share/sysbench/oltp_read_only.lua --threads=4 prepare
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Creating table 'sbtest1'...
Inserting 10000 records into 'sbtest1'
Creating a secondary index on 'sbtest1'...
ubuntu@ip-10-0-0-5:~$ sysbench cpu --threads=1 run
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 1
Initializing random number generator from current time


Prime numbers limit: 10000

Initializing worker threads...

Threads started!

CPU speed:
    events per second:  1003.51

General statistics:
    total time:                          10.0010s
    total number of events:              10037

Latency (ms):
         min:                                    0.98
         avg:                                    1.00
         max:                                    1.43
         95th percentile:                        1.01
         sum:                                 9995.20

Threads fairness:
    events (avg/stddev):           10037.0000/0.00
    execution time (avg/stddev):   9.9952/0.00

ubuntu@ip-10-0-0-5:~$ sysbench cpu --threads=4 run
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 4
Initializing random number generator from current time


Prime numbers limit: 10000

Initializing worker threads...

Threads started!

CPU speed:
    events per second:  3987.12

General statistics:
    total time:                          10.0008s
    total number of events:              39876

Latency (ms):
         min:                                    0.98
         avg:                                    1.00
         max:                                    5.04
         95th percentile:                        1.03
         sum:                                39979.86

Threads fairness:
    events (avg/stddev):           9969.0000/11.40
    execution time (avg/stddev):   9.9950/0.00

ubuntu@ip-10-0-0-5:~$ sysbench --threads=4 memory run
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 4
Initializing random number generator from current time


Running memory speed test with the following options:
  block size: 1KiB
  total size: 102400MiB
  operation: write
  scope: global

Initializing worker threads...

Threads started!

Total operations: 18852965 (1884178.24 per second)

18411.10 MiB transferred (1840.02 MiB/sec)


General statistics:
    total time:                          10.0010s
    total number of events:              18852965

Latency (ms):
         min:                                    0.00
         avg:                                    0.00
         max:                                   20.06
         95th percentile:                        0.00
         sum:                                21599.12

Threads fairness:
    events (avg/stddev):           4713241.2500/23170.12
    execution time (avg/stddev):   5.3998/0.00
"""


def test_each_run_of_a_file_with_several_runs_gives_its_own_results_in_order():
    output = sysbench.parse(SEVERAL_RUNS)

    rows = [(r.benchmark, r.params.get("threads"), r.value) for r in output.results]
    assert rows == [
        ("sysbench:cpu", 1, pytest.approx(1003.51)),
        ("sysbench:cpu:latency_p95", 1, pytest.approx(1.01)),
        ("sysbench:cpu", 4, pytest.approx(3987.12)),
        ("sysbench:cpu:latency_p95", 4, pytest.approx(1.03)),
        ("sysbench:memory", 4, pytest.approx(1840.02 * 1024**2)),
        ("sysbench:memory:operations", 4, pytest.approx(1884178.24)),
        ("sysbench:memory:latency_p95", 4, pytest.approx(0.0)),
    ]
    assert output.warnings == []


def test_a_memory_run_carries_its_block_size_and_operation():
    memory = [r for r in sysbench.parse(SEVERAL_RUNS).results if r.benchmark == "sysbench:memory"]

    assert memory[0].params == {"threads": 4, "block_size": 1024, "operation": "write"}
    assert memory[0].unit == "B/s"


# fileio -------------------------------------------------------------------------------------

FILEIO_1_0 = """\
root@pod-sysbench:/data# sysbench --file-total-size=10G --file-test-mode=seqrewr --time=60 \
--max-requests=0 --threads=10 fileio run
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 10
Initializing random number generator from current time


Extra file open flags: (none)
128 files, 80MiB each
10GiB total file size
Block size 16KiB
Periodic FSYNC enabled, calling fsync() each 100 requests.
Calling fsync() at the end of test, Enabled.
Using synchronous I/O mode
Doing sequential rewrite test
Initializing worker threads...

Threads started!


File operations:
    reads/s:                      0.00
    writes/s:                     18765.34
    fsyncs/s:                     24039.77

Throughput:
    read, MiB/s:                  0.00
    written, MiB/s:               293.21

General statistics:
    total time:                          60.0163s
    total number of events:              2567792

Latency (ms):
         min:                                    0.01
         avg:                                    0.23
         max:                                  134.99
         95th percentile:                        0.95
         sum:                               599140.65

Threads fairness:
    events (avg/stddev):           256779.2000/1102.48
    execution time (avg/stddev):   59.9141/0.00
"""


def test_a_fileio_run_gives_operations_and_bandwidth_for_the_direction_that_did_io():
    output = sysbench.parse(FILEIO_1_0)

    rows = [(r.benchmark, r.params, r.value, r.unit) for r in output.results]
    params = {"threads": 10, "mode": "seqrewr", "block_size": 16384, "direction": "write"}
    assert rows == [
        ("sysbench:fileio", params, pytest.approx(18765.34), "op/s"),
        ("sysbench:fileio:bandwidth", params, pytest.approx(293.21 * 1024**2), "B/s"),
        (
            "sysbench:fileio:latency_p95",
            {"threads": 10, "mode": "seqrewr", "block_size": 16384},
            pytest.approx(0.95),
            "ms",
        ),
    ]


FILEIO_1_1 = """\
2024-05-20T16:20:03 [root@node71 /root/tmp] $ sysbench fileio --file-num=2 \
--file-block-size=10240 --file-test-mode=rndrw --threads=4 run
sysbench 1.1.0-df89d34 (using bundled LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 4
Initializing random number generator from current time


Extra file open flags: directio
2 files, 5GiB each
10GiB total file size
Block size 10KiB
Number of IO requests: 0
Read/Write ratio for combined random IO test: 1.50
Periodic FSYNC enabled, calling fsync() each 200 requests.
Calling fsync() at the end of test, Enabled.
Using synchronous I/O mode
Doing random r/w test
Initializing worker threads...

Threads started!


Throughput:
         read:  IOPS=5434.45 53.07 MiB/s (55.65 MB/s)
         write: IOPS=3622.96 35.38 MiB/s (37.10 MB/s)
         fsync: IOPS=96.96

Latency (ms):
         min:                                  0.06
         avg:                                  0.44
         max:                                 37.16
         95th percentile:                      1.12
         sum:                               4358.00
"""


def test_a_1_1_fileio_report_reads_its_iops_lines():
    output = sysbench.parse(FILEIO_1_1)

    values = {(r.benchmark, r.params.get("direction")): r.value for r in output.results}
    assert values == {
        ("sysbench:fileio", "read"): pytest.approx(5434.45),
        ("sysbench:fileio:bandwidth", "read"): pytest.approx(53.07 * 1024**2),
        ("sysbench:fileio", "write"): pytest.approx(3622.96),
        ("sysbench:fileio:bandwidth", "write"): pytest.approx(35.38 * 1024**2),
        ("sysbench:fileio:latency_p95", None): pytest.approx(1.12),
    }
    assert output.results[0].params["block_size"] == 10240


# Bad input ----------------------------------------------------------------------------------


def test_a_run_that_failed_is_refused_with_sysbenchs_message_and_line():
    text = (
        "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
        "\n"
        "FATAL: Cannot find benchmark 'oltp_read_wirte': no such built-in test, file or module\n"
    )

    with pytest.raises(ParseError) as caught:
        sysbench.parse(text)

    assert "sysbench failed: Cannot find benchmark 'oltp_read_wirte'" in caught.value.message
    assert caught.value.line == 3


def test_a_report_cut_off_before_its_statistics_is_refused(shared_data):
    lines = (shared_data / CPU_1_0).read_text().splitlines()[:12]

    with pytest.raises(ParseError) as caught:
        sysbench.parse("\n".join(lines))

    assert "no sysbench results found" in caught.value.message
    assert caught.value.line == 1


def test_another_tools_output_given_as_sysbench_is_refused(shared_data):
    raw = (shared_data / "parsers/wrk/pkb_wrk_result.txt").read_bytes()

    with pytest.raises(ParseError, match="no sysbench results found"):
        parsers.parse(raw, format="sysbench")


def test_an_empty_file_is_refused():
    with pytest.raises(ParseError, match="the file is empty"):
        parsers.parse(b"", format="sysbench")


def test_an_oltp_run_keeps_its_mean_response_time_as_a_lower_is_better_result(shared_data):
    text = (
        shared_data / "parsers/sysbench/pkb_sysbench1.0.12_oltp_16thr_intermediate.txt"
    ).read_text()

    output = parsers.parse(text)

    (mean,) = [r for r in output.results if r.benchmark == "sysbench:oltp:latency_avg"]
    assert (mean.value, mean.unit, mean.higher_is_better, mean.params) == (
        16.21,
        "ms",
        False,
        {"threads": 16},
    )


def test_a_cpu_run_has_no_mean_response_time(shared_data):
    text = (shared_data / "parsers/sysbench/sunknudsen_sysbench1.0.20_cpu_1984vps.txt").read_text()

    output = parsers.parse(text)

    assert not [r for r in output.results if r.benchmark.endswith(":latency_avg")]
