"""View changes and versions (views.changes_for, views.apply_changes, state.version).

A phone that applies `changes_for(before, after, seat)` to its last view holds exactly the new
`seat_view`; what a seat sees change, and the version it sees, never depend on another seat's
secret choices."""

from __future__ import annotations

import itertools
import random
from dataclasses import fields

import pytest

from companion.engine import (
    EDITIONS,
    MODES,
    PUBLIC,
    apply,
    apply_changes,
    changes_for,
    changes_for_seats,
    legal_commands,
    public_view,
    replay,
    seat_view,
    start,
    views_for,
    waiting_for,
)
from companion.engine.kernel.state import Character, Tile, TileId
from companion.engine.rules.compose import legal_players

TABLES = [
    (edition, mode, players, tracking)
    for edition in EDITIONS
    for mode in MODES
    for players in sorted(set(legal_players(edition, mode)))[:2]
    for tracking in ("dealt", "physical", "countdown")
]


def _random_game(setup: dict, rng: random.Random, limit: int = 400):
    """States and events of one game played with random legal commands."""
    result = start(setup)
    assert result.ok, result.refusal
    states, events = [result.state], list(result.events)
    state = result.state
    while state.outcome is None and len(states) < limit:
        options = [c for seat in state.seats for c in legal_commands(state, seat)]
        result = apply(state, rng.choice(options))
        assert result.ok, result.refusal
        state = result.state
        states.append(state)
        events.extend(result.events)
    return states, events


@pytest.mark.parametrize(("edition", "mode", "players", "tracking"), TABLES)
def test_a_view_kept_current_by_its_changes_is_the_new_view(edition, mode, players, tracking):
    setup = {"edition": edition, "mode": mode, "players": players, "tracking": tracking}
    rng = random.Random(f"{edition}{mode}{players}{tracking}")
    states, _ = _random_game({**setup, "seed": rng.getrandbits(32)}, rng)
    seats = list(states[0].seats)
    kept = {PUBLIC: public_view(states[0])} | {s: seat_view(states[0], s) for s in seats}
    for before, after in itertools.pairwise(states):
        changes = changes_for_seats(before, after, seats)
        for audience, view in kept.items():
            kept[audience] = apply_changes(view, changes[audience])
        assert kept[PUBLIC] == public_view(after)
        for seat in seats:
            assert kept[seat] == seat_view(after, seat), seat
            assert changes[seat] == changes_for(before, after, seat)
        assert changes[PUBLIC] == changes_for(before, after, None)
    # Any two states of the game, however many commands apart.
    for _ in range(20):
        first, last = sorted(rng.sample(range(len(states)), 2))
        seat = rng.choice(seats)
        changes = changes_for(states[first], states[last], seat)
        assert apply_changes(seat_view(states[first], seat), changes) == seat_view(
            states[last], seat
        )


def test_changes_name_only_what_changed_and_leave_the_old_view_alone():
    state = start({"mode": "cooperation", "players": 2, "seed": 5}).state
    old = seat_view(state, "1")
    after = apply(state, {"type": "clue", "seat": "1", "cell": "C2"}).state
    changes = changes_for(state, after, "1")
    paths = [change["path"] for change in changes]
    assert ["clues_taken"] in paths and ["notebook"] in paths
    assert not any(path[0] == "complex" for path in paths)  # a Look turns no tile over
    assert ["phase"] not in paths
    assert changes_for(state, state, "1") == []
    assert apply_changes(old, changes) == seat_view(after, "1")
    assert old == seat_view(state, "1")  # applying changes copies what it changes


def test_views_for_shares_the_public_part_and_matches_each_view():
    state = start({"mode": "suspicion", "players": 5, "seed": 8}).state
    views = views_for(state, ["1", "2"])
    assert views[PUBLIC] == public_view(state)
    assert views["1"] == seat_view(state, "1") and views["2"] == seat_view(state, "2")
    assert views["1"]["complex"] is views[PUBLIC]["complex"]
    assert views["1"]["characters"] != views["2"]["characters"]  # each sees his own role


def _play_until_actions(setup: dict, secret: dict) -> list[tuple[dict, dict]]:
    """Program every character, seat by seat (seat 1's with `secret` added to the command),
    recording after each command the views and changes of the seats other than 1."""
    state = start(setup).state
    for seat in state.seats:
        options = legal_commands(state, seat)
        if options and options[0]["type"] == "clue":
            state = apply(state, options[0]).state
    seen = []
    while state.phase == "programming":
        seat = waiting_for(state).seats[0]
        legal = legal_commands(state, seat)
        programs = [c for c in legal if c["type"] == "program" and "adrenaline" not in c]
        command = programs[0] if programs else next(c for c in legal if c["type"] == "lock")
        if seat == "1" and programs:
            command = {**command, **secret}
        before = state
        result = apply(state, command)
        assert result.ok, (command, result.refusal)
        state = result.state
        others = [s for s in state.seats if s != "1"]
        seen.append(
            (
                {s: seat_view(state, s) for s in others},
                {s: changes_for(before, state, s) for s in others},
            )
        )
    return seen


@pytest.mark.parametrize(
    ("setup", "secrets"),
    [
        # Countdown only: programming the Adrenaline is the only secret of the programming phase.
        (
            {"edition": "season2", "mode": "cooperation", "players": 3, "tracking": "countdown"},
            ({"adrenaline": True}, {}),
        ),
        # A tracked board: which tokens are programmed.
        (
            {"mode": "suspicion", "players": 5},
            ({"actions": ["look"]}, {"actions": ["move", "look"]}),
        ),
    ],
)
def test_other_seats_see_the_same_game_whatever_a_seat_programs_in_secret(setup, secrets):
    setup = {**setup, "seed": 21}
    first, second = (_play_until_actions(setup, secret) for secret in secrets)
    assert len(first) == len(second) > 1
    for (views_a, changes_a), (views_b, changes_b) in zip(first, second, strict=True):
        assert views_a == views_b  # version included
        assert changes_a == changes_b


def test_the_version_counts_public_events_and_replay_keeps_it():
    rng = random.Random(3)
    states, events = _random_game({"mode": "suspicion", "players": 5, "seed": 3}, rng)
    public = [e for e in events if e.get("private") is None]
    assert len(public) < len(events)  # roles, Looks and programmes are private
    assert states[-1].version == len(public)
    assert replay(events).version == states[-1].version
    versions = [s.version for s in states]
    assert versions == sorted(versions)


# Every field of a character, with another value to give it: shown to every seat, shown to his
# own seat only, or never shown (the rules' bookkeeping). A field added to `Character` fails
# `test_every_character_field_is_classed` until it is classed here, and the tests below then
# check that the views and the change feed treat it as classed.
_TILE = 7  # another tile than the Central room's, where everybody starts
SHOWN_TO_ALL = {
    "seat": "2",
    "tile": _TILE,
    "alive": False,
    "role_public": True,
    "exposed_turn": 1,
    "trapped": 12,
    "flooded": 12,
    "flooded_turn": 1,
    "locked": True,
    "played": ("look",),
    "adrenaline": True,
    "lost": ("push",),
    "paranoia": ("move", "look"),  # which tokens are left is public, their order is not
    "hidden": True,
    "reserve": 2,
}
SHOWN_TO_HIS_SEAT = {
    "role": "guard",
    "program": ("move", "look"),
    "single_action": True,
    "adrenaline_programmed": True,
    "talent_choice": "look",
}
# What a field is shown with: set in both states, so that only the field itself differs.
SHOWN_WITH = {"flooded_turn": {"flooded": 12}}  # a flood's turn shows while he stands in it
NEVER_SHOWN = {
    "entered": 5,
    "trapped_at": 3,
    "actions": 4,
    "slots": 1,
    "limit": 1,
    "came_from": 7,
}


def test_every_character_field_is_classed():
    classed = [*SHOWN_TO_ALL, *SHOWN_TO_HIS_SEAT, *NEVER_SHOWN]
    assert len(classed) == len(set(classed))
    assert set(classed) == {f.name for f in fields(Character)} - {"id"}


def _one_field_changed(field: str, value: object):
    """A prisoner of a fresh five-player game, and the state with one of his fields changed."""
    first = start({"mode": "suspicion", "players": 5, "seed": 1}).state
    cid, c = next((cid, c) for cid, c in first.characters.items() if c.role == "prisoner")
    c = c.copy()
    for name, shown_with in SHOWN_WITH.get(field, {}).items():
        setattr(c, name, shown_with)
    before = first.clone()
    before.characters = {**first.characters, cid: c}
    assert getattr(c, field) != value
    changed = c.copy()
    setattr(changed, field, value)
    after = before.clone()
    after.characters = {**before.characters, cid: changed}
    return before, after, cid, c.seat


def _kept_current(before, after, seat) -> bool:
    view = public_view(before) if seat is None else seat_view(before, seat)
    new = public_view(after) if seat is None else seat_view(after, seat)
    return apply_changes(view, changes_for(before, after, seat)) == new


def _lists(before, after, seat, cid) -> bool:
    return ["characters", cid] in [ch["path"] for ch in changes_for(before, after, seat)]


@pytest.mark.parametrize(("field", "value"), SHOWN_TO_ALL.items())
def test_a_public_fact_of_a_character_reaches_every_seat(field, value):
    before, after, cid, _ = _one_field_changed(field, value)
    for seat in [None, *before.seats]:
        assert _lists(before, after, seat, cid)
        assert _kept_current(before, after, seat)
    assert public_view(before)["characters"][cid] != public_view(after)["characters"][cid]


@pytest.mark.parametrize(("field", "value"), SHOWN_TO_HIS_SEAT.items())
def test_a_secret_of_a_character_reaches_his_seat_only(field, value):
    before, after, cid, own = _one_field_changed(field, value)
    assert _lists(before, after, own, cid)
    assert seat_view(before, own)["characters"][cid] != seat_view(after, own)["characters"][cid]
    for seat in [None, *before.seats]:
        if seat != own:
            assert not _lists(before, after, seat, cid)
        assert _kept_current(before, after, seat)


@pytest.mark.parametrize(("field", "value"), NEVER_SHOWN.items())
def test_a_character_s_bookkeeping_is_in_no_view(field, value):
    before, after, cid, _ = _one_field_changed(field, value)
    assert views_for(before, before.seats) == views_for(after, after.seats)
    for seat in [None, *before.seats]:
        assert not _lists(before, after, seat, cid)


def _entering(room: Tile) -> tuple:
    """A fresh five-player game with `room` laid on tile 7, and the state after the first
    character walked into it (no rule checked: the feed is what is tested)."""
    first = start({"mode": "suspicion", "players": 5, "seed": 1}).state
    before = first.clone()
    before.tiles = {**first.tiles, room.id: room}
    cid, c = next(iter(before.characters.items()))
    inside = c.copy()
    inside.tile = room.id
    after = before.clone()
    after.characters = {**before.characters, cid: inside}
    return before, after


def _jammed_listed(before, after) -> list[bool]:
    """For each audience, whether its changes list the Jamming flag (all kept current)."""
    listed = []
    for seat in [None, *before.seats]:
        assert _kept_current(before, after, seat)
        listed.append(["jammed"] in [ch["path"] for ch in changes_for(before, after, seat)])
    return listed


def test_the_jamming_flag_follows_characters_in_and_out_of_a_face_up_jamming_room():
    before, after = _entering(Tile(TileId(7), "jamming", revealed=True))
    assert not public_view(before)["jammed"] and public_view(after)["jammed"]
    assert all(_jammed_listed(before, after))
    assert all(_jammed_listed(after, before))  # and out again


def test_a_face_down_jamming_room_jams_nothing_and_is_not_listed():
    before, after = _entering(Tile(TileId(7), "jamming"))
    assert not public_view(after)["jammed"]
    assert not any(_jammed_listed(before, after))
