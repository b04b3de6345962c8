"""Speaking to the cluster's hosts one by one: plain HTTP, and management commands run with
the cluster's settings (scripts/cluster/manage.sh)."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BALANCER = os.environ.get("PRICEBENCH_CLUSTER_URL", "http://10.59.0.2")
WEB = {"web1": "http://10.59.0.21:8000", "web2": "http://10.59.0.22:8000",
       "web3": "http://10.59.0.23:8000"}  # fmt: skip


def get(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """(status, headers, body) of a GET; an error status is an answer too."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def upload(base: str, token: str, csv: str) -> tuple[int, dict]:
    """POST a CSV table to runs/ on one host: (status, answer)."""
    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="t.csv"'
            f"\r\nContent-Type: text/csv\r\n\r\n{csv}\r\n--{boundary}--\r\n").encode()  # fmt: skip
    request = urllib.request.Request(f"{base}/api/v1/runs/", data=body, headers={
        "Authorization": f"Token {token}",
        "Content-Type": f"multipart/form-data; boundary={boundary}"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def wait_done(base: str, run: int, seconds: float = 60) -> dict:
    """The run's answer once it is no longer pending."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, _, body = get(f"{base}/api/v1/runs/{run}/")
        if status == 200 and json.loads(body)["status"] != "pending":
            return json.loads(body)
        time.sleep(0.2)
    raise AssertionError(f"run {run} still pending after {seconds} s")


def manage(*args: str) -> str:
    """A management command with the cluster's settings; its output."""
    return subprocess.run(["bash", str(ROOT / "scripts" / "cluster" / "manage.sh"), *args],
                          check=True, capture_output=True, text=True).stdout  # fmt: skip


def new_token(user: str) -> str:
    return manage("create_upload_token", user, "--name", "cluster test").strip().splitlines()[-1]
