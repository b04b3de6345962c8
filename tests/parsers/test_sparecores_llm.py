"""The llm parser against Spare Cores' llama-bench JSON lines."""

import json

import pytest

from benchmarks import parsers
from benchmarks.parsers import ParseError, llama_bench

FORMAT = "llm"


def find(output, benchmark, **params):
    (found,) = [
        r
        for r in output.results
        if r.benchmark == benchmark and all(r.params[k] == v for k, v in params.items())
    ]
    return found


def test_it_reads_prompt_and_generation_tests_of_a_graviton3(inspector):
    # line 2: SmolLM-135M, n_prompt 128, avg_ts 137.255758; line 6: n_gen 128, avg_ts 53.012693
    output = llama_bench.parse(inspector.text("c7g.large", "llm"))

    assert output.format == "llm"
    assert output.tool_version == "51f311e0"
    assert output.cpu_model is None  # llama.cpp says only "CPU" on ARM
    assert output.warnings == []
    assert len(output.results) == 16
    prompt = find(output, "llama-bench:prompt", model="SmolLM-135M.Q4_K_M.gguf", tokens=128)
    assert prompt.params == {
        "model": "SmolLM-135M.Q4_K_M.gguf",
        "tokens": 128,
        "threads": 2,
        "gpu_layers": 0,
    }
    assert (prompt.value, prompt.unit, prompt.higher_is_better) == (137.255758, "token/s", True)
    generate = find(output, "llama-bench:generate", model="SmolLM-135M.Q4_K_M.gguf", tokens=128)
    assert generate.value == 53.012693
    assert generate.notes == "standard deviation 4.35025 token/s over 5 samples"
    assert find(output, "llama-bench:generate", model="gemma-2b.Q4_K_M.gguf", tokens=16).value == (
        6.685949
    )


def test_it_names_the_intel_cpu_llama_cpp_saw(inspector):
    # m5.large line 1: cpu_info "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", 1 thread
    output = llama_bench.parse(inspector.text("m5.large", "llm"))

    assert output.cpu_model == "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz"
    first = output.results[0]
    assert (first.benchmark, first.value) == ("llama-bench:prompt", 107.144694)
    assert first.params == {
        "model": "SmolLM-135M.Q4_K_M.gguf",
        "tokens": 16,
        "threads": 1,
        "gpu_layers": 0,
    }


def test_gpu_layers_keep_the_gpu_and_cpu_tests_of_a_g4dn_apart(inspector):
    # 46 tests offloaded to the Tesla T4 (n_gpu_layers 999), 5 of Llama-3.3-70B on the CPU.
    output = llama_bench.parse(inspector.text("g4dn.4xlarge", "llm"))

    on_gpu = [r for r in output.results if r.params["gpu_layers"] == 999]
    on_cpu = [r for r in output.results if r.params["gpu_layers"] == 0]
    assert (len(on_gpu), len(on_cpu)) == (46, 5)
    assert output.results[0].value == 2469.559366
    assert {r.params["model"] for r in on_cpu} == {"Llama-3.3-70B-Instruct-Q4_K_M.gguf"}
    slow = find(output, "llama-bench:prompt", gpu_layers=0, tokens=16)
    assert slow.value == 1.831276


def test_every_llm_output_in_the_archive_is_detected_and_read(inspector):
    for instance_type, text in inspector.texts("llm"):
        assert parsers.detect_format(text) == "llm", instance_type
        output = parsers.parse(text, format=FORMAT)
        tests = [json.loads(line) for line in text.splitlines() if line.strip()]
        assert [r.value for r in output.results] == [t["avg_ts"] for t in tests], instance_type
        assert output.warnings == [], instance_type


def test_folders_that_ran_without_output_hold_only_their_meta_json(inspector):
    # The README: 6 llm folders have exit_code 0 but no result file.
    empty = [
        name
        for name in inspector.instance_types("llm", "meta.json")
        if not inspector.has(name, "llm")
        and json.loads(inspector.text(name, "llm", "meta.json"))["exit_code"] == 0
    ]

    assert empty == [
        "c5.9xlarge",
        "i4i.metal",
        "m1.large",
        "m1.small",
        "m2.xlarge",
        "r7iz.metal-32xl",
    ]
    with pytest.raises(ParseError, match="could not recognise"):
        parsers.parse(inspector.data("c5.9xlarge", "llm", "meta.json"))


def test_a_combined_prompt_and_generation_test_is_skipped_with_a_warning(inspector):
    lines = inspector.text("c7g.large", "llm").splitlines()
    combined = json.loads(lines[0]) | {"n_prompt": 512, "n_gen": 128}
    lines.insert(1, json.dumps(combined))

    output = llama_bench.parse("\n".join(lines))

    assert len(output.results) == 16
    assert output.warnings == [
        "skipped the combined prompt and generation tests (-pg), which are not read yet: line 2"
    ]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda line: line[:200], "not a llama-bench JSON line: Unterminated string"),
        (lambda line: line.replace('"avg_ts": 135.888880', '"avg_ts": "fast"'), "avg_ts is not"),
        (lambda line: line.replace('"avg_ts"', '"mean_ts"'), "without avg_ts"),
    ],
)
def test_a_garbled_test_line_is_refused_with_its_number(inspector, change, message):
    lines = inspector.text("c7g.large", "llm").splitlines()
    lines[0] = change(lines[0])

    with pytest.raises(ParseError) as error:
        llama_bench.parse("\n\n".join(lines))

    assert error.value.line == 1
    assert message in error.value.message


def test_a_garbled_line_further_down_is_named_by_its_number(inspector):
    lines = inspector.text("c7g.large", "llm").splitlines()
    lines[9] = "llama_model_load: error loading model"

    with pytest.raises(ParseError) as error:
        llama_bench.parse("\n".join(lines))

    assert error.value.line == 10
