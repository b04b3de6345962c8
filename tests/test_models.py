"""The models package: its names, the periods' shared parts, and the family helpers."""

import datetime
from decimal import Decimal

from django.apps import apps

import benchmarks.models
from benchmarks.models import (
    AuroraRate,
    DatabasePrice,
    FargateRate,
    InstanceType,
    Price,
    Region,
    family_of,
    fargate_name,
    is_in_force,
)


def test_every_model_of_the_app_is_importable_from_the_package():
    for model in apps.get_app_config("benchmarks").get_models():
        assert getattr(benchmarks.models, model.__name__) is model


def test_every_model_has_a_one_line_docstring():
    for model in apps.get_app_config("benchmarks").get_models():
        first_line = (model.__doc__ or "").strip().split("\n")[0]
        assert first_line.endswith("."), model.__name__
        assert not first_line.startswith(f"{model.__name__}("), model.__name__


def test_an_hourly_price_reads_as_what_is_priced_then_its_price():
    machine = InstanceType(name="c7g.large")
    region = Region(code="us-east-1")
    day = datetime.date(2024, 5, 1)
    spot = Price(
        instance_type=machine,
        region=region,
        purchase_option="spot",
        availability_zone="us-east-1a",
        usd_per_hour=Decimal("0.0300"),
        effective_from=day,
    )
    database = DatabasePrice(
        instance_type=InstanceType(name="db.r6g.large"),
        region=region,
        engine="Aurora MySQL",
        deployment_option="Single-AZ",
        usd_per_hour=Decimal("0.26"),
        effective_from=day,
    )

    assert str(spot) == "c7g.large us-east-1 us-east-1a spot $0.0300/h from 2024-05-01"
    assert str(database) == "db.r6g.large Aurora MySQL Single-AZ us-east-1 $0.26/h from 2024-05-01"


def test_the_early_rate_tables_keep_effective_to_without_help_text():
    for model in (FargateRate, AuroraRate):
        assert model._meta.get_field("effective_to").help_text == ""
    assert Price._meta.get_field("effective_to").help_text


def test_a_period_is_in_force_from_its_first_to_its_last_day():
    period = Price(
        effective_from=datetime.date(2024, 1, 1), effective_to=datetime.date(2024, 1, 31)
    )

    assert is_in_force(period, datetime.date(2024, 1, 31))
    assert not is_in_force(period, datetime.date(2024, 2, 1))
    assert not is_in_force(period, datetime.date(2023, 12, 31))


def test_families_and_fargate_names():
    assert family_of(InstanceType.Kind.EC2, "c7g.xlarge") == "c7g"
    assert family_of(InstanceType.Kind.FARGATE, "fargate-1vcpu-2gb") == "fargate"
    assert family_of(InstanceType.Kind.DATABASE, "db.r3.large") == "db.r3"
    assert fargate_name(Decimal("0.25"), Decimal("0.50"), "arm64") == "fargate-0.25vcpu-0.5gb-arm64"
    assert fargate_name(Decimal("4.00"), Decimal("30"), "x86_64") == "fargate-4vcpu-30gb"
