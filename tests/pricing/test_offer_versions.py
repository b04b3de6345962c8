"""`import_prices --offer-file --as-of DAY`: AWS's real version index picks the price list
version in force that day, whose offer file comes from a mirror (a loopback HTTP server
serving the real files in its layout: the fake at the HTTP edge)."""

import datetime
import functools
import io
import json
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import CommandError, call_command

from benchmarks.models import FargateRate, Price
from benchmarks.pricing import versions
from tests.pricing.test_offer_files import write_json

pytestmark = pytest.mark.django_db

INDEX = "offers_AmazonEC2_version_index_2025-09.json"
DECEMBER_2016 = "20161213014831"
SAMPLE = "aws_ec2_offer_c4large_us-east-1_201612_lyft.json"
ECS_ITEMS = "GetProducts_AmazonECS_us-east-1_2022-11.json"
PLANS = "aws_savingsplan_offer_eu-west-1_ligoj_fixture.json"
PLANS_INDEX = "aws_savingsplan_region_index_ligoj_fixture.json"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def mirror(tmp_path, aws_responses, aws_samples, settings):
    """The price list's layout on loopback: the version index, and December 2016's us-east-1
    file (the real sample of that version)."""
    root = tmp_path / "mirror"
    offers = root / "offers" / "v1.0" / "aws" / "AmazonEC2"
    (offers / DECEMBER_2016 / "us-east-1").mkdir(parents=True)
    shutil.copy(aws_responses / INDEX, offers / "index.json")
    shutil.copy(aws_samples / SAMPLE, offers / DECEMBER_2016 / "us-east-1" / "index.json")
    handler = functools.partial(QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.PRICEBENCH_OFFERS_URL = f"http://127.0.0.1:{server.server_port}"
    yield server
    server.shutdown()


def run(*arguments: str) -> str:
    out = io.StringIO()
    call_command("import_prices", *arguments, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_real_index_names_the_version_in_force_on_a_day(aws_responses):
    listed = versions.read_version_index(aws_responses / INDEX)
    assert len(listed) == 110 and listed[0].begins == datetime.date(2015, 12, 1)
    december = versions.version_in_force(listed, datetime.date(2016, 12, 15))
    assert (december.code, december.begins, december.ends) == (
        DECEMBER_2016,
        datetime.date(2016, 12, 1),
        datetime.date(2017, 1, 1),
    )
    assert december.url_for("us-east-1") == (
        f"/offers/v1.0/aws/AmazonEC2/{DECEMBER_2016}/us-east-1/index.json"
    )
    with pytest.raises(Exception, match="no price list version was in force on 2014-01-01"):
        versions.version_in_force(listed, datetime.date(2014, 1, 1))


def test_a_past_version_is_read_from_the_mirror_and_imported_once(mirror):
    out = run("--offer-file", "--as-of", "2016-12-15", "--region", "us-east-1")
    assert f"price list version {DECEMBER_2016}, in force from 2016-12-01 to 2017-01-01" in out
    prices = Price.objects.filter(instance_type__name="c4.large", purchase_option="on_demand")
    assert prices.count() == 1
    price = prices.get()
    assert float(price.usd_per_hour) == pytest.approx(0.1) and price.effective_from.year == 2016
    stored = Price.objects.count()
    # Again: nothing new (the same periods).
    run("--offer-file", "--as-of", "2016-12-20", "--region", "us-east-1")
    assert Price.objects.count() == stored


def test_a_local_index_works_the_same(mirror, aws_responses):
    run(
        "--offer-file", str(aws_responses / INDEX), "--as-of", "2016-12-15", "--region", "us-east-1"
    )
    assert Price.objects.filter(instance_type__name="c4.large").exists()


def test_what_the_mirror_lacks_or_the_index_cannot_say_is_refused_and_stores_nothing(
    mirror, aws_samples
):
    with pytest.raises(CommandError, match=r"/20161026205455/us-east-1/index.json: HTTP 404"):
        run("--offer-file", "--as-of", "2016-11-15", "--region", "us-east-1")
    with pytest.raises(CommandError, match="no price list version was in force on 2010-01-01"):
        run("--offer-file", "--as-of", "2010-01-01", "--region", "us-east-1")
    with pytest.raises(CommandError, match="not a price list version index"):
        run("--offer-file", str(aws_samples / SAMPLE), "--as-of", "2016-12-15")
    with pytest.raises(CommandError, match="needs a PATH, unless --as-of"):
        run("--offer-file")
    assert not Price.objects.exists()


def test_several_regions_are_imported_in_turn_and_a_failed_run_resumes(mirror, tmp_path, settings):
    settings.VAR_DIR = tmp_path / "var"
    current = tmp_path / "mirror" / "offers" / "v1.0" / "aws" / "AmazonEC2" / "current"
    (current / "us-east-1").mkdir(parents=True)
    december = current.parent / DECEMBER_2016 / "us-east-1" / "index.json"
    shutil.copy(december, current / "us-east-1" / "index.json")
    walk = ("--offer-file", "--regions", "us-east-1,ap-northeast-1", "--offers", "ec2")
    with pytest.raises(CommandError, match=r"1 file\(s\) failed \(ec2 ap-northeast-1\)"):
        run(*walk)
    stored = Price.objects.count()
    assert stored > 0
    state = settings.VAR_DIR / "import-regions-current.json"
    assert state.read_text() == '["ec2 us-east-1"]'
    # The missing file arrives (the same sample stands in for it): the run resumes there.
    (current / "ap-northeast-1").mkdir()
    shutil.copy(december, current / "ap-northeast-1" / "index.json")
    out = run(*walk)
    assert "ec2 us-east-1: done by a run before" in out and "ec2 ap-northeast-1: read" in out
    assert Price.objects.count() == stored and not state.exists()
    with pytest.raises(CommandError, match="unknown region"):
        run("--offer-file", "--regions", "mars-north-1")
    with pytest.raises(CommandError, match="go with --offer-file without a PATH"):
        run("--snapshot", "--all-regions")


def test_a_region_walk_reads_ec2_ecs_and_savings_plans_files(
    mirror, tmp_path, settings, aws_samples, load_response
):
    """The default walk reads each region's EC2 and ECS files of the current version and its
    Savings Plans file from their region index; a region the index lists without rates, or
    not at all, is said, not failed."""
    settings.VAR_DIR = tmp_path / "var"
    aws = tmp_path / "mirror" / "offers" / "v1.0" / "aws"
    (aws / "AmazonEC2" / "current" / "us-east-1").mkdir(parents=True)
    shutil.copy(aws_samples / SAMPLE, aws / "AmazonEC2" / "current" / "us-east-1" / "index.json")
    # ECS's file: the real Price List API items of us-east-1, in the offer file's layout.
    items = [json.loads(item) for item in load_response(ECS_ITEMS)["PriceList"]]
    for item in items:
        item["terms"].setdefault("Reserved", {})
    (aws / "AmazonECS" / "current" / "us-east-1").mkdir(parents=True)
    write_json(
        aws / "AmazonECS" / "current" / "us-east-1" / "index.json", items, offer_code="AmazonECS"
    )
    plans = tmp_path / "mirror" / "savingsPlan" / "v1.0" / "aws" / "AWSComputeSavingsPlan"
    (plans / "current" / "eu-west-1").mkdir(parents=True)
    shutil.copy(aws_samples / PLANS_INDEX, plans / "current" / "region_index.json")
    shutil.copy(aws_samples / PLANS, plans / "current" / "eu-west-1" / "index.json")

    out = run("--offer-file", "--regions", "us-east-1")
    assert "regions, ec2, ecs, savings-plans" in out
    assert "ec2 us-east-1: read" in out and "ecs us-east-1: read" in out
    # The Savings Plans region index (the sample lists three eu-west regions) has none.
    assert "savings-plans us-east-1: none" in out
    assert Price.objects.filter(instance_type__name="c4.large", region__code="us-east-1").exists()
    assert FargateRate.objects.filter(region__code="us-east-1").count() == 5
    out = run("--offer-file", "--regions", "eu-west-1,eu-west-2", "--offers", "savings-plans")
    assert "savings-plans eu-west-1: read" in out and "savings-plans eu-west-2: none" in out
    assert Price.objects.filter(region__code="eu-west-1", purchase_option="savings_plan").exists()
    counts = (Price.objects.count(), FargateRate.objects.count())
    # Walked again: nothing new.
    run("--offer-file", "--regions", "us-east-1")
    run("--offer-file", "--regions", "eu-west-1", "--offers", "savings-plans")
    assert (Price.objects.count(), FargateRate.objects.count()) == counts


def test_a_region_walk_refuses_what_it_cannot_read(mirror):
    with pytest.raises(CommandError, match="Savings Plans rates are read as now only"):
        run(
            "--offer-file", "--regions", "eu-west-1", "--offers", "savings-plans",
            "--as-of", "2016-12-15",
        )  # fmt: skip
    with pytest.raises(CommandError, match="unknown offer"):
        run("--offer-file", "--regions", "eu-west-1", "--offers", "rds")
    with pytest.raises(CommandError, match="--offers goes with --all-regions or --regions"):
        run("--offer-file", "x.json", "--offers", "ec2")
    assert not Price.objects.exists()
