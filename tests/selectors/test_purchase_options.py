"""Price-performance with every purchase option: commitments by term, payment, class or plan,
the spot zone asked, and a missing price stated rather than an error."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from benchmarks.models import FargateRate, InstanceType, Price, Region
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.costs.prices import price_menu
from tests.selectors.test_price_performance import DAY, answer, make_type, price, run_with

pytestmark = pytest.mark.django_db

START = datetime.date(2024, 1, 1)


def reserved(name, upfront, hourly, *, term="1y", payment="partial_upfront", cls="standard"):
    hours = 8760 if term == "1y" else 26280
    upfront, hourly = Decimal(upfront), Decimal(hourly)
    return Price.objects.create(
        instance_type=make_type(name),
        region=Region.objects.get(code="us-east-1"),
        purchase_option="reserved",
        term=term,
        payment=payment,
        offering_class=cls,
        upfront_usd=upfront,
        hourly_usd=hourly,
        usd_per_hour=(upfront / hours + hourly).quantize(Decimal("0.00000001")),
        effective_from=START,
        source="test",
    )


@pytest.fixture
def two_types():
    # On demand, c5 is the cheaper per unit of work; reserved, m5's discount is the deeper.
    price("c5.large", "0.085", START)
    price("m5.large", "0.096", START)
    reserved("c5.large", "300", "0.04")
    reserved("m5.large", "252", "0.029")
    run_with("c5.large", [100.0])
    run_with("m5.large", [100.0])


def ranking(**options):
    return [
        row.instance_type
        for row in answer("openssl:sha256", "us-east-1", at=DAY, **options).results
    ]


def test_the_ranking_changes_with_the_purchase_option(two_types):
    assert ranking() == ["c5.large", "m5.large"]
    assert ranking(purchase_option="reserved", payment="partial_upfront") == [
        "m5.large",
        "c5.large",
    ]


def test_a_reserved_row_says_which_price_it_used(two_types):
    table = answer(
        "openssl:sha256", "us-east-1", at=DAY, purchase_option="reserved", payment="partial_upfront"
    )
    row = next(row for row in table.results if row.instance_type == "m5.large")
    assert (row.upfront_usd, row.hourly_usd) == (252.0, 0.029)
    assert row.usd_per_hour == pytest.approx(252 / 8760 + 0.029)
    assert row.per_dollar == pytest.approx(100 * 3600 / (252 / 8760 + 0.029), rel=1e-6)


def test_a_missing_commitment_is_a_stated_reason(two_types):
    table = answer("openssl:sha256", "us-east-1", at=DAY, purchase_option="reserved", term="3y")
    assert table.results == []
    reasons = {unpriced.instance_type: unpriced.reason for unpriced in table.unpriced}
    assert reasons["m5.large"] == (
        "no reserved (3y, no_upfront, standard) price known for m5.large in us-east-1"
    )


def test_the_menu_offers_only_options_that_have_prices(two_types):
    assert price_menu()["us-east-1"] == ["on_demand", "reserved"]


def test_fargate_spot_rates_price_fargate_tasks_only():
    region = Region.objects.get(code="us-east-1")
    for component, usd in [("vcpu", "0.01458"), ("memory_gb", "0.0016")]:
        FargateRate.objects.create(
            region=region,
            architecture="x86_64",
            component=component,
            usd_per_unit_hour=Decimal(usd),
            purchase_option="fargate_spot",
            effective_from=START,
            source="test",
        )
    task = InstanceType.objects.get(name="fargate-1vcpu-2gb")
    run_with(task.name, [100.0])
    price("c5.large", "0.085", START)
    run_with("c5.large", [100.0])
    table = answer("openssl:sha256", "us-east-1", at=DAY, purchase_option="fargate_spot")
    assert [(row.instance_type, row.usd_per_hour) for row in table.results] == [
        ("fargate-1vcpu-2gb", pytest.approx(0.01458 + 2 * 0.0016))
    ]
    assert [unpriced.instance_type for unpriced in table.unpriced] == ["c5.large"]
    assert "fargate_spot" in price_menu()["us-east-1"]


def test_a_purchase_describes_itself_and_its_stored_fields():
    purchase = Purchase(
        option="savings_plan", term="3y", payment="all_upfront", plan="ec2_instance"
    )
    assert purchase.describe() == "savings_plan (ec2_instance, 3y, all_upfront)"
    assert purchase.price_fields() == {
        "purchase_option": "savings_plan",
        "os": "linux",
        "term": "3y",
        "payment": "all_upfront",
        "offering_class": "",
        "plan": "ec2_instance",
    }
    assert Purchase(option="spot").commitment() == {
        "term": "",
        "payment": "",
        "offering_class": "",
        "plan": "",
    }


def test_the_api_answers_a_reserved_question_with_its_terms_and_parts(two_types):
    response = APIClient().get(
        "/api/v1/price-performance/",
        {
            "benchmark": "openssl:sha256",
            "region": "us-east-1",
            "at": DAY.isoformat(),
            "purchase_option": "reserved",
            "payment": "partial_upfront",
        },
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["term"], body["payment"], body["offering_class"], body["plan"]) == (
        "1y",
        "partial_upfront",
        "standard",
        None,
    )
    first = body["results"][0]
    assert (first["instance_type"], first["upfront_usd"], first["hourly_usd"]) == (
        "m5.large",
        252,
        0.029,
    )


def test_the_api_names_a_term_it_does_not_know(two_types):
    response = APIClient().get(
        "/api/v1/price-performance/",
        {"benchmark": "openssl:sha256", "region": "us-east-1", "term": "5y"},
    )
    assert response.status_code == 400
    assert "5y is not a valid choice" in str(response.json())


def test_the_summary_names_the_commitment(two_types):
    table = answer(
        "openssl:sha256", "us-east-1", at=DAY, purchase_option="reserved", payment="partial_upfront"
    )
    from benchmarks.selectors.answer.answer_sentence import summary

    assert "reserved (1y, partial_upfront, standard) prices in us-east-1" in summary(table)


@pytest.mark.parametrize("count", [10, 1000])
def test_a_reserved_answer_takes_as_few_queries_whatever_the_number_of_types(count):
    from tests.api.test_price_performance_at_scale import fleet, queries_of

    names = fleet(count)
    region = Region.objects.get(code="us-east-1")
    Price.objects.bulk_create(
        Price(
            instance_type=instance_type,
            region=region,
            purchase_option="reserved",
            term="1y",
            payment="no_upfront",
            offering_class="standard",
            upfront_usd=Decimal(0),
            hourly_usd=Decimal("0.06"),
            usd_per_hour=Decimal("0.06"),
            effective_from=START,
            source="test",
        )
        for instance_type in InstanceType.objects.filter(name__in=names)
    )
    used, response = queries_of(
        APIClient(),
        "/api/v1/price-performance/",
        {"benchmark": "tool:x", "region": "us-east-1", "purchase_option": "reserved"},
    )
    rows = response.json()["results"]
    assert len(rows) == count and rows[0]["hourly_usd"] == 0.06
    assert used <= 6, used


@pytest.mark.parametrize("option", ["on_demand", "spot"])
def test_many_types_are_priced_from_the_regions_whole_price_list_as_few_are(option):
    """Past MANY_TYPES the region's prices are read whole: the same quotes as for each type
    asked alone, another region's and unasked types' prices left aside."""
    from benchmarks.selectors.costs import prices as price_reads

    jan, later = datetime.date(2024, 1, 1), datetime.date(2024, 9, 1)
    count = price_reads.MANY_TYPES + 5
    zone = "use1-az1" if option == "spot" else ""
    for index in range(count):
        # Every seventh type is priced only from a later day: its quote is the nearest.
        start = later if index % 7 == 0 else jan
        price(f"m{index}.large", f"0.{index + 100}", start, option=option, zone=zone)
        price(f"m{index}.large", "9", jan, region="eu-west-1", option=option, zone=zone)
    price("unasked.large", "0.001", jan, option=option, zone=zone)
    machines = list(InstanceType.objects.filter(name__startswith="m").order_by("name"))
    region = Region.objects.get(code="us-east-1")
    day = datetime.date(2024, 3, 1)
    together = price_reads.hourly_prices(
        instance_types=machines, region=region, purchase_option=option, day=day
    )
    alone = {}
    for machine in machines[:20]:
        alone.update(
            price_reads.hourly_prices(
                instance_types=[machine], region=region, purchase_option=option, day=day
            )
        )
    assert set(together) == {machine.pk for machine in machines}
    assert all(together[pk] == quote for pk, quote in alone.items())
    assert together[machines[0].pk].in_force is False
    assert together[machines[0].pk].usd_per_hour == Decimal("0.100")


def test_a_spot_quote_counts_each_zone_once_among_many_types_without_a_price():
    """Past MANY_TYPES, the types without a spot price in force are looked for in the region's
    whole price list: a type priced in force keeps its own zones, each counted once."""
    from benchmarks.selectors.costs import prices as price_reads

    zones = ("use1-az1", "use1-az2", "use1-az4", "use1-az5", "use1-az6")
    for index, zone in enumerate(zones):
        price("m5.large", f"0.03{index}", START, option="spot", zone=zone)
    for index in range(price_reads.MANY_TYPES + 5):
        make_type(f"n{index}.large")
    machines = list(InstanceType.objects.filter(name__regex=r"^(m5|n[0-9]+)\.large$"))
    quotes = price_reads.hourly_prices(
        instance_types=machines,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="spot",
        day=DAY,
    )
    m5 = quotes[InstanceType.objects.get(name="m5.large").pk]
    assert (m5.usd_per_hour, m5.note) == (Decimal("0.032"), "median of 5 availability zones")


@pytest.mark.django_db
@pytest.mark.parametrize("count", [1, 210])
def test_of_two_periods_in_force_at_once_the_cheaper_prices_a_type(count):
    """Periods never overlap as imports write them; were two in force at once, the cheaper is
    the quote, whether the type is asked alone or with the region's whole price list."""
    from benchmarks.selectors.costs import prices as price_reads

    jan, feb = datetime.date(2024, 1, 1), datetime.date(2024, 2, 1)
    price("m0.large", "0.30", jan)
    price("m0.large", "0.20", feb)
    for index in range(1, count):
        price(f"m{index}.large", "0.50", jan)
    machines = list(InstanceType.objects.filter(name__startswith="m").order_by("name"))
    quotes = price_reads.hourly_prices(
        instance_types=machines,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="on_demand",
        day=datetime.date(2024, 3, 1),
    )
    first = quotes[machines[0].pk]
    assert (first.usd_per_hour, first.effective_from, first.in_force) == (
        Decimal("0.20"),
        feb,
        True,
    )
    assert len(quotes) == count


def test_a_regions_whole_price_list_is_read_once_in_the_window_and_again_once_a_price_is_written(
    settings,
):
    """Many types' quotes come from the region's periods kept in the process for the
    freshness window, whatever the day asked; a price written in this process is seen at
    once (`freshness.data_changed`), one written elsewhere within the window."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmarks import freshness
    from benchmarks.selectors.costs import prices as price_reads

    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    jan, jul = datetime.date(2024, 1, 1), datetime.date(2024, 7, 1)
    count = price_reads.MANY_TYPES + 5
    for index in range(count):
        price(f"m{index}.large", "0.10", jan, jul - datetime.timedelta(days=1))
        price(f"m{index}.large", "0.08", jul)
    machines = list(InstanceType.objects.filter(name__startswith="m"))
    region = Region.objects.get(code="us-east-1")

    def quotes(day):
        with CaptureQueriesContext(connection) as captured:
            found = price_reads.hourly_prices(
                instance_types=machines, region=region, purchase_option="on_demand", day=day
            )
        return {quote.usd_per_hour for quote in found.values()}, len(captured)

    assert quotes(datetime.date(2024, 3, 1)) == ({Decimal("0.10")}, 1)
    # Another day, the same kept periods: no query, the period in force on that day.
    assert quotes(datetime.date(2024, 8, 1)) == ({Decimal("0.08")}, 0)
    # Written as another process would (no word to this one): unseen within the window.
    Price.objects.filter(effective_from=jul).update(usd_per_hour=Decimal("0.07"))
    assert quotes(datetime.date(2024, 8, 1)) == ({Decimal("0.08")}, 0)
    # Written in this process: every price write says so (`record_periods`).
    freshness.data_changed()
    assert quotes(datetime.date(2024, 8, 1)) == ({Decimal("0.07")}, 1)
    # Without a window, every question reads the periods.
    settings.PRICEBENCH_FRESHNESS_SECONDS = 0
    assert quotes(datetime.date(2024, 3, 1)) == ({Decimal("0.10")}, 1)


def test_a_regions_kept_periods_answer_every_day_as_each_types_own_periods_do():
    """A region's whole list (`TypePeriods`) works out what is in force once per stretch of
    days on which no period starts or ends: on every day of a seeded walk (each side of every
    period's first and last day included, stretches revisited, more of them than it keeps)
    its answer is the one each type's periods give that day."""
    import random

    from benchmarks.selectors.costs import prices as price_reads
    from benchmarks.selectors.costs.price_periods import PriceQuote

    generator = random.Random(55)
    start = datetime.date(2024, 1, 1)
    periods: dict[int, list] = {}
    for type_id in range(1, 60):
        first = start + datetime.timedelta(days=generator.randrange(0, 40))
        for number in range(generator.randrange(0, 4)):  # some types have none
            last = None
            if generator.random() < 0.7:
                last = first + datetime.timedelta(days=generator.randrange(0, 30))
            usd = Decimal(generator.randrange(1, 99)) / 100
            quote = PriceQuote(usd, None, first, True)
            periods.setdefault(type_id, []).append(
                price_reads._Period(first, last, type_id * 10 + number, quote)
            )
            if last is None:
                break
            # A gap or none; now and then a period overlapping the last one's last day.
            first = last + datetime.timedelta(days=generator.choice([-1, 1, 1, 2, 9]))
    kept = price_reads.TypePeriods(periods)
    ids = list(range(1, 70))  # with types the region does not price
    dates = price_reads._period_dates(periods)
    days = [day + datetime.timedelta(days=shift) for day in dates for shift in (-1, 0)]
    days += [start + datetime.timedelta(days=generator.randrange(-5, 150)) for _ in range(80)]
    generator.shuffle(days)
    assert len(set(map(lambda day: price_reads.bisect.bisect_right(dates, day), days))) > (
        price_reads.TypePeriods.STRETCHES
    )
    for day in days:
        every, without = kept.in_force(day)
        expected, expected_without = price_reads._quotes_in_force(periods, ids, day)
        assert {pk: every[pk] for pk in ids if pk in every} == expected, day
        assert without == expected_without, day
    assert len(kept._stretches) <= price_reads.TypePeriods.STRETCHES
