"""The demo's Reserved prices (benchmarks/demo/commitment_prices.csv, the 16 terms the shared
data holds): the per-dollar ranking follows the purchase option, and types without such a
price are listed as unpriced with why."""

import pytest

from benchmarks.models import Price
from benchmarks.services.demo import load_sparecores_demo

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]

QUESTION = {"benchmark": "passmark:cpu-mark", "region": "us-east-1", "families": "c4,m5"}
RESERVED = {"purchase_option": "reserved", "term": "1y", "payment": "no_upfront",
            "offering_class": "standard"}  # fmt: skip


def test_the_demo_carries_every_reserved_term_of_its_sources():
    reserved = Price.objects.filter(purchase_option="reserved")
    assert reserved.filter(instance_type__name="m5.large").count() == 12
    three_years = reserved.get(
        instance_type__name="m5.large", term="3y", payment="all_upfront", offering_class="standard"
    )
    # Its effective hourly price is the upfront fee spread over 26,280 hours.
    assert float(three_years.usd_per_hour) == pytest.approx(949 / 26_280, abs=1e-8)
    assert reserved.filter(instance_type__name="c4.large").count() == 4


def test_a_reserved_ranking_prices_what_has_a_reserved_price_and_names_the_rest(client):
    # The rest of the demo for the two families its Reserved prices are of.
    load_sparecores_demo(families={"c4", "m5"})
    on_demand = client.get("/api/v1/price-performance/", QUESTION).json()
    answer = client.get("/api/v1/price-performance/", {**QUESTION, **RESERVED})
    assert answer.status_code == 200, answer.content
    reserved = answer.json()
    assert (reserved["purchase_option"], reserved["term"], reserved["payment"]) == (
        "reserved",
        "1y",
        "no_upfront",
    )
    by_type = {row["instance_type"]: row for row in reserved["results"]}
    assert set(by_type) == {"c4.large", "m5.large"}
    assert by_type["m5.large"]["usd_per_hour"] == pytest.approx(0.06)
    assert by_type["c4.large"]["usd_per_hour"] == pytest.approx(0.063)
    assert by_type["c4.large"]["hourly_usd"] == pytest.approx(0.063)
    plain = {row["instance_type"]: row for row in on_demand["results"]}
    for name, row in by_type.items():
        # The same work at another price: per dollar moves by the ratio of the prices.
        assert row["per_dollar"] / plain[name]["per_dollar"] == pytest.approx(
            plain[name]["usd_per_hour"] / row["usd_per_hour"], rel=1e-3
        )
    # The order of the two follows the prices each is paid at.
    order = [row["instance_type"] for row in reserved["results"]]
    assert order == sorted(by_type, key=lambda name: -by_type[name]["per_dollar"])
    unpriced = {row["instance_type"] for row in reserved["unpriced"]}
    assert set(plain) - set(by_type) <= unpriced and len(unpriced) >= 10
