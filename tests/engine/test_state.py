"""The state's copy is what makes a refused command change nothing: it must copy everything."""

from __future__ import annotations

from dataclasses import fields

from companion.engine.state import Character


def test_character_copy_keeps_every_field() -> None:
    values = {f.name: object() for f in fields(Character)}
    original = Character(**values)
    copy = original.copy()
    assert copy is not original
    assert all(getattr(copy, name) is value for name, value in values.items())
