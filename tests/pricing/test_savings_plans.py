"""Savings Plans offer files: Compute and EC2 Instance plans matched to instance types and to
Fargate by usage type, the rows that cannot be read or matched skipped and counted."""

import datetime
import json
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.models import FargateRate, Price
from benchmarks.pricing.savings_plans import SavingsPlanFile, looks_like
from benchmarks.services import prices as price_services

SAMPLE = "aws_savingsplan_offer_eu-west-1_ligoj_fixture.json"
REGION_INDEX = "aws_savingsplan_region_index_ligoj_fixture.json"


def test_the_sample_gives_its_valid_rates_and_counts_what_it_skipped(aws_samples):
    plans = SavingsPlanFile(aws_samples / SAMPLE)
    records = list(plans.records())
    assert (plans.stats.read, plans.stats.matched) == (15, 4)
    assert plans.stats.describe_skipped() == (
        "11 rates skipped (3 of dedicated or unused capacity, or other EC2 usage, "
        "8 of other services)"
    )
    (ec2,) = [record for record in records if hasattr(record, "instance_type")]
    assert (ec2.instance_type, ec2.region, ec2.plan, ec2.term, ec2.payment) == (
        "c1.medium",
        "eu-west-1",
        "compute",
        "1y",
        "all_upfront",
    )
    # All Upfront prepays the whole commitment: the rate times the term's hours.
    assert (ec2.usd_per_hour, ec2.upfront_usd, ec2.hourly_usd) == (
        Decimal("0.098"),
        Decimal("0.098") * 8760,
        0,
    )
    assert ec2.effective_from == datetime.date(2020, 2, 20)


def test_fargate_rates_come_from_the_plans_usage_types(aws_samples):
    records = list(SavingsPlanFile(aws_samples / SAMPLE).records())
    fargate = {
        (r.component, r.term, r.payment): (r.usd_per_unit_hour, r.effective_from)
        for r in records
        if not hasattr(r, "instance_type")
    }
    assert fargate == {
        ("vcpu", "1y", "all_upfront"): (Decimal("0.0315744"), datetime.date(2020, 2, 20)),
        ("vcpu", "3y", "no_upfront"): (Decimal("0.024288"), datetime.date(2021, 1, 22)),
        ("memory_gb", "3y", "no_upfront"): (Decimal("0.002667"), datetime.date(2021, 1, 22)),
    }


def test_it_is_told_apart_from_other_files_by_its_content(aws_samples, aws_responses):
    assert looks_like(aws_samples / SAMPLE)
    assert not looks_like(aws_samples / "aws_ec2_offer_c4large_us-east-1_201612_lyft.json")
    assert not looks_like(aws_samples / REGION_INDEX)


@pytest.mark.django_db
def test_importing_the_sample_twice_stores_nothing_new(aws_samples):
    first = price_services.import_offer_file(path=aws_samples / SAMPLE)
    assert (first.read, first.matched, first.stored) == (15, 4, 4)
    assert any("11 rates skipped" in note for note in first.notes)
    again = price_services.import_offer_file(path=aws_samples / SAMPLE)
    assert (again.stored, again.unchanged) == (0, 4)
    price = Price.objects.get()
    assert (price.purchase_option, price.plan, price.offering_class) == (
        "savings_plan",
        "compute",
        "",
    )
    assert FargateRate.objects.filter(purchase_option="savings_plan").count() == 3


@pytest.mark.django_db
def test_the_region_index_is_named_for_what_it_is(aws_samples):
    with pytest.raises(DomainError, match="this is a region index"):
        price_services.import_offer_file(path=aws_samples / REGION_INDEX)


def test_a_partial_upfront_plan_prepays_half_its_commitment(tmp_path):
    sample = {
        "version": "1",
        "publicationDate": "2024-01-01T00:00:00Z",
        "products": [
            {
                "sku": "P",
                "productFamily": "EC2InstanceSavingsPlans",
                "attributes": {"purchaseOption": "Partial Upfront", "purchaseTerm": "3yr"},
            }
        ],
        "terms": {
            "savingsPlan": [
                {
                    "sku": "P",
                    "rates": [
                        {
                            "discountedServiceCode": "AmazonEC2",
                            "discountedUsageType": "APN1-BoxUsage:c7g.large",
                            "discountedOperation": "RunInstances",
                            "discountedRate": {"price": "0.05", "currency": "USD"},
                        },
                        {
                            "discountedServiceCode": "AmazonEC2",
                            "discountedUsageType": "APN1-BoxUsage:c7g.large",
                            "discountedOperation": "RunInstances:0002",
                            "discountedRate": {"price": "0.09", "currency": "USD"},
                        },
                    ],
                }
            ]
        },
    }
    path = tmp_path / "index.json"
    path.write_text(json.dumps(sample))
    plans = SavingsPlanFile(path)
    (record,) = plans.records()
    assert (record.region, record.plan, record.upfront_usd, record.hourly_usd) == (
        "ap-northeast-1",
        "ec2_instance",
        Decimal("0.05") * 26280 / 2,
        Decimal("0.025"),
    )
    assert plans.stats.skipped == {"of other operating systems": 1}


def big_file(path, rates: int):
    """A Savings Plans file of one plan with `rates` EC2 rates (a big region's plan)."""
    with open(path, "w") as file:
        file.write(
            '{"version": "1", "publicationDate": "2024-01-01T00:00:00Z", "products": [{"sku": "P",'
            ' "productFamily": "ComputeSavingsPlans", "attributes": {"purchaseOption":'
            ' "No Upfront", "purchaseTerm": "1yr"}}], "terms": {"savingsPlan": [{"sku": "P",'
            ' "description": "1 year No Upfront Compute Savings Plan", "rates": ['
        )
        for index in range(rates):
            file.write("," if index else "")
            file.write(
                json.dumps(
                    {
                        "discountedSku": f"SKU{index:012d}",
                        "discountedServiceCode": "AmazonEC2",
                        "discountedUsageType": f"USE2-BoxUsage:zz{index // 100}.n{index % 100}",
                        "discountedOperation": "RunInstances",
                        "rateCode": f"P.SKU{index:012d}",
                        "unit": "Hrs",
                        "discountedRate": {"price": "0.0123", "currency": "USD"},
                    }
                )
            )
        file.write("]}]}}")


def test_a_big_plan_is_read_one_rate_at_a_time(tmp_path):
    import tracemalloc

    path = tmp_path / "index.json"
    big_file(path, 50_000)
    assert path.stat().st_size > 10_000_000
    tracemalloc.start()
    try:
        count = sum(1 for _ in SavingsPlanFile(path).records())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 50_000
    assert peak < 4_000_000, f"peak {peak:,} bytes"


def test_rates_before_their_plans_sku_are_read_all_the_same(tmp_path):
    path = tmp_path / "index.json"
    path.write_text(
        json.dumps(
            {
                "version": "1",
                "publicationDate": "2024-01-01T00:00:00Z",
                "products": [
                    {
                        "sku": "P",
                        "productFamily": "ComputeSavingsPlans",
                        "attributes": {"purchaseOption": "No Upfront", "purchaseTerm": "3yr"},
                    }
                ],
                "terms": {
                    "savingsPlan": [
                        {
                            "rates": [
                                {
                                    "discountedServiceCode": "AmazonEC2",
                                    "discountedUsageType": "BoxUsage:m5.large",
                                    "discountedOperation": "RunInstances",
                                    "discountedRate": {"price": "0.04", "currency": "USD"},
                                }
                            ],
                            "sku": "P",
                        }
                    ]
                },
            }
        )
    )
    (record,) = SavingsPlanFile(path).records()
    assert (record.region, record.term, record.usd_per_hour) == ("us-east-1", "3y", Decimal("0.04"))
