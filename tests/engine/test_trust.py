"""Issue 22 at the engine: reports that cannot be true, inputs that must be refused rather than
raise, the audiences the library itself enforces, and the order of the last events of a game."""

from __future__ import annotations

import pytest

from companion.engine import (
    COMMAND_SCHEMA,
    HOST,
    Refused,
    apply,
    events_for,
    legal_commands,
    public_view,
    replay,
    seat_view,
    set_position,
    start,
)
from companion.engine.kernel.mac_deck import load_deck
from companion.engine.rules.compose import legal_players
from companion.scenario import run_scenario


def _physical(**extra: object):
    setup = {"mode": "cooperation", "players": 4, "seed": 3, "tracking": "physical", **extra}
    state = start(setup).state
    assert state is not None
    return state


# --- reports that cannot be true ---


@pytest.mark.parametrize(
    ("edition", "aside"),
    [("base", ["room25", "vision"]), ("ultimate", ["room25", "vision", "key", "moving", "robot"])],
)
def test_a_starting_clue_next_to_the_centre_is_never_a_room_of_the_exit_zones(
    edition: str, aside: list[str]
) -> None:
    """001, Construction of the Complex: the Vision chamber and Room 25 are set aside and go on
    the edges; 000: the put-aside rooms go on the exit zones, the twelve others form a cross."""
    state = _physical(edition=edition)
    offered = {c.get("room") for c in legal_commands(state, "1")}
    assert offered and not offered & set(aside)
    possible = [k for k in aside if state.composition.get(k)]
    assert possible
    for kind in possible:
        result = apply(state, {"type": "clue", "seat": "1", "cell": "C2", "room": kind})
        assert result.refusal is not None and result.refusal.code == "set_aside_for_exit_zones"
        assert result.refusal.params == {"room": kind, "cell": "C2"}
        assert result.refusal.text("fr")


def test_an_exit_zone_tile_may_still_be_room25() -> None:
    state = _physical()
    for seat, cell in zip(state.seats, ("C2", "B3", "D3", "C4"), strict=True):
        state = apply(state, {"type": "clue", "seat": seat, "cell": cell, "room": "empty"}).state
    program = {"type": "program", "seat": "1", "character": "emmett", "actions": ["move"]}
    state = apply(state, program).state
    for seat, cid in (("2", "franck"), ("3", "max"), ("4", "kevin")):
        state = apply(
            state, {"type": "program", "seat": seat, "character": cid, "actions": ["look"]}
        ).state
    move = {"type": "act", "seat": "1", "character": "emmett", "direction": "north"}
    offered = [c for c in legal_commands(state, "1") if c.get("direction") == "north"]
    assert "room25" not in {c["room"] for c in offered}  # C2 is an inner cell
    assert not apply(state, {**move, "room": "room25"}).ok


def test_a_second_timer_report_is_refused_in_a_countdown_game() -> None:
    """000, Timer room: 'In both cases, the Timer room is then removed from play and replaced
    with an empty room.' The box holds one (rooms.json)."""
    setup = {"edition": "season2", "mode": "suspicion", "players": 5, "seed": 1}
    state = start({**setup, "tracking": "countdown"}).state
    report = {"type": "report", "seat": HOST, "event": "entered_timer", "character": "emmett"}
    state = apply(state, report).state
    again = apply(state, {**report, "character": "franck"})
    assert again.refusal is not None and again.refusal.code == "timer_already_played"


def test_rigged_roles_the_role_tiles_cannot_deal_are_refused() -> None:
    """001, Role distribution: 4 players, 4 prisoner tiles and 1 guard tile."""
    setup = {"mode": "suspicion", "players": 4, "seed": 1}
    two = start({**setup, "roles": {"emmett": "guard", "franck": "guard"}})
    assert two.refusal is not None and two.refusal.code == "roles_not_dealable"
    assert two.refusal.text("fr")
    assert start({**setup, "roles": {"emmett": "guard"}}).ok
    assert start({**setup, "roles": {}}).ok  # the guard tile was the spare one
    exact = {"edition": "ultimate", "mode": "suspicion", "players": 6, "seed": 1}
    assert not start({**exact, "roles": {"emmett": "guard"}}).ok  # two guard tiles at 6
    assert start({**exact, "roles": {"emmett": "guard", "max": "guard"}}).ok
    five = {**exact, "players": 5, "guards": 1}
    assert not start({**five, "roles": {"emmett": "guard", "max": "guard"}}).ok
    assert start({**five, "roles": {"emmett": "guard"}}).ok


# --- contract residues ---


@pytest.mark.parametrize("key", [None, 7, 2.5, ("a",)])
def test_a_composition_keyed_by_anything_but_a_room_name_is_refused(key: object) -> None:
    setup = {"mode": "cooperation", "players": 4, "seed": 1, "composition": {"rooms": {key: 23}}}
    result = start(setup)
    assert result.refusal is not None and result.refusal.code == "composition_unknown_room"


@pytest.mark.parametrize("seat", [["1"], {"1": 1}, 1, None, "engine", "face-down"])
def test_views_and_offers_refuse_a_seat_that_is_no_seat(seat: object) -> None:
    state = _physical()
    for call in (seat_view, legal_commands):
        with pytest.raises(Refused) as refused:
            call(state, seat)  # type: ignore[arg-type]
        assert refused.value.refusal.code == "unknown_seat"


@pytest.mark.parametrize("audience", ["engine", "face-down", "host", "9", ["1"]])
def test_events_for_refuses_an_audience_that_is_no_seat(audience: object) -> None:
    setup = {"edition": "season2", "mode": "cooperation", "players": 4, "seed": 1}
    events = start(setup).events
    assert any(e.get("private") == "engine" for e in events)
    with pytest.raises(Refused) as refused:
        events_for(events, audience)  # type: ignore[arg-type]
    assert refused.value.refusal.code == "unknown_seat"


def test_a_null_field_is_refused_not_read_as_left_out() -> None:
    state = _physical()
    clue = {"type": "clue", "seat": "1", "cell": "C2", "room": "empty"}
    assert apply(state, clue).ok
    for name in ("room", "version"):
        result = apply(state, {**clue, name: None})
        assert result.refusal is not None and result.refusal.code == "field_is_null"
        assert result.refusal.params == {"field": name}
    for schema in COMMAND_SCHEMA["$defs"].values():
        for shape in schema["properties"].values():
            assert "null" not in str(shape.get("type", ""))


# --- issue 21 ---


@pytest.mark.parametrize("edition", ["season2", "ultimate"])
@pytest.mark.parametrize("mode", ["suspicion", "cooperation", "competition", "team", "solo"])
def test_a_punishment_card_only_names_and_touches_characters_in_the_game(
    edition: str, mode: str
) -> None:
    """000, PUNISHMENT: 'Both characters pictured on the card lose one of the following Action
    tokens'. The deck is the same whatever the cast; a pictured character not in the game
    loses nothing, is never asked, and the card as the table sees it drawn (the public
    `mac_drawn`) names only the pictured characters in the game, in both languages."""
    punishments = [c for c in load_deck().cards if c.kind == "punishment"]
    everyone = {c for card in punishments for c in card.characters or ()}
    for players in legal_players(edition, mode):
        setup = {"edition": edition, "mode": mode, "players": players, "seed": 2}
        setup["settings"] = {"mac": "standard", "mac_deck": "physical"}
        started = start(setup)
        assert started.state is not None, started.refusal
        cast = set(started.state.characters)
        for card in punishments:
            state = _to_mac_card(started.state)
            seen = set()
            result = apply(state, {"type": "choose", "seat": HOST, "card": card.id})
            assert result.ok, (card.id, result.refusal)
            (drawn,) = [e for e in events_for(result.events, None) if e["type"] == "mac_drawn"]
            shown = drawn["shown"]
            assert shown["characters"] == [c for c in card.characters if c in cast]
            said = " ".join(
                shown[f"{part}_{lang}"] for part in ("name", "text") for lang in ("en", "fr")
            )
            for absent in everyone - cast:
                assert absent.capitalize() not in said, (players, card.id, said)
            state = result.state
            while state.pending is not None and state.pending["kind"] == "punishment":
                seen.add(state.pending["character"])
                (offer, *_) = legal_commands(state, state.pending["seat"])
                state = apply(state, offer).state
            assert seen == (set(card.characters) & cast) - {"alice"}, (players, card.id)


def _to_mac_card(state):
    while state.pending is None or state.pending["kind"] != "mac_card":
        seat = next(s for s in state.seats if legal_commands(state, s))
        state = apply(state, legal_commands(state, seat)[0]).state
    return state


# --- the end of a game (issue 21, point 10) ---

SHREDDER = [
    ["empty", "dark", "empty", "cold", "room25"],
    ["empty", "prison", "shredder", "vortex", "empty"],
    ["dark", "empty", "central", "vision", "empty"],
    ["cold", "trapped", "flooded", "mortal", "empty"],
    ["vortex", "prison", "tunnel", "tunnel", "acid"],
]


def test_every_elimination_comes_before_the_end_of_the_game() -> None:
    """000, Shredder room: 'Any characters still in this room are eliminated'; in Ultimate
    Cooperation the first death already loses. The record says both deaths, then the end."""
    doc = {
        "setup": {"edition": "ultimate", "mode": "cooperation", "players": 4},
        "position": {
            "phase": "programming",
            "clues": "all",
            "positions": {"emmett": "C2", "franck": "C2", "max": "C2"},
        },
        "steps": [
            {"program": {"emmett": ["move"], "franck": ["look"], "max": ["look"]}},
            {"program": {"kevin": ["look"]}},
            {"type": "act", "character": "emmett", "direction": "west"},
        ],
    }
    doc["setup"]["complex"] = SHREDDER
    doc["setup"]["settings"] = {"mac": "off"}
    result = run_scenario(doc)
    assert result.ok, result.failures
    kinds = [e["type"] for e in result.events]
    last_death = max(i for i, kind in enumerate(kinds) if kind == "eliminated")
    assert kinds.count("eliminated") == 2 and kinds.index("game_over") > last_death, kinds[-6:]


# --- the starting clue: its cell is public, its room is the seat's ---

TWIN_A = [row[:] for row in SHREDDER]
TWIN_B = [row[:] for row in SHREDDER]
TWIN_B[1][2], TWIN_B[4][4] = "acid", "shredder"  # C2 and E5 swapped: the same composition


@pytest.mark.parametrize("tracking", ["dealt", "physical"])
def test_the_starting_clue_cell_is_public_and_its_room_stays_with_the_seat(tracking: str) -> None:
    """001, Starting clue: each player 'secretly looks at one room [...] and replaces it
    face-down in its initial location': the table sees which tile he lifts, not its room."""
    games = []
    for complex_, room in ((TWIN_A, "shredder"), (TWIN_B, "acid")):
        setup = {"edition": "ultimate", "mode": "cooperation", "players": 4, "seed": 5}
        if tracking == "dealt":
            setup["complex"] = complex_
        else:
            setup["tracking"] = "physical"
        started = start(setup)
        clue = {"type": "clue", "seat": "1", "cell": "C2", "room": room}
        result = apply(started.state, clue)
        assert result.ok, result.refusal
        games.append((result.state, started.events + result.events))
    (one, one_events), (two, two_events) = games
    assert public_view(one)["clues"] == {"1": "C2"} == seat_view(one, "2")["clues"]
    assert seat_view(one, "1")["notebook"] == {"C2": "shredder"}
    assert seat_view(two, "1")["notebook"] == {"C2": "acid"}
    assert public_view(one) == public_view(two)
    for seat in ("2", "3", "4"):
        assert seat_view(one, seat) == seat_view(two, seat)
    for audience in (None, "2"):
        shown = events_for(one_events, audience)
        assert shown == events_for(two_events, audience)
        assert {"type": "clue_taken", "seat": "1", "cell": "C2"} in shown


def test_a_written_down_position_gives_every_seat_the_clue_cells() -> None:
    started = start({"mode": "cooperation", "players": 4, "seed": 1, "tracking": "physical"})
    placed = set_position(started.state, {"phase": "clue", "clues": {"1": "C2"}})
    assert placed.ok, placed.refusal
    (event,) = [e for e in events_for(placed.events, "2") if e["type"] == "position_set"]
    assert event["seats"]["1"]["clue"] == "C2"
    assert "notebook" not in event["seats"]["1"]


# --- what the whole table saw, and the host's correction ---


def test_a_room_seen_face_up_and_turned_down_is_still_that_room() -> None:
    """000, EMMETT, REACTIVATE: 'This room is then turned face-down': everyone saw it."""
    started = start({"mode": "cooperation", "players": 4, "seed": 4, "tracking": "physical"})
    c2 = 7  # the tile laid on C2
    shown = {"type": "room_revealed", "tile": c2, "room": "dark", "cell": c2}
    hidden = {"type": "room_hidden", "tile": c2, "cell": "C2", "cause": "reactivate"}
    state = replay([*started.events, shown, hidden])
    offered = [c for c in legal_commands(state, "1") if c["cell"] == "C2"]
    assert [c["room"] for c in offered] == ["dark"]
    clue = {"type": "clue", "seat": "1", "cell": "C2"}
    denied = apply(state, {**clue, "room": "empty"})
    assert denied.refusal is not None and denied.refusal.code == "report_denies_face_up"
    assert denied.refusal.params == {"cell": "C2", "room": "dark"}
    assert apply(state, {**clue, "room": "dark"}).ok


def test_the_host_correction_is_accepted_whatever_was_reported() -> None:
    """Seat 1 looked at C2 in one game and at B3 in its twin: the host's correction of C2 is
    accepted in both with the same public record, and forgets seat 1's report in the first."""
    records = []
    for cell in ("C2", "B3"):
        state = _physical()
        state = apply(state, {"type": "clue", "seat": "1", "cell": cell, "room": "empty"}).state
        fixed = apply(state, {"type": "correct", "seat": HOST, "cell": "C2"})
        assert fixed.ok, fixed.refusal
        assert "C2" not in seat_view(fixed.state, "1")["notebook"]
        records.append(events_for(fixed.events, None))
    assert records[0] == records[1] == [{"type": "reports_withdrawn", "tile": 7, "cell": "C2"}]
    state = _physical()
    for command, code in (
        ({"type": "correct", "seat": "1", "cell": "C2"}, "host_command"),
        ({"type": "correct", "seat": HOST, "cell": "C3"}, "correct_face_down_only"),
    ):
        refused = apply(state, command)
        assert refused.refusal is not None and refused.refusal.code == code
    dealt = start({"mode": "cooperation", "players": 4, "seed": 3}).state
    refused = apply(dealt, {"type": "correct", "seat": HOST, "cell": "C2"})
    assert refused.refusal is not None and refused.refusal.code == "correct_physical_only"
    assert "correct" in COMMAND_SCHEMA["$defs"]
    assert COMMAND_SCHEMA["$defs"]["correct"]["properties"]["seat"] == {"const": HOST}


def test_a_rigged_physical_complex_follows_the_construction() -> None:
    rigged = SHREDDER  # the Vision chamber at D3, an inner cell
    setup = {"edition": "ultimate", "mode": "cooperation", "players": 4, "seed": 1}
    assert start({**setup, "complex": rigged}).ok
    refused = start({**setup, "complex": rigged, "tracking": "physical"})
    assert refused.refusal is not None and refused.refusal.code == "set_aside_for_exit_zones"
