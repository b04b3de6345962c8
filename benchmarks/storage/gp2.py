"""The gp2 burst model of study S4: a bucket of I/O credits that a constant load drains.

A gp2 volume earns I/O credits at its baseline, 3 IOPS per GB (at least 100, at most 16,000),
into a bucket of 5.4 million credits that starts full; while credits last it may deliver up
to 3,000 IOPS (or its baseline, when that is higher). A constant load above the baseline
drains the bucket at (delivered - baseline) credits a second; once empty, the volume delivers
its baseline. A 300 GB volume under 3,000 IOPS: 5,400,000 / (3,000 - 900) = 2,571 s, about
42 minutes.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.errors import DomainError

IOPS_PER_GB = 3
MIN_BASELINE_IOPS = 100
MAX_BASELINE_IOPS = 16_000
BURST_IOPS = 3_000
BUCKET_CREDITS = 5_400_000
MIN_SIZE_GB = 1
MAX_SIZE_GB = 16_384  # 16 TiB
DEFAULT_LOAD_IOPS = 3_000
DEFAULT_SECONDS = 4 * 3600
MAX_SECONDS = 30 * 24 * 3600


@dataclass(frozen=True)
class Gp2Burst:
    """What a gp2 volume delivers under a constant load, and for how long it bursts."""

    size_gb: int
    load_iops: int
    seconds: int
    baseline_iops: int
    burst_iops: int  # the most the volume delivers while it has credits
    iops_while_credits_last: int
    iops_once_credits_run_out: int
    # Whole seconds (rounded down) until the bucket is empty; None: it never empties at this
    # load, because the baseline alone meets it.
    burst_seconds: int | None
    # Seconds an empty bucket takes to fill again when the volume rests.
    full_refill_seconds: int
    # [t, delivered IOPS], a polyline of the step: a change at t appears as two points at t.
    timeline: list[tuple[int, int]]

    @property
    def credits_run_out(self) -> bool:
        """Whether the load empties the bucket (at any time, inside `seconds` or not)."""
        return self.burst_seconds is not None


def baseline_iops(size_gb: int) -> int:
    """3 IOPS per GB, at least 100 and at most 16,000."""
    return min(max(IOPS_PER_GB * size_gb, MIN_BASELINE_IOPS), MAX_BASELINE_IOPS)


def gp2_burst(
    size_gb: int, *, iops: int = DEFAULT_LOAD_IOPS, seconds: int = DEFAULT_SECONDS
) -> Gp2Burst:
    """The delivered IOPS of a gp2 volume of `size_gb` under a constant load of `iops`, over
    `seconds`, starting with a full bucket."""
    _check(size_gb, iops, seconds)
    baseline = baseline_iops(size_gb)
    ceiling = max(BURST_IOPS, baseline)
    during = min(iops, ceiling)
    after = min(iops, baseline)
    drain = during - baseline
    burst_seconds = BUCKET_CREDITS // drain if drain > 0 else None
    if burst_seconds is not None and burst_seconds < seconds:
        timeline = [(0, during), (burst_seconds, during), (burst_seconds, after), (seconds, after)]
    else:
        timeline = [(0, during), (seconds, during)]
    return Gp2Burst(
        size_gb=size_gb,
        load_iops=iops,
        seconds=seconds,
        baseline_iops=baseline,
        burst_iops=ceiling,
        iops_while_credits_last=during,
        iops_once_credits_run_out=after,
        burst_seconds=burst_seconds,
        full_refill_seconds=-(-BUCKET_CREDITS // baseline),
        timeline=timeline,
    )


def _check(size_gb: int, iops: int, seconds: int) -> None:
    if not MIN_SIZE_GB <= size_gb <= MAX_SIZE_GB:
        raise DomainError(
            f"gp2 volumes are {MIN_SIZE_GB:,} to {MAX_SIZE_GB:,} GB, not {size_gb:,}",
            field="size_gb",
        )
    if not 1 <= iops <= MAX_BASELINE_IOPS:
        raise DomainError(
            f"the load is 1 to {MAX_BASELINE_IOPS:,} IOPS (the most a gp2 volume delivers), "
            f"not {iops:,}",
            field="iops",
        )
    if not 1 <= seconds <= MAX_SECONDS:
        raise DomainError(
            f"the timeline covers 1 to {MAX_SECONDS:,} seconds (30 days), not {seconds:,}",
            field="seconds",
        )
