"""The running game at the table: one writer thread, a crash-safe SQLite journal, undo,
lock-ins and the programming clock. See docs/session.md."""

from .clock import Clock, FakeClock, SystemClock
from .journal import Journal, JournalError
from .listeners import Listener
from .notices import Notice
from .replies import Reply, ReplyView
from .session import HOST, PUBLIC, Session, seat_press
from .shapes import GameListing, HostArgs, NoticeView, SessionPart, TableUpdate

__all__ = [
    "HOST",
    "PUBLIC",
    "Clock",
    "FakeClock",
    "GameListing",
    "HostArgs",
    "Journal",
    "JournalError",
    "Listener",
    "Notice",
    "NoticeView",
    "Reply",
    "ReplyView",
    "Session",
    "SessionPart",
    "SystemClock",
    "TableUpdate",
    "seat_press",
]
