"""Commitment prices (Reserved Instances, Savings Plans) stored by term, payment and class or
plan, with the upfront and hourly parts of their effective hourly price."""

import datetime
import importlib
from decimal import Decimal

import pytest
from django.apps import apps

from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Price, Region
from benchmarks.pricing.records import PriceRecord
from benchmarks.services import prices as price_services

pytestmark = pytest.mark.django_db

DAY = datetime.date(2021, 2, 1)


def reserved(upfront, hourly, *, term="3y", payment="all_upfront", offering_class="standard"):
    hours = 8760 if term == "1y" else 26280
    upfront, hourly = Decimal(upfront), Decimal(hourly)
    return PriceRecord(
        instance_type="m5.large",
        region="us-east-1",
        purchase_option="reserved",
        usd_per_hour=(upfront / hours + hourly).quantize(Decimal("0.00000001")),
        effective_from=DAY,
        source="test",
        term=term,
        payment=payment,
        offering_class=offering_class,
        upfront_usd=upfront,
        hourly_usd=hourly,
    )


def test_it_stores_a_reserved_price_with_its_upfront_and_hourly_parts():
    price_services.record_prices(records=[reserved("1051", "0")])
    (price,) = Price.objects.all()
    assert (price.term, price.payment, price.offering_class, price.plan) == (
        "3y",
        "all_upfront",
        "standard",
        "",
    )
    assert price.upfront_usd == Decimal("1051")
    assert price.hourly_usd == 0
    assert price.usd_per_hour == Decimal("0.03999239")


def test_each_term_payment_and_class_is_its_own_price_and_storing_again_adds_nothing():
    records = [
        reserved("1051", "0"),
        reserved("0", "0.06", term="1y", payment="no_upfront"),
        reserved("0", "0.071", term="1y", payment="no_upfront", offering_class="convertible"),
    ]
    assert price_services.record_prices(records=records).stored == 3
    again = price_services.record_prices(records=records)
    assert (again.stored, again.unchanged) == (0, 3)


def test_it_refuses_an_effective_hourly_price_that_is_not_made_of_its_parts():
    wrong = reserved("1051", "0")
    wrong = PriceRecord(**{**_fields(wrong), "usd_per_hour": Decimal("0.05")})
    with pytest.raises(DomainError, match="effective hourly 0.05 is not upfront 1051 / 26280 h"):
        price_services.record_prices(records=[wrong])
    assert not Price.objects.exists()


def test_it_refuses_a_commitment_without_a_term_and_an_on_demand_price_with_one():
    no_term = PriceRecord(**{**_fields(reserved("0", "0.06", term="1y")), "term": ""})
    with pytest.raises(DomainError, match="term '' is not one of 1y, 3y"):
        price_services.record_prices(records=[no_term])
    on_demand = PriceRecord(
        instance_type="m5.large",
        region="us-east-1",
        purchase_option="on_demand",
        usd_per_hour=Decimal("0.096"),
        effective_from=DAY,
        source="test",
        term="1y",
    )
    with pytest.raises(DomainError, match="on_demand prices have no term"):
        price_services.record_prices(records=[on_demand])


def test_a_savings_plan_names_its_plan_and_no_offering_class():
    plan = PriceRecord(
        **{**_fields(reserved("0", "0.06", term="1y", payment="no_upfront")), "offering_class": ""},
    )
    plan = PriceRecord(**{**_fields(plan), "purchase_option": "savings_plan"})
    with pytest.raises(DomainError, match="plan '' is not one of compute, ec2_instance"):
        price_services.record_prices(records=[plan])
    price_services.record_prices(records=[PriceRecord(**{**_fields(plan), "plan": "compute"})])
    assert Price.objects.get().plan == "compute"


def test_the_migration_names_the_old_reserved_option_as_a_commitment():
    migration = importlib.import_module("benchmarks.migrations.0013_price_commitments")
    instance_type = InstanceType.objects.create(name="m5.large")
    Price.objects.create(
        instance_type=instance_type,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="reserved_1yr_no_upfront",
        usd_per_hour=Decimal("0.06"),
        effective_from=DAY,
        source="old",
    )
    migration.name_old_reserved_prices(apps, None)
    price = Price.objects.get()
    assert (price.purchase_option, price.term, price.payment, price.offering_class) == (
        "reserved",
        "1y",
        "no_upfront",
        "standard",
    )
    assert (price.upfront_usd, price.hourly_usd) == (0, Decimal("0.06"))


def _fields(record: PriceRecord) -> dict:
    return {name: getattr(record, name) for name in PriceRecord.__slots__}
