"""`room25`: the companion's command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from companion import words
from companion.engine import (
    EDITIONS,
    MAC_LEVELS,
    MODES,
    characters_per_seat,
    mac_level,
    make_ruleset,
    turns_for,
)
from companion.words.locale import cli_language

if TYPE_CHECKING:  # the session loads only for the commands that read its journal
    from companion.session.shapes import Export


def _scenario(args: argparse.Namespace) -> int:
    from companion.scenario import run_paths
    from companion.scenario.load import ScenarioFileError
    from companion.scenario.run import final_state

    lang = cli_language()
    try:
        results = run_paths(args.paths)
    except ScenarioFileError as error:
        print(f"room25 scenario: {error.text(lang)}", file=sys.stderr)
        return 2
    if not results:
        print(f"room25 scenario: {words.text(lang, 'cli_no_scenarios')}", file=sys.stderr)
        return 2
    report = [
        {
            "scenario": r.name,
            "ok": r.ok,
            "failures": [str(f) for f in r.failures],
            "state": final_state(r),
        }
        for r in results
    ]
    print(json.dumps(report if len(report) > 1 else report[0], indent=2, ensure_ascii=False))
    failed = [r for r in results if not r.ok]
    for r in failed:
        for failure in r.failures:
            said = words.text(lang, "cli_scenario_failed", name=r.name, failure=failure.text(lang))
            print(said, file=sys.stderr)
    if len(results) > 1 or not failed:
        passed = len(results) - len(failed)
        said = words.text(lang, "cli_scenarios_summary", passed=passed, failed=len(failed))
        print(said, file=sys.stderr)
    return 1 if failed else 0


def _progress_bar(total: int):
    if not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _simulate(args: argparse.Namespace) -> int:
    from companion.sim.simulate import SimulationError, simulate

    setup = {"edition": args.edition, "mode": args.mode, "players": args.players}
    if args.mac is not None:
        setup["settings"] = {"mac": args.mac}
    if args.composition is not None:
        setup["composition"] = args.composition
    lang = cli_language()
    if args.games < 1:
        print(f"room25 simulate: {words.text(lang, 'cli_games_at_least_one')}", file=sys.stderr)
        return 2
    if args.jobs < 0:
        print(f"room25 simulate: {words.text(lang, 'cli_jobs_not_negative')}", file=sys.stderr)
        return 2
    jobs = args.jobs or len(os.sched_getaffinity(0))  # the cores this process may use
    try:
        summary = simulate(
            setup,
            args.games,
            args.seed,
            _progress_bar(args.games),
            policy=args.players_policy,
            jobs=jobs,
        )
    except SimulationError as error:
        print(f"room25 simulate: {error.text(lang)}", file=sys.stderr)
        return 2
    figures = summary.as_dict()
    if args.json:
        print(
            json.dumps(
                {
                    "setup": setup,
                    "seed": args.seed,
                    "policy": args.players_policy,
                    "jobs": jobs,
                    **figures,
                }
            )
        )
        return 0
    _simulated(args, figures, jobs, lang)
    return 0


def _simulated(args: argparse.Namespace, figures: dict, jobs: int, lang: str) -> None:
    """`room25 simulate`'s report for a terminal; the results are named by their ids."""
    level = words.text(lang, "cli_simulated_level", level=args.mac) if args.mac else ""
    played = {"policy": args.players_policy, "mode": args.mode, "edition": args.edition}
    print(
        words.counted(
            lang, "cli_simulated", args.games, level=level, players=args.players, **played
        )
    )
    print(words.text(lang, "cli_win_rates"))
    for result, rate in figures["results"].items():
        count = figures["counts"][result]
        print(f"    {result:<18} {rate:6.1%}  ({count})")
    print(words.text(lang, "cli_mean_length", turns=f"{figures['mean_turns']:.2f}"))
    processes = words.text(lang, "cli_processes", n=jobs) if jobs > 1 else ""
    rate = f"{figures['games_per_second']:.1f}"
    print(words.text(lang, "cli_games_per_second", rate=rate, processes=processes))


def _deck(args: argparse.Namespace) -> int:
    from companion.engine import (
        DeckError,
        deck_as_json,
        deck_schema,
        deck_warnings,
        format_deck,
        load_deck,
    )

    if args.schema:
        print(json.dumps(deck_schema(), indent=2, ensure_ascii=False))
        return 0
    lang = cli_language()
    try:
        deck = load_deck(args.file)
    except DeckError as error:
        print(f"room25 deck: {error.text(lang)}", file=sys.stderr)
        return 1
    for warning in deck_warnings(deck):
        said = words.text(lang, "deck_warning", problem=warning.text(lang))
        print(f"room25 deck: {said}", file=sys.stderr)
    if args.json:
        print(json.dumps(deck_as_json(deck), indent=2, ensure_ascii=False))
    else:
        print(format_deck(deck, lang))
    return 0


def _compose(args: argparse.Namespace) -> int:
    import random

    from companion.engine import compose

    lang = cli_language(args.lang)
    try:
        chosen, alternatives = compose.composition_for_table(
            args.edition,
            args.mode,
            args.players,
            args.composition,
            guards=args.guards,
            level=args.level,
        )
        others = ", ".join(c.id for c in alternatives)
        rooms = compose.fill(chosen, random.Random(args.seed)) if args.seed is not None else None
        tiles = compose.tile_list(chosen, rooms)
    except compose.CompositionError as error:
        print(f"room25 compose: {error.text(lang)}", file=sys.stderr)
        return 2
    ruleset = make_ruleset(args.edition, args.mode)
    characters = args.players * characters_per_seat(ruleset, args.players)
    turns = turns_for(args.edition, args.mode, characters)
    if args.json:
        lines = [
            {
                "room": line.room,
                "name": line.name(lang),
                "colour": line.colour,
                "count": line.count,
                "placement": line.placement,
            }
            for line in tiles.lines
        ]
        found = {"composition": tiles.composition, "turns": turns, "tiles": lines}
        print(json.dumps({**found, "free_slots": dict(tiles.unfilled)}, ensure_ascii=False))
    else:
        print(compose.format_tile_list(tiles, lang=lang))
        print(words.text(lang, "cli_compose_turns", characters=characters, turns=turns))
        if others:
            print(words.text(lang, "cli_compose_others", others=others))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from companion import lean

    lean.leave_out()  # before the server's imports load them (companion/lean.py)
    from companion.serve import serve

    return serve(args.data_dir, args.port, args.config, args.hardware)


def _journal(args: argparse.Namespace, name: str):
    """The journal of a data directory, opened for reading, or None (the reason printed)."""
    from companion.serve import JOURNAL_NAME, default_data_dir
    from companion.session.journal import Journal, JournalError

    path = (args.data_dir or default_data_dir()) / JOURNAL_NAME
    if not path.exists():
        said = words.text(cli_language(), "cli_no_journal", path=str(path))
        print(f"room25 {name}: {said}", file=sys.stderr)
        return None
    journal = Journal(path)
    try:
        journal.open()
    except JournalError as error:
        print(f"room25 {name}: {error.text(cli_language())}", file=sys.stderr)
        return None
    return journal


def _games(args: argparse.Namespace) -> int:
    from companion.session.archive import listing

    journal = _journal(args, "games")
    if journal is None:
        return 1
    try:
        games = listing(journal)
    finally:
        journal.close()
    if args.json:
        print(json.dumps(games, ensure_ascii=False))
        return 0
    lang = cli_language()
    if not games:
        print(words.text(lang, "cli_no_games"))
    for g in games:
        outcome = g["outcome"] or {}
        result = outcome.get("result") or outcome.get("winner") or ""
        line = words.text(
            lang, "cli_game_line", game=g["game"], status=f"{g['status']:<9}",
            edition=g["edition"], mode=g["mode"], players=g["players"] or "?",
            tracking=g["tracking"], commands=g["commands"],
        )  # fmt: skip
        print(line + (f"  {result}" if result else ""))
    return 0


def _stats(args: argparse.Namespace) -> int:
    from companion.story.history import as_text, table_history
    from companion.story.simulated import Simulated

    journal = _journal(args, "stats")
    if journal is None:
        return 1
    simulated = Simulated(journal.path.parent)
    try:
        found = table_history(journal, simulated.rates)
    finally:
        journal.close()
    print(json.dumps(found, ensure_ascii=False) if args.json else as_text(found, cli_language()))
    return 0


def _export(args: argparse.Namespace) -> int:
    from companion.session.archive import export

    journal = _journal(args, "export")
    if journal is None:
        return 1
    try:
        found = export(journal, args.game)
    finally:
        journal.close()
    lang = cli_language(args.lang)
    if found is None:
        said = words.text(lang, "cli_no_such_game", game=args.game)
        print(f"room25 export: {said}", file=sys.stderr)
        return 1
    if args.html:
        return _recap(found, Path(args.html), lang)
    text = json.dumps(found, ensure_ascii=False, indent=1)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    if not found["complete"]:
        print(f"room25 export: {words.text(lang, 'cli_secrets_left_out')}", file=sys.stderr)
    return 0


def _recap(found: Export, path: Path, lang: str) -> int:
    """`room25 export GAME --html FILE`: the recap to keep, one self-contained HTML file."""
    from companion.story.recap import recap_html
    from companion.story.replay import NotOver

    try:
        page = recap_html(found, lang)
    except NotOver:
        print(f"room25 export: {words.text(lang, 'cli_recap_not_over')}", file=sys.stderr)
        return 1
    path.write_text(page, encoding="utf-8")
    kb = len(page.encode()) // 1024
    print(words.text(lang, "cli_recap_written", path=str(path), kb=kb))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from companion.session.archive import ExportError, read_export, rebuild

    try:
        end = rebuild(read_export(args.file))
    except ExportError as error:
        print(f"room25 replay: {error.text(cli_language())}", file=sys.stderr)
        return 1
    print(json.dumps(end, ensure_ascii=False, indent=1))
    if not end["commands_agree"]:
        said = words.text(cli_language(), "cli_replay_differs")
        print(f"room25 replay: {said}", file=sys.stderr)
        return 1
    return 0


# The subcommands of `room25`, as argparse types them.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="room25", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    _serving_and_journal(commands)
    _rules_and_simulation(commands)
    _table_parts(commands)
    return parser


def _serving_and_journal(commands: Commands) -> None:
    """serve, and the commands that read its journal: games, stats, export, replay."""
    serve = commands.add_parser("serve", help="start the companion at the table")
    serve.add_argument(
        "--hardware",
        choices=("pi", "virtual", "mock"),
        help="the table's hardware (default: pi on a Raspberry Pi, else virtual)",
    )
    serve.add_argument("--data-dir", type=Path, help="where the journal lives (default: per user)")
    serve.add_argument(
        "--port", type=int, help="the web port (default 8025; 0: any free port, said when ready)"
    )
    serve.add_argument("--config", type=Path, help="a TOML settings file")
    serve.set_defaults(run=_serve)

    games = commands.add_parser("games", help="the games in the journal")
    games.add_argument("--data-dir", type=Path, help="the data directory (default: per user)")
    games.add_argument("--json", action="store_true")
    games.set_defaults(run=_games)

    stats = commands.add_parser(
        "stats", help="the table's history: past games, and win rates beside the simulator's"
    )
    stats.add_argument("--data-dir", type=Path, help="the data directory (default: per user)")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(run=_stats)

    exp = commands.add_parser("export", help="write one game of the journal as JSON")
    exp.add_argument("game", help="a game id (room25 games lists them)")
    exp.add_argument("--data-dir", type=Path, help="the data directory (default: per user)")
    exp.add_argument("--output", "-o", help="a file (default: standard output)")
    exp.add_argument("--html", metavar="FILE", help="write the game's recap as one HTML file")
    exp.add_argument(
        "--lang", choices=words.languages(), default="", help="the recap's (default: LANG's)"
    )
    exp.set_defaults(run=_export)

    replay = commands.add_parser("replay", help="rebuild an exported game and print its end")
    replay.add_argument("file", type=Path, help="a file written by room25 export")
    replay.set_defaults(run=_replay)


def _rules_and_simulation(commands: Commands) -> None:
    """The rules engine's commands: scenario, simulate, compose, deck."""
    scenario = commands.add_parser("scenario", help="run rule scenario files")
    scenario.add_argument("paths", nargs="+", help="scenario files or folders")
    scenario.set_defaults(run=_scenario)

    simulate = commands.add_parser(
        "simulate", help="play simulated games and report win rates per result"
    )
    simulate.add_argument("--edition", choices=EDITIONS, default="base")
    simulate.add_argument("--mode", choices=MODES, default="suspicion")
    simulate.add_argument("--players", type=int, default=5)
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument(
        "--mac",
        type=mac_level,
        choices=("off", *MAC_LEVELS),
        help="M.A.C. deck level (default: standard in Season 2 / Ultimate Cooperation and Solo)",
    )
    simulate.add_argument(
        "--players-policy",
        choices=("heuristic", "random"),
        default="heuristic",
        help="how the seats play: a heuristic player that sees only its own seat's view "
        "(default), or uniformly random legal commands",
    )
    simulate.add_argument(
        "--composition", help="a composition id (room25 compose lists them); default: suggested"
    )
    simulate.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="processes playing games side by side (default 0: one per core); "
        "the results do not depend on it",
    )
    simulate.add_argument("--json", action="store_true", help="one JSON object")
    simulate.set_defaults(run=_simulate)

    comp = commands.add_parser("compose", help="the room tiles to take out of the box")
    comp.add_argument("--edition", choices=EDITIONS, default="base")
    comp.add_argument("--mode", choices=MODES, default="suspicion")
    comp.add_argument("--players", type=int, default=5)
    comp.add_argument("--guards", type=int, choices=(1, 2), help="Suspicion at 5 players")
    comp.add_argument("--level", type=mac_level, choices=MAC_LEVELS, help="Cooperation and Solo")
    comp.add_argument("--composition", help="a composition id (default: the suggested one)")
    comp.add_argument("--seed", type=int, help="fill the free slots at random with this seed")
    comp.add_argument("--lang", choices=words.languages(), default="", help="default: LANG's")
    comp.add_argument("--json", action="store_true")
    comp.set_defaults(run=_compose)

    deck = commands.add_parser("deck", help="list or validate a M.A.C. deck")
    deck.add_argument("--file", help="a deck file (default: the packaged reconstruction)")
    deck.add_argument("--json", action="store_true")
    deck.add_argument(
        "--schema", action="store_true", help="print the deck file's JSON Schema, for an editor"
    )
    deck.set_defaults(run=_deck)


def _table_parts(commands: Commands) -> None:
    """The table's screens, wiring and voice: screens, check, voice."""
    screens = commands.add_parser("screens", help="render every OLED screen to PNG files")
    screens.add_argument("outdir", help="folder for the PNGs (created if missing)")
    screens.add_argument(
        "--pages",
        action="store_true",
        help="also the table page (1920x1080) and a phone (390x844) at each moment of a sample "
        "game, in OUTDIR/pages (needs Playwright and Chromium)",
    )
    screens.set_defaults(run=_screens)

    check = commands.add_parser("check", help="walk the table's wiring, one part at a time")
    check.add_argument("--hardware", choices=("pi", "mock"), help="default: pi on a Raspberry Pi")
    check.add_argument("--config", type=Path, help="a TOML settings file")
    check.add_argument("--data-dir", type=Path, help="the data directory (default: per user)")
    check.add_argument("--seconds", type=float, default=10.0, help="a step waits this long")
    check.add_argument("--lang", choices=words.languages(), default="", help="default: the table's")
    check.set_defaults(run=_check)

    voice = commands.add_parser("voice", help="say a text, or render every announcement to WAV")
    said = voice.add_mutually_exclusive_group(required=True)
    said.add_argument("--say", metavar="TEXT", help="a text to say (played, or written with --out)")
    said.add_argument(
        "--sample", metavar="OUTDIR", help="render every announcement, every language"
    )
    voice.add_argument(
        "--lang", choices=words.languages(), default="", help="default: the terminal's"
    )
    voice.add_argument("--out", metavar="FILE", help="with --say: write a WAV file, play nothing")
    voice.add_argument("--device", default="", help="with --say: an ALSA device (aplay -L)")
    voice.add_argument(
        "--gallery", action="store_true", help="with --sample: small clips and a README.md page"
    )
    voice.set_defaults(run=_voice)


def _screens(args: argparse.Namespace) -> int:
    from companion.hardware.gallery import screens_command

    lang = cli_language()
    done = _written("screens", lang, args.outdir, screens_command, args.outdir, lang)
    if done != 0 or not args.pages:
        return done
    from companion.web.gallery import pages_command

    return _written("screens", lang, args.outdir, pages_command, args.outdir, lang)


def _written(command: str, lang: str, into: str, run: Callable[..., int], *args: object) -> int:
    """A command that writes files `into` a file or folder, with a file it cannot write said
    plainly (the system's own reason kept)."""
    try:
        return run(*args)
    except BrokenPipeError:
        raise  # the reader left: `main` says nothing more
    except OSError as error:
        path = str(error.filename or into)
        said = words.text(lang, "cli_cannot_write", path=path, why=error.strerror or error)
        print(f"room25 {command}: {said}", file=sys.stderr)
        return 1


def _check(args: argparse.Namespace) -> int:
    from companion.check_command import check_command

    return check_command(args.hardware, args.config, args.data_dir, args.seconds, args.lang)


def _voice(args: argparse.Namespace) -> int:
    from companion.voice.samples import sample_command, say_text

    lang = cli_language(args.lang)
    if args.say is not None:
        out = Path(args.out) if args.out else None
        return _written("voice", lang, args.out or "", say_text, args.say, lang, out, args.device)
    sample = Path(args.sample)
    return _written("voice", lang, args.sample, sample_command, sample, lang, args.gallery)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            args = build_parser().parse_args(argv)
            return args.run(args)
        finally:
            # What is still buffered (a listing, argparse's --help) meets a reader that left here,
            # not at the interpreter's exit, which would print "Exception ignored" and exit 120.
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader left (`room25 deck | head`): nothing more to say, and nowhere to say it.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
