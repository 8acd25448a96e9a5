"""What each seat may know. Secrets leave the engine only through the view of their owner.

`public_view` is what the OLED and the table page show; `seat_view` adds that seat's own role,
programming and notebook; `full_view` is for tests and the end-of-game reveal.
"""

from __future__ import annotations

from . import grid, mac, new_rooms
from .state import GameState


def _complex(state: GameState, full: bool) -> list[list[dict]] | None:
    if not state.tracked:
        return None
    reminders: dict[int, list[str]] = {}
    for seat in state.seats.values():
        for tile in seat.reminders:
            reminders.setdefault(tile, []).append(seat.id)
    rows = []
    for row in range(grid.SIZE):
        cells = []
        for col in range(grid.SIZE):
            cell = grid.cell(row, col)
            tile = state.tile_at(cell)
            entry = {
                "cell": grid.name(cell),
                "tile": tile.id,
                "room": tile.kind if tile.revealed or full else None,
                "revealed": tile.revealed,
                "sealed": tile.sealed,
                "corridor": tile.corridor if tile.revealed else None,
                "reminders": reminders.get(tile.id, []),
                "occupants": state.occupants(tile.id),
                "robots": state.robots_in(tile.id),
                "locked": tile.id in state.locks,
            }
            cells.append(entry)
        rows.append(cells)
    return rows


def _character(state: GameState, cid: str, full: bool, own: bool) -> dict:
    c = state.characters[cid]
    cell = state.where(cid) if state.tracked else None
    entry = {
        "seat": c.seat,
        "alive": c.alive,
        "cell": None if cell is None else grid.name(cell),
        "role": c.role
        if c.role_public or own or full or state.ruleset.mode != "suspicion"
        else None,
        "exposed": c.exposed_turn is not None,
        "locked_in": c.locked,
        "played": list(c.played),
        "trapped": c.trapped is not None and c.tile == c.trapped,
        "adrenaline": c.adrenaline,
        "lost_tokens": list(c.lost),
        "hidden": c.hidden,
        "reserve": c.empties,  # Empty rooms kept for Sabotage
        "flooded_since": c.flooded_turn if c.flooded is not None and c.tile == c.flooded else None,
        # A Paranoia pile: which tokens are left is public, their order face down.
        "paranoia": None
        if c.paranoia is None
        else list(c.paranoia)
        if full
        else sorted(c.paranoia),
    }
    if own or full:
        entry["program"] = list(c.program)
        entry["single_action"] = c.flexible
        entry["adrenaline_programmed"] = c.boosted
        entry["talent_choice"] = c.talent_choice
    return entry


def public_view(state: GameState) -> dict:
    return _view(state, seat=None, full=False)


def seat_view(state: GameState, seat: str) -> dict:
    return _view(state, seat=seat, full=False)


def full_view(state: GameState) -> dict:
    return _view(state, seat=None, full=True)


def _view(state: GameState, seat: str | None, full: bool) -> dict:
    pending = state.pending
    view = {
        "version": state.version,
        "ruleset": state.ruleset.as_dict(),
        "phase": state.phase,
        "turn": state.turn,
        "turns_left": state.turns_left,
        "last_turn": state.last_turn,
        "alarm": state.alarm,
        "round": state.round,
        "current": state.current,
        "order": list(state.order),
        "complex": _complex(state, full),
        "characters": {
            cid: _character(state, cid, full, seat is not None and c.seat == seat)
            for cid, c in state.characters.items()
        },
        "controls": dict(state.controls),
        "jammed": new_rooms.jammed(state),
        "key_activated": state.key_activated,
        "deaths": list(state.deaths),
        "clues_taken": [s.id for s in state.seats.values() if s.clue is not None],
        "pending": None
        if pending is None
        else {k: pending[k] for k in ("kind", "seat", "character", "options")},
        "outcome": state.outcome,
        "mac": mac.public(state),
    }
    if seat is not None:
        view["seat"] = seat
        view["notebook"] = notebook(state, seat)
    if full:
        view["notebooks"] = {s: notebook(state, s) for s in state.seats}
    return view


def notebook(state: GameState, seat: str) -> dict[str, str]:
    """The rooms this seat has seen that are still hidden, at the cells where they now stand:
    the notes follow the tiles when lines slide."""
    if not state.tracked:
        return {}
    found = {}
    for tile_id, kind in state.seats[seat].notebook.items():
        if not state.tiles[tile_id].revealed:
            found[grid.name(state.cell_of(tile_id))] = kind
    return found


def events_for(events: list[dict], seat: str | None) -> list[dict]:
    """A game's events as a seat may see them: others' private events dropped, hidden tiles
    blanked. With seat None, the public record."""
    shown = []
    for event in events:
        private = event.get("private")
        if private is not None and private != seat:
            continue
        if event["type"] == "game_created":
            # The generator's value would let anyone replay the deal: roles and tiles.
            event = {
                **event,
                "rng": None,
                "tiles": [[kind if shown_ else None, shown_] for kind, shown_ in event["tiles"]],
            }
        shown.append(event)
    return shown
