"""Commands in, events out: `apply` checks a command against the state and answers with the
events it causes and the new state, or with a plain refusal that changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import abilities as _abilities  # noqa: F401 (registers the characters' talents)
from . import actions, board, flow, grid, modes, rooms, talents
from . import new_rooms as _new_rooms  # noqa: F401 (registers the new rooms' effects)
from .context import Context, Refused, cell_named
from .setup import new_game
from .state import HOST, Character, GameState


@dataclass(frozen=True)
class Result:
    """What a command did: the new state and its events, or a refusal and the state unchanged."""

    state: GameState
    events: list[dict] = field(default_factory=list)
    refusal: str | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None


def start(setup: dict) -> Result:
    """Begin a game; an impossible setup is refused with the reason."""
    try:
        ctx = new_game(setup)
    except Refused as refusal:
        return Result(state=None, refusal=str(refusal))  # type: ignore[arg-type]
    return Result(ctx.state, ctx.events)


def apply(state: GameState, command: dict) -> Result:
    """Apply one command on a copy of the state; the given state is never changed."""
    try:
        _check_envelope(state, command)
        ctx = Context(state.clone())
        COMMANDS[command["type"]](ctx, command)
        flow.after_command(ctx)
    except Refused as refusal:
        return Result(state, [], str(refusal))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
        # A field of an unexpected shape that slipped past the checks above: still a plain
        # answer and an untouched game rather than a crash at the table.
        return Result(state, [], f"That command is not well formed ({type(error).__name__}).")
    return Result(ctx.state, ctx.events)


HOST_COMMANDS = ("next", "report", "choose")  # what the table itself may send
# The shapes a command's fields may take (anything else is refused before the rules look at it).
WORDS = (
    "seat",
    "character",
    "target",
    "action",
    "direction",
    "room",
    "token",
    "card",
    "robot",
    "order",
    "event",
    "line",
    "ability",
    "from",
    "answer",
    "talent_choice",
)
LISTS = ("actions", "cells", "characters")


def _check_envelope(state: GameState, command: object) -> None:
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise Refused('A command is an object with a "type", such as {"type": "act", ...}.')
    if command["type"] not in COMMANDS:
        raise Refused(f"Unknown command {command['type']!r}: {', '.join(sorted(COMMANDS))}.")
    for name in WORDS:
        if name in command and not isinstance(command[name], str | None):
            raise Refused(f'"{name}" is a word, such as a name or a direction.')
    for name in LISTS:
        value = command.get(name)
        if value is not None and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            raise Refused(f'"{name}" is a list of words.')
    if "cell" in command and not isinstance(command["cell"], str | int | list | None):
        raise Refused('"cell" names a cell, such as "C3".')
    version = command.get("version")
    if version is not None and version != state.version:
        raise Refused(
            "That was sent for an earlier moment of the game; the game has moved on since. "
            "Look at the screen again and repeat if it still applies."
        )
    seat = command.get("seat")
    if not isinstance(seat, str) or (seat != HOST and seat not in state.seats):
        raise Refused(f"Unknown seat {seat!r}.")
    if seat == HOST and command["type"] not in HOST_COMMANDS:
        raise Refused("That is a player's command: send it from the player's seat.")
    if state.outcome is not None:
        raise Refused("The game is over.")
    pending = state.pending
    if pending is not None and command["type"] != "choose":
        who = modes.display(pending["character"])
        raise Refused(f"The game is waiting for {who}'s choice first.")


def _own(state: GameState, seat: str, cid: object) -> Character:
    if cid not in state.characters or state.characters[cid].seat != seat:
        raise Refused(f"{cid!r} is not one of your characters.")
    c = state.characters[cid]
    if not c.alive:
        raise Refused(f"{modes.display(c.id)} has been eliminated.")
    return c


def _actor(state: GameState, seat: str, command: dict) -> Character:
    if state.phase != "action" or state.current is None:
        raise Refused("It is nobody's action now.")
    c = state.characters[state.current]
    if c.seat != seat:
        raise Refused(f"It is {modes.display(c.id)}'s action, not yours.")
    if "character" in command and command["character"] != c.id:
        raise Refused(f"It is {modes.display(c.id)}'s action now.")
    return c


def _clue(ctx: Context, command: dict) -> None:
    """Starting clue (001, SETUP): each player looks at ONE room next to the Central room."""
    state = ctx.state
    seat = state.seats[command["seat"]]
    if state.phase != "clue":
        raise Refused("The starting clue is taken before the first programming phase.")
    if seat.clue is not None:
        raise Refused("Each player looks at only one room for the starting clue.")
    cell = cell_named(command.get("cell"))
    if cell not in grid.neighbours(grid.CENTRE).values():
        raise Refused("The starting clue is one of the four rooms next to the Central room.")
    tile = state.tile_at(cell)
    ctx.emit("clue_taken", seat=seat.id, cell=grid.name(cell))
    kind = board.identify(ctx, tile.id, command.get("room"), private=seat.id)
    ctx.emit("room_seen", seat=seat.id, tile=tile.id, room=kind, private=seat.id)
    if all(s.clue is not None for s in state.seats.values()):
        flow.start_programming(ctx)


def _program(ctx: Context, command: dict) -> None:
    """1. Programming: two different tokens in order, or one token to play in either round."""
    state = ctx.state
    c = _own(state, command["seat"], command.get("character"))
    if state.phase != "programming":
        raise Refused("It is not the programming phase.")
    if c.locked:
        raise Refused(f"{modes.display(c.id)}'s programming is already locked in.")
    if flow.programs_adrenaline_only(state, c):
        _program_adrenaline_only(ctx, c, command)
        return
    if not flow.programs(state, c):
        raise Refused(f"{modes.display(c.id)} plays without programming.")
    boost = _adrenaline(state, c, command.get("adrenaline", False))
    choice = command.get("talent_choice")
    if state.tracked:
        tokens = command.get("actions")
        held = flow.tokens(state, c)
        if not isinstance(tokens, list) or not 1 <= len(tokens) <= 2:
            raise Refused("Program one or two actions.")
        if any(t not in held for t in tokens):
            raise Refused(f"{modes.display(c.id)}'s action tokens are: {', '.join(held)}.")
        if len(set(tokens)) != len(tokens):
            raise Refused("Each action token can be programmed only once.")
        if len(tokens) > c.limit:
            raise Refused("In the Cold chamber you can only program one action.")
        talents.check_choice(state, c.id, tokens, choice)
        ctx.emit(
            "programmed",
            character=c.id,
            tokens=list(tokens),
            adrenaline=boost,
            talent_choice=choice,
            private=c.seat,
        )
    elif boost:
        ctx.emit("programmed", character=c.id, tokens=[], adrenaline=True, private=c.seat)
    ctx.emit("locked_in", character=c.id)
    flow.maybe_start_actions(ctx)


def _program_adrenaline_only(ctx: Context, c: Character, command: dict) -> None:
    """Under Paranoia the actions come from the pile; only the Adrenaline is programmed."""
    if command.get("actions"):
        raise Refused(
            f"{modes.display(c.id)} draws his actions from the Paranoia pile: program only the "
            "Adrenaline (or nothing)."
        )
    if _adrenaline(ctx.state, c, command.get("adrenaline", False)):
        ctx.emit("programmed", character=c.id, tokens=[], adrenaline=True, private=c.seat)
    ctx.emit("locked_in", character=c.id)
    flow.maybe_start_actions(ctx)


def _adrenaline(state: GameState, c: Character, wanted: object) -> bool:
    """ADRENALINE (000, 002): programmed or not during programming, once a game, never in the
    Cold chamber."""
    if wanted is False:
        return False
    if wanted is not True:
        raise Refused('"adrenaline" is true or false.')
    if not state.ruleset.settings.adrenaline:
        raise Refused("This game is played without adrenaline.")
    if not c.adrenaline:
        raise Refused(f"{modes.display(c.id)} no longer has the Adrenaline token.")
    cell = state.where(c.id) if state.tracked else None
    cold = cell is not None and board.kind_at(state, cell) == "cold"
    if cold and state.ruleset.settings.cold_forbids_adrenaline:
        raise Refused("In the Cold chamber you cannot program your Adrenaline.")
    return True


def _act(ctx: Context, command: dict) -> None:
    """2. Action: reveal the programmed token (or choose one, without programming) and play it."""
    state = ctx.state
    c = _actor(state, command["seat"], command)
    if not state.tracked:
        raise Refused('Without a tracked board, say "next" when the action is done.')
    wanted = command.get("action")
    if not flow.chooses(state, c):
        action = flow.due_token(c)
        assert action is not None
        if wanted is not None and wanted != action:
            how = "drawn" if flow.draws(c) else "programmed"
            raise Refused(f"The {how} action is {action}; it must be played.")
        flow.play(ctx, c, action, command)
        return
    choices = [a for a in flow.free_actions(state, c) if actions.options(state, c.id, a)]
    if wanted not in choices:
        raise Refused(f"Choose one of: {', '.join(choices) or 'nothing left this turn'}.")
    flow.play(ctx, c, wanted, command)


def _wait(ctx: Context, command: dict) -> None:
    """A single programmed action may wait for the second round (001, 1. Programming)."""
    state = ctx.state
    c = _actor(state, command["seat"], command)
    if not (c.flexible and state.round == 1 and c.program):
        raise Refused("Only a single programmed action can wait for the second round.")
    flow.finish_slot(ctx, c)
    flow.advance(ctx)


def _pass(ctx: Context, command: dict) -> None:
    state = ctx.state
    c = _actor(state, command["seat"], command)
    if not flow.may_pass(state, c):
        raise Refused("You must play an action now.")
    flow.finish_slot(ctx, c)
    flow.advance(ctx)


def _choose(ctx: Context, command: dict) -> None:
    state = ctx.state
    pending = state.pending
    if pending is None:
        raise Refused("There is no choice to make now.")
    if pending["seat"] not in (HOST, command["seat"]):
        raise Refused(f"The choice is {modes.display(pending['character'])}'s to make.")
    rooms.resolve_choice(ctx, command)
    flow.after_choice(ctx)


def _reminder(ctx: Context, command: dict) -> None:
    """Reminder token (001, Reminder Tokens): placed during your turn on a hidden room."""
    state = ctx.state
    seat = state.seats[command["seat"]]
    if not state.ruleset.settings.reminder_tokens:
        raise Refused("This game is played without reminder tokens.")
    if not state.tracked:
        raise Refused("Without a tracked board, reminder tokens stay on the cardboard only.")
    turn_holders = [state.current, state.previous] if state.phase == "action" else []
    if not any(cid is not None and state.characters[cid].seat == seat.id for cid in turn_holders):
        raise Refused(
            "A reminder token is placed during your own turn, right before or after your action."
        )
    if len(seat.reminders) >= len(seat.characters):
        raise Refused(
            "Your reminder token is already on the board until that room is revealed "
            "(one token for each character you play)."
        )
    cell = cell_named(command.get("cell"))
    tile = state.tile_at(cell)
    if tile.revealed:
        raise Refused("A reminder token goes on a room that is still hidden.")
    if tile.id in seat.reminders:
        raise Refused("One of your reminder tokens already marks that room.")
    if state.mac is not None and state.mac.jammed and state.ruleset.mode == "solo":
        raise Refused("Jamming: no reminder token can be placed until the next round.")
    ctx.emit("reminder_placed", seat=seat.id, tile=tile.id, cell=grid.name(cell))


def _expose(ctx: Context, command: dict) -> None:
    """Exposure of the Guards (001, Suspicion Mode): at any time during his turn."""
    state = ctx.state
    c = _actor(state, command["seat"], command)
    if state.ruleset.mode != "suspicion" or c.role != "guard":
        raise Refused("Only a guard can expose himself.")
    if c.exposed_turn is not None:
        raise Refused("You are already exposed.")
    if state.ruleset.settings.guard_exposure == "after_alarm" and not state.alarm:
        raise Refused("A guard may expose himself only once the alarm has gone off.")
    ctx.emit("guard_exposed", character=c.id, role="guard")


def _next(ctx: Context, command: dict) -> None:
    """Countdown-only games: the table says the current action is done."""
    state = ctx.state
    if state.tracked:
        raise Refused("With a tracked board, play the action itself.")
    if state.phase != "action" or state.current is None:
        raise Refused("It is nobody's action now.")
    c = state.characters[state.current]
    if command["seat"] not in (HOST, c.seat):
        raise Refused(f"It is {modes.display(c.id)}'s action.")
    if state.round == flow.ADRENALINE_ROUND:
        ctx.emit("adrenaline_used", character=c.id)
    flow.finish_slot(ctx, c)
    flow.advance(ctx)


def _report(ctx: Context, command: dict) -> None:
    """Countdown-only games: the table reports the events that matter to the countdown."""
    state = ctx.state
    if state.tracked:
        raise Refused("With a tracked board, these events follow from the actions played.")
    event = command.get("event")
    if event == "escaped":
        inside = command.get("characters")
        if not isinstance(inside, list) or any(
            cid not in state.characters or not state.characters[cid].alive for cid in inside
        ):
            raise Refused('Name the living characters inside Room 25 as "characters".')
        outcome = modes.escape_outcome(state, inside)
        if outcome is None:
            raise Refused(
                "Room 25 cannot leave the complex with these characters now: not everyone who "
                "must escape is inside (one missing is allowed only in the last turn)."
            )
        ctx.emit("escaped", characters=list(inside))
        ctx.emit("game_over", outcome=outcome)
        return
    cid = command.get("character")
    if cid not in state.characters or not state.characters[cid].alive:
        raise Refused(f"{cid!r} is not a living character.")
    if event == "entered_room25":
        ctx.emit("reported", event=event, character=cid)
        board.entered_room25(ctx)
    elif event == "entered_timer" and state.ruleset.edition != "base":
        # The Timer room (000, 002): a turn less before the last turn; in the last turn the
        # character who entered is eliminated instead.
        ctx.emit("reported", event=event, character=cid)
        if state.last_turn:
            _report_elimination(ctx, cid)
        else:
            ctx.emit("turns_reduced", turns_left=state.turns_left - 1, cause="timer")
    elif event == "eliminated":
        _report_elimination(ctx, cid)
    else:
        raise Refused(
            "Report entered_room25, entered_timer (Season 2, Ultimate), eliminated or escaped."
        )


def _report_elimination(ctx: Context, cid: str) -> None:
    state = ctx.state
    board.eliminate(ctx, cid, "reported")
    if state.phase == "programming" and state.outcome is None:
        # The others may all be locked in already: only he was still programming.
        flow.maybe_start_actions(ctx)


COMMANDS: dict[str, Callable[[Context, dict], None]] = {
    "clue": _clue,
    "program": _program,
    "act": _act,
    "wait": _wait,
    "pass": _pass,
    "choose": _choose,
    "reminder": _reminder,
    "expose": _expose,
    "next": _next,
    "report": _report,
}
