"""`room25 serve` as a real child process, the way a table starts it: a free port of 127.0.0.1, a
data directory of its own, stopped by its pid; and phones that talk to it over HTTP (a cookie jar
each, the `X-Room25` header on every write).

Shared by the session, web and hardware tests (and the session benchmark): the tests folder is on
`sys.path` (pytest puts it there for `tests/conftest.py`), so `from serving import Serve`."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

PIN = "2525"
# serve's last line, "ready on http://127.0.0.1:PORT" in whichever language the table speaks: the
# one whole line whose address ends at its port (the others' go on, "...:PORT/" and ".../panel").
READY = re.compile(r"^.*?(http://127\.0\.0\.1:(\d+))(?![/\d]).*\n", re.M)
ROOM25 = Path(sys.executable).with_name("room25")


def held_mb(pid: int) -> tuple[float, float]:
    """What a server process holds, in MB: its resident set, and the temporary files it keeps
    open (waitress moves a connection's output buffer over 1 MB to one; on a Pi /tmp is in RAM)."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    files = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd).endswith("(deleted)"):
                files += fd.stat().st_size
        except OSError:
            continue
    return rss, files / 2**20


class Serve:
    """One `room25 serve` process; `wait_ready` reads its `ready on` line, and from it the port
    and the address. Without a `port` the server binds port 0 and the system chooses a free one
    as it binds (a port chosen here first could be taken by another program before the server
    binds it). `hardware` is the `--hardware` asked for, or None to let serve choose (the virtual
    panel off a Pi); `wrap` the command it runs under (`fiu-run -x`, `unshare`, valgrind),
    execing it so that the pid stays serve's."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        hardware: str | None = "mock",
        wrap: tuple[str, ...] = (),
    ) -> None:
        self.data_dir = data_dir
        self.port = port or 0
        self.url = f"http://127.0.0.1:{self.port}"
        self.out = data_dir.parent / f"serve-{time.monotonic_ns()}.out"
        self.err = self.out.with_suffix(".err")
        asked = () if hardware is None else ("--hardware", hardware)
        command = [*wrap, str(ROOM25), "serve", *asked, "--data-dir", str(data_dir),
                   "--port", str(self.port), *args]  # fmt: skip
        environment = {**os.environ, "ROOM25_HOST_PIN": PIN, **(env or {})}
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err, env=environment)

    @property
    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    @property
    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def wait_ready(self, timeout: float = 180.0) -> Serve:
        """Until the "ready on" line (in the table's language), or the process ends. The
        timeout only catches a hang: a niced serve on a loaded 2-core machine (a fresh Debian's
        test run at load 26) took over 30 s to import and open its journal."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready = READY.search(self.stdout)
            if ready:
                self.url, self.port = ready[1], int(ready[2])
                return self
            if self.process.poll() is not None:
                raise RuntimeError(f"room25 serve stopped:\n{self.stdout}\n{self.stderr}")
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"room25 serve was not ready in {timeout} s:\n{self.stderr}")

    def wait_exit(self, timeout: float = 30.0) -> int:
        return self.process.wait(timeout=timeout)

    def terminate(self) -> int:
        os.kill(self.process.pid, signal.SIGTERM)
        return self.wait_exit()

    def stop(self) -> None:
        """The end of a test module: SIGTERM, then SIGKILL if it is still there after 10 s."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.wait_exit(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()


class Phone:
    """An HTTP client with its own cookies, as a phone or the host page."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def in_browser(self, browser, **context):
        """This phone's seat opened in a real browser page (its cookies copied over)."""
        opened = browser.new_context(**context)
        jar = [{"name": c.name, "value": c.value or "", "url": self.url} for c in self.cookies]
        opened.add_cookies(jar)
        page = opened.new_page()
        page.goto(self.url + "/")
        return page

    def _send(self, request: urllib.request.Request) -> tuple[int, dict]:
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def post(self, path: str, body: object = None, csrf: bool = True) -> tuple[int, dict]:
        """A JSON write; `csrf=False` leaves out the `X-Room25` header, as a foreign page would."""
        data = json.dumps({} if body is None else body).encode()
        headers = {"Content-Type": "application/json"}
        if csrf:
            headers["X-Room25"] = "1"
        request = urllib.request.Request(self.url + path, data=data, method="POST", headers=headers)
        return self._send(request)

    def get(self, path: str) -> tuple[int, dict]:
        return self._send(urllib.request.Request(self.url + path))

    def fetch(self, path: str) -> tuple[int, bytes, str]:
        """Anything that is not JSON (a page, a picture): status, body and content type."""
        with self.opener.open(self.url + path, timeout=15) as answer:
            return answer.status, answer.read(), answer.headers.get("Content-Type", "")


def host_of(server: Serve) -> Phone:
    host = Phone(server.url)
    status, body = host.post("/api/host/login", {"pin": PIN})
    assert status == 200, body
    return host
