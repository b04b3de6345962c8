"""A buyer's workload predicted on every type: the model (benchmarks/workload/model.py) fitted
to their figures, priced in the region(s) asked, ranked per dollar by the one tie rule.

Nothing is stored: a prediction is a question, not a result. The vectors are read once per
change of the statistics (selectors/subjects/workload_vectors.py); prices in at most three queries
per region (selectors/costs/prices.py).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field

import numpy as np
from django.utils import timezone

from benchmarks.currency import USD, exchange_rate
from benchmarks.errors import DomainError
from benchmarks.models import Region, qualified_name
from benchmarks.noise import rank_ranges
from benchmarks.per_dollar import per_dollar_interval
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer.basis import on_basis
from benchmarks.selectors.answer.lookups import vendor_and_name
from benchmarks.selectors.costs import prices
from benchmarks.selectors.subjects.workload_vectors import load_vectors
from benchmarks.workload import model, validation

# Two figures for one type differ beyond noise past this lead: the buyer's own noise is not
# known, so a typical benchmark's 95% repeat quantile stands in (docs/noise.md).
DUPLICATE_MARGIN = 0.10
# The summary names the model's heaviest few benchmarks (`model.benchmarks` lists them all).
NAMED = 3


@dataclass(frozen=True)
class WorkloadQuestion:
    """What the buyer asks: figures [(type name as given, value)], and how to price them."""

    figures: list[tuple[str, float]]
    higher_is_better: bool = True
    unit: str = ""
    regions: list[tuple[str, str]] = field(default_factory=list)  # (vendor, code)
    purchase_option: str = "on_demand"
    currency: str = USD
    at: datetime.date | None = None
    exclude_benchmarks: list[str] = field(default_factory=list)
    # How burstable types are ranked, as price-performance's `basis`: sustained or burst.
    basis: str = "sustained"


def predict_workload(question: WorkloadQuestion) -> dict:
    """The answer of `POST /api/v1/workloads/predict/` (plain data, as the API writes it)."""
    loaded = load_vectors()
    by_name = {(t.vendor, t.name): t for t in loaded.types.values()}
    if any(_named(text) not in by_name for text, _ in question.figures):
        # A type measured since the vectors kept (or stored) were read: they are read as the
        # data stands before the type is called unknown.
        loaded = load_vectors(current=True)
        by_name = {(t.vendor, t.name): t for t in loaded.types.values()}
    vectors = loaded.vectors
    position = vectors.index_of()
    figures: dict[int, float] = {}
    for index, (text, value) in enumerate(question.figures):
        found = by_name.get(_named(text))
        if found is None:
            raise DomainError(
                f"figures[{index}]: unknown instance type {text!r} (or no benchmark figures "
                "for it); another cloud's type is vendor:name",
                field="figures",
            )
        log = math.log(value) if question.higher_is_better else -math.log(value)
        if found.pk in figures:
            lead = math.exp(abs(figures[found.pk] - log)) - 1
            if lead > DUPLICATE_MARGIN:
                raise DomainError(
                    f"figures[{index}]: two figures for {text} differ by {lead:.0%}, beyond the "
                    f"{DUPLICATE_MARGIN:.0%} two runs of one type differ by; give one",
                    field="figures",
                )
            log = (figures[found.pk] + log) / 2
        figures[found.pk] = log
    if len(figures) < 2:
        raise DomainError("figures: at least two instance types are needed", field="figures")
    excluded_names = set(question.exclude_benchmarks)
    known = {c.benchmark for c in loaded.columns} | {c.tool for c in loaded.columns}
    unknown = sorted(excluded_names - known)
    if unknown:
        raise DomainError(
            f"exclude_benchmarks: unknown benchmark or tool {unknown[0]!r}",
            field="exclude_benchmarks",
        )
    excluded = np.array(
        [c.benchmark in excluded_names or c.tool in excluded_names for c in loaded.columns]
    )
    given = [position[pk] for pk in figures]
    y = list(figures.values())
    try:
        fitted = model.choose(vectors, given, y, excluded=excluded)
    except model.NotEnough as error:
        raise DomainError(f"figures: {error}", field="figures") from None
    predicted = model.predict_all(vectors, fitted, given, y)
    rows, not_predicted = _rows(question, loaded, predicted, figures)
    _rank(rows)
    return {
        "results": rows,
        "not_predicted": not_predicted,
        "model": _model(loaded, fitted),
        "validation": _validation(fitted),
        "unit": question.unit,
        "higher_is_better": question.higher_is_better,
        "summary": _summary(question, loaded, fitted, rows),
    }


def _named(text: str) -> tuple[str, str]:
    """A type as the buyer names it, as (vendor, name): AWS's unless a vendor is given."""
    vendor, name = vendor_and_name(text)
    return vendor or "aws", name


def _value(log: float, higher_is_better: bool) -> float:
    return math.exp(log) if higher_is_better else math.exp(-log)


def _regions(question: WorkloadQuestion) -> dict[str, Region]:
    found = {}
    for vendor, code in question.regions:
        region = Region.objects.filter(vendor=vendor, code=code).first()
        if region is None:
            field_name = "regions" if len(question.regions) > 1 else "region"
            raise DomainError(f"unknown region {vendor}:{code}", field=field_name)
        found[vendor] = region
    return found


def _rows(question, loaded, predicted, figures) -> tuple[list[dict], list[dict]]:
    """Each predicted type of a vendor asked, priced in that vendor's region."""
    vectors = loaded.vectors
    regions = _regions(question)
    at = question.at or timezone.localdate()
    rate = exchange_rate(question.currency, at)
    purchase = Purchase.of(question.purchase_option)
    wanted = []
    not_predicted = []
    for row, (type_id, found) in enumerate(zip(vectors.types, predicted, strict=True)):
        machine = loaded.types[type_id]
        if machine.vendor not in regions:
            continue
        if found is None:
            not_predicted.append({
                "instance_type": qualified_name(machine.vendor, machine.name),
                "reason": "no figure of the model's benchmarks, nor of one that predicts "
                "your figures within half to twice",
            })  # fmt: skip
            continue
        wanted.append((row, machine, found))
    quotes = {}
    for vendor, region in regions.items():
        quotes |= prices.hourly_prices(
            instance_types=[m for _, m, _ in wanted if m.vendor == vendor],
            region=region,
            purchase_option=purchase,
            day=at,
        )
    rows = []
    hib = question.higher_is_better
    for _row, machine, found in wanted:
        quote = quotes.get(machine.pk)
        if quote is None or quote.usd_per_hour is None:
            continue
        usd = float(quote.usd_per_hour)
        measured = machine.pk in figures
        log = figures[machine.pk] if measured else found.log
        reach = math.log1p(model.FLOOR) if measured else found.reach
        value, low, high = (_value(v, hib) for v in (log, log - reach, log + reach))
        low, high = sorted((low, high))
        # What a dollar buys on the question's basis, as price-performance's (a burstable
        # type sustains its baseline share of the figure, every vCPU taken as busy).
        bought = on_basis(machine, value, usd, question.basis, higher_is_better=hib)
        per_dollar = bought["per_dollar"]
        if not per_dollar or not math.isfinite(per_dollar):
            continue  # unlimited mode without a surplus rate: no figure on that basis
        per_low, per_high = per_dollar_interval(per_dollar, low, high, value, higher_is_better=hib)
        rows.append({
            "instance_type": qualified_name(machine.vendor, machine.name),
            "vendor": machine.vendor,
            "predicted": _round(value),
            "interval": {"low": _round(low), "high": _round(high), "level": model.LEVEL},
            "measured": measured,
            "usd_per_hour": usd,
            "price_per_hour": rate.convert(usd),
            "currency": rate.currency,
            "per_dollar": _round(per_dollar),
            "per_dollar_interval": {
                "low": _round(per_low), "high": _round(per_high), "level": model.LEVEL},
            "baseline_share": bought.get("baseline_share"),
            "from_benchmarks": [loaded.columns[c].label for c in found.columns],
            "rank": None,
            "rank_range": None,
            "_margin": math.expm1(reach),
        })  # fmt: skip
    return rows, not_predicted


def _round(value: float) -> float:
    return float(f"{value:.6g}")


def _rank(rows: list[dict]) -> None:
    """Most per dollar first; each row's rank range by the one tie rule (noise.rank_ranges)
    with its interval's reach as its margin."""
    rows.sort(key=lambda row: (-row["per_dollar"], row["instance_type"]))
    ranges = rank_ranges([row["per_dollar"] for row in rows], [row["_margin"] for row in rows])
    for position, (row, (best, worst)) in enumerate(zip(rows, ranges, strict=True), start=1):
        row["rank"] = position
        row["rank_range"] = [best, worst]
        del row["_margin"]


def _model(loaded, fitted: model.Model) -> dict:
    compared = {method: check.median_error for method, check in fitted.compared.items()}
    return {
        "benchmarks": [
            {
                "benchmark": loaded.columns[c].benchmark,
                "params": loaded.columns[c].params,
                "weight": round(w, 4),
            }
            for c, w in zip(fitted.fit.columns, fitted.fit.weights, strict=True)
        ],
        "method": fitted.fit.method,
        "intercept": round(fitted.fit.intercept, 6),
        "methods_compared": compared,
    }


def _validation(fitted: model.Model) -> dict:
    check = fitted.check
    return {
        "cases": len(check.errors),
        "median_error": None if check.median_error is None else round(check.median_error, 4),
        "interval_coverage": (
            round(sum(check.covered) / len(check.covered), 4) if check.covered else None
        ),
        "level": model.LEVEL,
        # The method's figures on benchmarks held out of it (validate_workload_model --write).
        "held_out_benchmarks": validation.held_out(),
    }


def _summary(question, loaded, fitted: model.Model, rows: list[dict]) -> str:
    named = list(zip(fitted.fit.columns, fitted.fit.weights, strict=True))[:NAMED]
    used = ", ".join(f"{loaded.columns[c].label} {w:.0%}" for c, w in named)
    if len(fitted.fit.columns) > NAMED:
        used += f" and {len(fitted.fit.columns) - NAMED} more"
    error = fitted.check.median_error
    learned = (
        f"Learned from {used} ({fitted.fit.method}); leave-one-out on your "
        f"{len(fitted.check.errors)} figures: median error {error:.0%}."
    )
    if not rows:
        return learned + " No predicted type has a price in the region(s) asked."
    winner = rows[0]
    best, worst = winner["rank_range"]
    sure = (
        "clearly ahead within the 90% intervals"
        if worst == 1
        else f"but within the intervals it could rank {best} to {worst}"
    )
    kind = "measured" if winner["measured"] else "predicted"
    return (
        f"{learned} Most per dollar: {winner['instance_type']} ({kind}), {sure}; "
        f"{len(rows):,} types ranked."
    )
