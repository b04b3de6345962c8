"""What one user sees when its requests land on different hosts of the cluster."""

import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from django.conf import settings

from tests.cluster.hosts import BALANCER, WEB, get, manage, new_token, upload, wait_done

# Replica lag and the answer's own time, on top of the freshness window.
LAG_ALLOWANCE = 1.5


def question(benchmark: str) -> str:
    query = urllib.parse.urlencode({"benchmark": benchmark, "region": "us-east-1"})
    return f"/api/v1/price-performance/?{query}"


def types_answered(base: str, benchmark: str) -> set[str]:
    status, _, body = get(base + question(benchmark))
    return {row["instance_type"] for row in json.loads(body)["results"]} if status == 200 else set()


def row(benchmark: str, instance_type: str) -> str:
    header = "benchmark,instance_type,region,value,unit"
    return f"{header}\n{benchmark},{instance_type},us-east-1,100,op/s\n"


def test_an_upload_on_host_a_is_seen_on_host_b_within_the_freshness_window():
    token = new_token("cluster-visible")
    benchmark = f"cluster:visible-{uuid.uuid4().hex[:8]}"
    status, first = upload(WEB["web1"], token, row(benchmark, "c7g.large"))
    assert status == 202, first
    assert wait_done(WEB["web1"], first["id"])["status"] == "done"
    # Host B has read and kept the answer before the second upload.
    deadline = time.monotonic() + 10
    while types_answered(WEB["web2"], benchmark) != {"c7g.large"}:
        assert time.monotonic() < deadline, "the first upload never showed on web2"
        time.sleep(0.2)

    status, second = upload(WEB["web1"], token, row(benchmark, "c7a.large"))
    assert status == 202, second
    assert wait_done(WEB["web1"], second["id"])["status"] == "done"
    done = time.monotonic()
    while "c7a.large" not in types_answered(WEB["web2"], benchmark):
        waited = time.monotonic() - done
        assert waited < settings.PRICEBENCH_FRESHNESS_SECONDS + LAG_ALLOWANCE, (
            f"web2 still answers without the upload {waited:.1f} s after it was done on web1"
        )
        time.sleep(0.1)


def test_a_token_revoked_on_host_a_is_refused_on_host_b():
    token = new_token("cluster-revoked")
    benchmark = f"cluster:revoked-{uuid.uuid4().hex[:8]}"
    assert upload(WEB["web2"], token, row(benchmark, "c7g.large"))[0] == 202
    # Revoked where host A's processes write (the primary), refused by host B at once.
    manage("revoke_upload_token", token[:8])
    status, answer = upload(WEB["web2"], token, row(benchmark, "c7a.large"))
    assert status == 401, answer
    assert "revoked" in answer["detail"]
    status, _, body = get(WEB["web3"] + "/api/v1/runs/", {"Authorization": f"Token {token}"})
    assert status == 401 and b"revoked" in body


def test_an_identity_nonce_issued_by_host_a_is_used_once_on_host_b():
    token = new_token("cluster-nonce")
    request = urllib.request.Request(f"{WEB['web1']}/api/v1/runs/nonce/", data=b"",
                                     headers={"Authorization": f"Token {token}"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as response:
        nonce = json.loads(response.read())["nonce"]
    # Another process (host B's role) uses it up once; a second use is told it was used.
    script = (
        "from api.models import UploadToken; from api.tokens import key_digest; "
        "from benchmarks.services.identity_nonces import use_nonce; "
        "from django.db import transaction; "
        f"token = UploadToken.objects.get(digest=key_digest({token!r}))\n"
        "for attempt in (1, 2):\n"
        "    try:\n"
        "        with transaction.atomic(): print(use_nonce(value=%r, upload_token=token))\n"
        "    except Exception as error: print('refused:', error)\n" % nonce
    )
    # The second use answers False: only the re-sent upload that used it is then accepted.
    assert manage("shell", "-c", script).strip().splitlines()[-2:] == ["True", "False"]


def failed_login(opener) -> int:
    status, _, page = get_with(opener, BALANCER + "/admin/login/")
    csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
    data = urllib.parse.urlencode({"username": "nobody", "password": "wrong",
                                   "csrfmiddlewaretoken": csrf}).encode()  # fmt: skip
    return get_with(opener, BALANCER + "/admin/login/", data)[0]


def get_with(opener, url, data=None):
    try:
        with opener.open(url, data=data, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_failed_logins_are_counted_once_whichever_host_answers():
    """A client gets its rate (10 failed logins a minute) however many hosts answer it:
    counted per process, it got 10 on each of the 6 web processes."""
    if time.time() % 60 > 40:
        time.sleep(61 - time.time() % 60)
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    statuses = [failed_login(opener) for _ in range(24)]
    allowed = statuses.index(429) if 429 in statuses else len(statuses)
    assert allowed <= 10, statuses
    assert set(statuses[allowed:]) == {429}, statuses


def test_etags_agree_across_hosts_for_the_same_data():
    paths = [question("geekbench:clang") + "&cores=multi", "/api/v1/unit-prices/?region=us-east-1",
             "/instance-types/c7g.large/", "/api/v1/benchmarks/"]  # fmt: skip
    for path in paths:
        etags = {host: get(base + path)[1].get("ETag") for host, base in WEB.items()}
        assert len(set(etags.values())) == 1 and None not in etags.values(), (path, etags)
        # A copy from one host is confirmed current by another.
        status, _, _ = get(WEB["web3"] + path, {"If-None-Match": etags["web1"]})
        assert status == 304, path
