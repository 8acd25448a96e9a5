"""Reading scenario files (YAML or JSON) into plain dictionaries, their shape checked once.

A scenario is written by hand: a wrong shape (a number where a list goes, an unknown cell in an
expectation, a file far too large or nested too deep) is named here in one plain line with the
file, the key and what was expected, before anything is played. The engine then only ever sees
well-formed pieces and answers in its own words (a refusal) for what breaks a rule.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path

import yaml

from companion.engine import grid, parse_cell

SUFFIXES = (".yaml", ".yml", ".json")

# The rule scenarios are 1-3 kB; a question that needs more than this is not one question.
MAX_BYTES = 256 * 1024
MAX_DEPTH = 32  # mappings and lists inside one another
MAX_STEPS = 1000
QUOTE = 80  # what a message repeats of the input, at most

# libyaml's safe loader when PyYAML was built with it: the same documents, ten times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ScenarioFileError(ValueError):
    """A scenario file that cannot be read; the message names the file and the problem."""


def quote(value: object) -> str:
    """A piece of the input as a message repeats it: its repr, cut to QUOTE characters."""
    text = repr(value)
    return text if len(text) <= QUOTE else text[: QUOTE - 3] + "..."


def _kind(value: object) -> str:
    """A value named in the words of YAML and JSON, as the writer of the file sees it."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the flag {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {quote(value)}"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """The scenario files named, folders searched recursively, in a stable order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES))
        elif path.exists():
            found.append(path)  # a special file too: reading it says what is wrong with it
        else:
            raise ScenarioFileError(f"{quote(str(path))[1:-1]}: no such file or folder")
    return found


def _text(path: Path) -> str:
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise ScenarioFileError(f"{path}: cannot be read ({error.strerror})") from None
    if len(data) > MAX_BYTES:
        raise ScenarioFileError(
            f"{path}: larger than {MAX_BYTES // 1024} kB; a scenario puts one rules question"
        )
    if not data.strip():
        raise ScenarioFileError(f"{path}: the file is empty; a scenario needs at least a 'setup'")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioFileError(f"{path}: not UTF-8 text") from None


def _parse(path: Path, text: str) -> object:
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return yaml.load(text, Loader=_LOADER)  # CSafeLoader or SafeLoader
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise ScenarioFileError(f"{path}: not valid JSON ({where}): {error.msg}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = str(getattr(error, "problem", None) or "unreadable")[:QUOTE]
        raise ScenarioFileError(f"{path}: not valid YAML{where}: {problem}") from None
    except RecursionError:
        raise ScenarioFileError(f"{path}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as error:  # a number of more than 4300 digits
        raise ScenarioFileError(
            f"{path}: a number too long to read ({str(error)[:QUOTE]})"
        ) from None


def _depth(doc: object) -> int:
    """How deep mappings and lists nest, counted without recursion."""
    deepest, todo = 0, [(doc, 1)]
    while todo:
        node, level = todo.pop()
        if isinstance(node, dict):
            children: list = list(node.values())
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        todo.extend((child, level + 1) for child in children)
    return deepest


def read(path: Path) -> dict:
    """A scenario file, read within its bounds, its shape checked, its setup normalised."""
    doc = _parse(path, _text(path))
    if _depth(doc) > MAX_DEPTH:
        raise ScenarioFileError(f"{path}: nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        return normalise_setup(check_shape(doc))
    except ShapeError as error:
        raise ScenarioFileError(f"{path}: {error}") from None


def normalise_setup(doc: dict) -> dict:
    """Accept a complex written as five lines of room names as well as a list of lists, and a
    bare YAML `off` for the M.A.C. level."""
    if "setup" in doc:
        return {**doc, "setup": _normalised(doc["setup"])}
    refused = doc["refused_setup"]
    return {**doc, "refused_setup": {**refused, "setup": _normalised(refused["setup"])}}


def _normalised(given: dict) -> dict:
    setup = dict(given)
    settings = setup.get("settings")
    if isinstance(settings, dict) and settings.get("mac") is False:
        # YAML reads a bare `off` as false: the scenario writer meant the level "off".
        setup["settings"] = {**settings, "mac": "off"}
    rows = setup.get("complex")
    if isinstance(rows, str):
        setup["complex"] = [line.split() for line in rows.strip().splitlines()]
    return setup


# --- the shape of a scenario -------------------------------------------------------------------


class ShapeError(ValueError):
    """One misshapen piece: where it is (a dotted key path) and what was expected there."""

    def __init__(self, where: str, expected: str, value: object) -> None:
        super().__init__(f"{where}: expected {expected}, not {_kind(value)}")

    @classmethod
    def plain(cls, message: str) -> ShapeError:
        error = cls.__new__(cls)
        ValueError.__init__(error, message)
        return error

    @classmethod
    def unknown_key(cls, where: str, key: object, known: list[str]) -> ShapeError:
        close = difflib.get_close_matches(str(key), known, n=1)
        if close:
            hint = f" (did you mean '{close[0]}'?)"
        elif len(known) <= 8:
            hint = f"; the keys are {', '.join(known)}"
        else:
            hint = "; docs/scenarios.md lists the keys"
        return cls.plain(f"{where}: unknown key {quote(key)}{hint}")


Check = Callable[[object, str], None]


def _text_value(value: object, where: str) -> None:
    if not isinstance(value, str):
        raise ShapeError(where, "a text", value)


def _whole(value: object, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShapeError(where, "a whole number", value)


def _flag(value: object, where: str) -> None:
    if not isinstance(value, bool):
        raise ShapeError(where, "true or false", value)


def _anything(value: object, where: str) -> None:
    return None


def _cell(value: object, where: str) -> None:
    try:
        parse_cell(value)
    except (ValueError, TypeError):
        raise ShapeError(where, "a cell such as C3 (column A-E, row 1-5)", value) from None


def _key_cell(value: object, where: str) -> None:
    """A cell used as a mapping key: YAML reads `C3:` as text, JSON has only text keys."""
    if not (isinstance(value, str) and value in grid.NAMED):
        raise ShapeError(where, "a cell such as C3 (column A-E, row 1-5)", value)


def _optional(check: Check) -> Check:
    def checked(value: object, where: str) -> None:
        if value is not None:
            check(value, where)

    return checked


def _list_of(item: Check, what: str = "a list") -> Check:
    def checked(value: object, where: str) -> None:
        if not isinstance(value, list):
            raise ShapeError(where, what, value)
        for number, entry in enumerate(value, start=1):
            item(entry, f"{where}[{number}]")

    return checked


def _map_of(item: Check, key: Check = _text_value, what: str = "a mapping") -> Check:
    def checked(value: object, where: str) -> None:
        if not isinstance(value, dict):
            raise ShapeError(where, what, value)
        for k, entry in value.items():
            key(k, f"{where} key")
            item(entry, f"{where}.{k}")

    return checked


def _one_of(*checks: Check, what: str) -> Check:
    def checked(value: object, where: str) -> None:
        for check in checks:
            try:
                check(value, where)
            except ShapeError:
                continue
            return
        raise ShapeError(where, what, value)

    return checked


def _fields(known: dict[str, Check], what: str, required: tuple[str, ...] = ()) -> Check:
    """A mapping of named fields, each with its own shape; an unknown name is an error."""

    def checked(value: object, where: str) -> None:
        if not isinstance(value, dict):
            raise ShapeError(where, what, value)
        for key in required:
            if key not in value:
                raise ShapeError(where, f"{what} with a '{key}'", value)
        for key, entry in value.items():
            if key not in known:
                raise ShapeError.unknown_key(where, key, list(known))
            known[key](entry, f"{where}.{key}")

    return checked


_TEXTS = _list_of(_text_value, "a list of names")
_CELLS = _list_of(_cell, "a list of cells")
_REMINDER = _optional(_one_of(_cell, _CELLS, what="a cell, a list of cells or null"))
_TOKENS = _map_of(_list_of(_text_value, "a list of action tokens"), what="{character: [tokens]}")

POSITION: dict[str, Check] = {
    "turn": _whole,
    "turns_left": _whole,
    "alarm": _flag,
    "phase": _text_value,
    "round": _whole,
    "order": _TEXTS,
    "positions": _map_of(_cell, what="{character: cell}"),
    "revealed": _CELLS,
    "sealed": _CELLS,
    "eliminated": _TEXTS,
    "programs": _TOKENS,
    "done": _TEXTS,
    "played": _TOKENS,
    "controls": _map_of(_text_value, what="{line: direction}"),
    "control_tokens": _map_of(_whole, what="{line: number of Control tokens}"),
    "reminders": _map_of(_REMINDER, what="{seat: cell}"),
    "notebooks": _map_of(_map_of(_text_value, _key_cell), what="{seat: {cell: room}}"),
    "trapped": _TEXTS,
    "flooded": _map_of(_whole, what="{character: turn}"),
    "exposed": _map_of(_whole, what="{character: turn}"),
    "roles_revealed": _TEXTS,
    "clues": _one_of(
        lambda v, w: None if v == "all" else _text_value(None, w),
        _map_of(_cell),
        what="'all' or {seat: cell}",
    ),
    "mac": _fields(
        {"draw": _TEXTS, "discard": _TEXTS, "in_play": _TEXTS}, "{draw, discard, in_play}"
    ),
    "lost": _TOKENS,
    "adrenaline": _map_of(_flag, what="{character: true or false}"),
    "robots": _CELLS,
    "corridors": _map_of(_text_value, _key_cell, what="{cell: corridor}"),
    "paranoia": _TOKENS,
    "key_activated": _flag,
    "hidden": _TEXTS,
    "locks": _CELLS,
    "reserve": _map_of(_whole, what="{character: count}"),
    "talent_choices": _map_of(_text_value, what="{character: ability}"),
    "adrenaline_programmed": _TEXTS,
    "action_limits": _map_of(_whole, what="{character: number of actions}"),
}

_VIEW = _fields(
    {
        "seat": _optional(_one_of(_text_value, _whole, what="a seat id or public")),
        "includes": _map_of(_anything, _anything),
        "excludes": _map_of(_anything),
        "excludes_text": _list_of(_text_value, "a list of texts"),
    },
    "{seat, includes, excludes, excludes_text}",
)

EXPECT: dict[str, Check] = {
    "positions": _map_of(_optional(_cell), what="{character: cell}"),
    "eliminated": _TEXTS,
    "deaths": _TEXTS,
    "revealed": _map_of(_text_value, _key_cell, what="{cell: room}"),
    "hidden": _CELLS,
    "rooms": _map_of(_text_value, _key_cell, what="{cell: room}"),
    "sealed": _CELLS,
    "unsealed": _CELLS,
    "robots": _CELLS,
    "locks": _CELLS,
    "corridors": _map_of(_optional(_text_value), _key_cell, what="{cell: corridor or null}"),
    "jammed": _anything,
    "key_activated": _anything,
    "reminders": _map_of(_REMINDER, what="{seat: cell or null}"),
    "turn": _anything,
    "turns_left": _anything,
    "alarm": _anything,
    "phase": _anything,
    "round": _anything,
    "current": _anything,
    "order": _anything,
    "controls": _anything,
    "control_tokens": _map_of(_whole, what="{line: number of Control tokens}"),
    "action_limits": _map_of(_whole, what="{character: number of actions}"),
    "roles_public": _map_of(_optional(_text_value), what="{character: role or null}"),
    "pending": _anything,
    "outcome": _anything,
    "characters": _map_of(_anything),
    "mac": _anything,
    "views": _list_of(_VIEW, "a list of {seat, includes, excludes, excludes_text}"),
}

_EXPECT = _fields(EXPECT, "a mapping of expectations")


def _command(value: object, where: str) -> None:
    """A command as the phones send it; its values are the engine's to judge, except the few
    the runner reads itself to fill in the seat."""
    if not isinstance(value, dict):
        raise ShapeError(where, "a command mapping such as {type: act, ...}", value)
    if "type" not in value:
        raise ShapeError(where, "a command with a 'type'", value)
    for key in ("type", "character"):
        if key in value:
            _text_value(value[key], f"{where}.{key}")


def _step(value: object, where: str) -> None:
    if not isinstance(value, dict):
        raise ShapeError(where, "a step mapping (a command, program, refused or expect)", value)
    if "expect" in value:
        _fields({"expect": _EXPECT}, "{expect: {...}}")(value, where)
    elif "refused" in value:
        _fields({"refused": _command, "reason": _text_value}, "{refused: {...}, reason: ...}")(
            value, where
        )
    elif "program" in value:
        _fields({"program": _TOKENS}, "{program: {character: [actions]}}")(value, where)
    else:
        _command(value, where)


def _steps(value: object, where: str) -> None:
    _list_of(_step, "a list of steps")(value, where)
    if len(value) > MAX_STEPS:  # type: ignore[arg-type]
        raise ShapeError(where, f"at most {MAX_STEPS} steps", value)


def _setup(value: object, where: str) -> None:
    """The setup's values are the engine's to refuse; only its outer shape is checked here."""
    if not isinstance(value, dict):
        raise ShapeError(where, "a mapping (edition, mode, players, complex...)", value)
    complex_ = value.get("complex")
    if complex_ is not None and not isinstance(complex_, (str, list)):
        raise ShapeError(f"{where}.complex", "five lines of five room names", complex_)


_REFUSED_SETUP = _fields(
    {"setup": _setup, "reason": _text_value}, "{setup: {...}, reason: ...}", ("setup",)
)

SCENARIO: dict[str, Check] = {
    "name": _text_value,
    "rule": _text_value,
    "notes": _text_value,
    "setup": _setup,
    "refused_setup": _REFUSED_SETUP,
    "position": _fields(POSITION, "a mapping of position fields"),
    "steps": _steps,
    "expect": _EXPECT,
}


def check_shape(doc: object) -> dict:
    """The scenario document itself, once well shaped; else ShapeError naming its first
    misshapen piece."""
    if not isinstance(doc, dict):
        raise ShapeError("the file", "a mapping with at least a 'setup'", doc)
    if ("setup" in doc) == ("refused_setup" in doc):
        raise ShapeError.plain("a scenario has a 'setup' or a 'refused_setup', one of the two")
    extra = set(doc) & {"position", "steps", "expect"}
    if "refused_setup" in doc and extra:
        raise ShapeError.plain(
            f"a refused_setup has nothing to play: no {', '.join(sorted(extra))}"
        )
    _fields(SCENARIO, "a scenario mapping")(doc, "scenario")
    return doc
