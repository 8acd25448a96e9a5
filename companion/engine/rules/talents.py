"""Special talents (Season 2 and Ultimate): the fifth action token, one per character.

Each character's talent is an entry of `TALENTS` (registered in abilities.py): what completes it
now (`options`, each a set of the command's parameters) and what it does (`resolve`). A talent
with no option now cannot be completed, so its token is lost like any action. A character with
two abilities names one in each option ("ability"); only playable abilities are offered, which
is the rule "If either of his abilities are not playable when it is time to resolve, he must
use the other ability" (000, EMMETT, KEVIN, SARAH).

Talents are never played in the Central room nor through adrenaline (000, SPECIAL ABILITIES:
"Special Abilities CANNOT be used in the Central Room NOR using Adrenaline"; 002: "Les Talents
spéciaux ne sont réalisables ni dans la salle de départ ni en utilisant l'adrénaline").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..kernel import grid
from ..kernel.context import Context, Refused
from ..kernel.grid import Cell
from ..kernel.registry import Table
from ..kernel.state import TALENT, GameState

Options = Callable[[GameState, str], list[dict]]
Resolve = Callable[[Context, str, dict], None]  # (ctx, character, params)


@dataclass(frozen=True)
class Talent:
    name: str
    options: Options
    resolve: Resolve
    abilities: tuple[str, ...] = ()  # the two abilities of one token, when there are two


TALENTS: Table[Talent] = Table("character")  # every character of the catalogue has one
CELL_FIELDS = ("cell", "from")  # parameters naming one cell; "cells" names two


def register(
    character: str, name: str, options: Options, resolve: Resolve, abilities: tuple = ()
) -> None:
    """File a character's talent: its name, its options now and what it does."""
    TALENTS.register(character)(Talent(name, options, resolve, abilities))


def options(state: GameState, cid: str) -> list[dict]:
    """Every way the character's talent can be completed now."""
    if cid not in TALENTS:
        return []
    found = TALENTS[cid].options(state, cid)
    if state.where(cid) == grid.CENTRE:
        return [o for o in found if _allowed_in_centre(state, o)]
    return found


def _allowed_in_centre(state: GameState, option: dict) -> bool:
    """Both rulebooks ban every talent in the Central room; the online adaptation's notes (003)
    say Emmett's Lock on an adjacent room should work there: setting `lock_from_central`."""
    return option.get("ability") == "lock" and state.ruleset.settings.lock_from_central


def play(ctx: Context, cid: str, params: dict) -> None:
    """Carry out the talent with the player's parameters, refusing any the rules forbid."""
    params = _normalised(params)
    legal = options(ctx.state, cid)
    if params not in legal:
        raise Refused("not_a_way_to_use_talent", talent=cid, ways=legal[:8])
    ctx.record({"type": "action_played", "character": cid, "action": TALENT, **params})
    TALENTS[cid].resolve(ctx, cid, params)


def _normalised(params: dict) -> dict:
    """Cells as names ('B2'); the two cells of a swap in reading order."""
    found = dict(params)
    for key in CELL_FIELDS:
        if key in found:
            found[key] = _cell_name(found[key])
    cells = found.get("cells")
    if isinstance(cells, list) and len(cells) == 2:
        names = [_cell_name(c) for c in cells]
        if all(isinstance(n, str) and _is_cell(n) for n in names):
            found["cells"] = sorted(names, key=grid.parse_cell)
    return found


def _cell_name(value: object) -> object:
    try:
        return grid.name(grid.parse_cell(value))
    except ValueError:
        return value


def _is_cell(name: str) -> bool:
    try:
        grid.parse_cell(name)
    except ValueError:
        return False
    return True


def shown_cell(state: GameState, cid: str, option: dict) -> Cell | None:
    """The cell whose room a talent may reveal: where a carry or a robot's order goes."""
    if "robot" in option:
        return grid.neighbour(grid.parse_cell(option["robot"]), option["direction"])
    here = state.where(cid)
    if "direction" in option and here is not None:
        return grid.neighbour(here, option["direction"])
    return None


def programming_choices(state: GameState, cid: str) -> tuple[str, ...]:
    """The abilities a character picks among while programming his talent token: Kevin, when
    the setting `kevin_chooses` is "programming" (000, KEVIN: "He makes his choice when
    programming the action"; 002: "Il fait son choix au moment de réaliser l'action")."""
    settings = state.ruleset.settings
    if cid == "kevin" and settings.talents and settings.kevin_chooses == "programming":
        return TALENTS[cid].abilities
    return ()


def check_choice(state: GameState, cid: str, tokens: list[str], choice: object) -> None:
    """Refuse a programming whose talent choice the rules do not ask for, or miss."""
    wanted = programming_choices(state, cid) if TALENT in tokens else ()
    if not wanted:
        if choice is not None:
            raise Refused("no_talent_choice", character=cid)
        return
    if choice not in wanted:
        raise Refused("talent_choice_needed", character=cid, abilities=list(wanted))


def may_refuse_robot_push(state: GameState, cid: str) -> bool:
    """000, ALICE, Immunity to robots (android): "Alice is secretly an android. Even when she
    is not hidden, she may choose not to be pushed by a robot." Bruce does not have "the
    immunities of other characters such as 'Android' or 'Pin'"."""
    return cid == "alice" and state.ruleset.settings.talents
