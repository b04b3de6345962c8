"""What a dollar buys of one type's figure on the basis a question asks: a burstable type's
figures on every basis (what it sustains once its CPU credits are spent, its burst, unlimited
mode), and a bandwidth's Gbit/s per dollar-hour. The arithmetic is `benchmarks.per_dollar`'s;
the price-performance answer, compare and the profiles rank by the same figures."""

from __future__ import annotations

import math
from typing import Any

from benchmarks import burstable
from benchmarks import per_dollar as arithmetic
from benchmarks.selectors.answer.kept_series import Machine


def on_basis(
    machine: Machine,
    median: float,
    usd: float,
    basis: str,
    *,
    higher_is_better: bool = True,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a dollar buys of a figure (`median`, a benchmark's, measured with `params`) on the
    question's basis; for a burstable type, its figures on every basis too.

    Credits are earned for the whole instance, so a result measured with P processes sustains
    min(1, baseline x vCPUs / P) of its burst figure (`per_dollar.sustained_share`); without
    a process count, every vCPU is taken as busy."""
    higher = higher_is_better
    burst = arithmetic.per_dollar(median, usd, higher_is_better=higher)
    if not machine.burstable or machine.baseline_share is None:
        return {"per_dollar": burst, "basis_figure": median}
    share = float(machine.baseline_share)
    vcpus = machine.vcpu_count
    processes = (params or {}).get("processes")
    sustains = arithmetic.sustained_share(share, vcpus, processes)
    sustained = arithmetic.sustained_figure(median, sustains, higher_is_better=higher)
    figures = {
        "baseline_share": share,
        "burst_per_dollar": burst,
        "sustained_per_dollar": arithmetic.per_dollar(sustained, usd, higher_is_better=higher)
        if math.isfinite(sustained)
        else 0.0,
        "burst_minutes": arithmetic.burst_minutes(
            arithmetic.credits_per_hour(share, vcpus), vcpus, processes
        ),
    }
    if basis == "burst":
        return {**figures, "per_dollar": burst, "basis_figure": median}
    if basis == "unlimited":
        rate = burstable.surplus_usd_per_vcpu_hour(machine.family)
        price = None
        if rate is not None:
            price = arithmetic.unlimited_usd_per_hour(
                usd,
                baseline_share=share,
                vcpus=vcpus,
                processes=processes,
                surplus_usd_per_vcpu_hour=float(rate),
            )
        return {
            **figures,
            "unlimited_usd_per_hour": price,
            "per_dollar": arithmetic.per_dollar(median, price, higher_is_better=higher),
            "basis_figure": median,
        }
    return {**figures, "per_dollar": figures["sustained_per_dollar"], "basis_figure": sustained}


def bandwidth_figures(instance_type: Machine, median: float, usd: float) -> dict[str, Any]:
    """A bandwidth's row (unit bit/s): the advertised bandwidth and Gbit/s per
    dollar-hour."""
    return {
        "advertised_bandwidth": instance_type.network_performance or None,
        "gbit_per_second_per_usd_hour": arithmetic.gbit_per_second_per_usd_hour(median, usd),
    }
