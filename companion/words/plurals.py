"""CLDR's plural rules, read from each language folder (`plural` in `language.json`, the rules as
CLDR writes them in plurals.xml), so that a count picks `key_one`, `key_other`... the way the
pages' `Intl.PluralRules` does, with no table of languages in code.

Only whole counts are asked for (turns, seats, commands): the operands are n = i = |count|,
v = w = f = t = e = c = 0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_RELATION = re.compile(
    r"\s*([niftvwec])\s*(?:%\s*(\d+))?\s*(!=|=)\s*((?:\d+(?:\.\.\d+)?)(?:\s*,\s*\d+(?:\.\.\d+)?)*)\s*$"
)


def _operand(name: str, count: int) -> int:
    return abs(count) if name in "ni" else 0


def _in_ranges(value: int, ranges: str) -> bool:
    for part in ranges.split(","):
        low, _, high = part.strip().partition("..")
        if int(low) <= value <= int(high or low):
            return True
    return False


def _relation(text: str, count: int) -> bool:
    found = _RELATION.match(text)
    if found is None:
        raise ValueError(f"not a CLDR plural relation: {text!r}")
    operand, modulus, sign, ranges = found.groups()
    value = _operand(operand, count)
    if modulus:
        value %= int(modulus)
    return _in_ranges(value, ranges) == (sign == "=")


def matches(rule: str, count: int) -> bool:
    """Whether a whole count meets a CLDR rule ("i = 1 and v = 0", "n % 10 = 2..4 or ...")."""
    return any(
        all(_relation(relation, count) for relation in alternative.split(" and "))
        for alternative in rule.split(" or ")
    )


def category(rules: Mapping[str, str], count: int) -> str:
    """The plural category of a count under a language's rules ("one", "few", "other"...)."""
    for name, rule in rules.items():
        if matches(rule, count):
            return name
    return "other"
