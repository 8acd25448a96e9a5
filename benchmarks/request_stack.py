"""Instructions per request through the app's own stack (issue 29, point 2): the WSGI app as
`room25 serve` wraps it (`last_resort`, the early read refusal, Flask, the guards, the route),
called in this process without a socket, so waitress' share is left out and what is counted is
the guards', Flask's and the route's. Four kinds of request: a seat's press from a LAN address
and from loopback (the session's writer thread counted too: a refused press, since the game is
not under way), a press for seat 9 (400 at the route) and a path no route has (404).

valgrind's callgrind counts every thread between a zero and a dump around N requests of each
kind (`callgrind_control`), so the figures do not move with the machine's load.

Run: .venv/bin/python benchmarks/request_stack.py [--requests N] [--tree PATH]
(`--tree`: the source tree to count, e.g. main's worktree, to compare two versions).
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRITE = {"X-Room25": "1", "Content-Type": "application/json"}
SETUP = {"edition": "base", "mode": "suspicion", "players": 6, "tracking": "dealt"}
LAN_PHONE = "192.168.77.9"
# name, path, whether from the LAN (else loopback)
KINDS = (
    ("press, LAN", "/api/seats/1/press", True),
    ("press, loopback", "/api/seats/1/press", False),
    ("refused press (seat 9)", "/api/seats/9/press", True),
    ("no such path (404)", "/api/nothing", True),
)


def _count(requests: int) -> None:
    """In the child, under callgrind: a seated table, then each kind of request counted."""
    from werkzeug.test import EnvironBuilder

    from companion import lan
    from companion.session import Session
    from companion.web import create_app
    from companion.web.access import SEAT_COOKIE
    from companion.web.last_resort import last_resort

    def callgrind(flag: str) -> None:
        subprocess.run(
            ["callgrind_control", flag, str(os.getpid())], check=True, capture_output=True
        )

    with tempfile.TemporaryDirectory() as tmp:
        session = Session(Path(tmp) / "journal.sqlite")
        session.open()
        app = create_app(session, None, pin="123456")
        host = app.test_client()
        host.post("/api/host/login", json={"pin": "123456"}, headers=WRITE)
        assert host.post("/api/host/games", json={"setup": SETUP}, headers=WRITE).status_code == 200
        phones = [app.test_client() for _ in range(6)]
        for seat, phone in enumerate(phones, 1):
            assert (
                phone.post("/api/join", json={"seat": str(seat)}, headers=WRITE).status_code == 200
            )
        seat_cookie = phones[0].get_cookie(SEAT_COOKIE)
        assert seat_cookie is not None
        cookie = f"{SEAT_COOKIE}={seat_cookie.value}"
        ours = sorted(a for a in lan.own_addresses() if not a.startswith("127.") and ":" not in a)
        wsgi = last_resort(app.wsgi_app)
        for number, (_name, path, from_lan) in enumerate(KINDS):
            name = ours[0] if from_lan and ours else "127.0.0.1"
            headers = {**WRITE, "Host": f"{name}:8025", "Origin": f"http://{name}:8025"}
            headers |= {"Cookie": cookie, "Accept-Language": "en-GB,en;q=0.9"}
            remote = LAN_PHONE if from_lan else "127.0.0.1"
            builder = EnvironBuilder(
                path=path, method="POST", data=b"{}", headers=headers,
                environ_base={"REMOTE_ADDR": remote},
            )  # fmt: skip
            environ = builder.get_environ()
            body = environ["wsgi.input"].read()
            asked = [{**environ, "wsgi.input": io.BytesIO(body)} for _ in range(requests + 20)]
            for one in asked[:20]:
                b"".join(wsgi(one, lambda *_: None))
            callgrind("-z")
            for one in asked[20:]:
                b"".join(wsgi(one, lambda *_: None))
            callgrind(f"--dump=kind{number}")
        session.close()


def _dumped(dump: Path) -> tuple[str, int]:
    """A callgrind dump's name (`--dump=NAME`) and its instructions."""
    lines = dump.read_text().splitlines()
    name = next(line.split()[-1] for line in lines if line.startswith("desc: Trigger"))
    total = next(int(line.split()[1]) for line in lines if line.startswith(("summary:", "totals:")))
    return name.strip(), total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--tree", type=Path, default=ROOT)
    args = parser.parse_args()
    if os.environ.get("ROOM25_COUNTING"):
        _count(args.requests)
        return
    with tempfile.TemporaryDirectory() as out:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/count.%p"]
        command += [sys.executable, __file__, "--requests", str(args.requests)]
        environment = {**os.environ, "ROOM25_COUNTING": "1", "PYTHONHASHSEED": "0"}
        environment["PYTHONPATH"] = f"{args.tree.resolve()}:{args.tree.resolve() / 'tests'}"
        subprocess.run(command, check=True, env=environment, capture_output=True)
        counted = dict(_dumped(dump) for dump in Path(out).glob("count.*.*"))
    for number, (name, _path, _lan) in enumerate(KINDS):
        each = counted[f"kind{number}"] / args.requests / 1e6
        print(f"{name}: {each:.3f} million instructions a request")
    print(
        f"tree {args.tree.resolve()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
