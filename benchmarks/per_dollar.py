"""What a dollar buys: the arithmetic of every per-dollar answer, in plain numbers.

Pure: no Django, no ORM, no I/O. The compute, network, storage and database answers all
divide through here, so one question gives the same figures on the page, in the API and in
its CSV. Prices are US dollars per hour (or per month for volumes); figures are the kept
medians in the benchmark's own unit.
"""

from __future__ import annotations

import math
import statistics
from collections import namedtuple
from collections.abc import Hashable, Iterable, Sequence
from decimal import Decimal

SECONDS_PER_HOUR = 3600
HOURS_PER_YEAR = 8760
# A commitment's term in hours: AWS counts 365 days a year (3 years: 26,280 hours).
TERM_HOURS = {"1y": HOURS_PER_YEAR, "3y": 3 * HOURS_PER_YEAR}
# A month of use: 730 hours, AWS's convention in its pricing pages and calculator (8,760 / 12),
# so a term is exactly 12 or 36 months.
HOURS_PER_MONTH = 730
BITS_PER_GIGABIT = 1e9
# A quotient's seventeen digits (14661529.411764706) claim a precision no benchmark has: seven
# are far finer than any run-to-run spread.
PER_DOLLAR_DIGITS = 7
# A price as an answer writes it: at most ten significant digits. Prices are kept to eight
# decimals; beyond ten digits is float noise, or a quote summed from another currency's unit
# prices past its smallest coin (Google's e2-highcpu-16 in IDR: 5936.42877030 an hour).
PRICE_DIGITS = 10


def significant(value: float, digits: int = PER_DOLLAR_DIGITS) -> float:
    """`value` to `digits` significant digits."""
    return float(f"{value:.{digits}g}")


def per_dollar(
    median: float, usd_per_hour: float | None, *, higher_is_better: bool
) -> float | None:
    """Units of work per dollar (`median` is a throughput), or jobs per dollar (`median` is
    seconds per job); None without a price or for a duration that is not positive."""
    if not usd_per_hour:
        return None
    if higher_is_better:
        value = median * SECONDS_PER_HOUR / usd_per_hour
    elif median <= 0:
        return None
    else:
        value = SECONDS_PER_HOUR / (median * usd_per_hour)
    return significant(value) if math.isfinite(value) else None


def per_dollar_interval(
    bought: float, low: float, high: float, median: float, *, higher_is_better: bool
) -> tuple[float, float]:
    """What a figure's interval (`low` to `high` around `median`) makes of what a dollar buys
    of it (`bought`): a lower-is-better figure's per dollar is 3600 / (median x price), so the
    bounds swap."""
    if higher_is_better:
        return bought * low / median, bought * high / median
    return bought * median / high, bought * median / low


def per_price(value: float | None, price: float | None) -> float | None:
    """A figure per unit of price (per dollar-hour, per dollar-month); None without either."""
    if value is None or not price:
        return None
    return value / price


def gbit_per_second_per_usd_hour(
    bits_per_second: float, usd_per_hour: float | None
) -> float | None:
    """Gbit/s a dollar-hour buys (study S3)."""
    return per_price(bits_per_second / BITS_PER_GIGABIT, usd_per_hour)


def usd_per_million_tokens(usd_per_hour: float, tokens_per_second: float) -> float | None:
    """The hour's price over the tokens it generates, per million; None for no tokens."""
    if tokens_per_second <= 0:
        return None
    return significant(usd_per_hour / (tokens_per_second * 3600) * 1_000_000)


def per_vcpu(value: float | None, vcpus: float | None) -> float | None:
    """A figure (or a price) per vCPU; None where the vCPU count is unknown."""
    if value is None or not vcpus:
        return None
    return value / vcpus


def per_gib(value: float | None, memory_gib: float | None) -> float | None:
    """A figure (or a price) per GiB of memory; None where the memory is unknown."""
    return per_vcpu(value, memory_gib)


def unit_prices(
    usd_per_hour: Decimal, *, vcpus: Decimal | None, memory_gib: Decimal | None
) -> tuple[float | None, float | None]:
    """What a vCPU-hour and a GiB-hour cost when the whole hourly price is put on each:
    (price / vCPUs, price / GiB), to seven significant digits; None where a size is unknown.

    The two are not a split of the price: each carries all of it, so that types and Fargate
    tasks, whose memory comes with their vCPUs, compare on either. Divided exactly (Decimals,
    as prices and sizes are stored; a float is read as it is written), so that two prices of
    the same GiB-hour give the same figure.
    """
    price = _exact(usd_per_hour)
    vcpu_hour = per_vcpu(price, None if vcpus is None else _exact(vcpus))
    gib_hour = per_gib(price, None if memory_gib is None else _exact(memory_gib))
    return (
        None if vcpu_hour is None else significant(vcpu_hour),
        None if gib_hour is None else significant(gib_hour),
    )


def sustained_vcpu_hour(
    usd_per_hour: Decimal, *, vcpus: Decimal | None, baseline_share: Decimal | None
) -> float | None:
    """What a vCPU-hour costs at what a burstable type sustains once its CPU credits are spent:
    its vCPU-hour over its baseline share (t2.nano: $0.0058 / 0.05 = $0.116), divided exactly
    like `unit_prices`, to seven significant digits; None where either is unknown (a type that
    is not burstable has no baseline share)."""
    if vcpus is None or not baseline_share:
        return None
    value = per_vcpu(_exact(usd_per_hour), _exact(vcpus) * _exact(baseline_share))
    return None if value is None else significant(value)


def _exact(value: Decimal | float) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def fargate_hourly(
    *,
    vcpus: Decimal,
    memory_gib: Decimal,
    usd_per_vcpu_hour: Decimal,
    usd_per_gb_hour: Decimal,
) -> Decimal:
    """A Fargate task's hourly price from its rates: vCPUs and GB (GiB) each at their rate,
    exactly (Decimals in, a Decimal out)."""
    return vcpus * usd_per_vcpu_hour + memory_gib * usd_per_gb_hour


def median_price(prices: Sequence[float]) -> float:
    """The middle of several prices (a spot price over a region's zones): the mean of the two
    middle ones for an even count."""
    if not prices:
        raise ValueError("the median of no prices")
    return significant(statistics.median(prices))


def sustained_share(baseline_share: float, vcpus: float | None, processes: object) -> float:
    """The share of its burst figure a burstable type sustains once its credits are spent.

    Credits are earned for the whole instance (the baseline per vCPU x vCPUs), so fewer busy
    processes than vCPUs each get more of it, up to a whole vCPU. Without a process count,
    every vCPU is taken as busy.
    """
    return min(1.0, baseline_share * float(vcpus or 1) / busy_vcpus(vcpus, processes))


def sustained_figure(median: float, share: float, *, higher_is_better: bool) -> float:
    """A burst figure scaled to a sustained `share` of the CPU (a duration grows instead; with
    no share at all, it never ends)."""
    if higher_is_better:
        return median * share
    return median / share if share > 0 else math.inf


def sustained_per_dollar(
    median: float,
    usd_per_hour: float | None,
    *,
    higher_is_better: bool,
    baseline_share: float,
    vcpus: float | None,
    processes: object,
) -> float | None:
    """Work per dollar of a burstable type once its CPU credits are spent."""
    share = sustained_share(baseline_share, vcpus, processes)
    if share <= 0:
        return 0.0 if usd_per_hour else None
    figure = sustained_figure(median, share, higher_is_better=higher_is_better)
    return per_dollar(figure, usd_per_hour, higher_is_better=higher_is_better)


def other_basis_per_dollar(
    basis: str, *, burst_per_dollar: float | None, sustained_per_dollar: float | None
) -> float | None:
    """A burstable type's per-dollar figure on the basis its ranking did not use: its burst
    figure's when ranked by what it sustains (the default), else what it sustains."""
    return burst_per_dollar if basis == "sustained" else sustained_per_dollar


def credits_per_hour(baseline_share: float, vcpus: float | None) -> float:
    """CPU credits a burstable type earns an hour: its baseline share of every vCPU, in
    vCPU-minutes (t3.nano: 5% of 2 vCPUs, 6 credits)."""
    return baseline_share * float(vcpus or 1) * 60


def busy_vcpus(vcpus: float | None, processes: object) -> float:
    """The vCPUs a result kept busy: its process count, at most the type's vCPUs (every vCPU
    when the count is unknown)."""
    vcpus = float(vcpus or 1)
    return min(float(processes), vcpus) if isinstance(processes, int) and processes > 0 else vcpus


def burst_minutes(credits_per_hour: float, vcpus: float | None, processes: object) -> float | None:
    """Minutes a full credit balance (24 hours of earned credits) lasts at full load on the
    busy vCPUs, earning meanwhile; None when the load never spends more than it earns.

    A CPU credit is one vCPU at 100% for a minute (t2.nano: 72 credits, one vCPU, 0.05 a
    minute earned: 76 minutes)."""
    spent = busy_vcpus(vcpus, processes) - credits_per_hour / 60
    if spent <= 0:
        return None
    return 24 * credits_per_hour / spent


def unlimited_usd_per_hour(
    usd_per_hour: float,
    *,
    baseline_share: float,
    vcpus: float | None,
    processes: object,
    surplus_usd_per_vcpu_hour: float,
) -> float:
    """The hourly price of running flat out in unlimited mode: the price plus the surplus
    credits spent above the baseline, charged per vCPU-hour. Summed exactly (t2.micro:
    0.0116 + 0.9 x 0.05 is 0.0566, where floats make it 0.056600000000000004)."""
    surplus = _exact(busy_vcpus(vcpus, processes)) - _exact(baseline_share) * _exact(vcpus or 1)
    price = _exact(usd_per_hour) + max(Decimal(0), surplus) * _exact(surplus_usd_per_vcpu_hour)
    return float(price)


def effective_hourly(*, upfront_usd: float, hourly_usd: float, hours: float) -> float:
    """A commitment's price per hour: its upfront fee spread over its hours, plus the hourly.

    Decimals in, a Decimal out: the importers store it as AWS's prices are stored.
    """
    if hours <= 0:
        raise ValueError("a commitment lasts a positive number of hours")
    return upfront_usd / hours + hourly_usd


def term_hours(term: str) -> int:
    """The hours of a commitment's term (`1y`, `3y`); ValueError for another."""
    try:
        return TERM_HOURS[term]
    except KeyError:
        raise ValueError(f"{term!r} is not a term (1y or 3y)") from None


# What some hours of use cost, in dollars: the upfront fees, the hourly fees, their sum, and
# what the terms started bind the buyer to pay whether the hours are used or not. (A named
# tuple from `collections`: this module imports nothing beyond the standard library's basics.)
CostOfUse = namedtuple("CostOfUse", ["upfront_usd", "hourly_usd", "total_usd", "committed_usd"])


def terms_started(hours: float, term_hours: float) -> int:
    """How many terms `hours` of use start (one more as soon as one hour runs past a term)."""
    if term_hours <= 0:
        raise ValueError("a commitment lasts a positive number of hours")
    return math.ceil(hours / term_hours) if hours > 0 else 0


def cost_of_use(
    *,
    hours: float,
    hourly_usd: float,
    upfront_usd: float = 0.0,
    term_hours: float | None = None,
) -> CostOfUse:
    """The cost of `hours` of use: the upfront fee at the start of each term started, plus the
    hourly fee times the hours. Without `term_hours` (on demand, spot) nothing is upfront and
    nothing is committed beyond the hours used."""
    if hours < 0:
        raise ValueError("hours of use are not negative")
    hourly = hourly_usd * hours
    if term_hours is None:
        return CostOfUse(0.0, hourly, hourly, hourly)
    started = terms_started(hours, term_hours)
    upfront = upfront_usd * started
    # The hours committed first, then their price: with the hours used a whole number of
    # terms, both products are then the same float, and never the committed one below.
    committed = upfront + hourly_usd * (term_hours * started)
    return CostOfUse(upfront, hourly, upfront + hourly, committed)


def break_even_month(
    *,
    upfront_usd: float,
    hourly_usd: float,
    on_demand_usd_per_hour: float,
    term_hours: float,
    hours_used_per_month: float = HOURS_PER_MONTH,
) -> int | None:
    """The first month (1, 2, ...) whose cumulative cost under the commitment is at or below
    on demand's for the hours used; None if no month of the term gets there.

    A commitment bills every hour of its term, used or not; on demand only the hours used
    (`hours_used_per_month`, every hour of the month by default)."""
    for month in range(1, math.floor(term_hours / HOURS_PER_MONTH) + 1):
        hours = month * HOURS_PER_MONTH
        commitment = cost_of_use(
            hours=hours, hourly_usd=hourly_usd, upfront_usd=upfront_usd, term_hours=term_hours
        ).total_usd
        on_demand = on_demand_usd_per_hour * month * hours_used_per_month
        # Rounded to a millionth of a cent: a tie in dollars stays a tie in binary floats.
        if round(commitment, 8) <= round(on_demand, 8):
            return month
    return None


def ratio(value: float) -> float:
    """A ratio to the baseline, to three decimals (three significant digits when smaller)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, max(3, 2 - math.floor(math.log10(abs(value)))))


def relative_throughput(
    median: float, base_median: float, *, higher_is_better: bool
) -> float | None:
    """How much work a row does against the baseline (both read as "higher is better")."""
    if higher_is_better:
        return ratio(median / base_median) if base_median else None
    return ratio(base_median / median) if median else None


def relative(value: float | None, base: float | None) -> float | None:
    """`value` as a ratio of the baseline's `base` (cost, per dollar); None without either."""
    if value is None or not base:
        return None
    return ratio(value / base)


def work_per_hour(per_dollar: float, usd_per_hour: float) -> float:
    """The work an hour of a type does (units, or jobs, an hour): what a dollar buys of it
    times what an hour of it costs."""
    return per_dollar * usd_per_hour


def cost_of_work(work: float, per_dollar: float) -> float:
    """What `work` (units, or jobs) costs where a dollar buys `per_dollar` of it."""
    return work / per_dollar


def ratio_range(
    ratio: float, numerator: tuple[float, float], denominator: tuple[float, float]
) -> tuple[float, float]:
    """A ratio of two figures as low and high, each figure known within (low, high) as shares
    of itself: the numerator's low over the denominator's high, its high over their low."""
    return ratio * numerator[0] / denominator[1], ratio * numerator[1] / denominator[0]


def pareto_frontier(points: Iterable[tuple[Hashable, float, float]]) -> set:
    """Keys of the points no other point beats on both cost and goodness.

    `points`: (key, cost, goodness), goodness higher is better. A point is beaten when another
    costs no more and is at least as good, and is strictly better on one of the two; points
    equal to a point on the frontier are on it too.
    """
    # Cheapest first; at one cost, the best first.
    order = sorted(points, key=lambda point: (point[1], -point[2]))
    frontier: set = set()
    best: float | None = None
    last: tuple[float, float] | None = None
    for key, cost, goodness in order:
        if best is None or goodness > best:
            best, last = goodness, (cost, goodness)
            frontier.add(key)
        elif (cost, goodness) == last:
            frontier.add(key)
    return frontier


def quartiles(
    values: Sequence[float], weights: Sequence[int] | None = None
) -> tuple[float, float, float]:
    """First quartile, median and third quartile (inclusive method; one value is all three).

    `weights` (whole numbers, one per value, the values in order) counts each value that many
    times, as a figure that stands for several machines (the processor lottery: 4 of 5 tasks
    on one processor give its figure four fifths of the weight). The same figures as the
    values repeated, without repeating them; all ones (or None) are the plain quartiles.
    """
    if not values:
        raise ValueError("quartiles of no values")
    if weights is not None and any(weight != 1 for weight in weights):
        return _weighted_quartiles(values, weights)
    if len(values) == 1:
        return values[0], values[0], values[0]
    first, _, third = statistics.quantiles(values, n=4, method="inclusive")
    return first, statistics.median(values), third


def _weighted_quartiles(
    values: Sequence[float], weights: Sequence[int]
) -> tuple[float, float, float]:
    """`quartiles` of the values each repeated by its weight: statistics.quantiles' inclusive
    method and statistics.median, written over positions in that repetition."""
    if len(weights) != len(values) or any(weight < 1 for weight in weights):
        raise ValueError("one weight of at least 1 per value")
    count = sum(weights)

    def at(position: int) -> float:
        """The value at this position (from 0) of the values repeated."""
        for value, weight in zip(values, weights, strict=True):
            if position < weight:
                return value
            position -= weight
        raise IndexError(position)

    first, third = (
        (at(j) * (4 - delta) + at(j + 1) * delta) / 4
        for j, delta in (divmod(quarter * (count - 1), 4) for quarter in (1, 3))
    )
    middle = count // 2
    median = at(middle) if count % 2 else (at(middle - 1) + at(middle)) / 2
    return first, median, third
