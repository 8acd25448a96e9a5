"""The buzzer through gpiozero's MockFactory, its PWM pins stopping like lgpio's: patterns play
on their own thread without blocking, volume sets the duty cycle, mute silences, the pin is left
low after every note and on close, every pattern has its own rhythm on an active buzzer, the
hardware's tunes sit near a small transducer's resonance; and the choice of pattern depends on
public events only — the same sounds whatever a seat programmed."""

from __future__ import annotations

import itertools
import logging
import math
import threading
import time

import pytest
from waiting import eventually

from companion.engine import apply, events_for, legal_commands, start, waiting_for
from companion.hardware.buzzer import MAX_WAITING, Active, Buzzer, Tonal
from companion.hardware.patterns import PATTERNS, Note, patterns_for
from companion.hardware.pins import mock_factory


@pytest.fixture
def factory():
    made = mock_factory()
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
    ends = time.monotonic() + sum(seconds for _, seconds in PATTERNS["alarm"])
    while time.monotonic() < ends:  # sample the tune, its notes and its rests, until it ends
        if pin.frequency is not None:
            seen.add(round(pin.frequency))
        time.sleep(0.01)
    assert seen == {3520, 2637}  # A5 and E5, two octaves up on the hardware
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
    buzzer.play("card")  # D5, a rest, A5, a rest, A5: three beeps
    pin = factory.pin(23)
    heard = [False, True, False, True, False, True, False]
    eventually(lambda: [bool(s.state) for s in pin.states] == heard)
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


OUTPUTS = {
    "passive": lambda factory: Tonal(18, volume=0.5, pin_factory=factory),
    "active": lambda factory: Active(18, pin_factory=factory),
}


@pytest.mark.parametrize("kind", OUTPUTS)
def test_the_pin_is_left_low_after_every_note_and_pattern(factory, kind) -> None:
    """A pin left high keeps the transistor on and a magnetic buzzer's coil on DC until the next
    note. Each pattern is played the way the worker plays it (its notes, then silence), and the
    pin's last written level is read after every rest and every pattern."""
    output = OUTPUTS[kind](factory)
    pin = factory.pin(18)
    for name, notes in PATTERNS.items():
        for number, (note, _) in enumerate((*notes, (None, 0.0))):
            output.note(note)
            if note is None:
                assert pin.state == 0, f"{name}: the pin is left high after note {number}"
        assert pin.frequency is None and pin.states[-1].state == 0, name
    output.note("A5")
    output.close()
    assert pin.states[-1].state == 0, "closed while a note played, the pin is left high"


@pytest.mark.parametrize("kind", OUTPUTS)
def test_closing_mid_note_leaves_the_pin_low(factory, kind) -> None:
    buzzer = Buzzer(OUTPUTS[kind](factory))
    pin = factory.pin(18)
    buzzer.play("alarm")
    eventually(lambda: pin.state != 0)
    buzzer.close()
    assert pin.states[-1].state == 0


def _beeps(notes: tuple[Note, ...]) -> list[tuple[bool, float]]:
    """What an active buzzer plays: on for every note whatever its pitch, off for a rest; a note
    straight after a note is one longer beep."""
    runs: list[tuple[bool, float]] = []
    for note, seconds in notes:
        on = note is not None
        if runs and runs[-1][0] == on:
            runs[-1] = (on, runs[-1][1] + seconds)
        else:
            runs.append((on, seconds))
    while runs and not runs[-1][0]:
        runs.pop()  # a rest at the end is the silence after the pattern
    return runs


def _tell_apart(one: list[tuple[bool, float]], other: list[tuple[bool, float]]) -> bool:
    """Two rhythms a listener tells apart: a different number of beeps, or a beep or gap that
    differs by 40 ms and a third at least."""
    if len(one) != len(other):
        return True
    return any(
        abs(a - b) >= 0.04 and max(a, b) >= 1.3 * min(a, b)
        for (_, a), (_, b) in zip(one, other, strict=True)
    )


def test_every_pattern_has_its_own_rhythm_on_an_active_buzzer() -> None:
    rhythms = {name: _beeps(notes) for name, notes in PATTERNS.items()}
    for name, notes in PATTERNS.items():
        beeps = [seconds for on, seconds in rhythms[name] if on]
        assert len(beeps) == sum(note is not None for note, _ in notes), f"{name}: notes merge"
        assert all(seconds >= 0.04 for on, seconds in rhythms[name] if not on), f"{name}: gap"
    for one, other in itertools.combinations(rhythms, 2):
        assert _tell_apart(rhythms[one], rhythms[other]), f"{one} and {other} sound alike"


RESONANCE = 2150.0  # Hz: small magnetic transducers resonate at about 2-2.3 kHz


def test_the_hardware_plays_near_the_transducer_resonance(factory) -> None:
    """Each note's distance from the resonance in octaves, read on the pin: none more than an
    octave and a half away, and the tunes centred (weighted by time) within half an octave."""
    tonal = Tonal(18, volume=0.5, pin_factory=factory)
    pin = factory.pin(18)
    heard = []
    for notes in PATTERNS.values():
        for note, seconds in notes:
            if note is not None:
                tonal.note(note)
                heard.append((math.log2(pin.frequency / RESONANCE), seconds))
    tonal.close()
    assert max(abs(octaves) for octaves, _ in heard) <= 1.5
    centre = sum(octaves * seconds for octaves, seconds in heard) / sum(s for _, s in heard)
    assert abs(centre) <= 0.5


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
