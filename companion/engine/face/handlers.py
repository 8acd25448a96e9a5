"""What each command does: the envelope every command must pass (its seat, its version, a
game still going, no choice pending), then the handler of its type, run on a copy of the
state. `game.apply` reads the command and wraps what this returns into a `Result`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..kernel import grid
from ..kernel.context import Context, Refused, cell_named
from ..kernel.state import HOST, TALENT, Character, GameState
from ..rules import actions, board, choices, flow, modes, talents
from .commands import (
    Act,
    Choose,
    Clue,
    Command,
    Correct,
    Expose,
    Lock,
    Next,
    Pass,
    Program,
    Reminder,
    Report,
    Unlock,
    Wait,
)


def run(state: GameState, command: Command) -> Context:
    """Carry a typed command out on a copy of the state, or raise `Refused`: first the
    envelope every command must pass, checked here rather than in a function of its own, since
    every command passes."""
    if command.version is not None and command.version != state.version:
        code = "stale_version" if command.version < state.version else "future_version"
        raise Refused(code)
    seat = command.seat
    if seat == HOST:
        if not command.host_may_send:
            raise Refused("players_command")
    elif seat not in state.seats:
        raise Refused("unknown_seat", seat=seat)
    elif command.host_only:
        raise Refused("host_command")
    if state.outcome is not None:
        raise Refused("game_over")
    pending = state.pending
    if pending is not None and not isinstance(command, (Choose, Correct)):
        raise Refused("waiting_for_choice", character=pending["character"])
    ctx = Context(state.clone())
    ctx.report = getattr(command, "room", None)
    ctx.reporter = seat
    HANDLERS[type(command)](ctx, command)
    if ctx.state.room25 is not None:  # most commands stop here, without a call
        flow.after_command(ctx)
    return ctx


def _own(state: GameState, seat: str, cid: str | None) -> Character:
    c = state.characters.get(cid) if cid is not None else None
    if c is None or c.seat != seat:
        raise Refused("not_your_character", character=str(cid)[:20])
    if not c.alive:
        raise Refused("character_eliminated", character=c.id)
    return c


def _actor(state: GameState, seat: str, character: str | None) -> Character:
    if state.phase != "action" or state.current is None:
        raise Refused("nobodys_action")
    c = state.characters[state.current]
    if c.seat != seat:
        raise Refused("not_your_action", character=c.id)
    if character is not None and character != c.id:
        raise Refused("someone_elses_action", character=c.id)
    return c


def _clue(ctx: Context, command: Clue) -> None:
    """Starting clue (001, SETUP): each player looks at ONE room next to the Central room."""
    state = ctx.state
    seat = state.seats[command.seat]
    if state.phase != "clue":
        raise Refused("clue_before_programming")
    if seat.clue is not None:
        raise Refused("one_clue")
    cell = cell_named(command.cell)
    if cell not in grid.neighbours(grid.CENTRE).values():
        raise Refused("clue_next_to_centre")
    tile = state.tile_at(cell)
    ctx.emit({"type": "clue_taken", "seat": seat.id, "cell": grid.name(cell)})
    kind = board.identify(ctx, tile.id, private=seat.id)
    ctx.emit(
        {"type": "room_seen", "seat": seat.id, "tile": tile.id, "room": kind, "private": seat.id}
    )
    if all(s.clue is not None for s in state.seats.values()):
        flow.start_programming(ctx)


def _program(ctx: Context, command: Program) -> None:
    """1. Programming: two different tokens in order, or one token to play in either round."""
    state = ctx.state
    c = _own(state, command.seat, command.character)
    if state.phase != "programming":
        raise Refused("not_programming_phase")
    if flow.by_tokens(state):
        raise Refused("programmed_with_tokens")
    if c.locked:
        raise Refused("already_locked_in", character=c.id)
    if flow.programs_adrenaline_only(state, c):
        if command.actions:
            raise Refused("paranoia_programs_adrenaline_only", character=c.id)
        _program_adrenaline(ctx, c, command.adrenaline and _adrenaline(state, c))
    elif not flow.programs(state, c):
        raise Refused("plays_without_programming", character=c.id)
    elif state.tracked:
        boost = command.adrenaline and _adrenaline(state, c)
        tokens = command.actions
        held = flow.tokens(state, c)
        if tokens is None or not 1 <= len(tokens) <= 2:
            raise Refused("one_or_two_actions")
        chosen = set(tokens)
        if not chosen.issubset(held):
            raise Refused("tokens_held", character=c.id, actions=held)
        if len(chosen) != len(tokens):
            raise Refused("token_once")
        if len(tokens) > c.limit:
            raise Refused("cold_one_action")
        if TALENT in tokens or command.talent_choice is not None:
            # Asked only when the programme names the talent or a choice: nothing else can
            # miss a choice or name one the rules do not ask for.
            talents.check_choice(state, c.id, list(tokens), command.talent_choice)
        ctx.emit(
            {
                "type": "programmed",
                "character": c.id,
                "tokens": list(tokens),
                "adrenaline": boost,
                "talent_choice": command.talent_choice,
                "private": c.seat,
            }
        )
    else:
        _program_adrenaline(ctx, c, command.adrenaline and _adrenaline(state, c))
    if command.lock_in:
        ctx.emit({"type": "locked_in", "character": c.id})
        flow.maybe_start_actions(ctx)


def _program_adrenaline(ctx: Context, c: Character, boost: bool) -> None:
    """Only the Adrenaline is programmed (no actions, or actions drawn from a Paranoia pile);
    programming again after unlocking may take it back."""
    if boost or c.adrenaline_programmed:
        ctx.emit(
            {
                "type": "programmed",
                "character": c.id,
                "tokens": [],
                "adrenaline": boost,
                "private": c.seat,
            }
        )


def _adrenaline(state: GameState, c: Character) -> bool:
    """ADRENALINE (000, 002): programmed or not during programming, once a game, never in the
    Cold chamber. Asked only when the command programs it (`command.adrenaline and`): most
    do not, and are spared the call."""
    if not state.ruleset.settings.adrenaline:
        raise Refused("no_adrenaline_in_game")
    if not c.adrenaline:
        raise Refused("adrenaline_token_gone", character=c.id)
    if not flow.may_program_adrenaline(state, c):
        raise Refused("cold_no_adrenaline")
    return True


def _seat_characters(state: GameState, seat: str) -> list[Character]:
    return [state.characters[cid] for cid in state.seats[seat].characters]


def _lock(ctx: Context, command: Lock) -> None:
    """A seat locks in: with token programming, its tokens lie face down on the pedestals;
    with app programming, every living character of the seat must have been programmed."""
    state = ctx.state
    if state.phase != "programming":
        raise Refused("not_programming_phase")
    waiting = [c for c in _seat_characters(state, command.seat) if c.alive and not c.locked]
    if not waiting:
        raise Refused("seat_already_locked_in")
    if not flow.by_tokens(state):
        unprogrammed = [c.id for c in waiting if not flow.programmed(state, c)]
        if unprogrammed:
            raise Refused("program_before_locking_in", characters=unprogrammed)
    for c in waiting:
        ctx.emit({"type": "locked_in", "character": c.id})
    flow.maybe_start_actions(ctx)


def _unlock(ctx: Context, command: Unlock) -> None:
    """A second press before everyone is locked in: the seat may think again."""
    state = ctx.state
    if state.phase != "programming":
        raise Refused("everyone_locked_in")
    mine = [
        c
        for c in _seat_characters(state, command.seat)
        if c.alive and c.locked and flow.must_lock_in(state, c)
    ]
    if not mine:
        raise Refused("seat_not_locked_in")
    for c in mine:
        ctx.emit({"type": "unlocked", "character": c.id})


def _act(ctx: Context, command: Act) -> None:
    """2. Action: reveal the programmed token (or name the revealed one, or choose one) and
    play it."""
    state = ctx.state
    c = _actor(state, command.seat, command.character)
    if not state.tracked:
        raise Refused("say_next_untracked")
    wanted = command.action
    if not flow.chooses(state, c):
        assert c.program, "a slot begun on a programme holds its next token"
        action = c.program[0]  # `flow.due_token`, read without its call like `begin_slot`
        if wanted is not None and wanted != action:
            how = "drawn" if flow.draws(c) else "programmed"
            raise Refused(f"{how}_action_must_be_played", action=action)
        flow.play(ctx, c, action, command)
        return
    allowed = flow.free_actions(state, c)
    if flow.reveals_tokens(state, c) and wanted in allowed:
        # A revealed token is played even when it cannot be completed: it is then lost.
        flow.play(ctx, c, wanted, command)
        return
    if wanted not in allowed or not actions.completable(state, c.id, wanted):
        choices = [a for a in allowed if actions.completable(state, c.id, a)]
        raise Refused("choose_an_action", actions=choices) if choices else Refused("no_action_left")
    flow.play(ctx, c, wanted, command)


def _wait(ctx: Context, command: Wait) -> None:
    """A single programmed action may wait for the second round (001, 1. Programming)."""
    state = ctx.state
    c = _actor(state, command.seat, command.character)
    if not (c.single_action and state.round == 1 and c.program):
        raise Refused("only_single_action_waits")
    flow.finish_slot(ctx, c)
    flow.advance(ctx)


def _pass(ctx: Context, command: Pass) -> None:
    state = ctx.state
    c = _actor(state, command.seat, command.character)
    if not flow.may_pass(state, c):
        raise Refused("must_play_an_action")
    flow.finish_slot(ctx, c)
    flow.advance(ctx)


def _choose(ctx: Context, command: Choose) -> None:
    state = ctx.state
    pending = state.pending
    if pending is None:
        raise Refused("no_choice_now")
    mine = command.character in (None, pending["character"])
    if pending["seat"] not in (HOST, command.seat) or not mine:
        raise Refused("someone_elses_choice", character=pending["character"])
    choices.answer(ctx, command)
    flow.after_choice(ctx)


def _reminder(ctx: Context, command: Reminder) -> None:
    """Reminder token (001, Reminder Tokens): placed during your turn on a hidden room."""
    state = ctx.state
    seat = state.seats[command.seat]
    if not state.ruleset.settings.reminder_tokens:
        raise Refused("no_reminder_tokens_in_game")
    if not state.tracked:
        raise Refused("reminder_untracked")
    if not flow.reminder_turn(state, seat.id):
        raise Refused("reminder_own_turn")
    if len(seat.reminders) >= len(seat.characters):
        raise Refused("reminder_already_placed")
    cell = cell_named(command.cell)
    tile = state.tile_at(cell)
    if tile.revealed:
        raise Refused("reminder_on_hidden_room")
    if tile.id in seat.reminders:
        raise Refused("reminder_already_there")
    if flow.jammed_solo(state):
        raise Refused("jamming_no_reminder")
    ctx.emit({"type": "reminder_placed", "seat": seat.id, "tile": tile.id, "cell": grid.name(cell)})


def _expose(ctx: Context, command: Expose) -> None:
    """Exposure of the Guards (001, Suspicion Mode): at any time during his turn."""
    state = ctx.state
    c = _actor(state, command.seat, command.character)
    if state.ruleset.mode != "suspicion" or c.role != "guard":
        raise Refused("only_guard_exposes")
    if c.exposed_turn is not None:
        raise Refused("already_exposed")
    if not flow.may_expose_now(state):
        raise Refused("expose_after_alarm")
    ctx.emit({"type": "guard_exposed", "character": c.id, "role": "guard"})


def _next(ctx: Context, command: Next) -> None:
    """Countdown-only games: the table says the current action is done."""
    state = ctx.state
    if state.tracked:
        raise Refused("play_the_action_tracked")
    if state.phase != "action" or state.current is None:
        raise Refused("nobodys_action")
    c = state.characters[state.current]
    if command.seat not in (HOST, c.seat):
        raise Refused("not_your_action", character=c.id)
    if state.round == flow.ADRENALINE_ROUND:
        ctx.emit({"type": "adrenaline_used", "character": c.id})
    flow.finish_slot(ctx, c)
    flow.advance(ctx)


def _report(ctx: Context, command: Report) -> None:
    """Countdown-only games: the table reports the events that matter to the countdown."""
    state = ctx.state
    if state.tracked:
        raise Refused("events_follow_tracked")
    if command.event == "escaped":
        inside = command.characters
        if inside is None or any(
            cid not in state.characters or not state.characters[cid].alive for cid in inside
        ):
            raise Refused("name_characters_in_room25")
        outcome = modes.escape_outcome(state, list(inside))
        if outcome is None:
            raise Refused("room25_cannot_leave_with_these")
        ctx.emit({"type": "escaped", "characters": list(inside)})
        ctx.emit({"type": "game_over", "outcome": outcome})
        return
    cid = command.character
    if cid is None or cid not in state.characters or not state.characters[cid].alive:
        raise Refused("not_a_living_character", character=str(cid)[:20])
    if command.event == "entered_room25":
        ctx.emit({"type": "reported", "event": command.event, "character": cid})
        board.entered_room25(ctx)
    elif command.event == "entered_timer" and state.ruleset.edition != "base":
        # The Timer room (000, 002): a turn less before the last turn; in the last turn the
        # character who entered is eliminated instead. "In both cases, the Timer room is then
        # removed from play and replaced with an empty room" (000), and the box holds one.
        if state.timer_played:
            raise Refused("timer_already_played")
        ctx.emit({"type": "reported", "event": command.event, "character": cid})
        if state.last_turn:
            _report_elimination(ctx, cid)
        else:
            ctx.emit(
                {"type": "turns_reduced", "turns_left": state.turns_left - 1, "cause": "timer"}
            )
    elif command.event == "eliminated":
        _report_elimination(ctx, cid)
    else:
        raise Refused("report_what")


def _correct(ctx: Context, command: Correct) -> None:
    """Physical tiles: the host takes back every report about a face-down room (a slip of a
    finger at a Look, or a clue), so that the room may be reported again when next seen. A
    face-up room is seen by everyone: what its report already did is undone with the undo.
    Accepted or refused whatever was reported, so it tells nobody what anyone looked at."""
    state = ctx.state
    if state.ruleset.tracking != "physical":
        raise Refused("correct_physical_only")
    cell = cell_named(command.cell)
    if state.tile_at(cell).revealed:
        raise Refused("correct_face_down_only", cell=grid.name(cell))
    ctx.emit({"type": "reports_withdrawn", "tile": state.cells[cell], "cell": grid.name(cell)})


def _report_elimination(ctx: Context, cid: str) -> None:
    state = ctx.state
    board.eliminate(ctx, cid, "reported")
    if state.phase == "programming" and state.outcome is None:
        # The others may all be locked in already: only he was still programming.
        flow.maybe_start_actions(ctx)


HANDLERS: dict[type, Callable[[Context, Any], None]] = {
    Clue: _clue,
    Program: _program,
    Act: _act,
    Wait: _wait,
    Pass: _pass,
    Choose: _choose,
    Reminder: _reminder,
    Expose: _expose,
    Next: _next,
    Report: _report,
    Correct: _correct,
    Lock: _lock,
    Unlock: _unlock,
}
