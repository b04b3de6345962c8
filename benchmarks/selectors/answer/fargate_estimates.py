"""Estimated Fargate rows: the task sizes a price-performance answer covers that no task
measured, from the EC2 types with the processor the task runs on.

arm64 tasks run on Graviton2 (AWS's documentation); x86_64 tasks on the processors they were
observed on (uploads, the agent, study S1), the newest observed first: the first of them with
EC2 figures for the question gives the estimate. The arithmetic is benchmarks.fargate_estimate's;
the kept basis (processors observed, the method's error on S1, the task sizes) is
services/statistics/fargate.py's. Three small queries at most: the basis and the processors'
EC2 types (both kept for the freshness window) and, for a question that reads only some
types' rows, the sources' statistics (one that reads every type's has them already); none
for a question that covers no Fargate size.

Only what a task can run and be: no benchmark that measures a GPU, no source beyond Fargate's
largest task or with a GPU (fargate_estimate.runs_on_gpu, MAX_VCPUS, MAX_MEMORY_GIB).

Which sizes: those the question names; else, for each vCPU count, the size with the least
memory (more memory adds to the price and nothing to the work), on each architecture. A size
with a measured row is never estimated.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from django.db.models import Q

from benchmarks import cpu_models, fargate_estimate, freshness
from benchmarks.fargate_estimate import GRAVITON2, GRAVITON2_SOURCE, Source
from benchmarks.models import (
    Architecture,
    Benchmark,
    FargateBasis,
    InstanceType,
    Region,
    Vendor,
)
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.questions.profiles import ProfileQuery
from benchmarks.selectors.answer.kept_series import (
    COLUMNS,
    KeptSeries,
    Machine,
    machine_of,
    params_of,
    statistics_in_scope,
)
from benchmarks.selectors.answer.lookups import prices_stamp, type_and_variant

FAMILY = "fargate"
# How an arm64 estimate names its processor.
GRAVITON2_NAME = "AWS Graviton2 (Neoverse-N1)"


@dataclass(frozen=True)
class EstimatedSeries:
    """A task size's estimated figure, shaped as the kept series a measured row is built
    from, with what the answer says of it (`estimate`)."""

    series: KeptSeries
    estimate: dict[str, Any]


def estimated_series(
    benchmark: Benchmark,
    query: PricePerformanceQuery,
    params: dict[str, Any],
    region: Region,
    measured: list[KeptSeries],
) -> list[EstimatedSeries]:
    """The estimated rows of the question (empty when it asks for none or covers no Fargate
    size without a measured row)."""
    if not _asks_for_estimates(query, region):
        return []
    if fargate_estimate.runs_on_gpu(benchmark.key, params):
        return []  # a GPU's figure: no task has one (fargate_estimate.GPU_BENCHMARKS)
    basis = _basis()
    if basis is None:
        return []
    measured_names = {row.machine.name for row in measured}
    sizes = [
        size
        for size in _sizes_in_scope(query, _sizes(basis))
        if size.name not in measured_names and size.vcpus is not None
    ]
    if not sizes:
        return []
    processors = _processors(basis)
    wanted = {spec for choices in processors.values() for spec, *_rest in choices}
    sources = _sources(benchmark, query, params, wanted, measured, region)
    processes = params.get("processes")
    found = []
    for size in sizes:
        for spec, name, observed, seen in processors.get(size.architecture, []):
            result = fargate_estimate.estimate(
                sources.get(spec, ()),
                float(size.vcpus),
                processes=int(processes) if processes else None,
                higher_is_better=benchmark.higher_is_better,
            )
            if result is None:
                continue
            found.append(
                EstimatedSeries(
                    _as_series(size, result.figure, params),
                    _estimate(
                        basis,
                        name,
                        observed,
                        seen,
                        result.sources,
                        result,
                        validated_error=_validated(basis, benchmark.key, spec, processes),
                    ),
                )
            )
            break
    return found


@dataclass(frozen=True)
class EstimateBasis:
    """What a reader besides price-performance (compare) estimates from: the kept basis, the
    processors of each architecture in order (`_processors`), and their EC2 types by id."""

    basis: FargateBasis
    processors: dict[str, list[tuple]]
    spec_of: dict[int, str]


def estimate_basis(region: Region) -> EstimateBasis | None:
    """The kept basis with its processors and their EC2 source types (both kept: no query
    while they stay as they are); None before a basis is kept."""
    basis = _basis()
    if basis is None:
        return None
    processors = _processors(basis)
    wanted = {spec for choices in processors.values() for spec, *_rest in choices}
    return EstimateBasis(basis, processors, _types_with(wanted, region))


def estimate_size(
    kept: EstimateBasis,
    architecture: str,
    vcpus: float,
    sources_of,
    *,
    processes: int | None,
    higher_is_better: bool,
) -> tuple[float, dict[str, Any]] | None:
    """A task size's estimated figure and what it says of itself, from the first processor
    of its architecture whose sources (`sources_of(spec)`) give one; None where none does."""
    for spec, name, observed, seen in kept.processors.get(architecture, []):
        result = fargate_estimate.estimate(
            sources_of(spec), vcpus, processes=processes, higher_is_better=higher_is_better
        )
        if result is not None:
            return result.figure, _estimate(
                kept.basis, name, observed, seen, result.sources, result
            )
    return None


def _processors(basis: FargateBasis) -> dict[str, list[tuple]]:
    """Per architecture, the processors to estimate from in order: (specifications' name,
    the name the answer gives, the day observed, the observation kept or None)."""
    return {
        Architecture.ARM64: [(GRAVITON2, GRAVITON2_NAME, None, None)],
        Architecture.X86_64: [
            (seen["cpu_model"], seen["cpu_model"], seen["observed"], seen)
            for seen in basis.observed
        ],
    }


def _validated(basis: FargateBasis, benchmark: str, spec: str, processes) -> float | None:
    """The method's median error on study S1 where S1 validated what this estimate does (the
    benchmark, the processor and the process count, on whole-vCPU tasks); None elsewhere."""
    model = cpu_models.normalise(spec)
    wanted = int(processes) if processes else None
    errors = [
        row["error"]
        for row in basis.validation
        if row.get("counted")
        and row.get("benchmark") == benchmark
        and row.get("processor") == model
        and fargate_estimate.processes_of(row.get("params")) == wanted
    ]
    return round(statistics.median(errors), 4) if errors else None


def _estimate(basis, name, observed, seen, sources, result, validated_error=None) -> dict[str, Any]:
    """What an estimated row says of itself (docs/fargate.md): `validated` only where study S1
    validated the method for it (`_validated`), with its error there; and how far its
    sources disagree (`sources_range`, which its interval covers)."""
    return {
        "processor": name,
        "from": list(sources),
        "observed": observed,
        "observations": seen and seen["observations"],
        "processor_source": f"observed on {seen['observations']} Fargate tasks ({seen['source']})"
        if seen
        else GRAVITON2_SOURCE,
        "validated": validated_error is not None,
        "validated_error": validated_error,
        "sources_range": {"low": result.low, "high": result.high}
        if result.low is not None
        else None,
        "sustains": result.sustains,
        "scaled": result.scaled,
    }


@dataclass(frozen=True)
class EstimatedScore:
    """A task size's estimated figure of each member of a workload profile."""

    machine: Machine
    # Member label -> its figure, higher is better (a latency inverted), as profiles use them.
    values: dict[str, float]
    estimate: dict[str, Any]


def estimated_scores(
    query: ProfileQuery,
    region: Region,
    members: list[tuple[str, bool, list[KeptSeries]]],
    measured: set[int],
) -> list[EstimatedScore]:
    """A profile's estimated Fargate sizes: each member (label, higher is better, its rows
    read) estimated from the EC2 rows of the processor the size runs on, the first processor
    that gives every member a figure. `measured`: type ids with rows of their own. One query
    (the processors' EC2 types, kept while the specifications stay as they are), besides the
    basis."""
    if not _asks_for_estimates(query, region):
        return []
    basis = _basis()
    if basis is None:
        return []
    sizes = [
        size
        for size in _sizes_in_scope(query, _sizes(basis))
        if size.pk not in measured and size.vcpus is not None
    ]
    if not sizes:
        return []
    processors = _processors(basis)
    wanted = {spec for choices in processors.values() for spec, *_rest in choices}
    spec_of = _types_with(wanted, region)
    found = []
    for size in sizes:
        for spec, name, observed, seen in processors.get(size.architecture, []):
            values, used, results = {}, set(), []
            for label, higher, rows in members:
                sources = [
                    Source(
                        instance_type=row.machine.name,
                        vcpus=float(row.machine.vcpus or 0),
                        median=row.median,
                        processes=fargate_estimate.processes_of(row.params),
                        burstable=row.machine.burstable,
                    )
                    for row in rows
                    if spec_of.get(row.machine.pk) == spec
                ]
                result = fargate_estimate.estimate(
                    sources, float(size.vcpus), higher_is_better=higher
                )
                if result is None or result.figure <= 0:
                    break
                values[label] = result.figure if higher else 1 / result.figure
                used.update(result.sources)
                results.append(result)
            else:
                first = results[0]
                # A score's sources disagree member by member: no one range of its figure.
                scaled = dataclasses.replace(
                    first, scaled=any(r.scaled for r in results), low=None, high=None
                )
                found.append(
                    EstimatedScore(
                        size,
                        values,
                        _estimate(basis, name, observed, seen, sorted(used), scaled),
                    )
                )
                break
    return found


def _asks_for_estimates(query: PricePerformanceQuery | ProfileQuery, region: Region) -> bool:
    """Estimates are AWS's, of figures measured anywhere, counting every run."""
    if query.estimates != "include" or region.vendor != Vendor.AWS:
        return False
    if getattr(query, "verified_only", False) or getattr(query, "measured_in", None):
        return False
    if getattr(query, "busy", None) is not None:
        return False  # sources at a share of vCPUs busy: not estimated (docs/fargate.md)
    if getattr(query, "vendor", "") not in ("", Vendor.AWS):
        return False
    if query.instance_types and not any(FAMILY in name for name in query.instance_types):
        return False
    return not query.families or FAMILY in {family.lower() for family in query.families}


def _sizes_in_scope(
    query: PricePerformanceQuery | ProfileQuery, sizes: list[Machine]
) -> list[Machine]:
    """The Fargate sizes the question covers."""
    if query.instance_types:
        named = set()
        for text in query.instance_types:
            vendor, name, _variant = type_and_variant(text)
            if vendor in (None, Vendor.AWS):
                named.add(name)
        sizes = [size for size in sizes if size.name in named]
    else:
        least = {}
        for size in sizes:
            key = (size.architecture, size.vcpus)
            if key not in least or size.memory_gib < least[key].memory_gib:
                least[key] = size
        sizes = list(least.values())
    for shape in ("vcpus", "memory_gib"):
        wanted = getattr(query, shape, None)
        if wanted is not None:
            sizes = [size for size in sizes if getattr(size, shape) == wanted]
    return sorted(sizes, key=lambda size: (size.architecture, size.vcpus, size.memory_gib))


def _basis() -> FargateBasis | None:
    return freshness.kept_read(
        "fargate-estimate-basis", lambda: FargateBasis.objects.order_by("-kept_at").first()
    )


def _sizes(basis: FargateBasis) -> list[Machine]:
    """The basis's task sizes as machines, made once for each basis kept (not for every
    answer: a fleet's sizes are a tenth of a millisecond each)."""
    return freshness.kept_read(
        "fargate-estimate-sizes",
        lambda: [_machine(values) for values in basis.sizes],
        stamp=(basis.pk, basis.kept_at),
    )


# The columns the basis keeps as text, numbers to the machine.
_DECIMALS = ("vcpus", "memory_gib", "baseline_share")


def _machine(values: list) -> Machine:
    """A size as the basis keeps it (numbers as text) as the machine answers price."""
    return machine_of(
        [
            Decimal(value) if name in _DECIMALS and value is not None else value
            for name, value in zip(COLUMNS, values, strict=True)
        ]
    )


def _sources(
    benchmark: Benchmark,
    query: PricePerformanceQuery,
    params: dict[str, Any],
    processors: set[str],
    measured: list[KeptSeries],
    region: Region,
) -> dict[str, list[Source]]:
    """The EC2 figures of the question's benchmark and parameters on each processor (by its
    specifications' name); series whose runs say another processor are left out. From the
    question's own rows when it reads every type's, else in one query of the processors'
    types' statistics."""
    spec_of = _types_with(processors, region)
    if not spec_of:
        return {}
    if not (query.instance_types or query.families or query.vcpus or query.memory_gib):
        rows = [
            (row.machine, row.params, row.median, row.cpu_models)
            for row in measured
            if row.machine.pk in spec_of and not row.only_flagged
        ]
    else:
        everywhere = dataclasses.replace(
            query, instance_types=(), families=(), vcpus=None, memory_gib=None
        )
        found = (
            statistics_in_scope(benchmark, everywhere, params, vendor=Vendor.AWS)
            .filter(instance_type_id__in=spec_of, only_flagged=False)
            .values_list(
                "instance_type__name",
                "instance_type__vcpus",
                "instance_type__burstable",
                "instance_type_id",
                "params_key",
                "median",
                "cpu_models",
            )
        )
        rows = [
            (_Source(name, vcpus, burstable, pk), params_of(key), median, models)
            for name, vcpus, burstable, pk, key, median, models in found
        ]
    groups = defaultdict(list)
    for machine, params_of_row, median, models in rows:
        spec = spec_of[machine.pk]
        known = [model for model in models if model != cpu_models.UNKNOWN]
        if known and not any(fargate_estimate.same_processor(spec, model) for model in known):
            continue
        # One value per parameter but the processes, which follow each type's vCPUs.
        rest = tuple(sorted((k, str(v)) for k, v in params_of_row.items() if k != "processes"))
        groups[spec, rest].append(
            Source(
                instance_type=machine.name,
                vcpus=float(machine.vcpus or 0),
                median=median,
                processes=fargate_estimate.processes_of(params_of_row),
                burstable=machine.burstable,
            )
        )
    by_processor: dict[str, list[Source]] = {}
    # An open parameter: its best-covered value, as the page pins one.
    for (spec, _rest), found_rows in sorted(groups.items(), key=lambda item: -len(item[1])):
        by_processor.setdefault(spec, sorted(found_rows, key=lambda row: row.instance_type))
    return by_processor


class _Source(NamedTuple):
    """What a source's row needs of its EC2 type."""

    name: str
    vcpus: Decimal | None
    burstable: bool
    pk: int


def _types_with(processors: set[str], region: Region) -> dict[int, str]:
    """The EC2 types of these processors (specifications' names) by id, those a task could
    be: within Fargate's largest task, without a GPU (fargate_estimate.MAX_VCPUS). One small
    query, kept while the specifications stay as they are (the region's stamp moves with
    them)."""
    if not processors:
        return {}
    return freshness.kept_read(
        f"fargate-estimate-sources:{region.pk}:" + "|".join(sorted(processors)),
        lambda: dict(
            # A size not known is not held against a type; a GPU or a size beyond is.
            InstanceType.objects.filter(
                Q(gpu_count__isnull=True) | Q(gpu_count=0),
                Q(vcpus__isnull=True) | Q(vcpus__lte=fargate_estimate.MAX_VCPUS),
                Q(memory_gib__isnull=True) | Q(memory_gib__lte=fargate_estimate.MAX_MEMORY_GIB),
                kind=InstanceType.Kind.EC2,
                cpu_model__in=processors,
            ).values_list("pk", "cpu_model")
        ),
        stamp=prices_stamp(region),
    )


def _as_series(size: Machine, figure: float, params: dict[str, Any]) -> KeptSeries:
    return KeptSeries(
        statistics_id=None,
        machine=size,
        variant="",
        params=params,
        runs=0,
        results=0,
        median=figure,
        minimum=figure,
        maximum=figure,
        first_quartile=figure,
        third_quartile=figure,
        flagged_runs=0,
        only_flagged=False,
        verified_runs=0,
        cpu_models={},
        regions=[],
        sources=[],
        flags=[],
        samples=[],
    )


def describe(estimate: dict[str, Any]) -> str:
    """How the pages label an estimated row: "estimated from AWS Graviton2 (Neoverse-N1) on
    c6g.medium, m6g.medium and 6 more EC2 types; a quarter-vCPU quota sustains 25% of one
    vCPU's figure; the method's error on study S1: 0.8%"."""
    sources = estimate["from"]
    named = ", ".join(sources[:2]) + (f" and {len(sources) - 2} more" if len(sources) > 2 else "")
    parts = [f"estimated from {estimate['processor']} on {named} (EC2)"]
    if estimate.get("observed"):
        parts[0] += f", seen on Fargate on {estimate['observed']}"
    if estimate["sustains"] < 1:
        parts.append(f"its {estimate['sustains']:g} vCPU quota sustains that share of one vCPU")
    if estimate.get("validated_error") is not None:
        parts.append(f"the method's error on study S1: {estimate['validated_error'] * 100:.1f}%")
    return "; ".join(parts)
