"""The price-performance answer: its one row declaration (ROW), the schema's serializers made
from it, and `price_performance_answer`, which writes an answer by it as plain dicts."""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rest_framework import serializers

from api.answer_fields import purchase_fields
from api.subjects.noise_serializers import BestFamilySerializer, NoiseSerializer, standing_fields
from benchmarks.questions.price_performance import BASES, ORDERS, PRICE_DATES
from benchmarks.selectors.answer import answer_sentence
from benchmarks.selectors.answer.price_performance_rows import (
    PricePerformanceRow,
    PricePerformanceTable,
)


@dataclass(frozen=True)
class Column:
    """One field of a price-performance row: its schema and how the answer writes it."""

    name: str
    field: serializers.Field
    # Written through _number (a whole float as an integer).
    number: bool = False
    # The value as a Python expression of `row` (default: the row's attribute of the name).
    read: str | None = None

    @property
    def expression(self) -> str:
        value = self.read or f"row.{self.name}"
        if not self.number:
            return value
        # `_number` written out: a call for each of a row's eight figures took a tenth of the
        # time a thousand rows' writing takes.
        return (
            f"(int(_n) if isinstance(_n := ({value}), float) and _n.is_integer() "
            "and -_WHOLE_BELOW < _n < _WHOLE_BELOW else _n)"
        )


@dataclass(frozen=True)
class ColumnGroup:
    """Fields written together: for every row, or only where they apply."""

    columns: tuple[Column, ...]
    # Whether the question asks for them (None: always) ...
    asked: Callable[[PricePerformanceTable], bool] | None = None
    # ... and whether a row has them, as a Python expression of `row` (None: every row).
    present: str | None = None


def _float(help_text: str = "", **options) -> serializers.FloatField:
    return serializers.FloatField(help_text=help_text, **options)


# The one declaration of a price-performance row: the schema's serializer is made from it
# and `price_performance_answer` writes rows by it, in this order.
ROW = (
    ColumnGroup(
        (
            Column("instance_type", serializers.CharField()),
            Column("variant", serializers.CharField(allow_null=True)),
            Column(
                "family",
                serializers.CharField(help_text="c7g for c7g.xlarge; fargate for Fargate tasks"),
            ),
            Column("vcpus", _float(allow_null=True), number=True),
            Column("runs", serializers.IntegerField()),
            Column(
                "results",
                serializers.IntegerField(help_text="Single values behind the statistics"),
            ),
            Column("median", _float(), number=True),
            Column("min", _float(), number=True),
            Column("max", _float(), number=True),
            Column("cpu_models", serializers.DictField(child=serializers.IntegerField())),
            Column(
                "measured_in",
                serializers.ListField(
                    child=serializers.CharField(allow_null=True),
                    help_text="Regions the results were measured in; null: not recorded",
                ),
            ),
            Column("usd_per_hour", _float(), number=True),
            Column("price_note", serializers.CharField(allow_null=True)),
            Column(
                "per_dollar",
                _float("What a dollar buys on the basis asked (`basis`)", allow_null=True),
                number=True,
            ),
            Column(
                "price_effective_from",
                serializers.DateField(
                    allow_null=True, help_text="The day the price used came into force"
                ),
                read="row.price_effective_from and row.price_effective_from.isoformat()",
            ),
            Column("burstable", serializers.BooleanField()),
            Column(
                "cpu_allocation",
                serializers.CharField(
                    help_text="dedicated, shared (no published baseline) or burstable; "
                    "empty where unknown"
                ),
            ),
            Column(
                "flagged_runs",
                serializers.IntegerField(
                    help_text="Runs left out of the figures: capped, reported errors, failed "
                    "responses"
                ),
            ),
            # Where the row stands once the noise counts (api/subjects/noise_serializers.py).
            *(Column(name, field) for name, field in standing_fields()),
            Column(
                "estimated",
                serializers.BooleanField(
                    help_text="True for a Fargate size no task measured, its figure estimated "
                    "from EC2 types with the processor the task runs on (`estimate`)"
                ),
            ),
        )
    ),
    ColumnGroup(
        (
            Column(
                "estimate",
                serializers.DictField(
                    required=False,
                    help_text="Estimated rows: processor, from (the EC2 types), observed (the "
                    "day the processor was last seen on Fargate; null for Graviton2, which "
                    "AWS documents), observations, validated (true only where study S1 "
                    "validated the method for this benchmark, processor and process count), "
                    "validated_error (the method's median relative error there; null unless "
                    "validated), sources_range ({low, high}: the source types' figures at the "
                    "task's share, which `interval` covers), sustains (the share of one "
                    "vCPU's figure a fractional task's quota sustains), scaled",
                ),
            ),
        ),
        present="row.estimate is not None",
    ),
    ColumnGroup(
        (
            Column(
                "verified_runs",
                serializers.IntegerField(
                    required=False,
                    help_text="Runs of the figures whose cloud identity proof named their type "
                    "(verified); on every row when any run of the answer is verified",
                ),
            ),
        ),
        # Most answers have none: 18 bytes a row less (a thousand-row answer's 480 kB).
        asked=lambda table: any(row.verified_runs for row in table.results),
    ),
    ColumnGroup(
        (
            Column(
                "only_flagged",
                serializers.BooleanField(
                    required=False,
                    help_text="Present (true) when every run was flagged: figures from them",
                ),
            ),
        ),
        present="row.only_flagged",
    ),
    ColumnGroup(
        (
            Column("first_quartile", _float("With include=quartiles", required=False), number=True),
            Column("third_quartile", _float("With include=quartiles", required=False), number=True),
        ),
        asked=lambda table: table.include_quartiles,
    ),
    ColumnGroup(
        (
            Column(
                "advertised_bandwidth",
                serializers.CharField(
                    required=False,
                    allow_null=True,
                    help_text="Bandwidths (bit/s): AWS's words, e.g. 100 Gigabit",
                ),
            ),
            Column(
                "gbit_per_second_per_usd_hour",
                _float(
                    "Bandwidths (bit/s): Gbit/s per dollar-hour", required=False, allow_null=True
                ),
                number=True,
            ),
        ),
        present="row.gbit_per_second_per_usd_hour is not None or row.advertised_bandwidth",
    ),
    ColumnGroup(
        (
            Column(
                "baseline_share",
                _float("Burstable types: the share of each vCPU sustained", required=False),
                number=True,
            ),
            Column(
                "burst_per_dollar",
                _float("Burstable types: per dollar at the burst figure", required=False),
                number=True,
            ),
            Column(
                "sustained_per_dollar",
                _float(
                    "Burstable types: per dollar once the CPU credits are spent",
                    required=False,
                    allow_null=True,
                ),
                number=True,
            ),
            Column(
                "burst_minutes",
                _float(
                    "Burstable types: minutes a full credit balance lasts at full load; null: "
                    "the load never spends more than it earns",
                    required=False,
                    allow_null=True,
                ),
                read="row.burst_minutes and round(row.burst_minutes, 1)",
                number=True,
            ),
        ),
        present="row.baseline_share is not None",
    ),
    ColumnGroup(
        (
            Column(
                "unlimited_usd_per_hour",
                _float(
                    "basis=unlimited, burstable types: the hourly price running flat out, "
                    "surplus credits included",
                    required=False,
                ),
                number=True,
            ),
        ),
        present="row.unlimited_usd_per_hour is not None",
    ),
    ColumnGroup(
        (
            Column("relative_throughput", _float(required=False, allow_null=True), number=True),
            Column("relative_cost", _float(required=False, allow_null=True), number=True),
            Column("relative_per_dollar", _float(required=False, allow_null=True), number=True),
        ),
        asked=lambda table: bool(table.baseline),
    ),
    ColumnGroup(
        (
            Column(
                "values",
                serializers.ListField(child=serializers.FloatField(), required=False),
                read="[_number(value) for value, _cpu in row.samples]",
            ),
            Column("values_cut", serializers.BooleanField(required=False)),
        ),
        asked=lambda table: table.include_values,
    ),
    ColumnGroup(
        (
            Column(
                "upfront_usd",
                _float(
                    "With a commitment: its upfront fee, once per term",
                    allow_null=True,
                    required=False,
                ),
                number=True,
            ),
            Column(
                "hourly_usd",
                _float(
                    "With a commitment: its hourly fee; usd_per_hour spreads the upfront fee "
                    "over the term's hours and adds this",
                    allow_null=True,
                    required=False,
                ),
                number=True,
            ),
        ),
        asked=lambda table: table.purchase.is_commitment,
    ),
    ColumnGroup(
        (
            Column(
                "region",
                serializers.CharField(
                    required=False,
                    help_text="With `regions`: the row's region, vendor:region",
                ),
            ),
        ),
        asked=lambda table: bool(table.regions),
    ),
    # Whose type, and its price in the currency asked: on every row, last (the CSV's columns
    # before them are as they were).
    ColumnGroup(
        (
            Column(
                "vendor",
                serializers.CharField(help_text="Whose type it is: aws, azure, gcp or hcloud"),
            ),
            Column(
                "currency",
                serializers.CharField(help_text="The currency asked (`currency`, default USD)"),
            ),
            Column(
                "price_per_hour",
                _float("usd_per_hour in `currency`, at `exchange_rate`"),
                number=True,
            ),
            Column(
                "exchange_rate",
                _float(
                    "Units of `currency` per US dollar: the European Central Bank's reference "
                    "rates of `exchange_rate_date` (1 for USD)"
                ),
                number=True,
            ),
            Column(
                "exchange_rate_date",
                serializers.DateField(
                    allow_null=True,
                    help_text="The ECB's day of the rate: the day asked, else the last working "
                    "day before it with rates; null for USD",
                ),
                read="row.exchange_rate_date and row.exchange_rate_date.isoformat()",
            ),
        )
    ),
)

PricePerformanceRowSerializer = type(
    "PricePerformanceRowSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "One row; burstable, baseline and value fields only where they apply.\n\n"
        "A declaration for the schema, made from ROW: `price_performance_answer` writes the rows.",
        **{column.name: column.field for group in ROW for column in group.columns},
    },
)


class UnpricedSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    runs = serializers.IntegerField()
    median = serializers.FloatField()
    region = serializers.CharField(required=False, help_text="With `regions`: vendor:region")


class PricePerformanceSerializer(serializers.Serializer):
    """The schema's description of `price-performance/` (`price_performance_answer` writes it)."""

    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.CharField(source="benchmark.unit")
    higher_is_better = serializers.BooleanField(source="benchmark.higher_is_better")
    region = serializers.CharField(source="region.code", help_text="Where the prices come from")
    purchase_option = serializers.CharField()
    term, payment, offering_class, plan, spot_zone = purchase_fields()
    at = serializers.DateField()
    params = serializers.DictField()
    baseline = serializers.CharField(allow_null=True)
    measured_in = serializers.CharField(allow_null=True)
    basis = serializers.ChoiceField(choices=BASES, help_text="What burstable types are ranked by")
    price_dates = serializers.ChoiceField(choices=PRICE_DATES)
    regions = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="With `regions`: the regions ranked together, vendor:region",
    )
    currency = serializers.CharField(help_text="What each row's price_per_hour is in")
    order = serializers.ChoiceField(
        choices=ORDERS, help_text="per_dollar: most per dollar first; price: cheapest first"
    )
    summary = serializers.CharField(help_text="One sentence answering the question")
    noise = NoiseSerializer(
        allow_null=True,
        help_text="How much one run of this benchmark varies, measured from the data "
        "(docs/noise.md); null where too little was measured",
    )
    best_family = BestFamilySerializer(allow_null=True)
    tied = serializers.BooleanField(
        help_text="Whether the winner's lead over the best type of any other family is inside "
        "the noise"
    )
    results = PricePerformanceRowSerializer(many=True)
    unpriced = UnpricedSerializer(many=True)


def price_performance_answer(table: PricePerformanceTable) -> dict:
    """The answer PricePerformanceSerializer declares, written as plain dicts by ROW.

    Not through DRF's field-by-field path, which is slow for a thousand rows, and not through
    a serializer instance, which keeps its rows in a reference cycle (its fields point back at
    it) until the garbage collector runs: plain dicts go as soon as the answer is sent.
    """
    benchmark = table.benchmark
    return {
        "benchmark": benchmark.key,
        "unit": benchmark.unit,
        "higher_is_better": benchmark.higher_is_better,
        "region": table.region_code,
        **({"regions": table.regions} if table.regions else {}),
        "purchase_option": table.purchase_option,
        **table.purchase.answer_fields(),
        "at": table.at.isoformat(),
        "params": table.params,
        "baseline": table.baseline,
        "measured_in": table.measured_in,
        "basis": table.basis,
        "price_dates": table.price_dates,
        "currency": table.exchange_rate.currency,
        "order": table.order,
        "summary": answer_sentence.summary(table),
        **_standing(table),
        "results": list(map(_row_writer(table), table.results)),
        "unpriced": [
            {
                "instance_type": unpriced.instance_type,
                "variant": unpriced.variant,
                "reason": unpriced.reason,
                "runs": unpriced.runs,
                "median": _number(unpriced.median),
                **({"region": unpriced.region} if unpriced.region else {}),
            }
            for unpriced in table.unpriced
        ],
    }


def _standing(table: PricePerformanceTable) -> dict:
    """The answer's noise, best family and tie (selectors/answer/standing.py)."""
    standing = table.standing
    if standing is None:
        return {"noise": None, "best_family": None, "tied": False}
    return {
        "noise": standing.noise.in_answer() if standing.noise else None,
        "best_family": standing.best_family.as_dict() if standing.best_family else None,
        "tied": standing.tied,
    }


def _number(value: float | int | None) -> float | int | None:
    """A whole float as an integer: 12076, not 12076.0. Every figure of a price-performance
    answer goes through here.

    JSON has one kind of number and JavaScript reads both alike, and the answer is shorter
    without a thousand rows' ".0". From 1e16 on, floats are written with an exponent
    (1.2345e+16), shorter than the integer's digits.
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < _WHOLE_BELOW:
        return int(value)
    return value


# Whole floats below this are written as integers (`_number`).
_WHOLE_BELOW = 1e16


def _row_writer(table: PricePerformanceTable) -> Callable[[PricePerformanceRow], dict]:
    """The function that writes one row as ROW declares it, for this question."""
    return _writer(tuple(group.asked is None or bool(group.asked(table)) for group in ROW))


@functools.cache
def _writer(asked: tuple[bool, ...]) -> Callable[[PricePerformanceRow], dict]:
    """A row writer for the groups asked, made from ROW's expressions as `dataclasses` makes
    an `__init__`: as fast as a dict literal written by hand, from the one declaration."""
    first, *rest = [group for group, wanted in zip(ROW, asked, strict=True) if wanted]
    literal = ", ".join(f"{column.name!r}: {column.expression}" for column in first.columns)
    lines = ["def write(row):", f"    data = {{{literal}}}"]
    for group in rest:
        indent = "    "
        if group.present is not None:
            lines.append(f"    if {group.present}:")
            indent += "    "
        lines += [f"{indent}data[{c.name!r}] = {c.expression}" for c in group.columns]
    lines.append("    return data")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), {"_number": _number, "_WHOLE_BELOW": _WHOLE_BELOW}, namespace)
    return namespace["write"]
