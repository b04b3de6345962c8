"""LLM serving per dollar: what a million output tokens of one model cost on each type, at
the best load it was measured at within the latency targets, from the kept statistics.

vLLM served each model on each type at several loads (GuideLLM's strategies and concurrency,
Spare Cores' `vllm` folders); each measurement is a result of its own benchmark (`vllm:ttft`,
`vllm:tpot`, `vllm:output-throughput`), with the load in its parameters (`model`, `workload`,
`mode`, `strategy`, `concurrency`; latencies also `percentile`). A type's answer is its load
giving the most output tokens per second whose TTFT and TPOT at the percentile meet the
targets, priced in the region of its vendor asked (several vendors' regions ranked together
in one currency, as price-performance ranks them: `selectors.answer.cross_cloud`). A fixed number of
queries: the three benchmarks, each region (one, remembered a few seconds), the statistics
(one), and each region's prices (`prices.hourly_prices`: three at most).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils import timezone

from benchmarks.currency import NO_CONVERSION, USD, ExchangeRate, exchange_rate
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, Region, SeriesStatistics
from benchmarks.per_dollar import usd_per_million_tokens
from benchmarks.questions.llm_serving import LlmServingQuery
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer.answer_sentence import option_words
from benchmarks.selectors.answer.cross_cloud import regions_in_question
from benchmarks.selectors.answer.kept_series import params_of
from benchmarks.selectors.answer.lookups import benchmark_in_region
from benchmarks.selectors.costs import prices
from benchmarks.selectors.costs.price_periods import PriceQuote
from benchmarks.services.statistics.attach import params_key

THROUGHPUT = "vllm:output-throughput"
TTFT = "vllm:ttft"
TPOT = "vllm:tpot"
KEYS = (THROUGHPUT, TTFT, TPOT)
# The GPU's specifications the instance types carry (sparecores-servers), read with the rows.
GPU_FIELDS = tuple(name for name in ("gpu_model", "gpu_count") if hasattr(InstanceType, name))
_TYPE_FIELDS = ("instance_type_id", "instance_type__name", "instance_type__vendor")


@dataclass(slots=True)
class LlmServingRow:
    """One type's load: its figures, its price and what a million output tokens cost."""

    instance_type: str
    vendor: str
    # vendor:code of the region whose price it is.
    region: str
    mode: str
    gpu_model: str | None
    gpu_count: int | None
    strategy: str
    concurrency: float
    output_tokens_per_second: float
    ttft_ms: float | None
    tpot_ms: float | None
    # Loads of the model and workload measured on the type, and those within the targets.
    loads: int = 0
    loads_within_targets: int = 0
    usd_per_hour: float | None = None
    usd_per_million_output_tokens: float | None = None
    currency: str = USD
    price_per_hour: float | None = None
    price_per_million_output_tokens: float | None = None
    price_note: str | None = None
    # Why the row is not ranked: no price, or (`unmet`) the targets it misses.
    reason: str | None = None


@dataclass
class LlmServing:
    """The answer of `GET /api/v1/llm-serving/`."""

    model: str
    workload: str
    percentile: str
    max_ttft_ms: float | None
    max_tpot_ms: float | None
    mode: str
    regions: list[str]
    at: datetime.date
    purchase: Purchase = field(default_factory=Purchase)
    exchange_rate: ExchangeRate = NO_CONVERSION
    # Cheapest per million output tokens first.
    results: list[LlmServingRow] = field(default_factory=list)
    # Types with loads of the model within the targets but no price in their region.
    unpriced: list[LlmServingRow] = field(default_factory=list)
    # Types measured with the model and workload whose loads all miss a target: each with its
    # load nearest to them.
    unmet: list[LlmServingRow] = field(default_factory=list)
    summary: str = ""

    @property
    def region_code(self) -> str:
        return ", ".join(self.regions)


@dataclass
class _Load:
    """One load (strategy and concurrency) of one type: its three figures."""

    mode: str
    strategy: str
    concurrency: float
    throughput: float | None = None
    ttft: float | None = None
    tpot: float | None = None


def llm_serving(*, query: LlmServingQuery) -> LlmServing:
    """Per type, its best load within the targets, priced, cheapest per million tokens first;
    the types that meet no target under `unmet`. A fixed number of queries (module doc)."""
    day = query.at or timezone.localdate()
    benchmarks = _benchmarks(query.model)
    if not benchmarks:
        return _awaiting(query, day)
    regions = _regions(query)
    rate = exchange_rate(query.currency, day)
    loads = _loads(query, benchmarks, {region.vendor for region in regions})
    answer = _answer(query, day, [f"{region.vendor}:{region.code}" for region in regions], rate)
    placed: dict[int, list[LlmServingRow]] = defaultdict(list)
    for region in regions:
        machines = {
            pk: machine for pk, machine in loads.items() if machine[0].vendor == region.vendor
        }
        quotes = prices.hourly_prices(
            instance_types=[machine for machine, _ in machines.values()],
            region=region,
            purchase_option=query.purchase,
            day=day,
        )
        for pk, (machine, measured) in machines.items():
            row = _row(query, region, machine, measured, quotes[pk], rate)
            if row is not None:
                placed[pk].append(row)
    for rows in placed.values():
        _file(answer, rows)
    answer.results.sort(key=lambda row: (row.usd_per_million_output_tokens, row.instance_type))
    answer.unpriced.sort(key=lambda row: (-row.output_tokens_per_second, row.instance_type))
    answer.unmet.sort(key=lambda row: (_shortfall(row, query), row.instance_type))
    answer.summary = summary(answer)
    return answer


def _answer(
    query: LlmServingQuery, day: datetime.date, regions: list[str], rate: ExchangeRate
) -> LlmServing:
    return LlmServing(
        model=query.model,
        workload=query.workload,
        percentile=query.percentile,
        max_ttft_ms=query.max_ttft_ms,
        max_tpot_ms=query.max_tpot_ms,
        mode=query.mode,
        regions=regions,
        at=day,
        purchase=query.purchase,
        exchange_rate=rate,
    )


def _awaiting(query: LlmServingQuery, day: datetime.date) -> LlmServing:
    """The answer before any serving is measured: no rows, and what to import."""
    asked = [f"{vendor}:{code}" for vendor, code in query.regions] or [query.region]
    answer = _answer(query, day, asked, exchange_rate(query.currency, day))
    answer.summary = AWAITING
    return answer


AWAITING = (
    "No LLM serving is measured yet: import Spare Cores' vllm folders (python manage.py "
    "import_sparecores ARCHIVE --vendor VENDOR --only vllm), then each type is ranked by what "
    "a million output tokens cost at its best load within the latency targets."
)


def _benchmarks(model: str) -> dict[str, Benchmark]:
    """The three benchmarks by key (one query), none before any serving is measured; a
    DomainError naming `model` when the model was never measured, with the models that were."""
    found = {benchmark.key: benchmark for benchmark in Benchmark.objects.filter(key__in=KEYS)}
    if THROUGHPUT not in found:
        return {}
    known = _model_names(found[THROUGHPUT])
    if model not in known:
        raise DomainError(
            f"unknown model {model[:60]!r}; models measured: {', '.join(known)}", field="model"
        )
    return found


def _model_names(throughput: Benchmark) -> list[str]:
    return sorted(map(str, throughput.params.get("model", [])))


def llm_model_names() -> list[str]:
    """The models measured serving: what `model=` may name."""
    throughput = Benchmark.objects.filter(key=THROUGHPUT).first()
    return _model_names(throughput) if throughput is not None else []


def _regions(query: LlmServingQuery) -> list[Region]:
    """The regions asked, as price-performance reads and checks them (one query each)."""
    asking = PricePerformanceQuery(
        benchmark=THROUGHPUT, region=query.region, regions=query.regions, vendor=query.vendor
    )
    if query.regions:
        return [subject.region for subject in regions_in_question(asking)]
    region = benchmark_in_region(asking).region
    if query.vendor and query.vendor != region.vendor:
        raise DomainError(
            f"{region.code} is a region of {region.vendor}, not {query.vendor}", field="vendor"
        )
    return [region]


def _loads(
    query: LlmServingQuery, benchmarks: dict[str, Benchmark], vendors: set[str]
) -> dict[int, tuple[InstanceType, dict[tuple, _Load]]]:
    """Each type's loads of the model and workload, by type id, from its kept statistics
    (one query): throughput, and TTFT and TPOT at the percentile."""
    ids = {benchmarks[key].pk: key for key in KEYS if key in benchmarks}
    throughput = benchmarks[THROUGHPUT].pk
    # Read on the statistics' own copy of the parameters' key (its `statistics_peers` index),
    # not through the series' JSON: a fifth of the time on SQLite.
    rows = SeriesStatistics.objects.filter(
        Q(benchmark_id=throughput) | Q(params_key__contains=_item("percentile", query.percentile)),
        measured_in=SeriesStatistics.ALL_REGIONS,
        benchmark_id__in=ids,
        instance_type__vendor__in=vendors,
    )
    asked = {"model": query.model, "workload": query.workload, "mode": query.mode}
    for name, value in asked.items():
        if value:
            rows = rows.filter(params_key__contains=_item(name, value))
    found = rows.values_list(
        "benchmark_id",
        "params_key",
        "median",
        *_TYPE_FIELDS,
        *(f"instance_type__{name}" for name in GPU_FIELDS),
    )
    types: dict[int, tuple[InstanceType, dict[tuple, _Load]]] = {}
    for benchmark_id, key, median, pk, name, vendor, *gpu in found:
        if pk not in types:
            machine = InstanceType(
                pk=pk, name=name, vendor=vendor, **dict(zip(GPU_FIELDS, gpu, strict=True))
            )
            types[pk] = (machine, {})
        params = params_of(key)
        load_key = (params.get("mode", ""), params.get("strategy", ""), params.get("concurrency"))
        load = types[pk][1].get(load_key)
        if load is None:
            load = types[pk][1][load_key] = _Load(*load_key)
        setattr(
            load, {THROUGHPUT: "throughput", TTFT: "ttft", TPOT: "tpot"}[ids[benchmark_id]], median
        )
    return types


def _item(name: str, value: str) -> str:
    """`"model":"llama-8b"`: one parameter as a parameter key writes it, which only that
    value matches within a key (the closing quote ends it)."""
    return params_key({name: value})[1:-1]


def _meets(load: _Load, query: LlmServingQuery) -> bool:
    """Whether a load's latencies are within the targets (a target its load lacks: not)."""
    for target, figure in ((query.max_ttft_ms, load.ttft), (query.max_tpot_ms, load.tpot)):
        if target is not None and (figure is None or figure > target):
            return False
    return True


def _miss(load: _Load, query: LlmServingQuery) -> float:
    """How many times over its worst target a load is (1 or less: within them)."""
    misses = [
        (figure / target) if figure is not None else float("inf")
        for target, figure in ((query.max_ttft_ms, load.ttft), (query.max_tpot_ms, load.tpot))
        if target is not None
    ]
    return max(misses, default=0.0)


def _shortfall(row: LlmServingRow, query: LlmServingQuery) -> float:
    return _miss(
        _Load(row.mode, row.strategy, row.concurrency, None, row.ttft_ms, row.tpot_ms), query
    )


def _row(
    query: LlmServingQuery,
    region: Region,
    machine: InstanceType,
    measured: dict[tuple, _Load],
    quote: PriceQuote,
    rate: ExchangeRate,
) -> LlmServingRow | None:
    """The type's row in one region: its best load within the targets, else (`reason` says
    it) its load nearest to them; priced with `quote`. A load that generated no token (its
    requests all failed: 0 tokens/s, latencies 0) is no load; None for a type with none."""
    loads = [load for load in measured.values() if load.throughput]
    if not loads:
        return None
    within = [load for load in loads if _meets(load, query)]
    if within:
        best = max(within, key=lambda load: (load.throughput, -(load.concurrency or 0)))
    else:
        best = min(loads, key=lambda load: (_miss(load, query), -load.throughput))
    row = LlmServingRow(
        instance_type=machine.name,
        vendor=machine.vendor,
        region=f"{region.vendor}:{region.code}",
        mode=best.mode,
        gpu_model=getattr(machine, "gpu_model", None) or None,
        gpu_count=getattr(machine, "gpu_count", None),
        strategy=best.strategy,
        concurrency=best.concurrency,
        output_tokens_per_second=best.throughput,
        ttft_ms=best.ttft,
        tpot_ms=best.tpot,
        loads=len(loads),
        loads_within_targets=len(within),
        currency=rate.currency,
        price_note=quote.note,
        reason=None if within else _missed(best, query),
    )
    if quote.usd_per_hour is not None:
        usd = float(quote.usd_per_hour)
        row.usd_per_hour = usd
        row.usd_per_million_output_tokens = usd_per_million_tokens(usd, best.throughput)
        row.price_per_hour, _used = prices.in_currency(quote, usd, rate)
        if row.usd_per_million_output_tokens is not None:
            row.price_per_million_output_tokens = usd_per_million_tokens(
                row.price_per_hour, best.throughput
            )
    return row


def _file(answer: LlmServing, rows: list[LlmServingRow]) -> None:
    """A type's rows (one per region of its vendor asked) where the answer lists them: each
    priced one ranked; else once, under `unpriced`; a type meeting no target once under
    `unmet`, at its cheapest price asked."""
    priced = sorted(
        (row for row in rows if row.usd_per_million_output_tokens is not None),
        key=lambda row: row.usd_per_million_output_tokens,
    )
    if rows[0].reason is not None:
        answer.unmet.append((priced or rows)[0])
    elif priced:
        answer.results.extend(priced)
    else:
        rows[0].reason = rows[0].price_note or "no output tokens measured at this load"
        answer.unpriced.append(rows[0])


def _targets(query: LlmServingQuery) -> str:
    """`p95 TTFT ≤ 2,000 ms and p95 TPOT ≤ 50 ms`."""
    return " and ".join(
        f"{query.percentile} {name} ≤ {target:,g} ms"
        for name, target in (("TTFT", query.max_ttft_ms), ("TPOT", query.max_tpot_ms))
        if target is not None
    )


def _missed(load: _Load, query: LlmServingQuery) -> str:
    """Why a type meets no target: its nearest load's figures."""
    figures = ", ".join(
        f"{query.percentile} {name} {figure:,.0f} ms" if figure is not None else f"no {name}"
        for name, figure, target in (
            ("TTFT", load.ttft, query.max_ttft_ms),
            ("TPOT", load.tpot, query.max_tpot_ms),
        )
        if target is not None
    )
    return f"no load measured within {_targets(query)}: at best {figures}"


def summary(answer: LlmServing) -> str:
    """One sentence answering the question (two when types are left out)."""
    what = f"{answer.model} ({answer.workload})"
    where = f"{option_words(answer.purchase)} prices in {answer.region_code}"
    targets = _targets(answer) if (answer.max_ttft_ms or answer.max_tpot_ms) else ""
    within = f" within {targets}" if targets else ""
    if not answer.results:
        return _no_rows(answer, what, where, targets, within)
    best = answer.results[0]
    load = f"{best.output_tokens_per_second:,.0f} tokens/s at concurrency {best.concurrency:g}"
    latency = ", ".join(
        f"{answer.percentile} {name} {figure:,.0f} ms"
        for name, figure in (("TTFT", best.ttft_ms), ("TPOT", best.tpot_ms))
        if figure is not None
    )
    cost = f"${best.usd_per_million_output_tokens:,.4g}"
    if answer.exchange_rate.currency != USD and best.price_per_million_output_tokens is not None:
        cost += f" ({best.price_per_million_output_tokens:,.4g} {answer.exchange_rate.currency})"
    sentence = (
        f"{best.instance_type} ({best.mode.upper()}"
        f"{', ' + best.gpu_model if best.gpu_model else ''}) generates a million {what} output "
        f"tokens cheapest{within}: {cost} at {where} ({load}; {latency})."
    )
    left, unpriced = len(answer.unmet), len(answer.unpriced)
    if left:
        sentence += (
            f" {left} other type{'s' if left != 1 else ''} measured meet{'s' if left == 1 else ''}"
            " no target (listed under unmet)."
        )
    if unpriced:
        sentence += (
            f" {unpriced} more {'has' if unpriced == 1 else 'have'} no such price there (listed "
            "under unpriced)."
        )
    return sentence


def _no_rows(answer: LlmServing, what: str, where: str, targets: str, within: str) -> str:
    """The sentence of an answer with no ranked row: why, and which type comes nearest."""
    unmet, unpriced = len(answer.unmet), len(answer.unpriced)
    if unpriced:
        sentence = (
            f"None of the {unpriced} type{'s' if unpriced != 1 else ''} measured serving {what}"
            f"{within} can be priced at {where}: {answer.unpriced[0].reason}."
        )
        if unmet:
            sentence += f" {unmet} more meet{'s' if unmet == 1 else ''} no target (under unmet)."
        return sentence
    if unmet:
        nearest = answer.unmet[0]
        return (
            f"None of the {unmet} type{'s' if unmet != 1 else ''} measured serving {what} meets "
            f"{targets}: {nearest.instance_type} comes nearest "
            f"({nearest.reason.split('at best ', 1)[-1]})."
        )
    return f"No type measured serving {what} can be priced at {where}."


def llm_models(*, workload: str = "") -> list[dict]:
    """The models measured, each with its workloads and the types measured serving it, by
    vendor:name (one query)."""
    rows = SeriesStatistics.objects.filter(
        measured_in=SeriesStatistics.ALL_REGIONS, benchmark__key=THROUGHPUT
    )
    if workload:
        rows = rows.filter(series__params__workload=workload)
    models: dict[str, dict] = defaultdict(lambda: {"workloads": set(), "instance_types": set()})
    for key, vendor, name in rows.values_list(
        "params_key", "instance_type__vendor", "instance_type__name"
    ).distinct():
        params = params_of(key)
        model = models[str(params.get("model"))]
        model["workloads"].add(str(params.get("workload")))
        model["instance_types"].add((vendor, name))
    return [
        {
            "model": model,
            "workloads": sorted(found["workloads"]),
            "instance_types": [
                f"{vendor}:{name}" for vendor, name in sorted(found["instance_types"])
            ],
        }
        for model, found in sorted(models.items())
    ]
