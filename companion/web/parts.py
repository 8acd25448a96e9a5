"""The parts one app serves (its session, who may act, its streams, the table's hardware), kept
by `create_app` in Flask's `app.extensions` and read back here with their types: the one place
where the web layer meets Flask's untyped store."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, current_app

from companion.session import Session

from .access import Access
from .episodes import Episodes
from .stream import Streams

if TYPE_CHECKING:  # optional: the pages work without it
    from companion.hardware.table import Hardware

_SESSION = "room25.session"
_ACCESS = "room25.access"
_STREAMS = "room25.streams"
_HARDWARE = "room25.hardware"
_EPISODES = "room25.episodes"


def keep(app: Flask, session: Session, access: Access, hardware: Hardware | None) -> None:
    app.extensions[_SESSION] = session
    app.extensions[_ACCESS] = access
    streams = Streams()
    session.after_telling(streams.writer.told)
    app.extensions[_STREAMS] = streams
    app.extensions[_HARDWARE] = hardware
    app.extensions[_EPISODES] = Episodes()


def session() -> Session:
    found: Session = current_app.extensions[_SESSION]
    return found


def access(app: Flask | None = None) -> Access:
    """Who may act (the host PIN, the seats' cookies); of `app` before it serves a request."""
    found: Access = (app or current_app).extensions[_ACCESS]
    return found


def streams() -> Streams:
    found: Streams = current_app.extensions[_STREAMS]
    return found


def episodes() -> Episodes:
    found: Episodes = current_app.extensions[_EPISODES]
    return found


def hardware() -> Hardware | None:
    found: Hardware | None = current_app.extensions.get(_HARDWARE)
    return found
