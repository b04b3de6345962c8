"""What a question names must exist: each instance type of `instance_types=` and, when no
family named has results, some family of `families=`. An unknown name is a DomainError naming
it and the closest names (the API's 400), or, on a page, dropped with a note saying so."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, family_of
from benchmarks.selectors.answer.kept_series import in_families
from benchmarks.selectors.answer.lookups import did_you_mean, types_found, vendor_and_name

if TYPE_CHECKING:
    from benchmarks.models import Benchmark
    from benchmarks.questions.price_performance import PricePerformanceQuery


def unknown_types(names) -> list[str]:
    """The names of `names` (`c7g.large`, `hcloud:cax11`, read as the selectors read them) no
    instance type has, in one query."""
    found = types_found(names)
    return [text for text in names if text not in found]


def families_with_types(families) -> set[str]:
    """The families of `families` some instance type is of, in one query."""
    rows = InstanceType.objects.filter(in_families(families)).values_list("kind", "name")
    return {family_of(kind, name) for kind, name in rows} & set(families)


def checked_names(
    query: PricePerformanceQuery,
    benchmark: Benchmark,
    *,
    lenient: bool = False,
    notes: list[str] | None = None,
    types_read: bool = False,
) -> PricePerformanceQuery:
    """The question with its instance types (`known_types`) and families (`check_families`)
    checked against the benchmark's; `types_read`: the types are names the caller read from
    the database, not looked up again."""
    if query.instance_types and not types_read:
        known = known_types(query.instance_types, lenient=lenient, notes=notes)
        query = replace(query, instance_types=known)
    if not lenient:
        check_families(query.families, measured=benchmark.families, benchmark=benchmark.key)
    return query


def known_types(
    names: tuple[str, ...], *, lenient: bool = False, notes: list[str] | None = None
) -> tuple[str, ...]:
    """`names`, each an instance type some vendor has; an unknown one is refused naming it
    (`lenient`, a page: left out, with a note)."""
    unknown = unknown_types(names)
    if not unknown:
        return names
    if not lenient:
        closest = did_you_mean(unknown[0], _type_names(unknown[0])) if len(unknown) == 1 else ""
        raise DomainError(
            f"no instance type is called {', '.join(repr(name[:80]) for name in unknown)}"
            f"{closest} (write each as its vendor names it, or vendor:name: hcloud:cax11)",
            field="instance_types",
        )
    if notes is not None:
        notes.append(f"No instance type is called {', '.join(unknown)}: left out")
    return tuple(name for name in names if name not in unknown)


def check_families(families, *, measured=(), benchmark: str = "") -> None:
    """Refuse `families` when none of them has results (`measured`: the families that do)
    and no instance type is of any of them either: the answer could only be empty
    (`families=zzz`). Families that have types but no results are answered as they are."""
    if not families or set(families) & set(measured) or families_with_types(families):
        return
    listed = ", ".join(repr(family[:40]) for family in families[:10])
    where = f" (the families measured with {benchmark}: GET benchmarks/{benchmark}/)"
    raise DomainError(
        f"no instance type is of the famil{'y' if len(families) == 1 else 'ies'} {listed}"
        f"{did_you_mean(families[0], measured)}{where if benchmark else ''}",
        field="families",
    )


def _type_names(name: str) -> list[str]:
    """Instance type names that start as `name` does, to suggest the closest from."""
    stem = vendor_and_name(name)[1][:2]
    return list(
        InstanceType.objects.filter(name__startswith=stem).values_list("name", flat=True)[:5000]
    )
