"""The seat requests' room of the session: a phone asks for a seat, the seat's button held (or
the host) gives it, and the table is told (seats.py keeps the requests themselves)."""

from __future__ import annotations

from collections.abc import Callable

from .core import SessionCore, log
from .journal import JournalError
from .notices import Notice
from .replies import Reply, accepted, refused
from .shapes import SeatAsk


class Seating(SessionCore):
    """Seats asked for and given with the seat button (docs/web.md, "Who may do what")."""

    def under_way(self) -> bool:
        """A game is being played: it has commands and is not over. From then on a seat is
        taken only by asking and holding its button (or a host give)."""
        return self._call(self._under_way, closed=False)

    def _under_way(self) -> bool:
        game = self._game
        return game is not None and bool(game.applied) and game.state.phase != "over"

    def ask_seat(self, seat: str, digest: str) -> str:
        """A phone (the digest of its secret) asks for `seat`: the two-digit code it shows, also
        shown on every screen with the request until the seat button gives it (120 s)."""
        return self._call(lambda: self._ask(str(seat), digest), closed="")

    def pending_seats(self) -> dict[str, str]:
        """Seat -> code of the phone asking for it (any thread: a seat button reads it)."""
        return self._seat_asks.pending()

    def asking(self, digest: str) -> SeatAsk | None:
        """The request of one phone: {"seat", "ask"}, or None."""
        found = self._seat_asks.asking(digest)
        return None if found is None else {"seat": found.seat, "ask": found.code}

    def hold_seat(self, seat: str) -> Reply:
        """A seat button held 3 s: the phone asking for that seat gets it."""
        said = Notice("seat_taken_back", {"seat": str(seat)})
        return self._call(lambda: self._give(str(seat), said, always=True))

    def give_seat(self, seat: str) -> Reply:
        """The host gives a seat to the phone asking for it; said on every screen mid-game."""
        said = Notice("seat_given_by_host", {"seat": str(seat)})
        return self._call(lambda: self._give(str(seat), said, always=False))

    def clear_seat_asks(self) -> None:
        """Every request dropped (everyone picks a seat again for a new game)."""
        self._call(self._clear_asks, closed=None)

    def on_seat_given(self, given: Callable[[str, str], None]) -> None:
        """`given(seat, digest)` once a seat is given to a phone (the web's seat holders)."""
        self._seat_given.append(given)

    def _ask(self, seat: str, digest: str) -> str:
        ask, dropped = self._seat_asks.ask(seat, digest, self.clock.now())
        for other in dropped:
            self._notices.pop(f"ask:{other}", None)
        self._notice(f"ask:{seat}", Notice("seat_asked", {"seat": seat, "ask": ask.code}))
        return ask.code

    def _give(self, seat: str, said: Notice, always: bool) -> Reply:
        """The asking phone gets the seat; `said` on every screen (`always`, or mid-game)."""
        ask, too_new = self._seat_asks.givable(seat, self.clock.now())
        if too_new is not None:
            return refused(
                "seat_request_changed",
                self._version(),
                self._game_id(),
                seat=seat,
                ask=too_new.code,
            )
        if ask is None:
            return refused("no_seat_request", self._version(), self._game_id(), seat=seat)
        try:
            for other, held in self._journal.seat_claims().items():
                if held == ask.digest and other != seat:  # the phone leaves its old seat
                    self._journal.claim_seat(other, None)
            self._journal.claim_seat(seat, ask.digest)
        except JournalError as error:
            log.warning("seat %s: %s", seat, error)
        for given in self._seat_given:
            given(seat, ask.digest)
        self._seat_asks.drop(seat)  # only now: the asking phone polls "mine", then "asking"
        self._notices.pop(f"ask:{seat}", None)
        self._notices.pop(f"seat:{seat}", None)
        if always or self._under_way():
            self._tell_news(seat, said)
        self._publish([])
        log.info("seat %s given to the phone that asked (%s)", seat, said.code)
        return accepted(self._version(), self._game_id())

    def _tell_news(self, about: str, said: Notice) -> None:
        """News on every screen for a while, about a seat or "game" (no secret in it: a seat or
        a game, and what happened)."""
        self._notices[f"said:{about}"] = said
        self._seat_asks.said(about, self.clock.now())

    def _clear_asks(self) -> None:
        for seat in self._seat_asks.clear():
            self._notices.pop(f"ask:{seat}", None)
        self._publish([])

    def _check_seats(self) -> None:
        """Requests and seat news whose time is up leave the screens."""
        asks, news = self._seat_asks.due(self.clock.now())
        for seat in asks:
            self._notices.pop(f"ask:{seat}", None)
        for seat in news:
            self._notices.pop(f"said:{seat}", None)
        if asks or news:
            self._publish([])

    def _reset_seat(self, seat: object, freed: bool = True) -> Reply:
        """The seat's phone is forgotten (the web layer frees it); its notice goes too, and a
        phone's request for it (the next tap takes the seat now). Freeing a seat while a game
        is under way is said on every screen."""
        self._notice(f"seat:{seat}", None, publish=False)
        if self._seat_asks.drop(str(seat)):
            self._notices.pop(f"ask:{seat}", None)
        if freed and self._under_way():
            self._tell_news(str(seat), Notice("seat_freed_by_host", {"seat": str(seat)}))
        self._publish([])
        return accepted(self._version(), self._game_id())
