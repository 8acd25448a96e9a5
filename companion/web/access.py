"""Who is asking: a seat's phone (by its long random secret), the host (by the PIN), or nobody.

Secrets live on the phones only, in an HttpOnly cookie; the server keeps their SHA-256 digests,
in the journal when it has one, so that a restart (a pulled plug) gives every phone its seat back
and frees none for another phone to take. A seat held by one phone cannot be taken by another
until the host frees it, or its own player takes it back by holding its seat button while the
new phone asks (companion/session/seats.py). PIN guesses are slowed per client: each wrong guess
doubles the time before the next one is heard (up to a quarter of an hour); and for the whole
network: ten wrong guesses at once, then one every six seconds, so forty phones cannot try the
million PINs in an evening either. Seat requests are slowed per address (four in a row, then one
every 20 s), so nobody can keep replacing a seat's request. The companion itself (loopback: a
browser on the Pi, the laptop of a laptop table; or a `[panel] allow` tablet) is held by neither
limit, so a real host can always log in there, with the PIN held up on the OLED by a long press
of Menu.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

SEAT_COOKIE = "room25_seat"
HOST_COOKIE = "room25_host"
PIN_DIGITS = 6
LOCKOUT_CAP = 900.0  # seconds: the longest wait between two guesses
NETWORK_BURST = 10.0  # wrong guesses the whole network may make in a row
NETWORK_EVERY = 6.0  # seconds: then one more (600 an hour: months for the million)
ASKS_BURST = 4.0  # seat requests one address may make in a row
ASKS_EVERY = 20.0  # seconds: then one more (a player who mistyped never waits; a pest does)
ASKING_ADDRESSES = 256  # addresses remembered; the oldest are forgotten first


class SeatStore(Protocol):
    """Where seat claims outlive the server: the session's journal."""

    def seat_claims(self) -> dict[str, str]: ...

    def claim_seat(self, seat: str, digest: str | None) -> bool: ...

    def on_seat_given(self, given: Callable[[str, str], None]) -> None: ...


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_pin() -> str:
    """The host PIN: `ROOM25_HOST_PIN` when set (tests, a fixed table), else six random digits."""
    fixed = os.environ.get("ROOM25_HOST_PIN", "").strip()
    if fixed:
        return fixed
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


@dataclass(frozen=True, slots=True)
class Caller:
    """Who one request comes from: the seat its phone holds (None: none), and whether the host."""

    seat: str | None = None
    host: bool = False


class Bucket:
    """`burst` turns in a row, then one more every `every` seconds. Not thread-safe: its owner
    holds a lock."""

    def __init__(self, burst: float, every: float, clock: Callable[[], float]) -> None:
        self._burst, self._every, self._clock = burst, every, clock
        self._left, self._counted = burst, clock()

    def _now_left(self) -> float:
        return min(self._burst, self._left + (self._clock() - self._counted) / self._every)

    def wait(self) -> float:
        """Seconds before the next turn (0: now)."""
        left = self._now_left()
        return 0.0 if left >= 1.0 else (1.0 - left) * self._every

    def take(self) -> None:
        self._left, self._counted = max(0.0, self._now_left() - 1.0), self._clock()

    def full(self) -> bool:
        return self._now_left() >= self._burst


class Guesses:
    """Wrong PIN guesses per client, with the time before the next guess is heard; and the
    whole network's wrong guesses, a bucket of `NETWORK_BURST` refilled one every
    `NETWORK_EVERY` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}  # client -> (wrong guesses, last one)
        self._network = Bucket(NETWORK_BURST, NETWORK_EVERY, clock)

    def wait(self, client: str) -> float:
        """Seconds before this client may guess again (0: now)."""
        with self._lock:
            wrong, last = self._wrong.get(client, (0, 0.0))
        if wrong == 0:
            return 0.0
        delay = min(2.0 ** (wrong - 1), LOCKOUT_CAP)
        return max(0.0, last + delay - self._clock())

    def network_wait(self) -> float:
        """Seconds before anyone on the network (not the companion itself) may guess again."""
        with self._lock:
            return self._network.wait()

    def failed(self, client: str) -> None:
        with self._lock:
            wrong, _ = self._wrong.get(client, (0, 0.0))
            self._wrong[client] = (wrong + 1, self._clock())
            self._network.take()

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._wrong.pop(client, None)


class SeatAskLimit:
    """Seat requests per address: a phone asking again for a taken seat replaces the request
    being shown (and its code), so one address asking without end would keep a seat's own
    player from ever taking it back. A new cookie per request does not help: it counts by
    address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, Bucket] = {}

    def wait(self, client: str) -> float:
        """Seconds before this address may ask again; when 0, this request is counted."""
        with self._lock:
            bucket = self._buckets.pop(client, None) or Bucket(ASKS_BURST, ASKS_EVERY, self._clock)
            self._buckets[client] = bucket  # the most recent last, so the oldest go first
            wait = bucket.wait()
            if wait == 0:
                bucket.take()
            for address in [a for a, b in self._buckets.items() if b.full()]:
                del self._buckets[address]
            while len(self._buckets) > ASKING_ADDRESSES:
                del self._buckets[next(iter(self._buckets))]
            return wait


class Access:
    """Who holds each seat (by the digest of its phone's secret) and the host secrets of one
    running server (host logins are kept in memory: after a restart the host logs in again)."""

    def __init__(
        self,
        pin: str,
        clock: Callable[[], float] = time.monotonic,
        store: SeatStore | None = None,
    ) -> None:
        self.pin = pin
        self.guesses = Guesses(clock)
        self.seat_asks = SeatAskLimit(clock)
        self._store = store
        self._lock = threading.Lock()
        self._digest_of = dict(store.seat_claims()) if store is not None else {}  # seat ->
        self._seat_of = {d: seat for seat, d in self._digest_of.items()}  # digest -> seat
        # Seats the host freed: the next phone's tap takes one, even mid-game (in memory: after
        # a restart such a seat is asked for again, and the host may give it).
        self._open: set[str] = set()
        self._hosts: set[str] = set()
        if store is not None:
            store.on_seat_given(self.given)

    def _record(self, seat: str, digest_: str | None) -> None:
        if self._store is not None:
            self._store.claim_seat(seat, digest_)

    # --- seats ---

    def join(self, seat: str, current: str | None) -> str | None:
        """Give `seat` to the phone holding secret `current` (or none yet): its new secret, or
        None when another phone holds the seat. A phone moving to a free seat frees its old one."""
        mine = digest(current) if current else None
        with self._lock:
            holder = self._digest_of.get(seat)
            if holder is not None:
                return current if holder == mine else None
            if mine is not None and mine in self._seat_of:
                old = self._seat_of.pop(mine)
                del self._digest_of[old]
                self._record(old, None)
            secret = secrets.token_urlsafe(32)
            self._seat_of[digest(secret)] = seat
            self._digest_of[seat] = digest(secret)
            self._open.discard(seat)
            self._record(seat, digest(secret))
            return secret

    def given(self, seat: str, digest_: str) -> None:
        """The session gave `seat` to the phone of `digest_` (its seat button held, or the host):
        the seat's old phone loses it, and the new phone leaves its old seat (both already in the
        journal)."""
        with self._lock:
            old = self._digest_of.pop(seat, None)
            if old is not None:
                self._seat_of.pop(old, None)
            moved = self._seat_of.pop(digest_, None)
            if moved is not None:
                self._digest_of.pop(moved, None)
            self._digest_of[seat] = digest_
            self._seat_of[digest_] = seat
            self._open.discard(seat)

    def leave(self, secret: str | None) -> None:
        with self._lock:
            seat = self._seat_of.pop(digest(secret), None) if secret else None
            if seat is not None:
                del self._digest_of[seat]
                self._record(seat, None)

    def free(self, seat: str) -> bool:
        """The host frees a seat for another phone (the next tap takes it, even mid-game); the
        old phone's secret stops working. Whether a phone held it."""
        with self._lock:
            self._open.add(seat)
            held = self._digest_of.pop(seat, None)
            if held is None:
                return False
            del self._seat_of[held]
            self._record(seat, None)
            return True

    def free_all(self) -> list[str]:
        """Every seat freed (a new game where everyone picks a seat again): the seats freed."""
        with self._lock:
            freed = sorted(self._digest_of)
            self._digest_of.clear()
            self._seat_of.clear()
            self._open.clear()
        for seat in freed:
            self._record(seat, None)
        return freed

    def seat_of(self, secret: str | None) -> str | None:
        """Read without the lock: one dictionary read is atomic, and every open stream asks
        before each message, all at once after a change (they queued on the lock)."""
        if not secret:
            return None
        return self.seat_of_digest(digest(secret))

    def seat_of_digest(self, digest_: str) -> str | None:
        """`seat_of` for a secret whose digest the caller worked out once: a seat's stream
        asks before every message, and hashing its secret each time cost more than the look-up."""
        return self._seat_of.get(digest_)

    def taken(self) -> list[str]:
        with self._lock:
            return sorted(self._digest_of)

    def freed_by_host(self, seat: str) -> bool:
        """The host freed `seat` and no phone took it since: a tap takes it, even mid-game."""
        with self._lock:
            return seat in self._open

    # --- host ---

    def login(self, pin: str) -> str | None:
        """A host secret when the PIN is right (compared in constant time), else None."""
        if not hmac.compare_digest(pin.encode(), self.pin.encode()):
            return None
        secret = secrets.token_urlsafe(32)
        with self._lock:
            self._hosts.add(secret)
        return secret

    def logout(self, secret: str | None) -> None:
        with self._lock:
            self._hosts.discard(secret or "")

    def is_host(self, secret: str | None) -> bool:
        """Read without the lock, as `seat_of`."""
        if not secret:
            return False
        return secret in self._hosts

    def caller(self, seat_secret: str | None, host_secret: str | None) -> Caller:
        return Caller(seat=self.seat_of(seat_secret), host=self.is_host(host_secret))
