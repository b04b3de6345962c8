"""Parsed results on their way into the database: their benchmarks (created when new),
one row per result in its series, a table's child run per machine."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from benchmarks import catalog
from benchmarks.models import Benchmark, Region, Result, Run
from benchmarks.parsers import ParsedOutput, ParsedResult, ParseError
from benchmarks.selectors.answer.lookups import by_name, get_region, types_by_names
from benchmarks.services import screening, statistics


def _new_benchmark(result: ParsedResult) -> Benchmark:
    group, description = catalog.describe(result.benchmark, result.unit, result.higher_is_better)
    return Benchmark(
        key=result.benchmark,
        unit=result.unit,
        higher_is_better=result.higher_is_better,
        group=group,
        description=description,
    )


def benchmarks_of(
    outputs: Sequence[list[ParsedResult]],
) -> tuple[dict[str, Benchmark], dict[int, str]]:
    """The benchmarks of these outputs' results by key, new ones created (three queries at
    most), and the outputs refused, by index, with why: a result whose unit disagrees with its
    benchmark's, stored already or given by an earlier output. A refused output's new
    benchmarks are not created."""
    keys = {result.benchmark for results in outputs for result in results}
    # Without the kept summaries (params, families), which only the statistics read.
    wanted = Benchmark.objects.only("key", "unit")
    found = {b.key: b for b in wanted.filter(key__in=keys)}
    units = {key: benchmark.unit for key, benchmark in found.items()}
    first: dict[str, ParsedResult] = {}
    refused: dict[int, str] = {}
    for index, results in enumerate(outputs):
        introduced: dict[str, ParsedResult] = {}
        for result in results:
            unit = units.get(result.benchmark)
            if unit is None:
                unit = introduced.setdefault(result.benchmark, result).unit
            if unit != result.unit:
                refused[index] = f"{result.benchmark} is measured in {unit!r}, not {result.unit!r}"
                break
        else:
            units.update((key, result.unit) for key, result in introduced.items())
            first.update(introduced)
    if first:
        Benchmark.objects.bulk_create(
            [_new_benchmark(result) for result in first.values()],
            ignore_conflicts=True,  # another upload may create the same benchmark
        )
        found.update((b.key, b) for b in wanted.filter(key__in=first))
    for index, results in enumerate(outputs):
        if index in refused:
            continue
        for result in results:
            unit = found[result.benchmark].unit
            if unit != result.unit:
                # Another upload created the benchmark meanwhile, in another unit.
                raise ParseError(f"{result.benchmark} is measured in {unit!r}, not {result.unit!r}")
    return found, refused


@dataclass(slots=True)
class ResultRow:
    """A result on its way into the database: a plain slotted record, which bulk imports of
    hundreds of thousands of results make far more cheaply than Result instances."""

    run: Run
    benchmark_id: int
    params: dict[str, Any]
    value: float
    notes: str
    series_id: int | None = None  # set by statistics.attach_series

    @property
    def run_id(self) -> int:
        return self.run.pk


def result_rows(
    run: Run, results: list[ParsedResult], benchmarks: dict[str, Benchmark]
) -> list[ResultRow]:
    """One row per result of an output that names no machine of its own: all in `run`."""
    return [
        ResultRow(
            run=run,
            benchmark_id=benchmarks[result.benchmark].pk,
            params=result.params,
            value=result.value,
            notes=result.notes or "",
        )
        for result in results
    ]


def store(rows: list[ResultRow]) -> tuple[set[int], dict[int, list[tuple]]]:
    """Store results in their series, all of an upload at once; returns the series this
    created and the others' kept statistics rows, locked (`statistics.lock_kept`), both for
    `statistics.refresh_stored` once the runs are saved.

    An uploaded result the screen holds (services/screening.py) is stored out of its series,
    its row's `series_id` None: the caller refreshes the statistics of the others only.
    """
    # Keyed once per dict: the results of one parameter set may share it (the bundled demo's).
    keyed: dict[int, str] = {}
    keys = []
    for row in rows:
        key = keyed.get(id(row.params))
        if key is None:
            key = keyed[id(row.params)] = statistics.params_key(row.params)
        keys.append(key)
    created = statistics.attach_series(rows, keys=keys)
    # Read once, under the series' locks: the screen judges against them, the merge adds to
    # them (read twice, they cost an upload a tenth of its worker's time: issue 56).
    kept = statistics.lock_kept({row.series_id for row in rows} - created)
    held = screening.screen(rows, created=created, kept=kept)
    for index in held:
        rows[index].series_id = None
    stored = statistics.stored_params(keys, [row.params for row in rows])
    statistics.insert_rows(
        Result,
        ("run_id", "benchmark_id", "params", "value", "notes", "series_id"),
        (
            (r.run_id, r.benchmark_id, params, r.value, r.notes, r.series_id)
            for r, params in zip(rows, stored, strict=True)
        ),
    )
    if held:
        screening.hold(rows, held)
    return created, kept


def tabular_rows(
    run: Run, parsed: ParsedOutput, benchmarks: dict[str, Benchmark]
) -> list[ResultRow]:
    """A table names its machines per row: one child run per machine, variant, date, CPU."""
    groups: dict[tuple, list[ParsedResult]] = defaultdict(list)
    for result in parsed.results:
        key = (
            result.instance_type or (run.instance_type.name if run.instance_type_id else None),
            result.region or (run.region.code if run.region_id else None),
            result.variant if result.variant is not None else run.variant,
            result.measured_at or (run.measured_at.isoformat() if run.measured_at else None),
            result.cpu_model or "",
            result.source or run.source,
            result.licence or run.licence,
        )
        if key[0] is None or key[1] is None:
            raise ParseError(f"{result.benchmark}: a row needs an instance_type and a region")
        groups[key].append(result)
    # A row may name another cloud's type as vendor:name (azure:Standard_D2s_v5).
    instance_types = types_by_names({key[0] for key in groups})
    regions = by_name(Region, "code", {key[1] for key in groups}, get_region)
    now = timezone.now()
    children = Run.objects.bulk_create(
        Run(
            parent=run,
            instance_type=instance_types[type_name],
            region=regions[region_code],
            variant=variant or "",
            cpu_model=cpu_model,
            measured_at=datetime.date.fromisoformat(measured_at) if measured_at else None,
            format=parsed.format,
            status=Run.Status.DONE,
            source=source,
            licence=licence,
            uploaded_by=run.uploaded_by,
            upload_token_id=run.upload_token_id,
            finished_at=now,
        )
        for type_name, region_code, variant, measured_at, cpu_model, source, licence in groups
    )
    rows: list[ResultRow] = []
    for child, results in zip(children, groups.values(), strict=True):
        rows.extend(result_rows(child, results, benchmarks))
    return rows
