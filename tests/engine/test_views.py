"""Secrets and who may see them (001_30b8f356e0d93ba4.txt, GAME MODES, Suspicion Mode; Action
descriptions, Look), checked through the public interface only: start, apply, legal_commands,
seat_view, public_view, full_view (the ground truth) and events_for."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from companion.engine import (
    Refused,
    apply,
    events_for,
    full_view,
    legal_commands,
    public_view,
    seat_view,
    set_position,
    start,
)
from companion.engine.face import shapes
from companion.engine.kernel import chance

COMPLEX = [
    ["empty", "dark", "empty", "empty", "room25"],
    ["cold", "prison", "illusion", "empty", "empty"],
    ["dark", "empty", "central", "empty", "vision"],
    ["cold", "trapped", "flooded", "mortal", "acid"],
    ["moving", "acid", "twin", "twin", "mortal"],
]
DUOS = ({"emmett", "kevin"}, {"franck", "jennifer"}, {"max", "alice"})


def _start(setup: dict):
    result = start(setup)
    assert result.ok, result.refusal
    return result.state, list(result.events)


def _do(state, events, command):
    result = apply(state, command)
    assert result.ok, (command, result.refusal)
    return result.state, events + result.events


def _roles(state) -> dict[str, str]:
    return {cid: c["role"] for cid, c in full_view(state)["characters"].items()}


# Role distribution -----------------------------------------------------------------------------
# 001, Suspicion Mode, Role distribution: "4 players: Shuffle 4 Prisoner tiles and 1 Guard card.
# 5 or 6 players: Shuffle 4 Prisoner tiles and 2 Guard tiles. Note: With 4 and 5 players there is
# one more card than the number of players [...] In a game with only 4 players there might be no
# guards at all."


def _guard_counts(players: int, seeds: range) -> Counter:
    counts: Counter = Counter()
    for seed in seeds:
        state, _ = _start({"mode": "suspicion", "players": players, "seed": seed})
        counts[sum(1 for r in _roles(state).values() if r == "guard")] += 1
    return counts


def test_four_players_deal_from_four_prisoners_and_one_guard() -> None:
    counts = _guard_counts(4, range(300))
    assert set(counts) == {0, 1}, counts
    # One tile of five stays in the box: no guard in about one game in five.
    assert 0.1 < counts[0] / 300 < 0.3, counts


def test_five_players_deal_from_four_prisoners_and_two_guards() -> None:
    counts = _guard_counts(5, range(300))
    assert set(counts) == {1, 2}, counts
    # The tile left in the box is a guard one time in three.
    assert 0.2 < counts[1] / 300 < 0.47, counts


def test_six_players_always_have_two_guards() -> None:
    assert _guard_counts(6, range(100)) == Counter({2: 100})


@pytest.mark.parametrize("players", [4, 5, 6])
def test_each_player_gets_one_role_tile_privately(players: int) -> None:
    state, events = _start({"mode": "suspicion", "players": players, "seed": 11})
    dealt = [e for e in events if e["type"] == "role_dealt"]
    assert sorted(e["seat"] for e in dealt) == sorted(state.seats)
    assert all(e["private"] == e["seat"] for e in dealt)


# Each seat sees only its own role ---------------------------------------------------------------
# 001, Role distribution: "After looking secretly at it, each player places his role tile
# face-down in front of him."


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("seed", range(8))
def test_a_seat_sees_its_own_role_and_no_other(players: int, seed: int) -> None:
    state, _ = _start({"mode": "suspicion", "players": players, "seed": seed})
    truth = _roles(state)
    for seat in state.seats:
        view = seat_view(state, seat)
        for cid, entry in view["characters"].items():
            if entry["seat"] == seat:
                assert entry["role"] == truth[cid]
            else:
                assert entry["role"] is None, (seat, cid)
    assert all(c["role"] is None for c in public_view(state)["characters"].values())


def _to_action_phase(state, events, clues: dict[str, str]):
    for seat, cell in clues.items():
        state, events = _do(state, events, {"type": "clue", "seat": seat, "cell": cell})
    for cid, c in full_view(state)["characters"].items():
        command = {"type": "program", "seat": c["seat"], "character": cid, "actions": ["look"]}
        state, events = _do(state, events, command)
    assert state.phase == "action"
    return state, events


def test_an_exposed_guard_is_seen_by_everyone() -> None:
    state, events = _start(
        {
            "mode": "suspicion",
            "players": 4,
            "seed": 0,
            "complex": COMPLEX,
            "roles": {"emmett": "guard"},
        }
    )
    state, events = _to_action_phase(state, events, {"1": "C2", "2": "D3", "3": "B3", "4": "C4"})
    assert public_view(state)["characters"]["emmett"]["role"] is None
    state, events = _do(state, events, {"type": "expose", "seat": "1"})
    assert public_view(state)["characters"]["emmett"]["role"] == "guard"
    for seat in ("2", "3", "4"):
        assert seat_view(state, seat)["characters"]["emmett"]["role"] == "guard"
        assert seat_view(state, seat)["characters"]["franck"]["role"] is None or seat == "2"


# Programming and notebooks ----------------------------------------------------------------------


def test_programming_and_notebook_stay_with_their_seat() -> None:
    state, events = _start(
        {
            "mode": "suspicion",
            "players": 4,
            "seed": 0,
            "complex": COMPLEX,
            "roles": {"kevin": "guard"},
        }
    )
    clues = {"1": "C2", "2": "D3", "3": "B3", "4": "C4"}
    kinds = {"C2": "illusion", "D3": "empty", "B3": "empty", "C4": "flooded"}
    state, events = _to_action_phase(state, events, clues)
    for seat, cell in clues.items():
        view = seat_view(state, seat)
        assert view["notebook"] == {cell: kinds[cell]}
        assert "notebooks" not in view
        for entry in view["characters"].values():
            if entry["seat"] == seat:
                assert entry["program"] == ["look"]
            else:
                assert "program" not in entry and "single_action" not in entry
    public = public_view(state)
    assert "notebook" not in public and "notebooks" not in public
    assert all("program" not in c for c in public["characters"].values())
    # Only seat 1 looked at the Illusion room: its name is nowhere else.
    assert "illusion" in json.dumps(seat_view(state, "1"))
    for seat in ("2", "3", "4"):
        assert "illusion" not in json.dumps(seat_view(state, seat))
    assert "illusion" not in json.dumps(public)


def _check_secrets(state) -> None:
    full = full_view(state)
    public = public_view(state)
    hidden = {e["cell"] for row in full["complex"] or [] for e in row if not e["revealed"]}
    for view, seat in [(public, None), *((seat_view(state, s), s) for s in state.seats)]:
        assert "notebooks" not in view
        for row in view["complex"] or []:
            for entry in row:
                if entry["cell"] in hidden:
                    assert entry["room"] is None
        for cid, entry in view["characters"].items():
            own = seat is not None and entry["seat"] == seat
            if not own:
                assert "program" not in entry
                assert entry["role"] == public["characters"][cid]["role"]
        if seat is not None:
            assert view["notebook"] == full["notebooks"][seat]
            assert set(view["notebook"]) <= hidden
        else:
            assert "notebook" not in view


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tracking", ["dealt", "physical"])
def test_random_games_never_leak_secrets_into_views(seed: int, tracking: str) -> None:
    rng = random.Random(seed)
    state, _ = _start({"mode": "suspicion", "players": 5, "seed": seed, "tracking": tracking})
    for _ in range(400):
        if state.outcome is not None:
            break
        _check_secrets(state)
        options = [c for s in state.seats for c in legal_commands(state, s)]
        result = apply(state, rng.choice(options))
        assert result.ok, result.refusal
        state = result.state
    _check_secrets(state)


# events_for -------------------------------------------------------------------------------------


def _played_game():
    state, events = _start(
        {
            "mode": "suspicion",
            "players": 4,
            "seed": 0,
            "complex": COMPLEX,
            "roles": {"franck": "guard"},
        }
    )
    state, events = _to_action_phase(state, events, {"1": "C2", "2": "D3", "3": "B3", "4": "C4"})
    return state, events


def test_events_for_drops_other_seats_private_events() -> None:
    _, events = _played_game()
    assert any(e.get("private") for e in events)
    for seat in ("1", "2", "3", "4"):
        mine = events_for(events, seat)
        assert all(e.get("private") in (None, seat) for e in mine)
        assert [e["seat"] for e in mine if e["type"] == "role_dealt"] == [seat]
        # Its own private events are all kept.
        assert [e for e in mine if e.get("private") == seat] == [
            e for e in events if e.get("private") == seat
        ]
    public = events_for(events, None)
    assert not any(e.get("private") for e in public)
    assert not any(e["type"] in ("role_dealt", "programmed", "room_seen") for e in public)


def test_events_for_blanks_hidden_tiles() -> None:
    _, events = _played_game()
    for seat in (None, "1", "2"):
        created = next(e for e in events_for(events, seat) if e["type"] == "game_created")
        for kind, shown in created["tiles"]:
            assert kind is None or shown
        # The composition is public; where its rooms lie is not.
        shown = [
            {k: v for k, v in e.items() if k not in ("composition", "ruleset")}
            for e in events_for(events, seat)
        ]
        text = json.dumps(shown)
        # The Moving room (A5) was never seen by anyone; the Illusion room (C2) only by seat 1.
        assert "moving" not in text
        assert ("illusion" in text) == (seat == "1")
        assert '"role": "guard"' not in text or seat == "2"
    # The unfiltered log still holds everything.
    assert "moving" in json.dumps(events)


def test_the_public_record_does_not_give_away_the_roles() -> None:
    """No seat may learn the roles from what events_for gives it: here, a generator state left
    in the public `game_created` event is walked back to the role shuffle (with the engine's own
    shuffle, as an attacker would)."""
    golden = 0x9E3779B97F4A7C15
    recovered = 0
    seeds = range(20)
    for seed in seeds:
        state, events = _start({"mode": "suspicion", "players": 4, "seed": seed})
        created = next(e for e in events_for(events, "2") if e["type"] == "game_created")
        value = created.get("rng")
        if not isinstance(value, int):
            continue
        before = (value - 4 * golden) % (1 << 64)  # five role tiles: four draws
        after, deck = chance.shuffled(before, ["prisoner"] * 4 + ["guard"])
        if after != value:
            continue
        guess = {seat["characters"][0]: deck[i] for i, seat in enumerate(created["seats"])}
        recovered += guess == _roles(state)
    assert recovered < len(seeds) // 2, f"roles recomputed from the public record in {recovered}"


# Setup of the duo modes -------------------------------------------------------------------------


def test_cooperation_duos_must_be_real_duos() -> None:
    """001, Cooperation Mode, Setup: the Scientist and the Nerd, the Dude and the Bimbo, the
    Colossus and the Little Girl."""
    result = start(
        {
            "mode": "cooperation",
            "seed": 0,
            "seats": [
                {"id": "1", "characters": ["emmett", "franck"]},
                {"id": "2", "characters": ["kevin", "jennifer"]},
            ],
        }
    )
    assert not result.ok
    assert "duo" in str(result.refusal)


def test_team_of_two_players_holds_a_duo_by_default() -> None:
    """001, Team Mode, Setup: "4 players: The teammates choose a character duo as specified in the
    Cooperation Mode [...] The players sit at the table alternating players of different teams"."""
    state, _ = _start({"mode": "team", "players": 4, "seed": 0})
    seats = full_view(state)["characters"]
    team_a = {cid for cid, c in seats.items() if c["seat"] in ("1", "3")}
    team_b = {cid for cid, c in seats.items() if c["seat"] in ("2", "4")}
    assert team_a in DUOS and team_b in DUOS, (team_a, team_b)


# Robots are public ------------------------------------------------------------------------------
# 000_f9f1d5a43eaf8620.txt, ROBOTS: robots are figures on the board, which everyone sees.

ULTIMATE_COMPLEX = [
    ["empty", "dark", "empty", "cold", "room25"],
    ["empty", "prison", "robot", "vortex", "empty"],
    ["dark", "empty", "central", "vision", "empty"],
    ["cold", "trapped", "flooded", "mortal", "empty"],
    ["vortex", "prison", "tunnel", "tunnel", "acid"],
]


def test_robots_are_shown_to_the_table_and_every_seat() -> None:
    state, _ = _start(
        {
            "edition": "ultimate",
            "mode": "suspicion",
            "players": 4,
            "seed": 0,
            "complex": ULTIMATE_COMPLEX,
        }
    )
    placed = set_position(state, {"phase": "programming", "robots": ["C2", "C2", "A1"]})
    assert placed.ok, placed.refusal
    for view in [public_view(placed.state)] + [seat_view(placed.state, s) for s in state.seats]:
        shown = {e["cell"]: e["robots"] for row in view["complex"] for e in row if e["robots"]}
        assert shown == {"C2": 2, "A1": 1}


# The views' and the events' documented shapes (shapes.py) ----------------------------------------


def _keys(shape: type) -> tuple[set[str], set[str]]:
    """The keys a TypedDict requires, and those it allows besides."""
    return set(shape.__required_keys__), set(shape.__optional_keys__)


def _check(value: dict, shape: type, where: str) -> None:
    required, optional = _keys(shape)
    assert required <= set(value), (where, required - set(value))
    assert set(value) <= required | optional, (where, set(value) - required - optional)


def _check_view(view: dict, shape: type, own: set[str]) -> None:
    _check(view, shape, shape.__name__)
    _check(view["ruleset"], shapes.RulesetView, "ruleset")
    for row in view["complex"] or []:
        for cell in row:
            _check(cell, shapes.CellView, cell["cell"])
    for cid, entry in view["characters"].items():
        _check(entry, shapes.CharacterView, cid)
        secret = {"program", "single_action", "adrenaline_programmed", "talent_choice"}
        assert (secret <= set(entry)) == (cid in own), (cid, own)
    if view["pending"] is not None:
        _check(view["pending"], shapes.PendingView, "pending")
    _check(view["mac"], shapes.MacView, "mac")


@pytest.mark.parametrize("edition", ["base", "season2", "ultimate"])
@pytest.mark.parametrize("mode", ["suspicion", "cooperation"])
def test_views_and_events_have_their_documented_shapes(edition, mode) -> None:
    rng = random.Random(f"{edition}{mode}")
    for tracking in ("dealt", "physical", "countdown"):
        setup = {"edition": edition, "mode": mode, "players": 4, "tracking": tracking}
        state, events = _start({**setup, "seed": rng.getrandbits(32)})
        while state.outcome is None:
            seat_of = {cid: c["seat"] for cid, c in full_view(state)["characters"].items()}
            _check_view(public_view(state), shapes.PublicView, set())
            _check_view(full_view(state), shapes.FullView, set(seat_of))
            for seat in state.seats:
                mine = {cid for cid, s in seat_of.items() if s == seat}
                _check_view(seat_view(state, seat), shapes.SeatView, mine)
            options = [c for seat in state.seats for c in legal_commands(state, seat)]
            state, events = _do(state, events, rng.choice(options))
        for event in events:
            fields = shapes.EVENT_FIELDS[event["type"]]
            given = set(event) - {"type", "private"}
            required = {f for f in fields if not f.endswith("?") and f != "*"}
            allowed = required | {f[:-1] for f in fields if f.endswith("?")}
            assert required <= given, (event["type"], required - given)
            assert "*" in fields or given <= allowed, (event["type"], given - allowed)


def test_an_unknown_seat_is_refused_with_its_code() -> None:
    state, _ = _start({"mode": "suspicion", "players": 4, "seed": 1})
    for seat in ("9", "host", "engine", ""):
        with pytest.raises(Refused) as refused:
            seat_view(state, seat)
        assert refused.value.refusal.code == "unknown_seat"
        assert refused.value.refusal.params == {"seat": seat}


def test_a_written_down_position_reaches_each_seat_without_the_others_secrets() -> None:
    """Issue 8: `events_for` used to pass a `position_set` event whole to every seat."""
    started = start({"mode": "suspicion", "players": 5, "seed": 11})
    placed = set_position(
        started.state,
        {
            "phase": "programming",
            "programs": {"emmett": ["look", "move"]},
            "notebooks": {"1": {"B2": "acid"}, "2": {"D3": "mortal"}},
        },
    )
    assert placed.ok, placed.refusal
    events = started.events + placed.events
    for seat in ("2", None):
        (event,) = [e for e in events_for(events, seat) if e["type"] == "position_set"]
        assert all(t["kind"] is None for t in event["tiles"] if not t["revealed"])
        assert "program" not in event["characters"]["emmett"]
        assert "notebook" not in event["seats"]["1"]
    (own,) = [e for e in events_for(events, "1") if e["type"] == "position_set"]
    assert own["characters"]["emmett"]["program"] == ["look", "move"]
    assert own["seats"]["1"]["notebook"]
