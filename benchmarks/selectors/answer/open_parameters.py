"""A parameter the question left open (`processes`, `block_size`) with several values in one
type's results: refused (the API), pinned (the page), or, where the benchmark's tool says what
it means (`questions.parameters.open_rule`: openssl's processes, one per vCPU), taken by that
rule for each type, in both."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from benchmarks.errors import AmbiguousParameter
from benchmarks.models import Benchmark
from benchmarks.questions.parameters import RULE_WORDS, open_rule, page_default, rule_value
from benchmarks.selectors.answer.kept_series import KeptSeries


def _open_parameters(rows: list[KeptSeries]) -> list[tuple[str, tuple, set]]:
    """(parameter, machine, values) for each parameter with several values in one row."""
    groups: dict[tuple, list[KeptSeries]] = defaultdict(list)
    for row in rows:
        groups[(row.machine.name, row.variant)].append(row)
    ambiguous = []
    for machine, members in groups.items():
        if len(members) < 2:
            continue
        seen: dict[str, set] = defaultdict(set)
        for member in members:
            for name, value in member.params.items():
                seen[name].add(_hashable(value))
        for name, values in sorted(seen.items()):
            if len(values) > 1:
                ambiguous.append((name, machine, values))
    return ambiguous


def _hashable(value: Any) -> Any:
    return str(value) if isinstance(value, dict | list) else value


def one_value_per_parameter(
    rows: list[KeptSeries],
    params: dict[str, Any],
    lenient: bool,
    notes: list[str],
    benchmark: Benchmark,
    said: list[str],
) -> list[KeptSeries]:
    """Refuse to mix parameters in a row, but where the benchmark's tool says what a parameter
    left open means (`parameters.open_rule`: openssl's processes, one per vCPU): each type
    then takes that value, said in `said`. The page pins any other to the value its tool's
    default question asks (`parameters.page_default`), else the best-covered."""
    while True:
        ambiguous = _open_parameters(rows)
        if not ambiguous:
            return rows
        name, (type_name, _), values = ambiguous[0]
        rule = open_rule(benchmark, name)
        if rule is not None:
            rows = _by_rule(rows, name, rule, said)
            continue
        if not lenient:
            shown = ", ".join(str(v) for v in sorted(values, key=str))
            raise AmbiguousParameter(
                f"results for {type_name} were measured with several values of "
                f"{name} ({shown}); choose one with {name}=",
                name=name,
            )
        coverage: dict[Any, set] = defaultdict(set)
        for row in rows:
            if name in row.params:
                coverage[_hashable(row.params[name])].add(row.machine.pk)
        best = page_default(benchmark, name, coverage)
        if best is None:
            best = max(coverage, key=lambda value: (len(coverage[value]), str(value)))
            notes.append(f"{name} set to {best}, the value most instance types were measured with")
        else:
            notes.append(f"{name} set to {best}, as {benchmark.tool}'s default question asks")
        params[name] = best
        rows = [row for row in rows if _hashable(row.params.get(name)) == best]


def _by_rule(rows: list[KeptSeries], name: str, rule: str, said: list[str]) -> list[KeptSeries]:
    """Each type measured with several values of `name` at the value `rule` gives it; one
    sentence names the rule and the values left aside (the question can choose them)."""
    groups: dict[tuple, list[KeptSeries]] = defaultdict(list)
    for row in rows:
        groups[(row.machine.name, row.variant)].append(row)
    kept, others = [], []
    for (type_name, _), members in groups.items():
        values = {_hashable(member.params.get(name)) for member in members}
        if len(values) < 2:
            kept.extend(members)
            continue
        chosen = rule_value(rule, members[0].machine.vcpus, values)
        kept.extend(member for member in members if _hashable(member.params.get(name)) == chosen)
        aside = ", ".join(str(value) for value in sorted(values - {chosen}, key=str))
        others.append(f"{type_name} also with {aside}")
    shown = "; ".join(others[:3]) + (f"; {len(others) - 3} more types" if len(others) > 3 else "")
    said.append(f"{name} left open: {RULE_WORDS[rule]} ({shown}: choose {name}= to rank those)")
    return kept
