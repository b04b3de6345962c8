"""llama.cpp's `llama-bench -o jsonl` output -> ParsedOutput (format `llm`).

One JSON object per line and test: `model_filename`, `n_prompt` and `n_gen` (a prompt
processing test has `n_gen` 0, a generation test `n_prompt` 0), `n_threads`,
`n_gpu_layers`, `avg_ts` (tokens per second, the mean of `samples_ts`), `stddev_ts`,
`build_commit`.

Keys, tokens per second (`token/s`), higher is better:
- `llama-bench:prompt`: prompt processing, param `tokens` = n_prompt;
- `llama-bench:generate`: text generation, param `tokens` = n_gen.
Other params: `model` (the file name without its folder), `threads` (n_threads) and
`gpu_layers` (n_gpu_layers: above 0 the test ran on a GPU, so the figures of GPU and CPU
machines stay apart). The note gives the standard deviation and the number of samples.
`tool_version` is the build commit; `cpu_model` llama.cpp's `cpu_info` where it names a
model (on ARM it says only "CPU"). A GPU machine may hold tests of both kinds: Spare Cores'
g4dn runs have `n_gpu_layers` 999 and 0. A combined test (`-pg`, both counts above 0) is skipped
with a warning.
"""

from __future__ import annotations

import json
import math
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError

FORMAT = "llm"
_REQUIRED = ("model_filename", "n_prompt", "n_gen", "n_threads", "avg_ts")
_NO_MODEL = ("", "CPU")  # what llama.cpp's cpu_info says where it knows no model name


def looks_like(text: str) -> bool:
    """True when the first non-blank line is a llama-bench JSON object."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.startswith("{") and '"avg_ts"' in first and '"model_filename"' in first


def parse(text: str) -> ParsedOutput:
    """One result per test line."""
    output = ParsedOutput(format=FORMAT)
    commits: dict[str, int] = {}
    combined: list[int] = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        test = _test(line, number)
        commit = str(test.get("build_commit") or "")
        if commit:
            commits.setdefault(commit, number)
        cpu_info = test.get("cpu_info")
        if output.cpu_model is None and isinstance(cpu_info, str) and cpu_info not in _NO_MODEL:
            output.cpu_model = cpu_info.strip()
        n_prompt, n_gen = (_count(test, name, number) for name in ("n_prompt", "n_gen"))
        if n_prompt and n_gen:
            combined.append(number)
            continue
        if not n_prompt and not n_gen:
            raise ParseError("a test with n_prompt and n_gen both 0", line=number)
        output.results.append(_result(test, number, n_prompt, n_gen))
    if not output.results:
        raise ParseError("no llama-bench test in the output", line=len(lines))
    if commits:
        output.tool_version = next(iter(commits))
    if len(commits) > 1:
        output.warnings.append(
            f"the output holds tests of several llama.cpp builds ({', '.join(commits)}); "
            f"tool_version is {output.tool_version}"
        )
    if combined:
        output.warnings.append(
            "skipped the combined prompt and generation tests (-pg), which are not read yet: "
            f"line {', '.join(map(str, combined))}"
        )
    return output


def _test(line: str, number: int) -> dict[str, Any]:
    try:
        test = json.loads(line)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not a llama-bench JSON line: {error.msg} (column {error.colno})", line=number
        ) from None
    if not isinstance(test, dict):
        raise ParseError("not a llama-bench JSON object", line=number)
    missing = [name for name in _REQUIRED if name not in test]
    if missing:
        raise ParseError(f"a llama-bench test without {', '.join(missing)}", line=number)
    return test


def _count(test: dict[str, Any], name: str, number: int) -> int:
    value = test.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ParseError(f"{name} is not a whole number: {value!r}", line=number)
    return value


def _result(test: dict[str, Any], number: int, n_prompt: int, n_gen: int) -> ParsedResult:
    model = test["model_filename"]
    if not isinstance(model, str) or not model.strip():
        raise ParseError(f"model_filename is not a file name: {model!r}", line=number)
    rate = test["avg_ts"]
    if not isinstance(rate, int | float) or isinstance(rate, bool) or not math.isfinite(rate):
        raise ParseError(f"avg_ts is not a number: {rate!r}", line=number)
    if rate < 0:
        raise ParseError(f"avg_ts is negative: {rate!r}", line=number)
    params = {
        "model": model.replace("\\", "/").rsplit("/", 1)[-1],
        "tokens": n_prompt or n_gen,
        "threads": _count(test, "n_threads", number),
        "gpu_layers": _count(test, "n_gpu_layers", number),
    }
    return ParsedResult(
        "llama-bench:prompt" if n_prompt else "llama-bench:generate",
        params,
        float(rate),
        "token/s",
        notes=_spread(test),
    )


def _spread(test: dict[str, Any]) -> str | None:
    stddev, samples = test.get("stddev_ts"), test.get("samples_ts")
    if not isinstance(stddev, int | float) or not isinstance(samples, list):
        return None
    return f"standard deviation {stddev:.6g} token/s over {len(samples)} samples"
