"""Memory on one instance type by working-set size: read, write and copy bandwidth and the
latency of a load (Spare Cores' `membench`: `membench:read`, `:write`, `:copy` in B/s and
`membench:latency` in seconds, parameter `size_kb`). The caches show as steps: bandwidth falls
and latency rises where the working set leaves L1, L2 and the last-level cache.

From the instance type page's kept ranks (every parameter set the type was measured with): no
query of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks.selectors.subjects.cpu_scaling import figures_by

SIZE = "size_kb"
BANDWIDTHS = ("membench:read", "membench:write", "membench:copy")
LATENCY = "membench:latency"


@dataclass
class MemoryCurves:
    """By working-set size in KiB: each bandwidth in B/s and the latency in seconds."""

    sizes_kb: list[int] = field(default_factory=list)
    bandwidths: dict[str, list[float | None]] = field(default_factory=dict)
    latency: list[float | None] = field(default_factory=list)


def memory_curves(page) -> MemoryCurves | None:
    """The page's type's membench figures; None with fewer than two sizes measured."""
    found = {key: figures_by(page, key, SIZE) for key in (*BANDWIDTHS, LATENCY)}
    sizes = sorted({size for figures in found.values() for size in figures})
    if len(sizes) < 2:
        return None
    return MemoryCurves(
        sizes_kb=sizes,
        bandwidths={
            key.split(":", 1)[1]: [found[key].get(size) for size in sizes] for key in BANDWIDTHS
        },
        latency=[found[LATENCY].get(size) for size in sizes],
    )
