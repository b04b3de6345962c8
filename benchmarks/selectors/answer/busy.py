"""A benchmark run at several worker counts, ranked at one share of each type's vCPUs busy
(`busy=0.5`): stress-ng at 1, 2, ... n workers (Spare Cores' `stressngfull`) gives every type
a figure at every load; a question at `busy=0.5` takes each type's figure at half its vCPUs
(at least one worker), so that a 2-vCPU and a 64-vCPU type are compared half busy alike.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import orjson

from benchmarks.errors import DomainError
from benchmarks.models import Benchmark

# The parameters that count workers, in the order they are looked for.
WORKER_PARAMETERS = ("workers", "processes")


def worker_parameter(benchmark: Benchmark, params: dict[str, Any]) -> str:
    """The benchmark's worker-count parameter, or a DomainError naming `busy`."""
    name = next((name for name in WORKER_PARAMETERS if name in (benchmark.params or {})), None)
    if name is None:
        raise DomainError(
            f"busy= needs a benchmark run at several worker counts; {benchmark.key} has no "
            f"{' or '.join(WORKER_PARAMETERS)} parameter",
            field="busy",
        )
    if name in params:
        raise DomainError(f"give busy= or {name}=, not both", field="busy")
    return name


def workers_at(vcpus: Decimal | float | None, busy: Decimal) -> int | None:
    """Workers at `busy` of `vcpus`: rounded half up, at least one; None without vCPUs."""
    if not vcpus:
        return None
    return max(1, math.floor(Decimal(str(vcpus)) * busy + Decimal("0.5")))


def at_busy(rows: list, name: str, busy: Decimal) -> list:
    """The kept series measured at each type's share of vCPUs busy (others left out)."""
    return [row for row in rows if row.params.get(name) == workers_at(row.machine.vcpus, busy)]


# The shares of vCPUs busy the compare page sets types side by side at (`/compare/`): types of
# different sizes, equally loaded.
COMPARE_SHARES = (Decimal("0.5"), Decimal("1"))


def on_busy_share_lines(grouped: dict, index: int, instance_type, line: tuple, figure) -> None:
    """A figure measured at a share of its type's vCPUs busy (`line`: benchmark, variant and
    parameter key) also stands on that share's line (`busy=0.5`) in `grouped`, the compare
    page's lines, beside the types of other sizes at the same share."""
    key, variant, params_key = line
    params = orjson.loads(params_key)
    workers = params.get("workers")
    if not isinstance(workers, int):
        return
    rest = {name: value for name, value in params.items() if name != "workers"}
    for share in COMPARE_SHARES:
        if workers_at(instance_type.vcpus, share) == workers:
            busy_key = orjson.dumps({**rest, "busy": float(share)}, option=orjson.OPT_SORT_KEYS)
            grouped[(key, variant, busy_key.decode())][index] = figure
