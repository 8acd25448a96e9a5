"""The buzzer's patterns as data, and which ones an update calls for.

A pattern is a list of (note, seconds) where the note is a name gpiozero's `Tone` reads ("A4")
or None for a rest. Which pattern plays depends on public events only: a lock-in sounds the same
whoever locks in and whatever he programmed, so the buzzer never gives a secret away.

An active buzzer plays every note at its own pitch, so a pattern must also be told apart by its
rhythm alone: every note is followed by a rest (two notes in a row would be one long beep), and
no two patterns share a rhythm (count of beeps, long and short). The pitches are the virtual
panel's; the hardware buzzer plays them higher (`buzzer.TRANSPOSE`).
"""

from __future__ import annotations

from gpiozero.tones import Tone

from companion.session import TableUpdate

Note = tuple[str | None, float]

PATTERNS: dict[str, tuple[Note, ...]] = {
    # a beep: one seat locked in
    "lock_in": (("E5", 0.1),),
    # dit dit dah, rising: everybody locked in
    "all_locked": (("C5", 0.07), (None, 0.05), ("E5", 0.07), (None, 0.05), ("G5", 0.2)),
    # dit dah: the turn ends
    "end_of_turn": (("G4", 0.1), (None, 0.08), ("C5", 0.3)),
    # eight quick beeps, high and low: the alarm
    "alarm": (("A5", 0.12), (None, 0.06), ("E5", 0.12), (None, 0.06)) * 4,
    # three even tocks, falling: the Timer room took a turn
    "timer": (("C5", 0.25), (None, 0.25), ("B4", 0.25), (None, 0.25), ("A4", 0.25)),
    # dah dit dit: a M.A.C. card
    "card": (("D5", 0.2), (None, 0.06), ("A5", 0.06), (None, 0.04), ("A5", 0.06)),
    # dah dah, a long one, falling: an elimination
    "elimination": (("E4", 0.25), (None, 0.08), ("C4", 0.25), (None, 0.08), ("A3", 0.6)),
    # three dits and a long one, rising: someone won
    "victory": (
        ("C5", 0.1),
        (None, 0.05),
        ("E5", 0.1),
        (None, 0.05),
        ("G5", 0.1),
        (None, 0.05),
        ("C6", 0.4),
    ),
    # three dahs and a longer one, falling: nobody won
    "defeat": (
        ("G4", 0.25),
        (None, 0.1),
        ("E4", 0.25),
        (None, 0.1),
        ("C4", 0.25),
        (None, 0.1),
        ("A3", 0.7),
    ),
    # a click: each of the last five seconds to program
    "last_seconds": (("A5", 0.03),),
    # two even beeps: the programming time limit is near
    "warning": (("A5", 0.15), (None, 0.1), ("A5", 0.15)),
}


def _scale() -> tuple[Note, ...]:
    """Every pitch the tunes use, lowest first, each followed by a rest: the wiring check plays
    it so a builder hears the buzzer's whole range (a note that is silent or cracked shows)."""
    pitches = {note for notes in PATTERNS.values() for note, _ in notes if note is not None}
    found: list[Note] = []
    for note in sorted(pitches, key=lambda name: Tone(name).frequency):
        found += [(note, 0.12), (None, 0.06)]
    return tuple(found)


PATTERNS["check"] = _scale()

# When one update calls for several, the most important plays first.
PRIORITY = (
    "alarm",
    "victory",
    "defeat",
    "elimination",
    "timer",
    "end_of_turn",
    "card",
    "all_locked",
    "lock_in",
)


def patterns_for(update: TableUpdate, previous: TableUpdate | None = None) -> list[str]:
    """The patterns an update's public events call for, most important first.

    A lock-in is read from the public "locked_in" events and from the table's list of locked-in
    seats growing; it is one pattern whatever the seat or its programme."""
    events = [e for e in update.get("events") or () if "private" not in e]
    wanted: set[str] = set()
    for event in events:
        kind = event.get("type")
        if kind == "alarm":
            wanted.add("alarm")
        elif kind == "turns_reduced" and event.get("cause") == "timer":
            wanted.add("timer")
        elif kind == "eliminated":
            wanted.add("timer" if event.get("cause") == "timer" else "elimination")
        elif kind == "mac_drawn":
            wanted.add("card")
        elif kind == "countdown":
            wanted.add("end_of_turn")
        elif kind == "locked_in":
            wanted.add("lock_in")
        elif kind == "game_over":
            outcome = event.get("outcome")
            winners = outcome.get("winners") if isinstance(outcome, dict) else None
            wanted.add("victory" if winners else "defeat")
    if _locked(update) > _locked(previous):
        wanted.add("lock_in")
    was = (previous.get("waiting") or {}).get("phase") if previous else None
    now = (update.get("waiting") or {}).get("phase")
    if was == "programming" and now not in ("programming", None) and not update.get("resync"):
        wanted.add("all_locked")
    if "all_locked" in wanted:
        wanted.discard("lock_in")
    return [name for name in PRIORITY if name in wanted]


def _locked(update: TableUpdate | None) -> int:
    if not update:
        return 0
    return len((update.get("waiting") or {}).get("locked_in") or [])
