"""`/instance-types/`, the finder page: filters and sort in the URL, the CSV of exactly the
rows shown with a name that says what they are, clear refusals, and a fixed number of
queries at any size."""

import csv
import io
import re
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks.questions.finder import COLUMNS
from benchmarks.services import statistics
from tests.api.test_price_performance_at_scale import fleet

pytestmark = pytest.mark.django_db

URL = "/instance-types/"
ARM_SMALL = {
    "architecture": "arm64",
    "vcpus_min": "2",
    "vcpus_max": "4",
    "burstable": "false",
    "benchmark": "openssl:aes-256-cbc",
    "sort": "-per_dollar",
}


def names_on(response) -> list[str]:
    text = response.content.decode()
    return [part.split('"', 1)[0] for part in text.split('<tr data-instance-type="')[1:]]


def csv_of(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.usefixtures("demo_rolled_back")
class TestOnTheDemo:
    def test_the_page_lists_the_filtered_types_best_per_dollar_first(self, client):
        response = client.get(URL, ARM_SMALL)
        assert response.status_code == 200
        shown = names_on(response)
        assert "c7g.xlarge" in shown and "c7a.xlarge" not in shown
        assert shown == [row.name for row in response.context["table"].rows]
        assert b'aria-sort="descending"' in response.content

    def test_the_csv_holds_exactly_the_rows_shown_with_a_descriptive_name(self, client):
        page = client.get(URL, ARM_SMALL)
        export = client.get(URL, {**ARM_SMALL, "format": "csv"})
        assert export.status_code == 200
        assert export["Content-Type"].startswith("text/csv")
        assert export["Content-Disposition"] == (
            'attachment; filename="pricebench-instance-types-us-east-1-arm64-not-burstable-'
            'vcpus-2-4-openssl-aes-256-cbc.csv"'
        )
        header, *rows = csv_of(export)
        assert header == ["name", "vcpus", "memory_gib", "architecture", "burstable",
                          "usd_per_hour", "per_dollar"]  # fmt: skip
        assert [row[0] for row in rows] == names_on(page)
        per_dollar = [float(row[6]) for row in rows if row[6]]
        assert per_dollar and per_dollar == sorted(per_dollar, reverse=True)

    def test_the_page_links_its_csv_with_the_same_question(self, client):
        response = client.get(URL, ARM_SMALL)
        link = response.content.decode().split('id="finder-csv"')[0].rsplit('href="', 1)[1]
        assert "format=csv" in link and "architecture=arm64" in link and "vcpus_max=4" in link

    def test_each_header_sorts_by_its_column_and_a_second_click_flips_it(self, client):
        response = client.get(URL, {"family": "c7g", "sort": "vcpus"})
        columns = {column["key"]: column for column in response.context["columns"]}
        assert "sort=-vcpus" in columns["vcpus"]["url"]
        assert "sort=usd_per_hour" in columns["usd_per_hour"]["url"]
        vcpus = [row.vcpus for row in response.context["table"].rows]
        assert vcpus == sorted(vcpus)

    def test_every_column_has_its_cell_in_each_row(self, client):
        response = client.get(URL, {"family": "c7g", "benchmark": "openssl:aes-256-cbc"})
        row = response.content.decode().split('<tr data-instance-type="c7g.xlarge">')[1]
        row = row.split("</tr>")[0]
        for column in COLUMNS:
            assert f'data-column="{column.key}"' in row, column.key

    def test_each_figure_says_its_rank_and_the_ranks_it_could_take_within_the_noise(self, client):
        statistics.keep_noise()
        page = client.get(URL, {"family": "c7g", "benchmark": "openssl:aes-256-cbc"})
        text = page.content.decode()
        ranks = re.findall(r'<small class="rank"[^>]*>#(\d+)(?: \((\d+)–(\d+)\))?</small>', text)
        assert ranks, "no rank shown"
        # Sizes of c7g within half a percent of each other share ranks: some are ranges.
        assert any(best for _rank, best, _worst in ranks)
        for rank, best, worst in ranks:
            if best:
                assert int(best) <= int(rank) <= int(worst)

    def test_the_column_picker_hides_what_the_url_leaves_out(self, client):
        response = client.get(URL, {"family": "c7g", "columns": "name,vcpus,usd_per_hour"})
        table_tag = response.content.decode().split('id="finder-table"')[0].rsplit("<table", 1)[1]
        assert "hide-memory_gib" in table_tag and "hide-vcpus" not in table_tag
        default = client.get(URL, {"family": "c7g"}).content.decode()
        assert "hide-family" in default.split('id="finder-table"')[0].rsplit("<table", 1)[1]

    def test_a_profile_ranks_the_finder_and_its_csv(self, client):
        page = client.get(URL, {"profile": "web-serving", "measured": "on"})
        assert page.status_code == 200
        assert b'id="profile-note"' in page.content and b"profile=web-serving" in page.content
        export = client.get(URL, {"profile": "web-serving", "measured": "on", "format": "csv"})
        assert export.status_code == 200
        rows = list(csv.reader(io.StringIO(export.content.decode())))[1:]
        per_dollar = [float(row[-1]) for row in rows if row[-1]]
        assert rows and per_dollar == sorted(per_dollar, reverse=True)

    def test_the_filters_fold_on_a_phone_and_the_per_dollar_column_is_marked(self, client):
        page = client.get(URL, {"benchmark": "openssl:aes-256-cbc"}).content.decode()
        # Open without scripts; fold-narrow.js folds them on a phone once they are parsed.
        filters = page.index('<details class="filters" id="finder-filters" open data-fold-narrow>')
        assert filters < page.index('id="finder-form"') < page.index("</details>", filters)
        assert page.index("dashboard/fold-narrow.js", filters) < page.index('id="finder-table"')
        assert 'class="lede wide-only"' in page
        assert '<th scope="col" data-column="per_dollar"' in page

    def test_wrong_filters_are_refused_naming_the_field(self, client):
        response = client.get(URL, {"vcpus_min": "8", "vcpus_max": "2", "format": "csv"})
        assert response.status_code == 400
        assert response.json() == {"vcpus_max": ["vcpus_max is below vcpus_min (8)"]}
        page = client.get(URL, {"architecture": "sparc"})
        assert page.status_code == 400 and b"sparc is not a valid choice" in page.content
        assert client.get(URL, {"sort": "colour", "format": "csv"}).json()["sort"]
        assert client.get(URL, {"family": "C7G!", "format": "csv"}).status_code == 400

    @pytest.mark.parametrize(
        ("name", "value"),
        [
            ("processes", "NaN"),
            ("processes", "Infinity"),
            ("processes", "1e309"),
            ("block_size", "1" * 30),
        ],
    )
    def test_a_number_no_result_can_hold_is_refused_naming_it(self, client, name, value):
        query = {"benchmark": "openssl:aes-256-cbc", name: value}
        export = client.get(URL, {**query, "format": "csv"})
        assert export.status_code == 400, export.content[:300]
        # The benchmark's own parameters are not the form's fields: the message names it.
        assert f"{name}={value[:40]} is out of range" in export.json()["detail"][0]
        page = client.get(URL, query)
        assert page.status_code == 400 and f"{name}={value[:40]} is out of range" in page.text

    def test_an_unknown_benchmark_is_refused_with_the_closest_keys(self, client):
        response = client.get(URL, {"benchmark": "openssl:aes256", "format": "csv"})
        assert response.status_code == 400
        assert "did you mean" in response.json()["benchmark"][0]
        page = client.get(URL, {"benchmark": "openssl:aes256"})
        assert page.status_code == 400 and b"did you mean" in page.content


@pytest.mark.parametrize("count", [10, 1000])
def test_the_page_renders_in_a_fixed_number_of_queries(client, count):
    fleet(count)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(URL, {"benchmark": "tool:x", "measured": "true"})
    assert response.status_code == 200
    assert len(names_on(response)) == count
    assert len(captured) <= 11, len(captured)


def test_fifteen_hundred_types_render_quickly(client):
    fleet(1500)
    statistics.analyze_tables()  # as after any import: planned as empty tables otherwise
    client.get(URL, {"benchmark": "tool:x"})  # warm
    started = time.perf_counter()
    response = client.get(URL, {"benchmark": "tool:x"})
    elapsed = time.perf_counter() - started
    assert len(names_on(response)) >= 1500
    assert elapsed < 1.5, elapsed
