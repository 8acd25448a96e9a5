"""Issue 28, point 2: the voice is never more than 2 s behind the game. The announcer's queue on
an injected clock (no sleeps): a more urgent announcement cuts the one being spoken, a stale one
cuts an equal one or is dropped, and a burst of one command every 2 s for a minute with long
clips is heard at most 2 s late."""

from __future__ import annotations

from companion.voice.announcer import MAX_LAG, Queue
from companion.voice.script import Line
from companion.voice.timeline import play

CARD = Line.of("card", card={"id": "panic", "kind": "panic", "name_en": "Panic"})
ACTOR = Line.of("actor_1", character="max")
TURN = Line.of("turn", turn=3, turns_left=6)
LAST_TURN = Line.of("turn", turn=9, turns_left=1)
TIMER = Line.of("timer", room="timer", turns_left=4)
ALARM = Line.of("alarm", turns_left=5)
ELIMINATED = Line.of("eliminated", character="max", cause="acid")
GAME_OVER = Line.of("game_over", result="defeat")


def test_priorities_go_game_over_elimination_alarm_timer_last_turn_actor_card() -> None:
    order = [GAME_OVER, ELIMINATED, ALARM, TIMER, LAST_TURN, ACTOR, CARD]
    ranks = [line.priority for line in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert TURN.priority == ACTOR.priority, "a turn that is not the last is as urgent as an actor"


def test_a_more_urgent_announcement_cuts_the_one_being_spoken_at_once() -> None:
    queue = Queue()
    queue.offer([TURN, CARD], now=0.0)
    queue.take()
    _, urgent = queue.offer([ELIMINATED], now=0.5)
    assert urgent and queue.cuts == 1
    _, again = queue.offer([ALARM, ELIMINATED], now=0.6)
    assert not again, "a clip being cut is cut once"


def test_an_equally_urgent_one_waits_its_two_seconds_then_cuts() -> None:
    queue = Queue()
    queue.offer([ACTOR], now=0.0)
    queue.take()
    _, urgent = queue.offer([Line.of("actor_2", character="max")], now=1.0)
    assert not urgent
    assert queue.deadline() == 1.0 + MAX_LAG
    assert not queue.expire(now=2.9) and queue.waiting is not None
    assert queue.expire(now=3.0)
    assert queue.cuts == 1 and queue.dropped == 0


def test_a_stale_less_urgent_one_is_dropped_and_its_lasting_lines_wait_on() -> None:
    queue = Queue()
    queue.offer([GAME_OVER], now=0.0)
    queue.take()
    queue.offer([ACTOR], now=0.5)
    assert not queue.expire(now=2.5)
    assert queue.waiting is None and queue.dropped == 1
    queue.offer([ELIMINATED, ACTOR], now=3.0)
    assert not queue.expire(now=5.0), "the end is not cut by an elimination"
    assert queue.waiting is not None and queue.waiting.lines == (ELIMINATED,)


def test_a_replaced_announcement_carries_its_lasting_lines_into_the_next() -> None:
    queue = Queue()
    queue.offer([CARD], now=0.0)
    queue.take()
    queue.offer([ALARM, ACTOR], now=0.1)
    queue.offer([TURN], now=0.2)
    assert queue.waiting is not None and queue.waiting.lines == (ALARM, TURN)
    assert queue.dropped == 1


def test_a_minute_of_commands_every_two_seconds_is_never_heard_more_than_two_seconds_late() -> None:
    """Long clips (a card said for 6 s, an alarm for 4 s) against a command every 2 s: every
    announcement heard starts at most MAX_LAG after its update, the alarm and eliminations
    are heard, and the last update is heard too."""
    updates = []
    for n in range(30):
        lines = [Line.of("actor_1", character="max"), Line.of("turn", turn=n, turns_left=9)]
        if n % 4 == 0:
            lines.append(CARD)
        if n == 10:
            lines.append(ALARM)
        if n == 17:
            lines.append(ELIMINATED)
        updates.append((2.0 * n, lines))

    def length(announcement) -> float:
        return sum(
            6.0 if line == CARD else 4.0 if line == ALARM else 1.5 for line in announcement.lines
        )

    burst = play(updates, length)
    assert max(h.lag for h in burst.heard) <= MAX_LAG
    said = [line for h in burst.heard for line in h.announcement.lines]
    assert ALARM in said and ELIMINATED in said
    assert Line.of("turn", turn=29, turns_left=9) in burst.heard[-1].announcement.lines
    assert burst.cuts > 0
