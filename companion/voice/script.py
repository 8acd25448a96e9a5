"""What the showrunner says for an update: lines made from the PUBLIC update only (its view, its
public events, what the game waits for, the session's notices), never a seat's view.

Two games that differ only in a secret get the same public updates at the same moments, so they
get the same lines. Lock-ins are never said: a seat's lock-in is public but says who is slow.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion import words
from companion.engine import grid
from companion.engine.kernel.mac_words import kind_name
from companion.session import NoticeView, TableUpdate
from companion.session.notices import is_problem, shown
from companion.teaching import LESSONS, lesson_said
from companion.teaching.setup import step_text

from .catalogue import has_line, line_text, say, spoken

# Lines that are never stale: a later announcement carries them on rather than dropping them.
LASTING = frozenset({"alarm", "timer", "eliminated", "game_over", "winners", "escaped"})
# What a quiet table still hears.
QUIET = frozenset({"alarm", "game_over", "winners"})
# Notices the voice does not say: the session's own events already say the time limit, and a
# muted voice saying that it is muted is heard by nobody (the pages and the OLED show it).
UNSAID = frozenset({"seconds_left", "time_up", "voice_muted"})


@dataclass(frozen=True)
class Line:
    """One phrase of the catalogue with its parameters as the events carry them (ids, numbers,
    lists, a card), kept as JSON so that equal lines compare equal; `text` puts it into words."""

    key: str
    params: str = "{}"

    @classmethod
    def of(cls, key: str, **params: object) -> Line:
        return cls(key, json.dumps(params, sort_keys=True, ensure_ascii=False))

    @property
    def lasting(self) -> bool:
        return self.key in LASTING

    @property
    def priority(self) -> int:
        """How urgent the line is (events.json `_priority`): the last turn's turn line is."""
        urgency = spoken()["_priority"]
        key = "actor" if self.key.startswith("actor_") else self.key
        if key == "turn" and json.loads(self.params).get("turns_left", 2) <= 1:
            key = "last_turn"
        return int(urgency.get(key, urgency["actor"]))

    def text(self, lang: str) -> str:
        params = json.loads(self.params)
        if self.key == "card":
            return _card_text(params["card"], lang)
        if self.key == "setup_step":
            return step_text(params["step"], lang)
        if self.key == "notice" and params["notice"].get("code") == "lesson":
            return _lesson_text(params["notice"].get("params", {}), lang)
        if self.key == "notice":  # "Problem: ..." for a problem only, news said as it is
            said = "notice" if is_problem(params["notice"].get("code")) else "news"
            return say(lang, said, {"text": shown(params["notice"], lang)})
        return say(lang, self.key, params)


def _lesson_text(params: Mapping, lang: str) -> str:
    """A lesson is said whole, its name and its one or two sentences, so a table that never read
    the rulebook hears the rule and not only its name (a lesson this companion does not know, from
    an older or newer journal, is not said)."""
    known = {found.id for found in LESSONS}
    return " ".join(
        say(lang, "lesson", lesson_said(lesson, lang))
        for lesson in params.get("lessons", ())
        if lesson in known
    )


def _card_text(card: dict, lang: str) -> str:
    """A M.A.C. card: its name and what the table must do now, short (its whole text is on
    the phones and the table page): the catalogue's `spoken_mac_<kind>` line, or the card's
    own text for a card the catalogue has no line for."""
    kind = card.get("kind")
    if kind == "complex_movement":
        line = card.get("line") or {}
        axis, index = line.get("axis", "row"), int(line.get("index", 0))
        where = grid.line_key(axis, index)[3:]
        moves = "card_movement_twice" if card.get("twice") else "card_movement"
        effect = say(
            lang,
            moves,
            {
                "line": say(lang, axis, {"n": where}),
                "direction": line_text(lang, str(card.get("direction", "north"))),
            },
        )
        if card.get("draw_again"):
            effect += " " + say(lang, "card_draw_again")
        name = line_text(lang, "complex_movement")
    elif kind == "punishment":
        # The characters of the game the card names (`shown_in`): two, one or none.
        named = list(card.get("characters") or ())
        which = {0: "card_punishment_none", 1: "card_punishment_one"}.get(len(named))
        effect = say(lang, which or "card_punishment", {"characters": named})
        # The effect names them; the card is said by its kind's name ("Punishment").
        name = kind_name("punishment", lang)
    else:
        name = str(
            card.get(f"name_{lang}") or card.get(f"name_{words.fallback()}") or card.get("id", "")
        )
        now = "_".join(str(part) for part in ("mac", kind, card.get("colour")) if part)
        if has_line(lang, now):
            effect = say(lang, now)
        else:
            effect = str(card.get(f"text_{lang}") or card.get(f"text_{words.fallback()}") or "")
    return say(lang, "card", {"card": name, "effect": effect})


@dataclass
class Script:
    """Turns public updates into lines; remembers which notices were said in this game, to say
    each once however often it comes back (a phone whose Wi-Fi flickers is not a refrain)."""

    said_notices: set[str] = field(default_factory=set)
    game: object = None  # the game the notices were said in: a new game may say them again
    setup_at: object = None  # the set-up step said last (game, step), while it is taught

    def lines(self, update: TableUpdate) -> list[Line]:
        """The lines an update calls for, in the order they are said."""
        found = event_lines(update["events"], update["view"])
        found.extend(self._setup(update))
        found.extend(self._notices(update))
        return found

    def _setup(self, update: TableUpdate) -> list[Line]:
        """The set-up step the table is shown, while it is taught: said once each time the
        table moves to it (Back then Next says a step again, another update does not)."""
        walk = update["session"].get("setup")
        at = None if walk is None else (update["game"], walk["at"])
        said, self.setup_at = self.setup_at, at
        if walk is None or at == said:
            return []
        return [Line.of("setup_step", step=walk["steps"][walk["at"]])]

    def _notices(self, update: TableUpdate) -> Iterable[Line]:
        if update["game"] != self.game:
            self.game = update["game"]
            self.said_notices = set()
        notices = [n for n in update["session"]["notices"] if n["code"] not in UNSAID]
        fresh = [n for n in notices if _key(n) not in self.said_notices]
        self.said_notices |= {_key(n) for n in fresh}
        return [Line.of("notice", notice=n) for n in fresh]


def _key(notice: NoticeView) -> str:
    return json.dumps([notice["code"], notice["params"]], sort_keys=True)


def event_lines(events: list[dict], view: Mapping[str, object] | None) -> list[Line]:
    """The lines of an update's public events, read against its view (a resync snapshot, no
    events, says nothing)."""
    events = [e for e in events or () if "private" not in e]
    lines: list[Line] = []
    kinds = {e.get("type") for e in events}
    for event in events:
        lines.extend(_event_lines(event, view, kinds))
    # Whose action it is: only the last actor of the update acts now (the others were skipped
    # on the way), and none once the game is over.
    actors = [i for i, line in enumerate(lines) if line.key.startswith("actor_")]
    stale = set(actors if "game_over" in kinds else actors[:-1])
    return [line for i, line in enumerate(lines) if i not in stale]


def _event_lines(event: dict, view: Mapping[str, object] | None, kinds: set) -> list[Line]:
    kind = event.get("type")
    if kind == "countdown":
        return [Line.of("turn", turn=event["turn"], turns_left=event["turns_left"])]
    if kind == "phase" and event.get("phase") == "programming":
        found = []
        if "countdown" not in kinds and view and view.get("turn") is not None:
            found.append(Line.of("turn", turn=view["turn"], turns_left=view.get("turns_left", 0)))
        return [*found, Line.of("programming")]
    if kind == "actor":
        return [
            Line.of(f"actor_{min(int(event.get('round', 1)), 3)}", character=event["character"])
        ]
    if kind == "room_revealed" and event.get("room"):
        return [Line.of("room_revealed", room=event["room"])]
    if kind == "eliminated":
        return [Line.of("eliminated", character=event["character"], cause=str(event["cause"]))]
    if kind == "role_revealed":
        role = "guard" if event.get("role") == "guard" else "prisoner"
        return [Line.of(f"role_{role}", character=event["character"])]
    if kind == "guard_exposed":
        return [Line.of("guard_exposed", character=event["character"])]
    if kind == "alarm":
        return [Line.of("alarm", turns_left=event["turns_left"])]
    if kind == "turns_reduced" and event.get("cause") == "timer":
        return [Line.of("timer", room="timer", turns_left=event["turns_left"])]
    if kind == "mac_drawn":
        return [Line.of("card", card=event.get("shown") or {"id": event.get("card")})]
    if kind == "game_over":
        outcome = event.get("outcome") or {}
        found = [Line.of("game_over", result=str(outcome.get("result", "defeat")))]
        if outcome.get("winners"):
            found.append(Line.of("winners", seats=list(outcome["winners"])))
        return found
    if kind == "escaped":
        return [Line.of("escaped", characters=list(event.get("characters") or ()))]
    if kind == "time_warning":
        return [Line.of("time_warning", left=int(event["left"]))]
    if kind == "time_up":
        return [Line.of("time_up")]
    return []


def spoken_kinds() -> set[str]:
    """The event kinds the catalogue says a line for."""
    return {kind for kind, key in spoken()["_events"].items() if key is not None}
