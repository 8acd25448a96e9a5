"""What the session's writer answers when a job fails: a bug must neither stop the writer nor
hand a caller an answer of another kind (a refusal where a read expects its own shape)."""

from __future__ import annotations

from companion.session import Session
from companion.session.journal import Journal


def test_a_read_that_fails_answers_its_own_empty_answer_not_a_refusal(
    session: Session, mocker
) -> None:
    mocker.patch.object(Journal, "seat_claims", side_effect=RuntimeError("a bug"))
    assert session.seat_claims() == {}
    assert session.healthy(timeout=10.0), "the writer stopped after the bug"


def test_a_write_that_fails_answers_a_refusal_in_plain_words(session: Session, mocker) -> None:
    mocker.patch.object(Session, "_press_and_tell", side_effect=RuntimeError("a bug"))
    reply = session.press_seat("1")
    assert not reply.ok and reply.code == "session_failed"
    assert reply.text.startswith("Something went wrong in the companion")
    assert session.healthy(timeout=10.0), "the writer stopped after the bug"


def test_a_session_stopped_answers_reads_empty_and_refuses_writes(journal, clock) -> None:
    stopped = Session(journal, clock)
    assert stopped.seat_claims() == {}
    assert stopped.claim_seat("1", "digest") is False
    reply = stopped.press_seat("1")
    assert not reply.ok and reply.code == "session_closed"
