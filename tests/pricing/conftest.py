"""Fixtures for the AWS price tests: the real responses in ../shared/data/pricing/, and
AWS clients that never leave the machine (botocore's Stubber, or fake HTTP answers)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import boto3
import pytest
from botocore.awsrequest import AWSResponse

ECS_RESPONSE = "GetProducts_AmazonECS_us-east-1_2022-11.json"
M5_ITEM = "GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"
INSTANCE_TYPES_RESPONSE = "DescribeInstanceTypes_t2_t3_m4_c4_c5_c5n_c6g_c7g_c7a_c7i.json"
INSTANCE_TYPES_2020 = "DescribeInstanceTypes_25_instances_2020.json"


@pytest.fixture
def aws_responses(shared_data) -> Path:
    return shared_data / "pricing" / "aws-responses"


@pytest.fixture
def aws_samples(shared_data) -> Path:
    """Other projects' real AWS pricing samples (their SOURCES.md says where each came from)."""
    return shared_data / "pricing" / "aws-samples"


@pytest.fixture
def load_response(aws_responses):
    """A real AWS response from the shared data, as a fresh dict each time."""

    def load(name: str) -> dict:
        return json.loads((aws_responses / name).read_text())

    return load


@pytest.fixture
def m5_item(load_response) -> dict:
    """The real m5.large Price List item (decoded): Linux, shared, $0.096/h, 12 reserved terms."""
    return load_response(M5_ITEM)


@pytest.fixture
def spot_example() -> dict:
    """botocore's own describe_spot_price_history example (AWS documentation), read in place."""
    import botocore

    path = Path(botocore.__file__).parent / "data/ec2/2016-11-15/examples-1.json"
    (example,) = json.loads(path.read_text())["examples"]["DescribeSpotPriceHistory"]
    return copy.deepcopy(example["output"])


@pytest.fixture
def aws_session(monkeypatch) -> boto3.Session:
    """A session with made-up credentials: requests are signed, never sent."""
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE"):
        monkeypatch.delenv(name, raising=False)
    return boto3.Session(
        aws_access_key_id="AKIDEXAMPLE",
        aws_secret_access_key="made-up",
        region_name="us-east-1",
    )


def decoy(item: dict, sku: str, **attributes) -> dict:
    """The real m5.large item under another SKU with some attributes changed (a decoy)."""
    text = json.dumps(item).replace(item["product"]["sku"], sku)
    changed = json.loads(text)
    changed["product"]["attributes"].update(attributes)
    return changed


def with_usd(item: dict, usd: str) -> dict:
    """The item with another on-demand price."""
    changed = copy.deepcopy(item)
    for term in changed["terms"]["OnDemand"].values():
        for dimension in term["priceDimensions"].values():
            dimension["pricePerUnit"]["USD"] = usd
    return changed


class _Body:
    def __init__(self, body: bytes):
        self.body = body

    def stream(self, **kwargs):
        yield self.body


def http_answer(status: int, body: dict) -> AWSResponse:
    """What the Price List API sends over HTTP (JSON protocol), for `before-send` handlers."""
    return AWSResponse(
        "https://api.pricing.us-east-1.amazonaws.com/",
        status,
        {"Content-Type": "application/x-amz-json-1.1", "x-amzn-RequestId": "test"},
        _Body(json.dumps(body).encode()),
    )
