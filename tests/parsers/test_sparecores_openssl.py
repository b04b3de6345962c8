"""The openssl parser on Spare Cores' parsed.json: the same keys, params and values as the
raw `openssl speed` output of the same run."""

import json

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, lscpu, openssl
from tests.conftest import SHARED_DATA

RAW_AND_PARSED = sorted(
    path.name for path in (SHARED_DATA / "sparecores-aws").glob("*") if path.is_dir()
)
NO_PROCESSES = (
    "Spare Cores' parsed.json does not record how many processes ran (openssl speed -multi N); "
    "processes is left out: pass it (Spare Cores run one per vCPU)"
)


def identities(output):
    return {(r.benchmark, tuple(r.params.items())): r for r in output.results}


@pytest.mark.parametrize("machine", RAW_AND_PARSED)
def test_parsed_json_gives_the_keys_params_and_values_of_the_raw_output(shared_data, machine):
    folder = shared_data / "sparecores-aws" / machine
    cpus = lscpu.parse((folder / "lscpu_stdout").read_text()).cpu.cpus
    raw = parsers.parse((folder / "openssl_stdout").read_bytes(), format="openssl")

    parsed = parsers.parse((folder / "openssl_parsed.json").read_bytes(), processes=cpus)

    assert parsed.format == "openssl"
    assert parsed.warnings == []
    ours, theirs = identities(raw), identities(parsed)
    assert list(theirs) == list(ours)
    for identity, result in theirs.items():
        assert result.value == pytest.approx(ours[identity].value, rel=1e-4)
        assert (result.unit, result.higher_is_better) == ("B/s", True)


def test_it_reads_a_graviton3s_parsed_json_from_the_archive(inspector):
    # {"algo": "AES-256-CBC", "block_size": 16384, "speed": 2901966848.0}
    text = inspector.text("c7g.large", "openssl", "parsed.json")
    cpus = lscpu.parse(inspector.text("c7g.large", "lscpu")).cpu.cpus

    output = openssl.parse(text, processes=cpus)

    assert cpus == 2
    assert len(output.results) == 66
    aes = identities(output)[("openssl:aes-256-cbc", (("block_size", 16384), ("processes", 2)))]
    assert aes.value == 2901966848.0
    assert {r.benchmark for r in output.results} == {
        "openssl:blake2b512",
        "openssl:sha256",
        "openssl:sha512",
        "openssl:sha3-256",
        "openssl:sha3-512",
        "openssl:shake128",
        "openssl:shake256",
        "openssl:aes-256-cbc",
        "openssl:aria-256-cbc",
        "openssl:camellia-256-cbc",
        "openssl:sm4-cbc",
    }
    assert output.tool_version is None


def test_without_processes_the_param_is_left_out_with_a_warning(inspector):
    # m5.large: {"algo": "sha3-256", "block_size": 64, ...}
    output = openssl.parse(inspector.text("m5.large", "openssl", "parsed.json"))

    assert output.warnings == [NO_PROCESSES]
    assert {tuple(r.params) for r in output.results} == {("block_size",)}


def test_every_parsed_json_in_the_archive_is_detected_and_read(inspector):
    for instance_type, text in inspector.texts("openssl", "parsed.json"):
        assert parsers.detect_format(text) == "openssl", instance_type
        output = parsers.parse(text, format="openssl", processes=4)
        assert len(output.results) == 66, instance_type
        assert output.warnings == [], instance_type


def test_processes_that_disagree_with_a_raw_output_are_not_used(shared_data):
    raw = (shared_data / "sparecores-aws" / "c7g.large" / "openssl_stdout").read_text()

    output = openssl.parse(raw, processes=8)

    assert {r.params["processes"] for r in output.results} == {2}
    assert output.warnings == [
        "the output shows 2 processes; the processes given (8) were not used"
    ]


def test_processes_given_for_an_output_that_does_not_take_them_are_ignored_with_a_warning(
    inspector,
):
    output = parsers.parse(inspector.data("c7g.large", "redis"), processes=2)

    assert output.warnings == ["processes given, but redis output does not take it; ignored"]


def test_a_speed_that_is_not_a_number_is_refused_with_its_line(inspector):
    records = json.loads(inspector.text("c7g.large", "openssl", "parsed.json"))
    records[6]["speed"] = "fast"
    text = json.dumps(records, indent=2)

    with pytest.raises(ParseError) as error:
        openssl.parse(text)

    assert error.value.line == 2 + 5 * 6 + 3  # the 7th record's third field
    assert error.value.message == ("record 6: speed is not a number that is not negative: 'fast'")


def test_a_record_without_its_block_size_is_refused_with_its_line(inspector):
    records = json.loads(inspector.text("c7g.large", "openssl", "parsed.json"))
    del records[1]["block_size"]
    text = json.dumps(records, indent=2)

    with pytest.raises(ParseError) as error:
        openssl.parse(text)

    assert error.value.line == 7
    assert error.value.message == "record 1 is not an {algo, block_size, speed} object"
