"""The guards' cheaper paths answer as the full ones did: the depth check's count first, the safe
headers added in one pass, the cookies parsed once per header, each hook checked once for a
coroutine, the JSON answers made by one encoder."""

from __future__ import annotations

import datetime

from flask import Flask, Response, jsonify

from companion.session import Reply
from companion.web import SYNCED, Tap, _cookies
from companion.web.guard import MAX_DEPTH, POLICY, same_origin, secure_headers, too_deep
from companion.web.replies import answer, from_reply

from .conftest import WRITE

SAFE = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def test_the_depth_limit_is_where_it_was():
    assert not too_deep(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    assert too_deep(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    assert too_deep(b'{"a": ' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1))
    in_a_string = b'{"text": "' + b"[{" * MAX_DEPTH + b'"}'
    assert not too_deep(in_a_string)  # past the count, brackets inside strings still left out


def test_a_refused_body_is_refused_on_a_route(app: Flask):
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    answer = app.test_client().post(
        "/api/leave", data=deep, content_type="application/json", headers=WRITE
    )
    assert (answer.status_code, answer.get_json()["refusal"]["code"]) == (400, "too_deep")


def _secured(app: Flask, path: str, **headers: str) -> Response:
    with app.test_request_context(path):
        return secure_headers(Response("{}", headers=headers))


def _each_once(response: Response) -> None:
    for name in [*SAFE, "Cache-Control"]:
        assert len(response.headers.getlist(name)) <= 1, name


def test_an_api_answer_gets_every_safe_header_once(app: Flask):
    answer = _secured(app, "/api/view")
    assert {name: answer.headers[name] for name in SAFE} == SAFE
    assert answer.headers["Cache-Control"] == "no-store"
    _each_once(answer)


def test_a_page_keeps_its_own_policy_and_caching(app: Flask):
    page = _secured(app, "/", **{"content-security-policy": "default-src 'none'"})
    assert page.headers["Content-Security-Policy"] == "default-src 'none'"
    assert page.headers["X-Frame-Options"] == "DENY"
    _each_once(page)
    cached = _secured(app, "/static/app.js", **{"Cache-Control": "max-age=60"})
    assert cached.headers["Cache-Control"] == "max-age=60"
    assert "Cache-Control" not in _secured(app, "/").headers
    overridden = _secured(app, "/api/view", **{"X-Frame-Options": "SAMEORIGIN"})
    assert overridden.headers["X-Frame-Options"] == "DENY"
    _each_once(overridden)


def test_every_answer_of_the_app_is_secured(app: Flask, host):
    for path in ["/api/view?as=table", "/api/nothing", "/"]:
        answer = host.get(path)
        assert {name: answer.headers[name] for name in SAFE} == SAFE, path
        _each_once(answer)


def test_cookies_are_parsed_once_per_header_and_never_mixed(app: Flask):
    first = Tap.from_values(headers={"Cookie": "room25_seat=a; room25_lang=fr"}).cookies
    again = Tap.from_values(headers={"Cookie": "room25_seat=a; room25_lang=fr"}).cookies
    other = Tap.from_values(headers={"Cookie": "room25_seat=b"}).cookies
    assert first is again
    assert (first["room25_seat"], first["room25_lang"], other["room25_seat"]) == ("a", "fr", "b")
    assert "room25_lang" not in other
    assert Tap.from_values().cookies == {}
    twice = Tap.from_values(headers={"Cookie": "n=1; n=2"}).cookies
    assert (twice.get("n"), twice.getlist("n"), twice.get("n", type=int)) == ("1", ["1", "2"], 1)
    assert (first.get("room25_host"), first.get("room25_host", "none")) == (None, "none")
    assert _cookies.cache_info().maxsize == 64


def test_a_function_made_per_request_is_not_kept(app: Flask):
    for _ in range(2 * SYNCED):
        app.ensure_sync(lambda: None)
    assert len(app._synced) <= SYNCED  # type: ignore[attr-defined]
    assert app.request_class is Tap


def test_an_answer_has_jsonifys_bytes_and_headers(app: Flask):
    odd = {"z": 1, "a": ["é", "\u2028", 1.5, None, (1, 2)], "when": datetime.date(2026, 12, 4)}
    with app.app_context():
        for body in [{"ok": True, "version": 3}, odd]:
            made, status = answer(body, 409)
            assert (made.get_data(), made.headers, status) == (
                jsonify(body).get_data(),
                jsonify(body).headers,
                409,
            )


def test_the_language_is_worked_out_for_a_refusal_only(app: Flask):
    asked: list[str] = []

    def lang() -> str:
        asked.append("fr")
        return "fr"

    with app.app_context():
        assert from_reply(Reply(True, 7), lang)[0].get_json() == {"ok": True, "version": 7}
        assert asked == []
        refused, status = from_reply(Reply(False, 7, "bad_seat"), lang)
    assert (status, asked) == (409, ["fr"])
    assert refused.get_json()["refusal"]["text"] == Reply(False, 7, "bad_seat").text_in("fr")


def test_an_origin_is_ours_for_its_own_host_only():
    assert same_origin("http://192.168.4.7:8025", "192.168.4.7:8025")
    assert same_origin("https://192.168.4.7:8025", "192.168.4.7:8025")
    assert not same_origin("http://192.168.4.7:8025", "10.0.0.9:8025")  # the pair, not the origin
    assert not same_origin("http://rebind.example", "192.168.4.7:8025")
    assert not same_origin("ftp://192.168.4.7:8025", "192.168.4.7:8025")
    assert not same_origin("null", "192.168.4.7:8025")
