"""The table session: one writer thread owns the game. Seat buttons, the serial panel, phones,
the host page and the CLI all hand it commands; it applies them in order, writes each accepted
command durably to the journal, answers the sender, and only then tells every listener, each
with its own view (public, a seat's, or the host's)."""

from __future__ import annotations

import inspect
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion import engine, words
from companion.config import MAX_TIME_LIMIT

from . import archive, undo
from .clock import Clock, SystemClock
from .journal import GameRecord, Journal, JournalError, dump, move_aside
from .listeners import QUEUE_SIZE, Listener
from .notices import Notice, about_the_game
from .publish import HOST, PUBLIC, Published, tell
from .replies import Reply, accepted, from_refusal, refused
from .seats import SeatAsks
from .text import unwritable
from .timer import ProgrammingTimer

log = logging.getLogger(__name__)


def seat_press(waiting: dict, seat: str) -> dict:
    """A seat button (or the phone's lock-in button) as an engine command: a seat that is locked
    in during programming unlocks (its player changed his mind), any other press locks in."""
    locked = waiting.get("phase") == "programming" and seat in waiting.get("locked_in", ())
    return {"type": "unlock" if locked else "lock", "seat": seat}


@dataclass
class _Applied:
    seq: int
    events: list[dict]


@dataclass
class _Game:
    record: GameRecord
    start: list[dict]
    applied: list[_Applied]
    state: Any
    next_seq: int

    @property
    def dealt(self) -> bool:
        return self.record.setup.get("tracking", "dealt") == "dealt"


@dataclass
class _Job:
    run: Callable[[], Any]
    closed: Any  # the answer if the session stops before running it
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None


_TICK = object()
_STOP = object()


class Session:
    """One game at a time, one writer thread, one journal file."""

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
        self._listeners_lock = threading.Lock()
        self._game: _Game | None = None
        self._timer = ProgrammingTimer(0, warning)
        self._notices: dict[str, Notice] = {}
        self._seat_asks = SeatAsks()
        self._seat_given: list[Callable[[str, str], None]] = []
        self._last_seen: tuple = ()
        self._closed = True
        self._published = Published(
            None, None, {"phase": "none"}, self._session_info(False, []), now=self.clock.now
        )

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
        record = self._journal.on_the_table()
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

    def _resume(self, record: GameRecord) -> _Game:
        start = self._journal.start_events(record.id)
        commands = self._journal.commands(record.id)
        applied = [_Applied(c.seq, c.events) for c in commands if not c.undone]
        state = _replay(start, applied)
        next_seq = (commands[-1].seq if commands else 0) + 1
        self._apply_options(record.options)
        return _Game(record, start, applied, state, next_seq)

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
                    job.result = refused(
                        "unspecified", self._version(), self._game_id(), text="internal error"
                    )
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

    def _call(self, run: Callable[[], Any], closed: Any = _STOP) -> Any:
        """Run on the writer and wait for it; `closed` (a refusal by default) once stopping."""
        gone = refused("session_closed") if closed is _STOP else closed
        if self._closed:
            return gone
        job = _Job(run, gone)
        self._jobs.put(job)
        # Normally woken at once; the timeout only matters if the session closes meanwhile.
        while not job.done.wait(1.0):
            if self._thread is None or not self._thread.is_alive():
                return gone
        return job.result

    def _version(self) -> int:
        return self._game.state.version if self._game else 0

    def _game_id(self) -> str | None:
        return self._game.record.id if self._game else None

    # -- inputs --------------------------------------------------------------------------------

    def submit(self, command: dict, source: str = "web") -> Reply:
        """Apply one command (thread-safe); blocks until it is applied and journaled."""
        return self._call(lambda: self._apply(command, source))

    def press_seat(self, seat: str) -> Reply:
        """A seat button: lock in, or unlock when already locked in."""
        return self._call(lambda: self._press_and_tell(seat))

    def control(self, button: str, long: bool = False) -> Reply:
        """The table's buttons: Next (the current action is done, countdown-only games), Back
        held (undo the last command), Menu (pause or resume the programming clock)."""
        if button == "next":
            return self.submit({"type": "next", "seat": "host"}, source="button")
        if button == "back":
            return self.host("undo", count=1) if long else refused("hold_back_to_undo")
        if button == "menu":
            if long:  # the hardware shows the PIN on the OLED; the clock is left alone
                return refused("menu_long_shows_pin")
            return self.host("resume" if self._timer.paused else "pause")
        return refused("unknown_button", button=str(button)[:20])

    def host(self, action: str, **args: Any) -> Reply:
        """The host's actions: new_game(setup), undo(count), pause, resume, end_game,
        reset_seat(seat), press_seat(seat), and once the programming time is up more_time or
        lock_in_late."""
        actions: dict[str, Callable[..., Reply]] = {
            "new_game": self._new_game,
            "undo": self._undo,
            "pause": self._pause,
            "resume": self._resume_clock,
            "end_game": self._end_game,
            "reset_seat": self._reset_seat,
            "press_seat": self._press,
            "more_time": self._more_time,
            "lock_in_late": self._lock_in_late,
        }
        run = actions.get(action)
        try:
            if run is None:
                raise TypeError(action)
            inspect.signature(run).bind(**args)
        except TypeError:
            return refused("unknown_action", action=str(action)[:30])
        return self._call(lambda: run(**args))

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
        job = _Job(lambda: True, False)
        self._jobs.put(job)
        return job.done.wait(timeout) and job.result is True

    # -- outputs -------------------------------------------------------------------------------

    def listen(self, audience: str) -> Listener:
        """A bounded queue of updates for "public", "host" or a seat id."""
        listener = Listener(audience, self.snapshot, self._forget, self._queue_size)
        with self._listeners_lock:
            self._listeners.append(listener)
        return listener

    def _forget(self, listener: Listener) -> None:
        with self._listeners_lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def snapshot(self, audience: str) -> dict:
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

    def games(self) -> list[dict]:
        """Every game in the journal, oldest first (no secrets); read beside the writer, as
        every read of past games is (`Journal.read`): a replay flood never delays a press."""
        return self._journal.read(archive.listing, closed=[])

    def export(self, game: str) -> dict | None:
        """One game as JSON; an unfinished game's secrets are left out."""
        return self._journal.read(lambda journal: archive.export(journal, game), closed=None)

    def reading(self, read: Callable[[Journal], Any]) -> Any:
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

    # -- the writer's work ---------------------------------------------------------------------

    def _apply(self, command: object, source: str) -> Reply:
        game = self._game
        if not isinstance(command, dict):
            return refused("not_a_command", self._version(), self._game_id())
        if unwritable(command):
            return refused("bad_text", self._version(), self._game_id())
        if game is None:
            return refused("no_game")
        before = game.state.version
        result = engine.apply(game.state, command)
        if not result.ok:
            return from_refusal(result.refusal, before, game.record.id)
        outcome = next((e["outcome"] for e in result.events if e["type"] == "game_over"), None)
        try:
            kept = self._journal.command(
                game.record.id,
                game.next_seq,
                command,
                source,
                before,
                result.events,
                None if outcome is None else dump(outcome),
            )
        except JournalError as error:
            return self._unwritable(error)
        said = None if kept is None else Notice("journal_kept", {"problem": kept})
        self._notice("journal", said, publish=False)
        game.applied.append(_Applied(game.next_seq, result.events))
        game.next_seq += 1
        game.state = result.state
        self._sync_timer(entering=self._entered_programming(result.events))
        self._publish(result.events)
        return accepted(game.state.version, game.record.id)

    def _press(self, seat: str) -> Reply:
        if self._game is None:
            return refused("no_game")
        waiting = engine.waiting_for(self._game.state).as_dict()
        return self._apply(seat_press(waiting, str(seat)), "button")

    def _press_and_tell(self, seat: str) -> Reply:
        """A seat button's press; refused, the refusal also reaches that seat's phone (a private
        session event in its words), since a button has no screen of its own to say why."""
        reply = self._press(seat)
        if not reply.ok and self._game is not None and str(seat) in self._game.state.seats:
            texts = {lang: reply.text_in(lang) for lang in words.languages()}
            told = {"type": "button_refused", "seat": str(seat), "code": reply.code}
            self._publish([{**told, "texts": texts, "private": str(seat)}])
        return reply

    def _time_is_up(self) -> bool:
        return self._game is not None and self._timer.expired and "timer" in self._notices

    def _more_time(self) -> Reply:
        """The programming time is up and the host gives the late seats the limit again."""
        if not self._time_is_up():
            return refused("time_not_up", self._version(), self._game_id())
        self._timer.begin(self.clock.now())
        self._notices.pop("timer", None)
        self._publish([{"type": "more_time", "seconds": self._timer.limit}])
        return accepted(self._version(), self._game_id())

    def _lock_in_late(self) -> Reply:
        """The programming time is up and the host locks in what each late seat has chosen on
        its phone; a seat that chose nothing is not locked in (the rules know no programme for
        it) and keeps programming, and every page is told which seats were which."""
        if not self._time_is_up() or self._game is None:
            return refused("time_not_up", self._version(), self._game_id())
        late = list(engine.waiting_for(self._game.state).as_dict().get("seats", []))
        locked = [seat for seat in late if self._press(seat).ok]
        unchosen = [seat for seat in late if seat not in locked]
        if unchosen:
            self._notices["timer"] = Notice("time_up", {"seats": unchosen})
        else:
            self._notices.pop("timer", None)
        self._publish([{"type": "late_locked_in", "locked": locked, "unchosen": unchosen}])
        return accepted(self._version(), self._game_id())

    def _new_game(self, setup: object) -> Reply:
        if not isinstance(setup, dict):
            return refused("not_a_setup", self._version(), self._game_id())
        if unwritable(setup):
            return refused("bad_text", self._version(), self._game_id())
        setup = dict(setup)
        options = {
            "time_limit": setup.pop("time_limit", self._default_limit),
            "warning": setup.pop("warning", self._default_warning),
        }
        if not all(_seconds(v) for v in options.values()):
            return refused("bad_time_limit", self._version(), self._game_id())
        options["rigged"] = setup.pop("rigged", False) is True
        seed = setup.pop("seed", None)
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = secrets.randbits(63)
        started = engine.start({**setup, "seed": seed})
        if started.state is None:
            return from_refusal(started.refusal, self._version(), self._game_id())
        gid = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
        try:
            self._journal.new_game(gid, setup, seed, options, started.events)
        except JournalError as error:
            return self._unwritable(error)
        record = GameRecord(gid, setup, seed, options, "playing", None, time.time(), None)
        self._game = _Game(record, started.events, [], started.state, 1)
        self._notices.pop("resume", None)
        # A new game starts clean: no word of the last game's phones (offline, asleep, gone)
        # nor of a game resumed; this game's phones are told about from their next stream.
        for key in [k for k in self._notices if k.startswith("seat:") or k == "said:game"]:
            del self._notices[key]
        self._apply_options(options)
        log.info(
            "game %s started (%s %s, %s)",
            gid,
            setup.get("edition", "base"),
            setup.get("mode", "suspicion"),
            setup.get("tracking", "dealt"),
        )
        self._sync_timer(entering=True)
        self._publish(started.events, undone=False)
        return accepted(started.state.version, gid)

    def _undo(self, count: object = 1) -> Reply:
        game = self._game
        if game is None:
            return refused("no_game")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            return refused("bad_count", game.state.version, game.record.id)
        allowed, shown = undo.undoable([a.events for a in game.applied], game.dealt)
        if count > allowed:
            if shown is None:
                return refused("nothing_to_undo", game.state.version, game.record.id)
            return refused(
                "undo_limit", game.state.version, game.record.id, count=allowed, what=shown
            )
        taken, kept = game.applied[-count:], game.applied[:-count]
        try:
            self._journal.undo(game.record.id, [a.seq for a in taken])
        except JournalError as error:
            return self._unwritable(error)
        game.applied = kept
        game.state = _replay(game.start, kept)
        log.info("game %s: %d command(s) undone by the host", game.record.id, count)
        self._sync_timer(entering=True)
        self._publish([], undone=True)
        return accepted(game.state.version, game.record.id)

    def _end_game(self) -> Reply:
        game = self._game
        if game is None:
            return refused("no_game")
        try:
            self._journal.end(game.record.id)
        except JournalError as error:
            return self._unwritable(error)
        log.info("game %s ended by the host", game.record.id)
        self._game = None
        self._timer.stop()
        self._publish([])
        return accepted(0, None)

    def _resume_replaced(self, game: str) -> Reply:
        record = self._journal.game(game)
        if record is None or record.status != "abandoned":
            return refused("not_resumable", self._version(), self._game_id(), which=game[:64])
        try:
            resumed = self._resume(replace(record, status="playing", ended=None))
        except Exception as error:  # events this engine cannot fold: it stays set aside
            log.error("game %s cannot be resumed (%r)", game, error)
            return refused("not_resumable", self._version(), self._game_id(), which=game)
        try:
            self._journal.reopen(game)
        except JournalError as error:
            return self._unwritable(error)
        log.info("game %s resumed by the host", game)
        self._game = resumed
        self._tell_news("game", Notice("game_resumed", {"game": game}))
        self._sync_timer(entering=True)
        self._publish([], undone=False)
        return accepted(resumed.state.version, game)

    def _reset_seat(self, seat: object, freed: bool = True) -> Reply:
        """The seat's phone is forgotten (the web layer frees it); its notice goes too, and a
        phone's request for it (the next tap takes the seat now). Freeing a seat while a game
        is under way is said on every screen."""
        self._notice(f"seat:{seat}", None, publish=False)
        if self._seat_asks.drop(str(seat)):
            self._notices.pop(f"ask:{seat}", None)
        if freed and self._under_way():
            self._tell_news(str(seat), Notice("seat_freed_by_host", {"seat": str(seat)}))
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _pause(self) -> Reply:
        if not self._timer.enabled:
            return refused("no_time_limit", self._version(), self._game_id())
        if self._timer.paused:
            return refused("already_paused", self._version(), self._game_id())
        self._timer.pause(self.clock.now())
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _resume_clock(self) -> Reply:
        if not self._timer.paused:
            return refused("not_paused", self._version(), self._game_id())
        self._timer.resume(self.clock.now())
        self._publish([])
        return accepted(self._version(), self._game_id())

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

    # -- seats asked for and given with the seat button (seats.py) -----------------------------

    def under_way(self) -> bool:
        """A game is being played: it has commands and is not over. From then on a seat is
        taken only by asking and holding its button (or a host give)."""
        return self._call(self._under_way, closed=False)

    def _under_way(self) -> bool:
        game = self._game
        return game is not None and bool(game.applied) and game.state.phase != "over"

    def ask_seat(self, seat: str, digest: str) -> str:
        """A phone (the digest of its secret) asks for `seat`: the two-digit code it shows, also
        shown on every screen with the request until the seat button gives it (120 s)."""
        return self._call(lambda: self._ask(str(seat), digest), closed="")

    def pending_seats(self) -> dict[str, str]:
        """Seat -> code of the phone asking for it (any thread: a seat button reads it)."""
        return self._seat_asks.pending()

    def asking(self, digest: str) -> dict | None:
        """The request of one phone: {"seat", "ask"}, or None."""
        found = self._seat_asks.asking(digest)
        return None if found is None else {"seat": found.seat, "ask": found.code}

    def hold_seat(self, seat: str) -> Reply:
        """A seat button held 3 s: the phone asking for that seat gets it."""
        said = Notice("seat_taken_back", {"seat": str(seat)})
        return self._call(lambda: self._give(str(seat), said, always=True))

    def give_seat(self, seat: str) -> Reply:
        """The host gives a seat to the phone asking for it; said on every screen mid-game."""
        said = Notice("seat_given_by_host", {"seat": str(seat)})
        return self._call(lambda: self._give(str(seat), said, always=False))

    def clear_seat_asks(self) -> None:
        """Every request dropped (everyone picks a seat again for a new game)."""
        self._call(self._clear_asks, closed=None)

    def on_seat_given(self, given: Callable[[str, str], None]) -> None:
        """`given(seat, digest)` once a seat is given to a phone (the web's seat holders)."""
        self._seat_given.append(given)

    def _ask(self, seat: str, digest: str) -> str:
        ask, dropped = self._seat_asks.ask(seat, digest, self.clock.now())
        for other in dropped:
            self._notices.pop(f"ask:{other}", None)
        self._notice(f"ask:{seat}", Notice("seat_asked", {"seat": seat, "ask": ask.code}))
        return ask.code

    def _give(self, seat: str, said: Notice, always: bool) -> Reply:
        """The asking phone gets the seat; `said` on every screen (`always`, or mid-game)."""
        ask, too_new = self._seat_asks.take(seat, self.clock.now())
        if too_new is not None:
            return refused(
                "seat_request_changed",
                self._version(),
                self._game_id(),
                seat=seat,
                ask=too_new.code,
            )
        if ask is None:
            return refused("no_seat_request", self._version(), self._game_id(), seat=seat)
        try:
            for other, held in self._journal.seat_claims().items():
                if held == ask.digest and other != seat:  # the phone leaves its old seat
                    self._journal.claim_seat(other, None)
            self._journal.claim_seat(seat, ask.digest)
        except JournalError as error:
            log.warning("seat %s: %s", seat, error)
        for given in self._seat_given:
            given(seat, ask.digest)
        self._notices.pop(f"ask:{seat}", None)
        self._notices.pop(f"seat:{seat}", None)
        if always or self._under_way():
            self._tell_news(seat, said)
        self._publish([])
        log.info("seat %s given to the phone that asked (%s)", seat, said.code)
        return accepted(self._version(), self._game_id())

    def _tell_news(self, about: str, said: Notice) -> None:
        """News on every screen for a while, about a seat or "game" (no secret in it: a seat or
        a game, and what happened)."""
        self._notices[f"said:{about}"] = said
        self._seat_asks.said(about, self.clock.now())

    def _clear_asks(self) -> None:
        for seat in self._seat_asks.clear():
            self._notices.pop(f"ask:{seat}", None)
        self._publish([])

    def _check_seats(self) -> None:
        """Requests and seat news whose time is up leave the screens."""
        asks, news = self._seat_asks.due(self.clock.now())
        for seat in asks:
            self._notices.pop(f"ask:{seat}", None)
        for seat in news:
            self._notices.pop(f"said:{seat}", None)
        if asks or news:
            self._publish([])

    def _next_deadline(self) -> float | None:
        ends = [
            d
            for d in (self._timer.next_deadline(), self._seat_asks.next_deadline())
            if d is not None
        ]
        return min(ends, default=None)

    # -- the clock -----------------------------------------------------------------------------

    def _apply_options(self, options: dict) -> None:
        self._timer = ProgrammingTimer(
            float(options.get("time_limit", 0)), float(options.get("warning", 15))
        )

    @staticmethod
    def _entered_programming(events: list[dict]) -> bool:
        return any(e["type"] == "phase" and e.get("phase") == "programming" for e in events)

    def _sync_timer(self, entering: bool) -> None:
        """Start the limit when a programming phase begins, stop it when it ends."""
        programming = self._game is not None and self._game.state.phase == "programming"
        if not programming:
            self._timer.stop()
            self._notices.pop("timer", None)
        elif entering or not self._timer.running:
            self._timer.begin(self.clock.now())
            self._notices.pop("timer", None)

    def _check_timer(self) -> None:
        """The warning and the end of the programming time, told to everyone as a notice and a
        session event (`time_warning`, `time_up`) the buzzer can sound; the game is unchanged."""
        happened = self._timer.due(self.clock.now())
        if not happened:
            return
        if "expired" in happened:
            waiting = engine.waiting_for(self._game.state).as_dict() if self._game else {}
            late = list(waiting.get("seats", []))
            log.info("programming time is up (still programming: %s)", ", ".join(late) or "-")
            self._notice("timer", Notice("time_up", {"seats": late}), publish=False)
            self._publish([{"type": "time_up", "seats": late}])
        else:
            left = round(self._timer.left(self.clock.now()) or 0)
            self._notice("timer", Notice("seconds_left", {"left": left}), publish=False)
            self._publish([{"type": "time_warning", "left": left}])

    # -- telling everyone ----------------------------------------------------------------------

    def _session_info(self, undone: bool, lock_ins: list[str]) -> dict:
        """The session's part of an update; its `timer` is read when the update is built."""
        rigged = self._rigged()
        seats = set(self._game.state.seats) if self._game is not None else None
        notices = about_the_game(self._notices.values(), seats)
        notices += [Notice("rigged_game")] if rigged else []
        return {
            "paused": self._timer.paused,
            "notices": [notice.as_dict() for notice in notices],
            "lock_ins": lock_ins,
            "undone": undone,
            "rigged": rigged,
        }

    def _rigged(self) -> bool:
        """A rigged (teaching) game: its setup chose the seed, roles or complex; every screen
        says so for the whole game."""
        return self._game is not None and self._game.record.options.get("rigged") is True

    def _publish(self, events: list[dict], undone: bool = False) -> None:
        game = self._game
        state = game.state if game else None
        waiting = engine.waiting_for(state).as_dict() if state is not None else {"phase": "none"}
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
        )
        quiet, self._last_seen = seen == self._last_seen, seen
        with self._listeners_lock:
            listeners = list(self._listeners)
        tell(published, listeners, events, quiet)


def _replay(start: list[dict], applied: list[_Applied]) -> Any:
    """The game's state from its start and the commands still standing."""
    return engine.replay([*start, *(e for a in applied for e in a.events)])


def _seconds(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0 <= value <= MAX_TIME_LIMIT
    )


__all__ = ["HOST", "PUBLIC", "Session", "seat_press"]
