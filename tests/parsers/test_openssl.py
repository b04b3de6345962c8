"""The openssl parser against real `openssl speed` outputs of OpenSSL 1.0.2, 1.1.1 and 3.x."""

import json
import re
from pathlib import Path

import pytest

from benchmarks.parsers import ParseError, decode, lscpu, openssl, parse
from tests.conftest import SHARED_DATA

SPARE_CORES_MACHINES = sorted(
    path.name for path in (SHARED_DATA / "sparecores-aws").glob("*") if path.is_dir()
)
FARGATE_FILES = sorted(
    path.name for path in (SHARED_DATA / "seed-studies/fargate-openssl").glob("*")
)


def read(path: Path):
    return openssl.parse(decode(path.read_bytes()))


def values(output, benchmark: str, **params) -> list[float]:
    """Values of the results for one benchmark whose params include the given ones."""
    return [
        result.value
        for result in output.results
        if result.benchmark == benchmark
        and all(result.params.get(name) == value for name, value in params.items())
    ]


def openssl_file(shared_data: Path, name: str) -> Path:
    return shared_data / "parsers" / "openssl" / name


# -- Spare Cores: -mr -multi, OpenSSL 3.x ------------------------------------------------


def test_the_spare_cores_data_is_all_there():
    assert len(SPARE_CORES_MACHINES) == 59
    assert len(FARGATE_FILES) == 14


@pytest.mark.parametrize("machine", SPARE_CORES_MACHINES)
def test_it_agrees_with_spare_cores_own_parse(shared_data, machine):
    folder = shared_data / "sparecores-aws" / machine
    output = read(folder / "openssl_stdout")
    expected = json.loads((folder / "openssl_parsed.json").read_text())
    cpus = lscpu.parse((folder / "lscpu_stdout").read_text()).cpu.cpus

    ours = {(result.benchmark, result.params["block_size"]): result for result in output.results}
    assert len(output.results) == len(expected)
    assert set(ours) == {
        (f"openssl:{record['algo'].lower()}", record["block_size"]) for record in expected
    }
    for record in expected:
        result = ours[(f"openssl:{record['algo'].lower()}", record["block_size"])]
        assert result.value == pytest.approx(record["speed"], rel=1e-4)
        assert result.unit == "B/s"
        assert result.params["processes"] == cpus
    assert output.format == "openssl"


def test_it_counts_every_child_where_the_children_output_is_interleaved(shared_data):
    # c7a.32xlarge has a `Got:` line cut as "...fro" / "m 26" and one as "Go" / "t: +F...".
    output = read(shared_data / "sparecores-aws" / "c7a.32xlarge" / "openssl_stdout")

    assert {result.params["processes"] for result in output.results} == {128}
    assert values(output, "openssl:sm4-cbc", block_size=16384) == [15838844009.47]
    assert any("cut by interleaving" in warning for warning in output.warnings)


def test_it_rejects_cut_children_lines_when_no_total_follows(shared_data):
    text = (shared_data / "sparecores-aws" / "c4.8xlarge" / "openssl_stdout").read_text()
    lines = text.split("\n")
    first_total = next(i for i, line in enumerate(lines) if line.startswith("+F:"))

    with pytest.raises(ParseError) as error:
        openssl.parse("\n".join(lines[:first_total]))

    assert error.value.line == 521
    assert "cannot be summed" in error.value.message


# -- the shared parser files -------------------------------------------------------------


def test_it_reads_every_table_of_openssl_3_0(shared_data):
    output = read(openssl_file(shared_data, "vc_3.0.0beta3_full_rsa_dsa_ecdsa.txt"))

    assert output.tool_version == "3.0.0-beta3-dev"
    assert output.warnings == []
    assert len(output.results) == 14 * 6 + 7 * 2 + 3 * 2 + 22 * 2 + 24 + 2 * 2 + 2 + 5
    assert {result.params["processes"] for result in output.results} == {1}
    assert values(output, "openssl:rsa2048", op="sign") == [3121.9]
    assert values(output, "openssl:rsa2048", op="verify") == [52842.2]
    assert values(output, "openssl:dsa2048", op="sign") == [2931.9]
    assert values(output, "openssl:ecdsa-nistp256", op="sign") == [34201.9]
    assert values(output, "openssl:ecdsa-brainpoolp512t1", op="verify") == [751.8]
    assert values(output, "openssl:ecdh-x25519", op="derive") == [17662.0]
    assert values(output, "openssl:eddsa-ed25519") == [25270.2, 7743.6]
    assert values(output, "openssl:sm2", op="verify") == [3079.5]
    assert values(output, "openssl:ffdh2048", op="derive") == [488.0]
    assert values(output, "openssl:hmac(md5)", block_size=16) == [59612330.0]
    assert values(output, "openssl:camellia-128-cbc", block_size=16384) == [187749170.0]
    assert {result.unit for result in output.results if "op" in result.params} == {"op/s"}


def test_it_reads_the_eight_column_rsa_table(shared_data):
    output = read(openssl_file(shared_data, "vc_3.2.0dev_rsa4096_encrypt_decrypt_cols.txt"))

    assert output.tool_version == "3.2.0-dev"
    assert [(result.params["op"], result.value) for result in output.results] == [
        ("sign", 3132.4),
        ("verify", 254999.2),
        ("encrypt", 252626.6),
        ("decrypt", 3127.0),
    ]
    assert {result.benchmark for result in output.results} == {"openssl:rsa4096"}


def test_it_keeps_repeated_rows_of_several_runs_in_order(shared_data):
    output = read(
        openssl_file(shared_data, "sbcbench_aws_m6g.8xlarge_graviton2_1.1.1f_excerpt.txt")
    )

    assert output.tool_version == "1.1.1f"
    assert len(output.results) == 36
    assert values(output, "openssl:aes-128-cbc", block_size=16) == [746471100.0, 745006090.0]
    assert values(output, "openssl:aes-256-cbc", block_size=16384) == [1424758100.0, 1424785410.0]


def test_it_keeps_the_evp_row_of_multi_evp_with_default_block_sizes(shared_data):
    output = read(openssl_file(shared_data, "pkb_1.1.1f_multi_evp_aes-256-ctr_snippet.txt"))

    assert output.tool_version == "1.1.1f"
    assert [(result.benchmark, result.params["block_size"]) for result in output.results] == [
        ("openssl:evp", size) for size in (16, 64, 256, 1024, 8192, 16384)
    ]
    assert values(output, "openssl:evp", block_size=16) == [7928414040.0]
    assert values(output, "openssl:evp", block_size=16384) == [118711951910.0]
    assert any("prints `evp`" in warning for warning in output.warnings)
    assert any("default block sizes" in warning for warning in output.warnings)


def test_it_uses_the_multi_process_total_over_the_children_lines(shared_data):
    # A spliced test file: the children's `Got:` lines are aes-128-cbc, the total row md5.
    output = parse(
        openssl_file(shared_data, "vc_3.0.0beta3_multi4_mr_got_lines_md5.txt").read_bytes()
    )

    assert output.tool_version == "3.0.0-beta3-dev"
    assert {result.benchmark for result in output.results} == {"openssl:md5"}
    assert values(output, "openssl:md5", block_size=16, processes=4) == [971380350.0]
    assert values(output, "openssl:md5", block_size=16384, processes=4) == [2108594590.0]
    assert any("children reported openssl:aes-128-cbc" in warning for warning in output.warnings)


def test_it_sums_the_children_lines_when_no_total_follows(shared_data):
    text = decode(
        openssl_file(shared_data, "vc_3.0.0beta3_multi4_mr_got_lines_md5.txt").read_bytes()
    )
    children_only = "\n".join(text.split("\n")[:20])

    output = openssl.parse(children_only)

    assert values(output, "openssl:aes-128-cbc", block_size=16, processes=4) == [
        pytest.approx(239061878.40 + 249116662.40 + 248153398.40 + 235048406.40)
    ]
    assert len(output.results) == 6
    assert any("summed the figures of the 4 children" in warning for warning in output.warnings)


def test_it_names_an_evp_total_after_its_children(shared_data):
    text = decode(
        openssl_file(shared_data, "vc_3.0.0beta3_multi4_mr_got_lines_md5.txt").read_bytes()
    )
    children = text.split("\n")[12:20]
    # What 1.1.1's parent prints after `-multi 4 -evp aes-128-cbc`: a total named `evp`.
    total = "evp  971380.35k  1693511.81k  2079132.16k  2200152.47k  2133075.56k  2108594.59k"

    output = openssl.parse("\n".join([*children, total]))

    assert {result.benchmark for result in output.results} == {"openssl:aes-128-cbc"}
    assert values(output, "openssl:aes-128-cbc", block_size=16, processes=4) == [971380350.0]
    assert output.warnings == []


# -- study S1: lscpu, then openssl 1.0.2g ------------------------------------------------


@pytest.mark.parametrize("name", FARGATE_FILES)
def test_it_reads_lscpu_then_openssl_1_0_2(shared_data, name):
    output = parse((shared_data / "seed-studies" / "fargate-openssl" / name).read_bytes())

    # File names end with the model's slug without "intel xeon cpu": e5-2686-v4-2-30ghz.
    model_words = re.findall(r"[a-z0-9]+", output.cpu_model.lower())
    assert "-".join(word for word in model_words if word != "cpu").endswith(
        name.split("__")[1][:-4]
    )
    assert output.cpu.model_name == output.cpu_model
    assert output.format == "openssl"
    assert output.tool_version == "1.0.2g"
    assert output.warnings == []
    assert sorted((result.benchmark, result.params["block_size"]) for result in output.results) == [
        (f"openssl:aes-128-{mode}", size)
        for mode in ("ctr", "gcm")
        for size in (16, 64, 256, 1024, 8192)
    ]
    assert {result.params["processes"] for result in output.results} == {1}


def test_it_reads_the_quarter_vcpu_fargate_task_on_an_e5_2686_v4(shared_data):
    path = (
        shared_data
        / "seed-studies"
        / "fargate-openssl"
        / "fargate-0.25vcpu-0.5gb__e5-2686-v4-2-30ghz.txt"
    )

    output = parse(path.read_bytes())

    assert output.cpu_model == "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz"
    assert output.cpu.cpus == 2
    assert values(output, "openssl:aes-128-gcm", block_size=8192) == [3520877910.0]
    assert values(output, "openssl:aes-128-ctr", block_size=16) == [483999890.0]
    assert values(output, "openssl:aes-128-gcm", block_size=8192, processes=1) == [3520877910.0]


# -- forms without a shared file ---------------------------------------------------------


@pytest.mark.parametrize(
    ("version_line", "version"),
    [
        ("OpenSSL 1.0.2g  1 Mar 2016", "1.0.2g"),
        ("OpenSSL 1.1.1f, built on 31 Mar 2020", "1.1.1f"),
        ("    OpenSSL 1.1.1f  31 Mar 2020", "1.1.1f"),
        ("version: 3.0.0-beta3-dev", "3.0.0-beta3-dev"),
        ("OpenSSL 3.0.2 15 Mar 2022 (Library: OpenSSL 3.0.2 15 Mar 2022)", "3.0.2"),
    ],
)
def test_it_reads_the_version_line_in_all_its_forms(version_line, version):
    text = f"{version_line}\ntype 16 bytes 64 bytes\nmd5 86478.31k 234491.80k\n"

    assert openssl.parse(text).tool_version == version


def test_it_reads_openssl_1_0_2_names_with_spaces_and_figures_without_k():
    text = "type 16 bytes 64 bytes\naes-128 cbc   9876.54  123456.78k\nrc5-32/12 cbc 1.00k 2.00k\n"

    output = openssl.parse(text)

    assert values(output, "openssl:aes-128-cbc") == [9876.54, 123456780.0]
    assert values(output, "openssl:rc5-32/12-cbc", block_size=64) == [2000.0]


def test_it_reads_machine_readable_asymmetric_records():
    # The -mr records of OpenSSL 3.x's apps/speed.c: rates in operations per second.
    text = "\n".join(
        [
            "+F2:2:2048:3132.4:254999.2:252626.6:3127.0",
            "+F3:1:2048:2931.9:3382.5",
            "+F4:3:256:34201.9:11082.7",
            "+F5:22:253:17662.0:0.000057",
            "+F6:0:253:Ed25519:25270.2:7743.6",
            "+F7:0:256:CurveSM2:2862.3:3079.5",
            "+F8:0:2048:488.0:0.002049",
        ]
    )

    output = openssl.parse(text)

    assert [(r.benchmark, r.params["op"], r.value) for r in output.results] == [
        ("openssl:rsa2048", "sign", 3132.4),
        ("openssl:rsa2048", "verify", 254999.2),
        ("openssl:rsa2048", "encrypt", 252626.6),
        ("openssl:rsa2048", "decrypt", 3127.0),
        ("openssl:dsa2048", "sign", 2931.9),
        ("openssl:dsa2048", "verify", 3382.5),
        ("openssl:ecdsa-nistp256", "sign", 34201.9),
        ("openssl:ecdsa-nistp256", "verify", 11082.7),
        ("openssl:ecdh-x25519", "derive", 17662.0),
        ("openssl:eddsa-ed25519", "sign", 25270.2),
        ("openssl:eddsa-ed25519", "verify", 7743.6),
        ("openssl:sm2", "sign", 2862.3),
        ("openssl:sm2", "verify", 3079.5),
        ("openssl:ffdh2048", "derive", 488.0),
    ]
    assert output.warnings == []


def test_it_reads_seconds_per_operation_from_openssl_before_1_1_1():
    output = openssl.parse("+F2:2:2048:0.000320:0.000019\n+F5:3:256:0.000100:10000.0\n")

    assert values(output, "openssl:rsa2048") == [pytest.approx(3125.0), pytest.approx(52631.58)]
    assert values(output, "openssl:ecdh-nistp256") == [pytest.approx(10000.0)]
    assert any("seconds per operation" in warning for warning in output.warnings)


# -- bad input ---------------------------------------------------------------------------


def test_it_rejects_a_table_row_with_fewer_figures_than_its_header(shared_data):
    text = read_text(openssl_file(shared_data, "vc_3.0.0beta3_full_rsa_dsa_ecdsa.txt"))
    lines = text.split("\n")
    assert lines[9].startswith("sha256")
    lines[9] = " ".join(lines[9].split()[:4])

    with pytest.raises(ParseError) as error:
        openssl.parse("\n".join(lines))

    assert error.value.line == 10
    assert "3 figures for 6 block sizes" in error.value.message


def test_it_rejects_an_rsa_row_with_fewer_columns_than_its_header(shared_data):
    text = read_text(openssl_file(shared_data, "vc_3.2.0dev_rsa4096_encrypt_decrypt_cols.txt"))
    lines = text.split("\n")
    lines[6] = " ".join(lines[6].split()[:-2])

    with pytest.raises(ParseError) as error:
        openssl.parse("\n".join(lines))

    assert error.value.line == 7
    assert "6 figures where the table has 8" in error.value.message


def test_it_rejects_a_cut_plus_f_line(shared_data):
    lines = (shared_data / "sparecores-aws" / "c4.large" / "openssl_stdout").read_text().split("\n")
    last_total = max(i for i, line in enumerate(lines) if line.startswith("+F:"))
    lines[last_total] = lines[last_total][:60]

    with pytest.raises(ParseError) as error:
        openssl.parse("\n".join(lines))

    assert error.value.line == last_total + 1
    assert "cut or garbled" in error.value.message


def test_it_rejects_non_numeric_figures():
    text = "OpenSSL 1.1.1f  31 Mar 2020\ntype 16 bytes 64 bytes\nmd5 86478.31k fast\n"

    with pytest.raises(ParseError) as error:
        openssl.parse(text)

    assert error.value.line == 3
    assert "'fast' is not a figure" in error.value.message


def test_it_rejects_a_file_of_prose():
    text = "We ran openssl speed on three machines.\nThe results were good.\n"

    with pytest.raises(ParseError) as error:
        openssl.parse(text)

    assert error.value.line == 1


def test_it_rejects_a_file_without_results():
    text = (
        "OpenSSL 1.1.1f  31 Mar 2020\nbuilt on: Wed Apr 28 00:37:28 2021 UTC\noptions:bn(64,64)\n"
    )

    with pytest.raises(ParseError) as error:
        openssl.parse(text)

    assert error.value.line == 4
    assert "without an `openssl speed` result" in error.value.message


def test_it_accepts_a_byte_order_mark_and_no_final_newline(shared_data):
    data = openssl_file(shared_data, "vc_3.2.0dev_rsa4096_encrypt_decrypt_cols.txt").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not data.endswith(b"\n")

    assert len(parse(data).results) == 4
    assert len(openssl.parse(data.decode("utf-8")).results) == 4


def test_it_recognises_openssl_output_and_nothing_else(shared_data):
    for path in (shared_data / "parsers" / "openssl").iterdir():
        assert openssl.looks_like(decode(path.read_bytes())), path.name
    assert openssl.looks_like(
        read_text(shared_data / "sparecores-aws" / "t2.nano" / "openssl_stdout")
    )
    assert not openssl.looks_like(
        read_text(shared_data / "parsers" / "lscpu" / "vc_lscpu_results_intel_4.txt")
    )
    assert not openssl.looks_like("We ran openssl speed on three machines.\n")


def read_text(path: Path) -> str:
    return decode(path.read_bytes())
