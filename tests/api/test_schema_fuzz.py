"""Schemathesis over every operation of the API, through the WSGI app, against its schema.

The demo data is loaded once and every operation is fuzzed in the one test, so that its
database transaction holds it; the schema is the one `/api/v1/schema/` serves. Half of the
schema-valid cases are steered to names that exist (benchmark keys, regions, run ids, a
real output to upload), so that successful answers are checked too, not only 400s and 404s.
"""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import schemathesis
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.core.failures import FailureGroup

# The tests `schemathesis.pytest.from_fixture` runs, built the same way; run here in one test
# because its runner renames pytest's nodes in a way pytest 9 no longer allows.
from schemathesis.pytest.lazy import get_all_tests
from schemathesis.specs.openapi import checks as openapi_checks

from benchmarks.models import qualified_name
from benchmarks.selectors.subjects import workload_vectors
from benchmarks.services import statistics
from benchmarks.services.demo import load_demo

pytestmark = pytest.mark.django_db

# Every check the command line runs (`-c all`), with its settings from the repository's
# schemathesis.toml: a 400 to a schema-valid request is accepted only on the operations whose
# parameters bound each other in ways OpenAPI cannot state (each description states them).
CONFIG = schemathesis.config.SchemathesisConfig.from_path(
    Path(__file__).resolve().parents[2] / "schemathesis.toml"
)
CHECKS = [
    schemathesis.checks.not_a_server_error,
    *(
        getattr(openapi_checks, name)
        for name in (
            "status_code_conformance",
            "content_type_conformance",
            "response_headers_conformance",
            "response_schema_conformance",
            "negative_data_rejection",
            "positive_data_acceptance",
            "missing_required_header",
            "unsupported_method",
            "allow_header_conformance",
            "use_after_free",
            "ensure_resource_availability",
            "ignored_auth",
        )
    ),
]
EXAMPLES_PER_OPERATION = 50
MIN_CASES = 1000
UPLOADS = [
    "parsers/openssl/vc_3.0.0beta3_full_rsa_dsa_ecdsa.txt",
    "parsers/openssl/pkb_1.1.1f_multi_evp_aes-256-ctr_snippet.txt",
    "parsers/iperf3/moler_iperf3_tcp_P3_text_client.txt",
    "parsers/fio/vc_fio3.26_randrw_4k_libaio.json",
]

# A fleet of types the demo measures and prices, for POST fleets/ (a plain CSV and FOCUS).
FLEET_UPLOADS = [
    b"instance_type,region,count,hours\nm5.xlarge,us-east-1,2,730\nt2.nano,us-east-1,1,730\n",
    b"ServiceCategory,ServiceName,SkuPriceDetails,ConsumedQuantity,ConsumedUnit,EffectiveCost,"
    b'PricingCategory,RegionId\nCompute,Amazon Elastic Compute Cloud,"{""InstanceType"": '
    b'""c5.xlarge""}",48,Hours,5.712,Committed,us-east-1\n',
]


@pytest.fixture
def application():
    """The project's WSGI app, whose requests keep the test's database connection.

    Django closes the connection at the end of each request; inside the test's transaction
    that would lose it, so, as Django's own test client does, the signal is held off.
    """
    from django.core import signals
    from django.db import close_old_connections

    from dashboard.wsgi import application

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield application
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def uploader(django_user_model):
    return django_user_model.objects.create_user("fuzz-uploader")


def existing_names(uploads: list[bytes], uploader) -> tuple[dict, dict]:
    """Query parameter values and path parameters (by parameter and path) that exist."""
    from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Run, VolumePrice
    from benchmarks.selectors.subjects.databases import ENGINES
    from benchmarks.services import runs as run_services

    uploaded = [
        run_services.upload_run(
            file=SimpleUploadedFile(f"output-{number}.txt", content),
            fields={"instance_type": "t2.nano", "region": "us-east-1"},
            uploaded_by=uploader,
        )[0].pk
        for number, content in enumerate(uploads)
    ]
    benchmarks = list(
        Benchmark.objects.filter(results__isnull=False)
        .distinct()
        .order_by("key")
        .values_list("key", flat=True)
    )
    regions = sorted(
        set(Price.objects.values_list("region__code", flat=True).distinct())
        | set(VolumePrice.objects.values_list("region__code", flat=True).distinct())
    )
    measured = list(
        InstanceType.objects.filter(runs__isnull=False)
        .distinct()
        .order_by("name")
        .values_list("name", flat=True)[:100]
    )
    query = {
        "benchmark": benchmarks,
        "region": regions,
        "measured_in": regions,
        "instance_type": measured,
        "instance_types": measured,
        "baseline": measured,
        "engine": list(ENGINES),
    }
    path = {
        "code": regions,
        "name": measured,
        "key": benchmarks,
        "runs": uploaded + list(Run.objects.order_by("pk").values_list("pk", flat=True)[:20]),
        "prices": list(Price.objects.order_by("pk").values_list("pk", flat=True)[:20]),
        "fargate-rates": list(FargateRate.objects.order_by("pk").values_list("pk", flat=True)[:20]),
    }
    assert all(query.values()) and all(path.values()), (query, path)
    return query, path


def workload_figures() -> list[list[dict]]:
    """Figures a buyer could give (POST workloads/predict/): three stored types' medians of
    the benchmark measured on the most types, which some benchmark then moves like."""
    loaded = workload_vectors.load_vectors()
    logs, types = loaded.vectors.logs, loaded.vectors.types
    if not logs.size:
        return []
    column = int(np.isfinite(logs).sum(axis=0).argmax())
    rows = np.flatnonzero(np.isfinite(logs[:, column]))[:3]
    sign = 1 if loaded.columns[column].higher_is_better else -1
    names = [
        qualified_name(loaded.types[types[r]].vendor, loaded.types[types[r]].name) for r in rows
    ]
    return [[
        {"instance_type": name, "value": float(np.exp(sign * logs[row, column]))}
        for name, row in zip(names, rows, strict=True)
    ]]  # fmt: skip


def steer_to_existing_names(
    schema, query: dict, path: dict, uploads: list[bytes], figures: list | None = None
) -> None:
    """Half of the schema-valid cases name only things that exist (every such parameter at
    once); schema-violating ones are left as generated, for the negative check to judge."""

    @schema.hook
    def flatmap_case(context, case):
        if case.meta is None or not case.meta.generation.mode.is_positive:
            return st.just(case)
        known = {}
        parameters = {parameter.name: parameter for parameter in case.operation.query}
        for name in case.query or {}:
            # Only the names this operation's schema allows (network-scaling/ lists only
            # bandwidth benchmarks): a case steered outside it would not be schema-valid.
            if name not in query or name not in parameters:
                continue
            allowed = [value for value in query[name] if parameters[name].is_valid(value)]
            if allowed:
                known["query", name] = allowed
        resource = case.operation.path.split("/")[3]
        for name in case.path_parameters or {}:
            if path.get(name) or path.get(resource):
                known["path_parameters", name] = path.get(name) or path[resource]
        if isinstance(case.body, dict) and "file" in case.body:
            # fleets/ reads a fleet file; runs/ a benchmark's output.
            fleet = case.operation.path.endswith("/fleets/")
            known["body", "file"] = FLEET_UPLOADS if fleet else uploads
        if isinstance(case.body, dict) and "figures" in case.body and figures:
            known["body", "figures"] = figures
        if not known:
            return st.just(case)
        existing = st.fixed_dictionaries({part: st.sampled_from(v) for part, v in known.items()})
        return st.one_of(st.just(case), existing.map(lambda chosen: _with(case, chosen)))


def _with(case, chosen: dict):
    for (part, name), value in chosen.items():
        getattr(case, part)[name] = value
    if ("body", "file") in chosen and chosen["body", "file"] not in FLEET_UPLOADS:
        # A real output of a machine pricebench knows, measured some day past.
        case.body.update(instance_type="t2.nano", region="us-east-1", format="auto")
        case.body.pop("measured_at", None)
        # An identity proof made up by the generator never verifies (a 400 naming it): the
        # real upload is sent without one (tests/api/test_verified_uploads.py sends real ones).
        case.body.pop("identity", None)
    if ("body", "figures") in chosen:
        # Figures of stored types, priced where the demo has prices, learned from anything.
        case.body.update(region="us-east-1", currency="USD", exclude_benchmarks=[])
        for name in ("regions", "at"):
            case.body.pop(name, None)
    return case


def test_it_answers_every_operation_as_its_schema_says(
    application, uploader, shared_data: Path, monkeypatch
):
    from api.tokens import create_upload_token

    # The demo's first part measures few types per benchmark: the workload model may learn
    # from any benchmark measured on three.
    monkeypatch.setattr(workload_vectors, "MINIMUM_TYPES", 3)
    load_demo()
    # Planned as empty tables otherwise (or from a bloated worker's stale statistics): ANALYZE
    # counts this transaction's own rows, and is rolled back with them.
    statistics.analyze_tables()
    uploads = [(shared_data / name).read_bytes() for name in UPLOADS]
    query, path = existing_names(uploads[:2], uploader)
    schema = schemathesis.openapi.from_wsgi(
        "/api/v1/schema/?format=json", application, config=CONFIG
    )
    key = create_upload_token(user=uploader, name="schemathesis")[1]
    # The WSGI client asks for gzip but hands schemathesis the bytes undecoded: plain
    # answers are what it can read (tests/api/test_price_performance_at_scale.py checks gzip).
    schema.config.update(headers={"Authorization": f"Token {key}", "Accept-Encoding": "identity"})
    steer_to_existing_names(schema, query, path, uploads, workload_figures())
    cases: Counter[str] = Counter()
    successes: Counter[str] = Counter()

    def check(case):
        cases[case.operation.label] += 1
        response = case.call_and_validate(checks=CHECKS)
        if response.status_code < 300:
            successes[case.operation.label] += 1

    hypothesis_settings = settings(
        max_examples=EXAMPLES_PER_OPERATION,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    failures = {}
    operations = []
    for result in get_all_tests(
        schema=schema, test_func=check, settings=hypothesis_settings, given_kwargs={}
    ):
        operation, test = result.ok()
        operations.append(operation.label)
        try:
            test()
        except (FailureGroup, AssertionError) as failure:
            failures[operation.label] = failure

    assert not failures, "\n\n".join(f"{label}:\n{error}" for label, error in failures.items())
    assert len(operations) >= 21, operations
    assert set(cases) == set(operations), set(operations) - set(cases)
    assert sum(cases.values()) >= MIN_CASES, cases
    # Each operation's response schema was checked against real answers, not only errors.
    assert set(successes) == set(operations), set(operations) - set(successes)
