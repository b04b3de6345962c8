"""Similar types, for an instance type's page: the types with as many vCPUs and memory of
the same class (GiB per vCPU), ranked by what a dollar buys of one benchmark.

The finder's own answer (`finder.finder_table`) limited to that size, so its figures are the
finder's and the comparison's: the benchmark chosen from the benchmarks' families (one query,
kept for the freshness window), then the finder's fixed number.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import urlencode

from django.urls import reverse

from benchmarks import freshness, units
from benchmarks.models import Benchmark, InstanceType
from benchmarks.questions.compare import MAX_TYPES
from benchmarks.questions.finder import FinderQuery
from benchmarks.questions.price_performance import DEFAULT_REGION
from benchmarks.selectors.pages.finder import FinderRow, finder_table

# GiB per vCPU: compute-optimised types have 2, general purpose 4, memory-optimised 8 or more.
MEMORY_CLASSES = ((Decimal("2.5"), "compute (up to 2.5 GiB per vCPU)"),
                  (Decimal("5"), "general purpose (2.5 to 5 GiB per vCPU)"),
                  (None, "memory (over 5 GiB per vCPU)"))  # fmt: skip
# The benchmark similar types are ranked by, the first the type's family was measured with.
PREFERRED = ("openssl:aes-256-cbc", "passmark:cpu-mark", "openssl:sha256")
SHOWN = 10
# A bound just above the class below, so that a type on a boundary falls in one class only.
STEP = Decimal("0.001")


@dataclass
class SimilarTypes:
    """The types of the same size, best per dollar first (cheapest first without results)."""

    instance_type: InstanceType
    memory_class: str
    # Where they are priced: the page's region (another cloud's type meets its own peers).
    region: str
    benchmark: Benchmark | None
    reading: units.Reading | None
    rows: list[FinderRow]
    # Among the same size, how many there are in all (the rows are the best SHOWN).
    total: int
    finder_url: str

    @property
    def compare_url(self) -> str | None:
        """This type against the best others of its size, side by side (None: no others)."""
        others = [row.name for row in self.rows if row.name != self.instance_type.name]
        if not others:
            return None
        types = [self.instance_type.name, *others[: MAX_TYPES - 1]]
        query = {"types": ",".join(types), "baseline": self.instance_type.name}
        return f"{reverse('compare')}?{urlencode(query)}"


def _plain(number: Decimal) -> str:
    """10 for 10.000, 10.001 as it is."""
    return format(number.normalize(), "f")


def _memory_bounds(vcpus: Decimal, memory: Decimal) -> tuple[Decimal | None, Decimal | None, str]:
    low = None
    for ratio, label in MEMORY_CLASSES:
        high = ratio * vcpus if ratio is not None else None
        if high is None or memory <= high:
            return low, high, label
        low = high + STEP
    raise AssertionError("the last class has no upper bound")


def _benchmark_for(instance_type: InstanceType) -> Benchmark | None:
    # The families are read and matched here: SQLite (`make run`) has no JSON containment.
    measured = [
        benchmark
        for benchmark in _benchmark_families()
        if instance_type.family in (benchmark.families or [])
    ]
    for key in PREFERRED:
        for benchmark in measured:
            if benchmark.key == key:
                return benchmark
    return max(measured, key=lambda b: (len(b.families or []), b.key), default=None)


def _benchmark_families() -> list[Benchmark]:
    """Every benchmark with the families measured with it: one query, kept for the freshness
    window as the other lookups are (benchmarks.freshness), not read again by every page."""
    return freshness.kept_read(
        "similar:benchmark-families",
        lambda: list(Benchmark.objects.only("key", "unit", "higher_is_better", "families")),
    )


def similar_types(instance_type: InstanceType, *, region: str = DEFAULT_REGION):
    """The types like `instance_type` (same vCPUs, same memory class), or None when its
    size is unknown."""
    if instance_type.vcpus is None or instance_type.memory_gib is None:
        return None
    low, high, label = _memory_bounds(instance_type.vcpus, instance_type.memory_gib)
    benchmark = _benchmark_for(instance_type)
    query = FinderQuery(
        region=region,
        vcpus_min=instance_type.vcpus,
        vcpus_max=instance_type.vcpus,
        memory_min=low,
        memory_max=high,
        benchmark=benchmark.key if benchmark else "",
        measured=benchmark is not None,
    )
    table = finder_table(query)
    vcpus = _plain(instance_type.vcpus)
    filters = {
        "region": region,
        "vcpus_min": vcpus,
        "vcpus_max": vcpus,
        **({"memory_min": _plain(low)} if low is not None else {}),
        **({"memory_max": _plain(high)} if high is not None else {}),
        **({"benchmark": benchmark.key, "measured": "true"} if benchmark else {}),
    }
    return SimilarTypes(
        instance_type=instance_type,
        memory_class=label,
        region=region,
        benchmark=table.benchmark,
        reading=table.reading,
        rows=table.rows[:SHOWN],
        total=len(table.rows),
        finder_url=f"{reverse('finder')}?{urlencode(filters)}",
    )
