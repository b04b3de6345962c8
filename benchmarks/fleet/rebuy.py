"""Each line of a fleet re-bought: the type that does the line's work for the least money, at
equal work on one benchmark or workload profile, with the saving's range from the noise.

A selector over the price-performance answer: for a line's region and way to buy it asks the
same question `GET price-performance/` answers (`price_performance_table`, or the profile's
`profile_table`) and reads each row's `per_dollar` (on the sustained basis, so a burstable type
counts what it keeps up) and the answer's noise. Nothing is stored: a fleet is a question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchmarks import per_dollar
from benchmarks.errors import AmbiguousParameter, DomainError
from benchmarks.fleet.reader import FleetFile, FleetLine
from benchmarks.models import InstanceType, Price, PurchaseOption, Region, qualified_name
from benchmarks.noise import beyond
from benchmarks.profiles import get_profile
from benchmarks.questions.fleet import REGIONS, FleetQuestion
from benchmarks.questions.parameters import benchmark_params
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.questions.profiles import ProfileQuery
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer import lookups
from benchmarks.selectors.answer.price_performance import price_performance_table
from benchmarks.selectors.subjects.profiles import profile_table

# Errors of the question itself (not of one line): a 400 for the whole fleet.
QUESTION_FIELDS = ("benchmark", "profile", "params", "basis")


@dataclass
class Range:
    low: float
    mid: float
    high: float

    def as_dict(self) -> dict[str, float]:
        return {"low": self.low, "mid": self.mid, "high": self.high}


@dataclass
class Replacement:
    """The type that does the line's work for least, and what that saves a month."""

    instance_type: str
    region: str
    purchase_option: str
    usd_per_month: float
    work_ratio: Range
    saving_usd_per_month: Range
    beyond_noise: bool
    # The work ratio rests on an estimated figure (a Fargate size no task ran the benchmark
    # on, selectors/answer/fargate_estimates.py), the replacement's or the line's own: not measured.
    estimated: bool = False
    # The line's own type already costs least: kept, nothing saved.
    kept: bool = False


@dataclass
class RebuiltLine:
    """A line of the fleet with what it cost and its replacement."""

    instance_type: str
    region: str
    hours: float
    # The way to buy it was compared at: the bill's (`billed_purchase_option`) where its
    # region prices it, else on-demand (said in `note`).
    purchase_option: str
    usd_per_month: float
    # Whether `usd_per_month` is what the bill says was paid, or list price x hours.
    paid: bool
    replacement: Replacement
    note: str = ""
    # The way the bill says it was bought (FOCUS PricingCategory; on-demand unless said).
    billed_purchase_option: str = PurchaseOption.ON_DEMAND.value


@dataclass
class FleetAnswer:
    """The answer of `POST fleets/`: the file as read (its format, the rows it passed over
    and skipped, and the lines that could not be re-bought), and its lines re-bought."""

    question: FleetQuestion
    file: FleetFile
    lines: list[RebuiltLine] = field(default_factory=list)
    total_usd_per_month: float = 0.0
    total_saving: Range = field(default_factory=lambda: Range(0.0, 0.0, 0.0))
    summary: str = ""


def rebuy_fleet(fleet: FleetFile, question: FleetQuestion) -> FleetAnswer:
    """Every line of `fleet` re-bought at equal work; lines that cannot be go to `skipped`."""
    if question.regions not in REGIONS:
        raise DomainError(f"regions={question.regions!r}: choose same or any", field="regions")
    if bool(question.benchmark) == bool(question.profile):
        raise DomainError("give a benchmark or a profile, exactly one", field="benchmark")
    if question.profile:
        get_profile(question.profile)
    else:
        # Its parameters checked once: a name it was not measured with is the question's fault.
        benchmark_params(lookups.get_benchmark(question.benchmark), question.params)
    answer = FleetAnswer(question=question, file=fleet)
    tables = _Tables(question)
    for line in fleet.lines:
        try:
            answer.lines.append(_rebuy(line, question, tables))
        except DomainError as error:
            if error.field in QUESTION_FIELDS or isinstance(error, AmbiguousParameter):
                raise
            fleet.skip(line.first_row, error.message)
    answer.total_usd_per_month = sum(line.usd_per_month for line in answer.lines)
    answer.total_saving = Range(
        *(
            sum(getattr(line.replacement.saving_usd_per_month, end) for line in answer.lines)
            for end in ("low", "mid", "high")
        )
    )
    answer.summary = fleet_summary(answer)
    return answer


class _Tables:
    """The price-performance answers a fleet asks, each asked once."""

    def __init__(self, question: FleetQuestion):
        self.question = question
        self.answers: dict[tuple[str, str], Any] = {}

    def rows(self, region: str, option: str) -> tuple[list, float]:
        """The priced rows of the region's answer for the way to buy, and its tie margin."""
        key = (region, option)
        if key not in self.answers:
            self.answers[key] = self._ask(region, option)
        return self.answers[key]

    def _ask(self, region: str, option: str):
        question = self.question
        purchase = Purchase(option=option)
        if question.profile:
            table = profile_table(
                ProfileQuery(
                    profile=question.profile, region=region, purchase=purchase, at=question.at
                )
            )
        else:
            table = price_performance_table(
                PricePerformanceQuery(
                    benchmark=question.benchmark,
                    region=region,
                    purchase_option=option,
                    at=question.at,
                    params=question.params,
                )
            )
        rows = [
            row
            for row in table.results
            if row.per_dollar and row.usd_per_hour and getattr(row, "kind", "") != "database"
        ]
        noise = table.standing.noise if table.standing else None
        # The lead two figures must exceed to differ (0 where the noise is not measured).
        return rows, noise.margin if noise else 0.0


def _names(row) -> set[str]:
    vendor = getattr(row, "vendor", "aws")
    return {row.instance_type, qualified_name(vendor, row.instance_type)}


def _rebuy(line: FleetLine, question: FleetQuestion, tables: _Tables) -> RebuiltLine:
    region_code = lookups.region_code(line.region)
    region = Region.objects.filter(code=region_code).first()
    if region is None:
        raise DomainError(f"{line.instance_type} in {line.region}: no region of that name")
    option, note = _way_to_buy(line, region)
    rows, margin = tables.rows(region_code, option)
    current = _row_of(line, rows)
    if current is None and option != PurchaseOption.ON_DEMAND:
        # Its own type has no price for the way it was bought: compare on-demand.
        note = f"no {option} price of {line.instance_type} in {region_code}: re-bought on-demand"
        option = PurchaseOption.ON_DEMAND.value
        rows, margin = tables.rows(region_code, option)
        current = _row_of(line, rows)
    if current is None:
        raise DomainError(_why_not_compared(line, region_code, option, question))
    # The line's work: its hours at what an hour of its own type does.
    work = line.hours * per_dollar.work_per_hour(current.per_dollar, current.usd_per_hour)
    paid = line.usd_paid is not None
    usd_now = line.usd_paid if paid else current.usd_per_hour * line.hours
    candidates = [(row, region_code) for row in rows]
    if question.regions == "any":
        for other in _other_regions(region, option):
            candidates += [(row, other) for row in tables.rows(other, option)[0]]
    best, best_region = _cheapest(candidates, margin)
    if best is current or per_dollar.cost_of_work(work, best.per_dollar) >= usd_now:
        replacement = Replacement(
            instance_type=line.instance_type,
            region=region_code,
            purchase_option=option,
            usd_per_month=usd_now,
            work_ratio=Range(1.0, 1.0, 1.0),
            saving_usd_per_month=Range(0.0, 0.0, 0.0),
            beyond_noise=False,
            estimated=current.estimated,
            kept=True,
        )
    else:
        replacement = _replacement(work, current, best, best_region, option, usd_now, margin)
    return RebuiltLine(
        instance_type=line.instance_type,
        region=region_code,
        hours=line.hours,
        purchase_option=option,
        usd_per_month=usd_now,
        paid=paid,
        replacement=replacement,
        note=note,
        billed_purchase_option=line.purchase_option,
    )


def _cheapest(candidates: list[tuple], margin: float) -> tuple:
    """The (row, region) a dollar buys most work on; a measured row where an estimated one leads
    it only within the noise (an estimate is not measured work)."""

    def order(pair):
        return (-pair[0].per_dollar, pair[0].instance_type)

    best = min(candidates, key=order)
    if best[0].estimated:
        measured = [pair for pair in candidates if not pair[0].estimated]
        if measured:
            runner_up = min(measured, key=order)
            if not beyond(best[0].per_dollar, runner_up[0].per_dollar, margin):
                return runner_up
    return best


def _row_of(line: FleetLine, rows: list):
    """The answer's row of the line's type (its plain variant first)."""
    named = [row for row in rows if line.instance_type in _names(row)]
    return next((row for row in named if not row.variant), named[0] if named else None)


def _relative_interval(row, margin: float) -> tuple[float, float]:
    """The row's per-dollar figure's low and high as shares of it: its calibrated
    `per_dollar_interval` where the answer gives one, else ± half the tie margin."""
    interval = getattr(row, "per_dollar_interval", None)
    if isinstance(interval, dict) and interval.get("low") and interval.get("high"):
        return interval["low"] / row.per_dollar, interval["high"] / row.per_dollar
    return 1 - margin / 2, 1 + margin / 2


def _replacement(work, current, best, region, option, usd_now, margin) -> Replacement:
    """`best` doing the line's `work` (its own type's is `current`), and what that saves on
    `usd_now`, with the range the two figures' intervals give."""
    own_hourly = per_dollar.work_per_hour(current.per_dollar, current.usd_per_hour)
    ratio = per_dollar.work_per_hour(best.per_dollar, best.usd_per_hour) / own_hourly
    ratio_low, ratio_high = per_dollar.ratio_range(
        ratio, _relative_interval(best, margin), _relative_interval(current, margin)
    )
    ratio_low = max(ratio_low, 1e-12)
    # The work costs more on a replacement that does less of it an hour than thought.
    cost = per_dollar.cost_of_work(work, best.per_dollar)
    saving = Range(
        usd_now - cost * ratio / ratio_low, usd_now - cost, usd_now - cost * ratio / ratio_high
    )
    return Replacement(
        instance_type=qualified_name(getattr(best, "vendor", "aws"), best.instance_type),
        region=region,
        purchase_option=option,
        usd_per_month=cost,
        work_ratio=Range(ratio_low, ratio, ratio_high),
        saving_usd_per_month=saving,
        beyond_noise=saving.low > 0 or saving.high < 0,
        estimated=best.estimated or current.estimated,
    )


def _way_to_buy(line: FleetLine, region: Region) -> tuple[str, str]:
    """The line's way to buy where the region has prices for it, else on-demand (noted)."""
    option = line.purchase_option
    if option == PurchaseOption.ON_DEMAND:
        return option, ""
    if Price.objects.filter(region=region, purchase_option=option).exists():
        return option, ""
    return PurchaseOption.ON_DEMAND.value, (
        f"no {option} prices known in {region.code}: re-bought on-demand"
    )


def _other_regions(region: Region, option: str) -> list[str]:
    """The vendor's other regions with prices for the way to buy (`regions=any`)."""
    codes = (
        Price.objects.filter(region__vendor=region.vendor, purchase_option=option)
        .exclude(region=region)
        .values_list("region__code", flat=True)
        .distinct()
    )
    return sorted(codes)


def _why_not_compared(line: FleetLine, region: str, option: str, question) -> str:
    vendor, name = lookups.vendor_and_name(line.instance_type)
    types = InstanceType.objects.filter(name=name)
    if vendor:
        types = types.filter(vendor=vendor)
    if not types.exists():
        return f"{line.instance_type}: a type no cloud sells (none known by that name)"
    return (
        f"{line.instance_type}: no {question.work} figure with a price in {region} "
        f"({option.replace('_', '-')}), so its work cannot be matched"
    )


def fleet_summary(answer: FleetAnswer) -> str:
    """The sentence a finance person can quote."""
    lines = answer.lines
    if not lines:
        skipped = f" ({answer.file.skipped_count} skipped, each with its reason)" * bool(
            answer.file.skipped_count
        )
        return f"No line of the file could be re-bought{skipped}."
    saving = answer.total_saving
    moved = [line for line in lines if not line.replacement.kept]
    beyond = [line for line in moved if line.replacement.beyond_noise]
    work = answer.question.work
    share = saving.mid / answer.total_usd_per_month if answer.total_usd_per_month else 0.0
    if not moved:
        return (
            f"Every line ({len(lines)}) already costs least for its {work} work "
            f"(${answer.total_usd_per_month:,.0f} a month): nothing to re-buy."
        )
    sentence = (
        f"Re-buying {len(moved)} of {len(lines)} lines at equal {work} work saves "
        f"{usd(saving.low)} to {usd(saving.high)} a month (mid {usd(saving.mid)}), "
        f"{share:.0%} of {usd(answer.total_usd_per_month)}"
    )
    rest = []
    if len(beyond) < len(moved):
        rest.append(f"{len(moved) - len(beyond)} of them within noise")
    estimated = [line for line in moved if line.replacement.estimated]
    if estimated:
        rest.append(
            f"{len(estimated)} of them on an estimated figure (a Fargate size no task measured), "
            "not a measured one"
        )
    if len(moved) < len(lines):
        rest.append(f"{len(lines) - len(moved)} already cheapest")
    return sentence + (f"; {', '.join(rest)}." if rest else ".")


def usd(amount: float) -> str:
    """Dollars as a sentence says them: cents below $100, whole dollars above."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    return f"{sign}${amount:,.2f}" if amount < 100 else f"{sign}${amount:,.0f}"
