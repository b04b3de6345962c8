"""A cross-cloud question (`regions=aws:eu-central-1,hcloud:fsn1`): each region's
price-performance answer for its own vendor's types, ranked together in one currency."""

from __future__ import annotations

from dataclasses import replace

from benchmarks.errors import DomainError
from benchmarks.noise import Noise
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer.baseline import apply_baseline
from benchmarks.selectors.answer.lookups import BenchmarkInRegion, benchmark_in_region
from benchmarks.selectors.answer.price_performance import price_performance_table
from benchmarks.selectors.answer.price_performance_rows import PricePerformanceTable, ranked
from benchmarks.selectors.answer.standing import kept_standing, stand


def regions_in_question(query: PricePerformanceQuery) -> list[BenchmarkInRegion]:
    """The benchmark in each region of a cross-cloud question (of `query.vendor` only, when
    it names one), or a DomainError naming `regions` for a region its vendor does not have."""
    subjects = []
    for vendor, code in _regions_asked(query):
        try:
            subject = benchmark_in_region(replace(query, region=code, regions=()))
        except DomainError as error:
            if error.field != "region":
                raise
            raise DomainError(f"{vendor}:{code}: {error.message}", field="regions") from None
        if subject.region.vendor != vendor:
            raise DomainError(
                f"{vendor}:{code}: {code} is a region of {subject.region.vendor}, not {vendor}",
                field="regions",
            )
        subjects.append(subject)
    return subjects


def _regions_asked(query: PricePerformanceQuery) -> list[tuple[str, str]]:
    """The (vendor, code) pairs a cross-cloud question ranks: all, or `vendor`'s."""
    pairs = [pair for pair in query.regions if not query.vendor or pair[0] == query.vendor]
    if not pairs:
        raise DomainError(f"none of the regions asked is {query.vendor}'s", field="vendor")
    return pairs


def cross_cloud_table(
    query: PricePerformanceQuery,
    *,
    subjects: list[BenchmarkInRegion] | None = None,
    lenient: bool = False,
    sources: bool = False,
) -> PricePerformanceTable:
    """One ranking over several vendors' regions (`query.regions`): each region's answer for
    its own vendor's types, the rows together best per dollar first (or cheapest first), each
    naming its region, in the one currency asked. A fixed number of queries per region;
    `lenient` and `sources` as for one region (`price_performance_table`)."""
    subjects = subjects or regions_in_question(query)
    asked = _regions_asked(query)
    tables = []
    for (vendor, code), subject in zip(asked, subjects, strict=True):
        table = price_performance_table(
            replace(query, region=code, regions=(), baseline=None),
            subject=subject,
            lenient=lenient,
            sources=sources,
        )
        label = f"{vendor}:{code}"
        for row in table.results:
            row.region = label
        table.unpriced = [replace(unpriced, region=label) for unpriced in table.unpriced]
        tables.append(table)
    merged = tables[0]
    merged.regions = [f"{vendor}:{code}" for vendor, code in asked]
    merged.results = ranked([row for table in tables for row in table.results], query.order)
    merged.standing = stand(
        merged.results,
        Noise.from_dict(merged.benchmark.noise),
        higher_is_better=merged.benchmark.higher_is_better,
        kept=kept_standing(merged.benchmark),
    )
    merged.unpriced = [unpriced for table in tables for unpriced in table.unpriced]
    merged.notes = [note for table in tables for note in table.notes]
    merged.baseline = query.baseline
    if query.baseline:
        apply_baseline(merged.results, query.baseline, merged.benchmark)
    return merged
