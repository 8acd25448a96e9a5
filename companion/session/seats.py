"""Seats asked for and given back with the seat button (docs/web.md, "Who may do what").

A phone that asks for a taken seat, or for any seat while a game is under way, gets a two-digit
code; the table sees the request as a public notice with that code, and whoever holds that seat's
button for 3 s (the player sitting there) gives the seat to the asking phone. The host may give
it too, publicly. What the table is told stays on the table's screens a while, then clears.

Only digests of the phones' secrets are kept here, never a secret, and nothing here depends on a
seat's private facts.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass

ASK_FOR = 120.0  # seconds a request waits for its seat button
STEADY = 3.0  # seconds a request must have been shown before a hold or a host's give takes it
SAID_FOR = 120.0  # seconds "seat 3 was taken back / freed / given", "game resumed" stays up


@dataclass(frozen=True, slots=True)
class Ask:
    """One phone's pending request: the digest of its secret, the code it shows, its end."""

    seat: str
    digest: str
    code: str
    since: float
    until: float

    def steady(self, now: float) -> bool:
        """Shown long enough that whoever gives the seat saw this code, not an older one: a
        newer request slipped in during a 3 s hold does not get the seat."""
        return now - self.since >= STEADY


class SeatAsks:
    """Pending requests, at most one per seat (a newer one replaces it with a new code) and one
    per phone (asking for another seat drops the first), and the seat news being shown. The
    writer changes them; any thread may read them (a seat button deciding how to behave)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._asks: dict[str, Ask] = {}
        self._said: dict[str, float] = {}  # seat or "game" -> when its news clears

    def ask(
        self, seat: str, digest: str, now: float, wait: float = ASK_FOR
    ) -> tuple[Ask, list[str]]:
        """A request for `seat` by the phone of `digest`: the new request and the seats whose
        older request it drops (this seat's, and this phone's for another seat)."""
        with self._lock:
            older = self._asks.get(seat)
            dropped = [s for s, a in self._asks.items() if a.digest == digest and s != seat]
            for other in dropped:
                del self._asks[other]
            code = _code(older.code if older else None)
            self._asks[seat] = Ask(seat, digest, code, now, now + wait)
            return self._asks[seat], dropped

    def givable(self, seat: str, now: float) -> tuple[Ask | None, Ask | None]:
        """(the request that may be given, the one still too new to give) for `seat`: at most
        one is set. The request stays until `drop`: a phone that no longer sees its request
        must already see its seat."""
        with self._lock:
            found = self._asks.get(seat)
            if found is None or not found.steady(now):
                return None, found
            return found, None

    def drop(self, seat: str) -> bool:
        """The request for `seat` dropped (the host freed it: a tap takes it now); whether
        there was one."""
        with self._lock:
            return self._asks.pop(seat, None) is not None

    def pending(self) -> dict[str, str]:
        """Seat -> the code of the phone asking for it."""
        with self._lock:
            return {seat: ask.code for seat, ask in self._asks.items()}

    def asking(self, digest: str) -> Ask | None:
        """The request of one phone, if it has one."""
        with self._lock:
            return next((a for a in self._asks.values() if a.digest == digest), None)

    def clear(self) -> list[str]:
        """Every request dropped (a new game where everyone picks a seat again)."""
        with self._lock:
            dropped = sorted(self._asks)
            self._asks.clear()
            return dropped

    def said(self, about: str, now: float, wait: float = SAID_FOR) -> None:
        """News about a seat (or "game", a game resumed) is being shown until `now + wait`."""
        with self._lock:
            self._said[about] = now + wait

    def due(self, now: float) -> tuple[list[str], list[str]]:
        """The requests and the news whose time is up, forgotten: (asks, news) by seat."""
        with self._lock:
            asks = [s for s, a in self._asks.items() if a.until <= now]
            news = [s for s, until in self._said.items() if until <= now]
            for seat in asks:
                del self._asks[seat]
            for seat in news:
                del self._said[seat]
            return asks, news

    def next_deadline(self) -> float | None:
        with self._lock:
            ends = [a.until for a in self._asks.values()] + list(self._said.values())
        return min(ends, default=None)


def _code(before: str | None) -> str:
    """Two random digits, never the code of the request it replaces."""
    while True:
        code = f"{secrets.randbelow(100):02d}"
        if code != before:
            return code
