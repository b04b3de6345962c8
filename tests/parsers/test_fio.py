"""fio parser: real 3.x and 2.x JSON, text before the JSON, duplicate keys, clones, bad input."""

import json

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, fio

FIO_3 = "parsers/fio/vc_fio3.26_randrw_4k_libaio.json"
FIO_2 = "parsers/fio/pkb_fio_parser_sample.json"


def by_key_and_direction(output):
    return {(r.benchmark, r.params["direction"]): r for r in output.results}


def test_it_reads_iops_bandwidth_and_p99_latency_of_a_fio_3_job(shared_data):
    output = fio.parse((shared_data / FIO_3).read_text())

    results = by_key_and_direction(output)
    assert output.format == "fio"
    assert output.tool_version == "3.26"
    assert results["fio:randwrite", "read"].value == pytest.approx(2160.561601)
    assert results["fio:randwrite", "read"].unit == "op/s"
    assert results["fio:randwrite", "write"].value == pytest.approx(2167.231601)
    assert results["fio:randwrite:bandwidth", "read"].value == pytest.approx(7876980)
    assert results["fio:randwrite:bandwidth", "read"].unit == "B/s"
    # clat_ns percentile 99.000000: 263192 ns
    assert results["fio:randwrite:clat_p99", "read"].value == pytest.approx(0.263192)
    assert results["fio:randwrite:clat_p99", "read"].unit == "ms"
    assert results["fio:randwrite:clat_p99", "read"].higher_is_better is False
    assert results["fio:randwrite", "write"].params == {
        "direction": "write",
        "job": "fio_randrw_1GB_4k_d1_th1_direct",
        "block_size": 4096,
        "iodepth": 1,
        "numjobs": 1,
    }
    # trim did no I/O
    assert len(output.results) == 6


def test_it_warns_when_a_job_reports_io_its_rw_mode_does_not_do(shared_data):
    output = fio.parse((shared_data / FIO_3).read_text())

    assert output.warnings == [
        "job 'fio_randrw_1GB_4k_d1_th1_direct': rw=randwrite but the output reports read I/O"
    ]


def test_it_reads_fio_2_json_with_clat_in_microseconds_and_bw_in_kib(shared_data):
    output = fio.parse((shared_data / FIO_2).read_text())

    results = {(r.benchmark, r.params["job"], r.params["direction"]): r for r in output.results}
    sequential_read = results["fio:unknown", "sequential_read", "read"]
    assert output.tool_version == "2.1.4"
    assert sequential_read.value == 253
    assert sequential_read.params == {"direction": "read", "job": "sequential_read"}
    assert results["fio:unknown:bandwidth", "sequential_read", "read"].value == 129836 * 1024
    assert results["fio:unknown:clat_p99", "sequential_read", "read"].value == pytest.approx(
        473.088
    )
    assert results["fio:unknown", "random_write_test", "write"].value == 1610
    # Directions without I/O are skipped: five jobs, one direction each, three figures each.
    assert ("fio:unknown", "sequential_read", "write") not in results
    assert len(output.results) == 15


def test_a_fio_2_output_without_job_options_warns_that_its_rw_mode_is_unknown(shared_data):
    output = fio.parse((shared_data / FIO_2).read_text())

    assert len(output.warnings) == 1
    assert "does not state the rw mode" in output.warnings[0]
    assert "'random_read_test_parallel'" in output.warnings[0]


@pytest.mark.parametrize("name", [FIO_3, FIO_2])
def test_every_fio_file_is_detected_and_parsed_through_the_package(shared_data, name):
    output = parsers.parse((shared_data / name).read_bytes())

    assert output.format == "fio"
    assert output.results


def test_the_shared_folder_holds_no_fio_file_these_tests_skip(shared_data):
    names = {f"parsers/fio/{path.name}" for path in (shared_data / "parsers/fio").iterdir()}
    assert names == {FIO_3, FIO_2}


# Inline outputs -----------------------------------------------------------------------------


def job(name, *, read_iops=0, write_iops=0, options=None):
    """A fio 3.x job entry with the fields the parser reads."""

    def direction(iops):
        return {
            "io_bytes": int(iops * 4096 * 60),
            "bw_bytes": int(iops * 4096),
            "bw": int(iops * 4),
            "iops": iops,
            "clat_ns": {"percentile": {"99.000000": 120000 if iops else 0}},
        }

    entry = {"jobname": name, "groupid": 0, "error": 0}
    if options is not None:
        entry["job options"] = options
    entry.update(read=direction(read_iops), write=direction(write_iops), trim=direction(0))
    return entry


def test_text_before_the_json_and_a_repeated_key_are_handled():
    document = json.dumps(
        {
            "fio version": "fio-3.28",
            "global options": {"rw": "randread", "bs": "16k", "iodepth": "32"},
            "jobs": [job("nvme", read_iops=1000.0, options={"name": "nvme"})],
        },
        indent=2,
    )
    # fio repeats a key now and then; the last value counts.
    document = document.replace('"iops": 1000.0', '"iops": 1.0, "iops": 1000.0', 1)
    assert '"iops": 1.0, "iops": 1000.0' in document
    text = (
        "fio: this platform does not support process shared mutexes, forcing use of threads.\n"
        + document
    )

    output = parsers.parse(text.encode())

    results = by_key_and_direction(output)
    assert output.format == "fio"
    assert results["fio:randread", "read"].value == 1000.0
    assert results["fio:randread", "read"].params == {
        "direction": "read",
        "job": "nvme",
        "block_size": 16384,
        "iodepth": 32,
        "numjobs": 1,
    }
    assert results["fio:randread:clat_p99", "read"].value == pytest.approx(0.12)


def test_clones_of_a_job_without_group_reporting_are_summed():
    options = {"name": "clone", "rw": "randrw", "bs": "4k,64k", "numjobs": "2"}
    document = {
        "fio version": "fio-3.33",
        "jobs": [
            job("clone", read_iops=100.0, write_iops=50.0, options=options),
            job("clone", read_iops=110.0, write_iops=55.0, options=options),
        ],
    }

    output = fio.parse(json.dumps(document))

    results = by_key_and_direction(output)
    assert results["fio:randrw", "read"].value == pytest.approx(210.0)
    assert results["fio:randrw", "write"].value == pytest.approx(105.0)
    assert results["fio:randrw", "read"].params["block_size"] == 4096
    assert results["fio:randrw", "write"].params["block_size"] == 65536
    assert results["fio:randrw", "write"].params["numjobs"] == 2
    assert output.warnings == ["job 'clone': 2 clones without group_reporting, summed"]


# Bad input ----------------------------------------------------------------------------------


def test_a_truncated_json_names_the_line_where_it_stops(shared_data):
    lines = (shared_data / FIO_3).read_text().splitlines()[:100]

    with pytest.raises(ParseError) as caught:
        fio.parse("\n".join(lines))

    assert "ends before it is complete" in caught.value.message
    assert caught.value.line == 100


def test_a_json_syntax_error_names_its_line():
    text = 'fio-3.26 starting\n{\n  "fio version" : "fio-3.26",\n  "jobs" : [ }\n'

    with pytest.raises(ParseError) as caught:
        fio.parse(text)

    assert caught.value.message.startswith("invalid JSON")
    assert caught.value.line == 4


def test_a_run_where_no_job_did_io_is_refused():
    document = {"fio version": "fio-3.26", "jobs": [job("idle", options={"rw": "read"})]}

    with pytest.raises(ParseError, match="no job in the fio output did any I/O"):
        fio.parse(json.dumps(document))


def test_another_tools_json_given_as_fio_is_refused(shared_data):
    raw = (shared_data / "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json").read_bytes()

    with pytest.raises(ParseError) as caught:
        parsers.parse(raw, format="fio")

    assert "not fio JSON" in caught.value.message
    assert caught.value.line == 1


def test_text_without_json_given_as_fio_is_refused(shared_data):
    raw = (shared_data / "parsers/wrk/pkb_wrk_result.txt").read_bytes()

    with pytest.raises(ParseError, match="no JSON document found"):
        parsers.parse(raw, format="fio")
