"""The instance-type page's "Cost over a period" table: the commitment-cost question for one
region, real m5.large prices (1 on-demand and 12 reserved)."""

import pytest
from django.test import Client

from benchmarks.models import InstanceType
from benchmarks.services import prices as price_services

pytestmark = pytest.mark.django_db

M5_ITEM = "GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"
PAGE = "/instance-types/m5.large/"


@pytest.fixture
def m5_prices(shared_data):
    path = shared_data / "pricing" / "aws-responses" / M5_ITEM
    price_services.import_price_list_file(path=path)


def cost_table(response) -> str:
    html = response.content.decode()
    start = html.index('id="cost-table"')
    return html[start : html.index("</table>", start)]


def test_the_page_prices_a_month_a_year_and_three_years_every_way_it_is_sold(m5_prices):
    response = Client().get(PAGE, {"at": "2021-06-01"})
    assert response.status_code == 200
    table = cost_table(response)
    assert table.count("<tr data-purchase-option") == 13
    assert 'data-purchase-option="on_demand"' in table
    # 730 hours on demand at $0.096.
    assert "$70.08" in table


def test_the_page_shows_each_commitments_break_even_month(m5_prices):
    table = cost_table(Client().get(PAGE, {"at": "2021-06-01"}))
    row_start = table.index('data-term="1y" data-payment="all_upfront"')
    row = table[row_start : table.index("</tr>", row_start)]
    assert "month 8" in row
    assert "$494.00" in row


def test_an_unknown_region_is_said_beside_the_table_not_a_broken_page(m5_prices):
    response = Client().get(PAGE, {"region": "us-east-9"})
    assert response.status_code == 200
    assert 'id="cost-error"' in response.content.decode()
    assert "us-east-9" in response.content.decode()


def test_a_type_without_prices_has_no_cost_table(m5_prices):
    InstanceType.objects.create(name="m5.xlarge")
    html = Client().get("/instance-types/m5.xlarge/").content.decode()
    assert "Cost over a period" not in html
