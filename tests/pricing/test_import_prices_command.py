"""`python manage.py import_prices`: every source, a summary, one-line errors."""

import io
import json

import pytest
from botocore.stub import ANY, Stubber
from django.core.management import CommandError, call_command
from django.core.management.base import OutputWrapper

from benchmarks.models import FargateRate, InstanceType, Price
from benchmarks.pricing import aws
from tests.pricing.conftest import ECS_RESPONSE, INSTANCE_TYPES_RESPONSE, M5_ITEM
from tests.pricing.test_offer_files import offer_items, write_csv, write_json

pytestmark = pytest.mark.django_db


def run(*arguments) -> str:
    out = io.StringIO()
    call_command("import_prices", *arguments, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_it_imports_a_saved_price_list_and_says_what_it_read_matched_and_stored(aws_responses):
    output = run("--price-list", str(aws_responses / ECS_RESPONSE))
    assert "AmazonECS items" in output
    assert "read 11, matched 5, stored 5, unchanged 0" in output
    assert FargateRate.objects.count() == 5
    again = run("--price-list", str(aws_responses / ECS_RESPONSE))
    assert "read 11, matched 5, stored 0, unchanged 5" in again


def test_it_imports_the_m5_large_item_at_its_on_demand_and_reserved_prices(aws_responses):
    output = run("--price-list", str(aws_responses / M5_ITEM))
    assert "AmazonEC2 items" in output and "stored 13" in output
    on_demand = Price.objects.get(instance_type__name="m5.large", purchase_option="on_demand")
    assert str(on_demand.usd_per_hour) == "0.09600000"


def test_it_imports_the_bundled_snapshot():
    # EC2 prices, Fargate rates, study S4's 3 EBS volume rates and 16 Reserved terms.
    assert "stored 1,371, unchanged 0" in run("--snapshot")
    assert "stored 0, unchanged 1,453" in run("--snapshot")


def test_it_imports_json_and_csv_offer_files(tmp_path, m5_item):
    items = offer_items(m5_item)
    json_output = run("--offer-file", str(write_json(tmp_path / "index.json", items)))
    assert "AWS bulk offer file AmazonEC2 version 20210205204500" in json_output
    # Two types' on-demand prices and their Reserved terms; a decoy repeats the m5.large's.
    assert "read 10, matched 38, stored 26, unchanged 12" in json_output
    csv_output = run("--offer-file", str(write_csv(tmp_path / "index.csv", items)))
    assert "matched 38, stored 0, unchanged 38" in csv_output


def test_it_draws_a_progress_bar_on_a_terminal(tmp_path, m5_item, monkeypatch):
    path = write_json(tmp_path / "index.json", offer_items(m5_item))
    monkeypatch.setattr(OutputWrapper, "isatty", lambda self: True)
    err = io.StringIO()
    call_command("import_prices", "--offer-file", str(path), stdout=io.StringIO(), stderr=err)
    drawn = err.getvalue()
    assert "\rproducts [" in drawn and "\rterms    [" in drawn
    assert "100%" in drawn and drawn.endswith("\n")


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path, m5_item):
    path = write_json(tmp_path / "index.json", offer_items(m5_item))
    err = io.StringIO()
    call_command("import_prices", "--offer-file", str(path), stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == ""


def test_it_imports_spot_history_and_instance_types(spot_example, tmp_path, aws_responses):
    saved = tmp_path / "spot.json"
    saved.write_text(json.dumps(spot_example))
    assert "read 2, matched 2, stored 2" in run("--spot-history", str(saved))
    output = run("--instance-types", str(aws_responses / INSTANCE_TYPES_RESPONSE))
    assert "read 82, matched 82" in output and "82 instance types created" in output
    assert InstanceType.objects.get(name="c7g.xlarge").architecture == "arm64"


def test_the_api_source_asks_aws_for_one_service_in_one_region(
    monkeypatch, aws_session, load_response
):
    client = aws.pricing_client("ap-northeast-1", session=aws_session)
    monkeypatch.setattr(aws, "pricing_client", lambda region, session=None: client)
    with Stubber(client) as stubber:
        stubber.add_response(
            "get_products",
            load_response(ECS_RESPONSE),
            {"ServiceCode": "AmazonECS", "Filters": ANY, "FormatVersion": "aws_v1"},
        )
        output = run("--api", "--service", "fargate", "--region", "us-east-1")
    assert "AWS Price List API, get_products on us-east-1" in output
    assert "matched 5, stored 5" in output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--api", "--service", "ec2"], "--api needs --service"),
        (["--snapshot", "--service", "ec2"], "--service goes with --api"),
        (["--offer-file", "/nonexistent/index.json"], "/nonexistent/index.json: no such file"),
        (["--api", "--service", "spot", "--region", "xx-moon-1"], "'xx-moon-1' is not an AWS"),
    ],
)
def test_errors_are_one_clear_line(arguments, message):
    with pytest.raises(CommandError, match=message) as raised:
        run(*arguments)
    assert "\n" not in str(raised.value)


def test_a_broken_file_is_an_error_naming_the_file(tmp_path):
    broken = tmp_path / "prices.json"
    broken.write_text('{"PriceList": ["{not json"]}')
    with pytest.raises(CommandError, match=r"page 1, PriceList\[0\]: not JSON"):
        run("--price-list", str(broken))


def test_aws_errors_are_one_line_too(monkeypatch, aws_session):
    client = aws.ec2_client("us-east-1", session=aws_session)
    monkeypatch.setattr(aws, "ec2_client", lambda region, session=None: client)
    with Stubber(client) as stubber:
        stubber.add_client_error("describe_instance_types", "UnauthorizedOperation", "Nope", 403)
        with pytest.raises(CommandError, match="AWS: .*UnauthorizedOperation.*Nope"):
            run("--api", "--service", "specs", "--region", "us-east-1")


def test_a_database_failure_half_way_says_so_and_stores_nothing(tmp_path, m5_item, monkeypatch):
    from django.db import OperationalError

    from benchmarks.services.prices import periods

    record_periods = periods.record_periods

    def written_then_gone(*args, **kwargs):
        record_periods(*args, **kwargs)  # written: only the import's transaction can undo it
        raise OperationalError("server closed the connection unexpectedly\nmore detail")

    monkeypatch.setattr(periods, "record_periods", written_then_gone)
    path = write_json(tmp_path / "offer.json", offer_items(m5_item))
    with pytest.raises(CommandError, match=r"the database failed \(OperationalError: server "
                       r"closed the connection unexpectedly\); nothing was stored"):  # fmt: skip
        call_command("import_prices", "--offer-file", str(path))
    assert not Price.objects.exists()
