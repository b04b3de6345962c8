"""stress-ng at every load on one instance type: the work per second and per dollar at 1, 2,
... n workers (Spare Cores' `stressng` and `stressngfull` folders, benchmark `stress-ng:cpu`
with parameter `workers`), and what each busy vCPU adds.

A vCPU is worth less when the machine is busy on SMT x86 types (two vCPUs share a core) than
on Graviton, where each vCPU is a core: the efficiency (work per worker over one worker's)
shows it. From the instance type page's kept ranks (which hold every parameter set the type
was measured with): no query of its own; the price is the page's on-demand price in its
cheapest region, or us-east-1's where it has one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks import per_dollar as arithmetic

BENCHMARK = "stress-ng:cpu"
WORKERS = "workers"
PREFERRED_REGION = "us-east-1"


@dataclass(frozen=True)
class ScalingPoint:
    workers: int
    ops_per_second: float
    # workers / vCPUs: the share of the machine busy (None: vCPUs unknown).
    busy_share: float | None
    # Work per worker over one worker's: 1 where each vCPU adds a whole one.
    efficiency: float | None
    per_dollar: float | None


@dataclass
class CpuScaling:
    """The type's stress-ng figures by workers, priced where `region` says."""

    instance_type: str
    vcpus: float | None
    region: str | None
    usd_per_hour: float | None
    points: list[ScalingPoint] = field(default_factory=list)


def figures_by(page, benchmark: str, param: str) -> dict[int, float]:
    """A benchmark's medians on the page's type by one whole-number parameter (its plain
    variant), from the ranks the page read."""
    figures: dict[int, float] = {}
    for ranks in page.ranks:
        if ranks.benchmark != benchmark:
            continue
        for rank in ranks.ranks:
            value = rank.params.get(param)
            if isinstance(value, int) and not isinstance(value, bool) and not rank.variant:
                figures[value] = rank.median
    return figures


def cpu_scaling(page) -> CpuScaling | None:
    """The scaling of an InstanceTypePage's type; None with fewer than two worker counts."""
    figures = figures_by(page, BENCHMARK, WORKERS)
    if len(figures) < 2:
        return None
    instance_type = page.instance_type
    vcpus = float(instance_type.vcpus) if instance_type.vcpus else None
    priced = [prices for prices in page.regions_by_price if prices.on_demand]
    preferred = [prices for prices in priced if prices.region == PREFERRED_REGION]
    chosen = (preferred or priced or [None])[0]
    usd = chosen.on_demand if chosen else None
    one = figures.get(1)
    scaling = CpuScaling(instance_type.name, vcpus, chosen and chosen.region, usd)
    for workers in sorted(figures):
        ops = figures[workers]
        scaling.points.append(
            ScalingPoint(
                workers=workers,
                ops_per_second=ops,
                busy_share=round(workers / vcpus, 4) if vcpus else None,
                efficiency=round(ops / (workers * one), 4) if one else None,
                per_dollar=arithmetic.per_dollar(ops, usd, higher_is_better=True),
            )
        )
    return scaling
