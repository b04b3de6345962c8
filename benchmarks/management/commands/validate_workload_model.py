"""`python manage.py validate_workload_model [--vendor aws]`: each tool held out of the workload
model in turn plays a buyer (five types' figures in, every other type's as the truth) and the
table says the model's median error and 90% interval coverage (docs/workload.md shows it)."""

import time

import numpy as np
from django.core.management.base import BaseCommand

from benchmarks.selectors.workload_vectors import load_vectors
from benchmarks.workload import validation


class Command(BaseCommand):
    help = (
        "Hold each benchmark tool out of the workload model in turn: five types' figures of "
        "its best-covered parameter set in, every other type's figure the truth; print the "
        "median error, the 90% interval coverage and the single best benchmark's error."
    )

    def add_arguments(self, parser):
        parser.add_argument("--vendor", default="aws", help="the cloud whose types play (aws)")
        parser.add_argument("--tool", action="append", help="only this tool (repeatable)")

    def handle(self, *args, **options):
        started = time.monotonic()
        loaded = load_vectors()
        vectors = loaded.vectors
        cloud = np.array([loaded.types[t].vendor == options["vendor"] for t in vectors.types])
        tools = [column.tool for column in loaded.columns]
        wanted = options["tool"] or sorted(set(tools))
        cases = []
        header = (
            f"{'tool held out':<13} {'workload':<44} {'method':<6} {'types':>5} "
            f"{'median error':>12} {'coverage':>8} {'single best':>11}  benchmarks used"
        )
        self.stdout.write(header)
        for tool in wanted:
            case = validation.hold_out(vectors, tools, tool, cloud)
            if case is None:
                self.stdout.write(f"{tool:<13} (too few {options['vendor']} types)")
                continue
            cases.append(case)
            column = loaded.columns[case.column]
            used = ", ".join(_name(loaded.columns[c]) for c in case.used)
            self.stdout.write(
                f"{tool:<13} {_name(column)[:44]:<44} {case.method:<6} {case.predictions:>5} "
                f"{_share(case.median_error):>12} {_share(case.coverage):>8} "
                f"{_share(case.single_error):>11}  {used}{'  LEAKED' if case.leaked else ''}"
            )
        total = validation.summary(cases)
        self.stdout.write(
            f"\n{total['cases']} tools held out: median error over all predictions "
            f"{_share(total['median_error'])} (median of the tools' "
            f"{_share(total['median_of_tools'])}), 90% intervals covered "
            f"{_share(total['interval_coverage'])} of {sum(c.predictions for c in cases):,} "
            f"truths; model named a held-out tool's benchmark in "
            f"{sum(c.leaked for c in cases)} ({time.monotonic() - started:.1f} s)"
        )


def _name(column) -> str:
    params = ",".join(f"{k}={v}" for k, v in column.params.items())
    return f"{column.benchmark} ({params})" if params else column.benchmark


def _share(value) -> str:
    return "-" if value is None else f"{value:.1%}"
