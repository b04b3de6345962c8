"""The comparison page: a price-performance table, what the page says of it and what it charts
(its menus and links: `comparison_menus`).

Any choice renders: a benchmark's parameters are checked against the values its results
were measured with (kept on the benchmark), parameters of another benchmark are dropped,
open ones pinned to their best-covered value, a baseline or purchase option that does not
apply is dropped, families without results are named with a benchmark that has some, and
each change says so in a short note. Menus offer only choices with data.

At most ten queries whatever the data's size: the benchmark menu, the region and purchase
option menus (one), the price-performance table's (the benchmark and region, the
statistics, up to three for prices), and one more statistics read when the parameters
asked for match no results together.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal

from benchmarks import inspector, units
from benchmarks.currency import USD
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark
from benchmarks.per_dollar import pareto_frontier
from benchmarks.questions.parameters import open_label
from benchmarks.questions.price_performance import (
    DEFAULT_FAMILIES,
    ESTIMATES,
    ORDERS,
    PricePerformanceQuery,
    lenient_query,
)
from benchmarks.selectors.answer import answer_sentence
from benchmarks.selectors.answer.baseline import baseline_row
from benchmarks.selectors.answer.busy import WORKER_PARAMETERS
from benchmarks.selectors.answer.cross_cloud import cross_cloud_table, regions_in_question
from benchmarks.selectors.answer.empty_answer import empty_because
from benchmarks.selectors.answer.kept_series import read_samples
from benchmarks.selectors.answer.lookups import BenchmarkInRegion, benchmark_in_region
from benchmarks.selectors.answer.price_performance import price_performance_table
from benchmarks.selectors.answer.price_performance_rows import (
    PricePerformanceRow,
    PricePerformanceTable,
    best_first,
)
from benchmarks.selectors.costs import prices
from benchmarks.selectors.pages import demo
from benchmarks.selectors.pages.comparison_families import (
    default_families,
    each_vendors_families,
    of_question,
    priced_note,
    question_vendors,
)
from benchmarks.selectors.pages.comparison_leniency import (
    busy_that_applies,
    currency_that_applies,
    kept,
)
from benchmarks.selectors.pages.comparison_menus import (
    STUDY_VIEWS,
    AnswerLinks,
    BenchmarkGroup,
    ParamChoice,
    StudyView,
    default_benchmark,
    menu_benchmarks,
    menu_groups,
    page_region_first,
)
from benchmarks.selectors.pages.family_facts import data_stamp, family_facts

# Bar charts draw the best this many rows (one bar each); the table lists every row.
BARS_CHARTED = 60


@dataclass(frozen=True)
class Missing:
    """A family asked for without results here, and a benchmark that has some (or None)."""

    family: str
    elsewhere: str | None


@dataclass(frozen=True)
class SourceGroup:
    """Runs from one source, however many instance types it names one by one."""

    text: str
    licence: str
    runs: int
    instance_types: int


@dataclass(frozen=True)
class CpuBreakdown:
    """One CPU model among a row's runs: how many machines met it (a run counts as many as
    it stands for, Run.observations), and the median of its results."""

    model: str
    machines: int
    median: float | None


@dataclass(frozen=True)
class BaselineSummary:
    """The best choice against the baseline, as study S2 put it: 97% at 70% of the cost."""

    baseline: PricePerformanceRow
    best: PricePerformanceRow


@dataclass
class Comparison(AnswerLinks):
    """What the chart page shows: a table (None when the question was refused) and menus."""

    benchmarks: list[Benchmark]
    # Regions with prices, each with its purchase options that have a price.
    price_menu: dict[str, list[str]]
    query: PricePerformanceQuery
    groups: list[BenchmarkGroup] = field(default_factory=list)
    table: PricePerformanceTable | None = None
    reading: units.Reading | None = None
    purchase_options: list[str] = field(default_factory=list)
    params: list[ParamChoice] = field(default_factory=list)
    # The benchmark's families with results, and those shown.
    families: list[str] = field(default_factory=list)
    families_shown: list[str] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)
    measured_in_options: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Why the table is empty, when it is.
    empty_because: str | None = None
    sources: list[SourceGroup] = field(default_factory=list)
    cpu_breakdowns: dict[str, list[CpuBreakdown]] = field(default_factory=dict)
    flagged: list[tuple[PricePerformanceRow, str, int, list[int]]] = field(default_factory=list)
    baseline_summary: BaselineSummary | None = None
    # The rows the bar charts draw, best first, and those on the price-performance frontier.
    bars: list[PricePerformanceRow] = field(default_factory=list)
    frontier: list[PricePerformanceRow] = field(default_factory=list)
    studies: list[StudyView] = field(default_factory=list)
    # The credit line the sources ask for (Spare Cores'), shown with the chart.
    credit: str | None = None
    # While the demo's Spare Cores figures load in the background (make run).
    demo_note: str | None = None
    # The sentence that answers the question, and which prices (of which days) it used.
    summary: str = ""
    # The line under the answer: how far a second run moves (answer_sentence.second_run).
    second_run: str = ""
    price_dates: str = ""
    # The question as the API asks it (every default resolved): export and permalink.
    resolved: dict[str, str] = field(default_factory=dict)
    # (field, message) of a refused question, shown beside its control.
    error: tuple[str | None, str] | None = None
    # The question as asked, before what could not apply was dropped: the form shows it.
    asked: PricePerformanceQuery | None = None
    # The families the question asked (its vendors' defaults when it named none; empty: all),
    # which the form keeps whatever the answer shows.
    families_asked: tuple[str, ...] = ()
    # The parameters of the question the answer set aside, as the address keeps them.
    kept: dict[str, str] = field(default_factory=dict)

    @property
    def bars_left_out(self) -> int:
        return len(self.table.results) - len(self.bars) if self.table else 0

    @property
    def families_missing(self) -> list[str]:
        return [missing.family for missing in self.missing]


def comparison(query: PricePerformanceQuery, *, families_asked: bool = True) -> Comparison:
    """The chart page's data; an empty benchmark or region means the page's defaults.

    No families means every family; a question that asked none (`families_asked` false) takes
    its regions' vendors' defaults (VENDOR_DEFAULT_FAMILIES: AWS's five in an AWS region). The
    form keeps the families asked (`families_asked`); the answer may show more, said.
    """
    benchmarks = menu_benchmarks(query.benchmark)
    menu = prices.price_menu()
    if not families_asked:
        query = replace(query, families=default_families(query, menu))
    result = Comparison(benchmarks=benchmarks, price_menu=menu, query=query)
    result.asked = query
    result.families_asked = query.families
    result.groups = menu_groups(benchmarks)
    result.demo_note = demo.loading_note()
    by_key = {benchmark.key: benchmark for benchmark in benchmarks}
    result.studies = [study for study in STUDY_VIEWS if study.query["benchmark"] in by_key]
    wanted = query.families or DEFAULT_FAMILIES
    benchmark = by_key.get(query.benchmark) if query.benchmark else None
    if benchmark is None and not query.benchmark:
        benchmark = default_benchmark(benchmarks, wanted)
    if benchmark is None and not query.benchmark:
        return result
    if query.regions:
        query = page_region_first(query, menu)
    query = lenient_query(query, benchmark, menu, result.notes)
    query = busy_that_applies(query, benchmark, result.notes)
    query = currency_that_applies(query, result.notes)
    # The vendors whose families the page chose (their defaults), said in a note or not.
    given: list[str] = []
    said = False
    if families_asked and query.families:
        stamp = data_stamp(menu, benchmarks)
        query, given = each_vendors_families(query, menu, result.notes, stamp=stamp)
        said = bool(given)
    elif not families_asked:
        given = question_vendors(query, menu)
    result.query = query
    try:
        if query.regions:
            table = cross_cloud_table(
                query, subjects=regions_in_question(query), lenient=True, sources=True
            )
        else:
            subject = benchmark_in_region(
                query, benchmark=by_key.get(query.benchmark), region=menu.regions.get(query.region)
            )
            table = _table(query, benchmark, result.notes, subject)
            if given and not table.results and table.unpriced:
                table = _priced_families(result, table, benchmark, subject, given[0], said)
    except DomainError as error:
        result.error = (error.field, error.message)
        return result
    _describe(result, table, by_key)
    result.kept = kept(result.asked, result.query)
    return result


def _priced_families(
    result: Comparison,
    table: PricePerformanceTable,
    benchmark: Benchmark | None,
    subject: BenchmarkInRegion,
    vendor: str,
    said: bool,
) -> PricePerformanceTable:
    """The families the page took for a region have no price there: every family of its
    vendor with a price is ranked instead, when any has one, said in a note (in place of the
    one that named the defaults, when `said`)."""
    query = result.query
    wider = replace(query, families=())
    retry = _table(wider, benchmark, [], subject)
    if not retry.results:
        return table
    note = priced_note(query, vendor, table.region.code)
    if said:
        result.notes[-1] = note
    else:
        result.notes.append(note)
    result.query = wider
    return retry


def _table(
    query: PricePerformanceQuery,
    benchmark: Benchmark | None,
    notes: list[str],
    subject: BenchmarkInRegion,
) -> PricePerformanceTable:
    """The lenient table; parameters that match nothing together are let go (one retry)."""
    table = price_performance_table(query, subject=subject, lenient=True, sources=True)
    if not (table.results or table.unpriced) and query.params and benchmark is not None:
        asked = ", ".join(f"{name}={value}" for name, value in query.params.items())
        retry = price_performance_table(
            replace(query, params={}), subject=subject, lenient=True, sources=True
        )
        if retry.results or retry.unpriced:
            notes.append(
                f"No instance type was measured with {asked} together: "
                "the best-covered values are shown instead."
            )
            return retry
    return table


def _describe(result: Comparison, table: PricePerformanceTable, by_key: dict) -> None:
    """Everything the page says about a table: menus, notes, sources, charts, export."""
    benchmark = table.benchmark
    result.table = table
    result.notes.extend(f"{note}." for note in table.notes)
    result.reading = units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better)
    if result.query.currency != USD:
        # Prices are shown in the currency asked too; what a dollar buys stays per US dollar.
        result.reading = result.reading.in_us_dollars()
    result.purchase_options = result.price_menu.get(table.region.code, [])
    result.params = [
        ParamChoice(
            name,
            values,
            table.params.get(name),
            worker=name in WORKER_PARAMETERS,
            open_label=open_label(benchmark, name),
        )
        for name, values in (by_key.get(benchmark.key, benchmark).params or {}).items()
    ]
    rows = [*table.results, *table.unpriced]
    present = sorted({row.family for row in rows})
    # A cloud ranked without a row is said, not left out silently.
    result.notes.extend(
        f"No instance type asked has a price or results in {region}: it adds no row."
        for region in table.regions
        if region not in {row.region for row in rows}
    )
    result.families = list(getattr(by_key.get(benchmark.key), "families", present))
    result.families_shown = present
    wanted = result.query.families
    # Only the question's vendors' families can be missing from its answer.
    facts = family_facts(stamp=data_stamp(result.price_menu, result.benchmarks))
    theirs = of_question(wanted, question_vendors(result.query, result.price_menu), facts)
    result.missing = [
        Missing(family, _elsewhere(family, wanted, by_key, benchmark.key))
        for family in theirs
        if family not in present
    ]
    measured = {code for row in table.results for code in row.measured_in if code}
    if table.measured_in:
        measured.add(table.measured_in)
    result.measured_in_options = sorted(measured)
    result.empty_because = empty_because(result.query, table, result.purchase_options)
    result.sources = source_groups(table.results)
    result.credit = inspector.credit_for(group.text for group in result.sources)
    result.flagged = [
        (row, flag, runs, run_ids) for row in table.results for flag, runs, run_ids in row.flags
    ]
    result.baseline_summary = _baseline_summary(table)
    # What a parameter left open took is a note here, keeping the sentence to the answer.
    result.summary = answer_sentence.summary(table, rules=False)
    result.notes.extend(answer_sentence.open_rules(table))
    result.second_run = answer_sentence.second_run(table)
    result.price_dates = answer_sentence.price_dates(table)
    result.resolved = resolved_query(result.query, table)
    result.bars = best_first(table.results, result.reading)[:BARS_CHARTED]
    # Single values: the spread chart draws the bars', and a row of several CPU models
    # gives each model's median from them.
    read_samples([*result.bars, *(row for row in table.results if len(row.cpu_models) > 1)])
    result.cpu_breakdowns = {row.key: cpu_breakdown(row) for row in table.results}
    frontier = frontier_keys(table.results, benchmark.higher_is_better)
    result.frontier = sorted(
        (row for row in table.results if row.key in frontier), key=lambda row: row.usd_per_hour
    )


def _elsewhere(family: str, wanted: tuple, by_key: dict, current: str) -> str | None:
    """A benchmark with results for `family`: the one that also covers most wanted families."""
    candidates = [
        benchmark
        for key, benchmark in by_key.items()
        if key != current and family in benchmark.families
    ]
    if not candidates:
        return None
    best = max(
        candidates,
        key=lambda b: (len(set(b.families) & set(wanted)), -len(b.families), b.key),
    )
    return best.key


def cpu_breakdown(row: PricePerformanceRow) -> list[CpuBreakdown]:
    """A row's machines by CPU model, with each model's median when every value was kept.

    A row of one CPU model has that model's median kept: it is the row's."""
    if len(row.cpu_models) == 1:
        return [CpuBreakdown(model, count, row.median) for model, count in row.cpu_models.items()]
    if not row.samples:
        return [CpuBreakdown(model, count, None) for model, count in row.cpu_models.items()]
    values: dict[str, list[float]] = defaultdict(list)
    for value, model in row.samples:
        values[model].append(value)
    exact = not row.values_cut
    return [
        CpuBreakdown(
            model, count, statistics.median(values[model]) if exact and values[model] else None
        )
        for model, count in row.cpu_models.items()
    ]


def source_groups(rows: list[PricePerformanceRow]) -> list[SourceGroup]:
    """The rows' sources with counts; a source that names each instance type counts once.

    Spare Cores' runs name their instance type in their source ("..., aws/c7a.large; ..."):
    with the type's name set aside, fifty such lines are one source.
    """
    runs: Counter = Counter()
    types: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in rows:
        for source, licence, count in row.sources:
            text = source.replace(row.instance_type, "{instance type}") if source else ""
            runs[(text, licence)] += count
            types[(text, licence)].add(row.instance_type)
    return [
        SourceGroup(text or "not recorded", licence, count, len(types[(text, licence)]))
        for (text, licence), count in sorted(runs.items(), key=lambda item: (-item[1], item[0]))
    ]


def _baseline_summary(table: PricePerformanceTable) -> BaselineSummary | None:
    if not table.baseline:
        return None
    base = baseline_row(table.results, table.baseline, table.benchmark.key)
    others = [
        row for row in table.results if row is not base and row.relative_per_dollar is not None
    ]
    if not others:
        return None
    return BaselineSummary(base, max(others, key=lambda row: row.relative_per_dollar))


def resolved_query(query: PricePerformanceQuery, table: PricePerformanceTable) -> dict[str, str]:
    """The question with every default resolved, as query parameters of the page and API."""
    where = {"regions": ",".join(table.regions)} if table.regions else {"region": table.region.code}
    resolved = {
        "benchmark": table.benchmark.key,
        **where,
        "purchase_option": table.purchase_option,
        # Its commitment or spot zone, where the option has one.
        **{name: value for name, value in table.purchase.answer_fields().items() if value},
        "at": table.at.isoformat(),
        "basis": table.basis,
        **{name: str(value) for name, value in table.params.items()},
        "families": ",".join(query.families),
    }
    # What a cross-cloud question adds, when it is not the default.
    for name, value, default in (
        ("currency", query.currency, USD),
        ("vendor", query.vendor, ""),
        ("vcpus", query.vcpus, None),
        ("memory_gib", query.memory_gib, None),
        ("order", query.order, ORDERS[0]),
    ):
        if value != default:
            resolved[name] = f"{value.normalize():f}" if isinstance(value, Decimal) else value
    if query.instance_types:
        resolved["instance_types"] = ",".join(query.instance_types)
    if table.baseline:
        resolved["baseline"] = table.baseline
    if table.measured_in:
        resolved["measured_in"] = table.measured_in
    if table.price_dates != "any":
        resolved["price_dates"] = table.price_dates
    # What the question asked of the runs and rows, when not the default.
    if query.estimates != ESTIMATES[0]:
        resolved["estimates"] = query.estimates
    if query.busy is not None:
        resolved["busy"] = f"{query.busy.normalize():f}"
    if query.verified_only:
        resolved["verified"] = "only"
    return resolved


def frontier_keys(rows: list[PricePerformanceRow], higher_is_better: bool) -> set[str]:
    """Keys of the priced rows no other row beats on both price and performance."""
    sign = 1 if higher_is_better else -1
    return pareto_frontier(
        (row.key, row.usd_per_hour, sign * row.basis_figure)
        for row in rows
        if row.usd_per_hour is not None
    )
