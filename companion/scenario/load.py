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
from companion.words import colon
from companion.words.said import Said, kind_of, say

SUFFIXES = (".yaml", ".yml", ".json")

# The rule scenarios are 1-3 kB; a question that needs more than this is not one question.
MAX_BYTES = 256 * 1024
MAX_DEPTH = 32  # mappings and lists inside one another
MAX_STEPS = 1000
QUOTE = 80  # what a message repeats of the input, at most

# libyaml's safe loader when PyYAML was built with it: the same documents, ten times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ScenarioFileError(ValueError):
    """A scenario file that cannot be read: its path and the problem, a code of the catalogue
    (`scenario_error_<code>`, words/<lang>/scenario.json) with its values, said in the
    reader's language (`text`); in the fallback language as a plain exception."""

    def __init__(self, path: object, problem: Said) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")

    def text(self, lang: str = "") -> str:
        return self.path + colon(lang) + self.problem.text(lang)


def _error(path: object, code: str, /, **params: object) -> ScenarioFileError:
    return ScenarioFileError(path, say(f"scenario_error_{code}", **params))


def quote(value: object) -> str:
    """A piece of the input as a message repeats it: its repr, cut to QUOTE characters."""
    text = repr(value)
    return text if len(text) <= QUOTE else text[: QUOTE - 3] + "..."


def _kind(value: object) -> Said:
    """A value named in the words of YAML and JSON, as the writer of the file sees it."""
    kind = kind_of(value)
    if kind == "flag":
        return say("scenario_value_flag", value=str(value).lower())
    if kind in ("number", "text"):
        return say(f"scenario_value_{kind}", value=quote(value))
    if kind == "list":
        return say("scenario_value_list", n=len(value))  # type: ignore[arg-type]
    if kind == "other":
        return say("scenario_value_other", value=type(value).__name__)
    return say(f"scenario_value_{kind}")


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
            raise _error(quote(str(path))[1:-1], "missing")
    return found


def _text(path: Path) -> str:
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise _error(path, "unreadable", why=error.strerror) from None
    if len(data) > MAX_BYTES:
        raise _error(path, "too_large", kb=MAX_BYTES // 1024)
    if not data.strip():
        raise _error(path, "empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _error(path, "not_utf8") from None


def _parse(path: Path, text: str) -> object:
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return yaml.load(text, Loader=_LOADER)  # CSafeLoader or SafeLoader
    except json.JSONDecodeError as error:
        line, column = error.lineno, error.colno
        raise _error(path, "json", line=line, column=column, why=error.msg) from None
    except yaml.YAMLError as error:
        mark, problem = getattr(error, "problem_mark", None), getattr(error, "problem", None)
        if not problem:
            raise _error(path, "yaml_unsaid") from None
        why = str(problem)[:QUOTE]  # the parser's words
        if mark is None:
            raise _error(path, "yaml", why=why) from None
        line, column = mark.line + 1, mark.column + 1
        raise _error(path, "yaml_at", line=line, column=column, why=why) from None
    except RecursionError:
        raise _error(path, "too_deep", most=MAX_DEPTH) from None
    except ValueError as error:  # a number of more than 4300 digits
        raise _error(path, "long_number", why=str(error)[:QUOTE]) from None


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
        raise _error(path, "too_deep", most=MAX_DEPTH)
    try:
        return normalise_setup(check_shape(doc))
    except ShapeError as error:
        raise ScenarioFileError(path, error.said) from None


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


# Where a piece is: a dotted key path (`scenario.steps[2].expect`), or a sentence of the
# catalogue for what has no path (the file itself, a mapping's key).
Where = str | Said


class ShapeError(ValueError):
    """One misshapen piece: where it is and what was expected there (`scenario_expected_<code>`
    and its values), said as a `Said` (`said`) in the reader's language."""

    def __init__(self, where: Where, expected: str, value: object, **params: object) -> None:
        wanted = say(f"scenario_expected_{expected}", **params)
        self.said = say("scenario_error_shape", where=where, expected=wanted, value=_kind(value))
        super().__init__(str(self.said))

    @classmethod
    def plain(cls, said: Said) -> ShapeError:
        error = cls.__new__(cls)
        error.said = said
        ValueError.__init__(error, str(said))
        return error

    @classmethod
    def unknown_key(cls, where: Where, key: object, known: list[str]) -> ShapeError:
        close = difflib.get_close_matches(str(key), known, n=1)
        if close:
            hint = say("scenario_error_unknown_key_close", close=quote(close[0]))
        elif len(known) <= 8:
            hint = say("scenario_error_unknown_key_few", keys=known)
        else:
            hint = say("scenario_error_unknown_key_many")
        return cls.plain(say("scenario_error_unknown_key", where=where, key=quote(key), hint=hint))


Check = Callable[[object, Where], None]


def _text_value(value: object, where: Where) -> None:
    if not isinstance(value, str):
        raise ShapeError(where, "text", value)


def _whole(value: object, where: Where) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShapeError(where, "whole", value)


def _flag(value: object, where: Where) -> None:
    if not isinstance(value, bool):
        raise ShapeError(where, "flag", value)


def _anything(value: object, where: Where) -> None:
    return None


def _cell(value: object, where: Where) -> None:
    try:
        parse_cell(value)
    except (ValueError, TypeError):
        raise ShapeError(where, "cell", value) from None


def _key_cell(value: object, where: Where) -> None:
    """A cell used as a mapping key: YAML reads `C3:` as text, JSON has only text keys."""
    if not (isinstance(value, str) and value in grid.NAMED):
        raise ShapeError(where, "cell", value)


def _optional(check: Check) -> Check:
    def checked(value: object, where: Where) -> None:
        if value is not None:
            check(value, where)

    return checked


def _list_of(item: Check, what: str = "list") -> Check:
    def checked(value: object, where: Where) -> None:
        if not isinstance(value, list):
            raise ShapeError(where, what, value)
        for number, entry in enumerate(value, start=1):
            item(entry, f"{where}[{number}]")

    return checked


def _map_of(item: Check, key: Check = _text_value, what: str = "mapping") -> Check:
    def checked(value: object, where: Where) -> None:
        if not isinstance(value, dict):
            raise ShapeError(where, what, value)
        for k, entry in value.items():
            key(k, say("scenario_where_key", where=where))
            item(entry, f"{where}.{k}")

    return checked


def _one_of(*checks: Check, what: str) -> Check:
    def checked(value: object, where: Where) -> None:
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

    def checked(value: object, where: Where) -> None:
        if not isinstance(value, dict):
            raise ShapeError(where, what, value)
        for key in required:
            if key not in value:
                raise ShapeError(
                    where, "with_key", value, what=say(f"scenario_expected_{what}"), key=key
                )
        for key, entry in value.items():
            if key not in known:
                raise ShapeError.unknown_key(where, key, list(known))
            known[key](entry, f"{where}.{key}")

    return checked


_TEXTS = _list_of(_text_value, "names")
_CELLS = _list_of(_cell, "cells")
_REMINDER = _optional(_one_of(_cell, _CELLS, what="reminder"))
_TOKENS = _map_of(_list_of(_text_value, "tokens_list"), what="tokens")

POSITION: dict[str, Check] = {
    "turn": _whole,
    "turns_left": _whole,
    "alarm": _flag,
    "phase": _text_value,
    "round": _whole,
    "order": _TEXTS,
    "positions": _map_of(_cell, what="positions"),
    "revealed": _CELLS,
    "sealed": _CELLS,
    "eliminated": _TEXTS,
    "programs": _TOKENS,
    "done": _TEXTS,
    "played": _TOKENS,
    "controls": _map_of(_text_value, what="controls"),
    "control_tokens": _map_of(_whole, what="control_tokens"),
    "reminders": _map_of(_REMINDER, what="reminders"),
    "notebooks": _map_of(_map_of(_text_value, _key_cell), what="notebooks"),
    "trapped": _TEXTS,
    "flooded": _map_of(_whole, what="turns"),
    "exposed": _map_of(_whole, what="turns"),
    "roles_revealed": _TEXTS,
    "clues": _one_of(
        lambda v, w: None if v == "all" else _text_value(None, w),
        _map_of(_cell),
        what="clues",
    ),
    "mac": _fields({"draw": _TEXTS, "discard": _TEXTS, "in_play": _TEXTS}, "mac"),
    "lost": _TOKENS,
    "adrenaline": _map_of(_flag, what="adrenaline"),
    "robots": _CELLS,
    "corridors": _map_of(_text_value, _key_cell, what="corridors"),
    "paranoia": _TOKENS,
    "key_activated": _flag,
    "hidden": _TEXTS,
    "locks": _CELLS,
    "reserve": _map_of(_whole, what="reserve"),
    "talent_choices": _map_of(_text_value, what="talents"),
    "adrenaline_programmed": _TEXTS,
    "action_limits": _map_of(_whole, what="action_limits"),
}

_VIEW = _fields(
    {
        "seat": _optional(_one_of(_text_value, _whole, what="seat")),
        "includes": _map_of(_anything, _anything),
        "excludes": _map_of(_anything),
        "excludes_text": _list_of(_text_value, "texts"),
    },
    "view",
)

EXPECT: dict[str, Check] = {
    "positions": _map_of(_optional(_cell), what="positions"),
    "eliminated": _TEXTS,
    "deaths": _TEXTS,
    "revealed": _map_of(_text_value, _key_cell, what="rooms"),
    "hidden": _CELLS,
    "rooms": _map_of(_text_value, _key_cell, what="rooms"),
    "sealed": _CELLS,
    "unsealed": _CELLS,
    "robots": _CELLS,
    "locks": _CELLS,
    "corridors": _map_of(_optional(_text_value), _key_cell, what="corridors_or_null"),
    "jammed": _anything,
    "key_activated": _anything,
    "reminders": _map_of(_REMINDER, what="reminders_or_null"),
    "turn": _anything,
    "turns_left": _anything,
    "alarm": _anything,
    "phase": _anything,
    "round": _anything,
    "current": _anything,
    "order": _anything,
    "controls": _anything,
    "control_tokens": _map_of(_whole, what="control_tokens"),
    "action_limits": _map_of(_whole, what="action_limits"),
    "roles_public": _map_of(_optional(_text_value), what="roles"),
    "pending": _anything,
    "outcome": _anything,
    "characters": _map_of(_anything),
    "mac": _anything,
    "views": _list_of(_VIEW, "views"),
}

_EXPECT = _fields(EXPECT, "expectations")


def _command(value: object, where: Where) -> None:
    """A command as the phones send it; its values are the engine's to judge, except the few
    the runner reads itself to fill in the seat."""
    if not isinstance(value, dict):
        raise ShapeError(where, "command", value)
    if "type" not in value:
        raise ShapeError(where, "command_type", value)
    for key in ("type", "character"):
        if key in value:
            _text_value(value[key], f"{where}.{key}")


def _step(value: object, where: Where) -> None:
    if not isinstance(value, dict):
        raise ShapeError(where, "step", value)
    if "expect" in value:
        _fields({"expect": _EXPECT}, "expect_step")(value, where)
    elif "refused" in value:
        _fields({"refused": _command, "reason": _text_value}, "refused_step")(value, where)
    elif "program" in value:
        _fields({"program": _TOKENS}, "program_step")(value, where)
    else:
        _command(value, where)


def _steps(value: object, where: Where) -> None:
    _list_of(_step, "steps")(value, where)
    if len(value) > MAX_STEPS:  # type: ignore[arg-type]
        raise ShapeError(where, "at_most_steps", value, n=MAX_STEPS)


def _setup(value: object, where: Where) -> None:
    """The setup's values are the engine's to refuse; only its outer shape is checked here."""
    if not isinstance(value, dict):
        raise ShapeError(where, "setup", value)
    complex_ = value.get("complex")
    if complex_ is not None and not isinstance(complex_, (str, list)):
        raise ShapeError(f"{where}.complex", "complex", complex_)


_REFUSED_SETUP = _fields({"setup": _setup, "reason": _text_value}, "refused_setup", ("setup",))

SCENARIO: dict[str, Check] = {
    "name": _text_value,
    "rule": _text_value,
    "notes": _text_value,
    "setup": _setup,
    "refused_setup": _REFUSED_SETUP,
    "position": _fields(POSITION, "position"),
    "steps": _steps,
    "expect": _EXPECT,
}


def check_shape(doc: object) -> dict:
    """The scenario document itself, once well shaped; else ShapeError naming its first
    misshapen piece."""
    if not isinstance(doc, dict):
        raise ShapeError(say("scenario_where_file"), "document", doc)
    if ("setup" in doc) == ("refused_setup" in doc):
        raise ShapeError.plain(say("scenario_error_setup_or_refused"))
    extra = set(doc) & {"position", "steps", "expect"}
    if "refused_setup" in doc and extra:
        raise ShapeError.plain(say("scenario_error_nothing_to_play", keys=sorted(extra)))
    _fields(SCENARIO, "scenario")(doc, "scenario")
    return doc
