"""AWS throttling (`ThrottlingException` from the Price List API, `RequestLimitExceeded` from
EC2) retried with backoff by botocore's standard retry mode, then given up as AwsThrottled.

botocore's Stubber answers before the retry handler runs (a stubbed error is raised at once,
never retried), so the retried answers are given at the HTTP level in `before-send`, where
botocore's own retry mode sees them; the Stubber serves what needs no retry.
"""

import datetime
import json
from xml.sax.saxutils import escape

import pytest
from botocore.awsrequest import AWSResponse
from botocore.stub import Stubber

from benchmarks.pricing import aws
from tests.pricing.conftest import ECS_RESPONSE, _Body, http_answer

# A saved describe_spot_price_history answer (its source in aws-samples/SOURCES.md).
SPOT_RESPONSE = "aws_ec2_spot_price_history_m5large_2021.json"
REQUEST_LIMIT = (
    b"<Response><Errors><Error><Code>RequestLimitExceeded</Code>"
    b"<Message>Request limit exceeded.</Message></Error></Errors>"
    b"<RequestID>test</RequestID></Response>"
)


def ec2_answer(status: int, body: bytes) -> AWSResponse:
    """What EC2 sends over HTTP (its XML query protocol)."""
    return AWSResponse("https://ec2.us-east-1.amazonaws.com/", status,
                       {"Content-Type": "text/xml;charset=UTF-8"}, _Body(body))  # fmt: skip


def spot_history_xml(response: dict) -> bytes:
    """The saved describe_spot_price_history response as EC2 sends it."""
    fields = (("instanceType", "InstanceType"), ("productDescription", "ProductDescription"),
              ("spotPrice", "SpotPrice"), ("timestamp", "Timestamp"),
              ("availabilityZone", "AvailabilityZone"))  # fmt: skip
    items = "".join(
        "<item>" + "".join(f"<{tag}>{escape(item[key])}</{tag}>" for tag, key in fields) + "</item>"
        for item in response["SpotPriceHistory"]
    )
    return (
        '<DescribeSpotPriceHistoryResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
        f"<requestId>test</requestId><spotPriceHistorySet>{items}</spotPriceHistorySet>"
        "</DescribeSpotPriceHistoryResponse>"
    ).encode()


@pytest.fixture
def saved_spot_history(shared_data) -> dict:
    return json.loads((shared_data / "pricing" / "aws-samples" / SPOT_RESPONSE).read_text())


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    """botocore's backoff between tries, recorded instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr("botocore.endpoint.time.sleep", slept.append)
    return slept


def answering(client, event: str, answers: list) -> list:
    """Answer the client's requests with `answers` in turn; returns the requests sent."""
    sent = []

    def answer(request, **kwargs):
        sent.append(request.body)
        return answers.pop(0)

    client.meta.events.register(event, answer)
    return sent


def test_both_clients_use_botocores_standard_retry_mode(aws_session):
    clients = (aws.pricing_client("us-east-1", session=aws_session),
               aws.ec2_client("us-east-1", session=aws_session))  # fmt: skip
    for client in clients:
        # botocore counts the first try in its normalised setting: ten retries, eleven tries.
        assert client.meta.config.retries == {"mode": "standard", "total_max_attempts": 11}
    assert aws.MAX_RETRIES == 10


def test_a_request_limit_exceeded_from_ec2_is_retried_after_a_backoff(
    aws_session, saved_spot_history, sleeps
):
    client = aws.ec2_client("us-east-1", session=aws_session)
    saved = saved_spot_history
    sent = answering(
        client,
        "before-send.ec2.DescribeSpotPriceHistory",
        [ec2_answer(503, REQUEST_LIMIT), ec2_answer(200, spot_history_xml(saved))],
    )
    at = datetime.datetime(2021, 2, 9, tzinfo=datetime.UTC)
    pages = aws.collect(aws.fetch_spot_price_history(client, at=at, instance_types=["m5.large"]))
    assert len(sent) == 2 and sent[0] == sent[1]
    assert len(sleeps) == 1 and 0 <= sleeps[0] <= 20
    history = pages[0]["SpotPriceHistory"]
    assert len(history) == len(saved["SpotPriceHistory"])
    assert (history[0]["AvailabilityZone"], history[0]["SpotPrice"]) == ("us-east-1f", "0.043700")


def test_a_throttling_exception_from_the_price_list_api_is_retried_with_growing_backoff(
    aws_session, load_response, sleeps
):
    client = aws.pricing_client("us-east-1", session=aws_session)
    throttled = {"__type": "ThrottlingException", "message": "Rate exceeded"}
    sent = answering(
        client,
        "before-send.pricing.GetProducts",
        [http_answer(400, throttled), http_answer(400, throttled), http_answer(400, throttled),
         http_answer(200, load_response(ECS_RESPONSE))],
    )  # fmt: skip
    pages = aws.collect(
        aws.fetch_price_list(client, service_code="AmazonECS", filters=aws.fargate_filters("x"))
    )
    assert len(sent) == 4 and len({json.dumps(json.loads(body)) for body in sent}) == 1
    assert len(sleeps) == 3
    assert len(pages[0]["PriceList"]) == 11


def test_throttling_that_lasts_every_try_ends_as_aws_throttled_after_the_last_retry(
    aws_session, sleeps
):
    client = aws.ec2_client("us-east-1", session=aws_session)
    sent = answering(
        client,
        "before-send.ec2.DescribeSpotPriceHistory",
        [ec2_answer(503, REQUEST_LIMIT) for _ in range(aws.MAX_RETRIES + 1)],
    )
    with pytest.raises(aws.AwsThrottled, match="RequestLimitExceeded"):
        aws.collect(aws.fetch_spot_price_history(client, instance_types=["m5.large"]))
    assert len(sent) == aws.MAX_RETRIES + 1 and len(sleeps) == aws.MAX_RETRIES


def test_a_stubbed_request_limit_exceeded_is_worth_retrying_later(aws_session, saved_spot_history):
    client = aws.ec2_client("us-east-1", session=aws_session)
    with Stubber(client) as stubber:
        stubber.add_client_error(
            "describe_spot_price_history", "RequestLimitExceeded", "Request limit exceeded.", 503
        )
        with pytest.raises(aws.AwsThrottled, match="Request limit exceeded"):
            aws.collect(aws.fetch_spot_price_history(client))
        # The next call (the task's own retry, later) is answered.
        stubber.add_response("describe_spot_price_history", saved_spot_history)
        pages = aws.collect(aws.fetch_spot_price_history(client))
        stubber.assert_no_pending_responses()
    assert pages[0]["SpotPriceHistory"][0]["InstanceType"] == "m5.large"
