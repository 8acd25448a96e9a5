"""Instructions per heuristic game (base Suspicion, five players), and with `--table` per table
update and per POST, counted by valgrind's callgrind: figures that, unlike the games per second,
do not move with the machine's load or speed, so that two versions of the code can be compared
on a shared machine, and each change's gain stated to a fraction of a per cent.

`--table` counts (1) a table update in one process: a seat button's press through the session,
journal written, each of the ten listeners (8 seats, the table, the host) handed its update and
encoding it as its stream would; (2) a POST to a real `room25 serve --hardware mock` run under
callgrind, its ten streams read by this process: the server's instructions, every thread, from
the POST's arrival to the last stream's message sent, counted between `callgrind_control`'s
zero and dump around the POSTs, the same time spent idle taken off. Each is given as a Pi Zero
2 W's time by the estimate of `ZERO_NS_PER_INSTRUCTION` (its assumption said there).

`--apply` counts instructions per command applied, the mean over the commands of 30 random
games of `engine.py`'s five modes, each applied three times less once (issue 29, point 4).

Run: .venv/bin/python benchmarks/instructions.py [--games N] [--table [--posts N]] [--apply]
(with `PYTHONPATH=.compiled` in front, on the optional compiled engine of `scripts/compile`).
Needs valgrind (`sudo apt install valgrind`). The games are those of `room25 simulate --seed 1`,
in a child process with a fixed string hash (`PYTHONHASHSEED=0`: the order of a set of strings,
and so the work, changes with it). The child plays N games, then 2N; the difference, over N,
leaves out the imports and the start-up. Fewer instructions is faster, but not in proportion:
memory and the processor's caches weigh too, which only a timed benchmark (`players.py`) shows.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))  # serving, after web.py

from load import build_of, load_line

ROOT = Path(__file__).resolve().parent.parent
PLAY = (
    "import sys; from companion.engine.kernel import evolve; print(evolve.__file__); "
    "from companion.sim.simulate import simulate; "
    "simulate({'mode': 'suspicion', 'players': 5}, int(sys.argv[1]), seed=1)"
)

# Commands applied: the positions and commands of 30 random games of `engine.py`'s five modes
# recorded, then every command applied again N times (issue 29: the apply alone).
APPLY = (
    "import sys, random; sys.path.insert(0, sys.argv[2]); "
    "from companion.engine.kernel import evolve; print(evolve.__file__); "
    "from companion.engine import apply, legal_commands, start; from engine import SETUPS; "
    "pairs = []\n"
    "for n in range(30):\n"
    "    rng = random.Random(n); state = start({**SETUPS[n % len(SETUPS)], 'seed': n}).state\n"
    "    while state.outcome is None:\n"
    "        c = rng.choice([c for s in state.seats for c in legal_commands(state, s)])\n"
    "        pairs.append((state, c)); state = apply(state, c).state\n"
    "for _ in range(int(sys.argv[1])):\n"
    "    for state, c in pairs: apply(state, c)\n"
    "print(len(pairs))"
)


# A table update in one process: seat 1 of an eight-seat game in programming presses its
# button (lock in, unlock), N times, each listener's update encoded as its stream sends it.
TABLE = (
    "import sys, tempfile; from pathlib import Path; "
    "from companion.engine.kernel import evolve; print(evolve.__file__); "
    "from companion.session import Session; "
    "d = tempfile.mkdtemp(); s = Session(Path(d) / 'j.sqlite'); s.open(); "
    "s.host('new_game', setup={'edition': 'season2', 'mode': 'suspicion', 'players': 8, "
    "'tracking': 'dealt', 'settings': {'programming': 'tokens'}, 'seed': 1}); "
    "[s.submit({'type': 'clue', 'seat': c, 'cell': 'B3'}) for c in '12345678']; "
    "ls = [s.listen(a) for a in ('public', 'host', *'12345678')]; "
    "[(s.press_seat('1'), [u.message() for l in ls for u in iter(lambda: l.next(0), None)])"
    " for _ in range(int(sys.argv[1]))]; s.close()"
)
# A Pi Zero 2 W: Cortex-A53 cores at 1 GHz, in order, two instructions a cycle at best. The
# assumption: CPython runs about as many instructions there as on x86-64 (aarch64 code of the
# same C is within some 20 %), at 0.5 instructions a cycle (an interpreter's branches and
# memory loads stall an in-order core), so 2 ns an instruction, with 0.33 to 1 instruction a
# cycle (3 to 1 ns) as its range. Only a run on a Zero replaces it.
ZERO_NS_PER_INSTRUCTION = (2.0, 1.0, 3.0)


def zero_ms(instructions: float) -> str:
    """An instruction count as a Pi Zero 2 W's milliseconds (the estimate and its range)."""
    middle, low, high = (instructions * ns / 1e6 for ns in ZERO_NS_PER_INSTRUCTION)
    return f"{middle:.1f} ms on a Pi Zero 2 W by the estimate ({low:.1f} to {high:.1f} ms)"


def child_path() -> str:
    """The child's module path: this process's `PYTHONPATH` (`.compiled` first, for the compiled
    build) made absolute, then this tree. The child runs with `-P`, so that the directory it
    starts in does not come first and quietly give it the pure-Python sources."""
    given = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([*(str(Path(p).resolve()) for p in given), str(ROOT)])


def instructions(games: int, code: str = PLAY) -> tuple[int, str]:
    """Instructions a child process runs to import the companion and play `games` games (or
    run `code` with that count), and the file its engine came from."""
    with tempfile.TemporaryDirectory() as scratch:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={Path(scratch) / 'callgrind.out'}",
                sys.executable,
                "-P",
                "-c",
                code,
                str(games),
                str(Path(__file__).resolve().parent),
            ],
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": child_path()},
            capture_output=True,
            text=True,
            check=True,
        )
    counted = re.search(r"Collected : (\d+)", run.stderr)
    if counted is None:
        raise RuntimeError(f"callgrind counted nothing: {run.stderr[-500:]}")
    return int(counted.group(1)), run.stdout.strip()


def counted(dumped: Path) -> int:
    """The instructions of a callgrind dump file."""
    found = re.search(r"^(?:summary|totals): (\d+)", dumped.read_text(), re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no count in {dumped}")
    return int(found.group(1))


def dump(pid: int, scratch: Path) -> int:
    """Dump the counts of the callgrind running as `pid` and read them: the instructions since
    its last zero."""
    before = set(scratch.glob("callgrind.out*"))
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        new = set(scratch.glob("callgrind.out*")) - before
        if new and "totals" in (dumped := max(new)).read_text()[-2000:]:
            return counted(dumped)
        time.sleep(0.2)
    raise RuntimeError("callgrind wrote no dump")


def server_posts(posts: int) -> tuple[float, float]:
    """Instructions per POST of a `room25 serve` run under callgrind with its ten streams fed,
    and what it spends idling for as long, per POST."""
    from serving import Serve
    from web import SEEN, Stream, cookie_of, opened, press_rounds, seated_table

    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        under = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/callgrind.out")
        server = Serve(scratch / "data", wrap=under, env={"PYTHONHASHSEED": "0"})
        try:
            server.wait_ready(timeout=600)
            host, phones = seated_table(server)
            streams = opened(
                [Stream(server.port, "seat", cookie_of(p)) for p in phones.values()]
                + [Stream(server.port, "host", cookie_of(host)), Stream(server.port, "table")]
            )
            press_rounds(phones["1"], streams, 3)  # every path of a POST run once
            pid = server.process.pid
            subprocess.run(["callgrind_control", "-z", str(pid)], check=True, capture_output=True)
            began = time.monotonic()
            press_rounds(phones["1"], streams, posts // 2)
            busy = dump(pid, scratch)
            seconds = time.monotonic() - began
            subprocess.run(["callgrind_control", "-z", str(pid)], check=True, capture_output=True)
            with SEEN:
                SEEN.wait(seconds)  # idle: nothing posted, the streams only ticking
            idle = dump(pid, scratch)
            for stream in streams:
                stream.close()
        finally:
            server.stop()
    return busy / posts, idle / posts


def table(updates: int, posts: int) -> None:
    (once, engine), (twice, _) = (
        instructions(updates, TABLE),
        instructions(2 * updates, TABLE),
    )
    print(build_of(engine))
    per_update = (twice - once) / updates
    print(
        f"instructions per table update (a press, 10 listeners each encoding its update): "
        f"{per_update / 1e6:.2f} million; {zero_ms(per_update)}"
    )
    busy, idle = server_posts(posts)
    print(
        f"instructions per POST, room25 serve with 10 streams fed ({posts} POSTs): "
        f"{busy / 1e6:.2f} million, the same time idle {idle / 1e6:.2f} million; less idle "
        f"{(busy - idle) / 1e6:.2f} million: {zero_ms(busy - idle)}"
    )
    print(f"(assumed: {ZERO_NS_PER_INSTRUCTION[0]} ns an instruction on a Zero 2 W, as said above)")
    print(load_line())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--table", action="store_true", help="per table update and per POST")
    parser.add_argument("--updates", type=int, default=40)
    parser.add_argument("--posts", type=int, default=40)
    parser.add_argument("--apply", action="store_true", help="per command applied (issue 29)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: sudo apt install valgrind")
    if args.table:
        table(args.updates, args.posts)
        return
    if args.apply:
        (once, engine), (thrice, _) = instructions(1, APPLY), instructions(3, APPLY)
        commands = int(engine.splitlines()[-1])
        print(build_of(engine.splitlines()[0]))
        print(f"instructions per apply: {(thrice - once) / (2 * commands):,.0f}", end=" ")
        print(f"(the mean of {commands} commands of 30 random games, under callgrind)")
        return
    (once, engine), (twice, _) = instructions(args.games), instructions(2 * args.games)
    print(build_of(engine))
    per_game = (twice - once) / args.games
    print(f"instructions per heuristic game, suspicion 5p: {per_game / 1e6:.2f} million")
    print(f"(games {args.games + 1} to {2 * args.games} of seed 1, under callgrind)")


if __name__ == "__main__":
    main()
