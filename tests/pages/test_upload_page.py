"""The upload page in a real browser: send a file, see the run and its results."""

import pytest

from benchmarks.models import InstanceType, Run
from tests.conftest import SHARED_DATA

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]

S1_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"


@pytest.fixture
def logged_in(page, live_server, django_user_model, client):
    user = django_user_model.objects.create_user(username="uploader", password="x")
    client.force_login(user)
    session = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    return page


def test_uploading_a_file_shows_its_parsed_results(live_server, logged_in):
    InstanceType.objects.create(name="t2.nano")
    page = logged_in
    page.goto(f"{live_server.url}/upload/")
    page.set_input_files("#id_file", str(S1_FILE))
    page.fill("#id_instance_type", "t2.nano")
    page.fill("#id_region", "us-east-1")
    page.click("#upload-form button[type=submit]")
    page.wait_for_url("**/runs/*/")
    page.wait_for_selector("#run-status[data-status=done]", timeout=15000)
    assert "E5-2676 v3" in page.inner_text("main")
    assert page.locator("#run-results tbody tr").count() == 10
    assert Run.objects.get().status == "done"
    assert page.console_errors == []


def test_an_unknown_instance_type_is_shown_on_the_form(live_server, logged_in):
    page = logged_in
    page.goto(f"{live_server.url}/upload/")
    page.set_input_files("#id_file", str(S1_FILE))
    page.fill("#id_instance_type", "fargate-1vcpu-2g")
    page.fill("#id_region", "us-east-1")
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector(".errorlist")
    assert "did you mean fargate-1vcpu-2gb" in page.inner_text("main")
    assert Run.objects.count() == 0


def test_the_upload_page_tells_anonymous_users_how_to_upload_and_where_to_log_in(live_server, page):
    page.goto(f"{live_server.url}/upload/")
    assert "create_upload_token" in page.inner_text("#tokens + p")
    page.click("#login-link")
    assert "/admin/login/" in page.url


def test_a_file_dropped_on_the_zone_is_the_one_uploaded(live_server, logged_in):
    page = logged_in
    page.goto(f"{live_server.url}/upload/")
    # Playwright cannot drag a file from the desktop: hand the zone a DataTransfer instead.
    page.evaluate(
        """() => {
            const transfer = new DataTransfer();
            transfer.items.add(new File(["openssl"], "dropped.txt", { type: "text/plain" }));
            document.getElementById("drop-zone").dispatchEvent(
                new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }"""
    )
    assert page.evaluate("() => document.getElementById('id_file').files[0].name") == "dropped.txt"
    assert page.console_errors == []
