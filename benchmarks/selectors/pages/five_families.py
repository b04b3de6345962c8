"""The landing page's five side by side: Fargate, t2, c7g, c7a and c7i on what they share (in
another cloud's region, that cloud's default families, as the page's question opens on them),
the price of a vCPU-hour and of a GiB-hour (on-demand and spot; a vCPU-hour under every way of
paying, OPTIONS; a burstable family's also at what it sustains), and, for the page's
benchmark, which of them have results and how to measure the others with the agent.

Two queries (`unit_prices.answers_by_option`: EC2's prices of every way of paying together,
then Fargate's rates on demand, under a Savings Plan and as Fargate Spot together); the region,
the day and the families with results are the page's.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass, field

from benchmarks.models import Architecture, PurchaseOption, Region, fargate_name
from benchmarks.questions.price_performance import DEFAULT_FAMILIES, VENDOR_DEFAULT_FAMILIES
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.compare_types.compare_sentence import and_list
from benchmarks.selectors.costs.unit_prices import (
    FARGATE,
    FamilySummary,
    Missing,
    UnitPrices,
    answers_by_option,
)
from benchmarks.selectors.pages.comparison import Comparison

# Every way of paying the section compares, commitments at their defaults (1 year, no
# upfront; standard Reserved, Compute Savings Plan): one EC2 query for all of them.
OPTIONS = (
    Purchase(option=PurchaseOption.ON_DEMAND),
    Purchase(option=PurchaseOption.SPOT),
    Purchase(option=PurchaseOption.RESERVED),
    Purchase(option=PurchaseOption.SAVINGS_PLAN),
    Purchase(option=PurchaseOption.FARGATE_SPOT),
)
# The Fargate size suggested for measuring: study S1's 1 vCPU and 2 GB.
SUGGESTED_FARGATE_SIZE = (1, 2)


@dataclass(frozen=True)
class HowToMeasure:
    """How to give a family results for a benchmark: the agent on one of its types."""

    instance_type: str
    # The agent's options for the benchmark (`--algorithms aes-256-cbc`); None when the agent
    # does not measure it: its output is uploaded instead.
    agent_options: str | None
    # A Fargate task definition's `cpu` (1024 per vCPU) and `memory` (MiB); None for EC2.
    task_cpu: int | None = None
    task_memory: int | None = None


@dataclass(frozen=True)
class FamilyLine:
    """A family on one architecture: on-demand and spot summaries (None: no price)."""

    family: str
    architecture: str | None
    on_demand: FamilySummary | None
    spot: FamilySummary | None


@dataclass(frozen=True)
class FamilyCoverage:
    """Whether a family has results for the page's benchmark, and how to measure it if not."""

    family: str
    has_results: bool
    how_to_measure: HowToMeasure | None


@dataclass
class SideBySide:
    """The landing page's section: the five families' unit prices, on-demand and spot, and
    which of them have results for the page's benchmark."""

    region: Region
    at: datetime.date
    benchmark: str | None
    on_demand: UnitPrices
    spot: UnitPrices
    lines: list[FamilyLine] = field(default_factory=list)
    coverage: list[FamilyCoverage] = field(default_factory=list)
    # Every way of paying (OPTIONS), by purchase option: on demand and spot as above.
    by_option: dict[str, UnitPrices] = field(default_factory=dict)

    @property
    def families(self) -> tuple[str, ...]:
        return self.on_demand.families

    @property
    def named(self) -> str:
        """The families as the page names them: `Fargate, t2, c7g, c7a and c7i`."""
        return and_list(["Fargate" if name == FARGATE else name for name in self.families])

    @property
    def missing(self) -> list[Missing]:
        """What either answer lacks, family by family (types without a size left out)."""
        return [
            missing
            for missing in [*self.on_demand.missing, *self.spot.missing]
            if missing.instance_type is None
        ]

    @property
    def priced_later(self) -> list[tuple[str, str | None, int]]:
        """(family, architecture, how many of its types or task sizes) with no price in force
        on `at`, priced at a later one: on a 2017 question, c7g's types, which did not exist
        then (Fargate sizes not sold yet are not priced at all: reference.fargate_first_sold)."""
        later = Counter(
            (row.family, row.architecture)
            for row in {
                (row.family, row.architecture, row.instance_type): row
                for answer in (self.on_demand, self.spot)
                for row in answer.results
                if row.price_effective_from > self.at
            }.values()
        )
        return [
            (family, architecture, count)
            for (family, architecture), count in sorted(later.items(), key=str)
        ]

    @property
    def burstable(self) -> bool:
        """Whether a line has a vCPU-hour at what burstable types sustain (t2's)."""
        return any(
            summary.usd_per_sustained_vcpu_hour is not None
            for line in self.lines
            for summary in (line.on_demand, line.spot)
            if summary is not None
        )

    @property
    def measured(self) -> list[str]:
        return [line.family for line in self.coverage if line.has_results]

    @property
    def unmeasured(self) -> list[FamilyCoverage]:
        return [line for line in self.coverage if not line.has_results]


def side_by_side(
    *,
    region: Region,
    at: datetime.date,
    benchmark_key: str | None,
    families_with_results: list[str] | tuple[str, ...],
    families: tuple[str, ...] = DEFAULT_FAMILIES,
) -> SideBySide:
    """The five families on what they share, for a region and day: two queries (EC2's
    prices of every option together, Fargate's rates of every option it is sold by together);
    the region is the caller's."""
    answers = answers_by_option(region, families, OPTIONS, at)
    on_demand, spot = answers[PurchaseOption.ON_DEMAND], answers[PurchaseOption.SPOT]
    result = SideBySide(
        region=region,
        at=at,
        benchmark=benchmark_key,
        on_demand=on_demand,
        spot=spot,
        by_option=answers,
    )
    for family in families:
        architectures = [
            summary.architecture
            for summary in [*on_demand.summary, *spot.summary]
            if summary.family == family
        ]
        for architecture in dict.fromkeys(architectures or [None]):
            result.lines.append(
                FamilyLine(
                    family,
                    architecture,
                    on_demand.summary_of(family, architecture),
                    spot.summary_of(family, architecture),
                )
            )
        has_results = family in families_with_results
        result.coverage.append(
            FamilyCoverage(
                family,
                has_results,
                None if has_results else _how_to_measure(family, benchmark_key, on_demand),
            )
        )
    return result


def _how_to_measure(family: str, benchmark_key: str | None, prices: UnitPrices) -> HowToMeasure:
    options = agent_options(benchmark_key) if benchmark_key else None
    if family == FARGATE:
        vcpus, memory_gb = SUGGESTED_FARGATE_SIZE
        return HowToMeasure(
            fargate_name(vcpus, memory_gb, Architecture.X86_64),
            options,
            task_cpu=vcpus * 1024,
            task_memory=memory_gb * 1024,
        )
    # The family's cheapest type: the least a measurement costs.
    rows = [row for row in prices.results if row.family == family]
    cheapest = min(rows, key=lambda row: row.usd_per_hour, default=None)
    return HowToMeasure(cheapest.instance_type if cheapest else f"{family}.large", options)


def agent_options(benchmark_key: str) -> str | None:
    """The benchmark agent's options that measure `benchmark_key`, or None when it does not.

    The agent runs `openssl speed` for the algorithms it is given and, when asked, iperf3,
    sysbench cpu and fio (agent/pricebench_agent.py); its results carry the same keys.
    """
    tool, _, test = benchmark_key.partition(":")
    if tool == "openssl" and test:
        return f"--algorithms {test.split(':', 1)[0]}"
    if tool == "iperf3":
        return "--no-openssl --iperf3 IPERF3_SERVER"
    if tool == "sysbench" and test.startswith("cpu"):
        return "--no-openssl --sysbench"
    if tool == "fio":
        return "--no-openssl --fio /mnt/scratch"
    return None


def for_comparison(comparison: Comparison) -> SideBySide | None:
    """The section for the comparison page's answer: its region, day and benchmark, and the
    region's vendor's default families (AWS's five; Hetzner's cx, cpx, cax and ccx in fsn1);
    None when the page has no answer (a refused question, no data)."""
    table = comparison.table
    if table is None:
        return None
    return side_by_side(
        region=table.region,
        at=table.at,
        benchmark_key=table.benchmark.key,
        families_with_results=comparison.families,
        families=VENDOR_DEFAULT_FAMILIES[table.region.vendor],
    )
