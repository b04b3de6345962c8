"""The bundled demo: real prices and the published studies' results, with their sources."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from benchmarks.models import Run
from benchmarks.services import prices as price_services
from benchmarks.services import runs as run_services
from benchmarks.services import statistics
from benchmarks.services.prices import ImportSummary

DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"

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
SPARECORES_SOURCE = (
    "Benchmark data: Spare Cores (sparecores.com), sc-inspector-data commit 804d3c71"
)
SPARECORES_LICENCE = "CC BY-SA 4.0"


@dataclass
class DemoSummary:
    """What `loaddemo` read and stored."""

    prices: ImportSummary
    runs_stored: int = 0
    runs_present: int = 0


def _load(summary: DemoSummary, **submission) -> None:
    run, created = run_services.record_run(**submission)
    if run.status == Run.Status.FAILED:
        # The bundled files are known good: a failure is a parser regression, not bad input.
        raise RuntimeError(f"demo file {submission.get('filename')} failed: {run.error}")
    if created:
        summary.runs_stored += 1
    else:
        summary.runs_present += 1


@transaction.atomic
def load_demo() -> DemoSummary:
    """Load the bundled prices and results; loading again stores nothing new."""
    summary = DemoSummary(prices=price_services.import_snapshot())
    for path in sorted((DEMO_DIR / "s1-fargate-openssl").glob("*.txt")):
        instance_type = path.name.split("__", 1)[0]
        _load(
            summary,
            content=path.read_bytes(),
            filename=path.name,
            instance_type_name=instance_type,
            region_code="us-east-1",
            source=S1_SOURCE,
            licence="as published with the study",
        )
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
        content=(DEMO_DIR / "sparecores_openssl.csv").read_bytes(),
        filename="sparecores_openssl.csv",
        format="csv",
        source=SPARECORES_SOURCE,
        licence=SPARECORES_LICENCE,
    )
    # A database loaded before statistics were kept gets them now.
    if statistics.needs_rebuild():
        statistics.rebuild_statistics()
    return summary
