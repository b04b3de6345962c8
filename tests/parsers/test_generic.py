"""Generic CSV and JSON results: columns, conversions, and errors that name column and line."""

import json
from pathlib import Path

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, generic_csv, generic_json

DEMO_CSV = Path(__file__).resolve().parents[2] / "benchmarks/demo/s2_keycloak_graviton3.csv"

CSV = (
    "benchmark,instance_type,region,value,unit,variant,measured_at,cpu_model,"
    "higher_is_better,notes,param.block_size,param.engine\n"
    "Keycloak:OAuth2-Login,c7g.xlarge,ap-northeast-1,97,relative throughput,accp,2024-04-01,"
    'Graviton3,yes,"custom build, arm64",8192,jdk17\n'
    "job:render,m5.large,us-east-1,12.5,s,,,,false,,,\n"
)


def test_it_reads_every_column_of_a_csv_row():
    output = generic_csv.parse(CSV)

    first, second = output.results
    assert output.format == "csv"
    assert first.benchmark == "keycloak:oauth2-login"
    assert (first.instance_type, first.region, first.variant) == (
        "c7g.xlarge",
        "ap-northeast-1",
        "accp",
    )
    assert (first.value, first.unit) == (97.0, "relative throughput")
    assert (first.measured_at, first.cpu_model, first.notes) == (
        "2024-04-01",
        "Graviton3",
        "custom build, arm64",
    )
    assert first.higher_is_better is True
    assert first.params == {"block_size": 8192, "engine": "jdk17"}
    assert second.higher_is_better is False
    assert (second.variant, second.measured_at, second.params) == (None, None, {})


def test_it_reads_the_bundled_demo_csv():
    output = parsers.parse(DEMO_CSV.read_bytes())

    assert output.format == "csv"
    assert {result.benchmark for result in output.results} == {"keycloak:oauth2-login"}
    assert output.results[0].value == 100.0


def test_a_semicolon_separated_export_is_read():
    text = (
        "benchmark;instance_type;region;value;unit\nfio:randread;c5.large;us-east-1;3000,5;op/s\n"
    )

    with pytest.raises(ParseError) as caught:
        generic_csv.parse(text)
    assert "'value' must be a number (got '3000,5')" in caught.value.message

    output = generic_csv.parse(text.replace("3000,5", "3000.5"))
    assert output.results[0].value == 3000.5


def test_columns_it_does_not_know_are_ignored_with_a_warning():
    text = (
        "benchmark,instance_type,region,value,unit,measured_on\nx:y,t2.nano,us-east-1,1,op/s,2024\n"
    )

    output = generic_csv.parse(text)

    assert output.warnings == ["ignored column 'measured_on': not one of the results columns"]


def test_a_missing_required_column_is_named_with_the_header_line():
    with pytest.raises(ParseError) as caught:
        generic_csv.parse("\nbenchmark,instance_type,region,value\nx:y,t2.nano,us-east-1,1\n")

    assert caught.value.message == "the header lacks the required column(s) 'unit'"
    assert caught.value.line == 2


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("-3", "column 'value' must not be negative (got '-3')"),
        ("fast", "column 'value' must be a number (got 'fast')"),
        ("NaN", "column 'value' must be a finite number (got 'NaN')"),
        ("inf", "column 'value' must be a finite number (got 'inf')"),
        ("", "column 'value' is empty; it is required"),
    ],
)
def test_a_bad_value_is_named_with_its_column_and_line(cell, message):
    text = (
        "benchmark,instance_type,region,value,unit\n"
        "x:y,t2.nano,us-east-1,1,op/s\n"
        f"x:y,t2.micro,us-east-1,{cell},op/s\n"
    )

    with pytest.raises(ParseError) as caught:
        generic_csv.parse(text)

    assert caught.value.message == message
    assert caught.value.line == 3


@pytest.mark.parametrize(
    ("column", "cell", "message"),
    [
        ("measured_at", "2024-02-30", "column 'measured_at' must be a date YYYY-MM-DD"),
        ("measured_at", "01/02/2024", "column 'measured_at' must be a date YYYY-MM-DD"),
        ("higher_is_better", "maybe", "column 'higher_is_better' must be true/false"),
        ("benchmark", "keycloak", "column 'benchmark' must look like tool:test"),
        ("benchmark", "tool: test", "column 'benchmark' must look like tool:test"),
        ("region", " ", "column 'region' is empty; it is required"),
    ],
)
def test_a_bad_optional_or_key_cell_is_named_with_its_column_and_line(column, cell, message):
    row = {
        "benchmark": "x:y",
        "instance_type": "t2.nano",
        "region": "us-east-1",
        "value": "1",
        "unit": "op/s",
        "measured_at": "2024-01-31",
        "higher_is_better": "1",
    }
    row[column] = cell
    text = ",".join(row) + "\n" + ",".join(row.values()) + "\n"

    with pytest.raises(ParseError) as caught:
        generic_csv.parse(text)

    assert caught.value.message.startswith(message)
    assert caught.value.line == 2


def test_a_row_with_more_cells_than_the_header_is_refused():
    with pytest.raises(ParseError) as caught:
        generic_csv.parse("benchmark,instance_type,region,value,unit\nx:y,a,b,1,op/s,extra\n")

    assert "this row has 6 cells but the header names 5 columns" in caught.value.message
    assert caught.value.line == 2


def test_a_header_without_rows_is_refused():
    with pytest.raises(ParseError, match="no result rows"):
        generic_csv.parse("benchmark,instance_type,region,value,unit\n")


def test_csv_looks_like_wants_benchmark_and_value_columns(shared_data):
    assert generic_csv.looks_like("Benchmark, Value\nx:y,1\n")
    assert not generic_csv.looks_like("variable,value,unit\np50 latency,0.187,ms\n")
    assert not generic_csv.looks_like((shared_data / "parsers/wrk/pkb_wrk_result.txt").read_text())


# JSON ---------------------------------------------------------------------------------------

ROWS = [
    {
        "benchmark": "keycloak:oauth2-login",
        "instance_type": "c7a.xlarge",
        "region": "ap-northeast-1",
        "value": 104,
        "unit": "relative throughput",
        "variant": "accp",
        "higher_is_better": True,
        "params": {"users": 25000, "build": "accp-2.3.3"},
    },
    {
        "benchmark": "openssl:aes-256-cbc",
        "instance_type": "c5.large",
        "region": "us-east-1",
        "value": "5839148373.34",
        "unit": "B/s",
        "param.block_size": "16384",
        "param.processes": 2,
        "measured_at": "2025-01-15",
    },
]


def test_it_reads_a_json_list_of_rows_with_a_params_object():
    output = generic_json.parse(json.dumps(ROWS))

    first, second = output.results
    assert output.format == "json"
    assert first.params == {"users": 25000, "build": "accp-2.3.3"}
    assert (first.value, first.variant, first.higher_is_better) == (104.0, "accp", True)
    assert second.params == {"block_size": 16384, "processes": 2}
    assert (second.value, second.measured_at) == (5839148373.34, "2025-01-15")
    assert output.warnings == []


def test_it_reads_rows_under_results_and_is_detected_through_the_package():
    output = parsers.parse(json.dumps({"results": ROWS}, indent=2).encode())

    assert output.format == "json"
    assert len(output.results) == 2


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("value", -1, "row 1: column 'value' must not be negative (got -1)"),
        ("value", "n/a", "row 1: column 'value' must be a number (got 'n/a')"),
        ("value", True, "row 1: column 'value' must be a number (got True)"),
        ("benchmark", "no-colon", "row 1: column 'benchmark' must look like tool:test"),
        ("params", [1, 2], "row 1: column 'params' must be an object"),
    ],
)
def test_a_bad_json_field_is_named_with_its_row(field, value, message):
    rows = json.loads(json.dumps(ROWS))
    rows[1][field] = value

    with pytest.raises(ParseError) as caught:
        generic_json.parse(json.dumps(rows))

    assert caught.value.message.startswith(message)
    assert caught.value.line is None


def test_a_json_row_missing_a_required_field_is_named():
    rows = json.loads(json.dumps(ROWS))
    del rows[0]["unit"]

    with pytest.raises(ParseError, match="row 0: column 'unit' is missing"):
        generic_json.parse(json.dumps(rows))


def test_a_truncated_json_is_refused_with_its_line():
    text = json.dumps(ROWS, indent=2)[:200]

    with pytest.raises(ParseError) as caught:
        parsers.parse(text.encode(), format="json")

    assert "ends before it is complete" in caught.value.message
    assert caught.value.line == text.count("\n") + 1


def test_a_json_that_is_not_rows_is_refused(shared_data):
    raw = (shared_data / "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json").read_bytes()

    with pytest.raises(ParseError, match=r"expected a list of result rows"):
        parsers.parse(raw, format="json")


@pytest.mark.parametrize(
    "name",
    [
        "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json",
        "parsers/fio/vc_fio3.26_randrw_4k_libaio.json",
        "parsers/fio/pkb_fio_parser_sample.json",
        "seed-studies/keycloak-graviton3.json",
    ],
)
def test_json_looks_like_does_not_claim_a_tools_json_or_a_study(shared_data, name):
    assert not generic_json.looks_like((shared_data / name).read_text())


@pytest.mark.parametrize(
    "read",
    [
        lambda: generic_csv.parse(CSV),
        lambda: generic_json.parse(json.dumps(ROWS)),
        lambda: generic_csv.parse(DEMO_CSV.read_text()),
    ],
)
def test_a_table_read_comes_back_equal_from_its_text(read):
    # What an upload's check read is handed to the worker as this text (Run.checked_table).
    output = read()
    again = parsers.ParsedOutput.from_text(output.to_text())
    assert again == output

    def types(read_output):
        return [
            (type(result.value), [(name, type(value)) for name, value in result.params.items()])
            for result in read_output.results
        ]

    assert types(again) == types(output)
