"""Loopback HTTP servers standing in for what only the clouds run: IMDSv2, ECS task metadata
v4, Google's metadata server and Azure's IMDS.

Real HTTP in a thread, answering as the AWS services document it: IMDSv2 hands out a token
for a PUT that names its TTL and refuses a metadata GET without a valid token (401); the
task metadata endpoint answers `${ECS_CONTAINER_METADATA_URI_V4}/task` with the task's JSON.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
import uuid
from collections.abc import Callable
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackServer:
    """An HTTP server on 127.0.0.1 and a free port, serving in a thread until stopped."""

    def __init__(self, handler_class: type[BaseHTTPRequestHandler]) -> None:
        # (method, path, headers); the headers look names up without regard to case.
        self.requests: list[tuple[str, str, Message]] = []
        server = self

        class Handler(handler_class):
            owner = server

            def log_message(self, format, *args):  # noqa: A002 (the stdlib's name)
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _Handler(BaseHTTPRequestHandler):
    owner: LoopbackServer

    def _record(self) -> None:
        self.owner.requests.append((self.command, self.path, self.headers))

    def _answer(self, status: int, body: bytes | str, content_type: str = "text/plain") -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _ImdsHandler(_Handler):
    owner: FakeImds

    def do_PUT(self):
        self._record()
        if self.path != "/latest/api/token":
            self._answer(404, "Not Found")
        elif self.owner.token_status != 200:
            self._answer(self.owner.token_status, "Forbidden")
        elif not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds", "").isdigit():
            self._answer(400, "Missing or Invalid Parameters")
        else:
            token = uuid.uuid4().hex
            self.owner.tokens.add(token)
            self._answer(200, token)

    def do_GET(self):
        self._record()
        if self.headers.get("X-aws-ec2-metadata-token") not in self.owner.tokens:
            self._answer(401, "Unauthorized")
            return
        value = None
        for prefix, answers in (
            ("/latest/meta-data/", self.owner.metadata),
            ("/latest/dynamic/", self.owner.dynamic),
        ):
            if self.path.startswith(prefix):
                value = answers.get(self.path[len(prefix) :])
        if value is None:
            self._answer(404, "Not Found")
        else:
            self._answer(200, value)


class FakeImds(LoopbackServer):
    """IMDSv2 of one instance: `metadata` maps paths under meta-data/ to their values,
    `dynamic` those under dynamic/ (the signed instance identity)."""

    def __init__(
        self,
        metadata: dict[str, str],
        *,
        token_status: int = 200,
        dynamic: dict[str, str] | None = None,
    ) -> None:
        self.metadata = metadata
        self.dynamic = dynamic or {}
        self.token_status = token_status
        self.tokens: set[str] = set()
        super().__init__(_ImdsHandler)


def ec2_metadata(instance_type: str, zone: str) -> dict[str, str]:
    """The metadata paths the agent reads, as an instance in `zone` answers them."""
    return {
        "instance-type": instance_type,
        "placement/availability-zone": zone,
        "placement/region": zone[:-1],
        "placement/availability-zone-id": "use1-az4",
        "ami-id": "ami-0abcdef1234567890",
    }


class _EcsHandler(_Handler):
    owner: FakeEcs

    def do_GET(self):
        self._record()
        if self.path == f"{self.owner.prefix}/task":
            self._answer(200, json.dumps(self.owner.task), "application/json")
        elif self.path == self.owner.prefix:
            self._answer(200, json.dumps(self.owner.task["Containers"][0]), "application/json")
        else:
            self._answer(404, "404 page not found")


class FakeEcs(LoopbackServer):
    """The task metadata endpoint v4 of one task; `uri` is ECS_CONTAINER_METADATA_URI_V4."""

    def __init__(self, task: dict) -> None:
        self.task = task
        self.prefix = "/v4/cd189a933e5849daa93386466019ab50-2495160603"
        super().__init__(_EcsHandler)

    @property
    def uri(self) -> str:
        return self.url + self.prefix


def fargate_task(*, cpu: float, memory: int, zone: str, launch_type: str = "FARGATE") -> dict:
    """A task metadata v4 answer shaped like AWS's documented Fargate example."""
    region = zone[:-1]
    task_arn = f"arn:aws:ecs:{region}:111122223333:task/default/158d1c8083dd49d6b527399fd6414f5c"
    return {
        "Cluster": f"arn:aws:ecs:{region}:111122223333:cluster/default",
        "TaskARN": task_arn,
        "Family": "pricebench-agent",
        "Revision": "3",
        "DesiredStatus": "RUNNING",
        "KnownStatus": "RUNNING",
        "Limits": {"CPU": cpu, "Memory": memory},
        "PullStartedAt": "2026-11-20T01:49:43.803230671Z",
        "PullStoppedAt": "2026-11-20T01:49:52.514522541Z",
        "AvailabilityZone": zone,
        "LaunchType": launch_type,
        "Containers": [
            {
                "DockerId": "158d1c8083dd49d6b527399fd6414f5c-2495160603",
                "Name": "agent",
                "DockerName": "agent",
                "Image": "public.ecr.aws/docker/library/python:3.12-slim",
                "Labels": {"com.amazonaws.ecs.task-arn": task_arn},
                "DesiredStatus": "RUNNING",
                "KnownStatus": "RUNNING",
                "Limits": {"CPU": 2, "Memory": 0},
                "Type": "NORMAL",
                "Networks": [{"NetworkMode": "awsvpc", "IPv4Addresses": ["10.0.2.106"]}],
            }
        ],
        "ClockDrift": {
            "ClockErrorBound": 0.5458,
            "ReferenceTimestamp": "2026-11-20T01:49:40Z",
            "ClockSynchronizationStatus": "SYNCHRONIZED",
        },
        "EphemeralStorageMetrics": {"Utilized": 261, "Reserved": 20496},
    }


def closed_port_url() -> str:
    """An address on loopback where nothing listens (connection refused)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class _GoogleMetadataHandler(_Handler):
    owner: FakeGoogleMetadata

    def do_GET(self):
        self._record()
        path, _, query = self.path.partition("?")
        if self.headers.get("Metadata-Flavor") != "Google":
            self._answer(403, "Missing Metadata-Flavor:Google header.")
        elif path != "/computeMetadata/v1/instance/service-accounts/default/identity":
            self._answer(404, "Not Found")
        elif "audience=" not in query:
            self._answer(400, "non-empty audience parameter required")
        else:
            self._answer(200, self.owner.token, "application/text")


class FakeGoogleMetadata(LoopbackServer):
    """Google's metadata server, answering the identity token `token`; `host` is what
    GCE_METADATA_HOST names."""

    def __init__(self, token: str) -> None:
        self.token = token
        super().__init__(_GoogleMetadataHandler)

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://")


class _AzureHandler(_Handler):
    owner: FakeAzureImds

    def do_GET(self):
        self._record()
        path, _, query = self.path.partition("?")
        if self.headers.get("Metadata") != "true":
            self._answer(400, '{"error": "Bad request. Required metadata header not specified"}')
        elif path != "/metadata/attested/document" or "api-version=" not in query:
            self._answer(404, "Not Found")
        else:
            nonce = urllib.parse.parse_qs(query).get("nonce", [""])[0]
            signature = self.owner.signature
            body = {
                "encoding": "pkcs7",
                "signature": signature(nonce) if callable(signature) else signature,
            }
            self._answer(200, json.dumps(body), "application/json")


class FakeAzureImds(LoopbackServer):
    """Azure's IMDS, answering the attested document with `signature` (base64 PKCS7), or
    with what `signature(nonce)` gives for the nonce asked."""

    def __init__(self, signature: str | Callable[[str], str]) -> None:
        self.signature = signature
        super().__init__(_AzureHandler)
