"""What each seat may know. Secrets leave the engine only through the view of their owner.

`public_view` is what the OLED and the table page show; `seat_view` adds that seat's own role,
programming and notebook; `full_view` is for tests and the end-of-game reveal. `views_for` builds
the public view and several seat views of one state at once, sharing what they have in common;
`changes_for` says which parts of a view a command changed, so a phone can be kept current with
`apply_changes` instead of being sent its whole view again. The shapes are in `shapes.py`.

Views are values: the views of one `views_for` call share their public parts, and
`apply_changes` copies what it changes, so nobody may change a view in place.

This module reads the state only, never the rules modules.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import cast

from ..kernel import grid
from ..kernel.context import Refused
from ..kernel.grid import Cell
from ..kernel.ruleset import Ruleset
from ..kernel.state import SEAT_IDS, Character, GameState, Tile, TileId
from .shapes import CellView, Change, CharacterView, FullView, PublicView, SeatView

PUBLIC = "public"  # the audience of the public view in `views_for` and `changes_for_seats`
CELL_NAMES = tuple(grid.name(cell) for cell in grid.CELLS)
PLACES = tuple(grid.row_col(cell) for cell in grid.CELLS)  # the row and column of each cell


# --- the parts of a view ---


def _top(state: GameState) -> dict:
    """The top-level parts besides the complex and the characters (everything public)."""
    return {
        "version": state.version,
        "ruleset": _ruleset(state.ruleset),
        "phase": state.phase,
        "turn": state.turn,
        "turns_left": state.turns_left,
        "last_turn": state.turns_left == 1,
        "alarm": state.alarm,
        "round": state.round,
        "current": state.current,
        "order": list(state.order),
        "controls": dict(state.controls),
        "jammed": jammed(state),
        "key_activated": state.key_activated,
        "deaths": list(state.deaths),
        "clues_taken": [s.id for s in state.seats.values() if s.clue is not None],
        "clues": _clues(state),
        "pending": _pending(state),
        "outcome": state.outcome,
        "mac": mac_public(state),
    }


def _clues(state: GameState) -> dict[str, str]:
    """The cell each seat looked at for its starting clue: public, as at the table, where the
    player lifts that tile in front of everyone (docs/rules.md, Starting clue); a position
    that says a clue was taken without saying where names no cell."""
    return {s.id: s.clue for s in state.seats.values() if s.clue in grid.NAMES}


def _pending(state: GameState) -> dict | None:
    """The choice the game waits for: what is chosen, by whom, among what."""
    pending = state.pending
    if pending is None:
        return None
    return {k: pending[k] for k in ("kind", "seat", "character", "options")}


def _ruleset(ruleset: Ruleset) -> dict:
    """A game's rules never change: their view is built once per ruleset, and each view gets
    its own copy, so that no view can change another game's."""
    built = _ruleset_built(ruleset)
    return {**built, "settings": dict(built["settings"])}


@cache
def _ruleset_built(ruleset: Ruleset) -> dict:
    return ruleset.as_dict()


def jammed(state: GameState) -> bool:
    """Jamming room: 'As long as a character is in this room, no information can be exchanged
    between players' (000; 002: 'quel que soit leur camp'). A public flag for the phones."""
    tiles = state.tiles
    for c in state.characters.values():
        if c.alive and c.tile is not None:
            tile = tiles[c.tile]
            if tile.revealed and tile.kind == "jamming":
                return True
    return False


def mac_public(state: GameState) -> dict:
    """The deck as every seat may see it: sizes, the discard pile and the cards in play."""
    mac = state.mac
    if mac is None:
        return {}
    return {
        "level": mac.level,
        "draw_pile": None if mac.draw is None else len(mac.draw),
        "discard": list(mac.discard),
        "in_play": list(mac.in_play),
        "current": mac.current,
        "jammed": mac.jammed,
        "accelerated": mac.accelerated,
    }


class _Board:
    """What the cells of one state show, gathered in one pass over the characters, seats and
    robots. Each cell is asked for once, so it is handed its lists rather than copies."""

    __slots__ = ("occupants", "reminders", "robots", "state")

    def __init__(self, state: GameState, only: set[TileId] | None = None) -> None:
        """`only`: the tiles whose cells will be asked for (None: every tile)."""
        self.state = state
        self.reminders: dict[TileId, list[str]] = {}
        for seat in state.seats.values():
            for tile in seat.reminders:
                if only is None or tile in only:
                    self.reminders.setdefault(tile, []).append(seat.id)
        self.occupants: dict[TileId, list[str]] = {}
        for c in state.characters.values():
            tile_id = c.tile
            if c.alive and tile_id is not None and (only is None or tile_id in only):
                self.occupants.setdefault(tile_id, []).append(c.id)
        self.robots: dict[TileId, int] = {}
        for tile_id in state.robots:
            self.robots[tile_id] = self.robots.get(tile_id, 0) + 1

    def cell(self, cell: Cell, full: bool) -> CellView:
        state = self.state
        tile = state.tiles[state.cells[cell]]
        tid = tile.id
        shown = tile.revealed
        return {
            "cell": CELL_NAMES[cell],
            "tile": tid,
            "room": tile.kind if shown or full else None,
            "revealed": shown,
            "sealed": tile.sealed,
            "corridor": tile.corridor if shown else None,
            "reminders": self.reminders.get(tid) or [],
            "occupants": self.occupants.get(tid) or [],
            "robots": self.robots.get(tid, 0),
            "locked": tid in state.locks,
        }


def _complex(board: _Board, full: bool) -> list[list[CellView]] | None:
    if not board.state.cells:
        return None
    return [[board.cell(cell, full) for cell in row] for row in grid.ROWS]


def _cell_of(state: GameState, c: Character) -> str | None:
    if c.tile is None or not state.cells:
        return None
    return CELL_NAMES[state.places[c.tile]]


def _character(state: GameState, c: Character, full: bool) -> CharacterView:
    """A character as every seat sees him (`full`: with his role and his pile's order)."""
    paranoia = c.paranoia
    return {
        "seat": c.seat,
        "alive": c.alive,
        "cell": _cell_of(state, c),
        "role": c.role if full or c.role_public or state.ruleset.mode != "suspicion" else None,
        "exposed": c.exposed_turn is not None,
        "locked_in": c.locked,
        "played": list(c.played),
        "trapped": c.trapped is not None and c.tile == c.trapped,
        "adrenaline": c.adrenaline,
        "lost_tokens": list(c.lost),
        "hidden": c.hidden,
        "reserve": c.reserve,
        "flooded_since": c.flooded_turn if c.flooded is not None and c.tile == c.flooded else None,
        # A Paranoia pile: which tokens are left is public, their order face down.
        "paranoia": None if paranoia is None else list(paranoia) if full else sorted(paranoia),
    }


def _secrets(c: Character, entry: CharacterView) -> CharacterView:
    """A character as his own seat (or the full view) sees him: role and programming, added to
    the entry given (a copy, where the entry is shared with other seats' views)."""
    entry["role"] = c.role
    entry["program"] = list(c.program)
    entry["single_action"] = c.single_action
    entry["adrenaline_programmed"] = c.adrenaline_programmed
    entry["talent_choice"] = c.talent_choice
    return entry


def _own(state: GameState, seat: str) -> tuple[str, ...]:
    if not isinstance(seat, str) or seat not in state.seats:
        raise Refused("unknown_seat", seat=str(seat)[:20])
    return state.seats[seat].characters


# --- the views ---


def public_view(state: GameState) -> PublicView:
    return Views(state).public


def seat_view(state: GameState, seat: object) -> SeatView:
    """The view of one seat; an unknown seat, or anything that is no seat id, is refused
    (`unknown_seat`). Typed `object`, since callers pass what a client sent: the compiled
    build would raise on a non-text seat before the refusal is reached."""
    return Views(state).seat(seat)


def full_view(state: GameState) -> FullView:
    view = _top(state)
    view["complex"] = _complex(_Board(state), full=True)
    view["characters"] = {
        cid: _secrets(c, _character(state, c, full=True)) for cid, c in state.characters.items()
    }
    view["notebooks"] = {s: notebook(state, s) for s in state.seats}
    return cast(FullView, view)


def views_for(state: GameState, seats: Iterable[str]) -> dict[str, PublicView]:
    """The public view (under "public", a `PublicView`) and the view of each seat named (a
    `SeatView`), built together: the public parts are built once and shared by all of them."""
    seats = tuple(seats)
    for seat in seats:
        _own(state, seat)
    shared = Views(state)
    views: dict[str, PublicView] = {PUBLIC: shared.public}
    for seat in seats:
        views[seat] = shared.seat(seat)
    return views


class Views:
    """The views of one state, each built when first asked for: the public part is built once
    and shared by every seat's view (a session builds the views of the seats that listen, and
    only when a change reaches them)."""

    __slots__ = ("_characters", "public", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        public = _top(state)
        public["complex"] = _complex(_Board(state), full=False)
        self._characters = {
            cid: _character(state, c, full=False) for cid, c in state.characters.items()
        }
        public["characters"] = self._characters
        self.public = cast(PublicView, public)

    def seat(self, seat: object) -> SeatView:
        """A seat's view (a `SeatView`); an unknown seat is refused (`unknown_seat`)."""
        if not isinstance(seat, str):
            raise Refused("unknown_seat", seat=str(seat)[:20])
        state, characters = self.state, self._characters
        mine = dict(characters)
        for cid in _own(state, seat):
            mine[cid] = _secrets(state.characters[cid], characters[cid].copy())
        view = {**self.public, "characters": mine, "seat": seat, "notebook": notebook(state, seat)}
        return cast(SeatView, view)


def notebook(state: GameState, seat: str) -> dict[str, str]:
    """The rooms this seat has seen that are still hidden, at the cells where they now stand:
    the notes follow the tiles when lines slide."""
    if not state.cells:
        return {}
    found = {}
    tiles, places = state.tiles, state.places
    for tile_id, kind in state.seats[seat].notebook.items():
        if not tiles[tile_id].revealed:
            found[CELL_NAMES[places[tile_id]]] = kind
    return found


# --- changes ---


def changes_for(before: GameState, after: GameState, seat: str | None) -> list[Change]:
    """The parts of a seat's view (seat None: the public view) that may differ between two
    states of one game, any number of commands apart, with their new values:
    `apply_changes(seat_view(before, seat), changes)` equals `seat_view(after, seat)`. A part
    is listed when a public fact it shows changed, or a secret of this seat's own; so the list
    tells a seat nothing about another seat's secrets."""
    if seat is None:
        return changes_for_seats(before, after, ())[PUBLIC]
    own = _own(after, seat)
    diff = _Diff(before, after)
    changes = _public_changes(diff)
    shown, secret = _characters_changed(diff)
    for cid, entry in shown.items():
        if cid not in own:
            changes.append(_entry_change(cid, entry))
    # Built for this seat alone, the entries of its own characters take its secrets as they are.
    changes.extend(_own_changes(after, own, shown, secret, shared=False))
    changes.extend(_notebook_changes(diff, seat))
    return changes


def changes_for_seats(
    before: GameState, after: GameState, seats: Iterable[str]
) -> dict[str, list[Change]]:
    """`changes_for` for the public view (under "public") and each seat named, the public
    parts compared once for all of them. Only the parts whose state changed are built."""
    seats = tuple(seats)
    owned = {seat: _own(after, seat) for seat in seats}
    diff = _Diff(before, after)
    public = _public_changes(diff)
    shown, secret = _characters_changed(diff)
    entries = [(cid, _entry_change(cid, entry)) for cid, entry in shown.items()]
    changes: dict[str, list[Change]] = {PUBLIC: public + [change for _, change in entries]}
    for seat in seats:
        own = owned[seat]
        mine = public + [change for cid, change in entries if cid not in own]
        mine.extend(_own_changes(after, own, shown, secret, shared=True))
        mine.extend(_notebook_changes(diff, seat))
        changes[seat] = mine
    return changes


def _public_changes(diff: _Diff) -> list[Change]:
    changes = _top_changes(diff)
    changes.extend(_cell_changes(diff))
    return changes


def _characters_changed(diff: _Diff) -> tuple[dict[str, CharacterView], list[str]]:
    """The public entries of the characters whose public facts changed, in the game's order, and
    the characters whose secrets alone changed. A part is listed when what it is built from
    changed: the public facts for everybody, a character's secrets for his own seat only. So
    whether a part is listed tells a seat nothing it may not see."""
    before, after = diff.before, diff.after
    olds = before.characters
    slid = diff.slid
    open_roles = after.ruleset.mode != "suspicion"
    shown: dict[str, CharacterView] = {}
    secret: list[str] = []
    for cid, c in after.characters.items():
        old = olds.get(cid)
        if c is old and not slid:
            continue
        if (
            old is None
            or (slid and c.tile is not None)
            or _facts_changed(c, old)
            or _hidden_changed(c, old, open_roles)
        ):
            shown[cid] = _character(after, c, full=False)
        elif _secrets_changed(c, old):
            secret.append(cid)
    return shown, secret


def _own_changes(
    after: GameState,
    own: tuple[str, ...],
    shown: dict[str, CharacterView],
    secret: list[str],
    shared: bool,
) -> list[Change]:
    """The entries of a seat's own characters that changed, with their secrets (`shared`: the
    public entries are other views' too, so the secrets go on copies)."""
    changes: list[Change] = []
    for cid in own:
        c = after.characters[cid]
        entry = shown.get(cid)
        if entry is None:
            if cid not in secret:
                continue
            entry = _character(after, c, full=False)
        elif shared:
            entry = entry.copy()
        changes.append(_entry_change(cid, _secrets(c, entry)))
    return changes


def _entry_change(cid: str, entry: CharacterView) -> Change:
    return {"path": ["characters", cid], "value": entry}


def _notebook_changes(diff: _Diff, seat: str) -> list[Change]:
    """The notes show the seat's looks at hidden tiles where they stand: only a slide, a new
    look or a change to a noted tile can change them."""
    before, after = diff.before, diff.after
    noted = after.seats[seat]
    looked = before.seats.get(seat) is not noted
    if diff.slid or looked or not diff.tiles.isdisjoint(noted.notebook):
        notes = notebook(after, seat)
        if notebook(before, seat) != notes:
            return [{"path": ["notebook"], "value": notes}]
    return []


# What a character's public entry is built from, besides his role and Paranoia pile (public
# only in part, see `_hidden_changed`), and what his own seat sees besides. Each attribute is
# spelled out: the compiled build reads a spelled attribute directly, a named one by lookup.
def _facts_changed(c: Character, old: Character) -> bool:
    return (
        c.played != old.played
        or c.tile != old.tile
        or c.locked != old.locked
        or c.alive != old.alive
        or c.seat != old.seat
        or c.role_public != old.role_public
        or c.exposed_turn != old.exposed_turn
        or c.trapped != old.trapped
        or c.adrenaline != old.adrenaline
        or c.lost != old.lost
        or c.hidden != old.hidden
        or c.reserve != old.reserve
        or c.flooded != old.flooded
        or c.flooded_turn != old.flooded_turn
    )


def _secrets_changed(c: Character, old: Character) -> bool:
    return (
        c.program != old.program
        or c.single_action != old.single_action
        or c.adrenaline_programmed != old.adrenaline_programmed
        or c.talent_choice != old.talent_choice
        or c.role != old.role
        or c.paranoia != old.paranoia
    )


def _hidden_changed(c: Character, old: Character, open_roles: bool) -> bool:
    """Whether what the table sees of a character's role and Paranoia pile changed (the
    role only once public, the pile's tokens but not their order)."""
    if c.role != old.role and (open_roles or c.role_public):
        return True
    pile, was = c.paranoia, old.paranoia
    if pile == was:
        return False
    return pile is None or was is None or sorted(pile) != sorted(was)


class _Diff:
    """What two states of a game differ in, as far as the views' parts are concerned: found
    with cheap comparisons first, so that only the parts that may have changed are built.
    Versions share every value that did not change, so a shared one is not compared."""

    def __init__(self, before: GameState, after: GameState) -> None:
        self.before, self.after = before, after
        self.slid = before.cells is not after.cells and before.cells != after.cells
        tiles: set[TileId] = set()
        # A room's occupants change with a character arriving, leaving, dying or coming back.
        olds = before.characters
        for cid, c in after.characters.items():
            old = olds.get(cid)
            if old is c:
                continue
            if old is None or old.alive != c.alive or old.tile != c.tile:
                if old is not None and old.alive and old.tile is not None:
                    tiles.add(old.tile)
                if c.alive and c.tile is not None:
                    tiles.add(c.tile)
        self.clued = False  # a seat's starting clue taken
        old_seats = before.seats
        if old_seats is not after.seats:
            for sid, seat in after.seats.items():
                old_seat = old_seats.get(sid)
                if old_seat is not seat:
                    if old_seat is None or old_seat.clue != seat.clue:
                        self.clued = True
                    if old_seat is None or old_seat.reminders != seat.reminders:
                        tiles.update(seat.reminders)
                        tiles.update(() if old_seat is None else old_seat.reminders)
        old_tiles, new_tiles = before.tiles, after.tiles
        if old_tiles is not new_tiles:  # versions share the table until a tile changes
            found = 0  # the tiles of the table before that are still in it
            for t, tile in new_tiles.items():
                was = old_tiles.get(t)
                if was is None:
                    tiles.add(t)
                else:
                    found += 1
                    if was is not tile and _shown(was) != _shown(tile):
                        tiles.add(t)
            if found != len(old_tiles):
                tiles.update(old_tiles.keys() - new_tiles.keys())
        if before.robots != after.robots:
            tiles.update(before.robots, after.robots)
        if before.locks != after.locks:
            tiles.update(set(before.locks) ^ set(after.locks))
        self.tiles = tiles  # the tiles whose cell entry may show something new


def _shown(tile: Tile) -> tuple:
    """What a cell shows of its tile (its room only once it is face up)."""
    shown = tile.revealed
    return (shown, tile.sealed, tile.kind if shown else None, tile.corridor if shown else None)


def _top_changes(diff: _Diff) -> list[Change]:
    """The top-level parts that changed; each one is built only when its state did."""
    before, after = diff.before, diff.after
    changes: list[Change] = []
    # The parts that are the state's own fields, under the same names (read spelled out: the
    # compiled build reads a spelled attribute directly, a named one by lookup).
    plain: tuple[tuple[str, object, object], ...] = (
        ("version", after.version, before.version),
        ("phase", after.phase, before.phase),
        ("turn", after.turn, before.turn),
        ("turns_left", after.turns_left, before.turns_left),
        ("alarm", after.alarm, before.alarm),
        ("round", after.round, before.round),
        ("current", after.current, before.current),
        ("order", after.order, before.order),
        ("controls", after.controls, before.controls),
        ("key_activated", after.key_activated, before.key_activated),
        ("deaths", after.deaths, before.deaths),
        ("outcome", after.outcome, before.outcome),
    )
    for key, value, was in plain:
        if value is not was and value != was:
            changes.append({"path": [key], "value": _copied(value)})
    if (before.turns_left == 1) != (after.turns_left == 1):
        changes.append({"path": ["last_turn"], "value": after.turns_left == 1})
    if before.ruleset is not after.ruleset and before.ruleset != after.ruleset:
        changes.append({"path": ["ruleset"], "value": _ruleset(after.ruleset)})
    if before.pending is not after.pending and before.pending != after.pending:
        changes.append({"path": ["pending"], "value": _pending(after)})
    if _jamming_touched(diff) and (jammed_now := jammed(after)) != jammed(before):
        changes.append({"path": ["jammed"], "value": jammed_now})
    if diff.clued:
        clues = [s.id for s in after.seats.values() if s.clue is not None]
        if clues != [s.id for s in before.seats.values() if s.clue is not None]:
            changes.append({"path": ["clues_taken"], "value": clues})
        if _clues(after) != _clues(before):
            changes.append({"path": ["clues"], "value": _clues(after)})
    if before.mac is not after.mac and (deck := mac_public(after)) != mac_public(before):
        changes.append({"path": ["mac"], "value": deck})
    return changes


def _jamming_touched(diff: _Diff) -> bool:
    """Whether the Jamming flag may have changed: only with a face-up Jamming room among the
    tiles whose cells changed (somebody entering, leaving or dying in it, or it turned over)."""
    was, now = diff.before.tiles, diff.after.tiles
    return any(_face_up_jamming(was.get(t)) or _face_up_jamming(now.get(t)) for t in diff.tiles)


def _face_up_jamming(tile: Tile | None) -> bool:
    return tile is not None and tile.revealed and tile.kind == "jamming"


def _copied(value: object) -> object:
    if isinstance(value, list):
        return list(value)
    return dict(value) if isinstance(value, dict) else value


def _cell_changes(diff: _Diff) -> list[Change]:
    before, after = diff.before, diff.after
    if not after.cells or not before.cells:
        if bool(after.cells) == bool(before.cells):
            return []
        return [{"path": ["complex"], "value": _complex(_Board(after), full=False)}]
    old_tiles, new_tiles = before.cells, after.cells
    cells: set[Cell] = set()
    if diff.slid:
        for cell in grid.CELLS:
            if old_tiles[cell] != new_tiles[cell]:
                cells.add(cell)
    places = after.places
    for tile in diff.tiles:
        if tile in places:
            cells.add(places[tile])
    if not cells:
        return []
    board = _Board(after, {new_tiles[cell] for cell in cells})
    changes: list[Change] = []
    for cell in sorted(cells):
        row, col = PLACES[cell]
        changes.append({"path": ["complex", row, col], "value": board.cell(cell, full=False)})
    return changes


def apply_changes(view: dict, changes: Iterable[Change]) -> dict:
    """A view with changes applied, as a new value: the given view is left as it was (only the
    parts on a change's path are copied)."""
    view = dict(view)
    copied: set[str] = set()
    for change in changes:
        path, value = change["path"], change["value"]
        head = cast(str, path[0])
        if len(path) == 1:
            view[head] = value
            copied.add(head)
            continue
        if head not in copied:
            part = view[head]
            view[head] = [list(row) for row in part] if isinstance(part, list) else dict(part)
            copied.add(head)
        target = view[head]
        for key in path[1:-1]:
            target = target[key]
        target[path[-1]] = value
    return view


def events_for(events: list[dict], seat: object) -> list[dict[str, object]]:
    """A game's events as a seat may see them: others' private events dropped, hidden tiles
    blanked. With seat None, the public record. Any other audience is refused
    (`unknown_seat`): the engine's own markers ("engine", "face-down") are no seat, and asking
    with one would hand out the M.A.C. draw pile and the generator's value."""
    if seat is not None and (not isinstance(seat, str) or seat not in SEAT_IDS):
        raise Refused("unknown_seat", seat=str(seat)[:20])
    shown = []
    owners: dict[str, str] = {}  # character -> seat, from the game's creation
    for event in events:
        private = event.get("private")
        if private is not None and private != seat:
            continue
        if event["type"] == "game_created":
            owners = {cid: s["id"] for s in event["seats"] for cid in s["characters"]}
            # The generator's value would let anyone replay the deal: roles and tiles.
            event = {
                **event,
                "rng": None,
                "tiles": [[kind if shown_ else None, shown_] for kind, shown_ in event["tiles"]],
            }
        elif event["type"] == "position_set":
            event = _position_for(event, seat, owners)
        shown.append(event)
    return shown


# What a written-down position says that only its owner may see.
SECRET_CHARACTER_FIELDS = ("program", "single_action", "adrenaline_programmed", "talent_choice")
SECRET_SEAT_FIELDS = ("notebook",)  # the clue's cell is public, its room in the notebook


def _position_for(event: dict, seat: str | None, owners: dict[str, str]) -> dict:
    """A position written down (a scenario, a game resumed by hand) as `seat` may see it: the
    hidden rooms, the draw pile's order, other seats' programmes, notebooks and the order of
    their Paranoia piles blanked."""
    shown = dict(event)
    if "tiles" in event:
        shown["tiles"] = [
            t if t["revealed"] or t.get("seen") else {**t, "kind": None} for t in event["tiles"]
        ]
    if "mac" in event and event["mac"].get("draw") is not None:
        shown["mac"] = {**event["mac"], "draw": None}
    characters = {}
    for cid, fields in event.get("characters", {}).items():
        if owners.get(cid) == seat:
            characters[cid] = fields
            continue
        kept = {k: v for k, v in fields.items() if k not in SECRET_CHARACTER_FIELDS}
        if isinstance(kept.get("paranoia"), list):
            kept["paranoia"] = sorted(kept["paranoia"])
        characters[cid] = kept
    if "characters" in event:
        shown["characters"] = characters
    if "seats" in event:
        shown["seats"] = {
            sid: fields
            if sid == seat
            else {k: v for k, v in fields.items() if k not in SECRET_SEAT_FIELDS}
            for sid, fields in event["seats"].items()
        }
    return shown
