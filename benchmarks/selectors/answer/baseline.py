"""A price-performance answer's baseline (`baseline=`): the row it names and every row's
figures relative to it (throughput, cost, work per dollar)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchmarks import per_dollar as arithmetic
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, Vendor
from benchmarks.selectors.answer.lookups import type_and_variant

if TYPE_CHECKING:
    from benchmarks.selectors.answer.price_performance_rows import PricePerformanceRow


def _named_rows(rows: list[PricePerformanceRow], text: str) -> list[PricePerformanceRow]:
    """The rows `text` names as `baseline=` does (`cax11`, `hcloud:cax11`, `c7a.xlarge:base`,
    `hcloud:cax11:base`): of its variant when it names one; a bare name is AWS's when AWS has
    a row of it."""
    vendor, name, variant = type_and_variant(text)
    named = [row for row in rows if row.instance_type == name and vendor in (None, row.vendor)]
    if vendor is None and any(row.vendor == Vendor.AWS for row in named):
        named = [row for row in named if row.vendor == Vendor.AWS]
    return [row for row in named if row.variant == variant] if variant else named


def baseline_row(rows: list[PricePerformanceRow], baseline: str, benchmark: str):
    """The row `baseline` names (`_named_rows`; without a variant, the one row without), or a
    DomainError naming the field."""
    _, name, variant = type_and_variant(baseline)
    candidates = _named_rows(rows, baseline)
    if not variant and len(candidates) > 1:
        plain = [row for row in candidates if row.variant is None]
        if len(plain) != 1:
            variants = ", ".join(sorted(str(row.variant) for row in candidates))
            raise DomainError(
                f"baseline {name} has several variants ({variants}); name one as {name}:VARIANT",
                field="baseline",
            )
        candidates = plain
    if not candidates:
        raise DomainError(
            f"baseline {baseline} has no priced results for {benchmark} with these "
            "parameters in this region",
            field="baseline",
        )
    return candidates[0]


def apply_baseline(rows: list[PricePerformanceRow], baseline: str, benchmark: Benchmark) -> None:
    base = baseline_row(rows, baseline, benchmark.key)
    for row in rows:
        row.relative_throughput = arithmetic.relative_throughput(
            row.basis_figure, base.basis_figure, higher_is_better=benchmark.higher_is_better
        )
        row.relative_cost = arithmetic.relative(row.usd_per_hour, base.usd_per_hour)
        row.relative_per_dollar = arithmetic.relative(row.per_dollar, base.per_dollar)
