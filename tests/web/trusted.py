"""Raw HTTP to a real `room25 serve` from a chosen source address, with a chosen `Host` header and
cookies of its own: a phone on the table's Wi-Fi (this machine's network address, not loopback),
the companion itself (loopback), or a page a stranger's DNS name points here."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass

from companion.lan import join_host

PIN = "2525"


def network_address() -> str | None:
    """An IPv4 address of this machine that is not loopback: requests from it come "from the
    table's Wi-Fi" as far as the server can tell."""
    found = join_host()
    return None if found.startswith("127.") else found


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body or b"{}")

    @property
    def code(self) -> str | None:
        """The refusal's code (or the pending answer's), None for a plain success."""
        found = self.json()
        refusal = found.get("refusal")
        return refusal["code"] if isinstance(refusal, dict) else found.get("code")


class Client:
    """One client of `port`: connects to `address` from `source` (the same by default)."""

    def __init__(self, port: int, address: str = "127.0.0.1", source: str | None = None) -> None:
        self.port = port
        self.address = address
        self.source = source or address
        self.cookies: dict[str, str] = {}

    def send(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        connection = http.client.HTTPConnection(
            self.address, self.port, timeout=20, source_address=(self.source, 0)
        )
        sent = {"Host": f"{self.address}:{self.port}"}
        data = None
        if method == "POST":
            data = raw if raw is not None else json.dumps({} if body is None else body).encode()
            sent |= {"Content-Type": "application/json", "X-Room25": "1"}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        sent |= headers or {}
        try:
            connection.request(method, path, body=data, headers=sent)
            answer = connection.getresponse()
            payload = answer.read()
        finally:
            connection.close()
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if "max-age=0" in cookie.lower() or not value:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        return Answer(answer.status, answer.headers, payload)

    def post(self, path: str, body: object = None, **options) -> Answer:
        return self.send("POST", path, body, **options)

    def get(self, path: str, **options) -> Answer:
        return self.send("GET", path, **options)

    def login(self) -> Client:
        answer = self.post("/api/host/login", {"pin": PIN})
        assert answer.status == 200, answer.body
        return self
