"""`POST /api/v1/runs/`: what is accepted, what is refused, and that nothing is stored twice."""

import io

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Result, Run
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

S1_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"
IPERF3_FILE = SHARED_DATA / "parsers" / "iperf3" / "iperf3lib_3.21_tcp_P2_loopback_client.json"


@pytest.fixture
def client(django_user_model):
    for name in ("t2.nano", "c7g.large"):
        InstanceType.objects.get_or_create(name=name)
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def post(client, content: bytes, name: str = "output.txt", **fields):
    upload = io.BytesIO(content)
    upload.name = name
    return client.post("/api/v1/runs/", {"file": upload, **fields}, format="multipart")


def test_a_raw_output_is_ingested_with_its_results(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, S1_FILE.read_bytes(), instance_type="t2.nano", region="us-east-1")
    assert response.status_code == 202
    detail = client.get(response.json()["status_url"]).json()
    assert detail["status"] == "done"
    assert detail["cpu_model"] == "Intel(R) Xeon(R) CPU E5-2676 v3 @ 2.40GHz"
    assert len(detail["results"]) == 10


def test_a_table_names_its_own_machines(client, django_capture_on_commit_callbacks):
    table = (
        b"benchmark,instance_type,region,value,unit,variant,higher_is_better,param.users\n"
        b"keycloak:oauth2-login,c7g.large,ap-northeast-1,41.5,s,accp,false,200\n"
        b"keycloak:oauth2-login,t2.nano,ap-northeast-1,300,s,base,false,200\n"
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, table, "results.csv")
    assert response.status_code == 202
    run = Run.objects.get(pk=response.json()["id"])
    assert run.status == "done"
    children = {child.instance_type.name: child for child in run.children.all()}
    assert set(children) == {"c7g.large", "t2.nano"}
    assert children["c7g.large"].variant == "accp"
    result = children["c7g.large"].results.get()
    assert (result.value, result.params, result.benchmark.higher_is_better) == (
        41.5,
        {"users": 200},
        False,
    )


def test_the_same_upload_again_returns_the_existing_run(client, django_capture_on_commit_callbacks):
    content = S1_FILE.read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        first = post(client, content, instance_type="t2.nano", region="us-east-1")
        again = post(client, content, instance_type="t2.nano", region="us-east-1")
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]
    assert Run.objects.count() == 1
    assert Result.objects.count() == 10
    other_variant = post(client, content, instance_type="t2.nano", region="us-east-1", variant="x")
    assert other_variant.status_code == 202


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        (
            {"instance_type": "t2.nanno", "region": "us-east-1"},
            "instance_type",
            "did you mean t2.nano",
        ),
        ({"instance_type": "t2.nano", "region": "us-east1"}, "region", "did you mean us-east-1"),
        ({"instance_type": "t2.nano"}, "region", "region is required"),
        ({}, "instance_type", "does not name its machine"),
        (
            {"instance_type": "t2.nano", "region": "us-east-1", "format": "excel"},
            "format",
            "unknown format",
        ),
    ],
)
def test_bad_machine_fields_are_a_400_that_stores_nothing(client, fields, field, words):
    response = post(client, S1_FILE.read_bytes(), **fields)
    assert response.status_code == 400
    assert words in " ".join(response.json()[field])
    assert Run.objects.count() == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00binary", "binary"),
        ("type 16 bytes\naes-128-cbc 1.0k\n".encode("utf-16"), "binary"),
        (b"OpenSSL 1.1.1\ntype 16 bytes\n\xff\xfe bad bytes\n", "invalid UTF-8"),
        (b"Dear diary, today I ran no benchmark at all.\n", "could not recognise"),
    ],
)
def test_unreadable_files_are_a_400_that_stores_nothing(client, content, words):
    response = post(client, content, instance_type="t2.nano", region="us-east-1")
    assert response.status_code == 400
    assert words in " ".join(response.json()["file"])
    assert Run.objects.count() == 0


def test_a_file_over_the_limit_is_a_413(client, settings):
    settings.PRICEBENCH_MAX_UPLOAD_BYTES = 1024 * 1024
    response = post(client, b"x" * (1024 * 1024 + 1), instance_type="t2.nano", region="us-east-1")
    assert response.status_code == 413
    assert "limit is 1,048,576 bytes" in " ".join(response.json()["file"])
    assert Run.objects.count() == 0


def test_a_100_mb_file_is_refused_under_the_default_limit(client):
    big = b"aes-128-cbc 1.00k\n" * (100 * 1024 * 1024 // 18)
    response = post(client, big, instance_type="t2.nano", region="us-east-1")
    assert response.status_code == 413
    assert Run.objects.count() == 0


@pytest.mark.parametrize(
    ("table", "words"),
    [
        (b"benchmark,instance_type,region,value\nwrk:http,t2.nano,us-east-1,5\n", "'unit'"),
        (
            b"benchmark,instance_type,region,value,unit\nwrk:http,t2.nano,us-east-1,-5,req/s\n",
            "negative",
        ),
        (
            b"benchmark,instance_type,region,value,unit\nwrk:http,t2.nano,us-east-1,fast,req/s\n",
            "'value'",
        ),
        (
            b"benchmark,instance_type,region,value,unit\nwrk:http,t3.huge,us-east-1,5,req/s\n",
            "unknown instance type",
        ),
    ],
)
def test_a_bad_table_is_refused_at_upload_naming_the_problem(client, table, words):
    response = post(client, table, "results.csv")
    assert response.status_code == 400
    assert words in " ".join(response.json()["file"] + response.json().get("detail", []))
    assert Run.objects.count() == 0
    assert Result.objects.count() == 0


def test_the_wrong_tool_named_explicitly_fails_with_the_parsers_message(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(
            client,
            IPERF3_FILE.read_bytes(),
            instance_type="t2.nano",
            region="us-east-1",
            format="openssl",
        )
    run = Run.objects.get(pk=response.json()["id"])
    assert run.status == "failed"
    assert "line 1" in run.error


def test_a_table_is_parsed_once_the_worker_taking_what_the_upload_read(
    client, django_capture_on_commit_callbacks, monkeypatch
):
    from benchmarks import parsers
    from benchmarks.services import runs as run_services

    table = (
        b"benchmark,instance_type,region,value,unit,param.users\n"
        b"keycloak:oauth2-login,c7g.large,ap-northeast-1,41.5,s,200\n"
        b"keycloak:oauth2-login,t2.nano,ap-northeast-1,300,s,200\n"
    )
    with django_capture_on_commit_callbacks(execute=False):
        response = post(client, table, "results.csv")
    assert response.status_code == 202
    run = Run.objects.get(pk=response.json()["id"])
    assert run.status == Run.Status.PENDING
    assert run.checked_table  # what the upload's check read, for the worker

    read = parsers.parse

    def not_again(*args, **kwargs):
        raise AssertionError("the worker parsed the table again")

    monkeypatch.setattr(parsers, "parse", not_again)
    run = run_services.ingest_run(run_id=run.pk)
    assert run.status == Run.Status.DONE, run.error
    assert sorted(Result.objects.values_list("value", flat=True)) == [41.5, 300.0]
    assert Run.objects.get(pk=run.pk).checked_table == ""

    # Parsed again on demand (a parser fixed since), it is read from its raw output.
    calls = []
    monkeypatch.setattr(parsers, "parse", lambda *a, **k: calls.append(1) or read(*a, **k))
    assert run_services.reparse_run(run_id=run.pk).status == Run.Status.DONE
    assert calls
    assert sorted(Result.objects.values_list("value", flat=True)) == [41.5, 300.0]
