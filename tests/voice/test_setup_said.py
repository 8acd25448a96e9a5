"""Issue 32, point 1: the voice says each set-up step the table moves to while it is taught,
once, in the words of the OLED and the pages (teaching/setup.py `step_text`)."""

from __future__ import annotations

from companion.session import Session
from companion.session.notices import Notice
from companion.teaching.setup import step_text
from companion.voice import Voice
from companion.voice.sinks import FakeSink

from .conftest import settled

GAME = {"edition": "season2", "mode": "cooperation", "players": 4, "tracking": "dealt", "seed": 1}


def _said(sink: FakeSink) -> list[str]:
    return [played.clip.text for played in sink.played]


def test_each_step_moved_to_is_said_once(session: Session, voice: Voice, sink: FakeSink) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=GAME).ok
    settled(session, voice)
    steps = session.snapshot("public")["session"]["setup"]["steps"]
    assert step_text(steps[0], "en") in " ".join(_said(sink))
    assert session.host("setup_next").ok
    settled(session, voice)
    assert step_text(steps[1], "en") in _said(sink)[-1]
    # An update that moves no step (a notice) does not say the step again.
    session.set_notice("panel", Notice("panel_missing"))
    settled(session, voice)
    assert sum(step_text(steps[1], "en") in said for said in _said(sink)) == 1
    assert session.host("setup_back").ok
    settled(session, voice)
    assert step_text(steps[0], "en") in _said(sink)[-1]


def test_without_teaching_no_step_is_said(session: Session, voice: Voice, sink: FakeSink) -> None:
    assert session.host("new_game", setup=GAME).ok
    settled(session, voice)
    steps_said = [step_text({"id": "central", "key": "central", "params": {}}, "en")]
    assert not any(said in text for said in steps_said for text in _said(sink))
