"""Issue 28, point 7: reads have a per-address limit as writes do. Each address's reads are
charged their time, on an injected clock; one that took more than its share is refused in
words (English and French, with Retry-After) while another address, and the companion itself,
are served; six reads at once at most per address."""

from __future__ import annotations

import threading

from flask import Flask, request

from companion import heap
from companion.web.reads import LARGE, SERVER_CHARGES, ReadShare


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_address_that_took_more_than_its_share_waits_until_its_debt_drains() -> None:
    ticks = Ticks()
    shares = ReadShare(share=0.25, burst=2.0, at_once=2, clock=ticks)
    assert shares.begin("phone") == 0
    shares.end("phone", 2.5)  # a flood of replays: half a second beyond the burst
    assert shares.begin("phone") == 2.0  # 0.5 s of debt drains at 0.25 s a second
    assert shares.begin("other") == 0  # another phone is not held
    ticks.now += 2.0
    assert shares.begin("phone") == 0


def test_an_address_has_six_reads_at_once_at_most() -> None:
    """A browser loads a page over six connections: all six are served, a seventh waits."""
    shares = ReadShare(clock=Ticks())
    assert all(shares.begin("phone") == 0 for _ in range(6))
    assert shares.begin("phone") > 0
    shares.end("phone", 0.01)
    assert shares.begin("phone") == 0


def test_a_flooding_phone_is_refused_in_words_and_the_others_are_served(app: Flask) -> None:
    ticks = Ticks()
    shares = app.extensions["room25.reads"] = ReadShare(share=0.25, burst=2.0, clock=ticks)
    flooder = app.test_client()
    flooder.environ_base["REMOTE_ADDR"] = "192.0.2.50"
    assert flooder.get("/api/view?as=table").status_code == 200
    ticks.now += 0.01
    assert shares.begin("192.0.2.50") == 0
    shares.end("192.0.2.50", 3.0)  # its replays took 3 s of the server
    for lang, said in (("en", "wait 5 s, then try again"), ("fr", "attendez 5 s, puis réessayez")):
        answer = flooder.get("/api/view?as=table", headers={"Accept-Language": lang})
        assert answer.status_code == 429 and answer.headers["Retry-After"] == "5"
        refusal = answer.get_json()["refusal"]
        assert refusal["code"] == "too_many_reads" and said in refusal["text"], refusal
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.51"
    assert other.get("/api/view?as=table").status_code == 200
    assert app.test_client().get("/api/view?as=table").status_code == 200  # the companion
    ticks.now += 5.0
    assert flooder.get("/api/view?as=table").status_code == 200


def test_the_heap_is_trimmed_after_a_large_answer_only(app: Flask, monkeypatch) -> None:
    """A large answer's makings go back to the system (companion/heap.py); a small read does not
    pay for a trim."""
    trims: list[bool] = []
    monkeypatch.setattr(heap, "give_back", lambda: trims.append(True) or True)
    big = "x" * (LARGE + 1)
    app.add_url_rule("/a-large-answer", "a_large_answer", lambda: big)
    client = app.test_client()
    assert client.get("/api/view?as=table").status_code == 200
    assert trims == []
    assert client.get("/a-large-answer").status_code == 200
    assert trims == [True]


def test_the_arenas_are_limited_on_glibc() -> None:
    """On glibc (this machine, the Pi's Raspberry Pi OS) mallopt takes the limit; elsewhere
    nothing is done, and it says so."""
    assert heap.limit_arenas(heap.ARENAS) == (heap.LIBC is not None)


def test_a_flooding_phone_is_refused_before_flask_with_the_same_answer(app: Flask) -> None:
    """Issue 28, point 7: the refusals of a phone that never waits are most of what its flood
    costs, so they are answered in front of Flask (`RefusedEarly`), with Flask's own words,
    status, Retry-After and safe headers; what is not a plain read of the debtor's (another host
    name, a stream, the companion's own reads) still reaches Flask."""
    ticks = Ticks()
    shares = app.extensions["room25.reads"] = ReadShare(share=0.25, burst=2.0, clock=ticks)
    reached: list[str] = []
    app.before_request(lambda: reached.append(request.path) and None)
    flooder = app.test_client()
    flooder.environ_base["REMOTE_ADDR"] = "192.0.2.60"
    flask_said = flooder.get("/api/view?as=table")  # served, then charged as a flood
    shares.end("192.0.2.60", 3.0)
    assert reached == ["/api/view"] and flask_said.status_code == 200
    answers = [flooder.get("/api/view?as=table", headers={"Accept-Language": "fr"}) for _ in "ab"]
    assert reached == ["/api/view"]  # neither reached Flask
    for answer in answers:
        assert answer.status_code == 429 and answer.headers["Retry-After"] == "5"
        assert answer.get_json()["refusal"]["code"] == "too_many_reads"
        assert "attendez 5 s" in answer.get_json()["refusal"]["text"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    stranger = flooder.get("/api/view?as=table", headers={"Host": "evil.example"})
    assert stranger.get_json()["refusal"]["code"] == "unknown_host"  # Flask's Host check
    assert flooder.get("/api/stream?as=seat").status_code == 401  # its own limits: Flask's
    assert app.test_client().get("/api/view?as=table").status_code == 200  # the companion
    assert reached == ["/api/view", "/api/stream", "/api/view"]


def test_a_read_is_charged_the_server_time_it_took_not_the_time_it_waited(app: Flask) -> None:
    """A read that waits (for a core on a loaded machine, a Pi Zero's slow disk) costs the
    server nothing meanwhile: a TV opening the table page a second time at load 20 was refused
    its own scripts when reads were charged from start to answer."""
    waited = threading.Event()

    @app.get("/test/waits")
    def waits() -> str:
        waited.wait(0.3)  # nobody sets it: the read waits 0.3 s without taking a core
        return "waited"

    shares = app.extensions["room25.reads"] = ReadShare(share=0.25, burst=0.1, clock=Ticks())
    tv = app.test_client()
    tv.environ_base["REMOTE_ADDR"] = "192.0.2.60"
    assert tv.get("/test/waits").status_code == 200
    assert shares.owed("192.0.2.60") == 0
    assert tv.get("/api/view?as=table").status_code == 200


def test_a_read_the_server_charges_whole_is_not_charged_again_by_the_app(app: Flask) -> None:
    """Under waitress the held channels charge a request's whole task (`hold_owing_connections`):
    the app then charges nothing for it; a stream, which lasts the evening, is charged by
    neither."""
    shares = app.extensions["room25.reads"] = ReadShare(clock=Ticks())
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.0.2.70"
    assert phone.get("/rules").status_code == 200
    charged_by_the_app = shares.debt("192.0.2.70")
    assert charged_by_the_app > 0
    served = app.test_client()
    served.environ_base.update({"REMOTE_ADDR": "192.0.2.71", SERVER_CHARGES: [True]})
    assert served.get("/rules").status_code == 200
    assert shares.debt("192.0.2.71") == 0
    charges = [True]
    served.environ_base[SERVER_CHARGES] = charges
    served.get("/api/stream?as=seat")  # refused here (no seat), but a stream all the same
    assert charges == [False]
