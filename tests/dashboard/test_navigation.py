"""Every link of the navigation (templates/base.html) answers on the bundled demo: the network
and databases pages, without data, say what they need and how to upload it."""

from html.parser import HTMLParser

import pytest
from django.test import Client

from benchmarks.models import Benchmark, Run
from benchmarks.services.demo import S3_SOURCE

pytestmark = pytest.mark.django_db


class NavigationLinks(HTMLParser):
    """The addresses of the links inside the page's `<nav>`, and each link's text."""

    def __init__(self):
        super().__init__()
        self.inside = False
        self.links: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "nav":
            self.inside = True
        elif tag == "a" and self.inside:
            self.links.append(dict(attrs)["href"])
            self.texts.append("")

    def handle_data(self, data):
        if self.inside and len(self.texts) == len(self.links) and self.texts:
            self.texts[-1] += data.strip()

    def handle_endtag(self, tag):
        if tag == "nav":
            self.inside = False


@pytest.fixture
def links(demo_rolled_back):
    page = Client().get("/agent/")
    assert page.status_code == 200
    parser = NavigationLinks()
    parser.feed(page.content.decode())
    return parser.links


def test_the_navigation_links_every_page_the_site_shows(links):
    assert set(links) >= {
        "/",
        "/volumes/",
        "/network/",
        "/databases/",
        "/upload/",
        "/instance-types/",
        "/compare/",
        "/benchmarks/",
        "/runs/",
        "/agent/",
        "/api/v1/",
        "/api/v1/docs/",
    }


def test_compare_opens_the_compare_page_and_each_page_is_named_once(demo_rolled_back):
    parser = NavigationLinks()
    parser.feed(Client().get("/agent/").content.decode())
    named = dict(zip(parser.texts, parser.links, strict=True))
    assert named["Compare"] == "/compare/"
    assert named["Price-performance"] == "/"
    assert len(set(parser.links)) == len(parser.links), parser.links


def test_every_navigation_link_answers_200_on_the_demo(links):
    client = Client()
    for link in links:
        # `/upload/` sends a visitor to the login page first.
        response = client.get(link, follow=True)
        assert response.status_code == 200, f"{link}: {response.status_code}"


def test_the_network_page_without_bandwidth_says_what_to_upload_with_a_command(demo_rolled_back):
    # The demo holds study S3's figures (rolled back after the test): without them, none.
    Run.objects.filter(source=S3_SOURCE).delete()
    Benchmark.objects.filter(unit="bit/s").delete()
    response = Client().get("/network/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "No bandwidth is measured yet" in page
    assert "/agent.py | python3 - --server http://testserver --token YOUR_TOKEN --iperf3" in page
    assert "-F region=us-west-2 http://testserver/api/v1/runs/" in page
    assert 'role="alert"' not in page and "network.js" not in page


def test_the_databases_page_without_results_says_what_to_import_and_upload(demo_rolled_back):
    response = Client().get("/databases/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "No DB instance class is measured yet" in page
    assert "python manage.py import_prices --api --service rds --region us-east-1" in page
    assert "-F variant=aurora-mysql http://testserver/api/v1/runs/" in page
    assert "databases.js" not in page


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/network/?benchmark=openssl:aes-128-gcm", "not bit/s"),
        ("/network/?direction=sideways", "direction"),
        ("/databases/?region=us-east-9", "us-east-9"),
        ("/databases/?benchmark=sysbnch:oltp", "unknown benchmark &#x27;sysbnch:oltp&#x27;"),
    ],
)
def test_a_bad_question_typed_on_those_pages_is_still_refused_by_name(
    demo_rolled_back, path, field
):
    response = Client().get(path)
    assert response.status_code == 400
    assert field in response.content.decode()
