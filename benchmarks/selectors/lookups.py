"""Lookups by name that answer a DomainError suggesting the closest names."""

from __future__ import annotations

import difflib

from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, Region


def _unknown(what: str, name: str, choices: list[str], field: str) -> DomainError:
    close = difflib.get_close_matches(name, choices, n=3, cutoff=0.6)
    suggestion = f"; did you mean {', '.join(close)}?" if close else ""
    return DomainError(f"unknown {what} {name!r}{suggestion}", field=field)


def get_instance_type(name: str, *, field: str = "instance_type") -> InstanceType:
    """The instance type called `name`, or a DomainError that suggests the closest names."""
    found = InstanceType.objects.filter(name=name).first()
    if found is None:
        names = list(InstanceType.objects.values_list("name", flat=True))
        raise _unknown("instance type", name, names, field)
    return found


def get_region(code: str, *, field: str = "region") -> Region:
    """The region with AWS code `code`, or a DomainError that suggests the closest codes."""
    found = Region.objects.filter(code=code).first()
    if found is None:
        raise _unknown("region", code, list(Region.objects.values_list("code", flat=True)), field)
    return found


def get_benchmark(key: str, *, field: str = "benchmark") -> Benchmark:
    """The benchmark with `key`, or a DomainError that suggests the closest keys."""
    found = Benchmark.objects.filter(key=key).first()
    if found is None:
        raise _unknown(
            "benchmark", key, list(Benchmark.objects.values_list("key", flat=True)), field
        )
    return found


def by_name(model, field: str, names: set[str], lookup) -> dict:
    """Rows by name in one query; an unknown name raises the lookup's DomainError, which
    suggests the closest names."""
    found = {getattr(row, field): row for row in model.objects.filter(**{f"{field}__in": names})}
    for name in sorted(names - found.keys()):
        lookup(name)
    return found
