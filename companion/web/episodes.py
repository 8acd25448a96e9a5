"""A finished game's episode replay as the bytes served, built once for each state of its
journal rows (issue 28, point 7).

A finished game's replay does not change while it stays finished, yet building it costs a read of
every command from the journal, the engine's replay and its JSON (20 ms and more for an evening's
long game, on the read's thread but under the one interpreter lock the seats' presses need too).
A phone that asks again and again, or a table of phones opening the replay together, now costs
one build; an undo, a new command or a change of the game's status is a new mark, so a build is
never served for a journal that has moved on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from companion.session.journal import GameMark

KEPT = 4  # episodes kept: the last game's, and a few the host's history opened


class Episodes:
    """The served bytes of the last few episodes, each beside the journal mark it was built at."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._lock = threading.Lock()
        self._built: OrderedDict[str, tuple[GameMark, bytes]] = OrderedDict()

    def served(self, game: str, mark: GameMark, build: Callable[[], bytes | None]) -> bytes | None:
        """The episode of `game` at `mark` (read before `build` runs: a change in between makes
        the next request build again, never a stale answer), built by `build` when it is not kept
        (None: nothing to serve, and nothing kept)."""
        with self._lock:
            found = self._built.get(game)
            if found is not None and found[0] == mark:
                self._built.move_to_end(game)
                return found[1]
        body = build()
        if body is None:
            return None
        with self._lock:
            self._built[game] = (mark, body)
            self._built.move_to_end(game)
            while len(self._built) > self.kept:
                self._built.popitem(last=False)
        return body
