"""The table session: one writer thread owns the game. Seat buttons, the serial panel, phones,
the host page and the CLI all hand it commands; it applies them in order, writes each accepted
command durably to the journal, answers the sender, and only then tells every listener, each
with its own view (public, a seat's, or the host's).

Its rooms, each one job (docs/session.md, "The session's rooms"): core.py (the state, the
writer's call, telling everyone), timing.py (the programming clock), seating.py (seats asked
for and given), playing.py (commands to the game), host.py (the host's actions, one table)."""

from __future__ import annotations

import inspect
import logging
import queue
import threading
from collections.abc import Callable
from typing import TypeVar, Unpack

from . import archive
from .core import _STOP, _TICK, _Job
from .host import HOST_ACTIONS, HostActions
from .journal import Journal, JournalError, move_aside
from .listeners import Listener
from .notices import Notice
from .playing import seat_press
from .publish import HOST, PUBLIC
from .replies import Reply, accepted, refused
from .shapes import Export, GameListing, HostArgs, TableUpdate

log = logging.getLogger(__name__)
T = TypeVar("T")  # what a read of the journal finds


class Session(HostActions):
    """One game at a time, one writer thread, one journal file."""

    # -- life ----------------------------------------------------------------------------------

    def open(self) -> None:
        """Open the journal (moving an unreadable one aside) and put back the game the table
        showed: one being played, or one just over (its outcome screen)."""
        try:
            self._journal.open()
        except JournalError as error:
            if not error.unreadable:
                raise
            self.moved_aside = move_aside(self.journal_path)
            log.error(
                "%s; it was moved aside to %s and a new journal started", error, self.moved_aside
            )
            self._journal = Journal(self.journal_path)
            self._journal.open()
        try:
            record = self._journal.on_the_table()
        except JournalError as error:  # a game row the companion did not write: none resumed
            log.error("%s; no game was resumed", error)
            record = None
        if record is not None:
            try:
                self._game = self._resume(record)
            except Exception as error:  # events this engine cannot fold: keep them, say so
                log.error(
                    "game %s cannot be resumed (%r); it stays in the journal, set aside",
                    record.id,
                    error,
                )
                self._journal.abandon(record.id)
                self._notices["resume"] = Notice("game_not_resumed", {"game": record.id})
            else:
                log.info("resumed game %s at command %d", record.id, self._game.next_seq - 1)
        self._closed = False
        self._sync_timer(entering=True)
        self._publish([])
        self._thread = threading.Thread(target=self._write_loop, name="room25-writer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the writer after the commands already queued, then close the journal."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(_STOP)
        if self._thread is not None:
            self._thread.join()
        self._journal.close()
        with self._listeners_lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener.close()

    def __enter__(self) -> Session:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the writer ----------------------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            timeout = self.clock.schedule(self._next_deadline(), self._wake)
            try:
                job = self._jobs.get(timeout=timeout)
            except queue.Empty:
                job = _TICK
            if job is _STOP:
                break
            if isinstance(job, _Job):
                try:
                    job.result = job.run()
                except Exception:  # a bug must not kill the writer: the sender is told
                    log.exception("the session failed on a request")
                    failed = refused("session_failed", self._version(), self._game_id())
                    job.result = failed if job.refuses else job.closed
                job.done.set()
            self._check_timer()
            self._check_seats()
        while True:  # anyone still waiting is told the companion is stopping
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if isinstance(job, _Job):
                job.result = job.closed
                job.done.set()

    def _wake(self) -> None:
        self._jobs.put(_TICK)

    def _next_deadline(self) -> float | None:
        ends = [
            d
            for d in (self._timer.next_deadline(), self._seat_asks.next_deadline())
            if d is not None
        ]
        return min(ends, default=None)

    # -- inputs --------------------------------------------------------------------------------

    def submit(self, command: dict[str, object], source: str = "web") -> Reply:
        """Apply one command (thread-safe); blocks until it is applied and journaled."""
        return self._call(lambda: self._apply(command, source))

    def press_seat(self, seat: str) -> Reply:
        """A seat button: lock in, or unlock when already locked in."""
        return self._call(lambda: self._press_and_tell(seat))

    def control(self, button: str, long: bool = False) -> Reply:
        """The table's buttons: Next (the set-up's next step while it is taught, else the current
        action is done, countdown-only games), Back
        held (undo the last command), Menu (pause or resume the programming clock)."""
        if button == "next":
            return self._call(self._next_pressed)
        if button == "back":
            return self.host("undo", count=1) if long else refused("hold_back_to_undo")
        if button == "menu":
            if long:  # the hardware shows the PIN on the OLED; the clock is left alone
                return refused("menu_long_shows_pin")
            return self.host("resume" if self._timer.paused else "pause")
        return refused("unknown_button", button=str(button)[:20])

    def host(self, action: str, **args: Unpack[HostArgs]) -> Reply:
        """The host's actions (host.HOST_ACTIONS): new_game(setup), undo(count), pause, resume,
        end_game, reset_seat(seat, freed), press_seat(seat), teaching(on), replay_lesson(lesson),
        and once the programming time is up more_time or lock_in_late. The arguments are typed
        (`HostArgs`) for the callers' type check; an unknown action, or an argument its action
        does not take, is still refused at run time."""
        entry = HOST_ACTIONS.get(action)
        try:
            if entry is None:
                raise TypeError(action)
            inspect.signature(entry.effect).bind(self, **args)
        except TypeError:
            return refused("unknown_action", action=str(action)[:30])
        return self._call(lambda: self._act(entry, args))

    def resume_game(self, game: str) -> Reply:
        """Play again a game that a new game replaced (it stayed in the journal, "abandoned");
        the game in play, if any, is replaced in its turn and can be resumed the same way."""
        return self._call(lambda: self._resume_replaced(str(game)))

    def set_notice(self, key: str, notice: Notice | None) -> None:
        """A public problem shown to everyone (`phone_offline`, a device missing); None clears."""
        self._call(lambda: self._notice(key, notice))

    def healthy(self, timeout: float = 5.0) -> bool:
        """The writer answers within `timeout` seconds (what systemd's watchdog is told)."""
        if self._closed:
            return False
        job = _Job(lambda: True, False, refuses=False)
        self._jobs.put(job)
        return job.done.wait(timeout) and job.result is True

    # -- outputs -------------------------------------------------------------------------------

    def listen(self, audience: str) -> Listener:
        """A bounded queue of updates for "public", "host" or a seat id."""
        listener = Listener(audience, self.snapshot, self._forget, self._queue_size)
        with self._listeners_lock:
            self._listeners.append(listener)
        return listener

    def after_telling(self, reader: Callable[[list[Listener]], None]) -> None:
        """Have `reader` handed the listeners each change reached, on the writer's own turn
        right after: a reader of many listeners (the web's streams) serves them all there,
        rather than a thread of its own being woken for every change (issue 29, point 2)."""
        with self._listeners_lock:
            self._readers.append(reader)

    def _forget(self, listener: Listener) -> None:
        with self._listeners_lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def snapshot(self, audience: str) -> TableUpdate:
        return self._published.update(audience, [])

    def seat_claims(self) -> dict[str, str]:
        """Which phone holds each seat (digests of their secrets), kept across a restart so a
        pulled plug frees no seat for another phone to take."""
        return self._call(self._journal.seat_claims, closed={})

    def claim_seat(self, seat: str, digest: str | None) -> bool:
        """Record, durably, that a phone holds a seat (digest None: the seat is free); False
        when the journal cannot be written (the phone keeps its seat until a restart)."""

        def run() -> bool:
            try:
                self._journal.claim_seat(seat, digest)
            except JournalError as error:
                log.warning("seat %s: %s", seat, error)
                return False
            return True

        return self._call(run, closed=False)

    def games(self) -> list[GameListing]:
        """Every game in the journal, oldest first (no secrets); read beside the writer, as
        every read of past games is (`Journal.read`): a replay flood never delays a press."""
        return self._journal.read(archive.listing, closed=[])

    def export(self, game: str) -> Export | None:
        """One game as JSON; an unfinished game's secrets are left out."""
        return self._journal.read(lambda journal: archive.export(journal, game), closed=None)

    def reading(self, read: Callable[[Journal], T]) -> T | None:
        """What `read` finds in the journal (None once closing): for the views of past games
        built elsewhere (the table's history)."""
        return self._journal.read(read, closed=None)

    def set_names(self, game: str, names: dict[str, str]) -> Reply | None:
        """A game's names as a whole (checked by the caller); None when there is no such game."""

        def run() -> Reply | None:
            if self._journal.game(game) is None:
                return None
            try:
                self._journal.set_names(game, names)
            except JournalError as error:
                return self._unwritable(error)
            return accepted(self._version(), self._game_id())

        return self._call(run)


__all__ = ["HOST", "PUBLIC", "Session", "seat_press"]
