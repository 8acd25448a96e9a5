"""The host's actions are one table (companion/session/host.py): each entry's texts are the
session's own, and an action that needs nothing but the host gets its route and its entry in
the API's document from the table, so a new one is served and described by its entry alone."""

from __future__ import annotations

import inspect

from flask import Flask
from flask.testing import FlaskClient

from companion import words
from companion.session.host import HOST_ACTIONS, HostActions

from .conftest import post


def test_every_text_of_a_host_action_is_in_the_catalogue() -> None:
    """Each refusal an entry names has its sentence in every language (`refusal_<code>`)."""
    named = {f"refusal_{key}" for action in HOST_ACTIONS.values() for key in action.texts}
    for lang in words.languages():
        assert named - set(words.texts(lang)) == set(), lang


def test_every_effect_and_check_is_a_host_actions_method() -> None:
    for name, action in HOST_ACTIONS.items():
        assert getattr(HostActions, action.effect.__name__) is action.effect, name
        if action.check is not None:
            assert inspect.signature(action.check).parameters.keys() == {"self"}, name


def test_an_action_with_a_route_is_served_and_described_from_its_entry(app: Flask) -> None:
    routed = {f"/api/host/{a.route}" for a in HOST_ACTIONS.values() if a.route is not None}
    assert routed == {
        "/api/host/pause",
        "/api/host/resume",
        "/api/host/end",
        "/api/host/more_time",
        "/api/host/lock_in_late",
        "/api/host/setup_next",
        "/api/host/setup_back",
    }
    served = {rule.rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())}
    document = app.test_client().get("/api/openapi.json").get_json()
    for path in routed:
        assert path in served
        operation = document["paths"][path]["post"]
        name = next(n for n, a in HOST_ACTIONS.items() if f"/api/host/{a.route}" == path)
        assert operation["summary"] == HOST_ACTIONS[name].summary


def test_an_actions_check_refuses_before_its_effect(host: FlaskClient) -> None:
    """No game: ending one is refused by the check, in the entry's own words."""
    answer = post(host, "/api/host/end")
    assert answer.status_code == 409
    code = answer.get_json()["refusal"]["code"]
    assert code == "no_game" and code in HOST_ACTIONS["end_game"].texts
