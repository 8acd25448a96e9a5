"""Playing a scenario through the engine's public interface and checking what it expects."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.engine import GameState, apply, full_view, start
from companion.engine.position import set_position

from .expect import check
from .load import ScenarioFileError, read, scenario_files


@dataclass
class ScenarioFailure:
    where: str  # "setup", "position", "step 3", "expect"
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


@dataclass
class ScenarioResult:
    name: str
    state: GameState | None
    failures: list[ScenarioFailure] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def _complete(state: GameState, command: dict) -> dict:
    """Fill in the seat a step leaves out: the character's owner, or the pending chooser."""
    if "seat" in command:
        return {**command, "seat": str(command["seat"])}
    cid = command.get("character")
    if cid in state.characters:
        return {**command, "seat": state.characters[cid].seat}
    if command.get("type") == "choose" and state.pending is not None:
        return {**command, "seat": state.pending["seat"]}
    return command


def _expand(state: GameState, step: dict) -> list[dict]:
    """`program: {character: [actions]}` stands for one program command per character."""
    if set(step) == {"program"}:
        return [
            {"type": "program", "character": cid, "actions": tokens}
            for cid, tokens in step["program"].items()
        ]
    return [step]


def run_scenario(doc: dict, name: str = "scenario") -> ScenarioResult:
    started = start(doc["setup"])
    if not started.ok:
        return ScenarioResult(name, None, [ScenarioFailure("setup", started.refusal or "")])
    result = ScenarioResult(name, started.state, events=list(started.events))
    if "position" in doc:
        placed = set_position(result.state, doc["position"])
        if not placed.ok:
            result.failures.append(ScenarioFailure("position", placed.refusal or ""))
            return result
        result.state, result.events = placed.state, result.events + placed.events
    for number, step in enumerate(doc.get("steps", []), start=1):
        where = f"step {number}"
        if not isinstance(step, dict):
            result.failures.append(ScenarioFailure(where, "a step is a mapping"))
            return result
        if "expect" in step:
            result.failures.extend(
                ScenarioFailure(where, p) for p in check(result.state, step["expect"])
            )
            continue
        if "refused" in step:
            outcome = apply(result.state, _complete(result.state, step["refused"]))
            if outcome.ok:
                result.failures.append(ScenarioFailure(where, "expected a refusal, was accepted"))
                return result
            wanted = step.get("reason")
            if wanted and wanted.lower() not in (outcome.refusal or "").lower():
                result.failures.append(
                    ScenarioFailure(where, f"refused with {outcome.refusal!r}, not {wanted!r}")
                )
            continue
        for command in _expand(result.state, step):
            outcome = apply(result.state, _complete(result.state, command))
            if not outcome.ok:
                result.failures.append(ScenarioFailure(where, f"refused: {outcome.refusal}"))
                return result
            result.state, result.events = outcome.state, result.events + outcome.events
    result.failures.extend(
        ScenarioFailure("expect", p) for p in check(result.state, doc.get("expect", {}))
    )
    return result


def run_paths(paths: list[str | Path]) -> list[ScenarioResult]:
    """Run every scenario file under the given paths; an unreadable file is a failure too."""
    results = []
    for path in scenario_files(paths):
        try:
            doc = read(path)
        except ScenarioFileError as error:
            results.append(ScenarioResult(str(path), None, [ScenarioFailure("file", str(error))]))
            continue
        results.append(run_scenario(doc, str(path)))
    return results


def final_state(result: ScenarioResult) -> dict | None:
    return None if result.state is None else full_view(result.state)
