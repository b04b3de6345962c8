"""A benchmark's own parameters in a question (`block_size=8192`): checked against the
values its results were measured with, kept on the benchmark."""

from __future__ import annotations

import math
from typing import Any

from benchmarks.errors import DomainError


def coerce_param(raw: str) -> Any:
    """A query's text as the value results store: an int, a float, or the text itself."""
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw


def storable(value: Any) -> bool:
    """Whether a coerced value is one a result's parameters can hold (and JSON and the
    databases can compare): a whole number within 64 bits, a finite number, or text."""
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    if isinstance(value, float):
        return math.isfinite(value)
    return True


def benchmark_params(
    benchmark,
    given: dict[str, str],
    *,
    lenient: bool = False,
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """A query's parameters as stored values; unknown names are refused with a DomainError
    naming the benchmark's own, or (`lenient`, the page) dropped with a note."""
    params = {}
    for name, raw in given.items():
        if name not in benchmark.params:
            if lenient:
                if notes is not None:
                    notes.append(f"{name}={raw} does not apply to {benchmark.key} and was dropped")
                continue
            listed = ", ".join(benchmark.params) or "none"
            raise DomainError(
                f"unknown parameter {name!r} for {benchmark.key} (its parameters: {listed})",
                field=name,
            )
        value = coerce_param(str(raw))
        if not storable(value):
            raise DomainError(
                f"{name}={str(raw)[:40]} is out of range: a whole number within 64 bits or "
                "a finite number",
                field=name,
            )
        params[name] = value
    return params


def measured_params(benchmark, given: dict[str, str], notes: list[str]) -> dict[str, str]:
    """The page's parameters that the benchmark was measured with; the others are dropped,
    each kind of drop said in one note."""
    params, foreign, unmeasured = {}, [], []
    for name, raw in given.items():
        if name not in benchmark.params:
            foreign.append(f"{name}={raw}")
        elif coerce_param(str(raw)) not in benchmark.params[name]:
            unmeasured.append(f"{name}={raw}")
        else:
            params[name] = raw
    if foreign:
        notes.append(
            f"{', '.join(foreign)} {'does' if len(foreign) == 1 else 'do'} not apply to "
            f"{benchmark.key}: dropped."
        )
    if unmeasured:
        notes.append(
            f"{benchmark.key} was not measured with {', '.join(unmeasured)}: "
            "the best-covered value is shown instead."
        )
    return params
