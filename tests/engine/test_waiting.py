"""`waiting_for`: who the game waits for now and for what, from public facts only."""

from __future__ import annotations

import random

from companion.engine import HOST, apply, legal_commands, public_view, start, waiting_for


def _start(**setup: object):
    result = start({"mode": "cooperation", "players": 2, "seed": 5, **setup})
    assert result.ok, result.refusal
    return result.state


def _play(state, *commands: dict):
    for command in commands:
        result = apply(state, command)
        assert result.ok, (command, result.refusal)
        state = result.state
    return state


def test_the_starting_clue_waits_for_every_seat_that_has_not_looked() -> None:
    state = _start()
    assert waiting_for(state).as_dict() == {
        "phase": "clue",
        "seats": ["1", "2"],
        "locked_in": [],
        "character": None,
        "round": None,
        "choice": None,
    }
    state = _play(state, {"type": "clue", "seat": "2", "cell": "C2"})
    assert waiting_for(state).seats == ("1",)


def _programming():
    """A two-seat game with its clues taken, into programming by lock-in tokens."""
    state = _start(settings={"programming": "tokens"})
    return _play(
        state,
        {"type": "clue", "seat": "1", "cell": "C2"},
        {"type": "clue", "seat": "2", "cell": "B3"},
    )


def test_programming_names_who_is_still_thinking_and_who_is_locked_in() -> None:
    state = _programming()
    assert waiting_for(state).seats == ("1", "2")
    state = _play(state, {"type": "lock", "seat": "2"})
    waiting = waiting_for(state)
    assert (waiting.phase, waiting.seats, waiting.locked_in) == ("programming", ("1",), ("2",))
    state = _play(state, {"type": "unlock", "seat": "2"})
    assert waiting_for(state).locked_in == ()


def test_the_action_phase_names_whose_action_and_the_round() -> None:
    state = _play(_programming(), {"type": "lock", "seat": "1"}, {"type": "lock", "seat": "2"})
    waiting = waiting_for(state)
    first = state.order[0]
    assert waiting.phase == "action" and waiting.round == 1 and waiting.character == first
    assert waiting.seats == (state.characters[first].seat,)


def test_countdown_only_games_wait_for_the_actor_or_the_table() -> None:
    state = _start(tracking="countdown")
    state = _play(state, {"type": "lock", "seat": "1"}, {"type": "lock", "seat": "2"})
    waiting = waiting_for(state)
    assert waiting.phase == "action" and HOST in waiting.seats


def test_a_pending_choice_waits_for_the_chooser_and_a_finished_game_for_nobody() -> None:
    rng = random.Random(9)
    seen = set()
    for seed in range(12):
        state = start(
            {"edition": "season2", "mode": "cooperation", "players": 4, "seed": seed}
        ).state
        while state.outcome is None:
            waiting = waiting_for(state)
            seen.add(waiting.phase)
            if state.pending is not None:
                assert waiting.phase == "choice"
                assert waiting.seats == (state.pending["seat"],)
                assert waiting.choice == state.pending["kind"]
            # Every seat it names has something to do, and the view tells the same story.
            for seat in waiting.seats:
                assert legal_commands(state, seat), (waiting, seat)
            assert public_view(state)["phase"] in (waiting.phase, "action", "programming")
            offered = [c for s in [*state.seats, HOST] for c in legal_commands(state, s)]
            offered = [c for c in offered if c["type"] != "unlock"]
            state = apply(state, rng.choice(offered)).state
        assert waiting_for(state).as_dict()["phase"] == "over"
        assert waiting_for(state).seats == ()
    assert {"clue", "programming", "action", "choice"} <= seen
