"""Rule scenarios: a rigged complex, a position, steps and expected outcomes, as data files
(docs/scenarios.md). `room25 scenario PATH...` runs them; tests/scenarios holds the rules'."""

from .run import ScenarioFailure, ScenarioResult, run_paths, run_scenario

__all__ = ["ScenarioFailure", "ScenarioResult", "run_paths", "run_scenario"]
