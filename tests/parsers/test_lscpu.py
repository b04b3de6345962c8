"""The lscpu parser against real lscpu outputs, plain and JSON, old and new util-linux."""

import json
from pathlib import Path

import pytest

from benchmarks.parsers import CpuInfo, ParseError, decode, lscpu, parse
from tests.conftest import SHARED_DATA

SPARE_CORES_MACHINES = sorted(
    path.name for path in (SHARED_DATA / "sparecores-aws").glob("*") if path.is_dir()
)


def lscpu_file(shared_data: Path, name: str) -> str:
    return decode((shared_data / "parsers" / "lscpu" / name).read_bytes())


def test_it_reads_the_flat_layout_of_a_graviton2(shared_data):
    output = lscpu.parse(lscpu_file(shared_data, "sbcbench_aws_m6g.8xlarge_graviton2_lscpu.txt"))

    assert output.format == "lscpu"
    assert output.results == []
    assert output.cpu_model == "Neoverse-N1"
    assert output.cpu == CpuInfo(
        model_name="Neoverse-N1",
        architecture="aarch64",
        cpus=32,
        threads_per_core=1,
        cores_per_socket=32,
        sockets=1,
        vendor="ARM",
    )


def test_it_reads_the_nested_layout_of_newer_util_linux(shared_data):
    output = lscpu.parse(lscpu_file(shared_data, "vc_lscpu_results_intel_4.txt"))

    assert output.cpu == CpuInfo(
        model_name="Intel(R) Xeon(R) Platinum 8480C",
        architecture="x86_64",
        cpus=28,
        threads_per_core=2,
        cores_per_socket=7,
        sockets=2,
        vendor="GenuineIntel",
    )
    assert output.cpu.physical_cores == 14


def test_it_reads_a_file_with_a_byte_order_mark_and_no_final_newline(shared_data):
    data = (shared_data / "parsers" / "lscpu" / "vc_lscpu_results_intel_4.txt").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not data.endswith(b"\n")

    output = parse(data, format="lscpu")

    assert output.cpu_model == "Intel(R) Xeon(R) Platinum 8480C"


@pytest.mark.parametrize("machine", SPARE_CORES_MACHINES)
def test_it_reads_the_json_layout_of_each_spare_cores_machine(shared_data, machine):
    text = (shared_data / "sparecores-aws" / machine / "lscpu_stdout").read_text()
    data = {entry["field"]: entry["data"] for entry in json.loads(text)["lscpu"]}

    cpu = lscpu.parse(text).cpu

    assert cpu.model_name == data["Model name:"]
    assert cpu.architecture == data["Architecture:"]
    assert cpu.vendor == data["Vendor ID:"]
    assert cpu.cpus == int(data["CPU(s):"])
    assert cpu.threads_per_core * cpu.cores_per_socket * cpu.sockets == cpu.cpus


def test_it_reads_the_graviton3_of_a_c7g(shared_data):
    text = (shared_data / "sparecores-aws" / "c7g.large" / "lscpu_stdout").read_text()

    output = lscpu.parse(text)

    assert output.cpu_model == "Neoverse-V1"
    assert output.cpu.architecture == "aarch64"
    assert (output.cpu.cpus, output.cpu.cores_per_socket, output.cpu.sockets) == (2, 2, 1)


def test_it_reads_fields_nested_as_children_in_json():
    text = json.dumps(
        {
            "lscpu": [
                {"field": "Architecture:", "data": "x86_64"},
                {"field": "CPU(s):", "data": "28"},
                {
                    "field": "Vendor ID:",
                    "data": "GenuineIntel",
                    "children": [
                        {
                            "field": "Model name:",
                            "data": "Intel(R) Xeon(R) Platinum 8480C",
                            "children": [
                                {"field": "Thread(s) per core:", "data": "2"},
                                {"field": "Core(s) per socket:", "data": "7"},
                                {"field": "Socket(s):", "data": "2"},
                            ],
                        }
                    ],
                },
                {"field": "Caches (sum of all):", "data": None},
            ]
        },
        indent=2,
    )

    cpu = lscpu.parse(text).cpu

    assert cpu.model_name == "Intel(R) Xeon(R) Platinum 8480C"
    assert (cpu.threads_per_core, cpu.cores_per_socket, cpu.sockets) == (2, 7, 2)


def test_it_leaves_the_model_name_empty_when_an_arm_machine_prints_only_model():
    text = "Architecture:  aarch64\nCPU(s):  2\nVendor ID:  ARM\nModel:  1\nStepping:  r1p1\n"

    cpu = lscpu.parse(text).cpu

    assert cpu.model_name is None
    assert cpu.vendor == "ARM"
    assert cpu.cpus == 2
    assert cpu.threads_per_core is None


def test_it_counts_clusters_where_lscpu_knows_no_sockets():
    text = (
        "Architecture:           aarch64\n"
        "CPU(s):                 8\n"
        "Vendor ID:              ARM\n"
        "  Model name:           Cortex-A72\n"
        "    Thread(s) per core: 1\n"
        "    Core(s) per cluster: 4\n"
        "    Socket(s):          -\n"
        "    Cluster(s):         2\n"
    )

    cpu = lscpu.parse(text).cpu

    assert (cpu.cores_per_socket, cpu.sockets, cpu.physical_cores) == (4, 2, 8)


def test_it_splits_a_leading_lscpu_section_keeping_line_numbers(shared_data):
    path = shared_data / "seed-studies" / "fargate-openssl" / "m4.large__e5-2686-v4-2-30ghz.txt"
    text = path.read_text()

    cpu, rest = lscpu.split_leading(text)

    assert cpu.model_name == "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz"
    assert (cpu.cpus, cpu.threads_per_core, cpu.cores_per_socket, cpu.sockets) == (2, 2, 1, 1)
    assert rest.count("\n") == text.count("\n")
    assert rest.split("\n")[25] == text.split("\n")[25] == "OpenSSL 1.0.2g  1 Mar 2016"
    assert rest.split("\n")[:25] == [""] * 25


def test_it_stops_the_lscpu_section_at_openssl_3_version_line(shared_data):
    lscpu_text = lscpu_file(shared_data, "sbcbench_aws_m6g.8xlarge_graviton2_lscpu.txt")
    openssl_text = decode(
        (shared_data / "parsers" / "openssl" / "vc_3.0.0beta3_full_rsa_dsa_ecdsa.txt").read_bytes()
    )

    cpu, rest = lscpu.split_leading("\n" + lscpu_text + openssl_text)

    assert cpu.model_name == "Neoverse-N1"
    assert rest.split("\n")[30] == "version: 3.0.0-beta3-dev"


def test_it_finds_no_lscpu_section_in_other_output(shared_data):
    text = decode(
        (shared_data / "parsers" / "openssl" / "vc_3.0.0beta3_full_rsa_dsa_ecdsa.txt").read_bytes()
    )

    assert lscpu.split_leading(text) == (None, text)


def test_it_rejects_a_file_of_prose():
    with pytest.raises(ParseError) as error:
        lscpu.parse("We looked at the CPU.\nIt was fast.\n")

    assert error.value.line == 1


def test_it_rejects_a_count_that_is_not_a_number():
    with pytest.raises(ParseError) as error:
        lscpu.parse("Architecture:  x86_64\nCPU(s):  many\n")

    assert error.value.line == 2


def test_it_rejects_broken_json():
    with pytest.raises(ParseError) as error:
        lscpu.parse('{"lscpu": [\n  {"field": "CPU(s):", "data": "2"},\n  oops\n]}')

    assert error.value.line == 3


def test_it_recognises_lscpu_output_and_nothing_else(shared_data):
    assert lscpu.looks_like(lscpu_file(shared_data, "vc_lscpu_results_intel_4.txt"))
    assert lscpu.looks_like(
        (shared_data / "sparecores-aws" / "c5.large" / "lscpu_stdout").read_text()
    )
    assert not lscpu.looks_like("OpenSSL 1.1.1f  31 Mar 2020\n")
