"""`python manage.py validate_workload_model [--vendor aws] [--write]`: each tool held out of the
workload model in turn plays a buyer (five types' figures in, every other type's as the truth)
and the table says the model's median error and 90% interval coverage (docs/workload.md shows
it). `--write` keeps the overall figures for every answer to quote (validation.HELD_OUT_FILE)."""

import time

import numpy as np
from django.core.management.base import BaseCommand, CommandError

from benchmarks.selectors.subjects.workload_vectors import VCPUS, load_vectors
from benchmarks.workload import validation
from benchmarks.workload.validation import share

# How many of the model's benchmarks a line names (heaviest first).
USED_NAMED = 3


class Command(BaseCommand):
    help = (
        "Hold each benchmark tool out of the workload model in turn: five types' figures of "
        "its best-covered parameter set in, every other type's figure the truth; print the "
        "median error, the 90% interval coverage and the single best benchmark's error."
    )

    def add_arguments(self, parser):
        parser.add_argument("--vendor", default="aws", help="the cloud whose types play (aws)")
        parser.add_argument("--tool", action="append", help="only this tool (repeatable)")
        parser.add_argument(
            "--workloads",
            choices=["table", "others"],
            default="table",
            help="table: each tool's parameter set on the most types (what docs and answers "
            "quote); others: every other benchmark's, its tool held out (a check on "
            "workloads the method was not chosen on)",
        )
        parser.add_argument(
            "--random-given",
            type=int,
            metavar="SEED",
            help="the five given types drawn at random among the well-covered (this seed) "
            "instead of spread over the workload's range",
        )
        parser.add_argument(
            "--write",
            action="store_true",
            help=f"keep the overall figures for the answers to quote "
            f"({validation.HELD_OUT_FILE.name}); every tool must play",
        )

    def handle(self, *args, **options):
        if options["write"] and options["tool"]:
            raise CommandError("--write keeps every tool's figures: give no --tool")
        if options["write"] and (
            options["workloads"] != "table" or options["random_given"] is not None
        ):
            raise CommandError("--write keeps the table's figures: not with a check's options")
        started = time.monotonic()
        loaded = load_vectors()
        vectors = loaded.vectors
        cloud = np.array([loaded.types[t].vendor == options["vendor"] for t in vectors.types])
        tools = [column.tool for column in loaded.columns]
        # The vCPU count is a column the model learns from, not a benchmark a buyer runs.
        wanted = options["tool"] or sorted(set(tools) - {VCPUS})
        if options["workloads"] == "others":
            plays = [
                (tool, column)
                for tool, column in validation.other_workloads(vectors, tools, cloud)
                if tool in wanted
            ]
        else:
            plays = [(tool, None) for tool in wanted]
        seed = options["random_given"]
        cases = []
        header = (
            f"{'tool held out':<13} {'workload':<44} {'method':<6} {'types':>5} "
            f"{'median error':>12} {'coverage':>8} {'single best':>11}  benchmarks used"
        )
        self.stdout.write(header)
        for tool, column in plays:
            rng = None if seed is None else np.random.default_rng(seed)
            case = validation.hold_out(vectors, tools, tool, cloud, column=column, rng=rng)
            if case is None:
                self.stdout.write(f"{tool:<13} (too few {options['vendor']} types)")
                continue
            cases.append(case)
            column = loaded.columns[case.column]
            # `bayes` averages dozens: the heaviest few named, the rest counted.
            used = ", ".join(loaded.columns[c].label for c in case.used[:USED_NAMED])
            if len(case.used) > USED_NAMED:
                used += f" (+{len(case.used) - USED_NAMED})"
            self.stdout.write(
                f"{tool:<13} {column.label[:44]:<44} {case.method:<6} {case.predictions:>5} "
                f"{share(case.median_error):>12} {share(case.coverage):>8} "
                f"{share(case.single_error):>11}  {used}{'  LEAKED' if case.leaked else ''}"
            )
        total = validation.summary(cases)
        self.stdout.write(
            f"\n{validation.overall_line(total)} ({time.monotonic() - started:.1f} s)"
        )
        if options["write"]:
            validation.write_held_out(total)
            self.stdout.write(f"Written to {validation.HELD_OUT_FILE}")
