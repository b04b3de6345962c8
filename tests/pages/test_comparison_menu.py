"""The comparison page's benchmark menu by kind, Spare Cores' credit and the demo's loading
note, as the server renders them (no browser needed)."""

import re

import pytest

from benchmarks import inspector
from benchmarks.models import Run
from benchmarks.profiles import PROFILES
from benchmarks.services import demo
from benchmarks.services import prices as price_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def spare_cores(settings, tmp_path):
    """Prices and Spare Cores' bundled figures of c7g; no background load running."""
    settings.PRICEBENCH_DEMO_PROGRESS_FILE = tmp_path / "demo-loading.json"
    price_services.import_snapshot()
    demo.load_sparecores_demo(families={"c7g"})


def menu(html: str) -> dict[str, list[tuple[str, str]]]:
    """{group label: [(benchmark key, title)]} of the benchmark select."""
    select = re.search(r'<select name="benchmark".*?</select>', html, re.DOTALL)[0]
    groups = {}
    for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', select, re.DOTALL):
        groups[label] = re.findall(r'<option value="([^"]*)" title="([^"]*)"', body)
    return groups


def test_the_menu_groups_benchmarks_by_kind_with_what_each_measures(client, spare_cores):
    html = client.get("/").content.decode()
    groups = menu(html)
    # The workload profiles first, then the benchmarks' kinds in order.
    workloads, *kinds = groups
    assert workloads.startswith("Workloads")
    assert [key for key, _ in groups[workloads]] == [f"profile:{p.key}" for p in PROFILES]
    assert kinds == sorted(kinds, key=str.lower)
    assert {
        "CPU",
        "Compression",
        "Cryptography",
        "Geekbench 6",
        "Key-value store",
        "LLM inference",
        "Memory bandwidth",
        "PassMark",
        "Web server",
    } <= set(groups)
    assert {key.split(":")[0] for key, _ in groups["Key-value store"]} == {"redis"}
    titles = dict(groups["Key-value store"])
    assert "op/s; higher is better" in titles["redis:set"]
    assert titles["redis:set-latency"].endswith("in s; lower is better.")
    assert all(title for options in groups.values() for _, title in options)


def test_the_default_view_stays_fargate_t2_and_c7_and_credits_spare_cores(client, spare_cores):
    response = client.get("/")
    query = response.context["comparison"].query
    assert tuple(query.families) == ("fargate", "t2", "c7g", "c7a", "c7i")
    html = response.content.decode()
    assert f'id="credit">{inspector.CREDIT}<' in html
    assert 'id="demo-loading"' not in html


def test_a_run_of_theirs_is_credited_on_its_page(client, spare_cores):
    run = Run.objects.get(filename="aws/c7g.large/redis/stdout")
    html = client.get(f"/runs/{run.pk}/").content.decode()
    assert inspector.CREDIT in html
    assert "measuring region not recorded" in html


def test_the_page_notes_the_background_load(client, spare_cores, settings):
    progress = demo.ProgressFile(settings.PRICEBENCH_DEMO_PROGRESS_FILE)
    progress.update(0, 846, demo.SparecoresDemoSummary())
    html = client.get("/").content.decode()
    assert "still loading in the background: 0 of 846" in html
