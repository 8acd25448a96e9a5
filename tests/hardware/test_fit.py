"""Every OLED screen, in every language of the catalogue, with the longest texts the game can
produce (every character, card, cause, result and notice; eight seats; two-digit turns; a
15-character address; the longest programming time): no text runs past the 128x64 edge, no two
texts overlap, and no two letters of a text touch (1-bit DejaVu at 9-13 px merged "Turn" into
"Tum").

Each text is caught where the screens hand it to Pillow (`ImageDraw.text`), so nothing drawn
escapes the check, and the letters are judged on the font's own pixels. The pseudo-locale
(tests/pseudo_locale.py: every text accented and 35 % longer) is checked the same way, by a
pytest of these tests that sees its folder in `$ROOM25_WORDS`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from importlib import resources
from itertools import pairwise

import pytest
from PIL import Image, ImageDraw, ImageFilter
from pseudo_locale import CODE, allowed, outside_catalogue, write_pseudo_locale

from companion import words
from companion.engine import load_deck, public_view, start, waiting_for
from companion.hardware import screens as drawing
from companion.hardware.gallery import HOTSPOT, sample_updates
from companion.hardware.moments import announcements
from companion.hardware.screens import HEIGHT, SCREENS, WIDTH, frame
from companion.lan import wifi_join_text
from companion.session.notices import Notice, catalogue
from companion.teaching.setup import setup_steps

DRAW_TEXT = ImageDraw.ImageDraw.text  # Pillow's own
RUN = drawing._run  # how a frame sets a run of text, before the test catches the runs
LONG_ADDRESS = "http://192.168.100.123:8025/"
LONG_PARAMS = {
    "seat": "8",
    "seats": "1, 2, 3, 4, 5, 6, 7, 8",
    "button": "menu",
    "left": "3600",
    "game": "20261128-235959",
    "problem": "disk I/O error",
    "ask": "47",
}


def _characters() -> list[str]:
    data = resources.files("companion.engine") / "data" / "characters.json"
    return [c["id"] for c in json.loads(data.read_text())["characters"]]


def _longest(ids: list[str]) -> list[str]:
    return sorted(ids, key=len, reverse=True)


@cache
def _base() -> dict:
    """A real eight-seat game's public update, turn 12 with the alarm rung and the last turn
    ahead (everything the status bar can hold)."""
    state = start({"edition": "ultimate", "mode": "suspicion", "players": 8, "seed": 1}).state
    view = public_view(state)
    view.update(turn=12, turns_left=12, alarm=True, last_turn=False)
    view["order"] = list(view["characters"])
    return {
        "game": "fit",
        "version": view["version"],
        "view": view,
        "events": [],
        "waiting": waiting_for(state).as_dict(),
        "session": {"paused": False, "timer": None, "notices": [], "lock_ins": []},
    }


def _with(update: dict, **view: object) -> dict:
    return {**update, "view": {**update["view"], **view}}


def _notices() -> list[dict]:
    """Every notice of the catalogue, each placeholder filled with a long value (one the list
    above does not know with twelve characters)."""
    found = []
    for code, texts in catalogue().items():
        names = {name for text in texts.values() for name in re.findall(r"{(\w+)}", text)}
        found.append(Notice(code, {n: LONG_PARAMS.get(n, "x" * 12) for n in names}).as_dict())
    return found


def _session(update: dict, **session: object) -> dict:
    return {**update, "session": {**update["session"], **session}}


def _cards() -> list[dict]:
    found = []
    for card in load_deck().cards:
        shown = card.as_json()
        shown.pop("count", None)
        found.append(shown)
    return found


SETUP_WALKS = [
    {"edition": "base", "mode": "suspicion", "players": 6, "tracking": "physical"},
    {"edition": "season2", "mode": "cooperation", "players": 4,
     "settings": {"mac_deck": "physical", "mac": "madness"}},
    {"edition": "ultimate", "mode": "suspicion", "players": 8},
]  # fmt: skip


def screens() -> list[tuple[str, str, dict]]:
    """(name, moment, update) for every screen with the longest values."""
    base = _base()
    characters = _longest(_characters())
    samples = sample_updates()
    found: list[tuple[str, str, dict]] = []

    def add(name: str, moment: str, update: dict) -> None:
        found.append((name, moment, update))

    join = samples["join"]
    add("join", "join", {**join, "address": LONG_ADDRESS})
    add("join without a network", "join", {**join, "address": ""})
    add("join wifi", "join", {**join, "address": LONG_ADDRESS, "wifi": HOTSPOT, "join_step": 0})
    longest = {"text": wifi_join_text("W" * 32, "p" * 63), "ssid": "W" * 32}  # WPA's limits
    add("join long wifi", "join", {**join, "wifi": longest, "join_step": 0})
    add("pin", "pin", {"pin": "481093"})
    for mode in ("suspicion", "cooperation", "competition", "team", "solo"):
        for edition in ("base", "season2", "ultimate"):
            rules = {**base["view"]["ruleset"], "mode": mode, "edition": edition}
            add(f"setup {mode} {edition}", "setup", _with(base, ruleset=rules, turns_left=12))
    for setup in SETUP_WALKS:  # the set-up taught step by step, 11 or more steps
        started = start({**setup, "seed": 1}).state
        steps = [step.as_dict() for step in setup_steps(public_view(started), setup)]
        for at, step in enumerate(steps):
            walk = {"at": at, "steps": steps}
            add(f"setup step {step['key']}", "setup_step", _session(base, setup=walk))
    for last_turn in (False, True):
        status = _with(base, last_turn=last_turn)
        for left in (None, 5, 99, 3599):
            timer = None if left is None else {"left": left, "limit": 3600}
            add(f"programming {left}", "programming", _session(status, timer=timer))
        for cid in characters:
            add(f"action {cid}", "action", _with(status, current=cid))
            choice = {**status["waiting"], "phase": "choice", "character": cid}
            add(f"choice {cid}", "action", {**status, "waiting": choice})
        table = {**status["waiting"], "phase": "choice", "character": None}
        add("choice table", "action", {**_with(status, current=None), "waiting": table})
        add("paused", "paused", _session(status, paused=True))
    for notice in _notices():
        with_notice = _session(base, notices=[notice])
        add(f"footer {notice['code']}", "programming", with_notice)
        add(f"footer action {notice['code']}", "action", with_notice)
        add(f"problem {notice['code']}", "problem", with_notice)
    add("every problem", "problem", _session(base, notices=_notices()))
    events = [
        [{"type": "countdown", "order": [], "turn": 13, "turns_left": 12}],
        [{"type": "countdown", "order": [], "turn": 13, "turns_left": 1}],
        [{"type": "alarm", "turns_left": 12}],
        [{"type": "turns_reduced", "turns_left": 12, "cause": "timer"}],
    ]
    events += [[{"type": "eliminated", "character": c, "cause": "timer"}] for c in characters]
    written = words.texts(words.fallback())
    causes = [key[len("oled_cause_") :] for key in written if key.startswith("oled_cause_")]
    for cause in causes:
        gone = [{"type": "eliminated", "character": c, "cause": cause} for c in characters[:2]]
        reveals = [
            {"type": "role_revealed", "character": c, "role": "prisoner", "reason": "death"}
            for c in characters[:3]
        ]
        events.append(gone + reveals)
    events += [[{"type": "mac_drawn", "card": c["id"], "shown": c}] for c in _cards()]
    for group in events:
        for moment, narrowed in announcements({**base, "events": group}):
            add(f"{moment} {group[0]}", moment, narrowed)
    for result in ("complete_victory", "partial_victory", "defeat", "draw", "guards"):
        for more in ("prisoners", "competition", "team", "solo"):
            outcome = {"result": result, "winners": list("12345678"), "reason": ""}
            add(f"over {result}", "over", _with(base, phase="over", outcome=outcome))
            outcome = {"result": more, "winners": ["8"], "reason": ""}
            add(f"over {more}", "over", _with(base, phase="over", outcome=outcome))
    for name, update in check_screens():
        add(name, update["moment"], update)
    return found


def check_screens() -> list[tuple[str, dict]]:
    """The wiring check's screens with their longest values: every button asked for, on the
    GPIO and on the serial panel, two-digit steps, every part failing at once."""
    seats = [str(n) for n in range(1, 9)]
    found: list[tuple[str, dict]] = [
        ("check pattern", {"moment": "check", "verb": "pattern", "address": "0x3C"}),
        ("check pattern virtual", {"moment": "check", "verb": "pattern", "address": ""}),
    ]
    step = {"moment": "check", "step": 29, "steps": 29, "seats": seats, "done": seats[:5]}
    for button in [*seats, "next", "back", "menu"]:
        for panel in (False, True):
            press = {**step, "verb": "press", "n": button, "panel": panel}
            found.append((f"check press {button} {panel}", press))
    for verb, what in (("listen", "buzzer"), ("listen", "speaker"), ("wait", "panel")):
        found.append((f"check {verb} {what}", {**step, "verb": verb, "what": what}))
    faults = ["oled", "gpio", *seats, "next", "back", "menu", "buzzer", "speaker", "panel"]
    faults += [f"panel:{button}" for button in ["8", "next", "back", "menu"]]
    for shown in ([], faults[:1], faults):
        summary = {"moment": "check_summary", "fine": 29, "faults": shown}
        found.append((f"check summary {len(shown)}", summary))
    return found


class Texts:
    """The texts one frame sets: where (the box Pillow gives them there), what, in which font."""

    def __init__(self) -> None:
        self.drawn: list[tuple[tuple[int, int, int, int], str, object]] = []


@pytest.fixture
def texts(monkeypatch) -> Texts:
    caught = Texts()

    def run(draw, xy, text, face, fill):
        box = draw.textbbox(xy, text, font=face)
        caught.drawn.append((tuple(int(v) for v in box), text, face))
        return RUN(draw, xy, text, face, fill)

    monkeypatch.setattr(drawing, "_run", run)
    return caught


@cache
def _touch(face, first: str, second: str) -> bool:
    """Whether `second` drawn after `first` (at the font's own advance) touches it, sides or
    corners."""
    width = int(face.getlength(first + second)) + 4
    one, two = (Image.new("1", (width, 40)) for _ in range(2))
    DRAW_TEXT(ImageDraw.Draw(one), (1, 1), first, font=face, fill=255)
    DRAW_TEXT(ImageDraw.Draw(two), (1 + int(face.getlength(first)), 1), second, font=face, fill=255)
    grown = one.convert("L").filter(ImageFilter.MaxFilter(3)).convert("1")
    both = Image.new("1", (width, 40))
    both.paste(two, mask=grown)
    return both.getbbox() is not None


def _problems(drawn: list) -> list[str]:
    found = []
    for i, (box, text, face) in enumerate(drawn):
        x0, y0, x1, y1 = box
        if x0 < 0 or y0 < 0 or x1 > WIDTH or y1 > HEIGHT:
            found.append(f"{text!r} runs past the edge {box}")
        for a, b in pairwise(text):
            if a.strip() and b.strip() and _touch(face, a, b):
                found.append(f"{text!r}: {a!r} touches {b!r}")
        for other, text2, face2 in drawn[i + 1 :]:
            if x0 < other[2] and other[0] < x1 and y0 < other[3] and other[1] < y1:
                found.append(f"{text!r} {box} overlaps {text2!r} {other}")
            elif _near(box, other) and _inks_touch((box, text, face), (other, text2, face2)):
                found.append(f"{text!r} {box} touches {text2!r} {other}")
    return found


def _near(box: tuple, other: tuple) -> bool:
    """Boxes that meet or are a pixel apart."""
    return box[0] <= other[2] and other[0] <= box[2] and box[1] <= other[3] and other[1] <= box[3]


def _inks_touch(*texts: tuple) -> bool:
    """Whether two texts set side by side (a line set in runs) touch, sides or corners."""
    inks = []
    for box, text, face in texts:
        ink = Image.new("1", (WIDTH + 2, HEIGHT + 2))
        DRAW_TEXT(ImageDraw.Draw(ink), (box[0] + 1, box[1] + 1), text, font=face, fill=255)
        inks.append(ink)
    grown = inks[0].convert("L").filter(ImageFilter.MaxFilter(3)).convert("1")
    both = Image.new("1", grown.size)
    both.paste(inks[1], mask=grown)
    return both.getbbox() is not None


def test_the_screens_cover_every_moment() -> None:
    assert {moment for _, moment, _ in screens()} == set(SCREENS)


@pytest.mark.parametrize("lang", words.languages())
def test_every_text_fits_and_no_letters_touch(texts, lang) -> None:
    found = []
    for name, moment, update in screens():
        texts.drawn.clear()
        frame(moment, update, lang)
        assert texts.drawn, name
        found += [f"{name}: {problem}" for problem in _problems(texts.drawn)]
    assert found == [], f"{len(found)} problems:\n" + "\n".join(sorted(set(found))[:60])


def test_a_long_notice_ends_in_an_ellipsis_not_a_cut_letter(texts) -> None:
    update = _session(_base(), notices=[Notice("time_up", LONG_PARAMS).as_dict()])
    frame("programming", update, "fr")
    footer = [text for box, text, _ in texts.drawn if box[3] == HEIGHT]
    assert len(footer) == 1 and footer[0].startswith("! Le temps") and footer[0].endswith("...")


@pytest.mark.parametrize("lang", words.languages())
def test_the_winners_line_names_eight_seats_whole(texts, lang) -> None:
    """Issue 28: eight winning seats are all read, in both languages (no ellipsis)."""
    for result in ("prisoners", "complete_victory", "guards"):
        outcome = {"result": result, "winners": list("12345678"), "reason": ""}
        texts.drawn.clear()
        frame("over", _with(_base(), phase="over", outcome=outcome), lang)
        drawn = " ".join(text for _, text, _ in texts.drawn)
        assert "1 2 3 4 5 6 7 8" in drawn and "..." not in drawn, drawn
        assert _problems(texts.drawn) == []


# What a screen shows that is no language's, beside names and numbers: the join address, the
# hotspot's name and password as the owner typed them, the OLED's I2C address, the parts'
# acronyms (OLED, GPIO, I2C), and a character's first two letters (the turn-order strip).
SHOWN_AS_IS = allowed(
    r"http://[\w.:/]+", HOTSPOT["ssid"], "W+", "0x3C", "I2C", "OLED", "GPIO",
    *sorted({drawing.name_of(c)[:2] for c in _characters()}),
)  # fmt: skip


@pytest.mark.parametrize("lang", [lang for lang in words.languages() if lang == CODE])
def test_every_screen_text_comes_from_the_catalogue(texts, lang) -> None:
    """Issue 30, point 4, run by the test below: in the pseudo-locale every text a screen draws
    is the catalogue's. A text cut to fit ends in an ellipsis where its bracket was, and a
    wrapped one is split over lines: a screen's texts are read as one, its brackets closed."""
    found = {}
    for name, moment, update in screens():
        texts.drawn.clear()
        frame(moment, update, lang)
        said = " ".join(text.removesuffix(drawing.ELLIPSIS) for _, text, _ in texts.drawn)
        said += "]" * max(0, said.count("[") - said.count("]"))
        left = outside_catalogue(said, SHOWN_AS_IS)
        if left:
            found.setdefault(left, name)
    assert found == {}


def test_every_screen_fits_in_the_pseudo_locale(tmp_path) -> None:
    """The tests above for the pseudo-locale's language alone, in a pytest whose catalogue
    reads its folder (this one's languages are fixed as it starts)."""
    extra = write_pseudo_locale(tmp_path / "words")
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-rA",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        f"--basetemp={tmp_path / 'run'}",
        __file__,
        "-k",
        CODE,
    ]
    env = {**os.environ, words.catalogue.EXTRA: str(extra)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.findall(rf"^PASSED .*\[{CODE}\]$", done.stdout, re.M)
    # The fit, the eight winners and the texts' origin.
    assert len(passed) == 3, done.stdout[-2000:]
