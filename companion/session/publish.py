"""What one change of the table sends: the views of its state built once (the public part shared
by every audience), one update per audience that hears of the change, each encoded to JSON once
however many streams send it, and nothing built for an audience that hears nothing.

A Pi Zero 2 W is several times slower than a desktop core: eight seats, the host and the table
listening, the views and their JSON were most of a tap's cost when each audience rebuilt the
public part and each stream encoded its own copy."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from companion import engine
from companion.teaching.preview import seat_previews

from .listeners import Listener, Update
from .shapes import Event, SessionInfo, SessionPart, TableUpdate, WireCommand
from .timer import ProgrammingTimer

PUBLIC, HOST = "public", "host"


@dataclass
class Published:
    """What the listeners and snapshots read: replaced whole by the writer, never changed
    afterwards except for its caches (each view and each audience's legal commands built once
    per change, when first asked for).

    The programming clock is kept as its deadline and read when an update is built: a snapshot
    read later says the time left then, whatever was published meanwhile. A seat's private
    programme publishes; a `left` frozen at publishing would tell the table that it did."""

    game: str | None
    state: engine.GameState | None
    waiting: engine.WaitingView
    session: SessionInfo
    timer: ProgrammingTimer = field(default_factory=ProgrammingTimer)
    now: Callable[[], float] = time.monotonic
    views: dict[str, engine.PublicView | None] = field(default_factory=dict)
    legal: dict[str, list[WireCommand]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _shared: engine.Views | None = None

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else 0

    def view(self, audience: str) -> engine.PublicView | None:
        with self.lock:
            if audience not in self.views:
                self.views[audience] = self._build(audience)
            return self.views[audience]

    def _build(self, audience: str) -> engine.PublicView | None:
        state = self.state
        if state is None:
            return None
        if audience == HOST and self.waiting.get("phase") == "over":
            return engine.full_view(state)
        if audience not in (PUBLIC, HOST) and audience not in state.seats:
            return None
        if self._shared is None:
            self._shared = engine.Views(state)
        if audience in (PUBLIC, HOST):  # the host's view is the public one until the reveal
            return self._shared.public
        return self._shared.seat(audience)

    def commands(self, seat: str) -> list[WireCommand]:
        """A seat's legal commands (or the table's own, for the host), so its page offers only
        what the rules allow; built once per change like the views (a seat's depend on public
        facts and its own secrets, the table's on public facts only)."""
        with self.lock:
            if seat not in self.legal:
                self.legal[seat] = self._legal(seat)
            return self.legal[seat]

    def _legal(self, seat: str) -> list[WireCommand]:
        state = self.state
        if state is None or self.waiting.get("phase") == "over":
            return []
        if seat != engine.HOST and seat not in state.seats:
            return []
        return engine.legal_commands(state, seat)

    @staticmethod
    def events_for(audience: str, events: list[Event]) -> list[Event]:
        """The events of a change this audience may see."""
        seat = None if audience in (PUBLIC, HOST) else audience
        return engine.events_for(events, seat) if events else []

    def update(
        self,
        audience: str,
        shown: list[Event],
        resync: bool = False,
        session: SessionPart | None = None,
    ) -> TableUpdate:
        """What an audience is sent: `shown` are the events it may see (`events_for`);
        `session` the session's part with its timer read, when the caller read it already."""
        found = TableUpdate(
            game=self.game,
            version=self.version,
            view=self.view(audience),
            events=shown,
            waiting=self.waiting,
            session=self.session_now() if session is None else session,
            resync=resync,
        )
        if audience != PUBLIC:
            found["legal"] = self.commands(engine.HOST if audience == HOST else audience)
        # The host has the table taught: each seat's update has its previews.
        if self.session["teaching"]["on"] and audience not in (PUBLIC, HOST):
            found["previews"] = self.previews(audience)
        return found

    def previews(self, seat: str) -> list[dict[str, object]]:
        """A seat's previews of its own choices, from its own view and legal commands only
        (never the public part: another seat's choices say what that seat knows)."""
        view = self.view(seat)
        if view is None or "notebook" not in view:
            return []
        return seat_previews(view, self.commands(seat))  # type: ignore[arg-type]

    def session_now(self) -> SessionPart:
        """The session's part of an update, the programming clock read now."""
        return {**self.session, "timer": self.timer.as_dict(self.now())}


def tell(
    published: Published, listeners: Iterable[Listener], events: list[Event], quiet: bool
) -> list[Listener]:
    """Give each listener its audience's update of this change: one update per audience,
    however many listen to it, the clock read once for all of them. A `quiet` change (nothing
    anyone sees changed besides the events) reaches only the audiences that see an event of it:
    when only a seat's private events happened (a programme), the others must not even get an
    empty update. The listeners told, for the readers of many (`Session.after_telling`)."""
    updates: dict[str, Update | None] = {}
    session: SessionPart | None = None
    listening = list(listeners)
    for listener in listening:
        audience = listener.audience
        if audience not in updates:
            shown = published.events_for(audience, events)
            if quiet and not shown:
                updates[audience] = None
            else:
                session = session or published.session_now()
                updates[audience] = Update(published.update(audience, shown, session=session))
    told = []
    for listener in listening:  # every update made before any reader wakes to compete for it
        update = updates[listener.audience]
        if update is not None:
            listener.put(update)
            told.append(listener)
    return told
