"""The run page: a run's figures as they read, its raw output, and the comparisons it feeds.

Three queries whatever the run's size: the run, its child runs (a table's machines), and
every result of both with its benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from benchmarks import cpu_models, flags, inspector, units
from benchmarks.models import HeldResult, Result, Run
from benchmarks.parsers.base import Measurement
from benchmarks.selectors.pages.comparison import DEFAULT_FAMILIES

# Raw outputs beyond this many characters are cut on the page (the API has them whole).
RAW_SHOWN = 200_000


@dataclass(frozen=True)
class ResultLine(Measurement):
    """One result as it reads, and the comparison it counts in."""

    shown: str
    notes: str
    flag: str | None
    comparison_url: str
    # Held for review (services/screening.py): kept, counted in no comparison.
    held: bool = False


@dataclass
class MachineRuns:
    """A machine's results within a run: the run itself, or one child run of a table."""

    run: Run
    cpu_model: str
    flags: list[str]
    results: list[ResultLine] = field(default_factory=list)


@dataclass
class RunPage:
    """Everything the run page shows."""

    run: Run
    machines: list[MachineRuns]
    flags: list[str]
    # The credit line the run's source asks for (Spare Cores'), if any.
    credit: str | None = None

    @property
    def raw_output(self) -> str:
        return self.run.raw_output[:RAW_SHOWN]

    @property
    def raw_cut(self) -> bool:
        return len(self.run.raw_output) > RAW_SHOWN

    @property
    def results(self) -> int:
        return sum(len(machine.results) for machine in self.machines)


def comparison_url(run: Run, benchmark: str, params: dict[str, Any]) -> str:
    """The comparison a result counts in: its benchmark and parameters, its machine's family
    beside the default ones, priced where it was measured."""
    family = run.instance_type.family if run.instance_type_id else None
    families = list(dict.fromkeys([*DEFAULT_FAMILIES, *([family] if family else [])]))
    query = {"benchmark": benchmark, **{name: str(value) for name, value in params.items()}}
    if run.region_id:
        query["region"] = run.region.code
    query["families"] = ",".join(families)
    return f"{reverse('comparison')}?{urlencode(query)}"


def run_page(run_id: int) -> RunPage:
    """The page of one run; Run.DoesNotExist for an unknown id."""
    run = Run.objects.select_related("instance_type", "region").get(pk=run_id)
    children = list(run.children.select_related("instance_type", "region").order_by("pk"))
    machines = {
        machine.pk: MachineRuns(
            machine, cpu_models.normalise(machine.cpu_model), flags.run_flags(machine.warnings)
        )
        for machine in [run, *children]
    }
    results = (
        Result.objects.filter(run_id__in=list(machines))
        .select_related("benchmark")
        .annotate(
            held=Exists(HeldResult.objects.filter(pk=OuterRef("pk"), status=HeldResult.Status.HELD))
        )
        .order_by("run_id", "benchmark__key", "id")
    )
    readings: dict[str, units.Reading] = {}
    for result in results:
        benchmark = result.benchmark
        reading = readings.get(benchmark.key) or readings.setdefault(
            benchmark.key,
            units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better),
        )
        machine = machines[result.run_id]
        machine.results.append(
            ResultLine(
                benchmark=benchmark.key,
                params=result.params,
                value=result.value,
                shown=reading.value.format(result.value),
                unit=benchmark.unit,
                notes=result.notes,
                flag=(machine.flags[0] if machine.flags else flags.result_flag(result.notes)),
                comparison_url=comparison_url(machine.run, benchmark.key, result.params),
                held=result.held,
            )
        )
    shown = [machine for machine in machines.values() if machine.results or machine.run is run]
    credit = inspector.credit_for(machine.run.source for machine in machines.values())
    return RunPage(run=run, machines=shown, flags=flags.run_flags(run.warnings), credit=credit)


def held_results(*, run_id: int) -> int:
    """How many results of a run (a table's: of its row runs) are held for review
    (services/screening.py): kept, counted nowhere. One query."""
    return (
        HeldResult.objects.filter(status=HeldResult.Status.HELD)
        .filter(Q(result__run_id=run_id) | Q(result__run__parent_id=run_id))
        .count()
    )
