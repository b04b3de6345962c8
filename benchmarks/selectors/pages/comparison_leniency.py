"""What the comparison page sets aside of a question it cannot answer as asked, while its form
keeps it for the next choice: a share of vCPUs busy on a benchmark of one worker count, a
currency without a rate that day. Each is said in a note naming the control to change; `kept`
writes what was set aside into the page's address, so that it stays the question asked."""

from __future__ import annotations

from dataclasses import replace

from django.utils import timezone

from benchmarks.currency import USD, exchange_rate
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer.busy import WORKER_PARAMETERS


def busy_that_applies(
    query: PricePerformanceQuery, benchmark: Benchmark | None, notes: list[str]
) -> PricePerformanceQuery:
    """`busy` where the benchmark was run at several worker counts; elsewhere it is left
    aside for this answer (the form keeps it for the next benchmark), and beside the worker
    count asked it takes its place: each said in a note."""
    if query.busy is None or benchmark is None:
        return query
    busy_asked = f"busy={query.busy.normalize():f}"
    name = next((name for name in WORKER_PARAMETERS if name in (benchmark.params or {})), None)
    if name is None:
        notes.append(
            f"{busy_asked} applies to benchmarks run at several worker counts, not to "
            f"{benchmark.key}: each type is shown as measured (choose another benchmark, or "
            "clear vCPUs busy under More)."
        )
        return replace(query, busy=None)
    if name in query.params:
        notes.append(
            f"{busy_asked} chooses the {name} itself: {name}={query.params[name]} left aside."
        )
        return replace(query, params={k: v for k, v in query.params.items() if k != name})
    return query


def currency_that_applies(query: PricePerformanceQuery, notes: list[str]) -> PricePerformanceQuery:
    """A currency without an ECB rate near the day asked: this answer's prices in US dollars,
    said in a note (the form keeps the currency for another day)."""
    if query.currency == USD:
        return query
    try:
        exchange_rate(query.currency, query.at or timezone.localdate())
    except DomainError as error:
        notes.append(
            f"{error.message}: prices are shown in USD (choose another currency under Currency, "
            "or another day under More)."
        )
        return replace(query, currency=USD)
    return query


def kept(asked: PricePerformanceQuery, answered: PricePerformanceQuery) -> dict[str, str]:
    """What the form keeps of the question that this answer set aside, as the address
    writes it: the families asked, a currency or a share of vCPUs busy that did not apply."""
    kept = {"families": ",".join(asked.families)}
    if asked.currency != answered.currency:
        kept["currency"] = asked.currency
    if asked.busy is not None and answered.busy is None:
        kept["busy"] = f"{asked.busy.normalize():f}"
    return kept
