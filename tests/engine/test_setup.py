"""Setting a base game up, through the engine's public API: the dealt complex, the refused
setups, the turn order, and the stale-command guard.

Each test quotes the sentence it checks (001_30b8f356e0d93ba4.txt: base rulebook, English;
004_621d42e365badfa5.txt: the same, French). Choices of the engine where the sources are silent
are marked "Decision" and described in docs/rules.md (setup and turn cycle).
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine import apply, events_for, full_view, public_view, seat_view, start
from companion.engine.rules.compose import get_composition

EXIT_ZONES = {"A1", "B1", "D1", "E1", "A2", "E2", "A4", "E4", "A5", "B5", "D5", "E5"}
ALL_CELLS = {f"{col}{row}" for col in "ABCDE" for row in "12345"}
INNER = ALL_CELLS - EXIT_ZONES - {"C3"}
NEXT_TO_CENTRAL = {"C2", "B3", "D3", "C4"}

# The base box (001, COMPOSITION OF THE COMPLEX): 32 tiles.
BOX = {
    "empty": 8,
    **dict.fromkeys(
        ("dark", "cold", "trapped", "flooded", "acid", "vortex", "mortal", "prison", "twin"), 2
    ),
    **dict.fromkeys(("vision", "control", "illusion", "moving", "central", "room25"), 1),
}

# 001, COMPOSITION OF THE COMPLEX, "Beginner" column (its catalogue entry is checked against the
# source in test_compose.py).
BEGINNER = dict(get_composition("beginner").rooms)

RIGGED = [
    ["empty", "dark", "mortal", "cold", "vortex"],
    ["empty", "empty", "twin", "empty", "room25"],
    ["dark", "flooded", "central", "trapped", "empty"],
    ["cold", "prison", "acid", "vision", "empty"],
    ["vortex", "prison", "twin", "acid", "control"],
]

PLAYERS = {
    "suspicion": (4, 5, 6),
    "cooperation": (2, 3, 4, 5, 6),
    "competition": (2, 3),
    "team": (4, 6),
    "solo": (1,),
}


def _layout(state) -> dict[str, str]:
    """The room at every cell, as the full (end-of-game) view knows it."""
    return {cell["cell"]: cell["room"] for row in full_view(state)["complex"] for cell in row}


def _started(setup: dict):
    result = start({"seed": 0, **setup})
    assert result.ok, result.refusal
    return result.state


# --- Construction of the Complex -----------------------------------------------------------


@pytest.mark.parametrize("mode", sorted(PLAYERS))
@pytest.mark.parametrize("seed", range(12))
def test_dealt_complex_follows_the_construction(mode: str, seed: int) -> None:
    """001, Construction of the Complex: "Place the Central Room in the table center. Set aside
    the Vision chamber and Room 25. Shuffle the 22 remaining rooms and place 12 of them face
    down. Then add the Vision chamber and Room 25 to the 10 remaining rooms, shuffle, and
    complete the board to create a square of 5 by 5 tiles. At the beginning of the game, Room 25
    is therefore placed, hidden, along one of the edges of the board. The spaces thereby
    completed constitute the Exit Zones.\""""
    layout = _layout(_started({"mode": mode, "players": PLAYERS[mode][0], "seed": seed}))
    assert set(layout) == ALL_CELLS
    assert layout["C3"] == "central"
    where = {kind: [c for c, k in layout.items() if k == kind] for kind in ("vision", "room25")}
    assert len(where["vision"]) == 1 and where["vision"][0] in EXIT_ZONES
    assert len(where["room25"]) == 1 and where["room25"][0] in EXIT_ZONES
    assert not {layout[c] for c in INNER} & {"central", "vision", "room25"}
    counts = Counter(layout.values())
    assert sum(counts.values()) == 25
    for kind, n in counts.items():
        assert n <= BOX[kind], (kind, n)


@pytest.mark.parametrize("seed", range(8))
def test_dealt_complex_holds_exactly_the_chosen_composition(seed: int) -> None:
    """001, COMPOSITION OF THE COMPLEX: "Additionally to the Central room and Room 25, take the
    23 rooms corresponding to the mode and the difficulty chosen.\""""
    state = _started(
        {"mode": "cooperation", "players": 4, "seed": seed, "composition": {"rooms": BEGINNER}}
    )
    expected = Counter({**BEGINNER, "central": 1, "room25": 1})
    assert Counter(_layout(state).values()) == expected


def test_dealt_complex_starts_hidden_but_the_central_room() -> None:
    """001, Construction of the Complex: the rooms are placed "face down"; the Central room is the
    room "in which all the prisoners start the game" (ROOMS Description)."""
    state = _started({"mode": "suspicion", "players": 5, "seed": 3})
    view = public_view(state)
    shown = {c["cell"]: c["room"] for row in view["complex"] for c in row if c["revealed"]}
    assert shown == {"C3": "central"}
    hidden_rooms = {c["room"] for row in view["complex"] for c in row if not c["revealed"]}
    assert hidden_rooms == {None}
    assert {c["cell"] for c in view["characters"].values()} == {"C3"}


def test_same_seed_same_complex_other_seeds_other_complexes() -> None:
    """The deal is a shuffle: reproducible from its seed (replay, undo), different across seeds."""
    setup = {"mode": "suspicion", "players": 4}
    assert _layout(_started({**setup, "seed": 7})) == _layout(_started({**setup, "seed": 7}))
    assert _layout(_started({**setup, "seed": 1})) != _layout(_started({**setup, "seed": 2}))
    layouts = {tuple(sorted(_layout(_started({**setup, "seed": s})).items())) for s in range(20)}
    assert len(layouts) == 20


def test_room25_and_vision_can_land_on_every_exit_zone() -> None:
    """001, Construction of the Complex: Vision chamber and Room 25 are shuffled with the 10 other
    rooms onto the 12 exit-zone cells, so any of them may receive either."""
    room25, vision = Counter(), Counter()
    for seed in range(300):
        layout = _layout(_started({"mode": "cooperation", "players": 2, "seed": seed}))
        room25.update(c for c, k in layout.items() if k == "room25")
        vision.update(c for c, k in layout.items() if k == "vision")
    assert set(room25) == EXIT_ZONES
    assert set(vision) == EXIT_ZONES


def test_rigged_complex_is_used_as_given() -> None:
    state = _started({"mode": "cooperation", "players": 4, "complex": RIGGED})
    layout = _layout(state)
    assert [[layout[f"{col}{row}"] for col in "ABCDE"] for row in "12345"] == RIGGED


# --- Setup refusals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "players"),
    [(mode, n) for mode, counts in PLAYERS.items() for n in range(0, 8) if n not in counts],
)
def test_wrong_player_count_is_refused(mode: str, players: int) -> None:
    """001, GAME MODES: "Suspicion (4 to 6 players), Cooperation (2 to 6 players), Competition
    (2 or 3 players), Team (4 or 6 players), Solo (1 player)\""""
    result = start({"seed": 0, "mode": mode, "players": players})
    assert not result.ok
    assert "players" in str(result.refusal)


@pytest.mark.parametrize(
    ("mode", "players"), [(mode, n) for mode, counts in PLAYERS.items() for n in counts]
)
def test_right_player_count_is_accepted(mode: str, players: int) -> None:
    state = _started({"mode": mode, "players": players})
    per = (
        4
        if mode == "solo"
        else 2
        if mode == "competition" or (mode == "cooperation" and players <= 3)
        else 1
    )
    assert len(full_view(state)["characters"]) == players * per
    assert full_view(state)["turns_left"] == (8 if mode in ("cooperation", "solo") else 10)


def test_team_of_six_seats_wrongly_given_as_five_is_refused() -> None:
    seats = [
        {"id": str(i + 1), "characters": [c]}
        for i, c in enumerate(["emmett", "franck", "max", "kevin", "jennifer"])
    ]
    assert not start({"seed": 0, "mode": "team", "seats": seats}).ok


@pytest.mark.parametrize(
    "pair", [["emmett", "franck"], ["kevin", "alice"], ["jennifer", "max"], ["emmett", "emmett"]]
)
def test_a_duo_that_is_not_a_real_duo_is_refused(pair: list[str]) -> None:
    """001, Cooperation Mode - Setup: "For 2 and 3 players: Each player chooses a character duo.
    the Scientist and the Nerd / the Dude and the Bimbo / the Colossus and the Little Girl".
    Competition Mode - Setup: "Follow Setup of the Cooperation Mode for 2 and 3 players.\""""
    others = [c for c in ("max", "alice", "franck", "jennifer", "emmett", "kevin") if c not in pair]
    rest = next(
        [a, b]
        for a, b in (("max", "alice"), ("franck", "jennifer"), ("emmett", "kevin"))
        if a in others and b in others
    )
    for mode in ("cooperation", "competition"):
        seats = [{"id": "1", "characters": pair}, {"id": "2", "characters": rest}]
        result = start({"seed": 0, "mode": mode, "seats": seats})
        assert not result.ok, (mode, pair)


def test_real_duos_are_accepted() -> None:
    seats = [
        {"id": "1", "characters": ["kevin", "emmett"]},
        {"id": "2", "characters": ["alice", "max"]},
        {"id": "3", "characters": ["jennifer", "franck"]},
    ]
    assert start({"seed": 0, "mode": "competition", "seats": seats}).ok
    assert start({"seed": 0, "mode": "cooperation", "seats": seats}).ok


def test_a_duo_seat_with_one_character_is_refused() -> None:
    seats = [{"id": "1", "characters": ["emmett"]}, {"id": "2", "characters": ["franck"]}]
    assert not start({"seed": 0, "mode": "competition", "seats": seats}).ok


@pytest.mark.parametrize("name", ["bob", "sarah", "bruce", "Emmett", ""])
def test_unknown_or_other_box_character_is_refused(name: str) -> None:
    """001, SETUP: the base box holds six characters (the Scientist, the Nerd, the Dude, the
    Bimbo, the Colossus, the Little Girl)."""
    seats = [
        {"id": str(i + 1), "characters": [c]}
        for i, c in enumerate([name, "franck", "max", "kevin"])
    ]
    result = start({"seed": 0, "mode": "suspicion", "seats": seats})
    assert not result.ok
    assert "not a character of Base game" in str(result.refusal)


def test_the_same_character_on_two_seats_is_refused() -> None:
    seats = [
        {"id": str(i + 1), "characters": [c]}
        for i, c in enumerate(["emmett", "emmett", "max", "kevin"])
    ]
    assert not start({"seed": 0, "mode": "suspicion", "seats": seats}).ok


def _with(cells: str, kind: str) -> list[list[str]]:
    """RIGGED with the given cells (space-separated) replaced by one kind of room."""
    rows = [list(r) for r in RIGGED]
    for cell in cells.split():
        rows[int(cell[1]) - 1]["ABCDE".index(cell[0])] = kind
    return rows


@pytest.mark.parametrize(
    ("complex_", "why"),
    [
        (_with("A1", "vision"), "box has 1"),  # two Vision chambers
        (_with("D3", "room25"), "box has 1"),  # two Rooms 25
        (_with("B4 B5", "mortal"), "box has 2"),  # three Mortal chambers
        (_with("C2 D3 C4", "empty"), "box has 8"),  # nine Empty chambers
        (_with("A1", "central"), "box has 1"),  # two Central rooms
        (_with("C3", "empty"), "Central room stands in the middle"),
        (_with("A1", "key"), "box has 0"),  # a Season 2 room
        (_with("A1", "broom"), "not a room"),
        (RIGGED[:4], "5 rows of 5"),
        ([*RIGGED[:4], RIGGED[4][:4]], "5 rows of 5"),
    ],
)
def test_rigged_complex_over_the_box_or_off_centre_is_refused(complex_, why: str) -> None:
    """Decision (base edition): a rigged complex must be buildable from the base box (001,
    COMPOSITION OF THE COMPLEX) with the Central room at C3 (001, ROOMS Description, Central
    room: "This room cannot be moved in any way and will stay at the center for the entire
    game")."""
    result = start({"seed": 0, "mode": "cooperation", "players": 4, "complex": complex_})
    assert not result.ok
    assert why in str(result.refusal)


def test_central_room_moved_to_a_corner_is_refused() -> None:
    rows = [list(r) for r in RIGGED]
    rows[0][0], rows[2][2] = "central", rows[0][0]
    result = start({"seed": 0, "mode": "suspicion", "players": 4, "complex": rows})
    assert not result.ok
    assert "middle" in str(result.refusal)


# --- Turn order -----------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["1", "2", "3", "4", "5", "6"])
def test_turn_order_starts_with_the_first_player_then_goes_clockwise(first: str) -> None:
    """001, SETUP: "The turn marker of the last player (the player sitting to the first player's
    right) is placed in the -10/-8 turn space ... Then, proceeding counterclockwise, each player
    places his turn marker to the left of the last player's turn marker. Therefore, the first
    player's marker is the first in line." Seats are listed clockwise."""
    state = _started({"mode": "suspicion", "players": 6, "first": first})
    view = public_view(state)
    owner = {cid: c["seat"] for cid, c in view["characters"].items()}
    seats = [owner[cid] for cid in view["order"]]
    start_at = int(first) - 1
    assert seats == [str((start_at + i) % 6 + 1) for i in range(6)]


@pytest.mark.parametrize(
    ("mode", "players", "first"),
    [
        (mode, players, str(first))
        for mode in ("cooperation", "competition")
        for players in (2, 3)
        for first in range(1, players + 1)
    ],
)
def test_duos_two_placement_rounds_no_player_next_to_himself(
    mode: str, players: int, first: str
) -> None:
    """001, Cooperation Mode - Setup: "instead of doing one placement turn of characters' turn
    markers, execute a second one in order for the characters of a same player not to be next to
    each other.\""""
    state = _started({"mode": mode, "players": players, "first": first})
    view = public_view(state)
    owner = {cid: c["seat"] for cid, c in view["characters"].items()}
    seats = [owner[cid] for cid in view["order"]]
    start_at = int(first) - 1
    one_round = [str((start_at + i) % players + 1) for i in range(players)]
    assert seats == one_round + one_round
    assert len(set(view["order"])) == 2 * players
    for a, b in zip(seats, seats[1:] + seats[:1], strict=True):
        assert a != b


def test_unknown_first_player_is_refused() -> None:
    assert not start({"seed": 0, "mode": "suspicion", "players": 4, "first": "9"}).ok


# --- Starting clue: private --------------------------------------------------------------------


def test_starting_clue_shows_the_room_to_that_seat_only() -> None:
    """001, Starting clue: "each player secretly looks at one room which is adjacent (but not
    diagonally so) to the Central room, and replaces it face-down in its initial location.\""""
    state = _started({"mode": "suspicion", "players": 4, "complex": RIGGED, "roles": {}})
    result = apply(state, {"type": "clue", "seat": "2", "cell": "C4"})
    assert result.ok, result.refusal
    assert seat_view(result.state, "2")["notebook"] == {"C4": "acid"}
    for other in ("1", "3", "4"):
        assert seat_view(result.state, other)["notebook"] == {}
    public = public_view(result.state)
    c4 = next(c for row in public["complex"] for c in row if c["cell"] == "C4")
    assert c4 == {**c4, "room": None, "revealed": False}
    assert public["clues_taken"] == ["2"]
    # The public record of the game does not carry the room either.
    assert "acid" not in repr(events_for(result.events, None))
    assert "acid" not in repr(events_for(result.events, "1"))
    assert "acid" in repr(events_for(result.events, "2"))


# --- Stale commands ---------------------------------------------------------------------------


def test_a_command_for_an_old_version_is_refused_and_changes_nothing() -> None:
    """docs (design notes, "A stale guard"): each command names the state version it was made
    against; late taps from a phone that reconnected are refused, not applied twice."""
    state = _started({"mode": "cooperation", "players": 2, "complex": RIGGED})
    seen = public_view(state)["version"]
    first = apply(state, {"type": "clue", "seat": "1", "cell": "C2", "version": seen})
    assert first.ok, first.refusal
    assert public_view(first.state)["version"] != seen
    before = full_view(first.state)
    late = apply(first.state, {"type": "clue", "seat": "2", "cell": "B3", "version": seen})
    assert not late.ok
    assert late.refusal.code == "stale_version"
    assert "earlier moment" in str(late.refusal)
    assert late.events == []
    assert full_view(late.state) == before
    assert seat_view(late.state, "2")["notebook"] == {}
    # The same command with the current version goes through.
    current = public_view(first.state)["version"]
    fresh = apply(first.state, {"type": "clue", "seat": "2", "cell": "B3", "version": current})
    assert fresh.ok, fresh.refusal
    assert full_view(fresh.state)["phase"] == "programming"


def test_a_replayed_command_with_its_old_version_is_not_applied_twice() -> None:
    state = _started({"mode": "cooperation", "players": 4, "complex": RIGGED})
    for seat, cell in (("1", "C2"), ("2", "C2"), ("3", "C2"), ("4", "C2")):
        state = apply(state, {"type": "clue", "seat": seat, "cell": cell}).state
    for cid in ("emmett", "franck", "max", "kevin"):
        seat = full_view(state)["characters"][cid]["seat"]
        state = apply(
            state, {"type": "program", "seat": seat, "character": cid, "actions": ["move", "look"]}
        ).state
    version = public_view(state)["version"]
    move = {"type": "act", "seat": "1", "character": "emmett", "direction": "north"}
    moved = apply(state, {**move, "version": version})
    assert moved.ok, moved.refusal
    assert full_view(moved.state)["current"] == "franck"
    again = apply(moved.state, {**move, "version": version})
    assert not again.ok
    assert full_view(again.state) == full_view(moved.state)


def test_rigged_complex_without_room25_is_refused() -> None:
    """001, COMPOSITION OF THE COMPLEX: "Additionally to the Central room and Room 25, take the 23
    rooms corresponding to the mode and the difficulty chosen." Every complex holds Room 25: a
    rigged one without it is a game nobody can win."""
    result = start(
        {"seed": 0, "mode": "cooperation", "players": 4, "complex": _with("E2", "empty")}
    )
    assert not result.ok
    assert "Room 25" in str(result.refusal)
