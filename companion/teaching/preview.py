"""What one of a seat's choices would do, from that seat's own view alone (issue 32, point 3):
"Move north: a room you have not seen", "Push Emmett west: into the Acid bath you looked at".

It reads a `SeatView` and nothing else: the rooms face up (public) and the seat's notebook (the
rooms it has looked at that are still face down). Another seat's look or role is not in that
view, so it cannot change a preview; a room this seat has not seen is never named."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.engine.face.shapes import SeatView
from companion.engine.kernel import grid
from companion.engine.kernel.catalogue import characters, room_name
from companion.words import text

ACTIONS = ("look", "move", "push", "control")


@dataclass(frozen=True)
class Preview:
    """A preview as a catalogue key (`previews_<what>`) and its values: ids, put in words by
    `preview_text` in the reader's language."""

    key: str
    params: Mapping[str, str] = field(default_factory=dict)


def preview(
    view: SeatView,
    character: str,
    action: str,
    direction: str,
    target: str | None = None,
) -> Preview:
    """The preview of `character` playing `action` towards `direction` (pushing `target`), as
    the seat whose `view` this is knows the complex. Rules: 001_30b8f356e0d93ba4.txt, "Push"
    (never from the Central room) and "Control" (the central lines do not move)."""
    params = {"action": action, "direction": direction}
    if target is not None:
        params["target"] = target
    here = _cell_of(view, character)
    if here is None:
        return Preview("previews_nowhere", params)
    if action == "control":
        row, col = grid.row_col(here)
        line = col if direction in ("north", "south") else row
        moves = line in grid.MOVABLE
        return Preview("previews_control" if moves else "previews_control_central", params)
    if action == "push" and here == grid.CENTRE:
        return Preview("previews_push_from_central", params)
    there = grid.neighbour(here, direction)
    if there is None:
        return Preview("previews_edge", params)
    known, how = _known_room(view, grid.name(there))
    if known is None:
        return Preview(f"previews_{action}_unseen", params)
    return Preview(f"previews_{action}_{how}", {**params, "room": known})


def seat_previews(view: SeatView, legal: list[dict[str, object]]) -> list[dict[str, object]]:
    """The preview of each of a seat's legal look, move, push and control choices, as the seat's
    own update carries them when the table is taught: the choice's character, action, direction
    and target with the preview's key and values, which the phone puts in its language."""
    found: dict[tuple, dict[str, object]] = {}
    for command in legal:
        action, direction = command.get("action"), command.get("direction")
        if command.get("type") != "act" or action not in ACTIONS or not isinstance(direction, str):
            continue
        cid, target = str(command["character"]), command.get("target")
        choice = (cid, action, direction, target)  # physical tiles: one command a room it may be
        if choice not in found:
            shown = preview(view, cid, str(action), direction, str(target) if target else None)
            found[choice] = {"character": cid, "key": shown.key, "params": dict(shown.params)}
    return list(found.values())


def preview_text(found: Preview, lang: str) -> str:
    """A preview in words: room names as the rulebook of the language prints them."""
    params = dict(found.params)
    values: dict[str, object] = {
        "action": text(lang, f"action_{params['action']}"),
        "direction": text(lang, f"dir_{params['direction']}"),
    }
    if "room" in params:
        values["room"] = room_name(params["room"], lang)
    if "target" in params:
        values["target"] = characters().get(params["target"], {}).get("name", params["target"])
    return text(lang, found.key, **values)


def _cell_of(view: SeatView, character: str) -> grid.Cell | None:
    entry = view["characters"].get(character)
    cell = entry["cell"] if entry else None
    return grid.NAMED[cell] if cell is not None and view["complex"] else None


def _known_room(view: SeatView, cell: str) -> tuple[str | None, str]:
    """The room at a cell as this seat knows it: face up for all, or looked at by this seat
    (its notebook), else unknown."""
    complex_ = view["complex"]
    assert complex_ is not None, "a character has a cell only on a board"
    row, col = grid.row_col(grid.NAMED[cell])
    shown = complex_[row][col]["room"]
    if shown is not None:
        return shown, "seen"
    return view["notebook"].get(cell), "looked"
