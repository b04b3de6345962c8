"""`/compare/`: the page for 2 to 8 types, and its refusals, each naming what is wrong."""

from pathlib import Path

import pytest

from tests.commands.test_hetzner_prices import measured  # noqa: F401 (a fixture)
from tests.selectors.test_compare_clouds import clouds  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

URL = "/compare/"


@pytest.mark.usefixtures("demo_rolled_back")
class TestOnTheDemo:
    def test_the_page_shows_the_types_with_the_chosen_baseline(self, client):
        response = client.get(
            URL, {"types": "c7g.xlarge,c7a.xlarge,c7i.xlarge", "baseline": "c7a.xlarge"}
        )
        assert response.status_code == 200
        text = response.content.decode()
        assert text.count('<th scope="col" data-instance-type=') == 3
        assert 'data-role="answer"' in text
        assert '<option value="c7a.xlarge" selected>' in text
        assert "% per dollar)" in text and "of the baseline" in text

    def test_the_best_mark_goes_the_benchmarks_own_way_and_no_per_dollar_is_made_up(self, client):
        response = client.get(URL, {"types": "c7g.xlarge,c7a.xlarge,c7i.xlarge"})
        text = response.content.decode()

        def cells(line):
            row = text.split(f'<tr data-line="{line}">')[1].split("</tr>")[0]
            return row.split("<td")[1:]

        # redis:set-latency: 0.75, 0.83 and 0.62 ms; the lowest is c7i's.
        redis = cells("redis:set-latency")
        assert ['class="best"' in cell for cell in redis] == [False, False, True]
        assert 'title="best latency (lower is better) on this line"' in redis[2]
        assert not any("per-dollar" in cell or "per dollar" in cell for cell in redis)
        ratio = cells("compression:gzip-ratio")
        assert not any('class="best"' in cell or "per dollar" in cell for cell in ratio)
        assert "— (" not in text and "per cent" not in text
        static_web = cells("static_web:http")
        assert "requests per dollar" in static_web[0]

    def test_the_page_embeds_its_charts_per_dollar_against_the_baseline(self, client):
        response = client.get(URL, {"types": "c7g.xlarge,c7a.xlarge,c7i.xlarge"})
        assert b'<canvas id="compare-chart"' in response.content
        assert b"dashboard/compare.js" in response.content
        chart = response.context["chart_data"]
        assert chart["baseline"] == "c7g.xlarge"
        assert [t["name"] for t in chart["types"]] == ["c7g.xlarge", "c7a.xlarge", "c7i.xlarge"]
        lines = {line["label"]: line["relative_per_dollar"] for line in chart["lines"]}
        assert "openssl:aes-256-cbc" in lines and "redis:set-latency" not in lines
        assert all(ratios[0] in (1.0, None) for ratios in lines.values())
        comparison = response.context["comparison"]
        [aes] = [g.main for g in comparison.benchmarks if g.benchmark == "openssl:aes-256-cbc"]
        assert lines["openssl:aes-256-cbc"] == [c.relative_per_dollar for c in aes.cells]

    def test_the_finders_ticked_types_arrive_as_one_value_each(self, client):
        response = client.get(URL, {"types": ["c7g.xlarge", "c7a.xlarge"]})
        assert response.status_code == 200
        assert response.context["comparison"].baseline.name == "c7g.xlarge"

    def test_a_count_outside_two_to_eight_is_refused(self, client):
        one = client.get(URL, {"types": "c7g.xlarge"})
        assert one.status_code == 400
        assert b"choose 2 to 8 different instance types (1 given)" in one.content
        nine = ",".join(f"c7g.{size}" for size in ["medium", "large", "xlarge", "2xlarge",
                                                   "4xlarge", "8xlarge", "12xlarge",
                                                   "16xlarge", "metal"])  # fmt: skip
        assert client.get(URL, {"types": nine}).status_code == 400
        assert client.get(URL, {"types": ""}).status_code == 400

    def test_the_page_without_a_question_shows_how_to_ask_one(self, client):
        response = client.get(URL)
        assert response.status_code == 200
        assert b'id="types"' in response.content and b'role="alert"' not in response.content

    def test_an_unknown_type_or_a_baseline_outside_the_types_is_named(self, client):
        unknown = client.get(URL, {"types": "c7g.xlarge,c7a.xlarg"})
        assert unknown.status_code == 400
        assert b"unknown instance type &#x27;c7a.xlarg&#x27;" in unknown.content
        outside = client.get(URL, {"types": "c7g.xlarge,c7a.xlarge", "baseline": "m5.large"})
        assert outside.status_code == 400
        assert b"the baseline m5.large is not among the types" in outside.content


@pytest.mark.parametrize("count", [10, 1000])
def test_the_page_renders_in_a_fixed_number_of_queries(client, count):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.api.test_price_performance_at_scale import fleet

    names = fleet(count)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(URL, {"types": ",".join(names[-8:])})
    assert response.status_code == 200
    assert response.content.count(b'<th scope="col" data-instance-type=') == 8
    assert len(captured) <= 9, len(captured)


# The benchmark lines as the template language wrote them before `compare_rows`: the tag
# writes the very same text.
TEMPLATE_LINES = Path(__file__).with_name("compare_lines_template.html")


@pytest.mark.usefixtures("demo_rolled_back")
@pytest.mark.parametrize(
    "types",
    [
        "c7g.xlarge,c7a.xlarge,c7i.xlarge",
        "c7g.large,t4g.small,fargate-1vcpu-2gb",
        "c7g.large,c7g.4xlarge,m7i.2xlarge",
        "t2.nano,t3.nano",
    ],
)
def test_the_lines_are_written_as_the_template_wrote_them(types):
    from django.template import Context, Template

    from benchmarks.questions.compare import CompareQuery
    from benchmarks.selectors.compare_types.compare import compare_types
    from dashboard.templatetags.compare_rows import compare_groups

    names = tuple(types.split(","))
    comparison = compare_types(CompareQuery(types=names, baseline=names[0]))
    expected = Template(TEMPLATE_LINES.read_text()).render(Context({"comparison": comparison}))
    # The file's first line loads the filters, its last ends the loop: neither is the loop's.
    expected = expected.split("\n", 1)[1].removeprefix("  ").removesuffix("\n")
    assert compare_groups(comparison) == expected


def _priced_elsewhere(vendor, name, regions):
    """A type of another cloud measured on the clouds fixture's benchmark, priced on demand
    in each of `regions` (code: USD an hour), and at spot in none."""
    import datetime
    from decimal import Decimal

    from benchmarks.models import InstanceType, Price, Region
    from tests.selectors.test_price_performance import run_with

    instance_type = InstanceType.objects.create(vendor=vendor, name=name, kind="vm", vcpus=2)
    run_with(name, [8000.0], key="passmark:cpu-mark", region=None)
    for code, usd in regions.items():
        region, _ = Region.objects.get_or_create(vendor=vendor, code=code)
        Price.objects.create(
            instance_type=instance_type,
            region=region,
            purchase_option="on_demand",
            usd_per_hour=Decimal(usd),
            effective_from=datetime.date(2024, 1, 1),
            source="test",
        )


@pytest.fixture
def four_clouds(clouds):  # noqa: F811
    """The clouds fixture's c7g.large (us-east-1) and Hetzner's types, with a Google Cloud
    and an Azure type, each priced in two of its cloud's regions."""
    _priced_elsewhere("gcp", "n4-standard-2", {"europe-west4": "0.09", "us-central1": "0.08"})
    _priced_elsewhere("azure", "Standard_D2s_v5", {"eastus": "0.096", "westeurope": "0.1"})


def test_the_page_takes_as_many_queries_for_types_of_four_clouds_as_of_two(client, four_clouds):
    """Each type not of the region asked is priced at its cheapest region, in its own cloud:
    its cheapest region and its prices were read per type and per region (types nobody opened
    from three clouds took 11 queries on the full demo; here two clouds took 12, four 20); they
    are read for every type at once, so the count stays within the page's ten whatever the
    clouds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for types in ("c7g.large,cax11", "c7g.large,cax11,n4-standard-2,Standard_D2s_v5"):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(URL, {"types": types, "at": "2024-10-15"})
        assert response.status_code == 200
        text = response.content.decode()
        assert text.count('<th scope="col" data-instance-type=') == types.count(",") + 1
        counts[types] = len(captured)
    assert "us-central1" in text and "eastus" in text  # each at its cheapest region
    assert all(count <= 10 for count in counts.values()), counts
    assert len(set(counts.values())) == 1, counts
