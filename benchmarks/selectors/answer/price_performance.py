"""Price-performance: what a dollar buys on each instance type, from the kept statistics.

One question (`PricePerformanceQuery`) answered in at most six queries whatever the number of
results or types: the benchmark and the region, the series' statistics, and three for
prices. Results measured anywhere count (a benchmark measures the machine); the prices are
the region's. Results measured with different parameters are never mixed in one row. The
arithmetic is `benchmarks.per_dollar`'s, a row's figures on the basis asked
`selectors.answer.basis`'s; several vendors' regions ranked together are
`selectors.answer.cross_cloud`'s.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from benchmarks.currency import exchange_rate
from benchmarks.errors import DomainError
from benchmarks.models import InstanceType
from benchmarks.noise import Noise
from benchmarks.questions.parameters import benchmark_params
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer import busy, question_names, verified
from benchmarks.selectors.answer.baseline import apply_baseline
from benchmarks.selectors.answer.basis import bandwidth_figures, on_basis
from benchmarks.selectors.answer.fargate_estimates import estimated_series
from benchmarks.selectors.answer.kept_series import (
    EXTRAS,
    question_rows,
)
from benchmarks.selectors.answer.lookups import BenchmarkInRegion, benchmark_in_region
from benchmarks.selectors.answer.open_parameters import one_value_per_parameter
from benchmarks.selectors.answer.price_performance_rows import (
    PricePerformanceRow,
    PricePerformanceTable,
    Unpriced,
    ranked,
)
from benchmarks.selectors.answer.standing import kept_standing, stand
from benchmarks.selectors.costs import prices
from benchmarks.services.statistics.attach import params_key

BANDWIDTH_UNIT = "bit/s"


def price_performance_table(
    query: PricePerformanceQuery,
    *,
    subject: BenchmarkInRegion | None = None,
    lenient: bool = False,
    sources: bool = False,
    types_read: bool = False,
) -> PricePerformanceTable:
    """Per instance type and variant: statistics, price in the region, and per-dollar figures.

    `lenient` (the page): parameters that do not apply are dropped and open parameters pinned
    to their best-covered value, each with a note, instead of a 400. `sources` also reads
    each row's sources and flagged runs (the page, which reads the samples of the rows it
    draws with `read_samples`); `include_values` reads them and every row's samples.
    `types_read`: the query's instance types are names the caller read from the database
    (the finder's), not looked up again (question_names.checked_names).
    """
    at = query.at or timezone.localdate()
    subject = subject or benchmark_in_region(query)
    benchmark, region = subject.benchmark, subject.region
    if query.vendor and query.vendor != region.vendor:
        raise DomainError(
            f"{region.code} is a region of {region.vendor}, not {query.vendor}: its prices "
            f"are {region.vendor}'s types'",
            field="vendor",
        )
    notes: list[str] = []
    params = benchmark_params(benchmark, query.params, lenient=lenient, notes=notes)
    query = question_names.checked_names(
        query, benchmark, lenient=lenient, notes=notes, types_read=types_read
    )
    rate = exchange_rate(query.currency, at)
    if query.include_values:
        extras = EXTRAS
    elif sources:
        extras = EXTRAS[:2]  # sources, flags
    else:
        extras = ()
    # A benchmark measures the machine; a region prices only its own vendor's machines.
    rows = question_rows(benchmark, query, params, region=region, extras=extras)
    if query.busy is not None:
        # Each type at its share of vCPUs busy (selectors/answer/busy.py).
        rows = busy.at_busy(rows, busy.worker_parameter(benchmark, params), query.busy)
    said: list[str] = []
    rows = one_value_per_parameter(rows, params, lenient, notes, benchmark, said)
    if query.verified_only:
        rows = verified.only_verified(rows, measured_in=query.measured_in)
    # Fargate sizes no task measured, estimated (selectors/answer/fargate_estimates.py).
    estimates = {
        found.series.machine.pk: found
        for found in estimated_series(benchmark, query, params, region, rows)
    }
    rows += [found.series for found in estimates.values()]
    quotes = prices.hourly_prices(
        instance_types={row.machine for row in rows},
        region=region,
        purchase_option=query.purchase,
        day=at,
    )
    table = PricePerformanceTable(
        benchmark=benchmark,
        region=region,
        purchase_option=query.purchase_option,
        at=at,
        params=params,
        baseline=query.baseline,
        measured_in=query.measured_in,
        include_values=query.include_values,
        include_quartiles=query.include_quartiles,
        basis=query.basis,
        price_dates=query.price_dates,
        purchase=query.purchase,
        exchange_rate=rate,
        notes=notes,
        open_rules=said,
        order=query.order,
    )
    # The rows share a few parameter sets, one dict each (kept_series.params_of): each is
    # keyed once, not once a row.
    keys: dict[int, str] = {}
    for row in rows:
        instance_type = row.machine
        quote = quotes[instance_type.pk]
        estimate = estimates.get(instance_type.pk)
        if estimate is not None and quote.usd_per_hour is None:
            continue  # an estimate is offered where it has a price, never listed unpriced
        if quote.usd_per_hour is None or (query.price_dates == "exact" and not quote.in_force):
            reason = quote.note or "no price known"
            if quote.usd_per_hour is not None:
                reason = f"price_dates=exact: {reason}"
            if instance_type.kind == InstanceType.Kind.DATABASE:
                reason = "a DB instance class: priced per engine by database-price-performance/"
            table.unpriced.append(
                Unpriced(
                    instance_type=instance_type.name,
                    variant=row.variant or None,
                    family=instance_type.family,
                    reason=reason,
                    runs=row.runs,
                    median=row.median,
                )
            )
            continue
        usd = float(quote.usd_per_hour)
        key = keys.get(id(row.params))
        if key is None:
            key = keys[id(row.params)] = params_key(row.params)
        basis = on_basis(
            instance_type,
            row.median,
            usd,
            query.basis,
            higher_is_better=benchmark.higher_is_better,
            params=row.params,
        )
        price, used = prices.in_currency(quote, usd, rate)
        # Every field given in its declared order, none by keyword and none merged in from a
        # dict: a thousand rows' keywords took three times as long as the rest of the call,
        # and merges cost more still (docs/performance.md).
        priced = PricePerformanceRow(
            instance_type.name,  # instance_type
            row.variant or None,  # variant
            instance_type.kind,  # kind
            instance_type.family,  # family
            instance_type.vendor,  # vendor
            instance_type.vcpu_count,  # vcpus
            row.runs,  # runs
            row.results,  # results
            row.median,  # median
            row.minimum,  # min
            row.maximum,  # max
            row.first_quartile,  # first_quartile
            row.third_quartile,  # third_quartile
            row.cpu_models,  # cpu_models
            row.regions,  # measured_in
            row.sources,  # sources
            row.samples,  # samples
            usd,  # usd_per_hour
            quote.note,  # price_note
            basis["per_dollar"],  # per_dollar
            basis["basis_figure"],  # basis_figure
            quote.effective_from,  # price_effective_from
            quote.in_force,  # price_in_force
            instance_type.allocation,  # cpu_allocation
            row.flagged_runs or 0,  # flagged_runs
            row.only_flagged,  # only_flagged
            row.verified_runs,  # verified_runs
            row.flags,  # flags
            row.statistics_id,  # statistics_id
            _float_or_none(quote.upfront_usd),  # upfront_usd
            _float_or_none(quote.hourly_usd),  # hourly_usd
            rate.currency,  # currency
            price,  # price_per_hour
            used.per_usd,  # exchange_rate
            used.day,  # exchange_rate_date
            estimate and estimate.estimate,  # estimate
            key,  # params_key
        )
        if len(basis) > 2:  # a burstable type's figures on every basis
            _set(priced, basis)
        if benchmark.unit == BANDWIDTH_UNIT:
            _set(priced, bandwidth_figures(instance_type, row.median, usd))
        table.results.append(priced)
    table.results = ranked(table.results, query.order)
    table.standing = stand(
        table.results,
        Noise.from_dict(benchmark.noise),
        higher_is_better=benchmark.higher_is_better,
        kept=kept_standing(benchmark),
    )
    if query.baseline:
        try:
            apply_baseline(table.results, query.baseline, benchmark)
        except DomainError as error:
            if not lenient:
                raise
            # The page keeps a baseline chosen for another benchmark or region: drop it.
            table.baseline = None
            notes.append(f"{error.message}: shown without a baseline")
    return table


def _set(row: PricePerformanceRow, values: dict[str, Any]) -> None:
    for name, value in values.items():
        setattr(row, name, value)


def _float_or_none(value) -> float | None:
    return None if value is None else float(value)
