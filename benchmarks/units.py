"""How figures read on the pages: units people read, SI prefixes, one formatter.

Every benchmark stores its figures in one unit (docs/benchmarks.md). `reading()` says how
those figures, and what a dollar buys of them, read: bytes per dollar for `B/s`, Gbit/s per
dollar-hour for `bit/s`, requests per dollar for `req/s`, the latency itself (lower is better)
for a latency. `Scale.format` writes a number in such a unit; the pages' scripts format
their axes with the same rules, which `Scale.as_json` and `script_rules` hand them
(static/dashboard/units.js implements the same steps; tests/pages check both agree).

Within this module, "per dollar" figures are the API's `per_dollar` (the median × 3600 ÷ USD
per hour for higher-is-better benchmarks, jobs per dollar for durations); a scale's
`factor` turns one into the unit shown.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from benchmarks.per_dollar import cost_of_work

SIGNIFICANT_DIGITS = 3
# (size, prefix), largest first. Below 1, only scales of durations take a prefix.
LARGE_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
SMALL_PREFIXES = ((1e-3, "m"), (1e-6, "µ"), (1e-9, "n"))
SECONDS_PER_HOUR = 3600


@dataclass(frozen=True)
class Scale:
    """How one quantity reads: the figure × `factor`, an SI prefix, the unit, a suffix."""

    unit: str = ""
    factor: float = 1.0
    # The prefix joins a unit symbol ("GB/s"); before a word it stands apart ("1.2 M requests").
    symbol: bool = True
    prefixed: bool = True
    # m, µ and n below 1: durations.
    small: bool = False
    suffix: str = ""

    def format(self, value: float | None) -> str:
        """`value` (a stored figure) as it reads: 5.97e14 -> '597 TB per dollar'."""
        if value is None or not math.isfinite(float(value)):
            return "—"
        number, prefix = significant(float(value) * self.factor, self.prefixed, self.small)
        if self.symbol:
            unit = f"{prefix}{self.unit}"
        else:
            unit = " ".join(part for part in (prefix, self.unit) if part)
        return f"{number} {unit}".rstrip() + self.suffix

    def as_json(self) -> dict:
        """The scale for the pages' scripts (static/dashboard/units.js): its fields."""
        return asdict(self)


def _fixed(number: float, decimals: int) -> str:
    """`number` (not negative) with `decimals` decimals, ties away from zero.

    JavaScript's toFixed rounds the exact binary value the same way; Python's own format
    would round ties to even.
    """
    quantum = Decimal(1).scaleb(-decimals)
    return format(Decimal(number).quantize(quantum, rounding=ROUND_HALF_UP), "f")


def _exponent(number: float) -> int:
    """The power of ten of the first significant digit of `number` (> 0)."""
    exponent = math.floor(math.log10(number))
    while 10.0**exponent > number:
        exponent -= 1
    while 10.0 ** (exponent + 1) <= number:
        exponent += 1
    return exponent


def significant(value: float, prefixed: bool = True, small: bool = False) -> tuple[str, str]:
    """(number, prefix): `value` in SIGNIFICANT_DIGITS digits with its SI prefix.

    3150184080 -> ('3.15', 'G'); 0.00042 with `small` -> ('420', 'µ'); 97.0 -> ('97', '').
    """
    if value == 0:
        return "0", ""
    sign = "-" if value < 0 else ""
    size = abs(value)
    ladder = [(1.0, "")]
    if prefixed:
        ladder = [*LARGE_PREFIXES, (1.0, ""), *(SMALL_PREFIXES if small else ())]
    index = next((place for place, (step, _) in enumerate(ladder) if size >= step), len(ladder) - 1)
    while True:
        step, prefix = ladder[index]
        scaled = size / step
        decimals = max(0, SIGNIFICANT_DIGITS - 1 - _exponent(scaled))
        text = _fixed(scaled, decimals)
        # Rounding may reach 1000 of this prefix (999.7 k): that is 1 of the next one (the
        # ladder steps by 1000).
        if float(text) >= 1000 and index > 0:
            index -= 1
            continue
        break
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return sign + text, prefix


def percent(ratio: float | None) -> str:
    """A ratio to a baseline as a whole percentage: 0.704 -> '70%'."""
    if ratio is None or not math.isfinite(ratio):
        return "—"
    sign = "-" if ratio < 0 else ""
    return f"{sign}{_fixed(abs(ratio) * 100, 0)}%"


def plain(value: float | None) -> str:
    """A number with an SI prefix and no unit: 3150184080.0 -> '3.15 G'."""
    return Scale().format(value) if value is not None else ""


def script_rules() -> dict:
    """What the pages' scripts need to format like `significant`."""
    return {
        "digits": SIGNIFICANT_DIGITS,
        "large": [[size, prefix] for size, prefix in LARGE_PREFIXES],
        "small": [[size, prefix] for size, prefix in SMALL_PREFIXES],
    }


# ---- what each stored unit reads as ---------------------------------------------------------

# Rates of countable things: what one of them is called, in the plural.
_COUNTED = {
    "req/s": "requests",
    "op/s": "operations",
    "token/s": "tokens",
    "bogo-op/s": "bogo operations",
    "tx/s": "transactions",
    "query/s": "queries",
    "event/s": "events",
    "prime/s": "primes",
    "string/s": "strings",
    "frame/s": "frames",
    "matrix/s": "matrices",
    # ffmpeg's audio encoders: seconds of audio encoded per second of wall time.
    "s/s": "seconds of audio",
}
# The same units written in the plural (vLLM's `tokens/s`, `requests/s`) or spelled out.
_PLURAL_UNITS = {
    "tokens/s": "token/s",
    "requests/s": "req/s",
    "request/s": "req/s",
    "ops/s": "op/s",
    "operations/s": "op/s",
    "events/s": "event/s",
    "queries/s": "query/s",
    "frames/s": "frame/s",
    "transactions/s": "tx/s",
    "primes/s": "prime/s",
    "strings/s": "string/s",
    "matrices/s": "matrix/s",
}
# Things people buy by the million: their cost is shown per 1 M as well.
_PRICED_BY_THE_MILLION = {"req/s", "token/s", "op/s", "tx/s", "query/s"}
# Figures of lower-is-better benchmarks that are not the duration of a job: a dollar buys
# none of them, so they are charted as they are.
_NOT_A_JOB = re.compile(r"latency|jitter|clat|loss|ratio|_p\d+", re.IGNORECASE)
# Figures without a unit of their own: shown as bare numbers.
_DIMENSIONLESS = {"score", "relative throughput", "points", "index", ""}
_TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_PER_DOLLAR = " per dollar"
# "dollar" in a reading's words, as `Reading.in_us_dollars` names it.
_US_DOLLAR = re.compile(r"(?<!US )\bdollar\b")
_PER_DOLLAR_HOUR = " per dollar-hour"


# What the pages' scripts read of a Reading (`explanation` and `cost_per` stay here).
READING_FOR_SCRIPTS = (
    "unit",
    "higher_is_better",
    "direction",
    "value_name",
    "value",
    "per_dollar_name",
    "per_dollar",
)


@dataclass(frozen=True)
class Reading:
    """How one benchmark's figures read on the pages."""

    unit: str
    higher_is_better: bool
    # What the median is called, and its scale.
    value_name: str
    value: Scale
    # What a dollar buys, and its scale; None when a dollar buys none of it (a latency).
    per_dollar_name: str | None
    per_dollar: Scale | None
    # One sentence: how the per-dollar figure is computed and what it means.
    explanation: str
    # (amount, what) for a cost per amount of work: (1e6, "1 M requests") -> "USD per 1 M
    # requests" = amount / per_dollar. None where it does not help.
    cost_per: tuple[float, str] | None = None

    @property
    def direction(self) -> str:
        return "higher is better" if self.higher_is_better else "lower is better"

    def cost(self, per_dollar: float | None) -> float | None:
        """USD for `cost_per`'s amount of work, from a per-dollar figure."""
        if self.cost_per is None or not per_dollar:
            return None
        return cost_of_work(self.cost_per[0], per_dollar)

    def in_us_dollars(self) -> Reading:
        """The reading with its per-dollar figures named per US dollar, for an answer whose
        prices are shown in another currency too (the figures stay per US dollar)."""
        if self.per_dollar_name is None:
            return self
        scale = self.per_dollar
        return replace(
            self,
            per_dollar_name=_US_DOLLAR.sub("US dollar", self.per_dollar_name),
            per_dollar=replace(scale, suffix=_US_DOLLAR.sub("US dollar", scale.suffix)),
            explanation=_US_DOLLAR.sub("US dollar", self.explanation),
        )

    def as_json(self) -> dict:
        """The reading for the pages' scripts: the fields they read, scales as dicts."""
        fields = {**asdict(self), "direction": self.direction}
        return {name: fields[name] for name in READING_FOR_SCRIPTS}


def reading(key: str, unit: str, higher_is_better: bool) -> Reading:
    """How a benchmark (its key, unit and direction) reads."""
    if not higher_is_better:
        return _lower_is_better(key, unit)
    if unit == "B/s":
        return Reading(
            unit,
            True,
            "Throughput",
            Scale("B/s"),
            "Data processed per dollar",
            Scale("B", suffix=_PER_DOLLAR),
            "Per dollar: the bytes an hour of the instance processes for each dollar it costs "
            "(median B/s × 3600 ÷ USD per hour).",
        )
    if unit == "bit/s":
        return Reading(
            unit,
            True,
            "Throughput",
            Scale("bit/s"),
            "Throughput per dollar-hour",
            Scale("bit/s", factor=1 / SECONDS_PER_HOUR, suffix=_PER_DOLLAR_HOUR),
            "Per dollar-hour: the bit rate each dollar of hourly price buys "
            "(median bit/s ÷ USD per hour).",
        )
    counted = _counted(unit)
    if counted:
        by_the_million = _PLURAL_UNITS.get(unit, unit) in _PRICED_BY_THE_MILLION
        return Reading(
            unit,
            True,
            f"{counted.capitalize()} per second",
            Scale(unit, symbol=False),
            f"{counted.capitalize()} per dollar",
            Scale(counted, symbol=False, suffix=_PER_DOLLAR),
            f"Per dollar: the {counted} an hour of the instance gets through for each dollar "
            f"it costs (median {unit} × 3600 ÷ USD per hour).",
            (1e6, f"1 M {counted}") if by_the_million else None,
        )
    # A figure that is not a rate (a score, a size, a relative throughput): what each dollar
    # of hourly price buys of it.
    symbol = unit in ("B", "bit")
    shown = unit if symbol or unit not in _DIMENSIONLESS else ""
    name = unit or "figure"
    return Reading(
        unit,
        True,
        name[:1].upper() + name[1:],
        Scale(shown, symbol=symbol),
        f"{name[:1].upper() + name[1:]} per dollar-hour",
        Scale(shown, factor=1 / SECONDS_PER_HOUR, symbol=symbol, suffix=_PER_DOLLAR_HOUR),
        f"Per dollar-hour: the {name} each dollar of hourly price buys (median ÷ USD per hour).",
    )


def _counted(unit: str) -> str | None:
    """What one of a rate's things is called, in the plural: `token/s` and `tokens/s` ->
    'tokens', `widget/s` -> 'widgets'; None when `unit` is not a rate of countable things."""
    unit = _PLURAL_UNITS.get(unit, unit)
    if unit in _COUNTED:
        return _COUNTED[unit]
    if not unit.endswith("/s") or unit in ("B/s", "bit/s"):
        return None
    thing = unit[:-2]
    if not thing:
        return None
    # A name written in the plural already stays as it is ("widgets/s" -> "widgets").
    return thing if thing.endswith("s") else f"{thing}s"


def _lower_is_better(key: str, unit: str) -> Reading:
    seconds = _TIME_UNITS.get(unit)
    if seconds is not None:
        value = Scale("s", factor=seconds, small=True)
    elif unit in ("%", "percent"):
        value = Scale("%", prefixed=False)
    else:
        value = Scale(unit, symbol=False)
    if seconds is None or _NOT_A_JOB.search(key):
        name = "Latency" if re.search(r"latency|clat|_p\d+", key) else "Figure"
        if re.search(r"jitter", key):
            name = "Jitter"
        elif re.search(r"loss", key):
            name = "Loss"
        elif re.search(r"ratio", key):
            name = "Compressed size"
        return Reading(
            unit,
            False,
            name,
            value,
            None,
            None,
            f"{name} is charted as measured (lower is better): a dollar does not buy a "
            "latency. The price chart sets it against the hourly price.",
        )
    return Reading(
        unit,
        False,
        "Duration",
        value,
        "Jobs per dollar",
        # The API divides by the median in the stored unit: a job timed in ms counts 1000.
        Scale("jobs", factor=1 / seconds, symbol=False, suffix=_PER_DOLLAR),
        "Per dollar: how many times the job runs for a dollar, one after another "
        "(3600 ÷ (median seconds × USD per hour)).",
        (1, "job"),
    )
