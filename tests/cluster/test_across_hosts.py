"""What one user sees when its requests land on different hosts of the cluster."""

import http.cookiejar
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import redis
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


def upload_done(host: str, token: str, benchmark: str, instance_type: str) -> float:
    """Upload one result through host, wait until its run is done, and say when it was."""
    status, sent = upload(host, token, row(benchmark, instance_type))
    assert status == 202, sent
    assert wait_done(host, sent["id"])["status"] == "done"
    return time.monotonic()


def wait_until_answered(host: str, benchmark: str, instance_types: set[str], within: float) -> None:
    """Wait until host's answer names exactly these types, at most `within` seconds."""
    deadline = time.monotonic() + within
    while types_answered(host, benchmark) != instance_types:
        assert time.monotonic() < deadline, f"{host} never answered {sorted(instance_types)}"
        time.sleep(0.2)


def wait_until_seen(host: str, benchmark: str, instance_type: str, done: float) -> None:
    """Wait until host's answer names instance_type, within the freshness window after done."""
    while instance_type not in types_answered(host, benchmark):
        waited = time.monotonic() - done
        assert waited < settings.PRICEBENCH_FRESHNESS_SECONDS + LAG_ALLOWANCE, (
            f"{host} still answers without {instance_type} {waited:.1f} s after it was done"
        )
        time.sleep(0.1)


def test_an_upload_on_host_a_is_seen_on_host_b_within_the_freshness_window():
    token = new_token("cluster-visible")
    benchmark = f"cluster:visible-{uuid.uuid4().hex[:8]}"
    upload_done(WEB["web1"], token, benchmark, "c7g.large")
    # Host B has read and kept the answer before the second upload.
    wait_until_answered(WEB["web2"], benchmark, {"c7g.large"}, within=10)

    done = upload_done(WEB["web1"], token, benchmark, "c7a.large")
    wait_until_seen(WEB["web2"], benchmark, "c7a.large", done)


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
    # A new X-Forwarded-For of the client's own each time: the balancer appends the address
    # it saw, and only that one is counted (PRICEBENCH_TRUSTED_PROXIES=1).
    spoofed = {"X-Forwarded-For": f"198.51.100.{uuid.uuid4().int % 250}"}
    return get_with(opener, BALANCER + "/admin/login/", data, spoofed)[0]


def get_with(opener, url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_failed_logins_are_counted_once_whichever_host_answers():
    """A client gets its rate (10 failed logins a minute) however many hosts answer it, and
    whatever X-Forwarded-For it sends: counted per process, it got 10 on each web process."""
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
    # Asked with the Host the balancer passes on: a list's `next` link names the host asked
    # (with more than 100 benchmarks, as in the 10M database, /api/v1/benchmarks/ has one).
    host = {"Host": urllib.parse.urlsplit(BALANCER).netloc}
    for path in paths:
        etags = {name: get(base + path, host)[1].get("ETag") for name, base in WEB.items()}
        assert len(set(etags.values())) == 1 and None not in etags.values(), (path, etags)
        # A copy from one host is confirmed current by another.
        status, _, _ = get(WEB["web3"] + path, {**host, "If-None-Match": etags["web1"]})
        assert status == 304, path


def test_an_answer_rendered_on_host_a_is_served_by_host_b_until_the_data_changes():
    """The rendered answers are kept in Redis for every host (PRICEBENCH_ANSWER_CACHE_REDIS_URL):
    host B serves host A's bytes under the same ETag, and an upload changes both."""
    shared = redis.Redis.from_url(os.environ["PRICEBENCH_ANSWER_CACHE_REDIS_URL"])
    token = new_token("cluster-answers")
    benchmark = f"cluster:answers-{uuid.uuid4().hex[:8]}"
    upload_done(WEB["web1"], token, benchmark, "c7g.large")
    wait_until_answered(WEB["web1"], benchmark, {"c7g.large"}, within=10)
    _, headers_a, body_a = get(WEB["web1"] + question(benchmark))
    etag = headers_a["ETag"]
    assert shared.exists(f":1:{etag}"), "web1 did not keep its answer in the shared cache"
    status, headers_b, body_b = get(WEB["web2"] + question(benchmark))
    assert (status, headers_b["ETag"], body_b) == (200, etag, body_a)

    done = upload_done(WEB["web3"], token, benchmark, "c7a.large")
    wait_until_seen(WEB["web2"], benchmark, "c7a.large", done)
    _, headers_new, body_new = get(WEB["web2"] + question(benchmark))
    assert headers_new["ETag"] != etag and b"c7a.large" in body_new
    # The new answer, kept by web2, is what web1 serves once its own window has passed.
    time.sleep(settings.PRICEBENCH_FRESHNESS_SECONDS + LAG_ALLOWANCE)
    _, headers_a, body_a = get(WEB["web1"] + question(benchmark))
    assert (headers_a["ETag"], body_a) == (headers_new["ETag"], body_new)
