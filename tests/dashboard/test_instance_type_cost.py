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


def test_the_calculator_prices_some_hours_of_use_a_month(m5_prices):
    response = Client().get(PAGE, {"at": "2021-06-01", "hours_per_month": "200"})
    html = response.content.decode()
    assert 'id="cost-hours"' in html and 'value="200"' in html
    assert "200 hours of use a month" in html
    table = cost_table(response)
    on_demand_start = table.index('data-purchase-option="on_demand"')
    on_demand = table[on_demand_start : table.index("</tr>", on_demand_start)]
    # 200 hours at $0.096, the cheapest month at that use.
    assert "$19.20 <strong>cheapest</strong>" in on_demand
    row_start = table.index('data-term="1y" data-payment="all_upfront"')
    row = table[row_start : table.index("</tr>", row_start)]
    assert "never in its term" in row


def test_hours_of_use_beyond_a_month_are_said_beside_the_table(m5_prices):
    response = Client().get(PAGE, {"hours_per_month": "900"})
    assert response.status_code == 200
    error = response.content.decode().split('id="cost-error">')[1].split("</p>")[0]
    assert "hours_per_month" in error
