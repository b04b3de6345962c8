"""The comparison page's menus and links: the benchmark menu and the benchmark it opens on,
the studies' questions, the parameter choices, the regions by vendor, and the links to the
answer (API, CSV, permalink); the cloud picker is comparison_clouds.py's. No query: each
reads what the page's one menu query read (`prices.price_menu`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from django.db.models import Case, F, JSONField, When
from django.urls import reverse

from benchmarks.models import Benchmark, Vendor
from benchmarks.questions.price_performance import (
    BUSY_SHARES,
    DEFAULT_BENCHMARK,
    PricePerformanceQuery,
)
from benchmarks.selectors.costs import prices

# Without DEFAULT_BENCHMARK, among benchmarks that cover the families equally well, the page
# opens on the first of these.
PREFERRED_BENCHMARKS = ("openssl:aes-256-cbc", "openssl:aes-128-gcm", "openssl:sha256")


# Each vendor's region a cross-cloud choice opens on, when it has prices: the example,
# one place (Frankfurt and Falkenstein) for every cloud; else the vendor's first with prices.
CLOUD_HOMES = {
    Vendor.AWS: "eu-central-1",
    Vendor.AZURE: "germanywestcentral",
    Vendor.GCP: "europe-west3",
    Vendor.HCLOUD: "fsn1",
}


@dataclass(frozen=True)
class StudyView:
    """A published study's question, as the page asks it (STUDIES.md)."""

    name: str
    title: str
    query: dict[str, str]

    @property
    def url(self) -> str:
        return f"{reverse('comparison')}?{urlencode(self.query)}"


STUDY_VIEWS = (
    StudyView(
        "S1",
        "Fargate vCPU performance and price, December 2017",
        {
            "benchmark": "openssl:aes-128-gcm",
            "region": "us-east-1",
            "at": "2017-12-13",
            "block_size": "8192",
            "processes": "1",
            "families": "",
        },
    ),
    StudyView(
        "S2",
        "Keycloak on Graviton3, April 2024",
        {
            "benchmark": "keycloak:oauth2-login",
            "region": "ap-northeast-1",
            "baseline": "c7a.xlarge:base",
            "families": "",
        },
    ),
)


@dataclass(frozen=True)
class ParamChoice:
    """One parameter of the benchmark: the values it was measured with, and the one shown."""

    name: str
    values: list[Any]
    selected: Any | None
    # A worker count, which `busy` chooses instead.
    worker: bool = False
    # What the menu calls the parameter left open.
    open_label: str = "any"


@dataclass(frozen=True)
class BenchmarkGroup:
    """Benchmarks of one kind, for the menu's <optgroup>."""

    label: str
    benchmarks: list[Benchmark]


class AnswerLinks:
    """The page's links to its answer, from `resolved` (the question as the API asks it) and
    `price_menu`: the same question in the API and as CSV, and the page's permalink."""

    resolved: dict[str, str]
    price_menu: dict[str, list[str]]

    @property
    def regions(self) -> list[str]:
        return list(self.price_menu)

    @property
    def regions_by_vendor(self) -> list[tuple[str, list[str]]]:
        """The regions with prices by vendor id, AWS's first: (vendor, its region codes)."""
        regions = getattr(self.price_menu, "regions", {})
        grouped: dict[str, list[str]] = {}
        for code in self.price_menu:
            region = regions.get(code)
            grouped.setdefault(region.vendor if region else Vendor.AWS, []).append(code)
        return [(vendor, grouped[vendor]) for vendor in Vendor.values if vendor in grouped]

    @property
    def region_groups(self) -> list[tuple[str, list[str]]]:
        """The region menu by vendor (the page's vendor picker): (the vendor's name, its
        regions with prices)."""
        return [(Vendor(vendor).label, codes) for vendor, codes in self.regions_by_vendor]

    def cloud_regions(self, query: PricePerformanceQuery) -> dict[str, str]:
        """Each vendor with prices and the region a cross-cloud question takes for it: the
        one asked (the page's region, or one of `regions`), else its home (CLOUD_HOMES) or
        its first region with prices. AWS first."""
        regions = getattr(self.price_menu, "regions", {})
        asked = dict(reversed(query.regions))
        page_region = regions.get(query.region)
        if page_region is not None:
            asked[page_region.vendor] = page_region.code
        chosen: dict[str, str] = {}
        for vendor, codes in self.regions_by_vendor:
            home = CLOUD_HOMES.get(vendor)
            chosen[vendor] = asked.get(vendor) or (home if home in codes else codes[0])
        return chosen

    @property
    def api_url(self) -> str:
        return f"{reverse('api:price-performance')}?{urlencode(self.resolved)}"

    @property
    def csv_url(self) -> str:
        return f"{reverse('api:price-performance')}?{urlencode({**self.resolved, 'format': 'csv'})}"

    @property
    def permalink(self) -> str:
        """The page's address: the question as asked, with what the form keeps that the
        answer set aside (`kept`: the families asked, a currency without a rate that day)."""
        question = {**self.resolved, **(getattr(self, "kept", None) or {})}
        return f"{reverse('comparison')}?{urlencode(question)}"


def menu_benchmarks(asked: str | None) -> list[Benchmark]:
    """Every benchmark measured on some family, by key, for the menus: with the noise
    (docs/noise.md) of the one `asked` (else of the default question's; None: of none) only.
    A benchmark's noise is up to 360 kB of JSON, 3 MB over the full demo's (a megabyte for
    some at 10M results): decoding every one took the comparison page about 50 ms. Another's
    is read should it be used (one query)."""
    rows = Benchmark.objects.defer("noise").order_by("key")
    if asked is not None:
        asked = asked or DEFAULT_BENCHMARK
        noise_of_asked = Case(
            When(key=asked, then=F("noise")), default=None, output_field=JSONField()
        )
        rows = rows.annotate(asked_noise=noise_of_asked)
    benchmarks = []
    for benchmark in rows:
        if asked is not None and benchmark.key == asked:
            benchmark.noise = benchmark.asked_noise
        if benchmark.families:
            benchmarks.append(benchmark)
    return benchmarks


def default_benchmark(benchmarks: list[Benchmark], families: tuple[str, ...]) -> Benchmark | None:
    """The default question's benchmark (DEFAULT_BENCHMARK) while it has results, else the
    one whose results cover the most of the wanted families (no query): never the one that
    happens to cover most once everything is loaded (stress-ng:cpu at one worker)."""
    candidates = [benchmark for benchmark in benchmarks if benchmark.families]
    if not candidates:
        return None
    default = next((b for b in candidates if b.key == DEFAULT_BENCHMARK), None)
    if default is not None:
        return default

    def preference(benchmark: Benchmark) -> tuple:
        key = benchmark.key
        rank = -PREFERRED_BENCHMARKS.index(key) if key in PREFERRED_BENCHMARKS else -999
        covered = set(benchmark.families)
        return (len(covered & set(families)), len(covered), rank, -benchmark.pk)

    return max(candidates, key=preference)


def group_of(benchmark: Benchmark) -> str:
    """The menu group of a benchmark: its kind where known, else its tool."""
    return benchmark.group or benchmark.tool


def menu_groups(benchmarks: list[Benchmark]) -> list[BenchmarkGroup]:
    """The benchmark menu: benchmarks grouped by kind, groups in order of their labels."""
    grouped: dict[str, list[Benchmark]] = defaultdict(list)
    for benchmark in benchmarks:
        grouped[group_of(benchmark)].append(benchmark)
    return [BenchmarkGroup(label, grouped[label]) for label in sorted(grouped, key=str.lower)]


def page_region_first(
    query: PricePerformanceQuery, menu: prices.PriceMenu
) -> PricePerformanceQuery:
    """A cross-cloud question on the page: its region select names the first region. The
    region chosen there leads `regions` (in place of another of its vendor's); without one,
    the first of `regions` is the page's region."""
    region = menu.regions.get(query.region)
    if region is None:
        return replace(query, region=query.regions[0][1])
    lead = (region.vendor, region.code)
    others = tuple(pair for pair in query.regions if pair[0] != region.vendor)
    return replace(query, regions=(lead, *others))


def busy_menu(asked: PricePerformanceQuery) -> dict[str, Any]:
    """The "vCPUs busy" menu: the usual shares (BUSY_SHARES) and the one asked, as the form
    sends them (`busy_choices`: value, label), and the one asked (`busy_asked`)."""
    shares = sorted({*BUSY_SHARES, *([asked.busy] if asked.busy is not None else [])})
    return {
        "busy_choices": [(f"{share.normalize():f}", f"{share:.0%}") for share in shares],
        "busy_asked": f"{asked.busy.normalize():f}" if asked.busy is not None else "",
    }
