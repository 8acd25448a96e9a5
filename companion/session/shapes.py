"""The shapes that cross the layers: an update, the one type every listener reads (the hardware,
the voice and the web), the session's part of it, and a game's export, which the story, the web
and the CLI read, so that a consumer reading a key none of them has fails the type check."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from companion import engine
from companion.teaching.setup import SetupStepView


class TimerView(TypedDict):
    """The programming clock as an update carries it: the seconds left (None once stopped),
    read when the update is built, and the limit."""

    left: float | None
    limit: float


class NoticeView(TypedDict):
    """A notice as an update carries it (`Notice.as_dict`): its code and parameters, which
    each screen puts into its own language, and the English line."""

    code: str
    params: dict[str, object]
    text: str


class SetupWalkView(TypedDict):
    """The set-up being taught: this game's steps and the one the table is at."""

    at: int
    steps: list[SetupStepView]


class TeachingView(TypedDict):
    """Whether the host has the table taught, and the lessons taught this evening (public: they
    fired on public events)."""

    on: bool
    taught: list[str]


class SessionInfo(TypedDict):
    """The session's part of an update as the writer publishes it: paused by the host, the
    notices about this game, the seats locked in, whether the change was an undo, whether
    the game is rigged (a teaching game), teaching and, while teaching, the set-up step the
    table is at."""

    paused: bool
    notices: list[NoticeView]
    lock_ins: list[str]
    undone: bool
    rigged: bool
    teaching: TeachingView
    setup: NotRequired[SetupWalkView]  # only while teaching walks the table through the set-up


class SessionPart(SessionInfo):
    """The session's part as every audience reads it: `SessionInfo` and the programming clock
    (None without a time limit), read when the update is built."""

    timer: TimerView | None


# An engine event (engine/face/shapes.py: `EVENT_FIELDS`) or the session's own, as it is built
# and as the journal gives it back. Its fields depend on its type: a TypedDict cannot leave its
# keys open (PEP 728's `extra_items`, which mypy does not read yet), so it stays a dictionary.
Event = dict[str, object]
# A command in its wire form (`engine.wire`, `engine.legal_commands`): its fields depend on its
# type, as an event's do.
WireCommand = dict[str, object]


class TableUpdate(TypedDict):
    """What every listener reads, the one type of an update across the layers (the hardware,
    the voice and the web): the game and its version, the audience's view (None before a game
    or for a seat not in it), the events it may see, what the game waits for, the session's
    part (its timer read when built), whether it replaces a dropped backlog, and, for every
    audience but the public one, the legal commands."""

    game: str | None
    version: int
    view: engine.PublicView | None  # a SeatView or, at the reveal, a FullView for the host
    events: list[Event]
    waiting: engine.WaitingView
    session: SessionPart
    resync: bool
    legal: NotRequired[list[WireCommand]]  # each command the rules allow
    previews: NotRequired[list[dict[str, object]]]  # a seat's own, when the table is taught


class HostArgs(TypedDict, total=False):
    """The arguments of the host's actions (`Session.host`, `host.HOST_ACTIONS`), each action
    taking its own: a caller misspelling one, or passing the wrong kind, fails the type check
    instead of being refused at the table. The action still checks each value it is given."""

    setup: dict[str, object]  # new_game: the setup as the host page sent it
    count: int  # undo: how many commands
    seat: str  # reset_seat, press_seat
    freed: bool  # reset_seat: the web layer let the seat's phone go
    on: bool  # teaching: on or off for the evening
    lesson: str  # replay_lesson: which lesson


class SeatAsk(TypedDict):
    """A phone's request for a seat (`Session.asking`): the seat and the code it shows."""

    seat: str
    ask: str


class GameListing(TypedDict):
    """One game of the history as `Session.games()` lists it (`archive.listing`), for the web,
    the CLI and the replay pages: nothing secret. The setup's fields are as the host sent them
    (the engine accepted them), read back from the journal."""

    game: str
    status: str  # playing, over, ended or abandoned
    edition: object  # "base" when the setup names none
    mode: object  # "suspicion" when the setup names none
    tracking: object  # "dealt" when the setup names none
    players: object  # None when the setup names none
    outcome: dict[str, object] | None  # once over
    created: float
    ended: float | None
    commands: int  # those the table saw (a running game), else every command


class ExportedCommand(TypedDict):
    """One command of a finished game's export as the journal holds it, undone ones too."""

    seq: int
    command: WireCommand
    source: str
    version: int  # the game's version before the command
    accepted: float
    undone: bool
    events: list[Event]


class ExportHead(TypedDict):
    """What every export starts with (`archive.export`): its format, the game's record and
    the names the host typed for the seats (a file written before the table had names has
    none)."""

    format: str
    format_version: int
    game: str
    status: str  # playing, over, ended or abandoned
    setup: dict[str, object]
    options: dict[str, object]
    created: float
    ended: float | None
    outcome: dict[str, object] | None
    names: NotRequired[dict[str, str]]


class FinishedExport(ExportHead):
    """A game the table saw end: everything, its secrets being out (the seed, the events of
    the start and every command with its own)."""

    complete: Literal[True]
    seed: int
    start: list[Event]
    commands: list[ExportedCommand]


class OpenExport(ExportHead):
    """A game still being played or set aside: what the whole table may see, its setup without
    what deals the hidden parts and the public record of its events."""

    complete: Literal[False]
    public_events: list[Event]


Export = FinishedExport | OpenExport
