"""vLLM serving measured by GuideLLM, as Spare Cores keep it -> ParsedOutput (format `vllm`).

JSON lines, one measurement each: `model` (smol-135m, qwen-0.5b, gemma-2b, llama-8b, phi-4,
llama-70b), `workload` (chat, rag, long), `mode` (cpu or gpu), `strategy` (synchronous,
throughput, constant), `concurrency` (measured, the same on every line of one load),
`measurement`, `percentile`, `score` and `unit`; `vllm_version` and `guidellm_version`.

One result per line (the shape agreed with llm-serving/, docs/sparecores.md):

- ttft, tpot, itl, e2el: `vllm:ttft`, `vllm:tpot`, `vllm:itl`, `vllm:e2el`, in `ms`, lower is
  better;
- output_throughput, total_throughput: `vllm:output-throughput`, `vllm:total-throughput`, in
  `tokens/s`, higher is better;
- request_throughput: `vllm:request-throughput`, in `requests/s`, higher is better.

Params: `model`, `workload`, `mode`, `strategy` and `concurrency` (rounded to 2 decimals: with
the strategy it names the load); latencies add `percentile` (p50, p95, p99, mean). Two loads
of one strategy whose concurrencies round alike (0.876 and 0.881) share their params: they
are one load measured twice, and their statistics are those of both. The GPU model and
count come from the instance type's specifications, not from here.
"""

from __future__ import annotations

import json
import math
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError

FORMAT = "vllm"
LATENCIES = ("ttft", "tpot", "itl", "e2el")
PERCENTILES = ("p50", "p95", "p99", "mean")
# measurement -> (key, unit as stored, the unit the line must carry)
THROUGHPUTS = {
    "output_throughput": ("vllm:output-throughput", "tokens/s", "tokens/sec"),
    "total_throughput": ("vllm:total-throughput", "tokens/s", "tokens/sec"),
    "request_throughput": ("vllm:request-throughput", "requests/s", "requests/sec"),
}
_LOAD = ("model", "workload", "mode", "strategy")
_MODES = ("cpu", "gpu")


def looks_like(text: str) -> bool:
    """True when the first non-blank line is a vLLM serving measurement."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.startswith("{") and '"vllm_serving"' in first and '"measurement"' in first


def parse(text: str) -> ParsedOutput:
    """One result per measurement line."""
    output = ParsedOutput(format=FORMAT)
    versions: set[str] = set()
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            measured = json.loads(line)
        except ValueError as error:
            raise ParseError(f"not a JSON line: {error}", line=number) from None
        if not isinstance(measured, dict):
            raise ParseError("expected a JSON object", line=number)
        output.results.append(_result(measured, number))
        if measured.get("vllm_version"):
            versions.add(
                f"vllm={measured['vllm_version']} guidellm={measured.get('guidellm_version')}"
            )
    if not output.results:
        raise ParseError("no vLLM measurement line", line=len(lines))
    if len(versions) == 1:
        output.tool_version = versions.pop()
    return output


def _result(measured: dict[str, Any], number: int) -> ParsedResult:
    params: dict[str, Any] = {}
    for name in _LOAD:
        value = measured.get(name)
        if not isinstance(value, str) or not value:
            raise ParseError(f"no {name}", line=number)
        params[name] = value
    if params["mode"] not in _MODES:
        raise ParseError(f"mode {params['mode']!r} is neither cpu nor gpu", line=number)
    params["concurrency"] = round(_number(measured, "concurrency", number), 2)
    score = _number(measured, "score", number)
    measurement, unit = measured.get("measurement"), measured.get("unit")
    if measurement in LATENCIES:
        percentile = measured.get("percentile")
        if percentile not in PERCENTILES:
            raise ParseError(
                f"{measurement}: percentile {percentile!r} is not one of {', '.join(PERCENTILES)}",
                line=number,
            )
        if unit != "ms":
            raise ParseError(f"{measurement} in {unit!r}, not ms", line=number)
        params["percentile"] = percentile
        return ParsedResult(f"vllm:{measurement}", params, score, "ms", higher_is_better=False)
    if measurement in THROUGHPUTS:
        key, stored_unit, expected = THROUGHPUTS[measurement]
        if unit != expected:
            raise ParseError(f"{measurement} in {unit!r}, not {expected}", line=number)
        return ParsedResult(key, params, score, stored_unit)
    known = ", ".join((*LATENCIES, *THROUGHPUTS))
    raise ParseError(f"measurement {measurement!r} is not one of {known}", line=number)


def _number(measured: dict[str, Any], name: str, number: int) -> float:
    value = measured.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ParseError(f"{name} {value!r} is not a figure", line=number)
    return float(value)
