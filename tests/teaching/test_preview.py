"""Issue 32, point 3: a preview of each of a seat's choices, from that seat's own view alone.
Games are played through the engine's public interface (start, legal_commands, apply,
seat_view, full_view)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from companion import engine
from companion.engine.kernel import grid
from companion.teaching.preview import ACTIONS, preview, preview_text

WORDS = Path(__file__).parents[2] / "companion" / "words"
COOPERATION = {"edition": "base", "mode": "cooperation", "players": 4, "tracking": "dealt"}
SUSPICION = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt"}
NORTH = grid.name(grid.neighbour(grid.CENTRE, "north"))  # type: ignore[arg-type]


def _started(setup: dict, seed: int = 1):
    started = engine.start({**setup, "seed": seed})
    assert started.state is not None
    return started.state


def _clue(state, seat: str, cell: str):
    command = next(
        c for c in engine.legal_commands(state, seat) if c["type"] == "clue" and c["cell"] == cell
    )
    return engine.apply(state, command).state


def _mine(view) -> list[str]:
    return [cid for cid, c in view["characters"].items() if c["seat"] == view["seat"]]


def every_preview(view) -> list[tuple]:
    """Every choice a seat's characters could be offered, with its preview."""
    found = []
    for cid in _mine(view):
        others = [o for o in view["characters"] if o != cid] + [None]
        for action in ACTIONS:
            for direction in grid.DIRECTIONS:
                for target in others if action == "push" else [None]:
                    found.append(
                        (
                            cid,
                            action,
                            direction,
                            target,
                            preview(view, cid, action, direction, target),
                        )
                    )
    return found


def test_a_room_the_seat_looked_at_is_named_and_for_another_seat_it_is_unseen() -> None:
    """The starting clue (001_30b8f356e0d93ba4.txt, Game set-up: each player looks at a room
    adjacent to the Central room): the seat that looked knows it, the others do not."""
    state = _clue(_started(COOPERATION), "1", NORTH)
    looked = engine.full_view(state)["notebooks"]["1"][NORTH]
    mine = engine.seat_view(state, "1")
    theirs = engine.seat_view(state, "2")
    found = preview(mine, _mine(mine)[0], "move", "north")
    assert (found.key, found.params["room"]) == ("previews_move_looked", looked)
    assert preview(theirs, _mine(theirs)[0], "move", "north").key == "previews_move_unseen"
    said = preview_text(found, "en")
    assert said.endswith(" you looked at")
    assert "{" not in said


def test_a_face_up_room_is_named_for_every_seat() -> None:
    view = copy.deepcopy(engine.seat_view(_started(COOPERATION), "2"))
    row, col = grid.row_col(grid.NAMED[NORTH])
    view["complex"][row][col].update(room="acid", revealed=True)
    found = preview(view, _mine(view)[0], "push", "north", _mine(view)[0])
    assert found.key == "previews_push_from_central"  # everybody starts in the Central room
    found = preview(view, _mine(view)[0], "look", "north")
    assert (found.key, found.params["room"]) == ("previews_look_seen", "acid")
    assert "Acid" in preview_text(found, "en")


def test_the_edge_of_the_complex_and_the_central_lines() -> None:
    """001_30b8f356e0d93ba4.txt, Control: 'it is IMPOSSIBLE to use the Control action to move a
    central line'; Push: 'STRICTLY FORBIDDEN to push from the Central room but it's possible to
    push into the Central room'."""
    view = copy.deepcopy(engine.seat_view(_started(COOPERATION), "1"))
    cid = _mine(view)[0]
    assert preview(view, cid, "control", "east").key == "previews_control_central"
    view["characters"][cid]["cell"] = "A1"
    assert preview(view, cid, "move", "north").key == "previews_edge"
    assert preview(view, cid, "control", "east").key == "previews_control"
    view["characters"][cid]["cell"] = NORTH
    into = preview(view, cid, "push", "south", "emmett")
    assert (into.key, into.params["room"]) == ("previews_push_seen", "central")


def _swapped_roles(start: list[dict], keep: str) -> list[dict]:
    """The same deal with a guard's and a prisoner's roles exchanged, neither of them `keep`."""
    roles = {e["seat"]: e["role"] for e in start if e["type"] == "role_dealt" and e["seat"] != keep}
    guard = next(s for s, role in roles.items() if role == "guard")
    prisoner = next(s for s, role in roles.items() if role != "guard")
    swap = {guard: roles[prisoner], prisoner: roles[guard]}
    dealt = [e["type"] == "role_dealt" and e["seat"] in swap for e in start]
    return [{**e, "role": swap[e["seat"]]} if d else e for e, d in zip(start, dealt, strict=True)]


@pytest.mark.parametrize("seed", range(4))
def test_twin_games_differing_in_another_seats_role_preview_identically(seed: int) -> None:
    started = engine.start({**SUSPICION, "seed": seed})
    twin_start = _swapped_roles(started.events, keep="1")
    assert twin_start != started.events
    views = [engine.seat_view(s, "1") for s in (started.state, engine.replay(twin_start))]
    assert every_preview(views[0]) == every_preview(views[1])


def test_twin_games_differing_in_another_seats_look_preview_identically() -> None:
    state = _started(COOPERATION)
    cells = [c["cell"] for c in engine.legal_commands(state, "2") if c["type"] == "clue"]
    twins = [_clue(state, "2", cell) for cell in (cells[0], cells[-1])]
    assert engine.full_view(twins[0]) != engine.full_view(twins[1])
    assert every_preview(engine.seat_view(twins[0], "1")) == every_preview(
        engine.seat_view(twins[1], "1")
    )


@pytest.mark.parametrize("seed", range(3))
def test_a_room_the_seat_did_not_see_is_never_named(seed: int) -> None:
    """Through a random game: a preview names a room only where it is face up or in this
    seat's own notebook, and names it rightly."""
    state, rng = _started(SUSPICION, seed), random.Random(seed)
    for _ in range(150):
        full = engine.full_view(state)
        for seat in full["notebooks"]:
            view = engine.seat_view(state, seat)
            for cid, _action, direction, _target, found in every_preview(view):
                if "room" not in found.params:
                    continue
                there = grid.neighbour(grid.NAMED[view["characters"][cid]["cell"]], direction)
                row, col = grid.row_col(there)
                cell = full["complex"][row][col]
                assert found.params["room"] == cell["room"]
                assert cell["revealed"] or full["notebooks"][seat].get(cell["cell"])
        waiting = engine.waiting_for(state).as_dict()
        options = [c for s in waiting["seats"] for c in engine.legal_commands(state, s)]
        if waiting["phase"] == "over" or not options:
            break
        state = engine.apply(state, rng.choice(options)).state


def test_every_preview_has_its_words_in_every_language() -> None:
    langs = [p.name for p in WORDS.iterdir() if (p / "language.json").exists()]
    keys = set(json.loads((WORDS / "en" / "previews.json").read_text("utf-8")))
    for lang in langs:
        assert set(json.loads((WORDS / lang / "previews.json").read_text("utf-8"))) == keys, lang


def test_every_preview_of_the_catalogue_is_given_in_some_game() -> None:
    """No dead words: each `previews_*` text is what some seat's choice gets, through random
    games to their end (tests/web/test_i18n.py leaves the previews to this test)."""
    keys = set(json.loads((WORDS / "en" / "previews.json").read_text("utf-8"))) - {"_about"}
    given: set[str] = set()
    for seed in range(6):
        state, rng = _started(SUSPICION, seed), random.Random(seed)
        for _ in range(400):
            for seat in engine.full_view(state)["notebooks"]:
                given |= {found.key for *_, found in every_preview(engine.seat_view(state, seat))}
            waiting = engine.waiting_for(state).as_dict()
            options = [c for s in waiting["seats"] for c in engine.legal_commands(state, s)]
            if waiting["phase"] == "over" or not options:
                break
            state = engine.apply(state, rng.choice(options)).state
        if given >= keys:
            break
    assert sorted(keys - given) == []
