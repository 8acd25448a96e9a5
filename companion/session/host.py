"""The host's actions, one table like the engine's rules: each entry names the check that may
refuse it before anything happens, its effect, the text keys of the refusals it may answer,
and, for the actions that need nothing but the host's cookie, the route of the host page and
its summary in the API's document (companion/web/api.py builds both from the table).

The texts themselves stay in the session's catalogue (replies.py); an entry only names them."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from companion import engine
from companion.config import MAX_TIME_LIMIT
from companion.teaching import LESSONS

from . import undo
from .core import _Game, _replay, _Walk, log, walk_steps
from .journal import GameRecord, JournalError
from .notices import Notice
from .playing import Playing
from .replies import Reply, accepted, from_refusal, refused
from .seating import Seating
from .shapes import HostArgs
from .text import unwritable

JOURNAL = ("journal_unwritable", "journal_unsure")  # any action that writes may answer these


class HostActions(Playing, Seating):
    """The effects of the host's actions and their checks, run on the writer."""

    def _act(self, action: HostAction, args: HostArgs) -> Reply:
        """One host action: its check, then its effect."""
        code = action.check(self) if action.check is not None else None
        if code is not None:
            return refused(code, self._version(), self._game_id())
        return action.effect(self, **args)

    def _current(self) -> _Game:
        """The game being played, for an effect whose check let none through without one."""
        if self._game is None:
            raise RuntimeError("a host action that needs a game ran without one")
        return self._game

    # -- checks: a refusal's code, or None --------------------------------------------------

    def _a_game(self) -> str | None:
        return None if self._game is not None else "no_game"

    def _pausable(self) -> str | None:
        if not self._timer.enabled:
            return "no_time_limit"
        return "already_paused" if self._timer.paused else None

    def _paused(self) -> str | None:
        return None if self._timer.paused else "not_paused"

    def _time_up(self) -> str | None:
        return None if self._time_is_up() else "time_not_up"

    def _walking(self) -> str | None:
        return None if self._walk is not None else "no_setup_walk"

    def _walked(self) -> str | None:
        if self._walk is None:
            return "no_setup_walk"
        return None if self._walk.at > 0 else "setup_first_step"

    # -- effects ------------------------------------------------------------------------------

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
        self._walk = self._setup_walk(gid, started.state, setup)
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

    def _setup_walk(self, gid: str, state: engine.GameState, setup: dict) -> _Walk | None:
        """While teaching, a new game's physical set-up is walked through one step a Next
        before its first command; its steps hold public facts only (teaching/setup.py)."""
        if not self._lessons.on:
            return None
        return _Walk(gid, walk_steps(state, setup))

    def _setup_next(self) -> Reply:
        """The table has done the set-up step shown: the next one, or none after the last."""
        walk = self._walk
        assert walk is not None, "the check lets no setup_next through without a walk"
        walk.at += 1
        if walk.at >= len(walk.steps):
            self._walk = None
            self._lessons.walked(None)  # done: a restart does not take it up again
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _setup_back(self) -> Reply:
        """The step before, shown again."""
        walk = self._walk
        assert walk is not None, "the check lets no setup_back through without a walk"
        walk.at -= 1
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _next_pressed(self) -> Reply:
        """The table's Next button: the set-up's next step while it is taught, else the game's
        Next (the current action is done, countdown-only games)."""
        if self._walk is not None:
            return self._setup_next()
        return self._apply({"type": "next", "seat": "host"}, "button")

    def _undo(self, count: object = 1) -> Reply:
        game = self._current()
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
        game = self._current()
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

    def _pause(self) -> Reply:
        self._timer.pause(self.clock.now())
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _resume_clock(self) -> Reply:
        self._timer.resume(self.clock.now())
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _more_time(self) -> Reply:
        """The programming time is up and the host gives the late seats the limit again."""
        self._timer.begin(self.clock.now())
        self._notices.pop("timer", None)
        self._publish([{"type": "more_time", "seconds": self._timer.limit}])
        return accepted(self._version(), self._game_id())

    def _lock_in_late(self) -> Reply:
        """The programming time is up and the host locks in what each late seat has chosen on
        its phone; a seat that chose nothing is not locked in (the rules know no programme for
        it) and keeps programming, and every page is told which seats were which."""
        late = list(engine.waiting_for(self._current().state).as_dict().get("seats", []))
        locked = [seat for seat in late if self._press(seat).ok]
        unchosen = [seat for seat in late if seat not in locked]
        if unchosen:
            self._notices["timer"] = Notice("time_up", {"seats": unchosen})
        else:
            self._notices.pop("timer", None)
        self._publish([{"type": "late_locked_in", "locked": locked, "unchosen": unchosen}])
        return accepted(self._version(), self._game_id())

    def _teaching(self, on: bool) -> Reply:
        """The host turns teaching on or off for the evening (remembered across a restart)."""
        self._lessons.turn(bool(on))
        self._publish([])
        return accepted(self._version(), self._game_id())

    def _replay_lesson(self, lesson: str) -> Reply:
        """The host has a lesson taught again: it is the table's lesson notice once more."""
        if lesson not in {found.id for found in LESSONS}:
            return refused(
                "unknown_lesson", self._version(), self._game_id(), lesson=str(lesson)[:30]
            )
        self._notices["lesson"] = self._lessons.notice([lesson])
        self._publish([])
        return accepted(self._version(), self._game_id())


@dataclass(frozen=True)
class HostAction:
    """One action of `Session.host(name, **args)`: `check` refuses it first (None: it cannot be
    refused before its effect), `effect` does it on the writer with `args`, `texts` are the
    session's refusals it may answer (the engine's come from its own catalogue); `route`
    (POST /api/host/ROUTE, no body) and `summary` are its place in the API when it needs
    nothing but the host, None when the web has its own route for it (one that checks a body
    or a path first)."""

    effect: Callable[..., Reply]
    check: Callable[[HostActions], str | None] | None
    texts: tuple[str, ...]
    route: str | None = None
    summary: str = ""


HOST_ACTIONS: dict[str, HostAction] = {
    "new_game": HostAction(
        HostActions._new_game, None, ("not_a_setup", "bad_text", "bad_time_limit", *JOURNAL)
    ),
    "undo": HostAction(
        HostActions._undo,
        HostActions._a_game,
        ("no_game", "bad_count", "nothing_to_undo", "undo_limit", *JOURNAL),
    ),
    "pause": HostAction(
        HostActions._pause,
        HostActions._pausable,
        ("no_time_limit", "already_paused"),
        "pause",
        "Pause the game (host)",
    ),
    "resume": HostAction(
        HostActions._resume_clock,
        HostActions._paused,
        ("not_paused",),
        "resume",
        "Resume the game (host)",
    ),
    "end_game": HostAction(
        HostActions._end_game,
        HostActions._a_game,
        ("no_game", *JOURNAL),
        "end",
        "End the game (host)",
    ),
    "reset_seat": HostAction(HostActions._reset_seat, None, ()),
    "press_seat": HostAction(HostActions._press, None, ("no_game",)),
    "more_time": HostAction(
        HostActions._more_time,
        HostActions._time_up,
        ("time_not_up",),
        "more_time",
        "Once the programming time is up: the late seats get the limit again (host)",
    ),
    "lock_in_late": HostAction(
        HostActions._lock_in_late,
        HostActions._time_up,
        ("time_not_up",),
        "lock_in_late",
        "Once the programming time is up: lock in what each late seat chose (host)",
    ),
    "teaching": HostAction(HostActions._teaching, None, ()),
    "replay_lesson": HostAction(HostActions._replay_lesson, None, ("unknown_lesson",)),
    "setup_next": HostAction(
        HostActions._setup_next,
        HostActions._walking,
        ("no_setup_walk",),
        "setup_next",
        "While the set-up is taught: its next step (host)",
    ),
    "setup_back": HostAction(
        HostActions._setup_back,
        HostActions._walked,
        ("no_setup_walk", "setup_first_step"),
        "setup_back",
        "While the set-up is taught: its step before (host)",
    ),
}


def _seconds(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0 <= value <= MAX_TIME_LIMIT
    )
