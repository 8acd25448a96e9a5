"""Never behind: one announcement speaking and at most one waiting; a later one makes the
waiting one stale (dropped) but carries on its lasting lines (the alarm, an elimination, the
end). A burst of fifty commands through a real session leaves at most one queued."""

from __future__ import annotations

import random
import threading

from companion.session import Session
from companion.voice import Voice
from companion.voice.announcer import Announcement, Announcer
from companion.voice.script import Line
from companion.voice.sinks import FakeSink

from .conftest import play, random_command, settled

GAME = {"edition": "season2", "mode": "cooperation", "players": 4, "tracking": "dealt", "seed": 2}


def test_a_burst_of_fifty_leaves_one_waiting_and_carries_the_alarm() -> None:
    release = threading.Event()
    spoken: list[Announcement] = []

    def speak(announcement: Announcement) -> None:
        spoken.append(announcement)
        release.wait(5)

    announcer = Announcer(speak)
    try:
        announcer.announce([Line.of("programming")])
        for _ in range(500):  # the first one speaking, the burst comes
            if spoken:
                break
            release.wait(0.01)
        for n in range(50):
            lines = [Line.of("actor_1", character="max"), Line.of("turn", turn=n, turns_left=9)]
            if n == 10:
                lines.append(Line.of("alarm", turns_left=5))
            announcer.announce(lines)
            assert announcer.waiting() <= 1
        assert announcer.waiting() == 1 and announcer.dropped >= 48
        release.set()
        assert announcer.idle(5)
    finally:
        announcer.close()
    assert len(spoken) == 2
    last = spoken[-1].lines
    assert Line.of("alarm", turns_left=5) in last, "the alarm is never stale"
    assert Line.of("turn", turn=49, turns_left=9) in last
    assert not any(line == Line.of("turn", turn=10, turns_left=9) for line in last)
    assert last.count(Line.of("actor_1", character="max")) == 1


def test_fifty_commands_through_the_session_keep_the_voice_one_behind_at_most(
    session: Session, tmp_path
) -> None:
    from companion.config import Config
    from companion.voice import start_voice
    from companion.voice.engines import Speaker

    from .conftest import Murmur

    sink = FakeSink(seconds=0.2)  # a speaker slower than the commands come
    voice: Voice = start_voice(
        session, Config(), sink=sink, engines=Speaker(Murmur()), cache_dir=tmp_path / "c"
    )
    try:
        assert session.host("new_game", setup=GAME).ok
        rng = random.Random(5)
        most = 0
        for _ in range(50):
            command = random_command(session._game.state, rng)
            if command is None:
                break
            assert session.submit(command, source="test").ok
            most = max(most, voice.announcer.waiting())
        settled(session, voice)
        assert most <= 1
        assert voice.announcer.dropped > 0, "the burst outran the speaker"
        assert len(sink.played) < 25
        # The last thing heard is the newest announcement: the voice caught up with the game.
        assert sink.played[-1].clip.id == voice.latest()["id"]
    finally:
        voice.close()


def test_a_slow_game_is_said_whole(session: Session, voice: Voice, sink: FakeSink) -> None:
    """When the speaker keeps up nothing is dropped: every update with lines is heard."""
    assert session.host("new_game", setup=GAME).ok
    settled(session, voice)
    play(session, 30, seed=5, voice=voice)
    assert voice.announcer.dropped == 0
    assert sink.texts()[0].startswith("Turn 1:")
    assert [p.clip.id for p in sink.played] == sorted(p.clip.id for p in sink.played)
