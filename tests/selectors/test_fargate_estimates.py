"""Estimated Fargate rows: the method, its validation on study S1, and the answers' rows."""

import datetime
from decimal import Decimal

import pytest

from benchmarks import fargate_estimate
from benchmarks.fargate_estimate import GRAVITON2, Source, estimate
from benchmarks.models import FargateBasis, FargateRate, InstanceType, Price, Region
from benchmarks.services import statistics
from benchmarks.services.demo import load_demo
from benchmarks.services.statistics.fargate import keep_fargate_basis
from tests.selectors.test_price_performance import answer, run_with

DAY = datetime.date(2024, 6, 1)


def test_a_process_per_vcpu_benchmark_scales_one_process_to_the_tasks_vcpus():
    sources = [
        Source("c6g.medium", 1, 100.0, processes=1),
        Source("c6g.large", 2, 210.0, processes=2),
        Source("c6g.xlarge", 4, 400.0, processes=4),
    ]
    # Same-size sources first: c6g.large's 105 a process, two processes.
    assert estimate(sources, 2).figure == pytest.approx(210.0)
    assert estimate(sources, 2).sources == ("c6g.large",)
    # A 0.25 vCPU task runs one process held to a quarter of a vCPU.
    quarter = estimate(sources, 0.25)
    assert (quarter.figure, quarter.sustains) == (pytest.approx(25.0), 0.25)
    # No 16-vCPU source: every source's figure per process, scaled and said so.
    large = estimate(sources, 16)
    assert large.scaled and large.figure == pytest.approx(16 * 100.0)
    # A pinned process count: one process on a 4-vCPU task is one process's figure.
    assert estimate(sources, 4, processes=1).figure == pytest.approx(100.0)


def test_other_benchmarks_take_the_same_size_else_scale_per_vcpu():
    sources = [Source("m6g.medium", 1, 50.0), Source("m6g.large", 2, 52.0)]
    assert estimate(sources, 2).figure == 52.0
    assert estimate(sources, 0.5).figure == 25.0
    scaled = estimate(sources, 8)
    assert scaled.scaled and scaled.figure == pytest.approx(8 * 38.0)  # median of 50, 26


def test_burstable_sources_only_without_fixed_ones_and_latencies_only_for_whole_sizes():
    burst = Source("t4g.large", 2, 999.0, processes=2, burstable=True)
    fixed = Source("c6g.large", 2, 200.0, processes=2)
    assert estimate([burst, fixed], 2).sources == ("c6g.large",)
    assert estimate([burst], 2).sources == ("t4g.large",)
    latency = [Source("c6g.large", 2, 0.004)]
    assert estimate(latency, 2, higher_is_better=False).figure == 0.004
    assert estimate(latency, 0.5, higher_is_better=False) is None
    assert estimate(latency, 4, higher_is_better=False) is None
    assert estimate([], 1) is None
    # No source's vCPUs known and none of the task's size: nothing to scale by.
    assert estimate([Source("x.large", 0, 10.0)], 2) is None


def test_processor_names_match_as_lscpu_and_the_specifications_write_them():
    assert fargate_estimate.same_processor("AWS ARMv8 Neoverse-N1", "Neoverse-N1")
    assert fargate_estimate.same_processor("Intel Xeon E5-2686 v4", "Intel Xeon E5-2686 v4")
    assert not fargate_estimate.same_processor("Neoverse-N1", "Neoverse-V1")


@pytest.mark.django_db
def test_the_basis_kept_from_study_s1_has_its_observations_and_a_small_error():
    load_demo()
    basis = keep_fargate_basis()
    observed = {seen["cpu_model"]: seen["observations"] for seen in basis.observed}
    assert observed == {
        "Intel Xeon E5-2670 v2": 11,
        "Intel Xeon E5-2676 v3": 4,
        "Intel Xeon E5-2686 v4": 10,
    }
    assert basis.observed[0]["cpu_model"] == "Intel Xeon E5-2670 v2"  # the most observed
    assert all(seen["source"].startswith("Study S1") for seen in basis.observed)
    counted = [row for row in basis.validation if row["counted"]]
    # Whole-vCPU tasks on the E5-2686 v4 predicted from m4.large, in both algorithms.
    assert {row["from"][0] for row in counted} == {"m4.large"}
    assert {row["benchmark"] for row in counted} == {"openssl:aes-128-gcm", "openssl:aes-128-ctr"}
    assert 0 < basis.validated_error < 0.05
    # The 0.25 vCPU task's runs are listed, not counted: S1's short runs were not held to
    # the quota.
    quarter = [row for row in basis.validation if row["task"] == "fargate-0.25vcpu-0.5gb"]
    assert quarter and not any(row["counted"] for row in quarter)
    assert {row["processor"] for row in quarter} == {
        "Intel Xeon E5-2676 v3",
        "Intel Xeon E5-2686 v4",
    }


def _graviton2_and_fargate_rates():
    region = Region.objects.get(code="us-east-1")
    for name, vcpus, usd in [("c6g.medium", 1, "0.034"), ("c6g.large", 2, "0.068")]:
        instance_type = InstanceType.objects.create(
            name=name, vcpus=vcpus, cpu_model=GRAVITON2, architecture="arm64"
        )
        Price.objects.create(
            instance_type=instance_type,
            region=region,
            purchase_option="on_demand",
            usd_per_hour=Decimal(usd),
            effective_from=datetime.date(2024, 1, 1),
            source="test",
        )
    for architecture, vcpu, memory in [("arm64", "0.03238", "0.00356")]:
        for component, usd in (("vcpu", vcpu), ("memory_gb", memory)):
            FargateRate.objects.create(
                region=region,
                architecture=architecture,
                component=component,
                usd_per_unit_hour=Decimal(usd),
                effective_from=datetime.date(2024, 1, 1),
                source="test",
            )
    key = "openssl:aes-256-cbc"
    run_with("c6g.medium", [1.4e9], key=key, params={"block_size": 8192, "processes": 1})
    run_with("c6g.large", [2.8e9], key=key, params={"block_size": 8192, "processes": 2})


@pytest.mark.django_db
def test_the_arm64_sizes_no_task_measured_are_estimated_from_graviton2():
    _graviton2_and_fargate_rates()
    statistics.keep_noise()
    assert FargateBasis.objects.exists()
    table = answer("openssl:aes-256-cbc", "us-east-1", at=DAY, params={"block_size": "8192"})
    rows = {row.instance_type: row for row in table.results}
    assert not rows["c6g.large"].estimated
    one = rows["fargate-1vcpu-2gb-arm64"]
    assert one.estimated and one.median == pytest.approx(1.4e9)
    assert one.estimate["from"] == ["c6g.medium"]
    assert one.estimate["processor"] == "AWS Graviton2 (Neoverse-N1)"
    assert one.estimate["observed"] is None  # documented by AWS, not observed
    two = rows["fargate-2vcpu-4gb-arm64"]
    assert two.median == pytest.approx(2.8e9)
    assert two.usd_per_hour == pytest.approx(2 * 0.03238 + 4 * 0.00356)
    assert two.per_dollar == pytest.approx(two.median * 3600 / two.usd_per_hour, rel=1e-6)
    quarter = rows["fargate-0.25vcpu-0.5gb-arm64"]
    assert quarter.median == pytest.approx(0.25 * 1.4e9)
    assert quarter.estimate["sustains"] == 0.25
    # The least memory for each vCPU count: one 2-vCPU size, not thirteen.
    assert [name for name in rows if name.startswith("fargate-2vcpu")] == [
        "fargate-2vcpu-4gb-arm64"
    ]


@pytest.mark.django_db
def test_estimates_leave_when_excluded_or_fargate_is_not_asked_and_a_measurement_replaces_one():
    _graviton2_and_fargate_rates()
    statistics.keep_noise()
    params = {"block_size": "8192"}
    from benchmarks.questions.price_performance import PricePerformanceQuery
    from benchmarks.selectors.answer.price_performance import price_performance_table

    def names(**options):
        query = PricePerformanceQuery(
            benchmark="openssl:aes-256-cbc", region="us-east-1", at=DAY, params=params, **options
        )
        return {row.instance_type: row.estimated for row in price_performance_table(query).results}

    assert not any(names(estimates="exclude").values())
    assert not any(names(families=("c6g",)).values())
    assert names(families=("fargate", "c6g"))["fargate-1vcpu-2gb-arm64"] is True
    run_with(
        "fargate-1vcpu-2gb-arm64",
        [1.3e9],
        key="openssl:aes-256-cbc",
        params={"block_size": 8192, "processes": 1},
    )
    measured = names()
    assert measured["fargate-1vcpu-2gb-arm64"] is False
    assert measured["fargate-2vcpu-4gb-arm64"] is True


@pytest.mark.django_db
def test_the_api_and_its_sentence_label_every_estimate(client):
    _graviton2_and_fargate_rates()
    statistics.keep_noise()
    url = "/api/v1/price-performance/?benchmark=openssl:aes-256-cbc&region=us-east-1"
    response = client.get(url + "&block_size=8192&at=2024-06-01&families=fargate")
    assert response.status_code == 200, response.content
    body = response.json()
    rows = body["results"]
    assert rows and all(row["estimated"] for row in rows)
    assert all(
        set(row["estimate"]) >= {"processor", "from", "observed", "validated_error"} for row in rows
    )
    # Only estimates in the answer: the sentence never names one without saying so.
    assert "(estimated from AWS Graviton2" in body["summary"]
    both = client.get(url + "&block_size=8192&at=2024-06-01").json()["results"]
    assert [row for row in both if row["instance_type"] == "c6g.large"][0]["estimated"] is False
    assert "estimate" not in [row for row in both if row["instance_type"] == "c6g.large"][0]
    refused = client.get(url + "&block_size=8192&estimates=some")
    assert refused.status_code == 400 and "estimates" in refused.json()


@pytest.mark.django_db
def test_the_page_and_the_csv_label_every_estimate(client):
    _graviton2_and_fargate_rates()
    statistics.keep_noise()
    question = "benchmark=openssl:aes-256-cbc&region=us-east-1&block_size=8192&at=2024-06-01"
    page = client.get("/?" + question + "&families=fargate,c6g").content.decode()
    assert page.count('<tr data-instance-type="fargate-') == page.count('class="estimated"') > 0
    assert "estimated from AWS Graviton2 (Neoverse-N1) on c6g.medium (EC2)" in page
    assert "hatched: Fargate sizes no task measured" in page
    assert '"estimated": true' in page and '"estimated": false' in page  # the charts' data
    csv = client.get("/api/v1/price-performance/?" + question + "&format=csv").content.decode()
    header, *lines = csv.splitlines()
    assert "estimated" in header.split(",") and "estimate" in header.split(",")
    quarter = next(line for line in lines if line.startswith("fargate-0.25vcpu-0.5gb-arm64"))
    assert "processor: AWS Graviton2 (Neoverse-N1); from: c6g.medium" in quarter


@pytest.mark.django_db
def test_a_profile_estimates_a_fargate_size_from_every_member_and_labels_it():
    from benchmarks.questions.profiles import ProfileQuery
    from benchmarks.selectors.subjects.profiles import profile_table

    _graviton2_and_fargate_rates()
    for key, (medium, large) in {
        "openssl:aes-256-cbc": (1.4e9, 2.8e9),
        "openssl:sha256": (2.0e9, 4.1e9),
        "openssl:sha512": (1.0e9, 2.0e9),
    }.items():
        run_with("c6g.medium", [medium], key=key, params={"block_size": 16384, "processes": 1})
        run_with("c6g.large", [large], key=key, params={"block_size": 16384, "processes": 2})
    statistics.keep_noise()
    table = profile_table(ProfileQuery(profile="crypto", region="us-east-1", at=DAY))
    rows = {row.instance_type: row for row in table.results}
    assert not rows["c6g.large"].estimated
    two = rows["fargate-2vcpu-4gb-arm64"]
    # Every member estimated from c6g.large's own figures: the same score as c6g.large.
    assert two.estimated and two.score == pytest.approx(rows["c6g.large"].score)
    assert two.estimate["from"] == ["c6g.large"]
    # The medians the scores are normalised by are the measured types' only.
    [sha256] = [label for label in table.medians if label.startswith("openssl:sha256")]
    assert table.medians[sha256] == pytest.approx((2.0e9 + 4.1e9) / 2)
    excluded = profile_table(
        ProfileQuery(profile="crypto", region="us-east-1", at=DAY, estimates="exclude")
    )
    assert not any(row.estimated for row in excluded.results)
