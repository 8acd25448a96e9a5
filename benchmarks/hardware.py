"""The table's hardware: time from a seat button press to the OLED's new frame and to the buzzer
pattern starting; how far behind the game the OLED is after a burst of commands; frames drawn
over whole simulated games; CPU used while idle, in this process and by a real `room25 serve
--hardware mock` (its wake-ups a second too, every thread's context switches); the voice: time
from a command to the start of its announcement (warm cache and cold) and the phrase cache after
a game of each edition (benchmarks/voice.py, with the real espeak-ng and aplay on ALSA's null
device).

Run: .venv/bin/python benchmarks/hardware.py [--presses N] [--burst N] [--games N]
     [--idle SECONDS] [--voice-trials N (0: no voice figures)]
     [--serve-idle SECONDS (0: no serve figures)]

Everything runs on gpiozero's MockFactory and luma's dummy device (the "mock" hardware) around a
real session with its journal, so the figures include the session's writer and the journal's
fsync but not the I2C transfer (about 25 ms for a full 128x64 frame at 400 kHz). The load
average is printed beside them: on a busy machine they are on the slow side.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))  # serving, after ours

from load import cpu_seconds, load_line
from serving import Serve
from voice import report as voice_report

from companion.config import Config
from companion.engine import apply, events_for, legal_commands, public_view, start, waiting_for
from companion.hardware import start_hardware
from companion.hardware.display import Display
from companion.hardware.moments import announcements
from companion.session import Session

SETUP = {
    "edition": "base",
    "mode": "suspicion",
    "players": 5,
    "settings": {"programming": "tokens"},
    "seed": 3,
}
LAG_LIMIT = 60.0  # seconds: an OLED further behind is reported as "more than" this
GAMES = [
    {"edition": "base", "mode": "suspicion", "players": 5},
    {"edition": "season2", "mode": "cooperation", "players": 4},
    {"edition": "ultimate", "mode": "suspicion", "players": 6},
]


def _wait(check, timeout: float = 5.0) -> float:
    """Spin until `check()` is true; the time.monotonic() at which it was seen."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError("the hardware did not answer in time")
        time.sleep(0.0005)
    return time.monotonic()


def press_latency(presses: int) -> tuple[list[float], list[float]]:
    """Milliseconds from a seat pin going low to the new OLED frame, and to the lock-in pattern
    starting on the buzzer pin."""
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Path(folder) / "journal.sqlite")
        session.open()
        rig = start_hardware(session, Config(), "mock", address="http://192.168.4.1:8025/")
        try:
            session.host("new_game", setup=dict(SETUP))
            for seat in "12345":
                for cell in ("C2", "C4", "B3", "D3"):
                    if session.submit({"type": "clue", "seat": seat, "cell": cell}).ok:
                        break
            pin = rig.factory.pin(rig.config.buttons.seats[0])
            to_frame, to_sound = [], []
            for _ in range(presses):
                frames, sounds = rig.display.frames, rig.buzzer.started[0]
                pressed_at = time.monotonic()
                pin.drive_low()
                seen = _wait(lambda f=frames: rig.display.frames > f)
                to_frame.append((seen - pressed_at) * 1000)
                locked = "1" in session.snapshot("public")["waiting"]["locked_in"]
                if locked:
                    _wait(lambda s=sounds: rig.buzzer.started[0] > s)
                    to_sound.append((rig.buzzer.started[1] - pressed_at) * 1000)
                time.sleep(0.1)
                pin.drive_high()
                time.sleep(0.1)
            return to_frame, to_sound
        finally:
            rig.close()
            session.close()


def burst_lag(commands: int, seconds: float = 1.0, seed: int = 7) -> tuple[float, int]:
    """Seconds from the last of `commands` random legal commands sent within `seconds` until
    the OLED shows the game as it is now (what a display that saw only the last update shows);
    and how many of the burst's updates brought an announcement."""
    setup = {"edition": "season2", "mode": "cooperation", "players": 4, "seed": seed}
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Path(folder) / "journal.sqlite")
        session.open()
        address = "http://192.168.4.1:8025/"
        rig = start_hardware(session, Config(), "mock", address=address)
        listener = session.listen("public")
        try:
            changes: list[tuple[float, bytes]] = []  # when the OLED's picture changed, to what
            stop = threading.Event()

            def watch() -> None:
                seen = rig.display.frames
                while not stop.is_set():
                    seen = rig.display.wait_frame(seen, 0.05)
                    changes.append((time.monotonic(), rig.display.frame.tobytes()))

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            session.host("new_game", setup=dict(setup))
            state = start(setup).state
            sent = 0
            started = last_sent = time.monotonic()
            while sent < commands and state.outcome is None:
                seats = sorted({c["seat"] for c in public_view(state)["characters"].values()})
                options = [
                    c for s in seats for c in legal_commands(state, s) if c["type"] != "unlock"
                ]
                command = rng.choice(options)
                if session.submit(dict(command)).ok:
                    last_sent = time.monotonic()
                    state = apply(state, command).state
                    sent += 1
                time.sleep(max(0.0, started + sent * seconds / commands - time.monotonic()))
            updates = []
            while (update := listener.get(timeout=0.2)) is not None:
                updates.append(update)
            fresh = Display(None, address=address)
            fresh.show(updates[-1])
            current = fresh.frame.tobytes()
            try:
                _wait(lambda: rig.display.frame.tobytes() == current, timeout=LAG_LIMIT)
            except RuntimeError:
                return float("inf"), sum(1 for u in updates if announcements(u))
            stop.set()
            watcher.join()
            since = last_sent  # when the OLED last became what it shows now
            for at, picture in changes:
                since = since if picture == current else at
            shown = next(
                (at for at, picture in changes if at >= since and picture == current), since
            )
            return max(0.0, shown - last_sent), sum(1 for u in updates if announcements(u))
        finally:
            stop.set()
            listener.close()
            rig.close()
            session.close()


class _Seconds:
    """A clock the benchmark moves: a second between updates, so announcements run out."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _update(state, events: list[dict]) -> dict:
    return {
        "game": "bench",
        "version": state.version,
        "view": public_view(state),
        "events": events_for(events, None),
        "waiting": waiting_for(state).as_dict(),
        "session": {"paused": False, "timer": None, "notices": [], "lock_ins": []},
        "resync": False,
    }


def frames_in_games(games: int) -> dict[str, float]:
    """Whole random games (every seat playing uniformly random legal commands, as
    `companion.sim.simulate` does), each public update shown on a display a second apart."""
    updates = frames = 0
    seconds = 0.0
    for number in range(games):
        setup = {**GAMES[number % len(GAMES)], "seed": number}
        rng = random.Random(number)
        clock = _Seconds()
        display = Display(None, clock=clock)
        state = start(setup).state
        seats = list(public_view(state)["characters"].values())
        seat_ids = sorted({c["seat"] for c in seats})
        while state.outcome is None:
            options = [
                c for s in seat_ids for c in legal_commands(state, s) if c["type"] != "unlock"
            ]
            result = apply(state, rng.choice(options))
            state = result.state
            update = _update(state, result.events)
            before = time.perf_counter()
            display.show(update)
            clock.now += 1.0
            display.tick()
            seconds += time.perf_counter() - before
            updates += 1
        frames += display.frames
    return {
        "games": games,
        "updates": updates,
        "frames": frames,
        "frames_per_game": frames / games,
        "ms_per_update": seconds * 1000 / updates,
    }


def idle_cpu(seconds: float, kind: str) -> float:
    """Per cent of one core the hardware uses with nothing happening (no game, no input)."""
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Path(folder) / "journal.sqlite")
        session.open()
        rig = start_hardware(session, Config(), kind, address="http://192.168.4.1:8025/")
        try:
            time.sleep(1.0)
            cpu, wall = time.process_time(), time.monotonic()
            time.sleep(seconds)
            return 100 * (time.process_time() - cpu) / (time.monotonic() - wall)
        finally:
            rig.close()
            session.close()


def switches(pid: int) -> int:
    """Context switches, voluntary and not, of every thread of a process: each is a wake-up."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except OSError:  # a thread that ended meanwhile
            continue
        total += sum(int(line.split()[1]) for line in lines if "ctxt_switches:" in line)
    return total


def serve_idle(seconds: float) -> tuple[float, float, int]:
    """A real `room25 serve --hardware mock` with nothing happening (no game, no phone, no
    input), `seconds` after a settling second: its wake-ups a second, its CPU share in per
    cent of one core, and its threads."""
    with tempfile.TemporaryDirectory() as folder:
        server = Serve(Path(folder) / "data", hardware="mock").wait_ready()
        try:
            pid = server.process.pid
            time.sleep(1.0)
            woke, cpu, wall = switches(pid), cpu_seconds(f"/proc/{pid}/stat"), time.monotonic()
            time.sleep(seconds)
            wall = time.monotonic() - wall
            woke = switches(pid) - woke
            cpu = cpu_seconds(f"/proc/{pid}/stat") - cpu
            threads = len(list(Path(f"/proc/{pid}/task").iterdir()))
        finally:
            server.terminate()
        return woke / wall, 100 * cpu / wall, threads


def gallery_time() -> None:
    """The time to render every OLED screen of the gallery (`room25 screens`), in each
    language of the catalogue."""
    from companion import words
    from companion.hardware.gallery import render_screens

    with tempfile.TemporaryDirectory() as folder:
        for lang in words.languages():
            started = time.perf_counter()
            drawn = render_screens(Path(folder) / lang, lang)
            took = time.perf_counter() - started
            print(f"OLED gallery ({lang}): {len(drawn)} screens in {took:.2f} s")
    print(load_line())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--burst", type=int, default=50)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--voice-trials", type=int, default=20)
    parser.add_argument("--serve-idle", type=float, default=30.0)
    parser.add_argument("--gallery", action="store_true", help="only the OLED gallery's time")
    args = parser.parse_args()
    if args.gallery:
        gallery_time()
        return
    print(f"{platform.machine()}, Python {platform.python_version()}")
    print(load_line())
    to_frame, to_sound = press_latency(args.presses)
    print(
        f"seat press -> OLED frame: median {statistics.median(to_frame):.1f} ms, "
        f"max {max(to_frame):.1f} ms ({len(to_frame)} presses, 30 ms of it the debounce)"
    )
    print(
        f"seat press -> buzzer pattern starts: median {statistics.median(to_sound):.1f} ms, "
        f"max {max(to_sound):.1f} ms ({len(to_sound)} lock-ins)"
    )
    lag, announced = burst_lag(args.burst)
    behind = f"more than {LAG_LIMIT:.0f} s" if lag == float("inf") else f"{lag * 1000:.0f} ms"
    print(
        f"OLED behind the game after {args.burst} commands in 1 s ({announced} announcements): "
        f"{behind} (target <= 1 s)"
    )
    print(load_line())
    found = frames_in_games(args.games)
    print(
        f"simulated games: {found['games']} games, {found['updates']} public updates, "
        f"{found['frames']} frames drawn ({found['frames_per_game']:.0f} a game), "
        f"{found['ms_per_update']:.2f} ms per update shown"
    )
    for kind in ("virtual", "mock"):
        print(f"idle CPU ({kind}): {idle_cpu(args.idle, kind):.2f} % of one core")
    print(load_line())
    if args.serve_idle > 0:
        woke, cpu, threads = serve_idle(args.serve_idle)
        print(
            f"room25 serve --hardware mock idle for {args.serve_idle:.0f} s: {woke:.1f} wake-ups "
            f"a second, {cpu:.2f} % of one core, {threads} threads (targets <= 20, <= 0.3 %)"
        )
        print(load_line())
    if args.voice_trials > 0:
        voice_report(args.voice_trials, seed=1)


if __name__ == "__main__":
    main()
