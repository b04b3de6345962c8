"""Answers -> chart data: the one place that decides what the pages' charts draw.

Selectors return answers; each function here turns one into the JSON a page embeds with
`json_script` and its script (static/dashboard/) draws with Chart.js.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from benchmarks import palette, units
from benchmarks.per_dollar import HOURS_PER_MONTH, other_basis_per_dollar
from benchmarks.selectors.answer import fargate_estimates
from benchmarks.selectors.answer.price_performance_rows import PricePerformanceRow, best_first
from benchmarks.selectors.compare_types.compare_lines import TypeComparison
from benchmarks.selectors.costs.commitment_cost import CommitmentCost
from benchmarks.selectors.pages.comparison import Comparison
from benchmarks.selectors.pages.five_families import SideBySide
from benchmarks.selectors.pages.instance_types import InstanceTypePage, PricePeriod
from benchmarks.selectors.subjects.cpu_scaling import CpuScaling
from benchmarks.selectors.subjects.databases import DatabaseTable
from benchmarks.selectors.subjects.long_run import LongRun
from benchmarks.selectors.subjects.memory_curves import MemoryCurves
from benchmarks.selectors.subjects.network import NetworkScaling
from benchmarks.selectors.subjects.profile_comparison import ProfileComparison
from benchmarks.selectors.subjects.storage import VolumeComparison


def comparison_chart(comparison: Comparison, rows: list | None = None) -> dict | None:
    """What the comparison page's charts draw: bars per dollar and per figure, the spread of
    single values by CPU model, price against performance with its frontier, the baseline.

    The figures are the API's (`per_dollar`, `median`, ...) for the same question; scales
    (units.Scale.as_json) say how the scripts write them; bars are drawn in the answer's
    order (best first). `rows`: the rows whose data is written, when the page shows only some
    (selectors.answer.shown_rows: those shown, the bars, the frontier); all by default.
    """
    table, reading, bars = comparison.table, comparison.reading, comparison.bars
    if table is None or reading is None:
        return None
    frontier = {row.key for row in comparison.frontier}
    families = list(dict.fromkeys(row.family for row in table.results))
    colours = palette.family_colours(families)
    best = _best(table.results, reading)
    # Single values are drawn for the charted bars only, each as [value, index in cpu_models]:
    # the spread chart is the one that reads them, and model names repeated with every value
    # made most of the page's weight.
    charted = {row.key for row in bars}
    cpu_models = list(
        dict.fromkeys(
            model for row in table.results if row.key in charted for _value, model in row.samples
        )
    )
    model_index = {model: index for index, model in enumerate(cpu_models)}
    return {
        "benchmark": table.benchmark.key,
        "unit": table.benchmark.unit,
        "higher_is_better": table.benchmark.higher_is_better,
        "rules": units.script_rules(),
        "reading": reading.as_json(),
        "families": [{"name": name, "colour": colours[name]} for name in families],
        "cpu_models": cpu_models,
        "baseline": table.baseline,
        "basis": table.basis,
        "bars": [row.key for row in bars],
        # The figure's charts (medians, single values) rank by the figure they show.
        "value_bars": [row.key for row in _by_value(bars, table.benchmark.higher_is_better)],
        "baseline_axis": _baseline_axis(bars) if table.baseline else None,
        "rows": [
            {
                "key": row.key,
                # Every chart names an estimated row so (and fills it hatched: charts.js).
                "label": row.shown_label,
                "instance_type": row.instance_type,
                "family": row.family,
                "colour": colours[row.family],
                "vcpus": row.vcpus,
                "runs": row.runs,
                "flagged_runs": row.flagged_runs,
                "only_flagged": row.only_flagged,
                "median": row.median,
                # What the basis ranks it by (a burstable type: what it sustains, by default):
                # the price chart and its frontier place it there.
                "basis_figure": row.basis_figure,
                "min": row.min,
                "max": row.max,
                # 90% intervals (selectors/answer/standing.py): the charts' error bars.
                "interval": row.interval,
                "per_dollar_interval": row.per_dollar_interval,
                "usd_per_hour": row.usd_per_hour,
                "per_dollar": row.per_dollar,
                "sustained_per_dollar": row.sustained_per_dollar,
                "burst_per_dollar": row.burst_per_dollar,
                "burst_minutes": row.burst_minutes,
                "cpu_allocation": row.cpu_allocation,
                "relative_throughput": row.relative_throughput,
                "relative_cost": row.relative_cost,
                "relative_per_dollar": row.relative_per_dollar,
                "pareto": row.key in frontier,
                "best": row.key == best,
                # Where the noise leaves it (selectors/answer/standing.py): a row that could rank
                # first is indistinguishable from the best, and the chart outlines it so.
                "rank": row.rank,
                "rank_range": row.rank_range,
                "within_noise_of_best": bool(row.rank_range and row.rank_range[0] == 1),
                # A Fargate size no task measured (selectors/answer/fargate_estimates.py): hatched.
                "estimated": row.estimated,
                "estimate_note": fargate_estimates.describe(row.estimate) if row.estimate else None,
                "samples": [[value, model_index[model]] for value, model in row.samples]
                if row.key in charted
                else [],
                "cpu_models": row.cpu_models,
            }
            for row in (table.results if rows is None else rows)
        ],
    }


# The baseline chart's axis ends here (400%) when a few bars go beyond: one type at 14,000%
# would flatten every other bar to a sliver. When many go beyond (a small baseline), the axis is
# logarithmic instead, and nothing is cut.
BASELINE_AXIS_CLIP = 4.0
BASELINE_CLIPPED_AT_MOST = 6
RELATIVE_MEASURES = {
    "relative_throughput": "throughput",
    "relative_cost": "cost",
    "relative_per_dollar": "per dollar",
}


def _by_value(bars: list[PricePerformanceRow], higher_is_better: bool) -> list:
    """The charted rows best first by their median (the lowest first for a latency)."""
    sign = -1 if higher_is_better else 1
    return sorted(bars, key=lambda row: (row.median is None, sign * (row.median or 0)))


def _baseline_axis(bars: list[PricePerformanceRow]) -> dict:
    """How the baseline chart's axis reads: "linear" up to `max` (a ratio; None: to the largest
    bar) with the bars cut there named for the note under the chart, or "logarithmic"."""
    beyond = [
        {"label": row.label, "measure": measure, "value": getattr(row, field)}
        for row in bars
        for field, measure in RELATIVE_MEASURES.items()
        if (getattr(row, field) or 0) > BASELINE_AXIS_CLIP
    ]
    if not beyond:
        return {"type": "linear", "max": None, "clipped": []}
    if len(beyond) > BASELINE_CLIPPED_AT_MOST:
        return {"type": "logarithmic", "max": None, "clipped": []}
    return {"type": "linear", "max": BASELINE_AXIS_CLIP, "clipped": beyond}


def _best(rows: list[PricePerformanceRow], reading: units.Reading) -> str | None:
    """The best choice the first chart shows: the first of `best_first`, if priced."""
    ranked = best_first(rows, reading)
    if not ranked or (reading.per_dollar is not None and ranked[0].per_dollar is None):
        return None
    return ranked[0].key


def cpu_scaling_chart(scaling: CpuScaling | None) -> dict | None:
    """stress-ng at 1..n workers on one type: bogo ops per second and per dollar, and each
    worker's share of one worker's work (selectors/subjects/cpu_scaling.py)."""
    if scaling is None:
        return None
    return {
        "instance_type": scaling.instance_type,
        "vcpus": scaling.vcpus,
        "region": scaling.region,
        "usd_per_hour": scaling.usd_per_hour,
        "points": [
            {
                "workers": point.workers,
                "ops_per_second": point.ops_per_second,
                "per_dollar": point.per_dollar,
                "efficiency": point.efficiency,
                "busy_share": point.busy_share,
            }
            for point in scaling.points
        ],
    }


def memory_chart(curves: MemoryCurves | None) -> dict | None:
    """Memory by working-set size on one type: bandwidths (B/s) and the latency (seconds) at
    each size in KiB (selectors/subjects/memory_curves.py)."""
    if curves is None:
        return None
    return {
        "sizes_kb": curves.sizes_kb,
        "bandwidths": curves.bandwidths,
        "latency": curves.latency,
    }


def long_run_chart(day: LongRun | None) -> dict | None:
    """A day of stress-ng at rising load, measured and as the burstable model expects it in
    standard mode (selectors/subjects/long_run.py)."""
    if day is None:
        return None
    return {
        "instance_type": day.instance_type,
        "burstable": day.burstable,
        "credits_per_hour": day.credits_per_hour,
        "credits_run_out_at": day.credits_run_out_at,
        "hours": [point.hour for point in day.points],
        "load_percent": [point.load_percent for point in day.points],
        "measured": [point.ops_per_second for point in day.points],
        "standard_mode": [point.standard_mode for point in day.points],
    }


def price_history_chart(page: InstanceTypePage) -> dict:
    """An instance type's prices over time, one line per region and purchase option."""
    return {
        "rules": units.script_rules(),
        "lines": [
            {
                "label": line.label,
                "region": line.region,
                "purchase_option": line.purchase_option,
                "points": _steps(line.periods),
            }
            for line in page.lines
        ],
    }


def _steps(periods: list[PricePeriod]) -> list[list]:
    """[[day, usd], ...] to draw as steps: each period's start, the last one's end (or
    today), and a break (None) where no price was in force between two periods."""
    today = timezone.localdate()
    points: list[list] = []
    for index, period in enumerate(periods):
        points.append([period.effective_from.isoformat(), period.usd_per_hour])
        following = periods[index + 1].effective_from if index + 1 < len(periods) else None
        if following is None:
            end = period.effective_to or max(today, period.effective_from)
            points.append([end.isoformat(), period.usd_per_hour])
        elif period.effective_to and following > period.effective_to + datetime.timedelta(1):
            points.append([period.effective_to.isoformat(), period.usd_per_hour])
            after = period.effective_to + datetime.timedelta(1)
            points.append([after.isoformat(), None])
    return points


def network_chart(answer: NetworkScaling) -> dict:
    """One line per instance type and streams per process: median Gbit/s by process count."""
    lines = []
    for curve in answer.curves:
        by_streams: dict[int, list] = {}
        for point in curve.points:
            by_streams.setdefault(point.streams, []).append(
                [point.processes, point.median_gbit_per_second]
            )
        for streams, points in sorted(by_streams.items()):
            lines.append(
                {
                    "label": f"{curve.instance_type} ({streams} stream{'s' if streams > 1 else ''}"
                    " per process)",
                    "points": points,
                }
            )
        one_process = [
            [point.streams, point.median_gbit_per_second]
            for point in curve.points
            if point.processes == 1
        ]
        if one_process:
            lines.append({"label": f"{curve.instance_type} (one process)", "streams": one_process})
    return {"lines": lines}


def database_chart(table: DatabaseTable) -> dict:
    """Bars per DB instance class, one dataset per engine: per dollar-hour, or the median of
    a lower-is-better benchmark (response time)."""
    classes = sorted({row.instance_type for row in table.results})
    engines = sorted({row.engine for row in table.results})
    figure = "per_usd_hour" if table.benchmark.higher_is_better else "median"
    values = {(row.instance_type, row.engine): getattr(row, figure) for row in table.results}
    return {
        "classes": classes,
        "axis": (
            f"{table.benchmark.unit} per dollar-hour"
            if table.benchmark.higher_is_better
            else f"{table.benchmark.unit} (lower is better)"
        ),
        "engines": [
            {"label": engine, "values": [values.get((name, engine)) for name in classes]}
            for engine in engines
        ],
    }


def volumes_chart(comparison: VolumeComparison) -> dict:
    """What the volumes page draws: cost by part, and delivered IOPS over minutes."""
    return {
        "load_iops": comparison.load_iops,
        "seconds": comparison.seconds,
        "volumes": [
            {
                "label": row.label,
                "volume_type": row.volume.volume_type,
                "usd_per_month": float(row.cost.usd_per_month) if row.cost else None,
                "parts": {
                    f"{part.what}" + (f" tier {part.tier}" if part.tier != 1 else ""): float(
                        part.usd_per_month
                    )
                    for part in (row.cost.parts if row.cost else [])
                },
                "delivered": row.delivered,
            }
            for row in comparison.rows
        ],
    }


# The landing page's unit-price chart: one bar per line of the five, these figures each (a
# vCPU-hour at what it sustains for burstable families only: t2.nano's $0.0058 is $0.116).
UNIT_PRICE_SERIES = (
    ("vcpu_on_demand", "vCPU-hour, on-demand", "on_demand", "usd_per_vcpu_hour"),
    ("vcpu_spot", "vCPU-hour, spot", "spot", "usd_per_vcpu_hour"),
    (
        "sustained_on_demand",
        "sustained vCPU-hour (burstable), on-demand",
        "on_demand",
        "usd_per_sustained_vcpu_hour",
    ),
    (
        "sustained_spot",
        "sustained vCPU-hour (burstable), spot",
        "spot",
        "usd_per_sustained_vcpu_hour",
    ),
    ("gib_on_demand", "GiB-hour, on-demand", "on_demand", "usd_per_gib_hour"),
    ("gib_spot", "GiB-hour, spot", "spot", "usd_per_gib_hour"),
)


def unit_price_chart(section: SideBySide) -> dict:
    """The five side by side: the cheapest vCPU-hour and GiB-hour of each family and
    architecture, on-demand and spot (null where there is no price: Fargate Spot), and the
    cheapest sustained vCPU-hour of a burstable family (null for the others)."""
    lines = section.lines
    return {
        "region": section.region.code,
        "at": section.at.isoformat(),
        "labels": [
            line.family + (f" ({line.architecture})" if line.architecture else "") for line in lines
        ],
        "series": [
            {
                "key": key,
                "label": label,
                "values": [
                    getattr(getattr(line, option), figure) if getattr(line, option) else None
                    for line in lines
                ],
            }
            for key, label, option, figure in UNIT_PRICE_SERIES
        ],
    }


def family_options_chart(section: SideBySide) -> dict:
    """The five side by side under every way of paying: each family's (and architecture's)
    cheapest vCPU-hour as an effective hourly price, one series per option with a price (a
    commitment's upfront fee spread over its term), null where the option has none."""
    lines = section.lines
    series, missing = [], []
    for option, answer in section.by_option.items():
        values = []
        for line in lines:
            summary = answer.summary_of(line.family, line.architecture)
            values.append(summary.usd_per_vcpu_hour if summary else None)
        label = answer.purchase.describe()
        if any(value is not None for value in values):
            series.append({"key": option, "label": label, "values": values})
        else:
            missing.append(label)
    return {
        # The options with no price for any of the families (not drawn).
        "missing": missing,
        "region": section.region.code,
        "at": section.at.isoformat(),
        "labels": [
            line.family + (f" ({line.architecture})" if line.architecture else "") for line in lines
        ],
        "series": series,
    }


def options_chart(cost: CommitmentCost) -> dict:
    """Every way of paying for one type in one region as an effective hourly price, cheapest
    first; below always-on use, also what an hour of use costs over a year at that use (a
    commitment bills the hours it is not used)."""
    options = sorted(cost.results, key=lambda option: option.usd_per_hour_used or 0)
    return {
        "instance_type": cost.instance_type,
        "region": cost.region,
        "at": cost.at.isoformat(),
        "hours_per_month": cost.hours_per_month,
        "always_on": cost.hours_per_month == HOURS_PER_MONTH,
        "rules": units.script_rules(),
        "labels": [option.label for option in options],
        "usd_per_hour": [option.usd_per_hour for option in options],
        "usd_per_hour_used": [
            None if option.usd_per_hour_used is None else round(option.usd_per_hour_used, 6)
            for option in options
        ],
    }


def profile_chart(comparison: ProfileComparison) -> dict | None:
    """A workload profile's chart: hours of the median type's work a dollar buys, best first,
    one bar per charted type in its family's colour; a burstable type's other figure (while
    credits last, or once spent) beside it, as the benchmark chart draws it."""
    table = comparison.table
    if table is None:
        return None
    families = list(dict.fromkeys(row.family for row in table.results))
    colours = palette.family_colours(families)
    return {
        "profile": table.profile.key,
        "name": table.profile.name,
        "region": table.region.code,
        "at": table.at.isoformat(),
        "basis": table.basis,
        "rules": units.script_rules(),
        "families": [{"name": name, "colour": colours[name]} for name in families],
        "bars": [
            {
                "label": row.shown_label,
                "family": row.family,
                "per_dollar": row.per_dollar,
                "estimated": row.estimated,
                "other": other_basis_per_dollar(
                    table.basis,
                    burst_per_dollar=row.burst_per_dollar,
                    sustained_per_dollar=row.sustained_per_dollar,
                )
                if row.burstable
                else None,
                "score": row.score,
                "usd_per_hour": row.usd_per_hour,
            }
            for row in comparison.bars
        ],
    }


def compare_chart(comparison: TypeComparison) -> dict | None:
    """Compare's chart: on each benchmark the types share where a dollar buys the figure, what
    a dollar buys on each type against the baseline (the table's "% per dollar"), one bar per
    type in its family's colour (striped for a second type of a family); None without one."""
    types = [column.instance_type for column in comparison.columns]
    lines = [
        {
            "label": group.benchmark + (f" ({group.variant})" if group.variant else ""),
            "params": group.main.params,
            "relative_per_dollar": [
                cell.relative_per_dollar if cell is not None else None for cell in group.main.cells
            ],
            # A Fargate size's estimate (no task measured it there): hatched, labelled.
            "estimated": [cell is not None and cell.estimated for cell in group.main.cells],
        }
        for group in comparison.benchmarks
        if any(cell is not None and cell.relative_per_dollar for cell in group.main.cells)
    ]
    if not lines:
        return None
    colours = palette.family_colours(list(dict.fromkeys(t.family for t in types)))
    ratios = [ratio for line in lines for ratio in line["relative_per_dollar"] if ratio]
    spread = max(ratios) / min(ratios)
    return {
        "baseline": comparison.baseline.name,
        "types": [
            {
                "name": instance_type.name,
                "colour": colours[instance_type.family],
                "striped": instance_type.family in (t.family for t in types[:index]),
                "estimated": any(
                    group.main.cells[index] is not None and group.main.cells[index].estimated
                    for group in comparison.benchmarks
                ),
            }
            for index, instance_type in enumerate(types)
        ],
        "lines": lines,
        # A type at 14,000% would flatten every other bar to a sliver: a logarithmic axis then.
        "axis": "logarithmic" if spread > BASELINE_AXIS_CLIP**2 else "linear",
    }
