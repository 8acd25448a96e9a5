"""Which lessons a change of the game fires: each once, from the public record alone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .lessons import LESSONS


def fired(public_events: Iterable[Mapping[str, object]], taught: Iterable[str] = ()) -> list[str]:
    """The lessons these public events trigger that are not `taught` yet, in catalogue order,
    each once however many of its triggers happened."""
    done = set(taught)
    events = list(public_events)
    return [
        found.id
        for found in LESSONS
        if found.id not in done and any(found.triggered_by(event) for event in events)
    ]


class Teacher:
    """The lessons of an evening: what was taught, and what a change teaches next. Given only
    public events (`engine.events_for(events, None)`), so a secret cannot change what it says."""

    def __init__(self, taught: Iterable[str] = ()) -> None:
        self.taught: list[str] = list(taught)

    def hear(self, public_events: Iterable[Mapping[str, object]]) -> list[str]:
        """The lessons this change fires, now remembered as taught."""
        found = fired(public_events, self.taught)
        self.taught.extend(found)
        return found
