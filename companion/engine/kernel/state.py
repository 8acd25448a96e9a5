"""The game state: plain values, changed only by folding events (see evolve.py)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NewType

from .grid import CELLS, Cell
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .mac_cards import Deck

ACTIONS = ("look", "move", "push", "control")  # the four basic actions
TALENT = "talent"  # the fifth token of Season 2 and Ultimate
HOST = "host"  # the table itself: reports and advances in countdown-only games
# The seats round the table (docs/engine.md, "Seats and seeds"): "1" to "8", nothing else, so
# that no seat can ever be called like the table or like a private marker of the engine
# ("engine", "face-down"): a seat so named would receive the table's powers or the engine's secrets.
SEAT_IDS = tuple(str(n) for n in range(1, 9))
# Talents that come with Empty rooms of the box (000, SETUP): Sarah two, Bruce one.
RESERVED_EMPTY = {"sarah": 2, "bruce": 1}
LOCK_TOKENS = 2  # Emmett's Lock tokens (000, SETUP: "Emmett receives two Lock tokens")
# The characters a version holds alone right after its `clone`: none (`GameState.fresh`).
NOBODY: frozenset[str] = frozenset()
# A room tile's id: it goes with the tile when a line slides, unlike the `grid.Cell` under it.
TileId = NewType("TileId", int)


@dataclass(frozen=True, slots=True)
class Tile:
    """A room tile. Immutable: a state copy shares its tiles, which rarely change."""

    id: TileId
    kind: str | None  # None: a physical tile nobody has reported yet
    revealed: bool = False
    sealed: bool = False  # inaccessible: a locked Flooded chamber, a "Do Not Cross" marker
    corridor: str | None = None  # a Pivoting room's exits: "north-south" or "east-west"
    seen: bool = False  # was face up once (turned face down since): its room is public

    @property
    def room(self) -> str:
        """The room of a tile the rule knows: dealt, or face up (so reported)."""
        assert self.kind is not None, f"tile {self.id} was never reported"
        return self.kind


@dataclass(slots=True)
class Character:
    id: str
    seat: str
    tile: TileId | None  # None once eliminated or outside the tracked board
    alive: bool = True
    role: str = "prisoner"
    role_public: bool = False
    exposed_turn: int | None = None  # the turn a guard exposed himself
    entered: int = 0  # order of arrival in the current room (Acid bath)
    trapped: TileId | None = None  # Trapped chamber to leave with the next action...
    trapped_at: int = 0  # ...counted from this action number
    actions: int = 0  # actions this character has played in the game (lost ones included)
    slots: int = 0  # action rounds of this turn already done
    flooded: TileId | None = None  # Flooded chamber entered...
    flooded_turn: int = 0  # ...on this turn
    program: tuple[str, ...] = ()  # tokens still to play this turn, in order
    single_action: bool = False  # a single token, played in the first or the second round
    locked: bool = False  # programming locked in
    played: tuple[str, ...] = ()  # tokens revealed this turn (public)
    limit: int = 2  # actions this character may play this turn
    adrenaline: bool = False  # holds his Adrenaline token
    adrenaline_programmed: bool = False  # this turn (secret until the adrenaline round)
    lost: tuple[str, ...] = ()  # tokens lost for the rest of the game
    talent_choice: str | None = None  # a talent's option chosen while programming
    came_from: Cell | None = None  # the cell he entered his current room from (Pivoting room)
    paranoia: tuple[str, ...] | None = None  # face-down Paranoia pile, top first; None: none
    hidden: bool = False  # Be hidden (Alice, or Bruce mimicking her) until his next action
    reserve: int = 0  # Empty rooms in reserve for Sabotage (Sarah two, Bruce one)

    def copy(self) -> Character:
        """The copy a version makes of a character before changing him (`evolve._character`),
        field by field rather than through the dataclass's `__init__`, which the compiled build
        runs as interpreted code."""
        new = Character.__new__(Character)
        new.id = self.id
        new.seat = self.seat
        new.tile = self.tile
        new.alive = self.alive
        new.role = self.role
        new.role_public = self.role_public
        new.exposed_turn = self.exposed_turn
        new.entered = self.entered
        new.trapped = self.trapped
        new.trapped_at = self.trapped_at
        new.actions = self.actions
        new.slots = self.slots
        new.flooded = self.flooded
        new.flooded_turn = self.flooded_turn
        new.program = self.program
        new.single_action = self.single_action
        new.locked = self.locked
        new.played = self.played
        new.limit = self.limit
        new.adrenaline = self.adrenaline
        new.adrenaline_programmed = self.adrenaline_programmed
        new.lost = self.lost
        new.talent_choice = self.talent_choice
        new.came_from = self.came_from
        new.paranoia = self.paranoia
        new.hidden = self.hidden
        new.reserve = self.reserve
        return new


@dataclass(slots=True)
class Seat:
    id: str
    characters: tuple[str, ...]
    # Tiles holding this player's reminder tokens: one token per character he plays (001, GAME
    # CONTENT: "For each character: [...] 1 reminder token").
    reminders: tuple[TileId, ...] = ()
    clue: str | None = None  # the cell looked at for the starting clue, by name ("C2")
    notebook: dict[TileId, str] = field(default_factory=dict)  # room seen on each tile

    def copy(self) -> Seat:
        """Field by field, like `Character.copy`; the notebook is the seat's own."""
        new = Seat.__new__(Seat)
        new.id = self.id
        new.characters = self.characters
        new.reminders = self.reminders
        new.clue = self.clue
        new.notebook = dict(self.notebook)
        return new


@dataclass(slots=True)
class MacPile:
    """Where the deck's cards are. `draw` is None with a physical deck (its order is unknown)."""

    level: str
    draw: list[str] | None
    discard: list[str] = field(default_factory=list)
    in_play: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)  # this turn
    bombs: int = 0  # Time bomb cards drawn in the game
    current: str | None = None  # the card being applied
    due: int = 0  # draws left in the current batch
    after: str | None = None  # what the batch was for: programming, slot or action
    drawer: str | None = None  # M.A.C. room: the character who suffers character effects
    queued: tuple[str, ...] = ()  # entrants of M.A.C. rooms whose cards come next, in order
    card_drawer: str | None = None  # who suffers the current card's character effects
    madness_rounds: tuple[int, ...] = ()  # action rounds of this turn already preceded by a draw
    accelerated: bool = False  # Acceleration this turn
    jammed: bool = False  # Jamming this turn

    def copy(self) -> MacPile:
        """Field by field, like `Character.copy`; the piles are the copy's own."""
        new = MacPile.__new__(MacPile)
        new.level = self.level
        new.draw = None if self.draw is None else list(self.draw)
        new.discard = list(self.discard)
        new.in_play = list(self.in_play)
        new.drawn = list(self.drawn)
        new.bombs = self.bombs
        new.current = self.current
        new.due = self.due
        new.after = self.after
        new.drawer = self.drawer
        new.queued = self.queued
        new.card_drawer = self.card_drawer
        new.madness_rounds = self.madness_rounds
        new.accelerated = self.accelerated
        new.jammed = self.jammed
        return new


@dataclass(slots=True)
class GameState:
    ruleset: Ruleset
    rng: int
    seats: dict[str, Seat]
    characters: dict[str, Character]
    tiles: dict[TileId, Tile]
    cells: list[TileId]  # the tile at each of the 25 cells (empty when the board is not tracked)
    order: list[str]  # turn order of living characters, first player first
    composition: dict[str, int]  # the rooms of this game's complex (public)
    version: int = 0
    phase: str = "clue"  # clue, programming, action, over
    turn: int = 1
    turns_left: int = 10
    alarm: bool = False
    round: int = 1
    current: str | None = None  # character whose action is next
    previous: str | None = None  # character whose action just ended (may still place a token)
    pending: dict | None = None  # a choice or a chance outcome the game waits for
    controls: dict[str, str] = field(default_factory=dict)  # line key -> direction this turn
    deaths: list[str] = field(default_factory=list)  # eliminated characters, in order
    arrivals: int = 0  # counter behind Character.entered
    robots: tuple[TileId, ...] = ()  # the tile under each robot in the complex (public)
    key_activated: bool = False  # the Key room was entered: Room 25 may leave (Cooperation)
    locks: tuple[TileId, ...] = ()  # the tiles under Lock tokens (public)
    carrying: tuple[str, str] | None = None  # a Carry under way this action: carrier, carried
    outcome: dict | None = None
    mac: MacPile | None = None  # the M.A.C. deck's piles, when the game plays it
    mac_deck: Deck | None = None  # its card definitions (immutable, shared)
    room25: TileId | None = None  # the Room 25 tile once face up (evolve keeps it as tiles change)
    timer_played: bool = False  # countdown-only games: the table reported the Timer room
    # Characters this state alone holds (copied since its last `clone`): evolve changes them in
    # place; any other is shared with other versions and copied before it changes. `NOBODY`
    # until the version copies one (`evolve._character` then puts a set of its own).
    fresh: AbstractSet[str] = field(default_factory=set, compare=False, repr=False)
    # The cell of each tile in `cells`, its inverse, set with it by `lay`: finding a tile's
    # cell, in most commands and change feeds, is then a lookup rather than a scan of 25 cells.
    places: dict[TileId, Cell] = field(default_factory=dict, compare=False, repr=False)
    # Whether the engine follows the board (cells laid), set with them by `lay`: asked a few
    # times a command, and a property's call cost more than the rest of the question.
    tracked: bool = field(default=False, compare=False, repr=False)

    @property
    def last_turn(self) -> bool:
        return self.turns_left == 1

    # `CELLS[i]` rather than `Cell(i)`: the same int, typed, without a call on the hot path.
    def lay(self, cells: list[TileId]) -> None:
        """Put the tiles on the cells, `cells[i]` on cell i (a new list: states share theirs)."""
        self.cells = cells
        self.places = {tile: CELLS[i] for i, tile in enumerate(cells)}
        self.tracked = bool(cells)

    def cell_of(self, tile: TileId) -> Cell:
        return self.places[tile]

    def tile_at(self, cell: Cell) -> Tile:
        return self.tiles[self.cells[cell]]

    def where(self, character: str) -> Cell | None:
        tile = self.characters[character].tile
        return None if tile is None else self.places[tile]

    def here(self, character: str) -> Cell:
        """The cell of a character the rule knows is standing in the complex."""
        tile = self.characters[character].tile
        assert tile is not None, f"{character} is not in the complex"
        return self.places[tile]

    def occupants(self, tile: TileId) -> list[str]:
        return [c.id for c in self.characters.values() if c.alive and c.tile == tile]

    def robots_in(self, tile: TileId) -> int:
        return self.robots.count(tile)

    def living(self) -> list[Character]:
        return [c for c in self.characters.values() if c.alive]

    def clone(self) -> GameState:
        """The next version of the state. It shares every value with this one: evolve puts a
        new list, table or tile in place of one it changes, never changes one in place, and
        copies a character the first time the new version changes him (`evolve._character`).
        Field by field, like `Character.copy`: every command starts here."""
        new = GameState.__new__(GameState)
        new.ruleset = self.ruleset
        new.rng = self.rng
        new.seats = self.seats
        new.characters = self.characters.copy()
        new.tiles = self.tiles
        new.cells = self.cells
        new.places = self.places
        new.tracked = self.tracked
        new.order = self.order
        new.composition = self.composition
        new.version = self.version
        new.phase = self.phase
        new.turn = self.turn
        new.turns_left = self.turns_left
        new.alarm = self.alarm
        new.round = self.round
        new.current = self.current
        new.previous = self.previous
        new.pending = self.pending
        new.controls = self.controls
        new.deaths = self.deaths
        new.arrivals = self.arrivals
        new.robots = self.robots
        new.key_activated = self.key_activated
        new.locks = self.locks
        new.carrying = self.carrying
        new.outcome = self.outcome
        new.mac = self.mac
        new.mac_deck = self.mac_deck
        new.room25 = self.room25
        new.timer_played = self.timer_played
        # From now on both versions hold these characters: no set made for either, since most
        # commands copy one character or none.
        new.fresh = self.fresh = NOBODY
        return new
