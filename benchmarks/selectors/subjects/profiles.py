"""A workload profile's ranking: each type's score, the weighted geometric mean of its kept
medians of the profile's members, each divided by that member's median across the types
measured with it, then what a dollar buys of it in the region asked: hours of the median
type's work (a score of 2 at $0.10 an hour: 20 hours of the median type's work per dollar).

Scores are normalised over every type measured, whichever the question shows. From the kept
statistics only, in a fixed number of queries whatever the number of results:
the benchmarks (one), each member's kept series (one per member, at most three), the region
(one) and the prices (at most three). The per-dollar and burstable arithmetic is the
benchmarks' own (`basis.on_basis`); a score is a whole-machine figure, so a
burstable type sustains its baseline share of it.
"""

from __future__ import annotations

import datetime
import math
import statistics
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone

from benchmarks import profiles as definitions
from benchmarks.fargate_estimate import estimated_label
from benchmarks.models import Benchmark, Region, SeriesStatistics
from benchmarks.noise import Noise
from benchmarks.per_dollar import SECONDS_PER_HOUR
from benchmarks.questions.profiles import ProfileQuery
from benchmarks.selectors.answer import fargate_estimates, question_names
from benchmarks.selectors.answer.basis import on_basis
from benchmarks.selectors.answer.kept_series import Machine, read_kept_series
from benchmarks.selectors.answer.lookups import get_region, names_type
from benchmarks.selectors.answer.standing import Standing, profile_noise, stand
from benchmarks.selectors.costs import prices
from benchmarks.services.statistics.attach import params_key


@dataclass
class ProfileRow:
    instance_type: str
    variant: str | None
    family: str
    vcpus: float | None
    score: float
    # Each member's kept median divided by the member's median across types, by label.
    components: dict[str, float]
    usd_per_hour: float
    per_dollar: float | None
    price_effective_from: datetime.date | None
    cpu_allocation: str
    baseline_share: float | None = None
    burst_per_dollar: float | None = None
    sustained_per_dollar: float | None = None
    # Where the row stands within the profile's noise (selectors/answer/standing.py).
    rank: int | None = None
    rank_range: list[int] | None = None
    # An estimated Fargate size (selectors/answer/fargate_estimates.py); None: measured.
    estimate: dict[str, Any] | None = None

    @property
    def estimated(self) -> bool:
        return self.estimate is not None

    @property
    def burstable(self) -> bool:
        return self.baseline_share is not None

    @property
    def shown_label(self) -> str:
        """The label its chart shows: `c7a.xlarge (base)`, an estimated row's says so."""
        label = f"{self.instance_type} ({self.variant})" if self.variant else self.instance_type
        return estimated_label(label, self.estimated)

    @property
    def median(self) -> float:
        """The score, where a benchmark's row has its median (the finder's figure column)."""
        return self.score


@dataclass(frozen=True)
class Lacking:
    """A type measured with some of the profile's members only: left out, with what it lacks."""

    instance_type: str
    variant: str | None
    lacks: list[str]


@dataclass(frozen=True)
class UnpricedScore:
    instance_type: str
    variant: str | None
    reason: str
    score: float


@dataclass
class ProfileTable:
    profile: definitions.Profile
    region: Region
    purchase: Any
    at: datetime.date
    basis: str
    # Each member's median across the types measured with it, by label.
    medians: dict[str, float] = field(default_factory=dict)
    results: list[ProfileRow] = field(default_factory=list)
    lacking: list[Lacking] = field(default_factory=list)
    unpriced: list[UnpricedScore] = field(default_factory=list)
    # What the profile's noise (from its members') makes of the rows.
    standing: Standing | None = None


def profile_table(query: ProfileQuery) -> ProfileTable:
    """The profile's score and what a dollar buys of it on each type (module docstring)."""
    profile = definitions.get_profile(query.profile)
    region = get_region(query.region)
    if query.instance_types:
        query = replace(query, instance_types=question_names.known_types(query.instance_types))
    question_names.check_families(query.families)
    at = query.at or timezone.localdate()
    table = ProfileTable(
        profile=profile, region=region, purchase=query.purchase, at=at, basis=query.basis
    )
    benchmarks = {
        benchmark.key: benchmark
        for benchmark in Benchmark.objects.filter(
            key__in={member.benchmark for member in profile.members}
        )
    }
    # (type id, variant) -> {member label: kept median}; the machines by id.
    medians: dict[tuple[int, str], dict[str, float]] = {}
    machines: dict[int, Machine] = {}
    members_read = []
    for member in profile.members:
        benchmark = benchmarks.get(member.benchmark)
        if benchmark is None:
            continue
        rows = [
            row
            for row in read_kept_series(_member_statistics(benchmark, member), (), region=region)
            if not member.per_vcpu or member.measures(row.params, row.machine.vcpus)
        ]
        members_read.append((member.label, benchmark.higher_is_better, rows))
        for row in rows:
            machines[row.machine.pk] = row.machine
            value = row.median if benchmark.higher_is_better else 1 / row.median
            if value > 0:
                medians.setdefault((row.machine.pk, row.variant), {})[member.label] = value
    for member in profile.members:
        values = [found[member.label] for found in medians.values() if member.label in found]
        if values:
            table.medians[member.label] = statistics.median(values)
    scores: dict[tuple[int, str], tuple[float, dict[str, float]]] = {}
    for key, found in sorted(medians.items(), key=lambda item: machines[item[0][0]].name):
        if not _asked(machines[key[0]], query):
            continue
        lacks = [member.label for member in profile.members if member.label not in found]
        if lacks:
            table.lacking.append(Lacking(machines[key[0]].name, key[1] or None, lacks))
            continue
        components = {
            member.label: found[member.label] / table.medians[member.label]
            for member in profile.members
        }
        scores[key] = (_score(profile, components), components)
    # Fargate sizes no task measured, from EC2 types of their processor; never in the medians.
    estimates = {}
    if len(members_read) == len(profile.members):
        measured = {type_id for type_id, _variant in medians}
        for found in fargate_estimates.estimated_scores(query, region, members_read, measured):
            components = {
                member.label: found.values[member.label] / table.medians[member.label]
                for member in profile.members
            }
            machines[found.machine.pk] = found.machine
            scores[found.machine.pk, ""] = (_score(profile, components), components)
            estimates[found.machine.pk] = found.estimate
    quotes = prices.hourly_prices(
        instance_types={machines[type_id] for type_id, _ in scores},
        region=region,
        purchase_option=query.purchase,
        day=at,
    )
    for (type_id, variant), (score, components) in scores.items():
        machine, quote = machines[type_id], quotes[type_id]
        if quote.usd_per_hour is None and type_id in estimates:
            continue  # an estimate is offered where it has a price
        if quote.usd_per_hour is None:
            table.unpriced.append(
                UnpricedScore(machine.name, variant or None, quote.note or "no price known", score)
            )
            continue
        usd = float(quote.usd_per_hour)
        # A score is the median type's work times this much: per second, score / 3,600 hours
        # of the median type's work, so that a dollar buys score / USD-per-hour such hours.
        basis = on_basis(machine, score / SECONDS_PER_HOUR, usd, query.basis)
        table.results.append(
            ProfileRow(
                instance_type=machine.name,
                variant=variant or None,
                family=machine.family,
                vcpus=machine.vcpu_count,
                score=score,
                components=components,
                usd_per_hour=usd,
                per_dollar=basis["per_dollar"],
                price_effective_from=quote.effective_from,
                cpu_allocation=machine.allocation,
                baseline_share=basis.get("baseline_share"),
                burst_per_dollar=basis.get("burst_per_dollar"),
                sustained_per_dollar=basis.get("sustained_per_dollar"),
                estimate=estimates.get(type_id),
            )
        )
    table.results.sort(
        key=lambda row: (row.per_dollar is None, -(row.per_dollar or 0), row.instance_type)
    )
    noises = {key: Noise.from_dict(benchmark.noise) for key, benchmark in benchmarks.items()}
    table.standing = stand(table.results, profile_noise(profile.members, noises))
    return table


def _score(profile: definitions.Profile, components: dict[str, float]) -> float:
    """The weighted geometric mean of a type's components."""
    logs = sum(member.weight * math.log(components[member.label]) for member in profile.members)
    return math.exp(logs / profile.total_weight)


def _member_statistics(benchmark: Benchmark, member: definitions.Member):
    """The kept statistics (measured anywhere) of the member's series on every type: one
    parameter key, or for a member whose parameters follow the machine's size one key per
    count the benchmark was measured with (a row is the member's where it is the type's vCPUs)."""
    keys = [params_key(member.params)]
    if member.per_vcpu:
        counts = benchmark.params.get(member.per_vcpu[0], [])
        keys = [
            params_key({**member.params, **dict.fromkeys(member.per_vcpu, count)})
            for count in counts
        ]
    return SeriesStatistics.objects.filter(
        measured_in=SeriesStatistics.ALL_REGIONS, benchmark=benchmark, params_key__in=keys
    )


def _asked(machine: Machine, query: ProfileQuery) -> bool:
    """Whether the question's types or families take in this machine (scores are normalised
    over every type measured, whichever are shown)."""
    if query.instance_types and not any(
        names_type(text, machine.vendor, machine.name) for text in query.instance_types
    ):
        return False
    return not query.families or machine.family in query.families
