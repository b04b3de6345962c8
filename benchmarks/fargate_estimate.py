"""A Fargate task's figure estimated from EC2 types with the processor the task runs on.

Study S1 measured Fargate tasks and EC2 instances on the same processors and found a Fargate
vCPU worth an EC2 vCPU of the same processor; AWS documents that arm64 tasks run on Graviton2
(c6g, m6g, r6g). So a task size no task measured is estimated from the EC2 types of its
processor, scaled to the task's vCPUs the way the benchmark uses them:

- a benchmark run with a process count (`processes`, one per vCPU in Spare Cores' runs): the
  figure of one process (each source's median / its processes), times the processes the task
  runs (the question's, else one per vCPU, at least one) up to its vCPUs: a 0.25 vCPU task is
  a CPU quota and sustains a quarter of one process's figure;
- any other benchmark: the median of the EC2 types with as many vCPUs as the task (one for a
  fractional task, whose quota then sustains that share of it); where none has that many, the
  sources' figure per vCPU times the task's vCPUs (`scaled`).

Sources are the processor's fixed-performance types; burstable ones only where there are no
others (their figures are burst figures). Only what a task can be is a source, and only what a
task can run is estimated: no type beyond Fargate's largest task (16 vCPUs, 120 GiB) nor with
a GPU, and no benchmark that runs on a GPU (`runs_on_gpu`). A lower-is-better figure (a
latency) is estimated only for a whole number of vCPUs with a source of that size: a quota
stretches a latency by an amount no source measured. Pure arithmetic: selectors/
fargate_estimates.py reads the sources, services/statistics/fargate.py validates the method on
S1. docs/fargate.md has the table.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from benchmarks.reference import FARGATE_MEMORY_BY_VCPU

# AWS: "Fargate tasks that use the ARM64 architecture run on AWS Graviton2 processors", the
# processor of c6g, m6g and r6g: InstanceType.cpu_model as the specifications name it.
GRAVITON2 = "AWS ARMv8 Neoverse-N1"
GRAVITON2_SOURCE = (
    "AWS Fargate documentation: arm64 tasks run on AWS Graviton2 processors "
    "(https://docs.aws.amazon.com/AmazonECS/latest/developerguide/ecs-arm64.html)"
)

# Fargate's largest task (AWS's task size limits, reference.FARGATE_MEMORY_BY_VCPU): an EC2
# type beyond it is no picture of a task, its figures no source.
MAX_VCPUS: Decimal = max(FARGATE_MEMORY_BY_VCPU)
MAX_MEMORY_GIB: Decimal = max(max(sizes) for sizes in FARGATE_MEMORY_BY_VCPU.values())

# Benchmarks that measure a GPU, which no Fargate task has: NVIDIA's nvbandwidth, ffmpeg's
# CUDA scenarios (`ffmpeg:gpu_h264_encode`). vLLM in `mode=gpu` and llama.cpp with layers on
# the GPU (`gpu_layers` above 0) are told by their parameters (`runs_on_gpu`).
GPU_BENCHMARKS = ("nvbandwidth:", "ffmpeg:gpu_")


def runs_on_gpu(key: str, params: dict[str, Any] | None) -> bool:
    """Whether a benchmark with these parameters measures a GPU: nothing a Fargate task can
    run, so never estimated for one."""
    params = params or {}
    if key.startswith(GPU_BENCHMARKS) or str(params.get("mode", "")).lower() == "gpu":
        return True
    layers = params.get("gpu_layers")
    try:
        return layers is not None and float(layers) > 0
    except (TypeError, ValueError):
        return False


# One Graviton2 family at every size, medium to metal (1 to 64 vCPUs): the demo's first part
# loads it with the default families, so that the first page's Fargate rows are estimated.
ESTIMATE_SOURCE_FAMILIES = ("c6g",)


@dataclass(frozen=True)
class Source:
    """One EC2 type's figure on the processor: its median with the processes it ran."""

    instance_type: str
    vcpus: float
    median: float
    processes: int | None = None
    burstable: bool = False


@dataclass(frozen=True)
class Estimate:
    """A task size's estimated figure and what it came from."""

    figure: float
    sources: tuple[str, ...]
    # The share of one vCPU's (or one process's) figure the task sustains: its vCPUs, or its
    # processes when fewer; 1 for a whole-vCPU task running a single process.
    sustains: float
    # True when no source had the task's vCPUs and the figure was scaled per vCPU.
    scaled: bool = False
    # The least and greatest of the sources' figures at the task's share: how far they
    # disagree (an estimated row's interval covers them); None: not worked out.
    low: float | None = None
    high: float | None = None


def estimated_label(label: str, estimated: bool) -> str:
    """A row's name as every chart, table and sentence shows it: an estimate says so."""
    return f"{label} (estimated)" if estimated else label


def processes_of(params: dict | None) -> int | None:
    """A figure's process count (its `processes` parameter), None where it has none."""
    value = (params or {}).get("processes")
    return int(value) if isinstance(value, int | float) and value >= 1 else None


def same_processor(name: str, other: str) -> bool:
    """Whether two names of a processor name the same one: lscpu's `Neoverse-N1` and the
    specifications' `AWS ARMv8 Neoverse-N1`, `Intel Xeon E5-2686 v4` either way."""
    a, b = name.strip().lower(), other.strip().lower()
    return bool(a and b) and (a == b or a.endswith(" " + b) or b.endswith(" " + a))


def estimate(
    sources: Iterable[Source],
    vcpus: float,
    *,
    processes: int | None = None,
    higher_is_better: bool = True,
) -> Estimate | None:
    """The figure of a task with `vcpus` from its processor's `sources`; None when they
    cannot give one (no source, or a latency on a fractional task or without a same-size
    source). `processes`: the processes the question pins, None for one per vCPU."""
    usable = _fixed_first(list(sources))
    if not usable or vcpus <= 0:
        return None
    size = max(1, math.ceil(vcpus))
    same_size = [source for source in usable if source.vcpus == size]
    if not higher_is_better:
        if vcpus != size or not same_size:
            return None
        return _from([s.median for s in same_size], 1.0, same_size)
    if all(source.processes for source in usable):
        chosen = same_size or usable
        running = processes or size
        share = min(running, vcpus)
        per_process = [s.median / s.processes for s in chosen]
        return _from(per_process, share, chosen, scaled=not same_size)
    if same_size:
        return _from([s.median for s in same_size], min(1.0, vcpus), same_size)
    sized = [source for source in usable if source.vcpus]
    if not sized:
        return None  # no source's vCPUs known: nothing to scale by
    return _from([s.median / s.vcpus for s in sized], vcpus, sized, scaled=True)


def _from(figures: list[float], share: float, sources, *, scaled: bool = False) -> Estimate:
    """The estimate from its sources' figures (per process, per vCPU or whole) at `share` of
    them: their median, and the least and greatest of them, so far the sources disagree."""
    return Estimate(
        _median(figures) * share,
        _names(sources),
        share,
        scaled=scaled,
        low=min(figures) * share,
        high=max(figures) * share,
    )


def relative_error(predicted: float, measured: float) -> float:
    """|predicted / measured - 1|."""
    return abs(predicted / measured - 1)


def _fixed_first(sources: list[Source]) -> list[Source]:
    fixed = [source for source in sources if not source.burstable and source.median > 0]
    return fixed or [source for source in sources if source.median > 0]


def _median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def _names(sources: Sequence[Source]) -> tuple[str, ...]:
    return tuple(sorted({source.instance_type for source in sources}, key=_natural))


def _natural(name: str) -> tuple:
    """c6g.medium before c6g.12xlarge: families, then sizes by vCPU-like number."""
    family, _, size = name.partition(".")
    digits = "".join(ch for ch in size if ch.isdigit())
    return (family, int(digits) if digits else 0, size)
