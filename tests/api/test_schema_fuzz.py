"""Schemathesis over every operation of the API, through the WSGI app, against its schema."""

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.core.failures import FailureGroup
from schemathesis.pytest.lazy import get_all_tests
from schemathesis.specs.openapi import checks as openapi_checks

from benchmarks.services.demo import load_demo

pytestmark = pytest.mark.django_db

CHECKS = [
    schemathesis.checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.negative_data_rejection,
]
EXAMPLES_PER_OPERATION = 60
MIN_CASES = 1000


@pytest.fixture
def uploader_key(django_user_model) -> str:
    from api.tokens import create_upload_token

    user = django_user_model.objects.create_user("fuzz-uploader")
    return create_upload_token(user=user, name="schemathesis")[1]


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


def test_it_answers_every_operation_as_its_schema_says(application, uploader_key):
    load_demo()
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    schema.config.update(headers={"Authorization": f"Token {uploader_key}"})
    cases: Counter[str] = Counter()

    def check(case):
        cases[case.operation.label] += 1
        case.call_and_validate(checks=CHECKS)

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
    assert set(cases) == set(operations)
    assert sum(cases.values()) >= MIN_CASES, cases
