"""Issue 28, point 6: with the physical tiles (design.md: "a hidden tile is unknown until someone
reveals or looks at it") a position cannot lay a room face up without naming it; one that does
(a cell said revealed, or a character standing on an unknown tile) is refused in words, in
English and French, and changes nothing, instead of passing and stopping later on an internal
error."""

from __future__ import annotations

import pytest

from companion.engine import set_position, start

PHYSICAL = {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "physical", "seed": 1}


@pytest.mark.parametrize(
    "position",
    [
        {"phase": "programming", "revealed": ["B2", "D4"]},
        {"phase": "programming", "positions": {"emmett": "B2", "franck": "D4"}},
    ],
)
def test_face_up_cells_without_their_rooms_are_refused_in_words(position: dict) -> None:
    state = start(PHYSICAL).state
    placed = set_position(state, position)
    assert placed.refusal is not None and placed.refusal.code == "position_unknown_rooms"
    assert placed.refusal.text("en") == (
        "Position: with the physical tiles the companion does not know the rooms at B2, D4, so "
        "they cannot be face up (a character standing there turns them face up): play the moves "
        "that reveal them, naming each room."
    )
    assert "ne connaît pas les salles en B2, D4" in placed.refusal.text("fr")
    assert placed.state is state


def test_the_central_room_is_known_and_may_be_stood_in() -> None:
    state = start(PHYSICAL).state
    placed = set_position(state, {"phase": "programming", "positions": {"emmett": "C3"}})
    assert placed.refusal is None
