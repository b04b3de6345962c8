"""The bw_mem parser against Spare Cores' lmbench bw_mem outputs."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, bw_mem

NO_PROCESSES = (
    "the output does not record how many processes ran (bw_mem -P); processes is left out: "
    "pass it (Spare Cores' harness runs one per vCPU)"
)


def by_op_and_size(output):
    return {(r.benchmark, r.params["size"]): r for r in output.results}


def test_it_reads_megabytes_as_powers_of_ten_on_a_graviton3(inspector):
    # rd 0.016384 196561.68 / rd 1.00 124149.39 / wr 512.00 21001.62 / rdwr 8.00 67851.44
    output = bw_mem.parse(inspector.text("c7g.large", "bw_mem"), processes=2)

    assert output.format == "bw_mem"
    assert output.warnings == []
    results = by_op_and_size(output)
    assert len(results) == 33
    rd_16k = results[("bw_mem:rd", 16384)]
    assert (rd_16k.value, rd_16k.unit, rd_16k.higher_is_better) == (196561680000.0, "B/s", True)
    assert rd_16k.params == {"size": 16384, "processes": 2}
    assert results[("bw_mem:rd", 1000000)].value == 124149390000.0
    assert results[("bw_mem:wr", 512000000)].value == 21001620000.0
    assert results[("bw_mem:rdwr", 8000000)].value == 67851440000.0


def test_without_processes_the_param_is_left_out_with_a_warning(inspector):
    # m5.large: rd 0.016384 95337.87
    output = bw_mem.parse(inspector.text("m5.large", "bw_mem"))

    assert output.warnings == [NO_PROCESSES]
    assert output.results[0].params == {"size": 16384}
    assert output.results[0].value == 95337870000.0


def test_the_package_passes_processes_through_and_names_the_format(inspector):
    output = parsers.parse(inspector.data("m5.large", "bw_mem"), processes=2)

    assert output.format == "bw_mem"
    assert {r.params["processes"] for r in output.results} == {2}
    assert output.warnings == []


def test_it_reads_the_lines_of_t2_micro_that_runs_which_printed_nothing_garbled(inspector):
    # Line 11 `rd wr 0.016384 42471.65`: the rd 512M run printed nothing, then wr 16k;
    # line 21 `wr rdwr 0.016384 41882.72` likewise; line 31 `rdwr `: rdwr 512M printed nothing.
    output = bw_mem.parse(inspector.text("t2.micro", "bw_mem"), processes=1)

    results = by_op_and_size(output)
    assert len(results) == 30
    assert results[("bw_mem:wr", 16384)].value == 42471650000.0
    assert results[("bw_mem:rdwr", 16384)].value == 41882720000.0
    assert ("bw_mem:rd", 512000000) not in results
    assert ("bw_mem:rdwr", 512000000) not in results
    assert output.warnings == [
        "3 runs printed no figures (their operation's name stands alone or in front of the "
        "next run's figures) and were skipped: `rd` (line 11), `wr` (line 21), `rdwr` (line 31)"
    ]


def test_every_bw_mem_output_in_the_archive_is_detected_and_read(inspector):
    short = {}
    for instance_type, text in inspector.texts("bw_mem"):
        assert parsers.detect_format(text) == "bw_mem", instance_type
        output = parsers.parse(text, format="bw_mem", processes=1)
        assert {r.benchmark for r in output.results} == {"bw_mem:rd", "bw_mem:wr", "bw_mem:rdwr"}
        if len(output.results) != 33:
            short[instance_type] = len(output.results)
    # Machines of 1 GB or less could not run the largest sizes.
    assert short == {
        "t2.micro": 30,
        "t2.nano": 27,
        "t3.nano": 27,
        "t3a.micro": 30,
        "t3a.nano": 27,
        "t4g.micro": 30,
        "t4g.nano": 27,
    }


@pytest.mark.parametrize(
    "line",
    ["rd 0.262144 fast", "rd 0.262144", "copy 0.262144 136654.77", "bw_mem: out of memory"],
)
def test_a_line_that_is_not_a_result_is_refused_with_its_number(line):
    text = f"rd 0.016384 196561.68\n{line}\nrd 1.00 124149.39\n"

    with pytest.raises(ParseError) as error:
        bw_mem.parse(text)

    assert error.value.line == 2
    assert "not a bw_mem result" in error.value.message


def test_an_output_without_any_result_is_refused():
    with pytest.raises(ParseError) as error:
        bw_mem.parse("rd\nwr\n")

    assert error.value.line == 3
    assert error.value.message == "no bw_mem result in the output"


def test_it_claims_bw_mem_lines_only(inspector):
    assert bw_mem.looks_like(inspector.text("t2.micro", "bw_mem"))
    assert not bw_mem.looks_like("rd wr 0.016384 42471.65\n")
    assert not bw_mem.looks_like(inspector.text("t2.micro", "redis"))
