"""The buzzer through gpiozero's MockPWMPin: patterns play on their own thread without blocking,
volume sets the duty cycle, mute silences; and the choice of pattern depends on public events
only — the same sounds whatever a seat programmed."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.engine import apply, events_for, legal_commands, start, waiting_for
from companion.hardware.buzzer import MAX_WAITING, Active, Buzzer, Tonal
from companion.hardware.patterns import PATTERNS, patterns_for

from .conftest import eventually


@pytest.fixture
def factory():
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()


def test_a_pattern_plays_its_notes_on_the_pwm_pin_without_blocking(factory) -> None:
    buzzer = Buzzer(Tonal(18, volume=0.5, pin_factory=factory))
    pin = factory.pin(18)
    before = time.perf_counter()
    buzzer.play("alarm")
    assert time.perf_counter() - before < 0.05 < sum(seconds for _, seconds in PATTERNS["alarm"])
    eventually(lambda: pin.frequency is not None)
    seen = set()
    while pin.frequency is not None:  # sample the tune until it ends
        seen.add(round(pin.frequency))
        time.sleep(0.01)
    assert seen == {880, 659}  # A5 and E5
    eventually(lambda: pin.frequency is None)
    assert 0.25 in [s.state for s in pin.states]  # volume 0.5 -> 25 % duty cycle
    buzzer.close()


def test_mute_plays_nothing(factory) -> None:
    buzzer = Buzzer(Tonal(18, volume=1.0, pin_factory=factory), mute=True)
    buzzer.play("victory")
    time.sleep(0.1)
    assert [s.state for s in factory.pin(18).states] == [0]
    assert buzzer.count == 0
    buzzer.close()


def test_an_active_buzzer_is_switched_on_and_off(factory) -> None:
    buzzer = Buzzer(Active(23, pin_factory=factory))
    buzzer.play("card")  # D5, a rest, D5 A5: on, off, on (two notes), off
    pin = factory.pin(23)
    eventually(lambda: [bool(s.state) for s in pin.states] == [False, True, False, True, False])
    buzzer.close()


def test_closing_with_patterns_queued_returns_at_once(factory, caplog) -> None:
    """Shutting down (systemd stop, Ctrl-C) while the alarm plays and more patterns wait must not
    hang: the worker stops after its note and the queue is left as it is. A pattern beyond the
    full queue is dropped rather than waited for."""
    buzzer = Buzzer(Tonal(18, volume=0.5, pin_factory=factory))
    buzzer.play("alarm")
    eventually(lambda: factory.pin(18).frequency is not None)
    for _ in range(MAX_WAITING):  # the queue full behind the pattern playing
        buzzer.play("alarm")
    with caplog.at_level(logging.INFO, logger="companion.hardware.buzzer"):
        buzzer.play("card")
    assert "buzzer busy: card dropped" in caplog.text
    closing = threading.Thread(target=buzzer.close, daemon=True)
    closing.start()
    closing.join(timeout=5)
    assert not closing.is_alive(), "close() blocked on the full queue"
    eventually(lambda: factory.pin(18).frequency is None)


def test_every_pattern_is_distinct_and_in_the_buzzer_range(factory) -> None:
    tonal = Tonal(18, volume=0.5, pin_factory=factory)
    shapes = {tuple(notes) for notes in PATTERNS.values()}
    assert len(shapes) == len(PATTERNS)
    for notes in PATTERNS.values():
        for note, seconds in notes:
            assert 0 < seconds <= 1
            tonal.note(note)  # gpiozero refuses a tone out of the buzzer's range
    tonal.close()


def _sounds(seed: int, swap: bool) -> list[list[str]]:
    """The patterns a whole programming phase calls for, seat 1 programming two tokens in one
    order or the other (the only difference between the two games)."""
    state = start({"edition": "base", "mode": "suspicion", "players": 5, "seed": seed}).state
    while waiting_for(state).phase != "programming":
        seat = waiting_for(state).seats[0]
        state = apply(state, legal_commands(state, seat)[0]).state
    previous = None
    heard = []
    for seat in ("1", "2", "3", "4", "5"):
        options = [c for c in legal_commands(state, seat) if c["type"] == "program"]
        choice = options[0]
        if seat == "1" and swap:
            swapped = list(reversed(choice["actions"]))
            choice = next(c for c in options if c["actions"] == swapped)
        result = apply(state, choice)
        state = result.state
        update = {
            "events": events_for(result.events, None),
            "waiting": waiting_for(state).as_dict(),
        }
        heard.append(patterns_for(update, previous))
        previous = update
    return heard


def test_patterns_do_not_depend_on_what_was_programmed() -> None:
    heard = _sounds(11, swap=False)
    assert heard == _sounds(11, swap=True)
    assert heard[0] == ["lock_in"] and heard[-1] == ["all_locked"]


def test_events_call_for_their_patterns() -> None:
    def names(*events):
        return patterns_for({"events": list(events), "waiting": {}})

    assert names({"type": "alarm", "turns_left": 5}) == ["alarm"]
    assert names({"type": "turns_reduced", "turns_left": 3, "cause": "timer"}) == ["timer"]
    assert names({"type": "eliminated", "character": "max", "cause": "acid"}) == ["elimination"]
    assert names({"type": "mac_drawn", "card": "blackout", "shown": {}}) == ["card"]
    assert names({"type": "countdown", "order": [], "turn": 2, "turns_left": 7}) == ["end_of_turn"]
    won = {"type": "game_over", "outcome": {"result": "prisoners", "winners": ["1"]}}
    lost = {"type": "game_over", "outcome": {"result": "defeat", "winners": []}}
    assert names(won) == ["victory"] and names(lost) == ["defeat"]
    assert names({"type": "room_seen", "private": "1", "seat": "1", "tile": 3, "room": "x"}) == []
