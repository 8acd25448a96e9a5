"""The heuristic policy: a seat that plans on what its seat may know, and nothing else.

The driver (`companion.sim.simulate`) hands the player its seat's `legal_commands` and a way to
ask for its `seat_view`, and before each decision the changes of its view since the last one
(`changes_for`); it answers with one of the legal commands. It keeps a `Mirror` of its view,
builds its `Knowledge` from it, and plans each character's two actions with a one-turn
lookahead (`search`) over its own model of the complex (`lines`). It never applies a command to
the real state to see what would happen (that would show it hidden rooms) and never looks at
`full_view`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from companion.engine import apply_changes
from companion.sim import choices
from companion.sim.actions import ALL_TOKENS, BLIND, step, ways
from companion.sim.complex import INDEX, INF, NEIGHBOURS
from companion.sim.knowledge import Knowledge, Memory, fingerprint_of, moved_only
from companion.sim.lines import Sim, leaf, start
from companion.sim.mirror import Mirror
from companion.sim.rooms import KNOWN_SAFE, LEVEL, REMINDER_SCORE
from companion.sim.search import (
    Looks,
    best_after,
    best_single,
    blind_first,
    highest,
    idle,
    look_values,
    looks,
    successors,
    then,
)
from companion.sim.table import Table
from companion.sim.talents import NOT_PARAMETERS

ADRENALINE_TURNS: Final = 2  # the Adrenaline token is played in the last two turns
# The commands that play or hold back the current character's action (a set: a compiled build
# tests a command's untyped "type" against it without a generic comparison per word).
ACTING: Final = frozenset(("act", "wait", "pass"))


def _params_key(params: dict) -> tuple:
    """An action's parameters, whether from the model (`ways`) or a legal command."""
    return tuple(
        (k, tuple(v) if isinstance(v, list) else v)
        for k, v in params.items()
        if k not in NOT_PARAMETERS
    )


def _tokens(command: dict) -> tuple[str, ...]:
    """A programming command's action tokens, in order."""
    return tuple(command.get("actions") or ())


def _program_key(command: dict) -> tuple:
    """A programming command without its Adrenaline flag."""
    return (command["character"], _tokens(command), command.get("talent_choice"))


def _looks_now(know: Knowledge, s0: Sim, rest: list[str]) -> dict[str, float]:
    """Each Look the character may play now, then `rest`, by direction: the Looks share their
    lines (`look_values`) instead of each stepping through the same second actions."""
    shared = looks(know, s0)
    if not shared[1]:
        return {}
    directions = [w["direction"] for w in ways(know, s0, "look")]
    return dict(zip(directions, look_values(know, s0, rest, shared), strict=True))


class HeuristicPlayer:
    """Plans each character's two actions with a one-turn lookahead (the others standing still)
    over its own model of the complex; `docs/simulate.md` gives the policy in words."""

    def __init__(
        self,
        seat: str,
        rng: random.Random,
        composition: dict[str, int] | None = None,
        table: Table | None = None,
        team_of: dict[str, str] | None = None,
        clue_index: int = 0,
        check: bool = False,
    ) -> None:
        self.seat, self.rng = seat, rng
        self.memory = Memory(seat, composition, table, team_of)
        self.table = table
        self.clue_index = clue_index
        self.check = check  # compare the mirror with a fresh seat_view at every decision
        self.mirror: Mirror | None = None
        self.view: dict = {}  # with `check`: the seat's view kept current by its changes
        self.known: Knowledge | None = None  # the knowledge of the last decision

    # --- the entry point ---

    @property
    def following(self) -> bool:
        """Whether it keeps a view that `observe` brings up to date; until its first plan it
        keeps none, and asks for its whole view then."""
        return self.mirror is not None

    def observe(self, changes: list[Any]) -> None:
        """The changes of this seat's view since it last chose (`changes_for`: the engine's
        `Change` entries, a type it does not export)."""
        if self.mirror is not None:
            self.mirror.observe(changes)
            if self.check:
                self.view = apply_changes(self.view, changes)

    def choose(self, look: Callable[[], dict], legal: list[dict]) -> dict:
        """One of `legal`; `look()` gives this seat's `seat_view` when the mirror needs it."""
        first: str = legal[0]["type"]
        if first == "clue":
            return self._clue(legal)
        named = self.mirror is None or self.mirror.names_rooms
        if named and first != "program" and any("room" in c for c in legal):
            # Physical tracking: a command that shows a tile says which room it is. The player
            # decides what to do; the simulated tile is any room the engine accepts.
            variants: dict[str, list[dict]] = {}
            for c in legal:
                plain = {k: v for k, v in c.items() if k != "room"}
                variants.setdefault(repr(sorted(plain.items())), []).append(c)
            plain_legal = [
                {k: v for k, v in group[0].items() if k != "room"} for group in variants.values()
            ]
            chosen = self.choose(look, plain_legal)
            return self.rng.choice(variants[repr(sorted(chosen.items()))])
        m = self.mirror
        if m is None:
            view = look()
            if view.get("complex") is None:
                return self.rng.choice(legal)  # countdown tracking: no board to plan on
            self.mirror = m = Mirror(view)
            self.view = view
        elif self.check:
            fresh = look()
            if self.view != fresh:
                wrong = {k: (self.view[k], fresh[k]) for k in fresh if self.view.get(k) != fresh[k]}
                raise AssertionError(f"seat {self.seat}: view kept by its changes differs: {wrong}")
            mine, theirs = m.summary(), Mirror(fresh).summary()
            if mine != theirs:
                wrong = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
                raise AssertionError(f"seat {self.seat}: mirror differs from view: {wrong}")
        actions = [c for c in legal if c["type"] in ACTING]
        if len(actions) == 1 and not self._worth_marking(m, legal):
            return actions[0]  # nothing to decide
        # Nothing this seat knows changed since its last decision (its first action after
        # programming, most often): the same knowledge, with all it has worked out.
        fingerprint = fingerprint_of(self.memory, m)
        know = self.known
        if know is None or (
            know.fingerprint != fingerprint
            and not (actions and self._plan_holds(know, m, fingerprint))
        ):
            know = self.known = Knowledge(self.memory, m, fingerprint)
        if m.pending is not None and first == "choose":
            return self._choose(know, m, legal)
        if first == "program":
            return self._program(know, legal)
        reminder = self._reminder(know, legal)
        if reminder is not None:
            return reminder
        if actions:
            return self._act(know, m, actions)
        others = [c for c in legal if c["type"] not in ("reminder", "expose")]
        return self.rng.choice(others or legal)

    @staticmethod
    def _plan_holds(know: Knowledge, m: Mirror, fingerprint: tuple) -> bool:
        """Whether a first-round action is played on the knowledge of its programming: only
        other characters moved since (no room learned, no line slid, nobody dead), so the
        values found while programming still hold for everything but their places, and
        neither the knowledge nor the action's lines are worked out again (decisions may
        differ a little from a fresh knowledge: the price of a third fewer rebuilds)."""
        me = m.current
        if m.round != 1 or me is None or me != know.me:  # `first_values` once focused on him
            return False
        if not know.first_values or not m.chars[me].program:
            return False
        return moved_only(know.fingerprint, fingerprint, list(m.chars).index(me))

    def _clue(self, legal: list[dict]) -> dict:
        """Allies agree to look at different rooms around the Central room."""
        if self.table is not None:
            wanted = ("C2", "D3", "C4", "B3")[self.clue_index % 4]
            for c in legal:
                if c["cell"] == wanted:
                    return c
        return self.rng.choice(legal)

    # --- programming and actions ---

    def _program(self, know: Knowledge, legal: list[dict]) -> dict:
        me = ""
        plans = []
        for c in legal:
            if c["type"] == "program" and not c.get("adrenaline"):
                me = me or c["character"]
                if c["character"] == me:
                    plans.append((c, _tokens(c)))
        if not plans:
            return self.rng.choice(legal)
        s0 = start(know, me)
        # A first action the plan does not follow (a push among allies, a slide that leaves
        # Room 25 alone) is never better than a Look first, when a Look can be played.
        can_look = bool(ways(know, s0, "look")) and any(t and t[0] == "look" for _, t in plans)
        # Every first action once, then every second action after it.
        firsts: dict[str, list[dict]] = {}
        per_line: dict[tuple[str, ...], list[float]] = {}  # each first line's value, in order
        shared: Looks | None = None
        best, chosen = -INF, []
        last: tuple[str, ...] = ()
        v = -INF
        for command, tokens in plans:
            if not tokens:
                chosen.append(command)
                continue
            # The choices of a talent repeat a programme's tokens, listed one after the other:
            # valued once (a repeat listed elsewhere is valued again, to the same value).
            if tokens != last:
                last = tokens
                if tokens[0] == "look":
                    if shared is None:
                        shared = looks(know, s0)
                        firsts["look"] = ways(know, s0, "look")
                    v = self._look_first(know, s0, tokens, shared, per_line)
                else:
                    v = self._after_first(know, s0, tokens, firsts, per_line, can_look)
                if len(tokens) == 1:
                    v -= 3.0  # one action only: for the Cold chamber or a trap
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif v > best - 1e-9:
                chosen.append(command)
        # What each way of playing the first token is worth, for the action itself if nothing
        # this seat knows changes before it (`_act_value`).
        memo = know.first_values
        for command in chosen:
            tokens = _tokens(command)
            line_values = per_line.get(tokens)
            if line_values is None:
                continue
            options = firsts[tokens[0]]  # in the order of its lines' values
            for i in range(len(line_values)):
                memo[(*tokens, *_params_key(options[i]))] = line_values[i]
        if know.turns_left <= ADRENALINE_TURNS:
            # The Adrenaline token is worth nothing once the game is over: in the last turns
            # the same programme takes it too (one more basic action after the second round,
            # 000, 1. PROGRAMMING, Adrenaline token), played as the position then asks.
            wanted = [_program_key(c) for c in chosen]
            boosted = [c for c in legal if c.get("adrenaline") and _program_key(c) in wanted]
            if boosted:
                return self.rng.choice(boosted)
        return self.rng.choice(chosen)

    @staticmethod
    def _look_first(
        know: Knowledge,
        s0: Sim,
        tokens: tuple[str, ...],
        shared: Looks,
        per_line: dict[tuple[str, ...], list[float]],
    ) -> float:
        """A programme that begins with a Look: the best of its Looks (`look_values`), each
        Look's value kept in `per_line` for the action itself, which then values no Look
        again."""
        rest = list(tokens[1:])
        if not shared[1]:  # no Look to play: the line after it
            return then(know, shared[0], (), rest)
        found = per_line[tokens] = look_values(know, s0, rest, shared)
        return highest(found)

    @staticmethod
    def _after_first(
        know: Knowledge,
        s0: Sim,
        tokens: tuple[str, ...],
        firsts: dict[str, list[dict]],
        per_line: dict[tuple[str, ...], list[float]],
        can_look: bool,
    ) -> float:
        """A programme that does not begin with a Look: the best line after its first token
        (each first token's ways found once, in `firsts`, and its lines stepped once,
        `successors`), each line's value kept in `per_line` for the action itself."""
        first = tokens[0]
        rest = list(tokens[1:])
        options = firsts.get(first)
        if options is None:
            options = firsts[first] = ways(know, s0, first)
        if not options:  # no way to complete it: the idle line
            return then(know, idle(know, s0), (), rest)
        if options[0] is BLIND:
            # Played blind: valued on the idle line, unless a Look may be played instead.
            return -INF if can_look else blind_first(know, s0, first, rest)
        found = per_line[tokens] = []
        v = -INF
        # Most programmes have one token left, and only a Look shows a room to branch on:
        # then the best of it (`then`, with no call between).
        second = rest[0] if len(rest) == 1 else ""
        for _, s1, looked in successors(know, s0, first, options):
            if second and not looked:
                line_value = best_single(know, s1, second)
            else:
                line_value = then(know, s1, looked, rest)
            found.append(line_value)
            if line_value > v:
                v = line_value
        return v

    def _act(self, know: Knowledge, m: Mirror, legal: list[dict]) -> dict:
        me: str = legal[0].get("character") or m.current or ""
        s0 = start(know, me)
        mine = m.chars[me]
        programmed = list(mine.program)
        free = not programmed
        first_round = m.round == 1
        later: list[str] = []
        if free and first_round:
            played = mine.played
            later = [a for a in ALL_TOKENS if a not in played]
        best, chosen = -INF, []
        look_cache: dict[str, float] = {}  # each Look's value, the Looks sharing their lines
        for command in legal:
            kind = command["type"]
            if kind == "act":
                v = self._act_value(know, s0, command, programmed, later, first_round, look_cache)
            elif kind == "wait":
                v = best_after(know, s0, programmed) - 1.0
            elif first_round and free and later:  # pass now, play in the second round
                v = best_after(know, s0, later) - 1.0
            else:
                v = leaf(know, s0)
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif v > best - 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    def _act_value(
        self,
        know: Knowledge,
        s0: Sim,
        command: dict,
        programmed: list[str],
        later: list[str],
        first_round: bool,
        looked_values: dict[str, float],
    ) -> float:
        """An action now, with the best of what this character may still play this turn."""
        action = command.get("action")
        if programmed:
            rest = [a for a in programmed if a != action] if first_round else []
            if first_round and know.first_values:
                found = know.first_values.get((action, *rest, *_params_key(command)))
                if found is not None:  # worked out while programming, on this knowledge
                    return found
            if action == "look":
                if not looked_values:
                    looked_values.update(_looks_now(know, s0, rest))
                found = looked_values.get(command.get("direction", ""))
                if found is not None:
                    return found
            s1, looked = step(know, s0, action or "lost", command)
            return then(know, s1, looked, rest)
        s1, looked = step(know, s0, action or "lost", command)
        rest = [a for a in later if a != action]
        v = leaf(know, s1)
        return max(v, then(know, s1, looked, rest)) if rest else v

    # --- choices asked by a room, a robot or a M.A.C. card ---

    def _choose(self, know: Knowledge, m: Mirror, legal: list[dict]) -> dict:
        pending = m.pending
        assert pending is not None  # asked only while a choice is pending
        kind = pending["kind"]
        me = pending["character"]
        if kind == "punishment" and me in know.chars:
            return choices.punishment(know, me, legal)
        if me not in know.pos or kind not in choices.VALUED:
            return self.rng.choice(legal)
        s0 = start(know, me)
        best, chosen = -INF, []
        for command in legal:
            v = choices.value(know, s0, kind, command)
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif v > best - 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    # --- reminder token ---

    def _worth_marking(self, m: Mirror, legal: list[dict]) -> bool:
        """Whether a reminder token may be worth placing: it is free, and this seat has seen a
        room worth marking (a guard: any room)."""
        if legal[-1]["type"] != "reminder":
            return False
        if m.mode == "suspicion":
            return True
        return any(REMINDER_SCORE.get(k, 0.0) >= 1.0 or k not in LEVEL for k in m.notebook.values())

    def _reminder(self, know: Knowledge, legal: list[dict]) -> dict | None:
        """Mark a dangerous room this seat has seen near the characters (a guard marks the exit
        or a safe room instead, to keep the prisoners away)."""
        if legal[-1]["type"] != "reminder":
            return None
        best, pick = 0.0, None
        for command in legal:
            if command["type"] != "reminder":
                continue
            c = INDEX[command["cell"]]
            kind = know.kinds.get(know.tiles[c])
            if kind is None:
                continue
            if know.guard:
                score = 3.0 if kind == "room25" else (1.0 if kind in KNOWN_SAFE else 0.0)
            else:
                score = REMINDER_SCORE.get(kind, 0.0 if kind in LEVEL else 1.0)
            if score and any(c in NEIGHBOURS[p] for p in know.pos.values()):
                score += 1.0  # next to a character
            if score > best:
                best, pick = score, command
        return pick if best >= 2.0 else None
