"""Workload profiles: `GET profiles/`, `price-performance/?profile=KEY` and the finder's
`profile=`: scores computed by hand on a small table, types lacking a member listed, errors
that name the valid keys, and a fixed number of queries whatever the number of types."""

import csv
import datetime
import io
import math
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks import parsers
from benchmarks.models import Benchmark, InstanceType, Price, Region, Run
from benchmarks.parsers import lscpu
from benchmarks.profiles import BY_KEY, PROFILES, VCPUS
from benchmarks.services import runs as run_services

pytestmark = pytest.mark.django_db

CRYPTO = BY_KEY["crypto"]
START = datetime.date(2024, 1, 1)
# Per type (2 vCPUs): its price in us-east-1 and its values of crypto's three members (OpenSSL's
# AES-256, SHA-256 and SHA-512, one process per vCPU).
TYPES = {
    "pf1.large": (Decimal("0.10"), (100.0, 10.0, 1.0)),
    "pf1.xlarge": (Decimal("0.20"), (200.0, 20.0, 2.0)),
    "pf2.large": (Decimal("0.10"), (400.0, 10.0, 1.0)),
    # Measured with two members only: left out, listed with what it lacks.
    "pf3.large": (Decimal("0.10"), (100.0, 10.0, None)),
}


def priced(types: dict, *, vcpus: int = 2) -> None:
    region = Region.objects.get(code="us-east-1")
    for name, (usd, _) in types.items():
        instance_type, _ = InstanceType.objects.get_or_create(name=name, defaults={"vcpus": vcpus})
        Price.objects.create(
            instance_type=instance_type,
            region=region,
            purchase_option="on_demand",
            usd_per_hour=usd,
            effective_from=START,
            source="test",
        )


def uploaded(rows: list[tuple[str, str, float, int]]) -> None:
    """(benchmark, instance type, value, processes) as one CSV of results, on 16 KiB blocks."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["benchmark", "instance_type", "region", "value", "unit", "param.block_size",
         "param.processes"]
    )  # fmt: skip
    for benchmark, name, value, processes in rows:
        writer.writerow([benchmark, name, "us-east-1", value, "B/s", 16384, processes])
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error


def measured(types: dict) -> None:
    """The types priced, with 2 vCPUs, and their values of crypto's members (one process per
    vCPU) uploaded."""
    priced(types)
    assert all(member.params == {"block_size": 16384, "processes": VCPUS}
               for member in CRYPTO.members)  # fmt: skip
    uploaded(
        [
            (member.benchmark, name, value, 2)
            for name, (_, values) in types.items()
            for member, value in zip(CRYPTO.members, values, strict=True)
            if value is not None
        ]
    )


def expected_scores(types: dict) -> dict[str, float]:
    """The profile's definition, computed by hand: each value over its member's median across
    the types measured with it, weighted geometric mean."""
    medians = []
    for index, _member in enumerate(CRYPTO.members):
        values = sorted(v[index] for _, v in types.values() if v[index] is not None)
        middle = len(values) // 2
        medians.append(
            values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
        )
    scores = {}
    for name, (_, values) in types.items():
        if None in values:
            continue
        logs = sum(
            member.weight * math.log(value / median)
            for member, value, median in zip(CRYPTO.members, values, medians, strict=True)
        )
        scores[name] = math.exp(logs / CRYPTO.total_weight)
    return scores


def test_every_profile_is_well_formed():
    assert len({profile.key for profile in PROFILES}) == len(PROFILES) >= 5
    for profile in PROFILES:
        assert profile.members and all(member.weight > 0 for member in profile.members)
        labels = [member.label for member in profile.members]
        assert len(set(labels)) == len(labels), profile.key


def test_profiles_are_listed_with_their_benchmarks_params_and_weights(client):
    answer = client.get("/api/v1/profiles/").json()["results"]
    assert [profile["key"] for profile in answer] == [profile.key for profile in PROFILES]
    web = next(profile for profile in answer if profile["key"] == "web-serving")
    assert web["benchmarks"][0] == {
        "benchmark": "static_web:http",
        "params": {"connections": 16, "size": 1024, "threads": 8},
        "weight": 0.7,
        "label": "static_web:http (connections=16, size=1024, threads=8)",
    }


def test_the_ranking_is_the_weighted_geometric_mean_per_dollar(client):
    measured(TYPES)
    answer = client.get(
        "/api/v1/price-performance/", {"profile": "crypto", "region": "us-east-1"}
    ).json()
    assert answer["profile"]["key"] == "crypto" and answer["purchase_option"] == "on_demand"
    scores = expected_scores(TYPES)
    rows = {row["instance_type"]: row for row in answer["results"]}
    assert set(rows) == set(scores)
    for name, score in scores.items():
        assert rows[name]["score"] == pytest.approx(score)
        # Hours of the median type's work a dollar buys.
        assert rows[name]["per_dollar"] == pytest.approx(score / float(TYPES[name][0]), rel=1e-3)
    # pf2.large: four times the AES of pf1.large at the same price ranks first.
    assert answer["results"][0]["instance_type"] == "pf2.large"
    assert answer["lacking"] == [
        {
            "instance_type": "pf3.large",
            "variant": None,
            "lacks": ["openssl:sha512 (block_size=16384, processes=vcpus)"],
        }
    ]


def test_a_member_with_processes_per_vcpu_takes_each_types_whole_machine_series(client):
    measured(TYPES)
    # pf4.xlarge's figures with 4 processes, one per vCPU, and with 1, which is not the member.
    priced({"pf4.xlarge": (Decimal("0.20"), ())}, vcpus=4)
    uploaded(
        [(member.benchmark, "pf4.xlarge", 800.0, 4) for member in CRYPTO.members]
        + [(member.benchmark, "pf4.xlarge", 1.0, 1) for member in CRYPTO.members]
        # pf1.large's series with one process: not its whole machine, left aside too.
        + [(member.benchmark, "pf1.large", 1.0, 1) for member in CRYPTO.members]
    )
    answer = client.get(
        "/api/v1/price-performance/", {"profile": "crypto", "region": "us-east-1"}
    ).json()
    rows = {row["instance_type"]: row for row in answer["results"]}
    assert set(rows) == {"pf1.large", "pf1.xlarge", "pf2.large", "pf4.xlarge"}
    aes = CRYPTO.members[0].label
    assert aes == "openssl:aes-256-cbc (block_size=16384, processes=vcpus)"
    # The member's median across types: 100, 200, 400 and 800 (pf3.large's 100 too).
    assert answer["medians"][aes] == 200.0
    assert rows["pf4.xlarge"]["components"][aes] == 4.0
    assert rows["pf1.large"]["components"][aes] == 0.5


def test_crypto_ranks_graviton_first_as_openssl_does_on_spare_cores_own_figures(
    client, shared_data
):
    """c7g.large and c7a.large at their us-east-1 prices of 2026-07-20: OpenSSL's AES-256 on
    every vCPU (what TLS and disk encryption run) is 1.4 times c7a's on c7g, whose price is 0.7
    times; PassMark's encryption tests, the members before, gave c7g.large a fourteenth of
    c7a.large's AES and ranked it last."""
    types = {"c7g.large": (Decimal("0.0725"), ()), "c7a.large": (Decimal("0.10264"), ())}
    priced(types)
    wanted = {(member.benchmark, member.params["block_size"]) for member in CRYPTO.members}
    rows = []
    for name in types:
        folder = shared_data / "sparecores-aws" / name
        cpus = lscpu.parse((folder / "lscpu_stdout").read_text()).cpu.cpus
        output = parsers.parse((folder / "openssl_stdout").read_bytes(), processes=cpus)
        rows += [
            (result.benchmark, name, result.value, result.params["processes"])
            for result in output.results
            if (result.benchmark, result.params["block_size"]) in wanted
        ]
    assert len(rows) == 2 * len(CRYPTO.members)
    uploaded(rows)
    answer = client.get(
        "/api/v1/price-performance/", {"profile": "crypto", "region": "us-east-1"}
    ).json()
    ranked = [row["instance_type"] for row in answer["results"]]
    assert ranked == ["c7g.large", "c7a.large"]
    first, second = answer["results"]
    assert first["per_dollar"] > 1.5 * second["per_dollar"]


def test_a_profile_answer_reads_in_a_fixed_number_of_queries(client):
    measured(TYPES)
    more = {f"pq{index}.large": (Decimal("0.3"), (50.0 + index, 5.0, 0.5)) for index in range(30)}
    with CaptureQueriesContext(connection) as few:
        client.get("/api/v1/price-performance/", {"profile": "crypto", "region": "us-east-1"})
    measured(more)
    with CaptureQueriesContext(connection) as many:
        response = client.get(
            "/api/v1/price-performance/", {"profile": "crypto", "region": "us-east-1"}
        )
    assert len(response.json()["results"]) == 33
    assert len(many) == len(few) <= 8


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"profile": "nope", "region": "us-east-1"}, "profile", "choose from cpu-integer"),
        ({"profile": "crypto", "region": "xx-nowhere-1"}, "region", "unknown region"),
        ({"profile": "crypto", "benchmark": "tool:x", "region": "us-east-1"}, "detail", "not both"),
    ],
)
def test_a_bad_profile_question_is_a_400_naming_what_is_wrong(client, query, field, message):
    response = client.get("/api/v1/price-performance/", query)
    assert response.status_code in (400, 404)
    assert message in " ".join(response.json()[field])


def test_the_finder_ranks_by_a_profile_and_its_csv_holds_exactly_those_rows(client):
    measured(TYPES)
    Benchmark.objects.filter(key__startswith="openssl:").update(families=["pf1", "pf2"])
    query = {"profile": "crypto", "family": "pf1,pf2,pf3", "measured": "on"}
    page = client.get("/instance-types/", query)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="profile-note"' in text and "openssl:aes-256-cbc" in text
    export = client.get("/instance-types/", {**query, "format": "csv"})
    rows = list(csv.reader(io.StringIO(export.content.decode())))
    assert rows[0] == [
        "name", "vcpus", "memory_gib", "architecture", "burstable", "usd_per_hour", "per_dollar"
    ]  # fmt: skip
    assert [row[0] for row in rows[1:]] == ["pf2.large", "pf1.large", "pf1.xlarge"]
    assert "profile-crypto" in export["Content-Disposition"]
    refused = client.get("/instance-types/", {"profile": "crypto", "benchmark": "tool:x"})
    assert refused.status_code == 400
