"""wrk parser: real wrk and wrk2 outputs, latency distributions, errors, several runs."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, wrk

PKB = "parsers/wrk/pkb_wrk_result.txt"
WRK2 = "parsers/wrk/vc_wrkStandardExample1.txt"


def by_key(output):
    return {result.benchmark: result for result in output.results}


def test_it_reads_requests_transfer_and_latency_of_a_wrk_run(shared_data):
    output = wrk.parse((shared_data / PKB).read_text())

    results = by_key(output)
    assert output.format == "wrk"
    assert results["wrk:http"].value == pytest.approx(9605.69)
    assert results["wrk:http"].unit == "req/s"
    assert results["wrk:http"].params == {"duration_s": 60, "threads": 2, "connections": 2}
    assert results["wrk:http:transfer"].value == pytest.approx(2.38 * 1024**2)
    assert results["wrk:http:transfer"].unit == "B/s"
    assert results["wrk:http:latency_avg"].value == pytest.approx(0.21837)
    assert results["wrk:http:latency_avg"].higher_is_better is False
    assert output.warnings == []


def test_it_reads_the_percentiles_of_a_perfkitbenchmarker_csv_appendix(shared_data):
    results = by_key(wrk.parse((shared_data / PKB).read_text()))

    assert results["wrk:http:latency_p50"].value == pytest.approx(0.187)
    assert results["wrk:http:latency_p99"].value == pytest.approx(0.519)
    assert results["wrk:http:latency_p99_9"].value == pytest.approx(5.196)
    assert results["wrk:http:latency_p99_9"].unit == "ms"


def test_it_reads_a_wrk2_run_with_its_recorded_latency_distribution(shared_data):
    output = wrk.parse((shared_data / WRK2).read_text())

    results = by_key(output)
    assert results["wrk:http"].value == pytest.approx(16305.17)
    assert results["wrk:http"].params == {"duration_s": 60, "threads": 2, "connections": 20}
    assert results["wrk:http:transfer"].value == pytest.approx(20.01 * 1024**2)
    assert results["wrk:http:latency_avg"].value == pytest.approx(29270)
    assert results["wrk:http:latency_p50"].value == pytest.approx(29560)
    assert results["wrk:http:latency_p99"].value == pytest.approx(49740)
    assert results["wrk:http:latency_p99_999"].value == pytest.approx(50230)
    assert results["wrk:http:latency_p100"].value == pytest.approx(50230)


def test_a_wrk2_run_warns_that_its_rate_was_fixed(shared_data):
    output = wrk.parse((shared_data / WRK2).read_text())

    assert output.warnings == [
        "the run at line 1 is wrk2: its Requests/sec is the rate it was told to hold (-R), "
        "not the server's maximum"
    ]


@pytest.mark.parametrize("name", [PKB, WRK2])
def test_every_wrk_file_is_detected_and_parsed_through_the_package(shared_data, name):
    output = parsers.parse((shared_data / name).read_bytes())

    assert output.format == "wrk"
    assert output.results[0].benchmark == "wrk:http"


def test_the_shared_folder_holds_no_wrk_file_these_tests_skip(shared_data):
    names = {f"parsers/wrk/{path.name}" for path in (shared_data / "parsers/wrk").iterdir()}
    assert names == {PKB, WRK2}


# Inline outputs -----------------------------------------------------------------------------

WITH_ERRORS = """\
Running 30s test @ http://127.0.0.1:8080/index.html
  12 threads and 400 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   635.91us    0.89ms  12.92ms   93.69%
    Req/Sec    56.20k     8.07k   62.00k    86.54%
  Latency Distribution
     50%  250.00us
     75%  491.00us
     90%  700.00us
     99%    5.80ms
  22464657 requests in 30.00s, 17.76GB read
  Socket errors: connect 0, read 0, write 0, timeout 8
  Non-2xx or 3xx responses: 1234
Requests/sec: 748868.53
Transfer/sec:    606.33MB
"""


def test_a_run_with_errors_keeps_its_results_and_warns_naming_them():
    output = wrk.parse(WITH_ERRORS)

    results = by_key(output)
    assert results["wrk:http"].value == pytest.approx(748868.53)
    assert results["wrk:http"].params == {"duration_s": 30, "threads": 12, "connections": 400}
    assert results["wrk:http:latency_p50"].value == pytest.approx(0.25)
    assert results["wrk:http:latency_p99"].value == pytest.approx(5.80)
    assert output.warnings == [
        "the wrk run at line 1 had errors: socket timeout errors: 8, 1234 non-2xx/3xx responses"
    ]


WRK2_README = """\
Running 30s test @ http://127.0.0.1:80/index.html
  2 threads and 100 connections
  Thread calibration: mean lat.: 10087 usec, rate sampling interval: 22 msec
  Thread calibration: mean lat.: 10139 usec, rate sampling interval: 21 msec
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     6.60ms    1.92ms  12.50ms   68.46%
    Req/Sec     1.04k     1.08k    2.50k    72.79%
  Latency Distribution (HdrHistogram - Recorded Latency)
 50.000%    6.67ms
 75.000%    7.78ms
 90.000%    9.14ms
 99.000%   11.18ms
 99.900%   12.30ms
 99.990%   12.45ms
 99.999%   12.50ms
100.000%   12.50ms

  Detailed Percentile spectrum:
       Value   Percentile   TotalCount 1/(1-Percentile)

       0.921     0.000000            1         1.00
       4.053     0.100000         3951         1.11
      12.503     1.000000        48310          inf
#[Mean    =        6.602, StdDeviation   =        1.919]
#[Max     =       12.496, Total count    =        48310]
#[Buckets =           27, SubBuckets     =         2048]
----------------------------------------------------------

  Latency Distribution (HdrHistogram - Uncorrected Latency (measured without taking delayed \
starts into account))
 50.000%    1.01ms
 99.000%    2.02ms
  60018 requests in 30.00s, 19.81MB read
Requests/sec:   2000.28
Transfer/sec:    676.18KB
"""


def test_a_wrk2_run_reads_only_its_first_recorded_latency_distribution():
    output = parsers.parse(WRK2_README.encode())

    results = by_key(output)
    assert output.format == "wrk"
    assert results["wrk:http"].value == pytest.approx(2000.28)
    assert results["wrk:http:transfer"].value == pytest.approx(676.18 * 1024)
    assert results["wrk:http:latency_p50"].value == pytest.approx(6.67)
    assert results["wrk:http:latency_p99"].value == pytest.approx(11.18)
    assert results["wrk:http:latency_p99_99"].value == pytest.approx(12.45)
    assert "wrk2" in output.warnings[0]


def test_each_run_of_a_file_with_several_runs_gives_its_own_results_in_order(shared_data):
    text = "$ wrk -t2 -c2 -d1m http://10.240.0.46/OK\n" + WITH_ERRORS + WRK2_README

    output = wrk.parse(text)

    requests = [
        (r.value, r.params["connections"]) for r in output.results if r.benchmark == "wrk:http"
    ]
    assert requests == [(pytest.approx(748868.53), 400), (pytest.approx(2000.28), 100)]
    assert output.warnings[0].startswith("the wrk run at line 2 had errors")
    assert output.warnings[1].startswith("the run at line 17 is wrk2")


# Bad input ----------------------------------------------------------------------------------


def test_a_run_cut_off_before_its_requests_line_is_refused(shared_data):
    lines = (shared_data / PKB).read_text().splitlines()[:6]

    with pytest.raises(ParseError) as caught:
        wrk.parse("\n".join(lines))

    assert "no 'Requests/sec:' line" in caught.value.message
    assert caught.value.line == 1


def test_another_tools_output_given_as_wrk_is_refused(shared_data):
    raw = (shared_data / "parsers/sysbench/sunknudsen_sysbench1.0.20_cpu_1984vps.txt").read_bytes()

    with pytest.raises(ParseError, match="no 'Requests/sec:' line"):
        parsers.parse(raw, format="wrk")
