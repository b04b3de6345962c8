"""The comparison page's purchase controls apply to the option asked: a commitment's term and
payment beside Reserved and Savings Plans, the spot zone beside spot; none beside on-demand
(they were shown there, and ignored). And the families the question names, each once."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from benchmarks.questions.purchase import Purchase, purchase_controls

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("option", "names"),
    [
        ("on_demand", []),
        ("spot", ["spot_zone"]),
        ("reserved", ["term", "payment", "offering_class"]),
        ("savings_plan", ["term", "payment", "plan"]),
    ],
)
def test_each_option_has_only_its_own_controls(option, names):
    assert [name for name, *_ in purchase_controls(Purchase(option=option))] == names


def selects(html: str) -> set[str]:
    return set(re.findall(r'<select name="([a-z_]+)"', html))


def test_the_page_shows_the_commitment_controls_only_for_a_commitment(demo_rolled_back):
    question = "/?benchmark=openssl:sha256&region=us-east-1&block_size=8192"
    on_demand = selects(Client().get(question).content.decode())
    assert not on_demand & {"term", "payment", "offering_class", "plan", "spot_zone"}
    reserved = Client().get(question + "&purchase_option=reserved").content.decode()
    assert {"term", "payment", "offering_class"} <= selects(reserved)
    assert not selects(reserved) & {"plan", "spot_zone"}


def test_a_family_named_twice_is_asked_once(demo_rolled_back):
    response = Client().get(
        "/?benchmark=openssl:sha256&region=us-east-1&block_size=8192&families=c7i&families=c7i,c7g"
    )
    assert response.status_code == 200
    permalink = re.search(r'data-permalink="([^"]+)"', response.content.decode()).group(1)
    families = parse_qs(urlsplit(permalink.replace("&amp;", "&")).query)["families"]
    assert families == ["c7i,c7g"]
