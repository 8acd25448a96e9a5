"""The `Host` allow-list remembers the headers it accepted (a phone sends the same one at every
tap), and forgets them when it looks at this machine's addresses again: an address no longer
ours (the Pi moved to another network) is refused after that look, never served from memory."""

from __future__ import annotations

import pytest

from companion import lan
from companion.web import guard
from companion.web.guard import RECHECK, OwnNames

from .test_held_connections import Ticks as Clock

LAN = "192.168.4.7"
NEW = "10.0.0.9"


@pytest.fixture
def addresses(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    found = {"127.0.0.1", "::1", LAN}
    monkeypatch.setattr(lan, "own_addresses", lambda: set(found))
    return found


def test_an_address_no_longer_ours_is_refused_after_the_next_look(addresses: set[str]):
    clock = Clock()
    names = OwnNames(clock=clock)
    assert f"{LAN}:8025" in names
    addresses.discard(LAN)
    addresses.add(NEW)
    assert f"{LAN}:8025" in names  # no new look yet: as before any memory of it
    clock.now += RECHECK
    assert f"{NEW}:8025" in names  # the miss that looks again
    assert f"{LAN}:8025" not in names
    assert "[::1]:8025" in names


def test_a_header_accepted_once_is_not_parsed_again(
    addresses: set[str], monkeypatch: pytest.MonkeyPatch
):
    names = OwnNames(clock=Clock())
    assert f"{LAN}:8025" in names
    parsed = []
    monkeypatch.setattr(guard, "_bare_host", lambda host: parsed.append(host) or host)
    assert f"{LAN}:8025" in names
    assert parsed == []
    assert "rebind.example" not in names  # a refusal is never remembered: worked out each time
    assert "rebind.example" not in names
    assert parsed == ["rebind.example", "rebind.example"]


def test_loopbacks_many_spellings_do_not_grow_the_memory(addresses: set[str]):
    names = OwnNames(clock=Clock())
    for n in range(3 * guard.ACCEPTED_HOSTS):
        assert f"127.0.{n // 256}.{n % 256}:8025" in names
    assert len(names._accepted) <= guard.ACCEPTED_HOSTS
