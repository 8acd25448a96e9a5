"""Tables of rules filed by name (event type, room kind, card kind, pending kind, character):
how the engine keeps rules as catalogues of small functions rather than as long chains of
conditions. Every table is a `Table`, and every entry is filed one way, by its decorator, in the
rules module that holds the rule's quote; `rules.load()` imports those modules once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

V = TypeVar("V")
# The decorator a table files with: written out where it is bound (`effect = EFFECTS.register`),
# since a module that imports it back through a cycle cannot infer it.
Filing = Callable[..., Callable[[V], V]]


class Table(dict[str, V], Generic[V]):
    """What each name does, and the names that do nothing here on purpose (`idle`, each with
    its reason), so a test can check that no name of the catalogue was forgotten. A plain dict
    to read: the fold looks up every event in one."""

    def __init__(self, names: str, idle: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.names = names  # what the names are, for messages: "room kind", "event type"...
        self.idle: Mapping[str, str] = dict(idle or {})

    def register(self, *names: str) -> Callable[[V], V]:
        """A decorator: `@table.register("a", "b")` files the function under each name."""

        def register(entry: V) -> V:
            for name in names:
                if name in self or name in self.idle:
                    raise ValueError(f"the {self.names} {name!r} is filed twice")
                self[name] = entry
            return entry

        return register
