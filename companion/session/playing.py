"""The game's room of the session: a command checked by the engine, written to the journal,
and told to everyone; a seat button's press as the command it stands for."""

from __future__ import annotations

from companion import engine, words

from .core import _Applied, _Game, _replay
from .journal import GameRecord, JournalError, dump
from .notices import Notice
from .replies import Reply, accepted, from_refusal, refused
from .shapes import WireCommand
from .text import unwritable
from .timing import Timing


def seat_press(waiting: engine.WaitingView, seat: str) -> WireCommand:
    """A seat button (or the phone's lock-in button) as an engine command: a seat that is locked
    in during programming unlocks (its player changed his mind), any other press locks in."""
    locked = waiting.get("phase") == "programming" and seat in waiting.get("locked_in", ())
    return {"type": "unlock" if locked else "lock", "seat": seat}


class Playing(Timing):
    """Commands to the game, applied on the writer."""

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
        published = self._published  # whom the state waits for was worked out when published
        state = self._game.state
        waiting = published.waiting if published.state is state else None
        if waiting is None:
            waiting = engine.waiting_for(state).as_dict()
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

    def _resume(self, record: GameRecord) -> _Game:
        start = self._journal.start_events(record.id)
        commands = self._journal.commands(record.id)
        applied = [_Applied(c.seq, c.events) for c in commands if not c.undone]
        state = _replay(start, applied)
        next_seq = (commands[-1].seq if commands else 0) + 1
        self._apply_options(record.options)
        return _Game(record, start, applied, state, next_seq)
