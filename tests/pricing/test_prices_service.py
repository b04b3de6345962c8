"""The price writes: history kept, idempotent, bad input refused whole, every source."""

import datetime
import json
from decimal import Decimal

import pytest
from botocore.stub import ANY, Stubber
from django.db import OperationalError
from django.utils import timezone

from benchmarks.errors import DomainError
from benchmarks.models import FargateRate, InstanceType, Price, PriceRefresh, in_force_on
from benchmarks.pricing import aws
from benchmarks.pricing.records import FargateRateRecord, InstanceSpecRecord, PriceRecord
from benchmarks.services import prices as price_services
from benchmarks.services.prices import periods as period_writes
from benchmarks.services.prices.fargate import FARGATE_RATES
from tests.pricing.conftest import ECS_RESPONSE, INSTANCE_TYPES_RESPONSE, M5_ITEM, with_usd

pytestmark = pytest.mark.django_db

JAN, JUN, DEC = datetime.date(2026, 1, 1), datetime.date(2026, 6, 1), datetime.date(2026, 12, 1)


def on_demand(usd, day, name="c7g.large", region="us-east-1", source="test", **fields):
    fields.setdefault("purchase_option", "on_demand")
    return PriceRecord(
        instance_type=name,
        region=region,
        usd_per_hour=Decimal(usd),
        effective_from=day,
        source=source,
        **fields,
    )


def spot(usd, moment, zone="use1-az1", name="c7g.large"):
    return PriceRecord(
        instance_type=name,
        region="us-east-1",
        purchase_option="spot",
        usd_per_hour=Decimal(usd),
        effective_from=moment.date(),
        source=f"spot {moment}",
        availability_zone=zone,
        observed_at=moment,
    )


def periods(name="c7g.large", option="on_demand", zone=""):
    return [
        (str(p.usd_per_hour.normalize()), p.effective_from, p.effective_to)
        for p in Price.objects.filter(
            instance_type__name=name, purchase_option=option, availability_zone=zone
        ).order_by("effective_from")
    ]


def price_on(day, name="c7g.large"):
    found = Price.objects.filter(in_force_on(day), instance_type__name=name)
    return found.get().usd_per_hour.normalize()


def test_the_same_prices_imported_twice_store_nothing_the_second_time():
    first = price_services.record_prices(records=[on_demand("0.0725", JAN)])
    again = price_services.record_prices(records=[on_demand("0.0725", JUN, source="later")])
    assert (first.stored, first.instance_types_created) == (1, 1)
    assert (again.stored, again.unchanged) == (0, 1)
    assert periods() == [("0.0725", JAN, None)]
    assert Price.objects.get().source == "test"


def test_a_changed_price_closes_the_old_period_and_prices_before_it_stay_old():
    price_services.record_prices(records=[on_demand("0.0725", JAN)])
    summary = price_services.record_prices(records=[on_demand("0.08", JUN, source="new")])
    assert (summary.stored, summary.closed) == (1, 1)
    assert periods() == [
        ("0.0725", JAN, JUN - datetime.timedelta(days=1)),
        ("0.08", JUN, None),
    ]
    assert price_on(datetime.date(2026, 5, 31)) == Decimal("0.0725")
    assert price_on(JUN) == price_on(DEC) == Decimal("0.08")


def test_an_older_price_fills_the_time_before_the_known_ones_without_touching_them():
    price_services.record_prices(records=[on_demand("0.08", JUN)])
    price_services.record_prices(records=[on_demand("0.0725", JAN)])
    assert periods() == [("0.0725", JAN, datetime.date(2026, 5, 31)), ("0.08", JUN, None)]


def test_several_prices_of_one_key_in_one_import_make_their_periods_in_order():
    summary = price_services.record_prices(
        records=[on_demand("0.09", DEC), on_demand("0.0725", JAN), on_demand("0.08", JUN)]
    )
    assert summary.stored == 3
    assert periods() == [
        ("0.0725", JAN, datetime.date(2026, 5, 31)),
        ("0.08", JUN, datetime.date(2026, 11, 30)),
        ("0.09", DEC, None),
    ]


def test_a_period_with_a_known_end_keeps_it():
    record = on_demand("0.0725", JAN, effective_to=datetime.date(2026, 3, 31))
    price_services.record_prices(records=[record])
    assert periods() == [("0.0725", JAN, datetime.date(2026, 3, 31))]


def test_spot_keeps_the_days_last_price_and_a_later_change_that_day_starts_the_next_day():
    morning = datetime.datetime(2026, 6, 1, 9, tzinfo=datetime.UTC)
    noon, evening = morning.replace(hour=12), morning.replace(hour=18)
    summary = price_services.record_prices(records=[spot("0.03", noon), spot("0.02", morning)])
    assert summary.stored == 1
    assert periods(option="spot", zone="use1-az1") == [("0.03", JUN, None)]
    # An hour later AWS has changed the price again: the day's period exists already.
    price_services.record_prices(records=[spot("0.035", evening)])
    assert periods(option="spot", zone="use1-az1") == [
        ("0.03", JUN, JUN),
        ("0.035", JUN + datetime.timedelta(days=1), None),
    ]
    # The next refresh sees the same price set the evening before: nothing new.
    again = price_services.record_prices(records=[spot("0.035", evening)])
    assert (again.stored, again.unchanged) == (0, 1)


def test_each_zone_has_its_own_spot_history():
    moment = datetime.datetime(2026, 6, 1, 9, tzinfo=datetime.UTC)
    price_services.record_prices(
        records=[spot("0.03", moment, "use1-az1"), spot("0.05", moment, "use1-az2")]
    )
    assert periods(option="spot", zone="use1-az2") == [("0.05", JUN, None)]
    assert Price.objects.filter(purchase_option="spot").count() == 2


def test_two_prices_for_one_day_in_one_import_are_refused_and_nothing_is_written():
    records = [
        on_demand("0.0725", JAN, name="t2.nano"),
        on_demand("0.08", JAN),
        on_demand("0.09", JAN),
    ]
    with pytest.raises(DomainError, match=r"c7g.large in us-east-1: two prices from 2026-01-01"):
        price_services.record_prices(records=records)
    assert not Price.objects.exists()
    assert not InstanceType.objects.filter(name="t2.nano").exists()


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (on_demand("0", JAN), "price 0 is not above zero"),
        (on_demand("0.1", JAN, name="not a type"), "is not an EC2 instance type name"),
        (on_demand("0.1", JAN, purchase_option="rented"), "purchase option 'rented'"),
        (on_demand("0.1", JAN, availability_zone="use1-az1"), "only they, name an availability"),
        (on_demand("0.1", JUN, effective_to=JAN), "effective_to 2026-01-01 is before"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message_and_nothing_is_written(record, message):
    with pytest.raises(DomainError, match=message):
        price_services.record_prices(records=[on_demand("0.0725", JAN, name="t2.nano"), record])
    assert not Price.objects.exists()


def test_a_fargate_task_size_has_no_ec2_price():
    with pytest.raises(DomainError, match="fargate-0.5vcpu-1gb: Fargate task sizes are priced"):
        price_services.record_prices(records=[on_demand("0.1", JAN, name="fargate-0.5vcpu-1gb")])


def test_unknown_instance_types_arrive_with_their_prices_and_unknown_regions_are_noted():
    summary = price_services.record_prices(
        records=[on_demand("0.1", JAN, name="z9.large"), on_demand("0.1", JAN, region="xx-moon-1")]
    )
    assert InstanceType.objects.get(name="z9.large").kind == InstanceType.Kind.EC2
    assert (summary.stored, summary.skipped) == (1, 1)
    assert summary.notes == ["regions pricebench does not know, skipped: xx-moon-1"]


def test_the_amazonecs_response_prices_a_1vcpu_2gb_task_at_0_04937_today(aws_responses):
    summary = price_services.import_price_list_file(path=aws_responses / ECS_RESPONSE)
    assert (summary.read, summary.matched, summary.stored) == (11, 5, 5)
    today = timezone.now().date()
    rates = {
        rate.component: rate.usd_per_unit_hour
        for rate in FargateRate.objects.filter(
            in_force_on(today), region__code="us-east-1", architecture="x86_64"
        )
    }
    task = InstanceType.objects.get(name="fargate-1vcpu-2gb")
    usd = rates["vcpu"] * task.vcpus + rates["memory_gb"] * task.memory_gib
    assert usd == Decimal("0.04937")
    again = price_services.import_price_list_file(path=aws_responses / ECS_RESPONSE)
    assert (again.stored, again.unchanged) == (0, 5)


def test_a_changed_fargate_rate_starts_a_new_period_and_the_old_one_holds_before():
    def rate(usd, day):
        return FargateRateRecord(
            region="us-east-1",
            architecture="x86_64",
            component="vcpu",
            usd_per_unit_hour=Decimal(usd),
            effective_from=day,
            source="test",
        )

    price_services.record_fargate_rates(records=[rate("0.04048", JAN)])
    price_services.record_fargate_rates(records=[rate("0.045", JUN)])
    found = FargateRate.objects.order_by("effective_from")
    assert [(r.usd_per_unit_hour.normalize(), r.effective_to) for r in found] == [
        (Decimal("0.04048"), datetime.date(2026, 5, 31)),
        (Decimal("0.045"), None),
    ]
    with pytest.raises(DomainError, match="architecture 'any' is not one of x86_64, arm64"):
        price_services.record_fargate_rates(
            records=[FargateRateRecord("us-east-1", "any", "vcpu", Decimal(1), JAN, "t")]
        )


def test_the_bundled_snapshot_holds_the_demo_prices_and_loads_once():
    summary = price_services.import_snapshot()
    assert summary.stored > 1250 and summary.unchanged == 0

    def on_demand_price(name, region):
        found = Price.objects.get(
            instance_type__name=name,
            region__code=region,
            purchase_option="on_demand",
            effective_to__isnull=True,
        )
        return found.usd_per_hour.normalize()

    assert on_demand_price("t2.nano", "us-east-1") == Decimal("0.0058")
    # And study S1's, dated December 2017.
    s1 = Price.objects.get(instance_type__name="t2.nano", effective_to=datetime.date(2017, 12, 31))
    assert (s1.effective_from, s1.usd_per_hour) == (datetime.date(2017, 12, 1), Decimal("0.0058"))
    assert on_demand_price("c7g.xlarge", "ap-northeast-1") == Decimal("0.1819")
    assert on_demand_price("c7a.xlarge", "ap-northeast-1") == Decimal("0.2584")
    assert on_demand_price("c7i.xlarge", "ap-northeast-1") == Decimal("0.2247")
    assert on_demand_price("c7g.large", "ap-northeast-1") == Decimal("0.091")
    launch = FargateRate.objects.filter(
        in_force_on(datetime.date(2017, 12, 1)), region__code="us-east-1", architecture="x86_64"
    )
    assert {r.component: r.usd_per_unit_hour.normalize() for r in launch} == {
        "vcpu": Decimal("0.0506"),
        "memory_gb": Decimal("0.0127"),
    }
    assert launch.first().effective_to == datetime.date(2019, 1, 6)
    tokyo_spot = Price.objects.filter(
        instance_type__name="c7g.large", region__code="ap-northeast-1", purchase_option="spot"
    )
    assert tokyo_spot.count() == 3 and all(p.availability_zone for p in tokyo_spot)
    c7g = InstanceType.objects.get(name="c7g.large")
    assert (c7g.cpu_family, c7g.architecture, c7g.vcpus) == ("AWS Graviton3", "arm64", 2)
    assert InstanceType.objects.get(name="t2.nano").baseline_share == Decimal("0.05")
    assert all(p.source for p in Price.objects.all())

    again = price_services.import_snapshot()
    assert (again.stored, again.instance_types_created, again.specs_updated) == (0, 0, 0)


def test_specifications_update_types_but_never_with_a_vaguer_cpu_family(aws_responses):
    price_services.import_snapshot()
    summary = price_services.import_instance_types_file(
        path=aws_responses / INSTANCE_TYPES_RESPONSE
    )
    assert (summary.read, summary.matched, summary.unchanged) == (82, 82, 82)
    assert InstanceType.objects.get(name="c7a.xlarge").network_performance == "Up to 12.5 Gigabit"
    assert InstanceType.objects.get(name="c7a.xlarge").cpu_family == "AMD EPYC 4th gen (Genoa)"
    spec = InstanceSpecRecord(
        name="c7a.xlarge", vcpus=4, memory_gib=Decimal(8), architecture="x86_64", source="new"
    )
    update = price_services.update_instance_specs(specs=[spec])
    assert (update.specs_updated, update.unchanged) == (0, 1)
    bigger = InstanceSpecRecord(
        name="c7a.xlarge", vcpus=4, memory_gib=Decimal(16), architecture="x86_64", source="new"
    )
    assert price_services.update_instance_specs(specs=[bigger]).specs_updated == 1
    c7a = InstanceType.objects.get(name="c7a.xlarge")
    assert (c7a.memory_gib, c7a.source, c7a.physical_cores) == (16, "new", 4)


def test_an_offer_file_is_imported_through_the_same_history(tmp_path, aws_responses):
    from tests.pricing.test_offer_files import offer_items, write_json

    item = json.loads((aws_responses / M5_ITEM).read_text())
    path = write_json(tmp_path / "index.json", offer_items(item))
    summary = price_services.import_offer_file(path=path)
    # Two on-demand prices and 12 Reserved terms each; a decoy repeats the m5.large's terms.
    assert (summary.read, summary.matched, summary.stored) == (10, 38, 26)
    assert periods("m5.large") == [("0.096", datetime.date(2021, 2, 1), None)]
    changed = write_json(tmp_path / "changed.json", [with_usd(item, "0.1")])
    text = changed.read_text().replace("2021-02-01T00:00:00Z", "2022-01-01T00:00:00Z")
    changed.write_text(text)
    price_services.import_offer_file(path=changed)
    assert periods("m5.large") == [
        ("0.096", datetime.date(2021, 2, 1), datetime.date(2021, 12, 31)),
        ("0.1", datetime.date(2022, 1, 1), None),
    ]


def stubbed_pricing_client(monkeypatch, aws_session, pages_by_service: dict):
    """aws.pricing_client answering get_products with the given pages, per service."""
    client = aws.pricing_client("us-east-1", session=aws_session)
    stubber = Stubber(client)
    for service, pages in pages_by_service.items():
        for page in pages:
            stubber.add_response("get_products", page, {"ServiceCode": service, **ANY_FILTERS})
    stubber.activate()
    monkeypatch.setattr(aws, "pricing_client", lambda region, session=None: client)
    return stubber


ANY_FILTERS = {"Filters": ANY, "FormatVersion": "aws_v1"}


def test_a_refresh_asks_aws_then_stores_and_records_how_it_went(
    monkeypatch, aws_session, load_response, m5_item
):
    ec2_page = {"FormatVersion": "aws_v1", "PriceList": [json.dumps(m5_item)]}
    stubber = stubbed_pricing_client(
        monkeypatch,
        aws_session,
        {"AmazonEC2": [ec2_page], "AmazonECS": [load_response(ECS_RESPONSE)]},
    )
    refresh = price_services.run_refresh(kind="on_demand", region="us-east-1")
    stubber.assert_no_pending_responses()
    assert (refresh.status, refresh.read, refresh.matched, refresh.stored) == ("ok", 12, 18, 18)
    assert refresh.finished_at is not None
    assert Price.objects.get(purchase_option="on_demand").source.startswith(
        "AWS Price List API, get_products on us-east-1, fetched "
    )


def test_a_refresh_that_fails_half_way_changes_nothing_and_says_why(
    monkeypatch, aws_session, load_response, m5_item
):
    ec2_page = {"FormatVersion": "aws_v1", "PriceList": [json.dumps(m5_item)]}
    stubbed_pricing_client(
        monkeypatch,
        aws_session,
        {"AmazonEC2": [ec2_page], "AmazonECS": [load_response(ECS_RESPONSE)]},
    )

    write_table = period_writes._write_table

    def database_gone_at_fargate(table, *args, **kwargs):
        if table is FARGATE_RATES:
            raise OperationalError("server closed the connection unexpectedly")
        return write_table(table, *args, **kwargs)

    # The EC2 prices are written first; the Fargate rates then fail.
    monkeypatch.setattr(period_writes, "_write_table", database_gone_at_fargate)
    with pytest.raises(OperationalError):
        price_services.run_refresh(kind="on_demand", region="us-east-1")
    refresh = PriceRefresh.objects.get()
    assert refresh.status == "failed"
    assert refresh.error == "OperationalError: server closed the connection unexpectedly"
    assert not Price.objects.exists()
    assert not InstanceType.objects.filter(name="m5.large").exists()


def test_a_refresh_for_a_region_pricebench_does_not_know_fails_and_is_recorded():
    with pytest.raises(DomainError, match="'xx-moon-1' is not an AWS region"):
        price_services.run_refresh(kind="spot", region="xx-moon-1")
    assert PriceRefresh.objects.get().status == "failed"
