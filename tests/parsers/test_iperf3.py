"""iperf3 parser: real JSON and text reports, UDP, Windows and legacy layouts, bad input."""

import json

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, iperf3

JSON_FILE = "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json"
TEXT_FILE = "parsers/iperf3/moler_iperf3_tcp_P3_text_client.txt"


def by_key_and_direction(output):
    return {(r.benchmark, r.params.get("direction")): r for r in output.results}


def test_it_reads_sum_sent_and_sum_received_from_the_json(shared_data):
    output = iperf3.parse((shared_data / JSON_FILE).read_text())

    results = by_key_and_direction(output)
    assert output.format == "iperf3"
    assert output.tool_version == "3.21"
    assert results["iperf3:tcp", "send"].value == pytest.approx(8377775.536231653)
    assert results["iperf3:tcp", "receive"].value == pytest.approx(8377265.182942295)
    assert results["iperf3:tcp", "receive"].params == {
        "streams": 2,
        "direction": "receive",
        "processes": 1,
    }
    assert results["iperf3:tcp", "receive"].unit == "bit/s"
    assert len(output.results) == 2


def test_it_warns_that_a_json_run_with_a_target_bitrate_measured_that_target(shared_data):
    output = iperf3.parse((shared_data / JSON_FILE).read_text())

    assert any("target rate of 4e+06 bit/s" in warning for warning in output.warnings)


def test_it_reads_the_sum_rows_of_the_text_report_in_bits_per_second(shared_data):
    output = iperf3.parse((shared_data / TEXT_FILE).read_text())

    results = by_key_and_direction(output)
    assert results["iperf3:tcp", "send"].value == pytest.approx(22.3e9)
    assert results["iperf3:tcp", "receive"].value == pytest.approx(22.2e9)
    assert results["iperf3:tcp", "send"].params == {
        "streams": 3,
        "direction": "send",
        "processes": 1,
    }
    assert len(output.results) == 2
    assert output.warnings == []


@pytest.mark.parametrize("name", [JSON_FILE, TEXT_FILE])
def test_every_iperf3_file_is_detected_and_parsed_through_the_package(shared_data, name):
    output = parsers.parse((shared_data / name).read_bytes())

    assert output.format == "iperf3"
    assert {result.benchmark for result in output.results} == {"iperf3:tcp"}


def test_the_shared_folder_holds_no_iperf3_file_these_tests_skip(shared_data):
    names = {f"parsers/iperf3/{path.name}" for path in (shared_data / "parsers/iperf3").iterdir()}
    assert names == {JSON_FILE, TEXT_FILE}


def test_each_run_of_a_text_file_with_several_runs_gives_its_own_results(shared_data):
    report = (shared_data / TEXT_FILE).read_text()

    output = iperf3.parse(report + "\n" + OMITTED_AND_BYTES_TEXT)

    rows = [(r.params["streams"], r.params["direction"], r.value) for r in output.results]
    assert rows == [
        (3, "send", pytest.approx(22.3e9)),
        (3, "receive", pytest.approx(22.2e9)),
        (1, "send", pytest.approx(112 * 1024**2 * 8)),
        (1, "receive", pytest.approx(111 * 1024**2 * 8)),
    ]


# UDP ----------------------------------------------------------------------------------------

UDP_JSON_BEFORE_3_11 = {
    "start": {
        "connected": [
            {
                "socket": 5,
                "local_host": "10.0.0.2",
                "local_port": 43210,
                "remote_host": "10.0.0.1",
                "remote_port": 5201,
            }
        ],
        "version": "iperf 3.9",
        "system_info": "Linux client 5.15.0-91-generic #101-Ubuntu SMP x86_64",
        "connecting_to": {"host": "10.0.0.1", "port": 5201},
        "test_start": {
            "protocol": "UDP",
            "num_streams": 1,
            "blksize": 1448,
            "omit": 0,
            "duration": 10,
            "bytes": 0,
            "blocks": 0,
            "reverse": 0,
            "tos": 0,
        },
    },
    "intervals": [],
    "end": {
        "streams": [
            {
                "udp": {
                    "socket": 5,
                    "start": 0,
                    "end": 10.000185,
                    "seconds": 10.000185,
                    "bytes": 1311048,
                    "bits_per_second": 1048818.8,
                    "jitter_ms": 0.0123,
                    "lost_packets": 3,
                    "packets": 906,
                    "lost_percent": 0.3311,
                    "out_of_order": 0,
                    "sender": True,
                }
            }
        ],
        "sum": {
            "start": 0,
            "end": 10.000185,
            "seconds": 10.000185,
            "bytes": 1311048,
            "bits_per_second": 1048818.8,
            "jitter_ms": 0.0123,
            "lost_packets": 3,
            "packets": 906,
            "lost_percent": 0.3311,
            "sender": True,
        },
        "cpu_utilization_percent": {"host_total": 1.2, "remote_total": 0.3},
    },
}


def test_a_udp_json_before_3_11_gives_throughput_jitter_and_loss():
    output = iperf3.parse(json.dumps(UDP_JSON_BEFORE_3_11, indent=2))

    results = by_key_and_direction(output)
    assert results["iperf3:udp", "send"].value == pytest.approx(1048818.8)
    assert results["iperf3:udp:jitter", None].value == pytest.approx(0.0123)
    assert results["iperf3:udp:jitter", None].unit == "ms"
    assert results["iperf3:udp:jitter", None].higher_is_better is False
    assert results["iperf3:udp:loss", None].value == pytest.approx(0.3311)
    assert results["iperf3:udp:loss", None].unit == "percent"
    assert results["iperf3:udp:loss", None].params == {"streams": 1, "processes": 1}
    assert output.tool_version == "3.9"


def test_a_udp_json_with_sum_sent_and_sum_received_takes_quality_from_the_receiver():
    document = json.loads(json.dumps(UDP_JSON_BEFORE_3_11))
    document["end"]["sum_sent"] = {
        **document["end"]["sum"],
        "jitter_ms": 0,
        "lost_packets": 0,
        "lost_percent": 0,
    }
    document["end"]["sum_received"] = {
        **document["end"]["sum"],
        "bits_per_second": 1040000.5,
        "jitter_ms": 0.021,
        "lost_percent": 1.5,
    }

    results = by_key_and_direction(iperf3.parse(json.dumps(document)))

    assert results["iperf3:udp", "send"].value == pytest.approx(1048818.8)
    assert results["iperf3:udp", "receive"].value == pytest.approx(1040000.5)
    assert results["iperf3:udp:jitter", None].value == pytest.approx(0.021)
    assert results["iperf3:udp:loss", None].value == pytest.approx(1.5)


UDP_TEXT = """\
Connecting to host 10.0.0.1, port 5201
[  5] local 10.0.0.2 port 51234 connected to 10.0.0.1 port 5201
[ ID] Interval           Transfer     Bitrate         Total Datagrams
[  5]   0.00-1.00   sec  1.19 MBytes  10.0 Mbits/sec  863
[  5]   1.00-2.00   sec  1.19 MBytes  10.0 Mbits/sec  864
- - - - - - - - - - - - - - - - - - - - - - - - -
[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams
[  5]   0.00-10.00  sec  11.9 MBytes  10.0 Mbits/sec  0.000 ms  0/8634 (0%)  sender
[  5]   0.00-10.04  sec  11.9 MBytes  9.96 Mbits/sec  0.014 ms  12/8634 (0.14%)  receiver

iperf Done.
"""


def test_a_udp_text_report_gives_the_receivers_jitter_and_loss():
    output = iperf3.parse(UDP_TEXT)

    results = by_key_and_direction(output)
    assert results["iperf3:udp", "send"].value == pytest.approx(10.0e6)
    assert results["iperf3:udp", "receive"].value == pytest.approx(9.96e6)
    assert results["iperf3:udp:jitter", None].value == pytest.approx(0.014)
    assert results["iperf3:udp:loss", None].value == pytest.approx(100 * 12 / 8634)


OLD_UDP_TEXT = """\
Connecting to host 10.0.0.1, port 5201
[  4] local 10.0.0.2 port 50123 connected to 10.0.0.1 port 5201
[ ID] Interval           Transfer     Bandwidth       Total Datagrams
[  4]   0.00-1.00   sec   120 KBytes   983 Kbits/sec  15
[  4]   1.00-2.00   sec   128 KBytes  1.05 Mbits/sec  16
- - - - - - - - - - - - - - - - - - - - - - - - -
[ ID] Interval           Transfer     Bandwidth       Jitter    Lost/Total Datagrams
[  4]   0.00-10.00  sec  1.25 MBytes  1.05 Mbits/sec  0.067 ms  1/159 (0.63%)
[  4] Sent 159 datagrams

iperf Done.
"""


def test_an_iperf_3_1_udp_report_without_sender_receiver_labels_is_read_as_sent():
    output = iperf3.parse(OLD_UDP_TEXT)

    results = by_key_and_direction(output)
    assert results["iperf3:udp", "send"].value == pytest.approx(1.05e6)
    assert ("iperf3:udp", "receive") not in results
    assert results["iperf3:udp:jitter", None].value == pytest.approx(0.067)
    assert results["iperf3:udp:loss", None].value == pytest.approx(100 / 159)


# Other layouts ------------------------------------------------------------------------------

WINDOWS_TEXT = (
    "C:\\iperf3>iperf3.exe -c 192.168.1.10 -P 2\r\n"
    "Connecting to host 192.168.1.10, port 5201\r\n"
    "[  4] local 192.168.1.20 port 50712 connected to 192.168.1.10 port 5201\r\n"
    "[  6] local 192.168.1.20 port 50713 connected to 192.168.1.10 port 5201\r\n"
    "[ ID] Interval           Transfer     Bandwidth\r\n"
    "[  4]   0.00-1.00   sec  55.1 MBytes   462 Mbits/sec\r\n"
    "[  6]   0.00-1.00   sec  55.0 MBytes   461 Mbits/sec\r\n"
    "[SUM]   0.00-1.00   sec   110 MBytes   923 Mbits/sec\r\n"
    "- - - - - - - - - - - - - - - - - - - - - - - - -\r\n"
    "[ ID] Interval           Transfer     Bandwidth\r\n"
    "[  4]   0.00-10.00  sec   546 MBytes   458 Mbits/sec                  sender\r\n"
    "[  4]   0.00-10.00  sec   546 MBytes   458 Mbits/sec                  receiver\r\n"
    "[  6]   0.00-10.00  sec   545 MBytes   457 Mbits/sec                  sender\r\n"
    "[  6]   0.00-10.00  sec   545 MBytes   457 Mbits/sec                  receiver\r\n"
    "[SUM]   0.00-10.00  sec  1.07 GBytes   915 Mbits/sec                  sender\r\n"
    "[SUM]   0.00-10.00  sec  1.07 GBytes   914 Mbits/sec                  receiver\r\n"
    "\r\n"
    "iperf Done.\r\n"
    "\r\n"
    "C:\\iperf3>"
)


def test_a_windows_report_without_the_retr_column_and_with_crlf_is_read():
    output = parsers.parse(WINDOWS_TEXT.encode())

    results = by_key_and_direction(output)
    assert output.format == "iperf3"
    assert results["iperf3:tcp", "send"].value == pytest.approx(915e6)
    assert results["iperf3:tcp", "receive"].value == pytest.approx(914e6)
    assert results["iperf3:tcp", "send"].params["streams"] == 2


OMITTED_AND_BYTES_TEXT = """\
iperf 3.7 (cJSON 1.5.2)
Connecting to host 10.0.0.1, port 5201
[  5] local 10.0.0.2 port 40000 connected to 10.0.0.1 port 5201
[ ID] Interval           Transfer     Bitrate         Retr  Cwnd
[  5]   0.00-1.00   sec   500 MBytes   500 MBytes/sec    0    386 KBytes       (omitted)
[  5]   0.00-1.00   sec   112 MBytes   112 MBytes/sec    0    386 KBytes
- - - - - - - - - - - - - - - - - - - - - - - - -
[ ID] Interval           Transfer     Bitrate         Retr
[  5]   0.00-10.00  sec  1.10 GBytes   112 MBytes/sec    3             sender
[  5]   0.00-10.00  sec  1.10 GBytes   111 MBytes/sec                  receiver
"""


def test_omitted_intervals_are_skipped_and_byte_rates_become_bits():
    output = iperf3.parse(OMITTED_AND_BYTES_TEXT)

    results = by_key_and_direction(output)
    assert output.tool_version == "3.7"
    assert results["iperf3:tcp", "send"].value == pytest.approx(112 * 1024**2 * 8)
    assert results["iperf3:tcp", "receive"].value == pytest.approx(111 * 1024**2 * 8)
    assert results["iperf3:tcp", "send"].params == {
        "streams": 1,
        "direction": "send",
        "processes": 1,
    }


# Bad input ----------------------------------------------------------------------------------


def test_a_json_that_stopped_with_an_error_is_refused_with_that_error():
    document = {
        "start": {"connected": [], "version": "iperf 3.9", "test_start": {"protocol": "TCP"}},
        "intervals": [],
        "end": {},
        "error": "unable to connect to server: Connection refused",
    }

    with pytest.raises(ParseError, match="unable to connect to server: Connection refused"):
        iperf3.parse(json.dumps(document))


def test_a_truncated_json_names_the_line_where_it_stops(shared_data):
    lines = (shared_data / JSON_FILE).read_text().splitlines()[:40]

    with pytest.raises(ParseError) as caught:
        iperf3.parse("\n".join(lines))

    assert "ends before it is complete" in caught.value.message
    assert caught.value.line == 40


def test_a_text_report_cut_off_before_its_summary_is_refused(shared_data):
    lines = (shared_data / TEXT_FILE).read_text().splitlines()[:20]

    with pytest.raises(ParseError, match="no sender/receiver summary"):
        iperf3.parse("\n".join(lines))


def test_another_tools_output_given_as_iperf3_is_refused(shared_data):
    raw = (shared_data / "parsers/wrk/pkb_wrk_result.txt").read_bytes()

    with pytest.raises(ParseError) as caught:
        parsers.parse(raw, format="iperf3")

    assert "not iperf3 output" in caught.value.message
    assert caught.value.line == 1


def test_an_empty_file_is_refused():
    with pytest.raises(ParseError, match="the file is empty"):
        parsers.parse(b"  \n", format="iperf3")


def test_looks_like_does_not_claim_fio_json(shared_data):
    text = (shared_data / "parsers/fio/vc_fio3.26_randrw_4k_libaio.json").read_text()

    assert not iperf3.looks_like(text)
