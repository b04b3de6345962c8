"""A vendor's JSON API on loopback, for the price importers' live paths: the edge the tests
fake (the vendors themselves cannot be reached from here)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# (path, its query's values by name, the request's headers) -> (status, JSON body or None).
Answer = Callable[[str, dict[str, list[str]], dict[str, str]], tuple[int, object]]


class JsonApi:
    """Answers every GET with `answer`'s status and JSON; keeps each request's path."""

    def __init__(self, answer: Answer, *, prefix: str = ""):
        api = self
        self.requests: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                api.requests.append(self.path)
                parts = urlsplit(self.path)
                status, body = answer(parts.path, parse_qs(parts.query), dict(self.headers))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                if body is not None:
                    self.wfile.write(json.dumps(body).encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}{prefix}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
