"""Compare (`/compare/`): 2 to 8 chosen types side by side on every benchmark they share, each
figure as a percentage of a baseline's and per dollar, with the types' prices.

Each type is priced in its own cloud: the region asked for its vendor, else its cheapest
region (`pricing_regions`), so that an Azure and a Hetzner type are not priced in an AWS
region. A fixed number of queries whatever the data's size: the types (one), their kept
statistics over every benchmark (one), the regions (two, and two for the types priced at
their cheapest) and their prices for each purchase option shown, every region at once (two
at most each, and one per region with Fargate sizes).
The per-dollar arithmetic is `benchmarks.per_dollar`'s, on the basis the price-performance
answer uses (burstable types at what they sustain by default).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import NamedTuple
from urllib.parse import urlencode

import orjson
from django.db.models import Case, F, FloatField, OuterRef, Subquery, When, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, RowNumber
from django.urls import reverse
from django.utils import timezone

from benchmarks import per_dollar as arithmetic
from benchmarks import units
from benchmarks.models import Benchmark, InstanceType, SeriesStatistics
from benchmarks.noise import Noise, beyond
from benchmarks.questions.compare import CompareQuery
from benchmarks.selectors.answer.basis import on_basis
from benchmarks.selectors.answer.busy import on_busy_share_lines
from benchmarks.selectors.answer.kept_series import COLUMNS, Machine, machine_of
from benchmarks.selectors.answer.lookups import types_by_names
from benchmarks.selectors.compare_types import compare_estimates, compare_regions, compare_sentence
from benchmarks.selectors.compare_types.compare_lines import (
    PRICE_OPTIONS,
    BenchmarkLines,
    Cell,
    Column,
    Line,
    TypeComparison,
)
from benchmarks.selectors.costs import prices
from benchmarks.selectors.costs.price_periods import PriceQuote


class _BenchmarkFacts(NamedTuple):
    key: str
    unit: str
    higher_is_better: bool
    # The benchmark's kept noise (the typical difference of two runs) and tie margin; None
    # where not measured (the margin: noise kept before margins were).
    noise: float | None = None
    tie_margin: float | None = None


# `on_basis` is the price-performance answer's own rule for a row's figure on a basis
# (burstable types): used here too, so that compare and the comparison page never disagree.


def _machine(instance_type: InstanceType) -> Machine:
    return machine_of([getattr(instance_type, name) for name in COLUMNS])


def compare_types(query: CompareQuery) -> TypeComparison:
    """The chosen types on every benchmark at least two of them share, each priced in its own
    cloud (`pricing_regions`); a DomainError names an unknown type (with the closest names)
    or region."""
    at = query.at or timezone.localdate()
    found = types_by_names(query.types, field="types")
    types = [found[name] for name in query.types]
    baseline = found.get(query.baseline)
    region, where = compare_regions.pricing_regions(types, query, at)
    options = list(dict.fromkeys([query.purchase_option, *PRICE_OPTIONS]))
    # Each option's prices of every type in its own region at once: a query per region and
    # option made types from three clouds one query over the page's ten.
    placed = [(t, where[t.pk][0]) for t in types if where[t.pk][0] is not None]
    quotes: dict[str, dict[int, PriceQuote]] = {
        option: prices.placed_hourly_prices(placed=placed, purchase_option=option, day=at)
        if placed
        else {}
        for option in options
    }
    columns = []
    for instance_type in types:
        place, cheapest = where[instance_type.pk]
        chosen = quotes[query.purchase_option].get(instance_type.pk)
        columns.append(
            Column(
                instance_type=instance_type,
                is_baseline=instance_type == baseline,
                usd_per_hour=_float(chosen.usd_per_hour) if chosen else None,
                price_note=chosen.note
                if chosen
                else f"no region prices {instance_type.name} {query.purchase_option}",
                prices={
                    option: _float(quotes[option][instance_type.pk].usd_per_hour)
                    if instance_type.pk in quotes[option]
                    else None
                    for option in options
                },
                region=place,
                cheapest=cheapest,
            )
        )
    comparison = TypeComparison(query=query, region=region, at=at, columns=columns)
    comparison.benchmarks = _benchmarks(types, columns, query, region)
    comparison.summary = compare_sentence.summary(comparison)
    return comparison


def _float(value) -> float | None:
    return None if value is None else float(value)


def _benchmarks(types: list[InstanceType], columns: list[Column], query: CompareQuery, region):
    """Every (benchmark, variant, parameters) at least two of the types have a figure of: a
    measured one, or for a Fargate size no task measured there, its estimate
    (`_estimated`)."""
    position = {instance_type.pk: index for index, instance_type in enumerate(types)}
    # The benchmark's two noise figures on one of its rows only, read there alone: taken out
    # of its whole kept noise (up to 360 kB of JSON) on every row, they were 350 ms of three
    # types' page; carried through the window, SQLite copied the noise with every row.
    benchmark = Benchmark.objects.filter(pk=OuterRef("series__benchmark_id"))
    figures = {
        name: Cast(KT(f"noise__{name}"), FloatField()) for name in ("relative", "tie_margin")
    }
    figures = {
        name: Case(When(place=1, then=Subquery(benchmark.values(figure=figure))))
        for name, figure in figures.items()
    }
    rows = (
        SeriesStatistics.objects.filter(
            measured_in=SeriesStatistics.ALL_REGIONS, series__instance_type__in=list(position)
        )
        .annotate(place=Window(RowNumber(), partition_by=[F("series__benchmark_id")]))
        .annotate(**figures)
        .values_list(
            "series__instance_type_id",
            "series__benchmark__key",
            "series__benchmark__unit",
            "series__benchmark__higher_is_better",
            "place",
            *figures,
            "series__variant",
            "series__params_key",
            "runs",
            "median",
        )
    )
    grouped: dict[tuple, dict[int, tuple[int, float]]] = defaultdict(dict)
    facts: dict[str, _BenchmarkFacts] = {}
    for type_id, key, unit, higher, place, noise, margin, variant, params_key, runs, median in rows:
        if place == 1:
            facts[key] = _BenchmarkFacts(key, unit, higher, noise, margin)
        grouped[(key, variant, params_key)][position[type_id]] = (runs, median)
        index = position[type_id]
        on_busy_share_lines(
            grouped, index, types[index], (key, variant, params_key), (runs, median)
        )
    # Each benchmark's main line first (the most types measured, then the most runs), so that
    # only those are estimated: the others open on the chart page.
    groups: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    for line_key in grouped:
        groups[line_key[:2]].append(line_key)
    for keys in groups.values():
        keys.sort(key=lambda k: (-len(grouped[k]), -_figure_runs(grouped[k]), _params_order(k)))
    estimates = _estimated(types, columns, query, region, grouped, facts, groups)
    # Each type's machine once, not once per line (some 450 lines for three types).
    machines = [_machine(instance_type) for instance_type in types]
    result = []
    for (key, variant), keys in sorted(groups.items()):
        lines = []
        for index, line_key in enumerate(keys):
            figures = grouped[line_key]
            estimated = estimates.get(line_key, {}) if index == 0 else {}
            # A line needs two figures; an estimate counts on the main line only.
            if len(figures) + len(estimated) < 2:
                continue
            figures = {**figures, **{i: (0, figure) for i, (figure, _e) in estimated.items()}}
            params = orjson.loads(line_key[2])
            notes = {i: estimate for i, (_figure, estimate) in estimated.items()}
            lines.append(
                _line(facts[key], variant, params, figures, machines, columns, query.basis, notes)
            )
        if lines:
            lines.sort(key=lambda line: (-line.measured, -_runs(line), orjson.dumps(line.params)))
            url = _chart_url(key, variant, query, columns)
            result.append(BenchmarkLines(key, variant, lines, url))
    return result


def _figure_runs(figures: dict[int, tuple[int, float]]) -> int:
    return sum(runs for runs, _median in figures.values())


def _params_order(line_key: tuple) -> bytes:
    return orjson.dumps(orjson.loads(line_key[2]))


def _chart_url(key: str, variant: str, query: CompareQuery, columns: list[Column]) -> str:
    """The chart page's question for one benchmark of the comparison, every parameter left
    open (the page pins each to its best-covered value and offers the others), each vendor's
    types in the region compare priced them in (the first type's, for a vendor priced at
    several cheapest regions)."""
    places: dict[str, str] = {}
    for column in columns:
        if column.region is not None:
            places.setdefault(column.instance_type.vendor, column.region.code)
    question = {"benchmark": key}
    if len(places) > 1:
        question["regions"] = ",".join(f"{vendor}:{code}" for vendor, code in places.items())
    else:
        question["region"] = next(iter(places.values()), query.region)
    question |= {
        "purchase_option": query.purchase_option,
        "instance_types": ",".join(query.types),
        "families": "",
        "baseline": f"{query.baseline}:{variant}" if variant else query.baseline,
    }
    return f"{reverse('comparison')}?{urlencode(question)}"


def _estimated(types, columns, query, region, grouped, facts, groups) -> dict[tuple, dict]:
    """Each compared Fargate size's estimate on each benchmark's main line where another type
    has a figure and it has none (selectors/compare_types/compare_estimates.py): {line: {position:
    (figure, estimate)}}. A measurement always replaces an estimate."""
    sizes = {
        index: instance_type
        for index, instance_type in enumerate(types)
        if instance_type.kind == InstanceType.Kind.FARGATE and query.estimates == "include"
    }
    mains = [keys[0] for keys in groups.values()]
    wanted = {
        line: facts[line[0]].higher_is_better
        for line in mains
        if any(index not in grouped[line] for index in sizes)
    }
    if not wanted:
        return {}
    where = next((c.region for i, c in enumerate(columns) if i in sizes and c.region), region)
    found = compare_estimates.estimated_figures(list(sizes.values()), wanted, where)
    position = {instance_type.pk: index for index, instance_type in sizes.items()}
    estimates: dict[tuple, dict] = defaultdict(dict)
    for (pk, line), estimate in found.items():
        if position[pk] not in grouped[line]:
            estimates[line][position[pk]] = estimate
    return estimates


def _runs(line: Line) -> int:
    return sum(cell.runs for cell in line.cells if cell is not None)


def _line(benchmark, variant, params, figures, machines, columns, basis, estimated=None) -> Line:
    reading = units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better)
    cells: list[Cell | None] = [None] * len(machines)
    basis_figures: dict[int, float] = {}
    for index, (runs, median) in figures.items():
        usd = columns[index].usd_per_hour
        per_dollar, figure = None, median
        if usd is not None:
            ranked = on_basis(
                machines[index],
                median,
                usd,
                basis,
                higher_is_better=benchmark.higher_is_better,
                params=params,
            )
            figure = ranked["basis_figure"]
            # A dollar buys no latency nor compression ratio: no per-dollar figure for them.
            if reading.per_dollar is not None:
                per_dollar = ranked["per_dollar"]
        basis_figures[index] = figure
        cells[index] = Cell(
            median=median,
            runs=runs,
            per_dollar=per_dollar,
            estimate=(estimated or {}).get(index),
        )
    base = next(index for index, column in enumerate(columns) if column.is_baseline)
    if cells[base] is not None:
        base_cell = cells[base]
        for index, cell in enumerate(cells):
            if cell is None:
                continue
            cells[index] = dataclasses.replace(
                cell,
                relative_throughput=arithmetic.relative_throughput(
                    basis_figures[index],
                    basis_figures[base],
                    higher_is_better=benchmark.higher_is_better,
                ),
                relative_per_dollar=arithmetic.relative(cell.per_dollar, base_cell.per_dollar),
            )
    # Only the tie margin decides a lead (noise.beyond): it alone (and the relative figure,
    # for noise kept before margins were) is read with each row, to keep the rows narrow.
    noise = (
        Noise(float(benchmark.noise), 0, "", tie_margin=benchmark.tie_margin)
        if benchmark.noise is not None
        else None
    )
    best, by_per_dollar, within = _best(cells, reading, noise)
    return Line(
        benchmark=benchmark.key,
        unit=benchmark.unit,
        higher_is_better=benchmark.higher_is_better,
        variant=variant,
        params=params,
        cells=cells,
        reading=reading,
        best_per_dollar=columns[best].name if best is not None and by_per_dollar else None,
        best_index=best,
        best_by="most per dollar"
        if by_per_dollar
        else f"best {reading.value_name.lower()} ({reading.direction})",
        within_noise=within,
    )


def _best(
    cells: list[Cell | None], reading: units.Reading, noise: Noise | None
) -> tuple[int | None, bool, list[int]]:
    """(position, by per dollar, positions within noise) of the cell a line marks best: the
    most per dollar where a dollar buys the figure and a type is priced, else the best figure
    in the benchmark's own direction (the charts' `best_first` rule). No position when
    another type is within the benchmark's noise of the best (noise.beyond): those are
    listed instead."""
    present = {index: cell for index, cell in enumerate(cells) if cell is not None}
    by_per_dollar = reading.per_dollar is not None and any(
        cell.per_dollar is not None for cell in present.values()
    )
    if by_per_dollar:
        scores = {i: cell.per_dollar for i, cell in present.items() if cell.per_dollar is not None}
    else:
        # Bigger is better in every score, so that a lead is a ratio of two scores.
        scores = {
            index: cell.median if reading.higher_is_better else 1 / cell.median
            for index, cell in present.items()
            if cell.median > 0
        }
    if not scores:
        return None, by_per_dollar, []
    top = max(scores.values())
    margin = noise.margin if noise else 0.0
    near = [index for index, score in scores.items() if not beyond(top, score, margin)]
    if len(near) == 1:
        return near[0], by_per_dollar, []
    return None, by_per_dollar, near
