"""What Fargate's estimates stand on, kept after the statistics (models.FargateBasis).

Two things, both from the kept statistics of the Fargate task sizes that were measured:

- the processors x86_64 tasks were observed on (their runs: uploads, the agent, study S1),
  newest first, with how many tasks met each and the last day one was measured;
- the method's error on study S1's data: each measured Fargate figure on a processor
  predicted from the EC2 figures of the same benchmark, parameters and processor
  (benchmarks/fargate_estimate.py), the error counted for whole-vCPU tasks. S1's 0.25 vCPU
  tasks ran their three-second runs at a full vCPU (the quota did not bind), so their
  predictions are listed and not counted: the quota is AWS's documented limit, not something
  S1 measured.

Kept by `keep_noise` whenever it measures (statistics changed), and whenever it finds none
kept; answers read the one row.
"""

from __future__ import annotations

import datetime
import statistics as stats
from collections import defaultdict
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from benchmarks import cpu_models, fargate_estimate
from benchmarks.models import Architecture, FargateBasis, InstanceType, Run, SeriesStatistics

from .compute import ALL_REGIONS


def keep_fargate_basis() -> FargateBasis:
    """Measure and keep the Fargate basis (one row, replaced)."""
    # What answers price a size by (imported here: the selectors import this package).
    from benchmarks.selectors.answer.kept_series import COLUMNS

    fargate = list(
        SeriesStatistics.objects.filter(
            measured_in=ALL_REGIONS,
            only_flagged=False,
            instance_type__kind=InstanceType.Kind.FARGATE,
        ).values_list(
            "instance_type__name",
            "instance_type__vcpus",
            "benchmark_id",
            "benchmark__key",
            "benchmark__higher_is_better",
            "params_key",
            "series__params",
            "samples",
        )
    )
    observed = _observed()
    rows = _validation(fargate)
    counted = [row["error"] for row in rows if row["counted"]]
    with transaction.atomic():
        FargateBasis.objects.all().delete()
        return FargateBasis.objects.create(
            observed=observed,
            validated_error=round(stats.median(counted), 4) if counted else None,
            validation=rows,
            sizes=[
                [str(value) if isinstance(value, Decimal) else value for value in size]
                for size in InstanceType.objects.filter(kind=InstanceType.Kind.FARGATE)
                .order_by("name")
                .values_list(*COLUMNS)
            ],
            kept_at=timezone.now(),
        )


def _observed() -> list[dict]:
    """x86_64 tasks' processors, newest first (then most observed): the tasks that met each
    (a run counts its observations), the last day one was measured (None where no run says)
    and where the newest observation comes from."""
    runs = Run.objects.filter(
        status=Run.Status.DONE,
        withdrawn_at=None,
        instance_type__kind=InstanceType.Kind.FARGATE,
        instance_type__architecture=Architecture.X86_64,
    ).values_list("cpu_model", "observations", "measured_at", "source")
    totals: dict[str, int] = defaultdict(int)
    newest: dict[str, tuple] = {}
    for raw, observations, measured_at, source in runs:
        model = cpu_models.normalise(raw)
        if model == cpu_models.UNKNOWN:
            continue
        totals[model] += observations
        seen = (measured_at is not None, measured_at or datetime.date.min, source)
        if model not in newest or seen[:2] > newest[model][:2]:
            newest[model] = seen
    ordered = sorted(totals, key=lambda model: (newest[model][:2], totals[model]), reverse=True)
    return [
        {
            "cpu_model": model,
            "observations": totals[model],
            "observed": newest[model][1].isoformat() if newest[model][0] else None,
            # "Study S1, Fargate vCPU performance and price (December 2017, us-east-1)".
            "source": (newest[model][2] or "uploads").split(":", 1)[0],
        }
        for model in ordered
    ]


def _validation(fargate: list[tuple]) -> list[dict]:
    """Every measured Fargate figure with an EC2 figure of its benchmark, parameters and
    processor: the prediction and its error."""
    keys = {(row[2], row[5]) for row in fargate}
    if not keys:
        return []
    ec2 = SeriesStatistics.objects.filter(
        measured_in=ALL_REGIONS,
        only_flagged=False,
        instance_type__kind=InstanceType.Kind.EC2,
        benchmark_id__in={benchmark for benchmark, _key in keys},
        params_key__in={key for _benchmark, key in keys},
    ).values_list(
        "benchmark_id",
        "params_key",
        "instance_type__name",
        "instance_type__vcpus",
        "instance_type__burstable",
        "series__params",
        "samples",
    )
    sources = defaultdict(list)
    for benchmark, key, name, vcpus, burstable, params, samples in ec2:
        for model, values in _by_processor(samples).items():
            sources[benchmark, key, model].append(
                fargate_estimate.Source(
                    instance_type=name,
                    vcpus=float(vcpus or 0),
                    median=stats.median(values),
                    processes=fargate_estimate.processes_of(params),
                    burstable=burstable,
                )
            )
    rows = []
    for task, vcpus, benchmark, key, higher, params_key, params, samples in fargate:
        for model, values in sorted(_by_processor(samples).items()):
            found = sources.get((benchmark, params_key, model))
            if not found:
                continue
            predicted = fargate_estimate.estimate(
                found,
                float(vcpus),
                processes=fargate_estimate.processes_of(params),
                higher_is_better=higher,
            )
            if predicted is None:
                continue
            measured = stats.median(values)
            # A run on a whole vCPU: S1's fractional tasks were not held to their quota.
            whole = float(vcpus) >= 1
            figure = predicted.figure if whole else predicted.figure / predicted.sustains
            rows.append(
                {
                    "task": task,
                    "processor": model,
                    "benchmark": key,
                    "params": params,
                    "measured": measured,
                    "predicted": figure,
                    "error": round(fargate_estimate.relative_error(figure, measured), 4),
                    "from": list(predicted.sources),
                    "counted": whole,
                }
            )
    return rows


def _by_processor(samples: list) -> dict[str, list[float]]:
    found: dict[str, list[float]] = defaultdict(list)
    for value, model in samples:
        name = cpu_models.normalise(model)
        if name != cpu_models.UNKNOWN:
            found[name].append(value)
    return found
