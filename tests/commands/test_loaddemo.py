"""`manage.py loaddemo`: the bundled prices, studies and Spare Cores' figures, loaded once
however often it runs; `--part first` before the server starts, `--part rest` behind it."""

import csv
import io
import json
import lzma
import re
from functools import cache

import pytest
from django.core.management import call_command

from benchmarks.models import (
    FargateRate,
    InstanceType,
    Price,
    Result,
    Run,
    WorkloadMatrix,
    family_of,
)
from benchmarks.selectors.pages import demo as demo_selectors
from benchmarks.selectors.pages.comparison import DEFAULT_FAMILIES
from benchmarks.selectors.subjects import workload_vectors
from benchmarks.services import demo, demo_figures
from tests import inspector_data

pytestmark = pytest.mark.django_db

# The default families with figures of Spare Cores', and c6g: the Graviton2 family the first
# page's estimated arm64 Fargate rows come from (docs/fargate.md).
FIRST_FAMILIES = {"t2", "c7g", "c7a", "c7i", "c6g"}


@cache
def bundled_rows() -> list[dict[str, str]]:
    with lzma.open(demo_figures.SPARECORES_FILE, "rt", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def bundled(families: set[str]) -> tuple[set[str], set[str], int]:
    """The bundled file's instance types, run paths and figures of these families."""
    rows = [
        row
        for row in bundled_rows()
        if family_of(InstanceType.Kind.EC2, row["instance_type"]) in families
    ]
    return {row["instance_type"] for row in rows}, {row["path"] for row in rows}, len(rows)


def counts():
    return (
        Price.objects.count(),
        FargateRate.objects.count(),
        Run.objects.count(),
        Result.objects.count(),
    )


# Committed as it goes, as in use: PostgreSQL's planner then has statistics on the results
# table, which it never gets for rows a test's transaction holds uncommitted.
@pytest.mark.django_db(transaction=True)
def test_the_first_part_holds_the_default_families_and_loads_once(reference_data, capsys):
    call_command("loaddemo", "--part", "first")
    first = counts()
    assert all(count > 0 for count in first)
    assert Run.objects.filter(status="failed").count() == 0
    types, paths, figures = bundled(FIRST_FAMILIES)
    spare_cores = Run.objects.filter(source__startswith="Spare Cores")
    assert set(spare_cores.values_list("filename", flat=True)) == paths
    assert set(spare_cores.values_list("instance_type__name", flat=True)) == types
    assert Result.objects.filter(run__in=spare_cores).count() == figures
    assert set(spare_cores.values_list("licence", flat=True)) == {"CC BY-SA 4.0"}
    assert not spare_cores.exclude(region=None).exists()
    assert not Run.objects.filter(source="").exists()
    assert not Run.objects.filter(licence="").exists()
    # All ten kinds, for the page's default families, and of the newer ones stress-ng at
    # every load and c7g.large's 24-hour run.
    assert {path.split("/")[2] for path in paths} == {
        "openssl",
        "redis",
        "static_web",
        "compression_text",
        "bw_mem",
        "stressng",
        "stressngsinglecore",
        "llm",
        "geekbench",
        "passmark",
        "stressngfull",
        "stressnglongrun",
    }

    # The workload model's matrix stored as the data stands: a first question reads it.
    assert WorkloadMatrix.objects.get().stamps == workload_vectors._version()[2]

    call_command("loaddemo", "--part", "first")
    assert counts() == first
    assert "runs stored 0" in capsys.readouterr().out.splitlines()[-1]


def test_the_rest_loads_other_families_with_progress_and_stops_at_stored_types():
    seen = []
    families = {"h1"}
    # What `loaddemo --part rest` leaves out: the default families, loaded before.
    summary = demo.load_sparecores_demo(
        families=families | {"t2"},
        exclude_families=DEFAULT_FAMILIES,
        progress=lambda done, total, summary: seen.append((done, total)),
    )
    types, paths, figures = bundled(families)
    # h1.2xlarge and h1.16xlarge, and h1.4xlarge and h1.8xlarge of the newer kinds' archive
    # alone (stressngfull)
    assert len(types) == 4
    assert not Run.objects.filter(instance_type__name__startswith="t2.").exists()
    assert (summary.instance_types, summary.runs_stored, summary.results) == (
        len(types),
        len(paths),
        figures,
    )
    # Before the first type, then after each transaction (of up to MACHINES_PER_TRANSACTION).
    assert seen[0] == (0, len(types)) and seen[-1] == (len(types), len(types))
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})
    # Loading again finds every type stored without writing.
    again = demo.load_sparecores_demo(families=families)
    assert (again.instance_types, again.instance_types_present) == (0, len(types))
    assert again.runs_present == len(paths)
    assert Result.objects.count() == figures


@pytest.mark.django_db(transaction=True)
def test_import_sparecores_over_the_demo_finds_its_runs_stored(reference_data, tmp_path):
    """The demo's runs carry the archive files' natural keys: importing the archive over the
    demo stores nothing new for the types they share."""
    demo.load_sparecores_demo(families={"c7g"})
    stored = Run.objects.filter(instance_type__name="c7g.large")
    kinds = sorted(name.split("/")[2] for name in stored.values_list("filename", flat=True))
    # The main archive's ten kinds, and two newer ones from their own (more/aws.tar.xz).
    newer = {"stressngfull", "stressnglongrun"}
    assert [kind for kind in kinds if kind in newer] == sorted(newer)
    runs = len(kinds) - len(newer)
    results = Result.objects.count()
    assert runs == 10
    archive = inspector_data.write_archive(
        tmp_path / "c7g.tar.gz", inspector_data.files_of(("c7g.large",)), compression="gz"
    )
    out = io.StringIO()
    call_command("import_sparecores", str(archive), "--jobs", "1", stdout=out, stderr=io.StringIO())
    assert re.search(
        r"runs: ([\d,]+) stored, ([\d,]+) already present", out.getvalue()
    ).groups() == (
        "0",
        str(runs),
    )
    assert (stored.count(), Result.objects.count()) == (runs + len(newer), results)


def test_the_page_notes_a_background_load_while_it_runs(settings, tmp_path):
    settings.PRICEBENCH_DEMO_PROGRESS_FILE = tmp_path / "demo-loading.json"
    assert demo_selectors.loading_note() is None
    progress = demo.ProgressFile(settings.PRICEBENCH_DEMO_PROGRESS_FILE)
    progress.update(120, 846, demo.SparecoresDemoSummary(results=57_000))
    note = demo_selectors.loading_note()
    assert "still loading in the background: 120 of 846" in note
    assert "57,000 results" in note
    # A file left by a load that died long ago says nothing.
    state = json.loads(settings.PRICEBENCH_DEMO_PROGRESS_FILE.read_text())
    state["updated_at"] -= demo_selectors.STALE_SECONDS + 1
    settings.PRICEBENCH_DEMO_PROGRESS_FILE.write_text(json.dumps(state))
    assert demo_selectors.loading_note() is None
    progress.clear()
    assert not settings.PRICEBENCH_DEMO_PROGRESS_FILE.exists()


def test_the_log_says_what_a_cloud_s_specifications_created_and_counts_with_separators(capsys):
    call_command("loaddemo", "--part", "clouds", "--families", "cax")
    out = capsys.readouterr().out
    (hetzner,) = [line for line in out.splitlines() if line.startswith("Hetzner Cloud (hcloud)")]
    created = InstanceType.objects.filter(vendor="hcloud").count()
    assert f"specifications read {created:,}: {created:,} instance types created, 0 updated" in (
        hetzner
    )
    # The prices' counts (stored, unchanged) are not said of specifications.
    assert "instance types created)" not in hetzner
    # Every count of four digits or more is written with thousands separators.
    assert not re.findall(r"(?<![\d,.])\d{4,}(?![\d,.])", out), out
