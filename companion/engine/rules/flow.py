"""The turn cycle (001_30b8f356e0d93ba4.txt, GAME CYCLE): starting clue, programming, the two
action rounds in turn order, and the countdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kernel.context import Context
from ..kernel.state import ACTIONS, TALENT, Character, GameState
from . import actions, board, mac, modes

if TYPE_CHECKING:
    from ..face.commands import Act

ADRENALINE_ROUND = 3
_WITH_TALENT = (*ACTIONS, TALENT)


def programs(state: GameState, c: Character) -> bool:
    """Whether a character programs secretly, rather than choosing at his turn: Solo plays
    'the action tiles instantly without programming'; an exposed guard stops programming
    from the turn after he exposed himself (001, Exposure of the Guards); a character under
    Paranoia draws his actions instead (000, Paranoia room)."""
    if c.paranoia is not None:
        return False
    if state.ruleset.mode == "solo" and not state.ruleset.settings.solo_programming:
        return False
    return not (c.exposed_turn is not None and c.exposed_turn < state.turn)


def draws(c: Character) -> bool:
    """Paranoia room (000): 'On your turn, draw a token from the top of the stack, take that
    action, and then discard the token.'"""
    return c.paranoia is not None


def by_tokens(state: GameState) -> bool:
    """The table programs with the cardboard tokens (setting `programming`): the engine learns
    each action only when its token is revealed."""
    return state.ruleset.settings.programming == "tokens"


def reveals_tokens(state: GameState, c: Character) -> bool:
    """Token programming: the character's action is named as its face-down token is turned
    over (in the adrenaline round, whether an Adrenaline token lies there at all)."""
    return by_tokens(state) and (state.round == ADRENALINE_ROUND or programs(state, c))


def chooses(state: GameState, c: Character) -> bool:
    """Whether the action is named when the slot comes rather than known from a programme: in
    the adrenaline round everyone does; otherwise those who neither program nor draw, and
    everyone whose tokens are on the cardboard pedestal."""
    if state.round == ADRENALINE_ROUND:
        return True
    # Outside the adrenaline round, `reveals_tokens` is token programming for one who programs.
    if programs(state, c):
        return by_tokens(state)
    return not draws(c)


def may_program_adrenaline(state: GameState, c: Character) -> bool:
    """ADRENALINE (000, 002): programmed during programming, once a game, and in Season 2 and
    Ultimate never in the Cold chamber (setting `cold_forbids_adrenaline`)."""
    if not (state.ruleset.settings.adrenaline and c.adrenaline):
        return False
    cell = state.where(c.id) if state.tracked else None
    cold = cell is not None and board.kind_at(state, cell) == "cold"
    return not (cold and state.ruleset.settings.cold_forbids_adrenaline)


def must_lock_in(state: GameState, c: Character) -> bool:
    """Whether the character's player locks him in (the others are ready at once)."""
    return programs(state, c) or programs_adrenaline_only(state, c)


def programmed(state: GameState, c: Character) -> bool:
    """With app programming, whether the engine knows everything the character programs."""
    return not (state.tracked and programs(state, c)) or bool(c.program)


def programs_adrenaline_only(state: GameState, c: Character) -> bool:
    """A character under Paranoia programs no action but may still program his Adrenaline
    (000, Paranoia room: 'If a player has programmed his Adrenaline, he may choose the action
    he wants'; 002: 'L'adrénaline n'est pas impactée'). Decision: so may an exposed guard, who
    'does not have to program his actions' but still holds his token where the edition lets
    him keep it (Season 2; in Ultimate he loses it)."""
    exposed = c.exposed_turn is not None and c.exposed_turn < state.turn
    return (draws(c) or exposed) and may_program_adrenaline(state, c)


def action_limits(state: GameState) -> dict[str, int]:
    """Cold chamber (001 ROOMS): 'While in this room you can only program one action', fixed
    as the programming phase opens; for a character who does not program, one action."""
    limits = {}
    for c in state.living():
        # His tile's cell read from `places` (`where`, without its call: asked of everyone).
        cell = state.places[c.tile] if state.tracked and c.tile is not None else None
        if cell is not None and board.kind_at(state, cell) == "cold":
            exposed_guard = c.exposed_turn is not None and c.exposed_turn < state.turn
            if not exposed_guard or state.ruleset.settings.cold_limits_revealed_guard:
                limits[c.id] = 1
    return limits


def start_programming(ctx: Context) -> None:
    ctx.emit({"type": "phase", "phase": "programming", "limits": action_limits(ctx.state)})
    end_paranoia(ctx)
    exposed_lose_adrenaline(ctx)
    if mac.standard_draw_due(ctx.state):
        mac.start(ctx, 2, "programming")
        if not mac.run(ctx):
            return
        open_programming(ctx)
        return
    lock_non_programmers(ctx)


def open_programming(ctx: Context) -> None:
    """After the M.A.C. draws: the Cold chamber's limits as the characters now stand."""
    ctx.emit({"type": "limits", "limits": action_limits(ctx.state)})
    lock_non_programmers(ctx)


def resume_after_draws(ctx: Context, after: str | None) -> None:
    """A batch of M.A.C. draws that waited for a choice is over: carry on with what it
    interrupted."""
    if ctx.state.outcome is not None:
        return
    if after == "programming":
        open_programming(ctx)
    elif after == "slot":
        advance(ctx)
    elif after == "action":
        complete_action(ctx)


def after_choice(ctx: Context) -> None:
    """A pending choice was made: finish the card or the action that asked for it."""
    state = ctx.state
    if state.pending is not None or state.outcome is not None:
        return
    if mac.busy(state):
        after = mac.pile(state).after
        if mac.run(ctx):
            resume_after_draws(ctx, after)
        return
    if state.phase == "action":
        complete_action(ctx)


def exposed_lose_adrenaline(ctx: Context) -> None:
    """Ultimate, exposure of the guards: 'Starting the following turn and for the rest of the
    game, a revealed guard loses his adrenaline token' (setting exposure_loses_adrenaline)."""
    state = ctx.state
    if not state.ruleset.settings.exposure_loses_adrenaline:
        return
    for c in state.living():
        if c.adrenaline and c.exposed_turn is not None and c.exposed_turn < state.turn:
            ctx.emit({"type": "adrenaline_lost", "character": c.id, "cause": "exposure"})


def end_paranoia(ctx: Context) -> None:
    """Paranoia room (000): 'Paranoia ends at the start of the next programming phase if your
    Actions pile runs out or if you've left the Paranoia room.'"""
    state = ctx.state
    for c in state.living():
        if not draws(c):
            continue
        cell = state.where(c.id)
        inside = cell is not None and board.kind_at(state, cell) == "paranoia"
        if not c.paranoia or not inside:
            ctx.emit({"type": "paranoia_ended", "character": c.id})


def lock_non_programmers(ctx: Context) -> None:
    """Those who choose at their turn are ready at once; the phase may then be over."""
    state = ctx.state
    for c in state.living():
        if not c.locked and not must_lock_in(state, c):
            ctx.emit({"type": "locked_in", "character": c.id})
    maybe_start_actions(ctx)


def maybe_start_actions(ctx: Context) -> None:
    """The actions begin once every living character is locked in (asked at every lock-in:
    one walk over the characters, stopping at the first still programming)."""
    state = ctx.state
    for c in state.characters.values():
        if c.alive and not c.locked:
            return
    if by_tokens(state):
        # Nobody knows yet whose pedestal holds an Adrenaline token: everyone who could
        # have programmed it gets the adrenaline round's slot (and may pass there).
        possible = [c.id for c in state.living() if may_program_adrenaline(state, c)]
        if possible:
            ctx.emit({"type": "adrenaline_may_follow", "characters": possible})
    ctx.emit({"type": "phase", "phase": "action", "round": 1})
    advance(ctx)


def next_slot(state: GameState) -> Character | None:
    characters, round_ = state.characters, state.round
    for cid in state.order:
        c = characters[cid]
        if c.alive and c.slots < round_ and (round_ < ADRENALINE_ROUND or c.adrenaline_programmed):
            return c
    return None


def advance(ctx: Context) -> None:
    """Give the turn to the next character with something to do, or end the round or turn."""
    state = ctx.state
    while (
        state.phase == "action"
        and state.outcome is None
        and state.pending is None
        and state.current is None
    ):
        c = next_slot(state)
        if c is not None and state.mac is not None and mac.madness_draw_due(state, c.id):
            mac.start(ctx, 1, "slot")
            mac.run(ctx)
            continue
        if c is None:
            if state.round == 1:
                ctx.emit({"type": "phase", "phase": "action", "round": 2})
                continue
            if state.round == 2 and any(c.adrenaline_programmed for c in state.living()):
                # 000, ADRENALINE: "After the Action step, if at least one player has scheduled
                # an Adrenaline action, one more round is played", in turn order.
                ctx.emit({"type": "phase", "phase": "action", "round": ADRENALINE_ROUND})
                continue
            end_turn(ctx)
            return
        begin_slot(ctx, c)


def tokens(state: GameState, c: Character) -> list[str]:
    """The action tokens a character holds: the four basic ones, the talent when talents are
    played, less those a Punishment card took for the rest of the game."""
    held = _WITH_TALENT if state.ruleset.settings.talents else ACTIONS
    return [t for t in held if t not in c.lost] if c.lost else list(held)


def free_actions(state: GameState, c: Character) -> list[str]:
    """Actions a character choosing at his turn may still play. In the adrenaline round: any
    of the four basic actions, 'even repeat an action already taken this turn or an action lost
    due to a penalty', never a talent (000, ADRENALINE). Otherwise each token once a turn (an
    exposed guard 'cannot repeat the same action'), within the Cold chamber's limit."""
    if state.round == ADRENALINE_ROUND:
        return list(ACTIONS)
    if len(c.played) >= c.limit:
        return []
    return [a for a in tokens(state, c) if a not in c.played]


def may_pass(state: GameState, c: Character) -> bool:
    """Solo: like programming a single action, a character may skip one of the two rounds.
    Token programming: an empty slot of the pedestal (a single token, played in either round;
    no Adrenaline token in the adrenaline round)."""
    if reveals_tokens(state, c):
        if state.round == ADRENALINE_ROUND:
            return True
        return state.tracked and (state.round == 1 or bool(c.played))
    if state.ruleset.mode != "solo" or not chooses(state, c) or state.round == ADRENALINE_ROUND:
        return False
    return state.round == 1 or bool(c.played)


def reminder_turn(state: GameState, seat: str) -> bool:
    """Reminder tokens (001): placed during your own turn, right before or after your action."""
    if state.phase != "action":
        return False
    # A loop rather than `any` over a generator, whose frame cost more than the two tests.
    for cid in (state.current, state.previous):
        if cid is not None and state.characters[cid].seat == seat:
            return True
    return False


def jammed_solo(state: GameState) -> bool:
    """M.A.C. Jamming in Solo: no reminder token is placed until the next round."""
    return state.mac is not None and state.mac.jammed and state.ruleset.mode == "solo"


def may_expose_now(state: GameState) -> bool:
    """Exposure of the guards: any time in his turn (001), or once the alarm is on (000)."""
    return state.ruleset.settings.guard_exposure == "any_time" or state.alarm


def due_token(c: Character) -> str | None:
    """The next programmed token: the top one first; a single token may wait for round 2."""
    return c.program[0] if c.program else None


def begin_slot(ctx: Context, c: Character) -> None:
    state = ctx.state
    if not state.tracked:
        ctx.emit({"type": "actor", "character": c.id, "round": state.round})
        return
    if chooses(state, c):
        # A token turned over is an action named at the slot (`reveals_tokens` implies
        # `chooses`): asked only here, most slots are programmed in the app.
        if reveals_tokens(state, c):
            if state.round == ADRENALINE_ROUND or free_actions(state, c):
                ctx.emit({"type": "actor", "character": c.id, "round": state.round})
            else:
                finish_slot(ctx, c)
        elif any(actions.completable(state, c.id, a) for a in free_actions(state, c)):
            ctx.emit({"type": "actor", "character": c.id, "round": state.round})
        elif state.round == ADRENALINE_ROUND:
            # Nothing can be completed: the adrenaline action is lost, and so is the token.
            ctx.emit({"type": "actor", "character": c.id, "round": state.round})
            ctx.emit({"type": "action_revealed", "character": c.id, "action": "adrenaline"})
            ctx.record({"type": "action_lost", "character": c.id, "action": "adrenaline"})
            complete_action(ctx)
        else:
            finish_slot(ctx, c)
        return
    # The programme first: most slots hold one, and are spared asking whether he draws.
    if c.program:
        ctx.emit({"type": "actor", "character": c.id, "round": state.round})
    elif draws(c) and c.paranoia:
        ctx.emit({"type": "actor", "character": c.id, "round": state.round})
        ctx.emit({"type": "token_drawn", "character": c.id, "action": c.paranoia[0]})
        c = state.characters[c.id]  # the drawn token is now his programme
    else:
        # Nothing programmed, or nothing left to draw: Paranoia (000), 'If your character uses
        # their last Action token with their first action, they will take no second action.'
        finish_slot(ctx, c)
        return
    token = c.program[0]  # `due_token`, read here without a call: every slot passes here
    if not (c.single_action and state.round == 1) and not actions.completable(state, c.id, token):
        play(ctx, c, token, None)


def play(ctx: Context, c: Character, action: str, command: Act | None) -> None:
    """Reveal the token and carry the action out; with no way to complete it, it is lost
    (`command` None: the engine plays a token nobody can complete)."""
    ctx.emit({"type": "action_revealed", "character": c.id, "action": action})
    # The command's own way first (`resolve` asks no more); only when it fails are the others
    # listed, to tell a refused way from an action lost for want of any.
    towards = None if command is None else command.direction
    ways = actions.options(ctx.state, c.id, action, towards)
    if not ways and towards is not None:
        ways = actions.options(ctx.state, c.id, action)
    if ways:
        assert command is not None, "a token the player can complete is played by his command"
        actions.resolve(ctx, c.id, action, command, ways)
    else:
        ctx.record({"type": "action_lost", "character": c.id, "action": action})
    if ctx.state.pending is None:
        complete_action(ctx)


def complete_action(ctx: Context) -> None:
    """After an action and every choice it caused: the Trapped check, then the next slot."""
    state = ctx.state
    if state.outcome is not None or state.current is None:
        return
    c = state.characters[state.current]
    if c.alive and c.trapped is not None and c.trapped_at < c.actions:
        if c.tile == c.trapped:
            board.eliminate(ctx, c.id, "trapped")
        else:
            ctx.emit({"type": "trap_cleared", "character": c.id})
        c = state.characters[c.id]  # as the Trapped chamber left him
    if ctx.state.outcome is None:  # read anew: his elimination may have ended the game
        if state.round == ADRENALINE_ROUND and c.alive:
            ctx.emit({"type": "adrenaline_used", "character": c.id})
        finish_slot(ctx, c)
        advance(ctx)


def finish_slot(ctx: Context, c: Character) -> None:
    """A character's round is over. Flooded chamber (001 ROOMS): 'After your second action of
    the next turn, if your character is still there, you drown.'"""
    state = ctx.state
    ctx.emit({"type": "slot_done", "character": c.id})
    if state.ruleset.settings.flooded_deadline == "second_action_next_turn" and state.round == 2:
        check_flood(ctx, c.id)


def _flood_due(state: GameState, cid: str) -> bool:
    """The deadline of the Flooded chamber a character entered has come."""
    c = state.characters[cid]
    return c.alive and c.flooded is not None and state.turn >= c.flooded_turn + 1


def check_flood(ctx: Context, cid: str) -> None:
    state = ctx.state
    c = state.characters[cid]
    if not _flood_due(state, cid):
        return
    if c.tile == c.flooded:
        board.eliminate(ctx, c.id, "flooded")
    else:
        ctx.emit({"type": "flood_cleared", "character": c.id})


def next_order(order: list[str], state: GameState) -> list[str]:
    """3. Countdown: the first marker goes to the end of the line. A dead character's marker
    stays in line, skull up, until it would come first: then it leaves and the next player is
    first (000, 3. COUNTDOWN, Note; the base rulebook is silent)."""
    order = order[1:] + order[:1]
    while order and not state.characters[order[0]].alive:
        order = order[1:]
    return order


def end_turn(ctx: Context) -> None:
    state = ctx.state
    if state.ruleset.settings.flooded_deadline == "end_of_next_turn":
        # Who drowns drowns together: every death is told before the end it may bring.
        due = [c.id for c in state.living() if _flood_due(state, c.id)]
        for cid in due:
            if state.characters[cid].tile != state.characters[cid].flooded:
                ctx.emit({"type": "flood_cleared", "character": cid})
        drowned = [cid for cid in due if state.characters[cid].flooded is not None]
        board.eliminate_all(ctx, drowned, "flooded")
    if state.outcome is not None:
        return
    if state.turns_left <= 1:
        ctx.emit(
            {"type": "game_over", "outcome": modes.countdown_outcome(state, board.in_room25(state))}
        )
        return
    order = next_order(state.order, state)
    ctx.emit(
        {
            "type": "countdown",
            "order": order,
            "turn": state.turn + 1,
            "turns_left": state.turns_left - 1,
        }
    )
    start_programming(ctx)


def after_command(ctx: Context) -> None:
    """Checks that hold 'at any time': take off the masks. Asked only once Room 25 is face up
    (`handlers.run`), since nobody stands in it before."""
    state = ctx.state
    if state.outcome is None and state.tracked:
        modes.take_off_masks(ctx, board.in_room25(state))
