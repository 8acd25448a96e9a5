"""Playing a scenario through the engine's public interface and checking what it expects."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.engine import (
    HOST,
    SPECS,
    FullView,
    GameState,
    apply,
    cell_name,
    full_view,
    legal_commands,
    parse_cell,
    set_position,
    start,
)
from companion.words.said import Sayable

from .expect import check
from .load import ScenarioFileError, read, scenario_files


@dataclass
class ScenarioFailure:
    where: str  # "file", "setup", "position", "step 3", "expect"
    reason: str | Sayable  # a file's problem is the catalogue's; the rest the scenarios' words

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"

    def text(self, lang: str) -> str:
        """The failure for a person: a file's problem in their language (the path, said before
        it, names the file); the rest as the scenarios put it."""
        if isinstance(self.reason, Sayable):
            return self.reason.text(lang)
        return str(self)


@dataclass
class ScenarioResult:
    name: str
    state: GameState | None
    failures: list[ScenarioFailure] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    placed_tokens: dict[str, int] = field(default_factory=dict)  # the position's control_tokens

    @property
    def ok(self) -> bool:
        return not self.failures


CELL_FIELDS = ("cell", "robot", "from")


def _cell_name(value: object) -> object:
    """A scenario may write a cell as "c3", [2, 2] or 12; commands take "C3" only."""
    try:
        return cell_name(parse_cell(value))
    except ValueError:
        return value  # left for the engine to refuse in its own words


def _complete(state: GameState, command: dict) -> dict:
    """Fill in the seat a step leaves out (the character's owner, or the pending chooser) and
    write cells the one way commands take them."""
    command = dict(command)
    for key in CELL_FIELDS:
        if key in command:
            command[key] = _cell_name(command[key])
    if isinstance(command.get("cells"), list):
        command["cells"] = [_cell_name(c) for c in command["cells"]]
    cid = command.get("character")
    if "seat" in command:
        command["seat"] = str(command["seat"])
    elif cid in state.characters:
        command["seat"] = state.characters[cid].seat
    elif command.get("type") == "choose" and state.pending is not None:
        command["seat"] = state.pending["seat"]
    spec = SPECS.get(str(command.get("type")))  # an unknown type is left to the engine
    if cid is not None and spec is not None and "character" not in spec:
        del command["character"]  # named only to say whose seat sends it
    return command


def _expand(state: GameState, step: dict) -> list[dict]:
    """`program: {character: [actions]}` stands for one program command per character."""
    if set(step) == {"program"}:
        return [
            {"type": "program", "character": cid, "actions": tokens}
            for cid, tokens in step["program"].items()
        ]
    return [step]


# A scenario's deal is part of the rule question it puts: one fixed seed unless it names its own.
SCENARIO_SEED = 0


def _refused_setup(doc: dict, name: str) -> ScenarioResult:
    """`refused_setup: {setup, reason}`: the engine must refuse to start this game."""
    given = doc["refused_setup"]
    started = start({"seed": SCENARIO_SEED, **given["setup"]})
    if started.state is not None:
        return ScenarioResult(
            name, started.state, [ScenarioFailure("setup", "expected a refusal, was accepted")]
        )
    result = ScenarioResult(name, None)
    wrong = _wrong_reason(started.refusal, given.get("reason"))
    if wrong:
        result.failures.append(ScenarioFailure("setup", wrong))
    return result


def _offered(state: GameState, command: dict) -> bool:
    """Whether the seat's legal commands hold this one: a refused command never may be, since
    whatever `legal_commands` offers, `apply` accepts."""
    seat = command.get("seat")
    if not isinstance(seat, str) or (seat != HOST and seat not in state.seats):
        return False
    return command in legal_commands(state, seat)


def _wrong_reason(refusal: object, wanted: str | None) -> str | None:
    """The refusal told in words, when they lack the `reason` the scenario expects."""
    text = str(refusal)
    if wanted and wanted.lower() not in text.lower():
        return f"refused with {text!r}, not {wanted!r}"
    return None


def run_scenario(doc: dict, name: str = "scenario") -> ScenarioResult:
    if "refused_setup" in doc:
        return _refused_setup(doc, name)
    setup = doc["setup"]
    started = start({"seed": SCENARIO_SEED, **setup} if isinstance(setup, dict) else setup)
    if started.state is None:
        return ScenarioResult(name, None, [ScenarioFailure("setup", str(started.refusal))])
    state = started.state  # kept equal to result.state, which a failed setup leaves None
    result = ScenarioResult(name, state, events=list(started.events))
    if "position" in doc:
        position = dict(doc["position"])
        tokens = position.pop("control_tokens", {})
        if set(tokens) - set(position.get("controls", {})):
            reason = "control_tokens lie only beside lines that 'controls' gives a direction"
            result.failures.append(ScenarioFailure("position", reason))
            return result
        if any(count < 1 for count in tokens.values()):
            result.failures.append(
                ScenarioFailure("position", "control_tokens counts are 1 or more")
            )
            return result
        result.placed_tokens = tokens
        placed = set_position(state, position)
        if not placed.ok:
            result.failures.append(ScenarioFailure("position", str(placed.refusal)))
            return result
        state = result.state = placed.state
        result.events = result.events + placed.events
    for number, step in enumerate(doc.get("steps", []), start=1):
        where = f"step {number}"
        if not isinstance(step, dict):
            result.failures.append(ScenarioFailure(where, "a step is a mapping"))
            return result
        if "expect" in step:
            result.failures.extend(
                ScenarioFailure(where, p)
                for p in check(state, step["expect"], result.events, result.placed_tokens)
            )
            continue
        if "refused" in step:
            command = _complete(state, step["refused"])
            outcome = apply(state, command)
            if outcome.ok:
                result.failures.append(ScenarioFailure(where, "expected a refusal, was accepted"))
                return result
            if _offered(state, command):
                reason = "refused, yet legal_commands offers it"
                result.failures.append(ScenarioFailure(where, reason))
            wrong = _wrong_reason(outcome.refusal, step.get("reason"))
            if wrong:
                result.failures.append(ScenarioFailure(where, wrong))
            continue
        for command in _expand(state, step):
            outcome = apply(state, _complete(state, command))
            if not outcome.ok:
                result.failures.append(ScenarioFailure(where, f"refused: {outcome.refusal}"))
                return result
            state = result.state = outcome.state
            result.events = result.events + outcome.events
    result.failures.extend(
        ScenarioFailure("expect", p)
        for p in check(state, doc.get("expect", {}), result.events, result.placed_tokens)
    )
    return result


def run_paths(paths: list[str | Path]) -> list[ScenarioResult]:
    """Run every scenario file under the given paths; an unreadable file is a failure too."""
    results = []
    for path in scenario_files(paths):
        try:
            doc = read(path)
        except ScenarioFileError as error:
            failure = ScenarioFailure("file", error.problem)  # the report names the file already
            results.append(ScenarioResult(str(path), None, [failure]))
            continue
        try:
            results.append(run_scenario(doc, str(path)))
        except Exception as error:  # a gap in the shape checks: one line, never a traceback
            reason = f"internal error, please report it: {type(error).__name__}: {error}"
            results.append(ScenarioResult(str(path), None, [ScenarioFailure("run", reason[:200])]))
    return results


def final_state(result: ScenarioResult) -> FullView | None:
    return None if result.state is None else full_view(result.state)
