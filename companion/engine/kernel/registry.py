"""Tables of small functions keyed by name (event type, room kind, card kind): how the engine
keeps rules as catalogues of effects rather than as long chains of conditions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def registrar(table: dict[str, Any]) -> Callable[..., Callable[[F], F]]:
    """A decorator factory: `@register("a", "b")` files the function under each name."""

    def decorator(*names: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            for name in names:
                table[name] = fn
            return fn

        return register

    return decorator
