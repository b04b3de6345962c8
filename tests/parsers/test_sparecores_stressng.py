"""The stress-ng parser against Spare Cores' stressng and stressngsinglecore logs."""

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, lscpu, stressng

NO_METHOD = (
    "the log does not name the --cpu-method; method is left out: pass it "
    "(Spare Cores' runs use div16)"
)


def only_result(output):
    (result,) = output.results
    return result


def test_it_reads_bogo_ops_per_second_of_real_time_on_a_graviton3(inspector):
    # metrc: [1] cpu 60840 20.00 39.70 0.01 3041.99 1532.14 99.27 1192, on 2 cpu hogs
    output = stressng.parse(inspector.text("c7g.large", "stressng"), cpu_method="div16")

    result = only_result(output)
    assert result.benchmark == "stress-ng:cpu"
    assert (result.value, result.unit, result.higher_is_better) == (3041.99, "bogo-op/s", True)
    assert result.params == {"method": "div16", "workers": 2}
    assert output.warnings == []
    assert output.tool_version is None


def test_the_single_core_folder_gives_the_same_key_with_one_worker(inspector):
    # m5.large: 1 cpu hog, 1274.84 bogo ops/s; with 2: 1673.19 (2 vCPUs on 1 core)
    single = parsers.parse(
        inspector.data("m5.large", "stressngsinglecore"),
        format="stressngsinglecore",
        cpu_method="div16",
    )
    multi = parsers.parse(
        inspector.data("m5.large", "stressng"), format="stressng", cpu_method="div16"
    )

    assert single.format == "stressngsinglecore"
    assert multi.format == "stressng"
    assert only_result(single).benchmark == only_result(multi).benchmark == "stress-ng:cpu"
    assert only_result(single).params == {"method": "div16", "workers": 1}
    assert only_result(single).value == 1274.84
    assert only_result(multi).params == {"method": "div16", "workers": 2}
    assert only_result(multi).value == 1673.19


def test_without_the_method_it_is_left_out_with_a_warning(inspector):
    # c7g.16xlarge: 64 cpu hogs, 97879.80 bogo ops/s
    output = stressng.parse(inspector.text("c7g.16xlarge", "stressng"))

    assert only_result(output).params == {"workers": 64}
    assert only_result(output).value == 97879.80
    assert output.warnings == [NO_METHOD]


def test_every_stress_ng_log_in_the_archive_is_detected_and_read(inspector):
    for folder in ("stressng", "stressngsinglecore"):
        for instance_type, text in inspector.texts(folder):
            assert parsers.detect_format(text) == "stressng", instance_type
            output = parsers.parse(text, format=folder, cpu_method="div16")
            assert output.format == folder
            assert output.warnings == [], instance_type
            cpus = lscpu.parse(inspector.text(instance_type, "lscpu")).cpu.cpus
            expected = cpus if folder == "stressng" else 1
            assert only_result(output).params["workers"] == expected, instance_type


def test_a_failed_stressor_is_warned_about():
    text = (
        "stress-ng: info:  [1] dispatching hogs: 2 cpu\n"
        "stress-ng: metrc: [1] cpu  60840  20.00  39.70  0.01  3041.99  1532.14  99.27  1192\n"
        "stress-ng: info:  [1] failed: 1: cpu (1)\n"
        "stress-ng: info:  [1] metrics untrustworthy: 0\n"
    )

    output = stressng.parse(text, cpu_method="div16")

    assert output.warnings == ["line 3: stress-ng reports failed: 1: cpu (1)"]


def test_a_cut_metrics_line_is_refused_with_its_line(inspector):
    lines = inspector.text("c7g.large", "stressng").split("\n")
    number = next(i for i, line in enumerate(lines) if "metrc: [1] cpu " in line) + 1
    lines[number - 1] = lines[number - 1][:60]

    with pytest.raises(ParseError) as error:
        stressng.parse("\n".join(lines))

    assert error.value.line == number == 5
    assert error.value.message.startswith("cpu: 2 figures where stress-ng prints 8")


def test_a_log_without_metrics_is_refused():
    with pytest.raises(ParseError) as error:
        stressng.parse("stress-ng: info:  [1] dispatching hogs: 2 cpu\n")

    assert error.value.line == 2
    assert "no `stress-ng: metrc:` result line" in error.value.message
