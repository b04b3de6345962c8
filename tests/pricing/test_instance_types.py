"""describe_instance_types -> instance specifications, from the real responses."""

from decimal import Decimal

import pytest
from botocore.stub import Stubber

from benchmarks.errors import DomainError
from benchmarks.pricing import aws
from benchmarks.pricing.instance_types import architecture_of, read_instance_types
from benchmarks.pricing.records import InstanceSpecRecord, ReadStats
from tests.pricing.conftest import INSTANCE_TYPES_2020, INSTANCE_TYPES_RESPONSE


def specs_by_name(pages) -> dict[str, InstanceSpecRecord]:
    return {spec.name: spec for spec in read_instance_types(pages, source="test")}


def test_the_real_response_gives_cores_threads_memory_and_architecture(load_response):
    stats = ReadStats()
    specs = {
        spec.name: spec
        for spec in read_instance_types(
            [load_response(INSTANCE_TYPES_RESPONSE)], source="test", stats=stats
        )
    }
    assert (stats.read, stats.matched) == (82, 82)
    c7g = specs["c7g.xlarge"]
    assert (c7g.vcpus, c7g.physical_cores, c7g.threads_per_core) == (4, 4, 1)
    assert (c7g.memory_gib, c7g.architecture, c7g.cpu_family) == (Decimal(8), "arm64", "AWS")
    c4 = specs["c4.large"]
    assert (c4.vcpus, c4.physical_cores, c4.threads_per_core) == (2, 1, 2)
    assert c4.memory_gib == Decimal("3.75")  # 3840 MiB
    assert specs["c5n.large"].memory_gib == Decimal("5.25")  # 5376 MiB
    nano = specs["t2.nano"]
    assert (nano.memory_gib, nano.architecture, nano.burstable) == (Decimal("0.5"), "x86_64", True)
    assert specs["c7a.xlarge"].cpu_family == "AMD"
    assert not specs["c7i.xlarge"].burstable


def test_the_older_response_without_a_processor_maker_leaves_the_family_unknown(load_response):
    specs = specs_by_name([load_response(INSTANCE_TYPES_2020)])
    assert specs["a1.large"].architecture == "arm64"
    assert specs["a1.large"].cpu_family == ""
    assert specs["c3.large"].vcpus == 2


@pytest.mark.parametrize(
    ("supported", "architecture"),
    [
        (["i386", "x86_64"], "x86_64"),
        (["arm64"], "arm64"),
        (["x86_64_mac"], "x86_64"),
        (["arm64_mac"], "arm64"),
        (["i386"], ""),
    ],
)
def test_aws_architectures_map_to_ours(supported, architecture):
    assert architecture_of(supported) == architecture


def test_a_response_without_instance_types_is_refused():
    with pytest.raises(DomainError, match="page 1: not a describe_instance_types response"):
        list(read_instance_types([{"SpotPriceHistory": []}], source="test"))


def test_every_page_is_followed(aws_session, load_response):
    client = aws.ec2_client("us-east-1", session=aws_session)
    types = load_response(INSTANCE_TYPES_RESPONSE)["InstanceTypes"]
    with Stubber(client) as stubber:
        stubber.add_response(
            "describe_instance_types", {"InstanceTypes": types[:50], "NextToken": "next"}, {}
        )
        stubber.add_response(
            "describe_instance_types", {"InstanceTypes": types[50:]}, {"NextToken": "next"}
        )
        pages = aws.collect(aws.fetch_instance_types(client))
        stubber.assert_no_pending_responses()
    assert len(specs_by_name(pages)) == 82
