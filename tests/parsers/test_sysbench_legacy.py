"""sysbench parser: legacy 0.4 reports (cpu, oltp, memory, fileio), their figures over the
run's total time."""

import pytest

from benchmarks.parsers import sysbench
from tests.parsers.test_sysbench import by_key

LEGACY_CPU = """\
root@iZbp107984k6l9khwapbruZ:~# sysbench --test=cpu --cpu-max-prime=20000 run
sysbench 0.4.12:  multi-threaded system evaluation benchmark

Running the test with following options:
Number of threads: 1

Doing CPU performance benchmark

Threads started!
Done.

Maximum prime number checked in CPU test: 20000


Test execution summary:
    total time:                          26.0489s
    total number of events:              10000
    total time taken by event execution: 26.0473
    per-request statistics:
         min:                                  2.59ms
         avg:                                  2.60ms
         max:                                  3.75ms
         approx.  95 percentile:               2.62ms

Threads fairness:
    events (avg/stddev):           10000.0000/0.00
    execution time (avg/stddev):   26.0473/0.00
"""


def test_a_legacy_cpu_run_gives_events_over_total_time():
    output = sysbench.parse(LEGACY_CPU)

    results = by_key(output)
    assert output.tool_version == "0.4.12"
    assert results["sysbench:cpu"].value == pytest.approx(10000 / 26.0489)
    assert results["sysbench:cpu"].params == {"threads": 1, "max_prime": 20000}
    assert results["sysbench:cpu:latency_p95"].value == pytest.approx(2.62)


LEGACY_OLTP = """\
sysbench 0.4.12:  multi-threaded system evaluation benchmark

No DB drivers specified, using mysql
Running the test with following options:
Number of threads: 8

Doing OLTP test.
Running mixed OLTP test
Using Special distribution (12 iterations,  1 pct of values are returned in 75 pct cases)
Using "BEGIN" for starting transactions
Using auto_inc on the id column
Maximum number of requests for OLTP test is limited to 10000
Threads started!
Done.

OLTP test statistics:
    queries performed:
        read:                            140000
        write:                           50000
        other:                           20000
        total:                           210000
    transactions:                        10000  (1213.38 per sec.)
    deadlocks:                           0      (0.00 per sec.)
    read/write requests:                 190000 (23054.27 per sec.)
    other operations:                    20000  (2426.77 per sec.)

Test execution summary:
    total time:                          8.2414s
    total number of events:              10000
    total time taken by event execution: 65.8476
    per-request statistics:
         min:                                  2.42ms
         avg:                                  6.58ms
         max:                                 39.24ms
         approx.  95 percentile:              10.79ms

Threads fairness:
    events (avg/stddev):           1250.0000/22.31
    execution time (avg/stddev):   8.2310/0.00
"""


def test_a_legacy_oltp_run_counts_read_write_requests_and_other_operations_as_queries():
    output = sysbench.parse(LEGACY_OLTP)

    results = by_key(output)
    assert results["sysbench:oltp"].value == pytest.approx(1213.38)
    assert results["sysbench:oltp"].params == {"threads": 8}
    assert results["sysbench:oltp:queries"].value == pytest.approx(23054.27 + 2426.77)
    assert results["sysbench:oltp:latency_p95"].value == pytest.approx(10.79)
    assert output.warnings == []


LEGACY_MEMORY = """\
root@web4:~# sysbench --test=memory --memory-block-size=1M --memory-total-size=10G run
sysbench 0.4.12:  multi-threaded system evaluation benchmark

Running the test with following options:
Number of threads: 1

Doing memory operations speed test
Memory block size: 1024K

Memory transfer size: 10240M

Memory operations type: write
Memory scope type: global
Threads started!
Done.

Operations performed: 10240 ( 4005.30 ops/sec)

10240.00 MB transferred (4005.30 MB/sec)


Test execution summary:
    total time:                          2.5566s
    total number of events:              10240
    total time taken by event execution: 2.5520
    per-request statistics:
         min:                                  0.24ms
         avg:                                  0.25ms
         max:                                  0.30ms
         approx.  95 percentile:               0.25ms
"""


def test_a_legacy_memory_run_reads_its_mebibytes_per_second():
    results = by_key(sysbench.parse(LEGACY_MEMORY))

    assert results["sysbench:memory"].value == pytest.approx(4005.30 * 1024**2)
    assert results["sysbench:memory"].params == {
        "threads": 1,
        "block_size": 1024**2,
        "operation": "write",
    }
    assert results["sysbench:memory:operations"].value == pytest.approx(4005.30)


LEGACY_FILEIO = """\
[root@localhost ~]# sysbench --test=fileio --num-threads=16 --file-total-size=3G \
--file-test-mode=rndrw run
sysbench 0.4.12:  multi-threaded system evaluation benchmark

Running the test with following options:
Number of threads: 16

Extra file open flags: 0
128 files, 24Mb each
3Gb total file size
Block size 16Kb
Number of random requests for random IO: 10000
Read/Write ratio for combined random IO test: 1.50
Periodic FSYNC enabled, calling fsync() each 100 requests.
Calling fsync() at the end of test, Enabled.
Using synchronous I/O mode
Doing random r/w test
Threads started!
Done.

Operations performed:  6008 Read, 3997 Write, 12800 Other = 22805 Total
Read 93.875Mb  Written 62.453Mb  Total transferred 156.33Mb  (2.9644Mb/sec)
  189.72 Requests/sec executed

Test execution summary:
    total time:                          52.7348s
    total number of events:              10005
    total time taken by event execution: 434.9929
    per-request statistics:
         min:                                  0.01ms
         avg:                                 43.48ms
         max:                               1105.16ms
         approx.  95 percentile:             180.46ms
"""


def test_a_legacy_fileio_run_gives_rates_over_its_total_time():
    output = sysbench.parse(LEGACY_FILEIO)

    values = {(r.benchmark, r.params.get("direction")): r.value for r in output.results}
    assert values[("sysbench:fileio", "read")] == pytest.approx(6008 / 52.7348)
    assert values[("sysbench:fileio", "write")] == pytest.approx(3997 / 52.7348)
    assert values[("sysbench:fileio:bandwidth", "read")] == pytest.approx(
        93.875 * 1024**2 / 52.7348
    )
    assert values[("sysbench:fileio:latency_p95", None)] == pytest.approx(180.46)
    assert output.results[0].params == {
        "threads": 16,
        "mode": "rndrw",
        "block_size": 16384,
        "direction": "read",
    }
