"""Every example the README and docs/guide.md print works on the bundled demo: each `curl`
GET of the API, and each question to `price-performance/` in their prose, answers 200 with
rows, each upload names an endpoint and fields that exist, and each page they name answers
200. database-price-performance/, which answers no rows on the demo (it holds no DB instance
class), is named in prose and given as no example to run, and the guide says why."""

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from benchmarks.models import Run

pytestmark = pytest.mark.django_db

# The README's examples and the guide's, which holds the rest of what the README once did.
README = Path(__file__).resolve().parent.parent / "README.md"
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"
SERVER = "http://127.0.0.1:8000"
# The lists an answer may carry its rows in, by endpoint.
ROW_LISTS = ("results", "parts", "timeline")
# Paths the README names that are not pages to open, with why.
NOT_PAGES = {
    "/api/": "a prefix (where the browsable API and Swagger UI live), not a page",
    "/readyz": "answers 503 by design while the broker is away; tests/test_health.py covers it",
}


def readme() -> str:
    return README.read_text(encoding="utf-8") + "\n" + GUIDE.read_text(encoding="utf-8")


def shell_commands(text: str) -> list[str]:
    """Each command of the README's `sh` blocks, continuation lines joined."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for command in re.sub(r"\\\n\s*", " ", block).splitlines():
            if command.strip() and not command.lstrip().startswith("#"):
                commands.append(command.strip())
    return commands


def curl_examples(text: str) -> tuple[list[str], list[list[str]]]:
    """The README's curl commands to this server: GET addresses, and uploads' arguments."""
    gets, posts = [], []
    for command in shell_commands(text):
        if not command.startswith("curl ") or SERVER not in command:
            continue
        if "$(" in command:
            # A shell loop that writes `-F file=@...` parts: the fields around it are checked.
            command = command.split("$(")[0] + command.split(")")[-1]
        words = shlex.split(command)
        if "-F" in words:
            posts.append(words)
        else:
            (url,) = [word for word in words if word.startswith(SERVER)]
            gets.append(url.removeprefix(SERVER))
    return gets, posts


GETS, POSTS = curl_examples(readme())


def test_the_readme_has_the_examples_this_module_checks():
    assert len(GETS) >= 8, GETS
    assert any("network-scaling" in url for url in GETS)
    assert POSTS


def rows_in(body) -> bool:
    """Rows of an answer: a list's, or those of one of ROW_LISTS (rows left unpriced, or a
    sentence saying why there are none, are not rows)."""
    if isinstance(body, list):
        return bool(body)
    return any(body.get(name) for name in ROW_LISTS)


# The prose's questions to the API (`price-performance/?...`), asked under /api/v1/.
PROSE_QUESTIONS = [
    f"/api/v1/{path}" for path in re.findall(r"`(price-performance/\?[^`\s]+)`", readme())
]


@pytest.fixture(scope="module")
def whole_demo(demo_rolled_back, django_db_blocker):
    """The demo as `make run` serves it once loaded, as far as the examples read it: the first
    part, and of the rest the m5 and c4 families' figures (the only Reserved prices the offline
    data has are theirs), Hetzner Cloud's part and Azure's NCadsv4 and Edsv7 families."""
    from benchmarks.models import Vendor
    from benchmarks.services.demo import load_cloud_demo, load_sparecores_demo

    with django_db_blocker.unblock():
        load_sparecores_demo(families=("m5", "c4"))
        load_cloud_demo(vendor=Vendor.HCLOUD)
        # The LLM serving example's GPU and CPU types (vLLM on Azure).
        load_cloud_demo(vendor=Vendor.AZURE, families=("NCadsv4", "Edsv7"))


@pytest.mark.parametrize("url", GETS + PROSE_QUESTIONS)
def test_each_curl_example_answers_rows_on_the_demo(whole_demo, url):
    response = Client().get(url)
    assert response.status_code == 200, f"{url}: {response.status_code} {response.content[:300]}"
    body = response.json()
    assert rows_in(body), f"{url} answered no rows: {body}"


# The database question the README names in prose: the demo holds no DB instance class (no
# AmazonRDS price in the offline data, no figure of one class published by study S5).
DATABASE_QUESTION = (
    "/api/v1/database-price-performance/?benchmark=sysbench:oltp_read_write:queries"
    "&region=us-east-1"
)


def test_the_database_question_is_no_example_to_run_and_the_readme_says_why(whole_demo):
    text = " ".join(readme().split())
    assert not any("database-price-performance" in url for url in GETS)
    assert f"`GET {DATABASE_QUESTION}`" in text
    assert "No question to this endpoint answers rows on the bundled demo" in text
    # As the README says: 200, no rows, and a summary saying what to import and upload.
    response = Client().get(DATABASE_QUESTION)
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert not rows_in(body) and "import_prices" in body["summary"], body


def test_the_tokyo_examples_show_where_each_row_was_measured(demo_rolled_back):
    anywhere, measured = [url for url in GETS if "region=ap-northeast-1&block_size" in url]
    assert measured == anywhere + "&measured_in=us-east-1"
    everywhere = Client().get(anywhere).json()["results"]
    kept = Client().get(measured).json()["results"]
    # Study S1's runs name their region; on the demo they are this benchmark's only runs.
    assert {row["instance_type"] for row in kept} == {row["instance_type"] for row in everywhere}
    assert {"t2.nano", "fargate-0.25vcpu-0.5gb"} <= {row["instance_type"] for row in kept}
    assert all(row["measured_in"] == ["us-east-1"] for row in kept)


@pytest.mark.parametrize("words", POSTS, ids=lambda words: words[-1])
def test_each_upload_example_names_an_endpoint_and_fields_that_exist(words):
    from api.serializers import RunUploadSerializer

    (url,) = [word for word in words if word.startswith(SERVER)]
    assert resolve(urlsplit(url).path).url_name == "run-list"
    fields = {words[i + 1].split("=")[0] for i, word in enumerate(words) if word == "-F"}
    unknown = fields - set(RunUploadSerializer().fields)
    assert not unknown, f"{url}: no upload field {unknown}"


def page_paths(text: str) -> list[str]:
    """The site's own paths the README names in backticks (pages and files it serves)."""
    paths = sorted(set(re.findall(r"`(/[^`\s]*)`", text)))
    return [path for path in paths if path not in NOT_PAGES]


@pytest.fixture
def placeholders(demo_rolled_back):
    run = Run.objects.filter(status=Run.Status.DONE).order_by("pk").first()
    return {"NAME": "t2.nano", "KEY": "openssl:aes-128-gcm", "ID": str(run.pk)}


@pytest.mark.parametrize("path", page_paths(readme()))
def test_each_page_the_readme_names_answers_on_the_demo(placeholders, path):
    for placeholder, value in placeholders.items():
        path = path.replace(placeholder, value)
    try:
        resolve(path.split("?", 1)[0])
    except Resolver404:
        pytest.fail(f"the README names {path}, which is no page")
    # Pages behind a login (`/upload/`, `/admin/`) send a visitor to the login page.
    response = Client().get(path, follow=True)
    assert response.status_code == 200, f"{path}: {response.status_code}"
