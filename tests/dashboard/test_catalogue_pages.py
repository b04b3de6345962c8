"""`/benchmarks/`, `/runs/`, the 404 and 500 pages, and the upload page's explanation of
tokens: what each shows on the demo, what each refuses, and their queries at any size."""

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext

from benchmarks.models import Run
from benchmarks.selectors.pages.catalogue import RUNS_PER_PAGE
from tests.api.test_price_performance_at_scale import fleet

pytestmark = pytest.mark.django_db


@pytest.mark.usefixtures("demo_rolled_back")
class TestOnTheDemo:
    def test_the_benchmarks_page_lists_each_kind_with_its_unit_and_coverage(self, client):
        response = client.get("/benchmarks/")
        assert response.status_code == 200
        text = response.content.decode()
        row = text.split('<tr data-benchmark="keycloak:oauth2-login">')[1].split("</tr>")[0]
        assert 'data-coverage="2"' in row  # c7g.xlarge and c7a.xlarge (study S2)
        assert 'href="/benchmarks/keycloak:oauth2-login/"' in row
        assert "relative throughput" in row
        assert '<tr data-benchmark="openssl:aes-256-cbc">' in text

    def test_each_kind_shows_a_sample_of_the_raw_output_it_was_read_from(self, client):
        response = client.get("/benchmarks/")
        samples = [sample for kind in response.context["samples"].values() for sample, _ in kind]
        openssl = next(sample for sample in samples if sample.format == "openssl")
        run = Run.objects.get(pk=openssl.run_id)
        assert run.status == Run.Status.DONE
        assert run.results.filter(benchmark__key__startswith="openssl:").exists()
        # The sample is the head of that run's own output, line for line.
        assert list(openssl.lines) == run.raw_output.splitlines()[: len(openssl.lines)]
        assert len(openssl.lines) > 3
        text = response.content.decode()
        assert f'data-sample-run="{openssl.run_id}"' in text
        assert f'href="/runs/{openssl.run_id}/"' in text

    def test_the_runs_page_lists_runs_newest_first_and_pages_them(self, client):
        response = client.get("/runs/")
        assert response.status_code == 200
        page = response.context["page"]
        assert len(page.object_list) == min(RUNS_PER_PAGE, Run.objects.count())
        ids = [run.pk for run in page.object_list]
        assert ids == sorted(ids, reverse=True)
        if page.has_next():
            assert b'rel="next"' in response.content

    def test_a_page_far_into_the_runs_counts_only_its_own_runs(self, client):
        """The last page is the list's last slice; the runs' results and children are counted
        for that page's runs only, the offset skipped over ids (page 100 of the runs at 10M
        results took 12.8 s when every skipped run's results were counted)."""
        ordered = list(Run.objects.order_by("-created_at", "-id").values_list("pk", flat=True))
        last = (len(ordered) - 1) // RUNS_PER_PAGE + 1
        assert last >= 3
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/runs/", {"page": last})
        runs = list(response.context["page"].object_list)
        assert [run.pk for run in runs] == ordered[(last - 1) * RUNS_PER_PAGE :]
        assert [run.result_count or 0 for run in runs] == [run.results.count() for run in runs]
        skipping = [query["sql"] for query in captured if " OFFSET " in query["sql"]]
        assert skipping and not [sql for sql in skipping if "benchmarks_result" in sql], skipping

    def test_the_runs_page_filters_by_instance_type_and_benchmark(self, client):
        response = client.get(
            "/runs/", {"instance_type": "c7g.xlarge", "benchmark": "keycloak:oauth2-login"}
        )
        assert response.status_code == 200
        runs = list(response.context["page"].object_list)
        assert runs and all(run.instance_type.name == "c7g.xlarge" for run in runs)
        assert all(run.result_count >= 1 for run in runs)

    def test_an_unknown_filter_is_refused_with_the_closest_names(self, client):
        response = client.get("/runs/", {"instance_type": "c7g.xlarg"})
        assert response.status_code == 400
        assert b"did you mean c7g.xlarge" in response.content
        assert client.get("/runs/", {"status": "lost"}).status_code == 400
        assert client.get("/runs/", {"page": "first"}).status_code == 400


def test_a_missing_page_is_a_friendly_404_linking_home(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    text = response.content.decode()
    assert "There is no page at <code>/no-such-page/</code>." in text
    assert 'href="/"' in text and 'href="/instance-types/"' in text


def test_an_unknown_instance_types_page_says_which_in_the_404(client):
    response = client.get("/instance-types/no.such/")
    assert response.status_code == 404
    assert b"unknown instance type" in response.content


def test_the_500_page_needs_no_context_and_links_home():
    text = render_to_string("500.html")
    assert "Something went wrong on our side" in text and 'href="/"' in text


def test_the_upload_page_explains_tokens_and_the_commands_to_anyone():
    response = Client().get("/upload/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "python manage.py create_upload_token YOUR_NAME" in text
    assert "curl -fsS http://testserver/agent.py | python3 - --server http://testserver" in text
    assert 'curl -H "Authorization: Token YOUR_TOKEN"' in text
    assert 'id="login-link"' in text and 'id="upload-form"' not in text


def test_the_upload_page_says_what_verified_means_and_what_it_does_not():
    text = Client().get("/upload/").content.decode()
    assert 'id="verified"' in text
    assert "the uploader had that instance, of that type, in that region" in text
    assert "It does not prove the figures" in text
    assert "instance-identity/pkcs7" in text


def test_an_anonymous_upload_is_sent_to_log_in():
    response = Client().post("/upload/", {})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.parametrize("count", [10, 1000])
def test_the_benchmarks_and_runs_pages_read_in_fixed_queries(client, count):
    fleet(count)
    for url, params, most in (
        ("/benchmarks/", {}, 4),
        ("/benchmarks/tool:x/", {}, 3),
        ("/runs/", {}, 3),
        ("/runs/", {"benchmark": "tool:x", "instance_type": "zz0.n1"}, 5),
    ):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, params)
        assert response.status_code == 200, url
        assert len(captured) <= most, (url, params, len(captured))
    benchmarks = client.get("/benchmarks/").content.decode()
    assert f'data-coverage="{count}"' in benchmarks
    page = client.get("/benchmarks/tool:x/").content.decode()
    assert f"{count} runs of {count} instance types" in page
