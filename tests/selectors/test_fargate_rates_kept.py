"""Fargate rates kept in the process and picked in Python: the same picks as `pick_periods` in
SQL on every day, one query for the region's rates while its stamp stays the same."""

import datetime
from decimal import Decimal

import pytest

from benchmarks import freshness
from benchmarks.models import FargateRate, InstanceType, Region
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.costs.fargate_prices import _rates, fargate_quotes
from benchmarks.selectors.costs.price_periods import pick_periods, pick_read_periods

pytestmark = pytest.mark.django_db

JAN, APR, JUL, OCT = (datetime.date(2024, month, 1) for month in (1, 4, 7, 10))


def rate(architecture, component, usd, start, end=None, **fields):
    return FargateRate.objects.create(
        region=Region.objects.get(code="us-east-1"),
        architecture=architecture,
        component=component,
        usd_per_unit_hour=Decimal(usd),
        effective_from=start,
        effective_to=end,
        source="test",
        **fields,
    )


@pytest.fixture
def periods():
    """Rates with gaps between periods, a future one, and two at once (the cheaper wins)."""
    rate("x86_64", "vcpu", "0.05", APR, JUL - datetime.timedelta(days=1))
    rate("x86_64", "vcpu", "0.04", OCT)
    rate("x86_64", "memory_gb", "0.006", JAN, APR)
    rate("x86_64", "memory_gb", "0.004", JUL)
    rate("arm64", "vcpu", "0.03", JAN)
    # Overlapping the one above from July (imports never write this; were it there, the
    # cheaper of the two in force is the pick, in SQL as in Python).
    rate("arm64", "vcpu", "0.02", JUL, OCT)
    rate("arm64", "memory_gb", "0.003", APR, APR)
    return Region.objects.get(code="us-east-1")


def test_the_rates_read_are_picked_as_pick_periods_picks_them_on_every_day(periods):
    read = _rates(periods, Purchase.of("on_demand"))
    days = [JAN - datetime.timedelta(days=40), OCT + datetime.timedelta(days=400)]
    days += [JAN + datetime.timedelta(days=9 * n) for n in range(50)]
    for day in days:
        in_sql = pick_periods(
            FargateRate.objects.filter(region=periods, operating_system="linux"),
            day=day,
            partition=["architecture", "component"],
            amount="usd_per_unit_hour",
        )
        assert pick_read_periods(read, day=day) == in_sql, day
    # Every kind of pick is among them: in force, the next, the previous, the earliest, the
    # latest known.
    notes = {
        pick.nearest
        for day in days
        for pick in pick_read_periods(read, day=day).values()
    }  # fmt: skip
    assert notes == {
        None,
        "the next price known",
        "the previous price known",
        "the earliest price known",
        "the latest price known",
    }


def test_a_regions_fargate_rates_are_read_once_while_its_stamp_stays_and_again_once_written(
    settings, periods
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    freshness.forget()
    task = InstanceType.objects.get(name="fargate-1vcpu-2gb")
    region = Region.objects.get(code="us-east-1")

    def quote(day):
        with CaptureQueriesContext(connection) as captured:
            found = fargate_quotes([task], region, Purchase.of("on_demand"), day)[task.pk]
        return found.usd_per_hour, len(captured)

    assert quote(datetime.date(2024, 5, 1)) == (Decimal("0.05") + 2 * Decimal("0.006"), 1)
    # Another day, the same kept rates: no query.
    assert quote(datetime.date(2024, 11, 1)) == (Decimal("0.04") + 2 * Decimal("0.004"), 0)
    # Written as another process would, the stamp unchanged: unseen while the stamp holds.
    FargateRate.objects.filter(effective_from=OCT).update(usd_per_unit_hour=Decimal("0.03"))
    assert quote(datetime.date(2024, 11, 1)) == (Decimal("0.04") + 2 * Decimal("0.004"), 0)
    # Written in this process (every price write says so): read again.
    freshness.data_changed()
    assert quote(datetime.date(2024, 11, 1)) == (Decimal("0.03") + 2 * Decimal("0.004"), 1)
    # Without a window, every question reads them.
    settings.PRICEBENCH_FRESHNESS_SECONDS = 0
    FargateRate.objects.filter(effective_from=OCT).update(usd_per_unit_hour=Decimal("0.02"))
    assert quote(datetime.date(2024, 11, 1)) == (Decimal("0.02") + 2 * Decimal("0.004"), 1)
