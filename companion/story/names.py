"""Players' names per seat, typed by the host (never required): checked here before the journal
keeps them. A name is plain text shown as text, but it is refused rather than cleaned when it
holds what no name needs (markup, control or invisible characters), so what the host typed is
what the recap shows."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_NAME = 24  # characters: a first name or a nickname, and it fits a phone-width table
MARKUP = frozenset("<>")


@dataclass(frozen=True)
class NamesRefused:
    """Why the names were refused (not_object, bad_seat, too_long, not_text), with what the
    sentence saying it names."""

    code: str
    params: dict[str, object] = field(default_factory=dict)


def checked_names(names: object, seats: list[str]) -> dict[str, str] | NamesRefused:
    """The names to keep, seat -> name (a blank name drops the seat's), or why they are refused.
    `seats` are the game's seat ids."""
    if not isinstance(names, dict):
        return NamesRefused("not_object")
    kept: dict[str, str] = {}
    for seat, name in names.items():
        if seat not in seats:
            shown = str(seat)[:8]
            return NamesRefused("bad_seat", {"seat": shown, "seats": ", ".join(seats)})
        if name is None:
            continue
        if not isinstance(name, str):
            return NamesRefused("not_text", {"seat": seat})
        name = name.strip()
        if len(name) > MAX_NAME:
            return NamesRefused("too_long", {"seat": seat, "most": MAX_NAME})
        if not name.isprintable() or MARKUP & set(name):
            return NamesRefused("not_text", {"seat": seat})
        if name:
            kept[seat] = name
    return kept


def seats_of(setup: dict) -> list[str]:
    """A game's seat ids from its setup: the seats given, else 1 to the number of players."""
    given = setup.get("seats")
    if isinstance(given, list) and all(isinstance(s, dict) and "id" in s for s in given):
        return [str(s["id"]) for s in given]
    players = setup.get("players")
    return [str(n) for n in range(1, players + 1)] if isinstance(players, int) else []
