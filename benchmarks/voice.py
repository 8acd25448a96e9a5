"""The voice: time from a command to the start of its announcement (the phrase already in the
cache, and rendered afresh), how far behind the game the voice is after a burst of commands,
the longest clip per language, and the size of the phrase cache after a whole game of each
edition.

Run: .venv/bin/python benchmarks/voice.py [--trials N]

A real session with its journal, the real espeak-ng and the real aplay on ALSA's `null` device
(it takes the clip as a sound card would, without one): the time runs from the command handed
to the session to aplay started with the clip on its input. The command is the last lock-in of
a programming phase, which names the first actor; it is undone between trials. The games are
played by the simulator's heuristic players, their public updates said in English and French.

The burst: a Season 2 game's commands one every BURST_EVERY seconds for BURST_SECONDS, each
update's announcement as long as its real espeak-ng clip, run through the announcer's queue on a
virtual clock (companion/voice/timeline.py): the lag is from an update to the start of what is
heard of it (a real speaker would take the minute to play it; the queue's decisions are the
same).
"""

from __future__ import annotations

import argparse
import platform
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from load import load_line

from companion.config import Config
from companion.engine import apply, events_for, load_deck, public_view, waiting_for
from companion.hardware.display import QUIET_SESSION
from companion.session import Session
from companion.sim.simulate import PlayedGame
from companion.voice import start_voice
from companion.voice.cache import Cache
from companion.voice.engines import Espeak
from companion.voice.script import Line, Script
from companion.voice.sinks import Aplay
from companion.voice.timeline import play
from companion.voice.wav import duration, join

SETUP = {
    "edition": "base",
    "mode": "suspicion",
    "players": 5,
    "settings": {"programming": "tokens"},
    "seed": 3,
}
GAMES = [
    {"edition": "base", "mode": "suspicion", "players": 5},
    {"edition": "season2", "mode": "cooperation", "players": 4},
    {"edition": "ultimate", "mode": "suspicion", "players": 6},
]
TARGET_MS = 300
BURST = {"edition": "season2", "mode": "cooperation", "players": 4}
BURST_EVERY = 2.0  # seconds between commands
BURST_SECONDS = 60.0


def announcement_latency(trials: int, warm: bool) -> list[float]:
    """Milliseconds from the last lock-in handed to the session to aplay starting its clip."""
    started: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Path(folder) / "journal.sqlite")
        session.open()
        sink = Aplay("null", on_start=lambda clip: started.append(time.monotonic()))
        cache = Path(folder) / "voice"
        voice = start_voice(session, Config(), sink=sink, cache_dir=cache)
        try:
            session.host("new_game", setup=dict(SETUP))
            for seat in "12345":
                for cell in ("C2", "C4", "B3", "D3"):
                    if session.submit({"type": "clue", "seat": seat, "cell": cell}).ok:
                        break
            for seat in "1234":
                session.press_seat(seat)
            session.healthy()
            voice.idle(10)
            if warm:  # the phrase said once before the trials
                session.press_seat("5")
                session.healthy()
                voice.idle(10)
                session.host("undo", count=1)
            times = []
            for _ in range(trials):
                session.healthy()
                voice.idle(10)
                if not warm:
                    shutil.rmtree(cache, ignore_errors=True)
                before = len(started)
                pressed = time.monotonic()
                session.press_seat("5")
                deadline = pressed + 10
                while len(started) == before and time.monotonic() < deadline:
                    time.sleep(0.0005)
                if len(started) == before:
                    raise RuntimeError(f"no announcement; problems: {voice.problems()}")
                times.append((started[-1] - pressed) * 1000)
                voice.idle(10)
                session.host("undo", count=1)
        finally:
            voice.close()
            session.close()
    return times


def cache_after_game(setup: dict, seed: int) -> dict:
    """A whole game of heuristic players said in English and French: the lines said, the
    distinct phrases rendered and the cache's size on disk."""
    played, updates = _updates(setup, seed)
    espeak, said = Espeak(), 0
    with tempfile.TemporaryDirectory() as folder:
        cache = Cache(Path(folder))
        for lines in updates:
            for line in lines:
                said += 1
                for lang in ("en", "fr"):
                    cache.clip(espeak, line.text(lang), lang)
        files, size = cache.size()
    return {"commands": played, "lines": said, "phrases": files, "bytes": size}


def _updates(setup: dict, seed: int) -> tuple[int, list[list]]:
    """The commands of a whole game of heuristic players, and the lines said after each."""
    game = PlayedGame({**setup, "seed": seed}, "heuristic", random.Random(seed))
    script, found = Script(), []
    before = game.state
    for decision in game:
        result = apply(before, decision.command)
        before = result.state
        update = {
            "game": "benchmark",
            "version": result.state.version,
            "resync": False,
            "events": events_for(result.events, None),
            "view": public_view(result.state),
            "waiting": waiting_for(result.state).as_dict(),
            "session": QUIET_SESSION,  # no pause, notice, lesson or set-up walk
        }
        found.append(script.lines(update))
    return game.played, found


def burst(seed: int) -> None:
    """A command every BURST_EVERY s for BURST_SECONDS; then the longest clip per language,
    over the whole game's lines and every card of the deck."""
    _, updates = _updates(BURST, seed)
    espeak = Espeak()
    with tempfile.TemporaryDirectory() as folder:
        cache = Cache(Path(folder))
        for lang in ("en", "fr"):

            def length(announcement, lang=lang) -> float:
                texts = [line.text(lang) for line in announcement.lines]
                return duration(join([cache.clip(espeak, text, lang) for text in texts]))

            commands = int(BURST_SECONDS / BURST_EVERY)
            heard = play(
                [(n * BURST_EVERY, lines) for n, lines in enumerate(updates[:commands])], length
            )
            said = sum(1 for lines in updates[:commands] if lines)
            lags = [h.lag for h in heard.heard]
            ended = heard.heard[-1].end - (commands - 1) * BURST_EVERY
            print(
                f"burst {lang}: {commands} commands, one every {BURST_EVERY:.0f} s "
                f"({said} with lines): {len(heard.heard)} heard, {heard.cuts} cut, "
                f"{heard.dropped} dropped; lag max {max(lags):.2f} s, "
                f"median {statistics.median(lags):.2f} s; "
                f"the last heard ends {ended:.1f} s after the last command"
            )
            lines = {line for found in updates for line in found}
            lines |= {Line.of("card", card=card.as_json()) for card in load_deck().cards}
            longest = max(
                lines, key=lambda line: duration(cache.clip(espeak, line.text(lang), lang))
            )
            seconds = duration(cache.clip(espeak, longest.text(lang), lang))
            print(f"longest line {lang}: {seconds:.1f} s: {longest.text(lang)}")
    print(load_line())


def _stats(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return (
        f"{name}: median {statistics.median(values):.1f} ms, 95th percentile {p95:.1f} ms, "
        f"max {max(values):.1f} ms over {len(values)}"
    )


def report(trials: int, seed: int) -> None:
    """Print the voice's figures, each with the load average (benchmarks/hardware.py too)."""
    print(load_line())
    burst(seed)
    warm = announcement_latency(trials, warm=True)
    cold = announcement_latency(trials, warm=False)
    print(_stats("command to announcement, warm cache", warm))
    print(_stats("command to announcement, cold cache (espeak-ng renders)", cold))
    verdict = "met" if statistics.median(warm) <= TARGET_MS else "NOT met"
    print(f"target <= {TARGET_MS} ms warm (median): {verdict}")
    print(load_line())
    for setup in GAMES:
        found = cache_after_game(setup, seed)
        game = f"{setup['edition']} {setup['mode']} {setup['players']}p"
        print(
            f"{game}: {found['commands']} commands, {found['lines']} lines said, "
            f"cache {found['phrases']} phrases (en + fr), {found['bytes'] / 1e6:.1f} MB "
            f"(the cache is kept under [voice] cache_mb, {Config().voice.cache_mb} MB)"
        )
    print(load_line())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}")
    report(args.trials, args.seed)


if __name__ == "__main__":
    main()
