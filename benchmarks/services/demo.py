"""The bundled demo: real prices, the published studies' results and Spare Cores' figures,
with their sources; then the other clouds' (Hetzner Cloud, Google Cloud, Azure): their types'
specifications, Spare Cores' figures and the prices of the samples the project bundles.
Spare Cores' figures are read and written in bulk by services/demo_figures.py."""

from __future__ import annotations

import csv
import json
import os
import tempfile
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from benchmarks.fargate_estimate import ESTIMATE_SOURCE_FAMILIES
from benchmarks.models import InstanceType, Run, Vendor, family_of
from benchmarks.pricing import snapshot
from benchmarks.pricing.snapshot import DEMO_DIR
from benchmarks.selectors.pages.comparison import DEFAULT_FAMILIES
from benchmarks.services import prices as price_services
from benchmarks.services import runs as run_services
from benchmarks.services import statistics
from benchmarks.services.demo_figures import (
    SparecoresDemoSummary,
    load_sparecores_demo,
    machines_of,
)
from benchmarks.services.prices import ImportSummary, other_clouds

# The families the first part loads (`loaddemo --part first`); the rest part, the others.
FIRST_FAMILIES = (*DEFAULT_FAMILIES, *ESTIMATE_SOURCE_FAMILIES)

S1_SOURCE = (
    "Study S1, Fargate vCPU performance and price (December 2017, us-east-1): raw lscpu and "
    "openssl speed output published with the study"
)
S2_SOURCE = (
    "Study S2, Keycloak on Graviton3 (April 2024, ap-northeast-1): published relative results. "
    "The study quoted 0.091, 0.1292 and 0.11235 USD/h for c7g, c7a and c7i, which are the "
    "Tokyo on-demand prices of the .large sizes; the runs were on .xlarge types, priced here "
    "at their own prices. The study found c7i the slowest but published no figure for it: "
    "c7i is left out rather than invented."
)

S3_SOURCE = (
    "Study S3, 100 GbE between EC2 instances (September 2019, us-west-2): published figures, "
    "iperf3 between two c5n.18xlarge. The study gave ranges, not single results: one process "
    "near 25 Gbps from about 6 streams, 80-100 Gbps from about 20 single-stream processes "
    "(its two ends stored as two results); the receiver's figure is assumed"
)


@dataclass
class DemoSummary:
    """What `loaddemo` read and stored."""

    prices: ImportSummary
    specs: ImportSummary | None = None  # Spare Cores' specifications of every AWS type
    runs_stored: int = 0
    runs_present: int = 0


def _load(summary: DemoSummary, **submission) -> Run:
    run, created = run_services.record_run(**submission)
    if run.status == Run.Status.FAILED:
        # The bundled files are known good: a failure is a parser regression, not bad input.
        raise RuntimeError(f"demo file {submission.get('filename')} failed: {run.error}")
    if created:
        summary.runs_stored += 1
    else:
        summary.runs_present += 1
    return run


S1_DIR = DEMO_DIR / "s1-fargate-openssl"


def s1_observations() -> dict[str, int]:
    """File name -> how many of study S1's tasks it stands for (its SOURCE.md says whence);
    a file not listed, one."""
    with (S1_DIR / "observations.csv").open(newline="", encoding="utf-8") as listed:
        return {row["file"]: int(row["observations"]) for row in csv.DictReader(listed)}


def _observed(run: Run, observations: int) -> None:
    """A run loaded before its observations were counted takes them; its statistics follow."""
    if run.observations != observations:
        Run.objects.filter(pk=run.pk).update(observations=observations)
        statistics.refresh_series(statistics.series_of_runs([run.pk]))


@transaction.atomic
def load_demo() -> DemoSummary:
    """Load the bundled prices and results; loading again stores nothing new."""
    summary = DemoSummary(prices=price_services.import_snapshot())
    # Every AWS type's specifications, in bulk: the types Spare Cores' figures bring later
    # (`loaddemo --part rest`) arrive specified. AWS's own figures stay where they are known.
    summary.specs = price_services.import_bundled_specs()
    observed = s1_observations()
    for path in sorted(S1_DIR.glob("*.txt")):
        instance_type = path.name.split("__", 1)[0]
        observations = observed.get(path.name, 1)
        run = _load(
            summary,
            content=path.read_bytes(),
            filename=path.name,
            instance_type_name=instance_type,
            region_code="us-east-1",
            source=S1_SOURCE,
            licence="as published with the study",
            observations=observations,
        )
        _observed(run, observations)
    _load(
        summary,
        content=(DEMO_DIR / "s2_keycloak_graviton3.csv").read_bytes(),
        filename="s2_keycloak_graviton3.csv",
        format="csv",
        source=S2_SOURCE,
        licence="as published with the study",
    )
    _load(
        summary,
        content=(DEMO_DIR / "s3_iperf3_c5n.csv").read_bytes(),
        filename="s3_iperf3_c5n.csv",
        format="csv",
        source=S3_SOURCE,
        licence="as published with the study",
    )
    # What the comparison page opens on: Spare Cores' figures of its default families, and of
    # the Graviton2 family its estimated arm64 Fargate rows come from.
    sparecores_summary = load_sparecores_demo(families=FIRST_FAMILIES)
    summary.runs_stored += sparecores_summary.runs_stored
    summary.runs_present += sparecores_summary.runs_present
    # A database loaded before statistics were kept gets them now.
    if statistics.needs_rebuild():
        statistics.rebuild_statistics()
    return summary


# ---- the other clouds ------------------------------------------------------------------

# The other clouds the demo bundles, in the order it loads them: the smallest first, so that
# one of them is complete early.
OTHER_CLOUDS = (Vendor.HCLOUD, Vendor.GCP, Vendor.AZURE)


@dataclass
class CloudDemoSummary:
    """What loading one other cloud's part of the demo read and stored."""

    vendor: str
    specs: ImportSummary | None = None
    figures: SparecoresDemoSummary = field(default_factory=SparecoresDemoSummary)
    prices: ImportSummary | None = None

    @property
    def loaded(self) -> bool:
        """Whether any of its types was asked for (a families filter may leave none)."""
        return self.specs is not None


def load_cloud_demo(
    *,
    vendor: str,
    families: Collection[str] | None = None,
    progress: Callable[[int, int, SparecoresDemoSummary], None] | None = None,
) -> CloudDemoSummary:
    """Load another cloud's part of the demo: its types' specifications (the bundled table),
    then Spare Cores' figures of its types (`load_sparecores_demo`), then its prices
    (`load_cloud_prices`), each in transactions of its own; loading again stores nothing.

    With `families`, only their figures and prices, and nothing at all of a vendor that has
    none of them.
    """
    if vendor not in OTHER_CLOUDS:
        raise ValueError(f"{vendor!r} is not one of the other clouds the demo bundles")
    summary = CloudDemoSummary(vendor)
    if families is not None and not machines_of(frozenset(families), vendor):
        return summary
    summary.specs = price_services.import_bundled_specs(vendor=vendor)
    summary.figures = load_sparecores_demo(vendor=vendor, families=families, progress=progress)
    summary.prices = load_cloud_prices(vendor=vendor, families=families)
    return summary


@transaction.atomic
def load_cloud_prices(*, vendor: str, families: Collection[str] | None = None) -> ImportSummary:
    """Store a vendor's bundled prices (of these families' types, when given) through the
    other clouds' writer, creating the regions they name; loading again stores nothing."""
    rows = [
        (record, name)
        for record, name in snapshot.read_cloud_prices()
        if record.vendor == vendor
        and (families is None or family_of(InstanceType.Kind.VM, record.instance_type) in families)
    ]
    return other_clouds.record_quoted_prices(
        [record for record, _ in rows],
        region_names={record.region: name for record, name in rows},
        read=len(rows),
        source=f"the bundled prices of {vendor} ({snapshot.CLOUD_PRICES_FILE.name})",
    )


class ProgressFile:
    """Where a background load says how far it got, for the comparison page's note
    (selectors/pages/demo.py): settings.PRICEBENCH_DEMO_PROGRESS_FILE, removed when it ends."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def update(self, done: int, total: int, summary: SparecoresDemoSummary) -> None:
        """Write the state atomically (a reader never sees half a file), through a temporary
        file of this process's own: two loads never rename each other's."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        state = {
            "done": done,
            "total": total,
            "results": summary.results,
            "updated_at": time.time(),
            "pid": os.getpid(),
        }
        handle, partial = tempfile.mkstemp(
            dir=self.path.parent, prefix=f"{self.path.stem}.", suffix=".tmp"
        )
        try:
            with os.fdopen(handle, "w") as file:
                json.dump(state, file)
            os.replace(partial, self.path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise

    def clear(self) -> None:
        """The load ended (or stopped): no more note."""
        self.path.unlink(missing_ok=True)
