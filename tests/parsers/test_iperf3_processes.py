"""iperf3 measurements of several processes run at once (study S3), and capped runs.

The processes' outputs are the real iperf3 3.21 JSON of ../shared/data/parsers/iperf3/ with
their figures changed (one stream, no target rate, each process's own bandwidth): the
layout and every other field stay iperf3's own.
"""

import copy
import json

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, iperf3

JSON_FILE = "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json"
TEXT_FILE = "parsers/iperf3/moler_iperf3_tcp_P3_text_client.txt"


def single_stream(document: dict, gbit_per_second: float, *, streams: int = 1) -> str:
    """The real output as one process of `streams` streams that measured this bandwidth."""
    process = copy.deepcopy(document)
    process["start"]["test_start"]["num_streams"] = streams
    process["start"]["test_start"]["target_bitrate"] = 0
    process["end"]["sum_sent"]["bits_per_second"] = gbit_per_second * 1e9
    process["end"]["sum_received"]["bits_per_second"] = gbit_per_second * 1e9 * 0.999
    return json.dumps(process, indent=2)


@pytest.fixture
def document(shared_data):
    return json.loads((shared_data / JSON_FILE).read_text(encoding="utf-8-sig"))


def thirty_processes(document) -> str:
    return iperf3.join_processes(
        [(f"p{n}.json", single_stream(document, 3.0 + n / 10)) for n in range(1, 31)]
    )


def test_it_sums_thirty_single_stream_processes_into_one_result_per_direction(document):
    output = parsers.parse(thirty_processes(document))

    expected = sum(3.0 + n / 10 for n in range(1, 31)) * 1e9
    results = {r.params["direction"]: r for r in output.results}
    assert output.format == "iperf3"
    assert results["send"].value == pytest.approx(expected)
    assert results["receive"].value == pytest.approx(expected * 0.999)
    assert results["send"].params == {"streams": 1, "direction": "send", "processes": 30}
    assert output.warnings == []


def test_a_single_output_is_one_process(shared_data):
    output = iperf3.parse((shared_data / TEXT_FILE).read_text())

    assert {r.params["processes"] for r in output.results} == {1}


def test_text_reports_of_several_processes_are_summed_too(shared_data):
    report = (shared_data / TEXT_FILE).read_text()

    output = iperf3.parse(iperf3.join_processes([("a.txt", report), ("b.txt", report)]))

    results = {r.params["direction"]: r.value for r in output.results}
    assert results == {"send": pytest.approx(2 * 22.3e9), "receive": pytest.approx(2 * 22.2e9)}


def test_processes_with_different_stream_counts_are_refused_naming_the_process(document):
    text = iperf3.join_processes(
        [("a.json", single_stream(document, 5)), ("b.json", single_stream(document, 5, streams=4))]
    )

    with pytest.raises(ParseError) as caught:
        iperf3.parse(text)
    assert "process 2 of 2 (b.json): ran 4 streams" in str(caught.value)
    assert caught.value.line == text.splitlines().index("==> b.json <==") + 2


def test_a_broken_process_is_named_with_its_line_in_the_whole_text(document):
    text = iperf3.join_processes([("a.json", single_stream(document, 5)), ("b.json", "{")])

    with pytest.raises(ParseError) as caught:
        iperf3.parse(text)
    assert "process 2 of 2 (b.json)" in str(caught.value)
    assert caught.value.line >= text.splitlines().index("==> b.json <==") + 2


def test_text_before_the_first_process_is_refused():
    with pytest.raises(ParseError, match="before the first"):
        iperf3.parse("hello\n==> a.json <==\n{}\n")


def test_a_sender_at_a_full_core_is_warned_of_as_capped_by_its_sender(document):
    capped = copy.deepcopy(document)
    capped["end"]["cpu_utilization_percent"]["host_total"] = 99.6

    output = iperf3.parse(json.dumps(capped))

    assert any(
        w.startswith("capped by its sender: the sender's iperf3 used 99.6%")
        for w in output.warnings
    )


def test_a_reversed_test_makes_the_client_the_receiver(document):
    capped = copy.deepcopy(document)
    capped["start"]["test_start"]["reverse"] = 1
    capped["start"]["test_start"]["target_bitrate"] = 0
    capped["end"]["cpu_utilization_percent"]["host_total"] = 100.0

    output = iperf3.parse(json.dumps(capped))

    assert [w.split(":")[0] for w in output.warnings] == ["capped by its receiver"]


def test_the_target_rate_of_the_real_file_is_a_sender_cap(shared_data):
    output = iperf3.parse((shared_data / JSON_FILE).read_text())

    assert any(
        w.startswith("capped by its sender: the test sent at a target rate")
        for w in output.warnings
    )


def test_a_verbose_text_report_with_a_busy_receiver_is_capped_by_its_receiver(shared_data):
    report = (
        (shared_data / TEXT_FILE)
        .read_text()
        .replace(
            "iperf Done.",
            "CPU Utilization: local/sender 40.1% (2.0%u/38.1%s), "
            "remote/receiver 97.3% (5.0%u/92.3%s)\n\niperf Done.",
        )
    )

    output = iperf3.parse(report)

    assert output.warnings == ["capped by its receiver: the receiver's iperf3 used 97.3% of a core"]


def test_a_capped_process_is_named_in_the_measurements_warnings(document):
    capped = json.loads(single_stream(document, 5))
    capped["end"]["cpu_utilization_percent"]["remote_total"] = 98.0
    text = iperf3.join_processes(
        [("a.json", single_stream(document, 5)), ("b.json", json.dumps(capped))]
    )

    output = iperf3.parse(text)

    assert any(
        w.startswith("process 2 of 2 (b.json): capped by its receiver") for w in output.warnings
    )
