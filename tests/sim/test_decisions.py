"""The heuristic players' decisions about talents, robots, M.A.C. cards and the Adrenaline token
(Season 2 and Ultimate): rigged positions where one answer is plainly right, and properties of
whole games. Each position is set with the engine's public `set_position`, and the player sees
it only through its seat's view."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial

import pytest

from companion.engine import (
    GameState,
    apply,
    changes_for,
    legal_commands,
    seat_view,
    set_position,
    start,
)
from companion.sim.heuristic import HeuristicPlayer
from companion.sim.simulate import PlayedGame

SEEDS = range(6)  # the player breaks ties at random: a right answer must not depend on it


def _rigged(setup: dict, position: dict) -> GameState:
    started = start({"seed": 1, **setup})
    assert started.ok, started.refusal
    placed = set_position(started.state, position)
    assert placed.ok, placed.refusal
    return placed.state


def _decide(state: GameState, seat: str, seed: int) -> dict:
    """The heuristic player's answer, reminder tokens it places first applied."""
    player = HeuristicPlayer(seat, random.Random(seed))
    before = state
    while True:
        legal = legal_commands(state, seat)
        if player.following:
            player.observe(changes_for(before, state, seat))
        before = state
        command = player.choose(partial(seat_view, state, seat), legal)
        assert command in legal
        if command["type"] != "reminder":
            return command
        state = apply(state, command).state


def _table(first: str, second: str, complex_: str) -> dict:
    """Season 2 Cooperation, four seats of one character each: `first` at seat 1, `second` at
    seat 2, two others waiting in the Central room."""
    others = [c for c in ("alice", "emmett", "jennifer") if c not in (first, second)][:2]
    return {
        "edition": "season2",
        "mode": "cooperation",
        "seats": [
            {"id": str(i), "characters": [c]} for i, c in enumerate([first, second, *others], 1)
        ],
        "settings": {"mac": "off"},
        "complex": [line.split() for line in complex_.strip().splitlines()],
    }


def _first_acts(setup: dict, program: list[str], **position) -> GameState:
    """`_table`'s game in its action phase, in seat order: the character of seat 1 acting first
    with `program`, everyone else with a Look."""
    first, *others = [seat["characters"][0] for seat in setup["seats"]]
    programs = {first: program, **{cid: ["look"] for cid in others}}
    order = [first, *others]
    return _rigged(setup, {"phase": "action", "order": order, "programs": programs, **position})


@pytest.mark.parametrize("seed", SEEDS)
def test_a_heuristic_max_carries_his_ally_into_room25_rather_than_elsewhere(seed):
    """000, MAX: CARRY: "Move another character present in Max's room together with Max."
    Room 25 is north of both, the Mortal chamber west, the Acid bath east."""
    setup = _table(
        "max",
        "franck",
        """
        empty   dark     room25  cold     empty
        vision  mortal   empty   acid     tunnel
        dark    flooded  central empty    tunnel
        cold    trapped  vortex  shredder robot
        empty   prison   moving  mortal   control
        """,
    )
    state = _first_acts(
        setup,
        ["talent"],
        positions={"max": "C2", "franck": "C2"},
        revealed=["C1", "B2", "D2", "C2"],
    )
    command = _decide(state, "1", seed)
    assert command["action"] == "talent"
    assert (command["target"], command["direction"]) == ("franck", "north")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_heuristic_kevin_swaps_the_rooms_that_bring_his_ally_next_to_room25(seed):
    """000, KEVIN, HACK THE COMPLEX: "Swap two non-blue rooms which are adjacent to the room
    occupied by Kevin, whether they are occupied or not." Kevin at B2, Franck west of him at A2,
    Room 25 at D2: swapping A2 and C2 takes Franck next to Room 25; no other pair moves him
    closer."""
    setup = _table(
        "kevin",
        "franck",
        """
        empty   dark     empty   cold     empty
        vision  empty    empty   room25   tunnel
        dark    flooded  central acid     tunnel
        cold    trapped  vortex  shredder robot
        mortal  prison   moving  mortal   control
        """,
    )
    state = _first_acts(
        setup,
        ["talent"],
        positions={"kevin": "B2", "franck": "A2"},
        revealed=["A2", "B1", "B2", "B3", "C2", "D2"],
    )
    command = _decide(state, "1", seed)
    assert command["action"] == "talent"
    assert command["ability"] == "hack_complex"
    assert sorted(command["cells"]) == ["A2", "C2"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_trapped_heuristic_sarah_programs_her_sabotage_first(seed):
    """000, SARAH: "Sarah can sabotage a Trapped room that she entered with the previous
    action. If she does this, she does not die." Trapped at B4, she must leave with her next
    action, and the only rooms open around her are the two Mortal chambers: the Sabotage is
    her way out, and she programs it first."""
    setup = _table(
        "sarah",
        "franck",
        """
        empty   dark     empty   cold     room25
        vision  empty    empty   acid     tunnel
        dark    flooded  central empty    tunnel
        mortal  trapped  mortal  cold     robot
        vortex  shredder moving  prison   control
        """,
    )
    state = _rigged(
        setup,
        {
            "phase": "programming",
            "positions": {"sarah": "B4"},
            "revealed": ["A4", "B3", "B4", "B5", "C4"],
            "sealed": ["B3", "B5"],
            "trapped": ["sarah"],
        },
    )
    command = _decide(state, "1", seed)
    assert command["type"] == "program"
    assert command["actions"][0] == "talent"


@pytest.mark.parametrize("seed", range(24))  # a random order would push him in 1 time in 6
def test_a_robot_order_never_pushes_an_ally_into_the_mortal_chamber(seed):
    """000, ROBOTS: a robot "can only move or push". Franck and a robot stand at D3, the Mortal
    chamber is south and east of them; Kevin enters the Robot room and gives an order."""
    setup = _table(
        "kevin",
        "franck",
        """
        empty   robot    empty   cold     room25
        vision  empty    empty   acid     tunnel
        dark    flooded  central empty    mortal
        cold    trapped  vortex  mortal   dark
        tunnel  prison   moving  shredder control
        """,
    )
    state = _first_acts(
        setup,
        ["move"],
        positions={"kevin": "A1", "franck": "D3"},
        revealed=["A1", "E3", "D4", "D3"],
        robots=["D3"],
    )
    state = apply(state, {"type": "act", "seat": "1", "character": "kevin", "direction": "east"})
    state = state.state
    assert state.pending is not None and state.pending["kind"] == "robot"
    pushes = [c for c in legal_commands(state, "1") if c.get("order") == "push"]
    assert {c["direction"] for c in pushes} >= {"south", "east"}  # the position offers it
    command = _decide(state, "1", seed)
    deadly = command.get("order") == "push" and command["direction"] in ("south", "east")
    assert not deadly, command


@pytest.mark.parametrize("seed", SEEDS)
def test_a_heuristic_max_carried_into_an_acid_bath_lets_the_known_guard_die(seed):
    """000, MAX: CARRY: "When arriving in an Acid Bath, Max decides which character is
    eliminated." Max, a prisoner, carried Franck, whose guard role the table has seen."""
    state = _rigged(
        {
            "edition": "season2",
            "mode": "suspicion",
            "seats": [
                {"id": str(i), "characters": [c]}
                for i, c in enumerate(["max", "franck", "alice", "kevin"], 1)
            ],
            "roles": {"franck": "guard"},
            "complex": [
                line.split()
                for line in (
                    "empty   dark     empty   cold     room25",
                    "vision  empty    empty   acid     tunnel",
                    "dark    flooded  central empty    tunnel",
                    "cold    empty    vortex  shredder robot",
                    "mortal  trapped  empty   mortal   control",
                )
            ],
        },
        {
            "phase": "action",
            "order": ["max", "franck", "alice", "kevin"],
            "positions": {"max": "D3", "franck": "D3"},
            "roles_revealed": ["franck"],
            "programs": {"max": ["talent", "look"], "franck": ["look"], "alice": ["look"]},
        },
    )
    carry = {"type": "act", "seat": "1", "character": "max", "action": "talent"}
    state = apply(state, {**carry, "target": "franck", "direction": "north"}).state
    assert state.pending is not None and state.pending["kind"] == "acid"
    assert _decide(state, "1", seed)["target"] == "franck"


def _decisions(setup: dict, games: int) -> Iterator[tuple[GameState, str, list[dict], dict]]:
    """Every decision of heuristic players over whole games: the state, the seat, its legal
    commands and its answer (the driver's own loop, `simulate.PlayedGame`, watched)."""
    for number in range(games):
        game = PlayedGame({**setup, "seed": number}, "heuristic", random.Random(number))
        for decision in game:
            yield game.state, decision.seat, decision.legal, decision.command


def test_a_punishment_takes_the_talent_before_the_look_or_the_control():
    """000, M.A.C. CARDS, Punishment: the pictured characters lose Look, Control or their
    talent, their choice. The heuristic players give up the talent whenever it is offered."""
    setup = {"edition": "season2", "mode": "cooperation", "players": 4}
    answered = 0
    for state, _seat, legal, command in _decisions(setup, 4):
        pending = state.pending
        if pending is None or pending["kind"] != "punishment":
            continue
        offered = {c["token"] for c in legal}
        answered += 1
        if "talent" in offered:
            assert command["token"] == "talent", (offered, command)
    assert answered >= 3  # the deck dealt Punishment cards in these games


def test_the_adrenaline_token_is_programmed_in_the_last_two_turns_only():
    """000, 1. PROGRAMMING, Adrenaline token: one more basic action after the second round,
    then the token is gone. Kept for the end, where it is worth most and lost if unused."""
    setup = {"edition": "season2", "mode": "cooperation", "players": 3, "settings": {"mac": "off"}}
    used = 0
    for state, _seat, _legal, command in _decisions(setup, 3):
        if command["type"] == "program" and command.get("adrenaline"):
            used += 1
            assert state.turns_left <= 2
    assert used > 0
