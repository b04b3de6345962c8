"""The boto3 side: endpoints, retry configuration, every page followed, throttling handled.

AWS is faked at the edge only: botocore's Stubber answers with the real responses, and for
retries (which the Stubber bypasses) `before-send` answers at the HTTP level, so that
botocore's own retry mode does the retrying.
"""

import json

import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber

from benchmarks.pricing import aws
from benchmarks.pricing.price_list import read_price_list
from benchmarks.pricing.records import ReadStats
from tests.pricing.conftest import ECS_RESPONSE, http_answer


@pytest.mark.parametrize(
    ("region", "endpoint"),
    [
        ("us-east-1", "us-east-1"),
        ("us-west-2", "us-east-1"),
        ("sa-east-1", "us-east-1"),
        ("ca-central-1", "us-east-1"),
        ("eu-west-3", "eu-central-1"),
        ("il-central-1", "eu-central-1"),
        ("ap-northeast-1", "ap-south-1"),
        ("me-central-1", "ap-south-1"),
    ],
)
def test_the_pricing_endpoint_is_the_nearest_of_the_three(region, endpoint, aws_session):
    assert aws.pricing_endpoint_for(region) == endpoint
    client = aws.pricing_client(region, session=aws_session)
    assert client.meta.region_name == endpoint
    assert client.meta.config.retries["mode"] in ("standard", "adaptive")


def split_pages(response: dict, size: int) -> list[dict]:
    """The real response cut into pages of `size` items, chained by NextToken."""
    items = response["PriceList"]
    pages = []
    for number, start in enumerate(range(0, len(items), size)):
        page = {"FormatVersion": "aws_v1", "PriceList": items[start : start + size]}
        if start + size < len(items):
            page["NextToken"] = f"token-{number + 1}"
        pages.append(page)
    return pages


def test_every_page_of_get_products_is_followed(aws_session, load_response):
    client = aws.pricing_client("us-east-1", session=aws_session)
    pages = split_pages(load_response(ECS_RESPONSE), 4)
    assert len(pages) == 3
    filters = aws.fargate_filters("us-east-1")
    with Stubber(client) as stubber:
        for number, page in enumerate(pages):
            expected = {"ServiceCode": "AmazonECS", "Filters": filters, "FormatVersion": "aws_v1"}
            if number:
                expected["NextToken"] = f"token-{number}"
            stubber.add_response("get_products", page, expected)
        fetched = aws.collect(
            aws.fetch_price_list(client, service_code="AmazonECS", filters=filters)
        )
        stubber.assert_no_pending_responses()
    stats = ReadStats()
    records = list(read_price_list(fetched, source="test", stats=stats))
    assert (stats.read, len(records)) == (11, 5)


def test_the_ec2_filters_select_linux_shared_no_software_capacity_used():
    filters = {f["Field"]: f["Value"] for f in aws.ec2_on_demand_filters("ap-northeast-1")}
    assert filters == {
        "regionCode": "ap-northeast-1",
        "operatingSystem": "Linux",
        "tenancy": "Shared",
        "preInstalledSw": "NA",
        "capacitystatus": "Used",
    }


def test_a_throttled_call_is_retried_by_botocore_then_succeeds(
    aws_session, load_response, monkeypatch
):
    sleeps = []
    monkeypatch.setattr("botocore.endpoint.time.sleep", sleeps.append)
    client = aws.pricing_client("us-east-1", session=aws_session)
    answers = [
        http_answer(400, {"__type": "ThrottlingException", "message": "Rate exceeded"}),
        http_answer(200, load_response(ECS_RESPONSE)),
    ]
    sent = []

    def answer(request, **kwargs):
        sent.append(json.loads(request.body))
        return answers.pop(0)

    client.meta.events.register("before-send.pricing.GetProducts", answer)
    pages = aws.collect(
        aws.fetch_price_list(client, service_code="AmazonECS", filters=aws.fargate_filters("x"))
    )
    assert len(sent) == 2 and sent[0] == sent[1]
    assert len(sleeps) == 1  # botocore backed off once before trying again
    assert len(pages) == 1 and len(pages[0]["PriceList"]) == 11


def test_throttling_that_outlasts_botocores_retries_is_worth_retrying_later(aws_session):
    client = aws.pricing_client("us-east-1", session=aws_session)
    with Stubber(client) as stubber:
        stubber.add_client_error("get_products", "ThrottlingException", "Rate exceeded", 400)
        with pytest.raises(aws.AwsThrottled, match="Rate exceeded"):
            aws.collect(aws.fetch_price_list(client, service_code="AmazonEC2", filters=[]))


def test_other_client_errors_are_not(aws_session):
    client = aws.pricing_client("us-east-1", session=aws_session)
    with Stubber(client) as stubber:
        stubber.add_client_error("get_products", "AccessDeniedException", "No", 400)
        with pytest.raises(ClientError, match="AccessDeniedException"):
            aws.collect(aws.fetch_price_list(client, service_code="AmazonEC2", filters=[]))
