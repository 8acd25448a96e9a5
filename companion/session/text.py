"""Text the journal can keep: JSON may carry a lone UTF-16 surrogate ("\\ud800"), which no
UTF-8 file can hold. A setup or command holding one is refused where it comes in, before the
engine or the journal sees it."""

from __future__ import annotations


def unwritable(value: object) -> bool:
    """Whether any string in `value` (keys included, at any depth) has no UTF-8 form. Walked
    with a stack, so a deeply nested body cannot exhaust the recursion limit."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return False
