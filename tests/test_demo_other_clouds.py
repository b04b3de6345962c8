"""The bundled demo's other clouds (issue 28, item 2): Spare Cores' figures of Hetzner Cloud,
Google Cloud and Azure in the project's own format, loaded after AWS with their types'
specifications and the prices of the bundled samples; AWS's answers unchanged.

Loads the Hetzner bundle whole (34 types); Google Cloud and Azure only a family each.
"""

import csv
import datetime
import io
import lzma
import re
from decimal import Decimal
from functools import cache

import pytest
from django.core.cache import caches
from django.core.management import call_command
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Price, Region, Result, Run, Vendor, vm_family
from benchmarks.pricing import snapshot
from benchmarks.services import demo, demo_figures
from tests.conftest import SHARED_DATA
from tests.selectors.test_price_performance import price

pytestmark = pytest.mark.django_db

# The main archive, then the newer kinds' (stressngfull, membench, stressnglongrun): the
# bundle holds the figures of both.
HCLOUD_ARCHIVES = (
    SHARED_DATA / "sparecores-inspector" / "hcloud.tar.xz",
    SHARED_DATA / "sparecores-inspector" / "more" / "hcloud.tar.xz",
)


@cache
def bundled(vendor: str) -> tuple[set[str], set[str], int]:
    """The vendor's bundled instance types, run paths and figures."""
    path = demo_figures.sparecores_file(vendor)
    with lzma.open(path, "rt", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {row["instance_type"] for row in rows}, {row["path"] for row in rows}, len(rows)


def import_archive() -> tuple[int, ...]:
    """import_sparecores of the Hetzner archives: the main one's instance types read and
    already imported, then the runs stored and already present and the results stored of
    both."""
    reports = []
    for archive in HCLOUD_ARCHIVES:
        out = io.StringIO()
        call_command("import_sparecores", str(archive), "--vendor", "hcloud", "--jobs", "1",
                     stdout=out, stderr=io.StringIO())  # fmt: skip
        reports.append(out.getvalue())
    types = re.search(r"instance types: ([\d,]+) read, .* ([\d,]+) already imported", reports[0])
    runs = [
        re.search(r"runs: ([\d,]+) stored, ([\d,]+) already present; results: ([\d,]+)", report)
        for report in reports
    ]
    return (
        *map(_number, types.groups()),
        *(sum(_number(found[group]) for found in runs) for group in (1, 2, 3)),
    )


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def counts() -> tuple[int, ...]:
    return (
        InstanceType.objects.count(),
        Run.objects.count(),
        Result.objects.count(),
        Price.objects.count(),
        Region.objects.count(),
    )


def price_performance(**options) -> dict:
    # Each answer computed afresh: a cached one could hide a change.
    caches["answers"].clear()
    response = APIClient().get(
        "/api/v1/price-performance/", {"benchmark": "passmark:cpu-mark", **options}
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_the_archive_imports_what_the_hetzner_bundle_holds():
    """What the demo must load the same: import_sparecores' own count of the archive."""
    types, paths, figures = bundled(Vendor.HCLOUD)
    assert len(types) == 34
    assert import_archive() == (34, 0, len(paths), 0, figures)


def test_the_hetzner_bundle_loads_its_34_types_and_the_archive_then_finds_them_stored():
    summary = demo.load_cloud_demo(vendor=Vendor.HCLOUD)
    types, paths, figures = bundled(Vendor.HCLOUD)
    assert summary.specs.instance_types_created == 34
    assert (summary.figures.instance_types, summary.figures.runs_stored) == (34, len(paths))
    assert summary.figures.results == figures == Result.objects.count()
    stored = InstanceType.objects.filter(vendor=Vendor.HCLOUD, series__isnull=False).distinct()
    assert set(stored.values_list("name", flat=True)) == types
    assert not InstanceType.objects.exclude(vendor=Vendor.HCLOUD).filter(name__in=types).exists()
    runs = Run.objects.filter(parent=None)
    assert set(runs.values_list("filename", flat=True)) == paths
    assert not runs.exclude(status="done").exists() and not runs.exclude(region=None).exists()
    assert set(runs.values_list("source", flat=True)) == {
        "Spare Cores (sparecores.com), sc-inspector-data (commit 804d3c71)"
    }
    assert set(runs.values_list("licence", flat=True)) == {"CC BY-SA 4.0"}
    cax11 = InstanceType.objects.get(vendor=Vendor.HCLOUD, name="cax11")
    assert (cax11.kind, cax11.family, cax11.vcpus, cax11.memory_gib) == ("vm", "cax", 2, 4)

    before = counts()
    assert import_archive() == (34, 34, 0, len(paths), 0)
    assert counts() == before


def test_loading_the_hetzner_part_again_stores_nothing():
    demo.load_cloud_demo(vendor=Vendor.HCLOUD)
    before = counts()
    again = demo.load_cloud_demo(vendor=Vendor.HCLOUD)
    assert (again.specs.instance_types_created, again.specs.specs_updated) == (0, 0)
    assert (again.figures.instance_types, again.figures.instance_types_present) == (0, 34)
    assert (again.figures.runs_stored, again.figures.results) == (0, 0)
    assert (again.prices.stored, again.prices.unchanged) == (0, again.prices.read)
    assert counts() == before


def test_the_demo_ranks_hetzner_per_euro_in_fsn1_at_the_samples_net_prices():
    summary = demo.load_cloud_demo(vendor=Vendor.HCLOUD)
    quoted = {
        record.instance_type: record.quoted_per_hour
        for record, _ in snapshot.read_cloud_prices()
        if record.vendor == Vendor.HCLOUD and record.region == "fsn1"
    }
    assert summary.prices.stored == summary.prices.read > len(quoted) == 24
    fsn1 = Region.objects.get(code="fsn1")
    assert (fsn1.vendor, fsn1.name) == ("hcloud", "Falkenstein, DE")

    answer = price_performance(region="fsn1", currency="EUR")
    rows = answer["results"]
    assert len(rows) > 10
    assert {row["vendor"] for row in rows} == {"hcloud"}
    assert {row["currency"] for row in rows} == {"EUR"}
    for row in rows:
        # A price quoted in euros is answered in euros as quoted: no round trip through USD.
        assert Decimal(str(row["price_per_hour"])) == quoted[row["instance_type"]]
    per_euro = [row["per_dollar"] for row in rows]
    assert per_euro == sorted(per_euro, reverse=True)


def test_an_aws_answer_is_unchanged_by_the_other_clouds():
    demo.load_sparecores_demo(families={"c7g"})
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    price("c7g.xlarge", "0.145", datetime.date(2024, 1, 1))
    aws = price_performance(region="us-east-1")
    assert [row["instance_type"] for row in aws["results"]] == ["c7g.large", "c7g.xlarge"]

    demo.load_cloud_demo(vendor=Vendor.HCLOUD)
    after = price_performance(region="us-east-1")
    assert (after["results"], after["unpriced"]) == (aws["results"], aws["unpriced"])


def test_loaddemo_loads_the_clouds_smallest_first_and_keeps_googles_prices_in_idr():
    out = io.StringIO()
    call_command("loaddemo", "--part", "clouds", "--families", "cax,t2d,Bsv2", stdout=out)
    lines = out.getvalue().splitlines()
    loaded = [line.split(" (")[0] for line in lines if ") loaded: " in line]
    assert loaded == ["Hetzner Cloud", "Google Cloud", "Microsoft Azure"]
    assert lines[-1].startswith("demo loaded: prices AWS's not loaded (--part clouds)")
    assert set(
        InstanceType.objects.filter(series__isnull=False).distinct().values_list("name", flat=True)
    ) == {
        *(f"cax{size}1" for size in (1, 2, 3, 4)),
        *(f"t2d-standard-{vcpus}" for vcpus in (1, 2, 4, 8, 16, 32, 48, 60)),
        *(f"Standard_B{vcpus}s_v2" for vcpus in (2, 4, 8, 16, 32)),
    }
    # Google's sample quotes T2D in IDR, at the catalog's own conversion rate.
    t2d = Price.objects.get(instance_type__vendor=Vendor.GCP, instance_type__name="t2d-standard-1")
    assert (t2d.region.code, t2d.currency, t2d.quoted_per_hour) == (
        "asia-southeast1",
        "IDR",
        Decimal("781.75499609"),
    )
    assert t2d.usd_per_hour == Decimal("0.05211700")
    # Only these families' prices: Azure's sample prices two Bsv2 sizes, and nothing else.
    sample = {
        record.instance_type
        for record, _ in snapshot.read_cloud_prices()
        if record.vendor == Vendor.AZURE and vm_family(record.instance_type) == "Bsv2"
    }
    assert sample == {"Standard_B2s_v2", "Standard_B32s_v2"}
    azure = Price.objects.filter(instance_type__vendor=Vendor.AZURE)
    assert set(azure.values_list("instance_type__name", flat=True)) == sample


def test_hetzners_dollar_prices_come_from_the_euro_quote_and_the_ecbs_rates_of_their_day():
    # cpx41: 0.0409 EUR x 1.1086 USD per EUR (the ECB, 2024-10-01) is 0.04534174, not
    # 0.0409 / 0.902039 (a rounded cross rate) = 0.04534172.
    rows = {
        (record.instance_type, record.region): record
        for record, _ in snapshot.read_cloud_prices()
        if record.vendor == Vendor.HCLOUD
    }
    assert len(rows) == 105
    assert rows["cpx41", "fsn1"].usd_per_hour == Decimal("0.04534174")
    for record in rows.values():
        assert (record.currency, record.effective_from) == ("EUR", datetime.date(2024, 10, 1))
        exact = (record.quoted_per_hour * Decimal("1.1086")).quantize(Decimal("1e-8"))
        assert record.usd_per_hour == exact, record
        assert "(1.1086 USD per EUR)" in record.source
    # The file keeps the quote alone: no dollar figure rounded through a cross rate is stored.
    with open(snapshot.CLOUD_PRICES_FILE, encoding="utf-8", newline="") as file:
        stored = [row["usd_per_hour"] for row in csv.DictReader(file) if row["vendor"] == "hcloud"]
    assert stored == [""] * 105


def test_a_stored_dollar_figure_is_the_vendors_own():
    # Google's IDR quote keeps the catalog's own conversion, which the ECB's rates do not give.
    with open(snapshot.CLOUD_PRICES_FILE, encoding="utf-8", newline="") as file:
        rows = [row for row in csv.DictReader(file) if row["vendor"] == "gcp"]
    assert rows and all(row["usd_per_hour"] for row in rows)
