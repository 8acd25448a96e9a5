"""The shape of an update, the one type every listener reads across the layers (the hardware,
the voice and the web), so that a consumer reading a key no update has fails the type check."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from companion import engine


class TableUpdate(TypedDict):
    """What every listener reads, the one type of an update across the layers (the hardware,
    the voice and the web): the game and its version, the audience's view (None before a game
    or for a seat not in it), the events it may see, what the game waits for, the session's
    part (its timer read when built), whether it replaces a dropped backlog, and, for every
    audience but the public one, the legal commands."""

    game: str | None
    version: int
    view: engine.PublicView | None  # a SeatView or, at the reveal, a FullView for the host
    events: list[dict]
    waiting: engine.WaitingView
    session: dict
    resync: bool
    legal: NotRequired[list[dict]]
