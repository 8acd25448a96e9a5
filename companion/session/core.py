"""The session's own state, shared by its rooms: the game being played, the notices on every
screen, the clocks and the seat requests, and the two things every room does with them: run on
the writer thread (`_call`) and tell every listener what changed (`_publish`).

The rooms (`timing`, `seating`, `playing`, `host`) each add the methods of one job; `Session`
(session.py) puts them together with the writer's loop and the public calls."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Generic, TypeVar, overload

from companion import engine
from companion.teaching.setup import SetupStepView, setup_steps

from .clock import Clock, SystemClock
from .journal import GameRecord, Journal, JournalError
from .listeners import QUEUE_SIZE, Listener
from .notices import Notice, about_the_game
from .publish import Published, tell
from .replies import Reply, accepted, refused
from .seats import SeatAsks
from .shapes import SessionInfo
from .taught import FILE as TAUGHT_FILE
from .taught import TaughtBook, WalkMark
from .timer import ProgrammingTimer

# The session's one log, whichever room writes (its lines read as they did from session.py).
log = logging.getLogger("companion.session.session")


@dataclass
class _Applied:
    seq: int
    events: list[dict]


@dataclass
class _Game:
    record: GameRecord
    start: list[dict]
    applied: list[_Applied]
    state: engine.GameState
    next_seq: int

    @property
    def dealt(self) -> bool:
        return self.record.setup.get("tracking", "dealt") == "dealt"


T = TypeVar("T")  # what a job's run answers
U = TypeVar("U")  # what it answers when the session stops first, or its run fails


@dataclass
class _Walk:
    """The physical set-up taught step by step (teaching/setup.py) for one new game: it lasts
    until its last step is done or the game moves on (a first command, another game). The step
    it is at is kept in the evening's book (`SessionCore._follow_walk`)."""

    game: str
    steps: list[SetupStepView]
    at: int = 0


@dataclass
class _Job(Generic[T, U]):
    run: Callable[[], T]
    closed: U  # the answer if the session stops before running it, or the run fails
    refuses: bool  # whether a run that fails answers a refusal (else `closed`)
    done: threading.Event = field(default_factory=threading.Event)
    result: T | U | None = None


_TICK = object()
_STOP = object()


class SessionCore:
    """What every room of the session reads and changes; only the writer thread changes it."""

    def __init__(
        self,
        journal_path: Path,
        clock: Clock | None = None,
        *,
        time_limit: float = 0,
        warning: float = 15,
        queue_size: int = QUEUE_SIZE,
    ) -> None:
        self.journal_path = Path(journal_path)
        self.clock: Clock = clock or SystemClock()
        self.moved_aside: Path | None = None
        self._journal = Journal(self.journal_path)
        self._default_limit, self._default_warning = time_limit, warning
        self._queue_size = queue_size
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._listeners: list[Listener] = []
        self._readers: list[Callable[[list[Listener]], None]] = []  # `Session.after_telling`
        self._listeners_lock = threading.Lock()
        self._game: _Game | None = None
        self._timer = ProgrammingTimer(0, warning)
        self._notices: dict[str, Notice] = {}
        self._lessons = TaughtBook(self.journal_path.with_name(TAUGHT_FILE), self.clock.wall)
        self._walk: _Walk | None = None
        self._seat_asks = SeatAsks()
        self._seat_given: list[Callable[[str, str], None]] = []
        self._last_seen: tuple = ()
        self._closed = True
        self._published = Published(
            None, None, {"phase": "none"}, self._session_info(False, []), now=self.clock.now
        )

    @overload
    def _call(self, run: Callable[[], T]) -> T | Reply: ...
    @overload
    def _call(self, run: Callable[[], T], closed: U) -> T | U: ...
    def _call(self, run: Callable[[], object], closed: object = _STOP) -> object:
        """Run on the writer and wait for it. Once stopping, or if the run fails, the answer
        is `closed`; by default a refusal, so a read that fails is never answered as a write."""
        job = _Job(run, refused("session_closed") if closed is _STOP else closed, closed is _STOP)
        if self._closed:
            return job.closed
        self._jobs.put(job)
        # Normally woken at once; the timeout only matters if the session closes meanwhile.
        while not job.done.wait(1.0):
            if self._thread is None or not self._thread.is_alive():
                return job.closed
        return job.result

    def _version(self) -> int:
        return self._game.state.version if self._game else 0

    def _game_id(self) -> str | None:
        return self._game.record.id if self._game else None

    def _unwritable(self, error: JournalError) -> Reply:
        """A write the journal refused (read back: not in the file), or one it cannot tell
        about (`unsure`: the file could not be read back), said so on every screen."""
        log.error("%s", error)
        problem = str(error).rsplit(": ", 1)[-1]
        if error.unsure:
            self._notice("journal", Notice("journal_unsure", {"problem": problem}))
            return refused("journal_unsure", self._version(), self._game_id(), problem=problem)
        self._notice("journal", Notice("journal_unwritable", {"problem": problem}))
        return refused("journal_unwritable", self._version(), self._game_id(), problem=problem)

    def _notice(self, key: str, notice: Notice | None, publish: bool = True) -> Reply:
        changed = self._notices.get(key) != notice
        if notice is None:
            self._notices.pop(key, None)
        else:
            self._notices[key] = notice
        if changed and publish:
            self._publish([])
        return accepted(self._version(), self._game_id())

    def _session_info(self, undone: bool, lock_ins: list[str]) -> SessionInfo:
        """The session's part of an update; its `timer` is read when the update is built."""
        rigged = self._rigged()
        seats = set(self._game.state.seats) if self._game is not None else None
        notices = about_the_game(self._notices.values(), seats)
        notices += [Notice("rigged_game")] if rigged else []
        info: SessionInfo = {
            "paused": self._timer.paused,
            "notices": [notice.as_dict() for notice in notices],
            "lock_ins": lock_ins,
            "undone": undone,
            "rigged": rigged,
            "teaching": {"on": self._lessons.on, "taught": self._lessons.taught},
        }
        if self._walk is not None:
            info["setup"] = {"at": self._walk.at, "steps": self._walk.steps}
        return info

    def _rigged(self) -> bool:
        """A rigged (teaching) game: its setup chose the seed, roles or complex; every screen
        says so for the whole game."""
        return self._game is not None and self._game.record.options.get("rigged") is True

    def _publish(self, events: list[dict], undone: bool = False) -> None:
        game = self._game
        state = game.state if game else None
        waiting = engine.waiting_for(state).as_dict() if state is not None else {"phase": "none"}
        self._teach(events, undone)
        self._follow_walk()
        info = self._session_info(undone, list(waiting.get("locked_in", [])))
        published = Published(
            game.record.id if game else None,
            state,
            waiting,
            info,
            replace(self._timer),
            self.clock.now,
        )
        self._published = published
        # What everyone sees of this change besides the events (`tell` says why it matters).
        seen = (
            published.game,
            published.version,
            info["paused"],
            tuple(info["notices"]),
            tuple(info["lock_ins"]),
            undone,
            info["teaching"]["on"],
            self._walk.at if self._walk is not None else None,
        )
        quiet, self._last_seen = seen == self._last_seen, seen
        with self._listeners_lock:
            listeners, readers = list(self._listeners), list(self._readers)
        told = tell(published, listeners, events, quiet)
        for reader in readers if told else ():
            try:
                reader(told)
            except Exception:  # a reader's failure must not stop the session's writer
                log.exception("a reader of the listeners failed")

    def _teach(self, events: list[dict], undone: bool) -> None:
        """The lessons this change fires, from its public events only, as the table's notice
        (an undo teaches nothing: what it takes back was taught already)."""
        if self._game is None or undone or not events:
            return
        fired = self._lessons.hear(engine.events_for(events, None))
        if fired:
            self._notices["lesson"] = self._lessons.notice(fired)

    def _follow_walk(self) -> None:
        """The set-up walk belongs to the game on the table before its first command. The step
        it is at is kept in the evening's book, not the journal: it is teaching, not the game
        (no undo, export or replay has anything to do with it), and the book is the file a
        restart already reads for teaching. A restart mid set-up takes the same step up again."""
        game, walk = self._game, self._walk
        if game is None or game.applied:
            walk = None
        elif walk is None or walk.game != game.record.id:
            walk = self._walk_again(game)
        self._walk = walk
        self._lessons.walked(None if walk is None else WalkMark(walk.game, walk.at))

    def _walk_again(self, game: _Game) -> _Walk | None:
        """The walk the book says this game was in (after a restart), at the same step."""
        mark = self._lessons.walk
        if mark is None or mark.game != game.record.id:
            return None
        steps = walk_steps(game.state, game.record.setup)
        return _Walk(mark.game, steps, mark.at) if mark.at < len(steps) else None


def walk_steps(state: engine.GameState, setup: dict) -> list[SetupStepView]:
    """A new game's set-up steps as the session part carries them: public facts only."""
    return [step.as_dict() for step in setup_steps(engine.public_view(state), setup)]


def _replay(start: list[dict], applied: list[_Applied]) -> engine.GameState:
    """The game's state from its start and the commands still standing."""
    return engine.replay([*start, *(e for a in applied for e in a.events)])
