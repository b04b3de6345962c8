"""The benchmark page: what a benchmark measures, its unit, and which machines it covers.

Two queries whatever the number of results: the benchmark, and its coverage kept at ingest
(`BenchmarkCoverage`: each instance type measured with it, its runs counted once each, their
days and regions).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.urls import reverse

from benchmarks import palette, units
from benchmarks.models import Benchmark, BenchmarkCoverage, family_of
from benchmarks.selectors.answer.lookups import get_benchmark

# What each tool measures, for benchmarks stored without a description of their own.
TOOL_DESCRIPTIONS = {
    "openssl": (
        "openssl speed: how fast the CPU encrypts, hashes or signs in memory, with OpenSSL's "
        "own code (no disk, no network); block_size is the size of each chunk in bytes, "
        "processes the number of copies run at once."
    ),
    "iperf3": "iperf3: network throughput between two machines over TCP.",
    "sysbench": "sysbench: a database (or CPU, memory) workload, counted in operations.",
    "fio": "fio: storage input/output operations against a volume or file.",
    "wrk": "wrk: HTTP requests answered by a web server under load.",
    "keycloak": (
        "Keycloak: OAuth2 authorization-code logins against a Keycloak server under load "
        "(study S2), as throughput relative to a baseline."
    ),
}


@dataclass
class FamilyCoverage:
    """One family's instance types measured with the benchmark."""

    benchmark: str
    family: str
    colour: str
    instance_types: list[str] = field(default_factory=list)
    # None while some type's runs are not counted yet (as `BenchmarkPage.runs`).
    runs: int | None = 0

    @property
    def comparison_url(self) -> str:
        """The comparison of this family's types on the benchmark."""
        query = {"benchmark": self.benchmark, "families": self.family}
        return f"{reverse('comparison')}?{urlencode(query)}"


@dataclass
class BenchmarkPage:
    """Everything the benchmark page shows."""

    benchmark: Benchmark
    reading: units.Reading
    families: list[FamilyCoverage]
    regions: list[str]
    # None while some type's runs are not counted yet (coverage kept before they were:
    # `rebuild_stats` counts them).
    runs: int | None
    flagged_runs: int
    first_measured_at: datetime.date | None
    last_measured_at: datetime.date | None

    @property
    def instance_types(self) -> int:
        return sum(len(family.instance_types) for family in self.families)

    @property
    def description(self) -> str:
        """The benchmark's own description, else what its tool measures (or '')."""
        return self.benchmark.description or TOOL_DESCRIPTIONS.get(self.benchmark.tool, "")

    @property
    def group(self) -> str:
        return getattr(self.benchmark, "group", "") or self.benchmark.tool

    @property
    def comparison_url(self) -> str:
        query = {"benchmark": self.benchmark.key, "families": ""}
        return f"{reverse('comparison')}?{urlencode(query)}"


def benchmark_page(key: str) -> BenchmarkPage:
    """The page of one benchmark; DomainError (404) for an unknown key."""
    benchmark = get_benchmark(key)
    families: dict[str, FamilyCoverage] = {}
    runs: int | None = 0
    flagged = 0
    days: list[datetime.date] = []
    regions: set[str] = set()
    for name, kind, type_runs, type_flagged, first, last, type_regions in (
        BenchmarkCoverage.objects.filter(benchmark=benchmark)
        .order_by("instance_type__name")
        .values_list(
            "instance_type__name",
            "instance_type__kind",
            "runs",
            "flagged_runs",
            "first_measured_at",
            "last_measured_at",
            "regions",
        )
    ):
        family = family_of(kind, name)
        coverage = families.setdefault(
            family, FamilyCoverage(benchmark.key, family, palette.family_colour(family))
        )
        coverage.instance_types.append(name)
        coverage.runs = _plus(coverage.runs, type_runs)
        runs = _plus(runs, type_runs)
        flagged += type_flagged
        days += filter(None, (first, last))
        regions.update(code or "not recorded" for code in type_regions)
    return BenchmarkPage(
        benchmark=benchmark,
        reading=units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better),
        families=sorted(families.values(), key=lambda c: (-len(c.instance_types), c.family)),
        regions=sorted(regions),
        runs=runs,
        flagged_runs=flagged,
        first_measured_at=min(days, default=None),
        last_measured_at=max(days, default=None),
    )


def _plus(total: int | None, runs: int | None) -> int | None:
    """Runs added up; None once a type's are not counted yet."""
    return None if total is None or runs is None else total + runs
