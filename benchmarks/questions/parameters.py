"""A benchmark's own parameters in a question (`block_size=8192`): checked against the
values its results were measured with, kept on the benchmark."""

from __future__ import annotations

import math
import re
from typing import Any

from benchmarks.errors import DomainError

# A whole number as a query writes it, in ASCII digits: Python's `int()` also reads other
# scripts' digits (`٣`) and underscores, which no result was measured with.
WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")
# How many of a parameter's measured values a refusal lists.
LISTED_VALUES = 12


def coerce_param(raw: str) -> Any:
    """A query's text as the value results store: an int, a float, or the text itself. Only
    ASCII is read as a number (`①`, `٣` and `1_000` stay text)."""
    if WHOLE_NUMBER.fullmatch(raw):
        return int(raw)
    if raw.isascii() and "_" not in raw:
        try:
            return float(raw)
        except ValueError:
            pass
    return raw


def checked_value(benchmark, name: str, raw: str, value: Any) -> Any:
    """The value `raw` (read as `value`) names of the benchmark's parameter `name`: the value
    its results store when it is one of them (`8192.0`: 8192), else `value` if it is of the
    kind they are; else a DomainError naming the parameter and what it takes. A parameter
    measured only with whole numbers from 1 (processes, block_size) takes only such a
    number, written in ASCII digits (`-1`, `8192.5`, `0x2000`, `①`: a 400)."""
    measured = [known for known in benchmark.params.get(name) or [] if known is not None]
    for known in measured:
        if known == value and type(known) is not bool or str(known) == raw.strip():
            return known
    numbers = [known for known in measured if _is_number(known)]
    if not measured or len(numbers) < len(measured):
        return value  # a text parameter (op=sign), or one not measured yet
    if all(isinstance(known, int) for known in numbers):
        lowest = 1 if min(numbers) >= 1 else None
        if isinstance(value, int) and (lowest is None or value >= lowest):
            return value
        kind = "a whole number" + (" from 1" if lowest else "")
    elif _is_number(value):
        return value
    else:
        kind = "a number"
    values = sorted(measured, key=_value_order)
    listed = ", ".join(str(known) for known in values[:LISTED_VALUES])
    more = f" and {len(values) - LISTED_VALUES} more" if len(values) > LISTED_VALUES else ""
    raise DomainError(
        f"{name}={raw[:40]}: {name} takes {kind}, in ASCII digits; {benchmark.key} was "
        f"measured with {listed}{more}",
        field=name,
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _value_order(value: Any) -> tuple:
    """Numbers first, by size; then any other value by its text."""
    if _is_number(value):
        return (0, value, "")
    return (1, 0, str(value))


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
        try:
            params[name] = checked_value(benchmark, name, str(raw), value)
        except DomainError:
            if not lenient:
                raise
            if notes is not None:
                notes.append(f"{name}={raw} is not a value of {name}: dropped")
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
