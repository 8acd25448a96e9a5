"""A seat's view, kept current.

Built once from the seat's `seat_view`, then brought up to date from the view's changes
(`changes_for`), because the view is costly to build before every decision. It holds only what
that seat may see: its own notebook, the public complex and characters, its own secrets."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import ClassVar, Final

from companion.sim.complex import INDEX, NAMES, SIZE


class Seen:
    """One character as a seat sees him."""

    __slots__ = (
        "adrenaline",
        "alive",
        "flooded",
        "flooded_turn",
        "hidden",
        "lost",
        "played",
        "program",
        "reserve",
        "role",
        "seat",
        "tile",
    )

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.alive = True
        self.tile: int | None = None
        self.role: str | None = None
        self.flooded: int | None = None
        self.flooded_turn = 0
        self.program: list[str] = []
        self.played: list[str] = []
        self.adrenaline = False  # still holds his Adrenaline token
        self.lost: tuple[str, ...] = ()  # tokens lost to Punishment cards
        self.hidden = False  # Alice hidden: nobody may push, carry or call her
        self.reserve = 0  # Empty rooms left for Sabotage


class Mirror:
    """What a seat may know of the game, in the form the planner reads: built from the seat's
    `seat_view`, then kept current from the view's changes (`changes_for`), so that the player
    need not ask for its whole view before every decision."""

    serials: ClassVar[Iterator[int]] = itertools.count()
    # The top-level parts followed (`TOP_FOLLOWED`), as the view shows them.
    turn: int
    turns_left: int
    alarm: bool
    round: int
    phase: str
    current: str | None
    pending: dict | None
    controls: dict[str, str]
    key_activated: bool

    def __init__(self, view: dict) -> None:
        self.serial = next(Mirror.serials)
        self.board = 0  # counts the changes of the complex and the notebook...
        self.known = 0  # ...and those of them that are not rooms changing places
        self.marks = 0  # counts the reminder tokens of the other seats placed or moved
        self.seat: str = view["seat"]
        ruleset = view["ruleset"]
        self.mode = ruleset["mode"]
        self.settings = ruleset["settings"]
        # Only with physical tracking does a command name the room on the tile it shows.
        self.names_rooms: bool = ruleset.get("tracking") == "physical"
        self.cells = [-1] * (SIZE * SIZE)  # the tile at each cell (-1: none yet)
        self.revealed: dict[int, str] = {}
        self.sealed: set[int] = set()
        # Reminder tokens on the board: the seats with a token on each tile (a seat holds one
        # per character), by tile, so that a cell's entry is compared with its tile's alone.
        self.reminders: dict[int, frozenset[str]] = {}
        self.robots: dict[int, int] = {}  # the robots standing on each tile
        for row, entries in enumerate(view["complex"]):
            for col, entry in enumerate(entries):
                self._cell(row * SIZE + col, entry)
        self.notebook: dict[int, str] = {}
        self._notebook(view["notebook"])
        self.trapped: dict[str, int] = {}
        self.chars: dict[str, Seen] = {}
        self.entries: dict[str, dict] = dict(view["characters"])
        for cid, entry in self.entries.items():
            self._character(cid, entry)
        for key in TOP_FOLLOWED:
            setattr(self, key, view[key])

    def observe(self, changes: list[dict]) -> None:
        """The changes of this seat's view since the last ones, in one pass: what is read on
        the complex (the notebook's cells, the characters' cells) is read once it is current."""
        changed = set()  # the cells whose room changed
        again = set()  # the characters whose entry changed
        notes = None
        for change in changes:
            # Typed, for a compiled build to index the path and compare strings natively.
            path: list = change["path"]
            head: str = path[0]
            if head == "complex":
                row: int = path[1]
                col: int = path[2]
                cell = row * SIZE + col
                if self._cell(cell, change["value"]):
                    self.board += 1
                    changed.add(NAMES[cell])
            elif head == "characters":
                cid: str = path[1]
                self.entries[cid] = change["value"]
                again.add(cid)
            elif head == "notebook":
                notes = change["value"]
            elif head in FOLLOWED:
                setattr(self, head, change["value"])
        if notes is not None:
            self._notebook(notes)
            self.board += 1
            self.known += 1
        # A character is seen at a cell: those standing where the room changed, and those who
        # moved, are read again.
        for cid, entry in self.entries.items():
            if cid in again or entry["cell"] in changed:
                self._character(cid, entry)

    def _cell(self, cell: int, entry: dict) -> bool:
        """Follow one cell's entry; whether the rooms known or their places changed. The
        planner keeps what it derives from those while they do not (`board`), and what it
        derives from the rooms known alone while only their places change (`known`). Another
        seat's reminder token counts apart (`marks`): only the costs of crossing rooms read it,
        and they ignore this seat's own tokens."""
        # Typed, for a compiled build to compare them natively.
        tile: int = entry["tile"]
        room: str | None = entry["room"] if entry["revealed"] else None
        sealed: bool = entry["sealed"]
        robots: int = entry["robots"]
        if robots:
            self.robots[tile] = robots
        elif tile in self.robots:
            del self.robots[tile]
        reminders = entry["reminders"]
        seats = frozenset(reminders) if reminders else NO_MARKS
        before = self.reminders.get(tile, NO_MARKS)
        if seats != before:
            if seats:
                self.reminders[tile] = seats
            else:
                del self.reminders[tile]
            if any(seat != self.seat for seat in seats ^ before):
                self.marks += 1
        learned = self.revealed.get(tile) != room or (tile in self.sealed) != sealed
        if self.cells[cell] == tile and not learned:
            return False
        if learned:
            self.known += 1
        self.cells[cell] = tile
        if room is not None:
            self.revealed[tile] = room
        else:
            self.revealed.pop(tile, None)
        if sealed:
            self.sealed.add(tile)
        else:
            self.sealed.discard(tile)
        return True

    def _notebook(self, notes: dict[str, str]) -> None:
        """The notebook shows the rooms seen that are still face down: the mirror keeps the
        others too (they are face up, in `revealed`)."""
        cells = self.cells
        self.notebook.update({cells[INDEX[cell]]: kind for cell, kind in notes.items()})

    def _character(self, cid: str, entry: dict) -> None:
        """Read one character's entry again, into the same `Seen` (every field is set). It keeps
        the entry's lists rather than copies: a view is a value nobody changes in place."""
        seat: str = entry["seat"]
        seen = self.chars.get(cid)
        if seen is None:
            seen = self.chars[cid] = Seen(seat)
        seen.seat = seat
        seen.alive = entry["alive"]
        seen.role = entry["role"]
        seen.tile = seen.flooded = None
        seen.flooded_turn = 0
        if cid in self.trapped:
            del self.trapped[cid]
        cell: str | None = entry["cell"]
        if cell is not None:
            tile = seen.tile = self.cells[INDEX[cell]]
            if entry["trapped"]:
                self.trapped[cid] = tile
            flooded_since: int | None = entry["flooded_since"]
            if flooded_since is not None:
                seen.flooded, seen.flooded_turn = tile, flooded_since
        seen.program = entry.get("program") or []
        seen.played = entry["played"]
        seen.adrenaline = entry["adrenaline"]
        seen.lost = tuple(entry["lost_tokens"])
        seen.hidden = entry["hidden"]
        seen.reserve = entry["reserve"]

    def summary(self) -> dict:
        """What the planner uses, to check the mirror against one built from a fresh view."""
        chars = {
            cid: (
                c.alive,
                c.tile if c.alive else None,
                c.role,
                self.trapped.get(cid) == c.tile and c.tile is not None,
                c.flooded_turn if c.flooded is not None and c.flooded == c.tile else None,
                c.program,
                c.played,
                c.adrenaline,
                c.lost,
                c.hidden,
                c.reserve,
            )
            for cid, c in self.chars.items()
        }
        notebook = {t: k for t, k in self.notebook.items() if t not in self.revealed}
        return {
            "cells": list(self.cells),
            "revealed": dict(self.revealed),
            "sealed": set(self.sealed),
            "reminders": dict(self.reminders),
            "robots": dict(self.robots),
            "notebook": notebook,
            "chars": chars,
            **{k: getattr(self, k) for k in TOP_FOLLOWED},
        }


NO_MARKS: Final[frozenset[str]] = frozenset()  # no reminder token on a tile

# The top-level parts of the view the planner reads.
TOP_FOLLOWED: Final = (
    "turn",
    "turns_left",
    "alarm",
    "round",
    "phase",
    "current",
    "pending",
    "controls",
    "key_activated",
)
FOLLOWED: Final = frozenset(TOP_FOLLOWED)
