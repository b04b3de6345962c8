"""A day of stress-ng at rising load on one instance type (Spare Cores' `stressnglongrun`:
`stress-ng:longrun`, parameters `hour` and `cpu_load_percent`, the load stepped up 5% an hour
to 55%), beside what the burstable model expects of the same day.

The model (benchmarks/per_dollar.py's credits) in standard mode: the type earns its baseline
share of every vCPU an hour in CPU credits and spends a credit per vCPU-minute the load asks;
while the balance (from none at launch, at most 24 hours of earnings) covers the hour, the load
runs at the first hour's figure, and once it does not, at the share of the asked CPU the
credits pay for. In unlimited mode (the default of t3, t3a and t4g) nothing is held back: the
surplus is billed. A fixed-performance type is never held back. From the instance type page's
kept ranks: no query of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks import per_dollar as arithmetic

BENCHMARK = "stress-ng:longrun"


@dataclass(frozen=True)
class HourPoint:
    hour: int
    load_percent: int
    ops_per_second: float
    # What the model expects in standard mode (None: a fixed-performance type).
    standard_mode: float | None
    # The credit balance at the hour's end in standard mode.
    balance: float | None


@dataclass
class LongRun:
    instance_type: str
    burstable: bool
    credits_per_hour: float | None
    points: list[HourPoint] = field(default_factory=list)

    @property
    def credits_run_out_at(self) -> int | None:
        """The first hour the model holds the load back in standard mode."""
        first = self.points[0].ops_per_second if self.points else None
        return next(
            (
                point.hour
                for point in self.points
                if point.standard_mode is not None and first and point.standard_mode < first
            ),
            None,
        )


def long_run(page) -> LongRun | None:
    """The page's type's day of stress-ng; None without one."""
    hours = _hours(page)
    if len(hours) < 2:
        return None
    instance_type = page.instance_type
    vcpus = float(instance_type.vcpus or 1)
    earned = None
    if instance_type.burstable and instance_type.baseline_share is not None:
        earned = arithmetic.credits_per_hour(float(instance_type.baseline_share), vcpus)
    result = LongRun(instance_type.name, instance_type.burstable, earned)
    first = hours[min(hours)][1]
    balance = 0.0
    for hour in sorted(hours):
        load, figure = hours[hour]
        expected, hour_balance = None, None
        if earned is not None:
            asked = load / 100 * vcpus * 60
            available = balance + earned
            paid = min(1.0, available / asked) if asked else 1.0
            balance = min(24 * earned, max(0.0, available - asked))
            expected, hour_balance = first * paid, round(balance, 1)
        result.points.append(HourPoint(hour, load, figure, expected, hour_balance))
    return result


def _hours(page) -> dict[int, tuple[int, float]]:
    """Each hour's load and median: the hour's lowest load (the load steps up at the hour's
    end, so a higher one is its last minute), from the ranks the page read."""
    found: dict[int, tuple[int, float]] = {}
    for ranks in page.ranks:
        if ranks.benchmark != BENCHMARK:
            continue
        for rank in ranks.ranks:
            hour, load = rank.params.get("hour"), rank.params.get("cpu_load_percent")
            if not isinstance(hour, int) or not isinstance(load, int) or rank.variant:
                continue
            if hour not in found or load < found[hour][0]:
                found[hour] = (load, rank.median)
    return found
