"""The new rooms of Season 2 and Ultimate where a scenario cannot say it: the events a room
emits, what each seat may see of them, and the corridor settings that talents will use."""

from __future__ import annotations

import pytest

from companion.engine import apply, events_for, full_view, seat_view, start
from companion.engine.face.position import set_position
from companion.engine.kernel.context import Context
from companion.engine.rules.pivoting import exits, restricts, turn_quarter

COMPLEX = [
    ["tunnel", "empty", "empty", "mirror", "room25"],
    ["empty", "empty", "tunnel", "empty", "empty"],
    ["dark", "paranoia", "central", "pivoting", "empty"],
    ["cold", "regeneration", "mac", "jamming", "timer"],
    ["tunnel", "prison", "vision", "mortal", "acid"],
]


def _game(edition: str = "season2"):
    # Four players: Season 2 keeps the base game's spare role tile, Ultimate deals one guard.
    roles = {} if edition == "season2" else {"kevin": "guard"}
    setup = {"edition": edition, "mode": "suspicion", "players": 4, "roles": roles}
    started = start({**setup, "complex": COMPLEX, "seed": 0})
    assert started.ok, started.refusal
    placed = set_position(started.state, {"phase": "programming"})
    assert placed.ok, placed.refusal
    state, events = placed.state, started.events + placed.events
    for cid, tokens in (("emmett", ["move"]), ("franck", ["look"]), ("max", ["look"])):
        state, events = _do(state, events, {"type": "program", "character": cid, "actions": tokens})
    return _do(state, events, {"type": "program", "character": "kevin", "actions": ["look"]})


def _do(state, events, command):
    seat = state.characters[command["character"]].seat
    result = apply(state, {"seat": seat, **command})
    assert result.ok, result.refusal
    return result.state, events + result.events


def _move(direction: str, edition: str = "season2"):
    state, events = _game(edition)
    command = {"type": "act", "character": "emmett", "direction": direction}
    return _do(state, events, command)


# 000, M.A.C. room: "Immediately draw a card from the M.A.C. deck and apply its effects. If the
# effect is applied to one or more specific characters (for example, the "punishment" cards),
# your character suffers the effects instead."
def test_mac_room_draws_a_card_that_falls_on_the_entrant() -> None:
    started = start(
        {
            "edition": "season2",
            "mode": "suspicion",
            "players": 4,
            "roles": {},
            "complex": COMPLEX,
            "seed": 0,
        }
    )
    placed = set_position(
        started.state,
        {
            "phase": "action",
            "programs": {
                "emmett": ["move"],
                "franck": ["look"],
                "max": ["look"],
                "kevin": ["look"],
            },
            "mac": {"draw": ["punish-max-alice"]},
        },
    )
    assert placed.ok, placed.refusal
    state, events = _do(
        placed.state, [], {"type": "act", "character": "emmett", "direction": "south"}
    )
    drawn = [e["card"] for e in events if e["type"] == "mac_drawn"]
    assert drawn == ["punish-max-alice"]
    assert state.pending["kind"] == "punishment" and state.pending["character"] == "emmett"
    state, _ = _do(state, [], {"type": "choose", "character": "emmett", "token": "look"})
    assert state.characters["emmett"].lost == ("look",)
    assert state.characters["max"].lost == ()
    assert state.mac.discard == ["punish-max-alice"] and state.current == "franck"


# 000, Paranoia room: "mix all of your action tokens [...] and make a face-down pile."
def test_paranoia_pile_order_is_seen_by_no_seat() -> None:
    state, events = _move("west")
    pile = full_view(state)["characters"]["emmett"]["paranoia"]
    assert sorted(pile) == ["control", "look", "move", "push", "talent"]
    for seat in [None, *state.seats]:
        shown = events_for(events, seat)
        assert not [e for e in shown if e["type"] == "paranoia_pile"]
        assert [e for e in shown if e["type"] == "paranoia"]
    assert seat_view(state, "1")["characters"]["emmett"]["paranoia"] == sorted(pile)


def test_paranoia_shuffle_comes_from_the_seeded_generator() -> None:
    first, _ = _move("west")
    again, _ = _move("west")
    assert first.characters["emmett"].paranoia == again.characters["emmett"].paranoia
    assert first.rng != _game()[0].rng


# 000, Pivoting room: "A character in this room can only move, look, or push through the
# corridor's exits. Other abilities and the control action are not affected". 002: "ne peut se
# déplacer, regarder, pousser ou porter" (page), "ou exercer son talent" (sheet).
@pytest.mark.parametrize(
    ("edition", "restricted"),
    [("ultimate", {"move", "look", "push"}), ("season2", {"move", "look", "push", "carry"})],
)
def test_corridor_restricts_per_edition(edition: str, restricted: set[str]) -> None:
    state, _ = _game(edition)
    uses = ["move", "look", "push", "control", "carry", "call", "hack"]
    assert {use for use in uses if restricts(state, use)} == restricted


def test_corridor_setting_talents_restricts_every_talent_not_control() -> None:
    setup = {"edition": "season2", "mode": "suspicion", "players": 4, "roles": {}}
    state = start(
        {**setup, "complex": COMPLEX, "settings": {"pivoting_corridor": "talents"}, "seed": 0}
    ).state
    assert restricts(state, "call") and restricts(state, "carry")
    assert not restricts(state, "control")


def test_corridor_exits_and_quarter_turn() -> None:
    state, _ = _move("east")
    assert state.tile_at(13).corridor == "east-west"
    assert set(exits(state, 13, "move")) == {"east", "west"}
    assert set(exits(state, 13, "control")) == {"north", "south", "east", "west"}
    ctx = Context(state.clone())
    turn_quarter(ctx, state.cells[13])
    assert ctx.state.tile_at(13).corridor == "north-south"
    assert set(exits(ctx.state, 13, "push")) == {"north", "south"}
