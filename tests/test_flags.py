"""Flags: which parser warnings and notes take a run's figures out of the statistics."""

import json

from benchmarks import flags, parsers
from tests.conftest import SHARED_DATA

IPERF3_CAPPED = SHARED_DATA / "parsers" / "iperf3" / "iperf3lib_3.21_tcp_P2_loopback_client.json"


def test_an_iperf3_test_sent_at_a_target_rate_is_capped():
    # The client ran with -b 4M per stream: its figures measure the target, not the link.
    output = parsers.parse(IPERF3_CAPPED.read_text(encoding="utf-8-sig"), format="iperf3")
    assert flags.run_flags(output.warnings) == [flags.CAPPED]


def test_an_iperf3_test_at_full_speed_is_not_flagged():
    document = json.loads(IPERF3_CAPPED.read_text(encoding="utf-8-sig"))
    document["start"]["test_start"]["target_bitrate"] = 0
    output = parsers.parse(json.dumps(document), format="iperf3")
    assert output.warnings == []
    assert flags.run_flags(output.warnings) == []


def test_a_tool_error_and_an_incomplete_report_flag_the_run():
    document = json.loads(IPERF3_CAPPED.read_text(encoding="utf-8-sig"))
    document["start"]["test_start"]["target_bitrate"] = 0
    document["error"] = "interrupt - the client has terminated"
    output = parsers.parse(json.dumps(document), format="iperf3")
    assert flags.run_flags(output.warnings) == [flags.TOOL_ERROR]
    passmark = "line 40: PassMark says its results are not complete (Results Complete: false)"
    assert flags.run_flags([passmark]) == [flags.INCOMPLETE]


def test_warnings_that_leave_the_figures_standing_flag_nothing():
    benign = [
        "skipped figures of 0, the harness's value when it could not read memtier's output: x",
        "unknown columns: colour",
        "only the first JSON document is read; the text after it is not",
    ]
    assert flags.run_flags(benign) == []
    assert flags.flag_of(benign, None) is None


def test_a_static_web_result_with_failed_responses_is_flagged_by_its_note():
    import tarfile

    from tests.parsers.conftest import INSPECTOR_ARCHIVE

    with tarfile.open(INSPECTOR_ARCHIVE, "r:xz") as archive:
        member = archive.getmember("aws/c8g.metal-48xl/static_web/stdout")
        text = parsers.decode(archive.extractfile(member).read())
    output = parsers.parse(text, format="static_web")
    notes = {result.notes for result in output.results}
    assert {flags.result_flag(note) for note in notes} == {None, flags.FAILED_RESPONSES}
    # The warning about them names the results; the run's other figures stand.
    assert flags.run_flags(output.warnings) == []
    assert flags.flag_of([], "4 responses were not 2xx or 3xx") == flags.FAILED_RESPONSES


def test_an_iperf3_test_whose_receiver_used_a_whole_core_is_capped():
    document = json.loads(IPERF3_CAPPED.read_text(encoding="utf-8-sig"))
    document["start"]["test_start"]["target_bitrate"] = 0
    document["end"]["cpu_utilization_percent"]["remote_total"] = 99.5
    output = parsers.parse(json.dumps(document), format="iperf3")
    assert any(warning.startswith("capped by its receiver") for warning in output.warnings)
    assert flags.run_flags(output.warnings) == [flags.CAPPED]
