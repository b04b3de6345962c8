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


# What a parameter left open means where one type was measured with several of its values,
# by the benchmark's tool: the value the tool's usual measurement takes. Spare Cores runs
# `openssl speed` with one process per vCPU, so an upload of one process beside its figures
# adds a value; the question left open still means theirs, in the API and the page alike
# (never a 400 because data arrived). Other parameters left open stay the question's to
# choose (the API refuses the mix, the page pins the best-covered value).
PER_VCPU = "per_vcpu"
OPEN_PARAMETER_RULES = {"openssl": {"processes": PER_VCPU}}
RULE_WORDS = {PER_VCPU: "one per vCPU, as Spare Cores measures"}
# The value the page pins an open parameter to when its types were measured with several,
# before the best-covered: the default question's (CONTRACT, "The default question").
PAGE_DEFAULTS = {"openssl": {"block_size": 8192}}


def open_rule(benchmark, name: str) -> str | None:
    """The rule a parameter left open follows in a type measured with several of its values
    (PER_VCPU), or None when the question has to choose."""
    return OPEN_PARAMETER_RULES.get(benchmark.tool, {}).get(name)


def rule_value(rule: str, vcpus, values) -> Any:
    """The value `rule` takes among those a type was measured with: per vCPU, the one
    nearest its vCPUs (the larger on a tie; the largest without vCPUs)."""
    numbers = [value for value in values if isinstance(value, int | float)]
    if rule != PER_VCPU or not numbers:
        return max(values, key=str)
    if not vcpus:
        return max(numbers)
    target = float(vcpus)
    return min(numbers, key=lambda value: (abs(value - target), -value))


def page_default(benchmark, name: str, values) -> Any | None:
    """The value the page pins `name` to when it is among `values` (PAGE_DEFAULTS), else
    None (the best-covered is pinned)."""
    value = PAGE_DEFAULTS.get(benchmark.tool, {}).get(name)
    return value if value in values else None


def open_label(benchmark, name: str) -> str:
    """What a menu calls `name` left open: its rule's value (one per vCPU), else "any"."""
    rule = open_rule(benchmark, name)
    return f"open: {RULE_WORDS[rule].split(',')[0]}" if rule else "any"
