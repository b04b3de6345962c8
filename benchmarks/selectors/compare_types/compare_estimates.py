"""Compare's estimated Fargate figures: on each line where a compared Fargate size has no
figure of its own, its estimate from the EC2 types of the processor the task runs on, as the
price-performance answer estimates one (selectors/answer/fargate_estimates.py, docs/fargate.md), and
labelled so wherever it is shown.

Only what a task can run: no GPU benchmark (fargate_estimate.runs_on_gpu), no line of a
variant or of a share of vCPUs busy (measured setups an estimate does not reproduce). One
query: the sources' kept statistics of the lines' benchmarks and parameters (the basis and the
processors' types are kept between answers).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import orjson

from benchmarks import cpu_models, fargate_estimate
from benchmarks.fargate_estimate import Source
from benchmarks.models import InstanceType, Region, SeriesStatistics
from benchmarks.selectors.answer import fargate_estimates
from benchmarks.services.statistics.attach import params_key

# A line: (benchmark key, variant, params key), as compare groups its figures.
LineKey = tuple[str, str, str]


def _rest(params: dict[str, Any]) -> tuple:
    """A figure's parameters but its process count, which follows each type's vCPUs."""
    return tuple(
        sorted((name, str(value)) for name, value in params.items() if name != "processes")
    )


def _source_keys(lines) -> set[str]:
    """The parameter keys the sources of these lines' figures have: the line's own, and with a
    process count, the same at each count a source within Fargate's largest task runs (one
    per vCPU, up to 16)."""
    keys = set()
    for params in lines:
        keys.add(params_key(params))
        if "processes" in params:
            for count in range(1, int(fargate_estimate.MAX_VCPUS) + 1):
                keys.add(params_key({**params, "processes": count}))
    return keys


def estimated_figures(
    sizes: list[InstanceType],
    lines: dict[LineKey, bool],
    region: Region,
) -> dict[tuple[int, LineKey], tuple[float, dict[str, Any]]]:
    """(figure, estimate) by (size id, line) for each Fargate size on each line (`lines`: the
    line's higher-is-better) it can be estimated on; empty without a kept basis."""
    kept = fargate_estimates.estimate_basis(region) if sizes else None
    if kept is None or not kept.spec_of:
        return {}
    wanted = {
        line: orjson.loads(line[2])
        for line in lines
        if not line[1]  # a variant is a setup of the measured types' own
        and not fargate_estimate.runs_on_gpu(line[0], orjson.loads(line[2]))
    }
    wanted = {line: params for line, params in wanted.items() if "busy" not in params}
    if not wanted:
        return {}
    # Through the series, by benchmark and type: the index SQLite and PostgreSQL both answer
    # from (the statistics' own type column has none).
    rows = SeriesStatistics.objects.filter(
        measured_in=SeriesStatistics.ALL_REGIONS,
        only_flagged=False,
        series__variant="",
        series__instance_type__in=list(kept.spec_of),
        series__benchmark__key__in={key for key, _variant, _params in wanted},
        series__params_key__in=_source_keys(wanted.values()),
    ).values_list(
        "series__instance_type_id",
        "series__instance_type__name",
        "series__instance_type__vcpus",
        "series__instance_type__burstable",
        "series__benchmark__key",
        "series__params_key",
        "median",
        "cpu_models",
    )
    groups: dict[tuple, list[Source]] = defaultdict(list)
    for type_id, name, vcpus, burstable, key, keyed, median, models in rows:
        spec = kept.spec_of[type_id]
        known = [model for model in models if model != cpu_models.UNKNOWN]
        # Runs that say another processor are no figure of this one.
        if known and not any(fargate_estimate.same_processor(spec, model) for model in known):
            continue
        params = orjson.loads(keyed)
        groups[spec, key, _rest(params)].append(
            Source(
                instance_type=name,
                vcpus=float(vcpus or 0),
                median=median,
                processes=fargate_estimate.processes_of(params),
                burstable=burstable,
            )
        )
    found = {}
    for line, params in wanted.items():
        key, rest = line[0], _rest(params)
        for size in sizes:
            if size.vcpus is None:
                continue
            estimate = fargate_estimates.estimate_size(
                kept,
                size.architecture,
                float(size.vcpus),
                lambda spec, key=key, rest=rest: groups.get((spec, key, rest), ()),
                processes=fargate_estimate.processes_of(params),
                higher_is_better=lines[line],
            )
            if estimate is not None:
                found[size.pk, line] = estimate
    return found
