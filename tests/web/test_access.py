"""Seat secrets and the host PIN, on their own: who holds a seat, and how PIN guessing slows."""

from __future__ import annotations

import sqlite3

from companion.session import Session
from companion.web.access import (
    ASKING_ADDRESSES,
    ASKS_EVERY,
    LOCKOUT_CAP,
    Access,
    Guesses,
    SeatAskLimit,
    digest,
    new_pin,
)


class Clock:
    """A settable clock, so the lockout's timing is checked without sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_seat_goes_to_one_phone_and_comes_back_to_it():
    access = Access("123456")
    first = access.join("3", None)
    assert first is not None and len(first) >= 40
    assert access.join("3", None) is None  # another phone
    assert access.join("3", "someone-else") is None
    assert access.join("3", first) == first  # the same phone after a reload
    assert access.seat_of(first) == "3"
    assert access.taken() == ["3"]


def test_a_phone_moving_to_a_free_seat_frees_its_old_one():
    access = Access("123456")
    secret = access.join("3", None)
    moved = access.join("4", secret)
    assert moved is not None and moved != secret
    assert access.seat_of(secret) is None
    assert access.taken() == ["4"]
    assert access.join("3", None) is not None


def test_the_host_frees_a_seat_and_the_old_secret_stops_working():
    access = Access("123456")
    old = access.join("2", None)
    assert access.free("2") is True
    assert access.seat_of(old) is None
    assert access.free("2") is False
    new = access.join("2", None)
    assert new is not None and new != old


def test_the_pin_logs_in_and_a_wrong_pin_does_not():
    access = Access("654321")
    assert access.login("654320") is None
    secret = access.login("654321")
    assert secret is not None and access.is_host(secret)
    assert access.caller(None, secret).host
    access.logout(secret)
    assert not access.is_host(secret)
    assert access.caller(None, secret).host is False


def test_each_wrong_guess_doubles_the_wait_up_to_the_cap():
    clock = Clock()
    guesses = Guesses(clock)
    assert guesses.wait("10.0.0.5") == 0
    waits = []
    for _ in range(15):
        guesses.failed("10.0.0.5")
        waits.append(guesses.wait("10.0.0.5"))
    assert waits[:4] == [1.0, 2.0, 4.0, 8.0]
    assert waits[-1] == LOCKOUT_CAP
    assert guesses.wait("10.0.0.6") == 0  # another client is not slowed
    clock.now += LOCKOUT_CAP
    assert guesses.wait("10.0.0.5") == 0
    guesses.succeeded("10.0.0.5")
    guesses.failed("10.0.0.5")
    assert guesses.wait("10.0.0.5") == 1.0


def test_the_pin_is_six_random_digits_unless_the_environment_fixes_it(monkeypatch):
    monkeypatch.delenv("ROOM25_HOST_PIN", raising=False)
    pins = {new_pin() for _ in range(20)}
    assert all(len(p) == 6 and p.isdigit() for p in pins)
    assert len(pins) > 15
    monkeypatch.setenv("ROOM25_HOST_PIN", "2525")
    assert new_pin() == "2525"


def test_seats_survive_a_restart_and_the_journal_keeps_no_secret(tmp_path):
    """A pulled plug must not free every seat for another phone to take (and read its secrets):
    the claims live in the real SQLite journal, as digests only."""
    journal = tmp_path / "journal.sqlite"
    session = Session(journal)
    session.open()
    try:
        first = Access("123456", store=session)
        phone = first.join("3", None)
        moved = first.join("5", first.join("4", None))
        assert phone is not None and moved is not None
    finally:
        session.close()
    stored = sqlite3.connect(journal).execute("SELECT seat, digest FROM seat_claims").fetchall()
    assert sorted(seat for seat, _ in stored) == ["3", "5"]
    assert all(phone not in d and moved not in d for _, d in stored)

    restarted = Session(journal)
    restarted.open()
    try:
        again = Access("123456", store=restarted)
        assert again.seat_of(phone) == "3" and again.seat_of(moved) == "5"
        assert again.join("3", None) is None  # another phone cannot take it
        assert again.join("3", phone) == phone  # the same phone, after a reload
        assert again.free("3") and restarted.seat_claims() == {"5": digest(moved)}
    finally:
        restarted.close()


def test_an_address_asks_for_seats_four_times_then_once_every_twenty_seconds():
    clock = Clock()
    asks = SeatAskLimit(clock)
    assert [asks.wait("10.42.0.7") for _ in range(4)] == [0.0] * 4
    assert asks.wait("10.42.0.7") == ASKS_EVERY
    assert asks.wait("10.42.0.8") == 0  # another phone is not slowed
    clock.now += ASKS_EVERY
    assert asks.wait("10.42.0.7") == 0
    assert asks.wait("10.42.0.7") == ASKS_EVERY  # the refill is one request, not a burst


def test_the_addresses_remembered_for_seat_requests_are_bounded():
    clock = Clock()
    asks = SeatAskLimit(clock)
    for n in range(ASKING_ADDRESSES + 50):
        asks.wait(f"10.{n // 250}.{n % 250}.1")
    assert len(asks._buckets) == ASKING_ADDRESSES
