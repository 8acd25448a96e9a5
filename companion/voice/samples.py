"""`room25 voice`: say a text (`--say`), or render every kind of announcement in every
language of the catalogue to WAV files (`--sample OUTDIR`; with `--gallery`, compact clips and
the page that lists them: docs/voice/, the gallery of docs/hardware.md), its own lines in the
command line's language."""

from __future__ import annotations

import sys
import tempfile
import textwrap
from pathlib import Path

from companion import words
from companion.engine import load_deck
from companion.engine.kernel.mac_cards import MacCard
from companion.session.notices import Notice
from companion.teaching import LESSONS
from companion.words import languages

from .cache import Cache
from .engines import EngineError, Espeak
from .script import Line, event_lines
from .sinks import Aplay, Clip, SinkError
from .wav import compact, duration, join


def _card(card_id: str) -> dict:
    return {"type": "mac_drawn", "card": card_id, "shown": load_deck().by_id(card_id).as_json()}


# Each result a game may end with, and the seats it names (one, several or none).
RESULTS = {
    "guards": ["3", "5"],
    "complete_victory": [],
    "partial_victory": [],
    "defeat": [],
    "draw": [],
    "competition": ["2"],
    "team": ["1", "3"],
}


def _over(result: str, winners: list[str]) -> dict:
    return {"type": "game_over", "outcome": {"result": result, "winners": winners, "reason": ""}}


def sample_events() -> dict[str, list[dict]]:
    """Public events of each kind the voice says, named after the announcement."""
    samples: dict[str, list[dict]] = {
        "turn": [{"type": "countdown", "order": [], "turn": 3, "turns_left": 8}],
        "last_turn": [{"type": "countdown", "order": [], "turn": 10, "turns_left": 1}],
        "programming": [{"type": "phase", "phase": "programming"}],
        "time_warning": [{"type": "time_warning", "left": 30}],
        "time_up": [{"type": "time_up", "seats": []}],
        "actor_first": [{"type": "actor", "character": "emmett", "round": 1}],
        "actor_second": [{"type": "actor", "character": "jennifer", "round": 2}],
        "actor_adrenaline": [{"type": "actor", "character": "franck", "round": 3}],
        "room_revealed": [{"type": "room_revealed", "tile": 4, "room": "acid", "cell": "B2"}],
        "time_warning_last": [{"type": "time_warning", "left": 1}],
        "elimination": [
            {"type": "eliminated", "character": "alice", "cause": "flooded"},
            {"type": "role_revealed", "character": "alice", "role": "prisoner", "reason": "death"},
        ],
        "elimination_reported": [
            {"type": "eliminated", "character": "emmett", "cause": "reported"},
            {"type": "role_revealed", "character": "emmett", "role": "prisoner", "reason": "death"},
        ],
        "guard_eliminated": [
            {"type": "eliminated", "character": "jennifer", "cause": "time_bomb"},
            {"type": "role_revealed", "character": "jennifer", "role": "guard", "reason": "death"},
        ],
        "guard_exposed": [{"type": "guard_exposed", "character": "max", "role": "guard"}],
        "alarm": [{"type": "alarm", "turns_left": 5}],
        "timer": [{"type": "turns_reduced", "turns_left": 6, "cause": "timer"}],
        "escaped": [{"type": "escaped", "characters": ["kevin", "sarah"]}],
        "escaped_one": [{"type": "escaped", "characters": ["bruce"]}],
        "game_over": [_over("prisoners", ["1", "2", "4"])],
    }
    for result, winners in RESULTS.items():
        samples[f"game_over_{result}"] = [_over(result, winners)]
    kinds: dict[str, str] = {}
    for card in load_deck().cards:
        name = card.kind if card.kind != "complex_movement" else _movement_name(card)
        kinds.setdefault("_".join(filter(None, [name, card.colour])), card.id)
    for name, card_id in kinds.items():
        samples[f"card_{name}"] = [_card(card_id)]
    # A Punishment card in a game with one of its two characters, or neither (`shown_in`).
    punishment = load_deck().by_id("punish-emmett-kevin")
    for name, cast in (("one", {"emmett"}), ("none", set())):
        shown = punishment.shown_in(cast)
        samples[f"card_punishment_{name}"] = [
            {"type": "mac_drawn", "card": shown["id"], "shown": shown}
        ]
    return samples


def _movement_name(card: MacCard) -> str:
    if card.line is not None and card.line.axis == "col":  # a column, north or south
        return f"movement_column_{card.direction}"
    return "movement" + ("_twice" if card.twice else "") + ("_again" if card.draw_again else "")


def sample_lines(every_lesson: bool = True) -> dict[str, list[Line]]:
    """Every announcement the voice makes, as lines: the events', a problem and news, a lesson,
    and (`every_lesson`) each lesson of the catalogue as a table being taught hears it (the
    docs' gallery keeps one: its clips stay small)."""
    view = {"turn": 1, "turns_left": 10}
    found = {name: event_lines(events, view) for name, events in sample_events().items()}
    found["notice"] = [Line.of("notice", notice=Notice("phone_offline", {"seat": "3"}).as_dict())]
    found["news"] = [Line.of("notice", notice=Notice("seat_taken_back", {"seat": "3"}).as_dict())]
    taught = [each.id for each in LESSONS] if every_lesson else []
    for name, lessons in [("lesson", ["action_control"]), *((f"lesson_{t}", [t]) for t in taught)]:
        lesson = Notice("lesson", {"lessons": lessons}).as_dict()
        found[name] = [Line.of("notice", notice=lesson)]
    return found


def render_samples(
    outdir: Path, engine: Espeak | None = None, small: bool = False
) -> list[tuple[Path, str]]:
    """Every sample in every language as `OUTDIR/<name>.<lang>.wav`, with what it says;
    `small`: for the docs, one lesson only and each clip compacted (a third of its rate, 8-bit,
    no silent ends)."""
    engine = engine or Espeak()
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as folder:
        cache = Cache(Path(folder))
        for name, lines in sample_lines(every_lesson=not small).items():
            for lang in languages():
                texts = [line.text(lang) for line in lines]
                clip = join([cache.clip(engine, text, lang) for text in texts])
                path = outdir / f"{name}.{lang}.wav"
                path.write_bytes(compact(clip) if small else clip)
                written.append((path, " ".join(texts)))
    return written


def gallery_index(written: list[tuple[Path, str]], lang: str) -> str:
    """The gallery's page (`README.md` beside the clips), in `lang`: each announcement, what
    it says in every language, each linked to its clip."""
    said = {path.name: text for path, text in written}
    names = list(dict.fromkeys(path.name.split(".")[0] for path, _ in written))
    columns = [words.text(lang, "cli_voice_gallery_announcement"), *words.names().values()]
    rows = [
        f"# {words.text(lang, 'cli_voice_gallery_title')}",
        "",
        *textwrap.wrap(words.text(lang, "cli_voice_gallery_intro"), 95, break_on_hyphens=False),
        "",
        f"| {' | '.join(columns)} |",
        f"|{' --- |' * len(columns)}",
    ]
    for name in names:
        cells = [
            f"[{_cell(said[f'{name}.{code}.wav'])}]({name}.{code}.wav)" for code in languages()
        ]
        rows.append(f"| `{name}` | {' | '.join(cells)} |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    """A text inside a Markdown table cell and link."""
    return text.replace("|", "\\|").replace("[", "\\[").replace("]", "\\]")


def say_text(text: str, lang: str, out: Path | None, device: str = "") -> int:
    """`room25 voice --say`: render `text`, then write it to `out` or play it."""
    if not text.strip():
        return _refused(words.text(lang, "cli_voice_say_empty"), 2)
    engine = Espeak()
    try:
        with tempfile.TemporaryDirectory() as folder:
            wav = Path(folder) / "said.wav"
            engine.render(text, lang, wav)
            clip = wav.read_bytes()
        if out is None:
            Aplay(device).play(Clip(0, text, lang, clip))
            return 0
        out.write_bytes(clip)
    except (EngineError, SinkError) as error:
        return _refused(error.text(lang), 1)
    seconds = f"{duration(clip):.1f}"
    print(words.text(lang, "cli_voice_written", path=str(out), seconds=seconds))
    return 0


def sample_command(outdir: Path, lang: str, gallery: bool = False) -> int:
    """`room25 voice --sample OUTDIR [--gallery]`: every clip, listed with what it says, and
    (`gallery`) the page listing them, in `lang`."""
    try:
        written = render_samples(outdir, small=gallery)
    except EngineError as error:
        return _refused(error.text(lang), 1)
    for path, text in written:
        print(f"{path}\t{text}")
    print(words.counted(lang, "cli_voice_clips", len(written), folder=str(outdir)))
    if gallery:
        page = outdir / "README.md"
        page.write_text(gallery_index(written, lang), encoding="utf-8")
        print(words.text(lang, "cli_voice_page_written", path=str(page)))
    return 0


def _refused(said: str, code: int) -> int:
    print(f"room25 voice: {said}", file=sys.stderr)
    return code
