"""Reading scenario files (YAML or JSON) into plain dictionaries."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

SUFFIXES = (".yaml", ".yml", ".json")


class ScenarioFileError(ValueError):
    """A scenario file that cannot be read; the message names the file and the problem."""


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """The scenario files named, folders searched recursively, in a stable order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES))
        elif path.is_file():
            found.append(path)
        else:
            raise ScenarioFileError(f"{path}: no such file or folder")
    return found


def read(path: Path) -> dict:
    try:
        text = path.read_text("utf-8")
        doc = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as error:
        raise ScenarioFileError(f"{path}: cannot be read: {error}") from None
    if not isinstance(doc, dict) or "setup" not in doc:
        raise ScenarioFileError(f"{path}: a scenario is a mapping with at least a 'setup'")
    return normalise_setup(doc)


def normalise_setup(doc: dict) -> dict:
    """Accept a complex written as five lines of room names as well as a list of lists, and a
    bare YAML `off` for the M.A.C. level."""
    setup = dict(doc["setup"])
    settings = setup.get("settings")
    if isinstance(settings, dict) and settings.get("mac") is False:
        # YAML reads a bare `off` as false: the scenario writer meant the level "off".
        setup["settings"] = {**settings, "mac": "off"}
    rows = setup.get("complex")
    if isinstance(rows, str):
        setup["complex"] = [line.split() for line in rows.strip().splitlines()]
    return {**doc, "setup": setup}
