"""The sentence that answers a price-performance question, computed from its rows.

Which type gives the most per dollar on the basis asked, by how much over the best of the
next family and over the baseline, which prices (of which days) it used, and what is left
out and why. The API sends it as `summary`; the page shows it first (`data-role="answer"`).
"""

from __future__ import annotations

from collections import Counter

from benchmarks import currency, units
from benchmarks.models import Vendor
from benchmarks.questions.purchase import Purchase
from benchmarks.repeats import group_name
from benchmarks.selectors.answer.baseline import baseline_row
from benchmarks.selectors.answer.price_performance_rows import (
    PricePerformanceRow,
    PricePerformanceTable,
    most_per_dollar_first,
)
from benchmarks.selectors.answer.standing import Standing
from benchmarks.selectors.subjects.profiles import ProfileRow, ProfileTable

BASIS_WORDS = {
    "sustained": "burstable types at what they sustain once their CPU credits are spent",
    "burst": "burstable types at their burst figure, which lasts only while CPU credits do",
    "unlimited": "burstable types run flat out in unlimited mode, surplus credits paid",
}
OPTION_WORDS = {"on_demand": "on-demand"}


def summary(table: PricePerformanceTable, *, rules: bool = True) -> str:
    """One sentence (two when something is left out) answering the table's question; with
    `rules`, what a parameter left open took (the page says it in its notes instead)."""
    benchmark = table.benchmark
    reading = units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better)
    option = option_words(table.purchase)
    where = f"{option} prices in {table.region_code}"
    if not table.results:
        return _nothing_priced(table, where)
    # The answer's own order: a latency's rows too rank by what a dollar buys (its
    # `per_dollar`), which the sentence names first, with the latency beside it.
    ranked = most_per_dollar_first(table.results)
    winner = ranked[0]
    standing = table.standing
    if reading.per_dollar is not None:
        figure = reading.per_dollar.format(winner.per_dollar) + _per_unit_of_currency(
            table, winner, reading
        )
        if standing is not None and standing.tied:
            claim = _tie(ranked, standing, reading, figure, benchmark.key)
        else:
            claim = (
                f"{_winner_subject(ranked, standing)} gives the most {benchmark.key} per dollar "
                f"({figure})"
            )
    else:
        value = reading.value_name.lower()
        stored = f"{value} in {benchmark.unit}" if benchmark.unit else value
        bought = units.Scale(symbol=False, suffix=" per dollar").format(winner.per_dollar)
        claim = (
            f"{_name(winner)} ranks first per dollar on {benchmark.key} ({bought}: 3600 ÷ "
            f"({stored} × USD per hour); {value} {reading.value.format(winner.median)})"
        )
    tied = standing is not None and standing.tied and reading.per_dollar is not None
    over_next = "" if tied else _over_next_family(ranked, reading)
    parts = [claim, over_next, _over_baseline(table, winner, reading)]
    sentence = ", ".join(part for part in parts if part)
    if table.order == "price":
        sentence = _cheapest(table) + sentence
    basis = BASIS_WORDS[table.basis] if table.has_burstable else ""
    sentence += f", at {price_dates(table, where)}" + (f" ({basis})" if basis else "") + "."
    left_out = _left_out(table, option)
    said = " ".join(open_rules(table)) if rules else ""
    return " ".join(part for part in (sentence, left_out, said) if part)


def open_rules(table: PricePerformanceTable) -> list[str]:
    """What each parameter left open took, a sentence each (parameters.open_rule)."""
    return [f"{rule[0].upper()}{rule[1:]}." for rule in table.open_rules]


def _winner_subject(ranked: list, standing: Standing | None) -> str:
    """Who buys the most: the winner, or its family at the sizes within noise of it ("c7g
    at any size from c7g.medium to c7g.metal (within noise of c7g.metal)", "c7g at 3 of its
    5 sizes, c7g.xlarge to c7g.metal (within noise of ...)"); a cross-cloud row names its
    region and stays alone."""
    winner = ranked[0]
    family = standing.best_family if standing else None
    if family is None or len(family.types) < 2 or getattr(winner, "region", None):
        return _name(winner)
    within = set(family.types)
    sizes = sorted(
        (row for row in ranked if row.family == winner.family),
        key=lambda row: (row.vcpus or 0, row.per_dollar is None, row.instance_type),
    )
    held = [row for row in sizes if row.instance_type in within]
    span = f"{held[0].instance_type} to {held[-1].instance_type}"
    which = (
        f"any size from {span}"
        if len(held) == len(sizes)
        else f"{len(held)} of its {len(sizes)} sizes, {span}"
    )
    return f"{family.family} at {which} (within noise of {_name(winner)})"


def _next_family(ranked: list):
    """The best row of another family than the winner's, or None."""
    return next((row for row in ranked[1:] if row.family != ranked[0].family), None)


def _inside_noise(standing: Standing, whose: str) -> str:
    """How far apart a tie's two figures are, and the noise they are inside: "1.2% apart,
    inside this benchmark's noise of 2.8%"."""
    lead = standing.best_family.lead or 0.0
    margin = standing.best_family.margin
    if margin is None:
        margin = standing.noise.margin if standing.noise else 0.0
    return f"{lead * 100:.1f}% apart, inside {whose} noise of {margin * 100:.1f}%"


def second_run(table: PricePerformanceTable) -> str:
    """How far a second run moves, in plain words, for the line under the answer: "On Amazon
    Web Services' dedicated vCPUs, a second run of the same type differs by up to 3.5% in 9
    runs of 10 and by up to 7.5% in 19 of 20: a lead inside that is a tie (62 pairs of
    runs)." The distribution the winner was judged by (Noise.reach's); empty without one."""
    standing = table.standing
    noise = standing.noise if standing else None
    if noise is None or not noise.quantiles or not table.results:
        return ""
    winner = most_per_dollar_first(table.results)[0]
    where, spread = _group_of(noise, winner.vendor, winner.cpu_allocation, winner.params_key)
    tenth = _percent(spread["quantiles"]["p90"])
    twentieth = _percent(spread["quantiles"]["p95"])
    if noise.basis == "peers":
        said = (
            f"two types with the same processor and vCPUs (no type was run twice) differ by up "
            f"to {tenth} in 9 pairs of 10 and by up to {twentieth} in 19 of 20"
        )
    else:
        said = (
            f"a second run of the same type differs by up to {tenth} in 9 runs of 10 and by "
            f"up to {twentieth} in 19 of 20"
        )
    line = f"{where}{said}: a lead inside that is a tie ({spread['pairs']:,} pairs of runs)."
    return line[0].upper() + line[1:]


def _group_of(noise, vendor: str, allocation: str, params: str) -> tuple[str, dict]:
    """(where, in words, its kept distribution) the noise judges such a machine by
    (Noise.judged_by, as the ranks and ties are judged)."""
    name, kept = noise.judged_by(vendor, allocation, params)
    if name and name == group_name(vendor, allocation):
        vendor_name = _vendor_name(vendor)
        whose = f"{vendor_name}'" if vendor_name.endswith("s") else f"{vendor_name}'s"
        return f"on {whose} {allocation} vCPUs, ", kept
    if name:
        return f"on {allocation} vCPUs, ", kept
    return "", kept


def _vendor_name(vendor: str) -> str:
    try:
        return Vendor(vendor).label
    except ValueError:
        return vendor


def _percent(share: float) -> str:
    return f"{share * 100:.2g}%" if share < 0.1 else f"{share * 100:.0f}%"


def _tie(
    ranked: list[PricePerformanceRow],
    standing: Standing,
    reading: units.Reading,
    figure: str,
    key: str,
) -> str:
    """A winner whose lead over the next family is inside the noise: tied, both named."""
    other = _next_family(ranked)
    apart = _inside_noise(standing, "this benchmark's")
    return (
        f"{_name(ranked[0])} and {_name(other)} are tied for the most {key} per dollar "
        f"({figure} and {reading.per_dollar.format(other.per_dollar)}: {apart})"
    )


def option_words(purchase: Purchase) -> str:
    """How a sentence names the prices' option: "on-demand", or which commitment or zone,
    "reserved (3y, all_upfront, standard)"."""
    option = OPTION_WORDS.get(purchase.option, purchase.option.replace("_", " "))
    if purchase.is_commitment or purchase.option == "spot":
        return purchase.describe().replace(purchase.option, option, 1)
    return option


def price_dates(table: PricePerformanceTable, where: str | None = None) -> str:
    """Which prices the rows use: "on-demand prices in us-east-1 in force on 2024-06-01", or
    the days of the prices used when none was in force on the day asked."""
    where = where or f"{option_words(table.purchase)} prices in {table.region_code}"
    elsewhere = Counter(row.price_effective_from for row in table.results if not row.price_in_force)
    if not elsewhere:
        return f"{where} in force on {table.at}"
    days = ", ".join(str(day) for day in sorted(elsewhere, key=str)[:3])
    more = " and others" if len(elsewhere) > 3 else ""
    count = sum(elsewhere.values())
    held = len(table.results) - count
    return (
        f"{where} of {days}{more}: none on record for {table.at} for {count} of "
        f"{len(table.results)} rows" + (f" ({held} priced as of {table.at})" if held else "")
    )


def _name(row: PricePerformanceRow | ProfileRow) -> str:
    """`c7g.large`, `c7a.xlarge (base)`, `fargate-1vcpu-2gb-arm64 (estimated from AWS
    Graviton2 (Neoverse-N1))`; in a cross-cloud answer with its region, `cax11 in
    hcloud:fsn1` (a profile's rows have no region)."""
    name = row.instance_type + (f" ({row.variant})" if row.variant else "")
    if getattr(row, "estimate", None):
        # Never an estimate without saying so (selectors/answer/fargate_estimates.py).
        name += f" (estimated from {row.estimate['processor']})"
    region = getattr(row, "region", None)
    return f"{name} in {region}" if region else name


def _per_unit_of_currency(
    table: PricePerformanceTable, row: PricePerformanceRow, reading: units.Reading
) -> str:
    """An answer in another currency says the winner's figure per unit of it too: "; 697 k
    per euro-hour" (the per-dollar figure over the rate of the rows' prices)."""
    rate = table.exchange_rate
    if rate.day is None or not row.per_dollar or not row.exchange_rate:
        return ""
    per_unit = reading.per_dollar.format(row.per_dollar / row.exchange_rate)
    return "; " + per_unit.replace("per dollar", f"per {currency.unit_word(rate.currency)}")


def _cheapest(table: PricePerformanceTable) -> str:
    """An answer ranked cheapest first (`order=price`) opens with the cheapest type and its
    price, in the currency asked."""
    row = next((row for row in table.results if row.usd_per_hour is not None), None)
    if row is None:
        return ""
    if row.currency == currency.USD:
        price = f"${row.usd_per_hour:.4f}/h"
    else:
        price = f"{row.price_per_hour:.4f} {row.currency}/h"
    return f"The cheapest is {_name(row)} at {price}; "


def _more(ratio: float, per_dollar: bool = False) -> str:
    """1.18 -> "18% more than"; 2.5 -> "2.5 times"; `per_dollar` (a sentence whose figure is
    not per dollar says it): "18% more per dollar than", "2.5 times as much per dollar as"."""
    if ratio >= 2:
        return f"{ratio:.1f} times as much per dollar as" if per_dollar else f"{ratio:.1f} times"
    return f"{(ratio - 1) * 100:.0f}% more{' per dollar' if per_dollar else ''} than"


def _over_next_family(ranked: list[PricePerformanceRow], reading: units.Reading) -> str:
    winner = ranked[0]
    other = next((row for row in ranked[1:] if row.family != winner.family), None)
    if other is None:
        return ""
    if not other.per_dollar or not winner.per_dollar:
        return ""
    ratio = winner.per_dollar / other.per_dollar
    return (
        f"{_more(ratio, reading.per_dollar is None)} the best of the next family ({_name(other)})"
    )


def _over_baseline(
    table: PricePerformanceTable, winner: PricePerformanceRow, reading: units.Reading
) -> str:
    if not table.baseline or winner is baseline_row(
        table.results, table.baseline, table.benchmark.key
    ):
        return ""
    if not winner.relative_per_dollar:
        return ""
    more = _more(winner.relative_per_dollar, reading.per_dollar is None)
    return f"{more} the baseline {table.baseline}"


def _left_out(table: PricePerformanceTable, option: str) -> str:
    if not table.unpriced:
        return ""
    exact = sum(1 for row in table.unpriced if row.reason.startswith("price_dates=exact"))
    none = len(table.unpriced) - exact
    reasons = []
    if none:
        article = "an" if option[:1] in "aeiou" else "a"
        reasons.append(f"{none} without {article} {option} price in {table.region_code}")
    if exact:
        reasons.append(f"{exact} whose price was not in force on {table.at}")
    count = len(table.unpriced)
    return (
        f"Left out: {count} type{'s' if count != 1 else ''} with results ({' and '.join(reasons)})."
    )


def _nothing_priced(table: PricePerformanceTable, where: str) -> str:
    benchmark, count = table.benchmark.key, len(table.unpriced)
    measured = f" measured in {table.measured_in}" if table.measured_in else ""
    if not count:
        return f"No results of {benchmark}{measured} with these choices."
    reasons = Counter(row.reason for row in table.unpriced).most_common(1)[0][0]
    return (
        f"None of the {count} type{'s' if count != 1 else ''} with {benchmark} results{measured}"
        f" can be ranked at {where}: {reasons}."
    )


def profile_summary(table: ProfileTable) -> str:
    """The sentence answering a workload profile's question: which type buys the most of its
    work per dollar, by how much over the best of the next family, at which prices; then what
    is left out (types lacking a member, types without a price)."""
    option = option_words(table.purchase)
    where = f"{option} prices in {table.region.code} in force on {table.at}"
    work = f"{table.profile.name} work"
    ranked = sorted(table.results, key=lambda row: -(row.per_dollar or 0))
    if not ranked:
        sentence = f"No instance type can be ranked on {work} at {where}."
    else:
        winner, other = ranked[0], _next_family(ranked)
        standing = table.standing
        if standing is not None and standing.tied:
            apart = _inside_noise(standing, "the profile's")
            sentence = (
                f"For {work}, {_name(winner)} and {_name(other)} are tied for the most per "
                f"dollar ({_hours(winner.per_dollar)} and {_hours(other.per_dollar)} of the "
                f"median type's work: {apart})"
            )
        else:
            sentence = (
                f"For {work}, {_winner_subject(ranked, standing)} buys the most per dollar "
                f"({_hours(winner.per_dollar)} of the median type's work)"
            )
            if other is not None and other.per_dollar:
                sentence += (
                    f", {_more(winner.per_dollar / other.per_dollar)} the best of the next "
                    f"family ({_name(other)})"
                )
        basis = BASIS_WORDS[table.basis] if any(row.burstable for row in ranked) else ""
        sentence += f", at {where}" + (f" ({basis})" if basis else "") + "."
    left = []
    if table.lacking:
        left.append(f"{len(table.lacking)} lacking one of its benchmarks")
    if table.unpriced:
        article = "an" if option[:1] in "aeiou" else "a"
        left.append(f"{len(table.unpriced)} without {article} {option} price")
    if left:
        sentence += f" Left out: {' and '.join(left)}."
    return sentence


def _hours(value: float | None) -> str:
    return "no" if value is None else f"{float(f'{value:.3g}'):g} hours"
