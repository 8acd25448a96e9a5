"""One drawing function per moment of a game, for a 128x64 monochrome OLED.

Each `draw_<moment>(draw, update, lang)` paints the public update (view, events, waiting,
session) with the bundled bitmap font, so a render is the same pixel for pixel everywhere: on the
OLED, in the virtual panel and in the PNGs of `room25 screens`. Nothing here reads a seat's view.

The font is Terminus, drawn for 1-bit pixels (a scaled vector font at 9-13 px merges letters:
"Turn" read "Tum"). Every text is fitted: the largest size that fits, then wrapping, then an
ellipsis; nothing runs past the edge or is cut mid-letter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

import segno
from PIL import Image, ImageDraw, ImageFont

from companion import words
from companion.engine import PublicView
from companion.session.notices import shown
from companion.teaching.setup import step_text

from .font_files import font_file
from .words import name_of, word

WIDTH, HEIGHT = 128, 64
LIT, DARK = 255, 0
SIZES = (32, 28, 24, 22, 20, 18, 16, 14, 12)  # the bundled sizes, largest first
SMALL = 12
ELLIPSIS = "..."
STATUS_RULE = 12  # the status bar's rule; its nudge moves it one pixel down
BODY = STATUS_RULE + 3  # where the game screens' bodies start, clear of a nudged rule
FOOTER = HEIGHT - SMALL  # the notice line
STAMP_MARGIN = 2  # pixels around a text's drawn mask (`_stamp`), past its box
# Characters outside Latin-1 (what the bitmap font holds), as the OLED writes them.
PLAIN = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "…": "..."})
PLAIN_WORDS = {"œ": "oe", "Œ": "OE"}
# Where a line may break: any space but the no-break one French sets before : ; ? !
# (words.typography), which keeps "Prêt ?" on one line.
BREAKS = re.compile(r"[^\S\u00a0]+")

Font = ImageFont.ImageFont


@lru_cache(maxsize=len(SIZES))
def font(size: int) -> Font:
    """The bundled Terminus Font at `size` pixels (12 regular, 14 and up bold), read from the
    file shipped for it; a size between the bundled ones gives the next smaller."""
    size = next((s for s in SIZES if s <= size), SIZES[-1])
    weight = "n" if size == SMALL else "b"
    # Pillow reads bitmap fonts in its own format only: converted ahead and shipped (font_files).
    return ImageFont.load(str(font_file(f"ter-u{size}{weight}_iso-8859-1")))


@lru_cache(maxsize=2048)
def latin1(text: str) -> str:
    """`text` in the characters the font has: typographic quotes and dashes as plain ones,
    letters without a Latin-1 form by their base letter, anything else as '?'."""
    out = []
    for char in text.translate(PLAIN):
        if ord(char) < 256:
            out.append(char)
        elif char in PLAIN_WORDS:
            out.append(PLAIN_WORDS[char])
        else:
            base = unicodedata.normalize("NFKD", char)[:1]
            out.append(base if base and ord(base) < 128 else "?")
    return "".join(out)


@lru_cache(maxsize=4096)
def _kissing(face: Font, first: str, second: str) -> bool:
    """Whether `second` set right after `first` would touch it: a few bold glyphs fill their
    cell (Terminus 14 and 16's T, 22 and 24's J); those pairs are set a pixel apart."""
    if not first.strip() or not second.strip():
        return False
    advance = int(face.getlength(first))
    left = Image.new("1", (advance + 16, 40))
    ImageDraw.Draw(left).text((0, 0), first, font=face, fill=LIT)
    right = Image.new("1", left.size)
    ImageDraw.Draw(right).text((advance, 0), second, font=face, fill=LIT)
    edge = left.crop((advance - 1, 0, advance, 40))
    start = right.crop((advance, 0, advance + 1, 40))
    edge_rows = {y for y in range(40) if edge.getpixel((0, y))}
    return any(start.getpixel((0, y)) for r in edge_rows for y in (r - 1, r, r + 1) if 0 <= y < 40)


@lru_cache(maxsize=1024)
def _runs(text: str, face: Font) -> tuple[tuple[int, str], ...]:
    """`text` as runs to draw, each with its offset: split where two glyphs would touch (worked
    out once a text: a frame is drawn at every tap and its texts repeat)."""
    runs = [(0, "")]
    x = 0
    for i, char in enumerate(text):
        if i and _kissing(face, text[i - 1], char):
            x += 1
            runs.append((x, ""))
        offset, run = runs[-1]
        runs[-1] = (offset, run + char)
        x += int(face.getlength(char))
    return tuple(run for run in runs if run[1])


@lru_cache(maxsize=4096)
def _width(text: str, face: Font) -> int:
    text = latin1(text)
    return int(face.getlength(text)) + sum(_kissing(face, a, b) for a, b in pairwise(text))


def _height(face: Font) -> int:
    return int(face.getbbox("Ég")[3])


@lru_cache(maxsize=1024)
def _stamp(run: str, face: Font) -> tuple[Image.Image, int, int]:
    """A run of text drawn once as a 1-bit mask, with where its origin lies in the mask: a frame
    stamps it (one bitmap paste) instead of Pillow laying it out glyph by glyph again. A frame
    is drawn at every tap, on a Pi Zero's core beside the table's requests; its texts repeat."""
    left, top, right, bottom = face.getbbox(run)
    x, y = STAMP_MARGIN - min(0, left), STAMP_MARGIN - min(0, top)
    mask = Image.new("1", (x + max(0, right) + STAMP_MARGIN, y + max(0, bottom) + STAMP_MARGIN))
    ImageDraw.Draw(mask).text((x, y), run, font=face, fill=LIT)
    return mask, x, y


def _run(draw: ImageDraw.ImageDraw, xy: tuple[int, int], run: str, face: Font, fill: int) -> None:
    """One run of text at `xy`, the pixels Pillow's `draw.text` would set, from its stamp."""
    mask, x, y = _stamp(run, face)
    draw.bitmap((xy[0] - x, xy[1] - y), mask, fill=fill)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, face: Font, fill=LIT):
    for offset, run in _runs(latin1(text), face):
        _run(draw, (xy[0] + offset, xy[1]), run, face, fill)


def _fit(text: str, sizes: tuple[int, ...], width: int) -> Font:
    """The largest of `sizes` at which `text` fits in `width` pixels (else the smallest)."""
    for size in sizes:
        if _width(text, font(size)) <= width:
            return font(size)
    return font(sizes[-1])


def _clip(text: str, face: Font, width: int) -> str:
    """`text`, or as much of it as fits in `width` with an ellipsis (never a cut letter)."""
    if _width(text, face) <= width:
        return text
    while text and _width(text.rstrip() + ELLIPSIS, face) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def _wrap(text: str, face: Font, width: int, lines: int = 99) -> list[str]:
    """`text` in at most `lines` lines of `width` pixels, broken between words (a word too long
    for a line, and the last line when text is left over, end in an ellipsis)."""
    out: list[str] = []
    for piece in filter(None, BREAKS.split(text)):
        if out and _width(f"{out[-1]} {piece}", face) <= width:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    if len(out) > lines:
        out = [*out[: lines - 1], _clip(f"{out[lines - 1]} {ELLIPSIS}", face, width)]
    return [_clip(line, face, width) for line in out]


def _fit_lines(text: str, sizes: tuple[int, ...], width: int, height: int) -> tuple[Font, list]:
    """The largest size at which `text`, wrapped, fits in `width` x `height` without an
    ellipsis; at the smallest size, as many lines as fit."""
    for size in sizes:
        face = font(size)
        lines = _wrap(text, face, width, max(1, height // _height(face)))
        if not any(line.endswith(ELLIPSIS) for line in lines) or size == sizes[-1]:
            return face, lines
    raise ValueError("no sizes")


def _centred(draw: ImageDraw.ImageDraw, y: int, text: str, face: Font, fill: int = LIT) -> None:
    text = _clip(text, face, WIDTH)
    _text(draw, (max(0, (WIDTH - _width(text, face)) // 2), y), text, face, fill)


def _nudge(update: dict) -> tuple[int, int]:
    """How far the status bar is moved this while (burn-in): (0,0), (1,0), (1,1) or (0,1)."""
    step = int(update.get("nudge") or 0) % 4
    return (1 if step in (1, 2) else 0, 1 if step in (2, 3) else 0)


def _status(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The top line of the game's screens: turn, turns left, and the alarm when it rang, moved
    by a pixel now and then; the first problem notice on the bottom line."""
    view = update["view"]
    dx, dy = _nudge(update)
    face = font(SMALL)
    turn = word(lang, "turn", n=view.get("turn", 1))
    tail = (
        word(lang, "turn_left")
        if view.get("last_turn")
        else word(lang, "left", n=view.get("turns_left", 0))
    )
    x = WIDTH - 1 + dx
    if view.get("alarm"):
        tag = word(lang, "alarm")
        x = WIDTH - 1 + dx - _width(tag, face) - 3
        draw.rectangle((x, dy, x + _width(tag, face) + 2, dy + 11), fill=LIT)
        _text(draw, (x + 2, dy), tag, face, DARK)
        x -= 4
    tail = _clip(tail, face, x - dx)  # a long LAST TURN beside the alarm, cut, not past the edge
    x -= _width(tail, face)
    _text(draw, (x, dy), tail, face)
    if _width(turn, face) + 6 <= x:  # the turn number gives way to the alarm and LAST TURN
        _text(draw, (dx, dy), turn, face)
    draw.line((0, STATUS_RULE + dy, WIDTH - 1, STATUS_RULE + dy), fill=LIT)
    notices = _notices(update, lang)
    if notices:
        draw.rectangle((0, FOOTER - 1, WIDTH - 1, HEIGHT - 1), fill=DARK)
        _text(draw, (0, FOOTER), _clip(f"! {notices[0]}", face, WIDTH), face)


def _notices(update: dict, lang: str) -> list[str]:
    """The session's and the hardware's notices, in the OLED's language."""
    return [shown(notice, lang) for notice in (update.get("session") or {}).get("notices") or []]


def game_seats(view: PublicView) -> list[str]:
    """The game's seats in order, from the characters every seat can see."""
    seats = {c["seat"] for c in view.get("characters", {}).values()}
    return sorted(seats, key=lambda s: (len(s), s))


def _qr(draw: ImageDraw.ImageDraw, text: str) -> int:
    """`text` as a QR code on the left, dark modules on a lit quiet zone, as large as fits the
    height (2 px a module, else 1); its width."""
    qr = segno.make(text, error="l", boost_error=False)
    for scale, border in ((2, 2), (2, 1), (1, 2)):
        size = int(qr.symbol_size(scale=scale, border=border)[0])
        if size <= HEIGHT:
            break
    top = (HEIGHT - size) // 2
    draw.rectangle((0, top, size - 1, top + size - 1), fill=LIT)
    for row, bits in enumerate(qr.matrix_iter(scale=scale, border=border)):
        for col, dark in enumerate(bits):
            if dark:
                draw.point((col, top + row), fill=DARK)
    return size


def _host_lines(host: str, face: Font, width: int) -> list[str]:
    """A host name or address in lines of `width`, broken after its dots."""
    lines = [""]
    for part in host.replace(".", ". ").split(" "):
        if lines[-1] and _width(lines[-1] + part, face) > width:
            lines.append("")
        lines[-1] += part
    return [_clip(line, face, width) for line in lines]


def _column(draw: ImageDraw.ImageDraw, left: int, blocks: list[list[str]]) -> None:
    """Blocks of lines in the small font beside the QR code, a blank line between blocks when
    there is room."""
    face = font(SMALL)
    line = _height(face)
    lines = sum(len(b) for b in blocks)
    gap = 4 if lines * line + 4 * (len(blocks) - 1) <= HEIGHT else 0
    y = max(0, (HEIGHT - lines * line - gap * (len(blocks) - 1)) // 2)
    for block in blocks:
        for text in block:
            if y + line <= HEIGHT:
                _text(draw, (left, y), text, face)
            y += line
        y += gap


def draw_join(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The join QR code and the address; with a hotspot, every other while the Wi-Fi's QR code
    and its name first (update "wifi": the QR text and "ssid"). Never the host PIN."""
    face = font(SMALL)
    wifi = update.get("wifi") or {}
    if wifi.get("text") and update.get("join_step", 0) % 2 == 0:
        left = _qr(draw, wifi["text"]) + 3
        width = WIDTH - left
        title = _wrap(word(lang, "wifi"), face, width, 2)
        _column(draw, left, [title, _wrap(wifi.get("ssid", ""), face, width, 2)])
        return
    address = update.get("address") or ""
    left = _qr(draw, address) + 3 if address else 0
    width = WIDTH - left
    host, _, port = address.partition("://")[2].rstrip("/").partition(":")
    blocks = [_wrap(word(lang, "join"), face, width, 2)]
    if host:
        blocks.append([*_host_lines(host, face, width), *([f":{port}"] if port else [])])
    else:
        blocks.append(_wrap(word(lang, "no_address"), face, width, 3))
    _column(draw, left, blocks)


def draw_pin(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The host PIN, asked for at the table (a long press of Menu): large, for a while."""
    title = word(lang, "host_pin")
    _centred(draw, 2, title, _fit(title, (16, 14, 12), WIDTH))
    pin = str(update.get("pin") or "-")
    _centred(draw, 22, pin, _fit(pin, SIZES, WIDTH))


def draw_setup(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The setup summary while the seats take their starting clue."""
    view = update["view"]
    rules = view.get("ruleset", {})
    mode, edition = rules.get("mode", ""), rules.get("edition", "")
    face = font(SMALL)
    title = f"{word(lang, f'mode_{mode}')} · {word(lang, f'edition_{edition}')}"
    head = (
        [title]
        if _width(title, face) <= WIDTH
        else [f"{word(lang, f'mode_{mode}')} ·", word(lang, f"edition_{edition}")]
    )
    seats = game_seats(view)
    turns = word(lang, "turns", n=view.get("turns_left"))
    lines = [
        *(_clip(line, face, WIDTH) for line in head),
        _clip(f"{word(lang, 'players', n=len(seats))} · {turns}", face, WIDTH),
        _clip(word(lang, "clue"), face, WIDTH),
    ]
    for i, line in enumerate(lines):
        _text(draw, (0, i * SMALL), line, face)
    waiting = (update.get("waiting") or {}).get("seats") or []
    _seat_boxes(draw, seats, [s for s in seats if s not in waiting], HEIGHT - 14)


def draw_setup_step(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The set-up step the table is at while it is taught (teaching/setup.py): which of how
    many on the top line, then the step in as large a font as its sentence fits (the
    sentences are written short enough for the small font: tests/teaching/test_setup_steps)."""
    walk = update["session"]["setup"]
    face = font(SMALL)
    head = words.text(lang, "setup_step", n=walk["at"] + 1, count=len(walk["steps"]))
    _text(draw, (0, 0), _clip(head, face, WIDTH), face)
    said = step_text(walk["steps"][walk["at"]], lang)
    big, lines = _fit_lines(said, SIZES, WIDTH, HEIGHT - SMALL - 2)
    for i, line in enumerate(lines):
        _text(draw, (0, SMALL + 2 + i * _height(big)), line, big)


def _seat_boxes(draw: ImageDraw.ImageDraw, seats: list[str], done: list[str], y: int) -> None:
    """One numbered box per seat, lit when that seat is done (locked in, clue taken)."""
    if not seats:
        return
    size = min(15, (WIDTH + 1) // len(seats) - 2)
    face = font(SMALL)
    for i, seat in enumerate(seats):
        x = i * (size + 2)
        lit = seat in done
        draw.rectangle((x, y, x + size - 1, y + 13), outline=LIT, fill=LIT if lit else DARK)
        tx = x + (size - _width(seat, face)) // 2
        _text(draw, (tx, y + 1), seat, face, DARK if lit else LIT)


def draw_programming(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """Programming: how many seats locked in, which, and the time left when limited."""
    view = update["view"]
    _status(draw, update, lang)
    seats = game_seats(view)
    waiting = update.get("waiting") or {}
    locked = list(waiting.get("locked_in") or (update.get("session") or {}).get("lock_ins") or [])
    timer = (update.get("session") or {}).get("timer") or {}
    title = word(lang, "programming")
    count = word(lang, "locked", n=len([s for s in seats if s in locked]), total=len(seats))
    small = font(SMALL)
    if timer.get("left") is None:
        face = _fit(title, (16, 14, 12), WIDTH)
        _text(draw, (0, BODY), _clip(title, face, WIDTH), face)
        _text(draw, (0, BODY + 18), _clip(count, small, WIDTH), small)
    else:  # the seconds as large as the words beside them leave room for
        room = max(_width(title, small), _width(count, small))
        seconds = _seconds(int(timer["left"]), lang)
        face = _fit(seconds, (24, 22, 20, 18, 16, 14, 12), WIDTH - room - 4)
        _text(draw, (WIDTH - _width(seconds, face), BODY), seconds, face)
        room = WIDTH - _width(seconds, face) - 4
        _text(draw, (0, BODY), _clip(title, small, room), small)
        _text(draw, (0, BODY + 13), _clip(count, small, room), small)
    if not _notices(update, lang):  # else the bottom line holds the problem
        _seat_boxes(draw, seats, locked, HEIGHT - 14)


def _seconds(left: int, lang: str) -> str:
    """Time left to program: "42s" (the language's unit), or "12:05" from 100 s on."""
    left = max(0, left)
    return word(lang, "seconds", n=left) if left < 100 else f"{left // 60}:{left % 60:02d}"


def _round_label(lang: str, round_: int | None) -> str:
    return word(lang, f"round_{round_ if round_ in (1, 2, 3) else 1}")


def draw_action(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The action phase: whose action, large; which round; and the turn-order strip."""
    view = update["view"]
    waiting = update.get("waiting") or {}
    _status(draw, update, lang)
    current = waiting.get("character") or view.get("current")
    if waiting.get("phase") == "choice":
        who = name_of(current) if current else word(lang, "table")
        face, lines = _fit_lines(f"{who} {word(lang, 'chooses')}", (18, 16, 14, 12), WIDTH, 36)
        for i, line in enumerate(lines):
            _text(draw, (0, BODY + i * _height(face)), line, face)
    else:
        name = name_of(current)
        face = _fit(name, (24, 22, 20, 18, 16, 14, 12), WIDTH)
        _text(draw, (0, BODY), _clip(name, face, WIDTH), face)
        round_ = waiting.get("round") or view.get("round")
        _text(draw, (0, BODY + 24), _round_label(lang, round_), font(SMALL))
    if not _notices(update, lang):  # else the bottom line holds the problem
        _order_strip(draw, view.get("order") or [], current, FOOTER)


def _order_strip(draw: ImageDraw.ImageDraw, order: list[str], current: str | None, y: int) -> None:
    """The living characters in turn order by their first letters, the current one lit."""
    if not order:
        return
    step = min(20, WIDTH // len(order))
    face = font(SMALL)
    for i, cid in enumerate(order):
        x = i * step
        label = name_of(cid)[:2]
        if cid == current:
            draw.rectangle((x, y, x + step - 2, y + SMALL - 1), fill=LIT)
        _text(draw, (x + 1, y), label, face, DARK if cid == current else LIT)


def draw_end_of_turn(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A turn has ended: the number of turns left, as large as the font goes."""
    countdown = next(e for e in update["events"] if e["type"] == "countdown")
    ended = max(1, int(countdown.get("turn", 2)) - 1)
    _centred(draw, 0, word(lang, "end_of_turn", n=ended), font(SMALL))
    left = int(countdown.get("turns_left", 0))
    _centred(draw, 14, str(left), font(32))
    label = word(lang, "turn_left") if left <= 1 else word(lang, "turns_left", n=left)
    _centred(draw, HEIGHT - 16, label, _fit(label, (16, 14, 12), WIDTH))


def draw_alarm(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The alarm, inverted (the display flashes it by alternating with its negative)."""
    alarm = next(e for e in update["events"] if e["type"] == "alarm")
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill=LIT)
    _centred(draw, 0, word(lang, "alarm"), _fit(word(lang, "alarm"), SIZES, WIDTH), fill=DARK)
    line = word(lang, "alarm_line")
    _centred(draw, 33, line, _fit(line, (14, 12), WIDTH), fill=DARK)
    left = word(lang, "turns_left", n=alarm.get("turns_left", 5))
    _centred(draw, 48, left, _fit(left, (16, 14, 12), WIDTH), fill=DARK)


def draw_timer(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The Timer room: a turn lost, or (in the last turn) the character it eliminated."""
    title = word(lang, "timer")
    draw.rectangle((0, 0, WIDTH - 1, 17), fill=LIT)
    _centred(draw, 1, title, _fit(title, (16, 14, 12), WIDTH), DARK)
    event = update["events"][0]
    if event["type"] == "eliminated":
        name = name_of(event.get("character"))
        _centred(draw, 20, name, _fit(name, (24, 22, 20, 18, 16, 14, 12), WIDTH))
        gone = word(lang, "eliminated")
        _centred(draw, 47, gone, _fit(gone, (16, 14, 12), WIDTH))
    else:
        lost = word(lang, "turn_lost")
        _centred(draw, 22, lost, _fit(lost, (16, 14, 12), WIDTH))
        left = word(lang, "turns_left", n=event.get("turns_left", 0))
        _centred(draw, 42, left, _fit(left, (16, 14, 12), WIDTH))


def draw_elimination(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """An elimination, its cause, and the roles it forced into the open."""
    events = update["events"]
    gone = [e for e in events if e["type"] == "eliminated"]
    names = ", ".join(name_of(e.get("character")) for e in gone)
    face, lines = _fit_lines(names, (24, 22, 20, 18, 16, 14, 12), WIDTH, 24)
    y = 0
    for line in lines:
        _text(draw, (0, y), line, face)
        y += _height(face)
    small = font(SMALL)
    cause = word(lang, f"cause_{gone[0].get('cause')}")
    text = f"{word(lang, 'eliminated')} · {cause}"
    reveals = [e for e in events if e["type"] == "role_revealed"]
    if reveals:
        shown_roles = ", ".join(
            f"{name_of(e.get('character'))}: {word(lang, str(e.get('role')))}" for e in reveals
        )
        text = f"{text}. {word(lang, 'reveals')} {shown_roles}"
    y += 1
    for line in _wrap(text, small, WIDTH, (HEIGHT - y) // SMALL):
        _text(draw, (0, y), line, small)
        y += SMALL


def draw_card(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A M.A.C. card drawn: its name, large, and for a Complex Movement its 5x5 map with line
    and arrow."""
    event = next(e for e in update["events"] if e["type"] == "mac_drawn")
    card = event.get("shown") or {}
    name = (
        card.get(f"name_{lang}") or card.get(f"name_{words.fallback()}") or str(event.get("card"))
    )
    minimap = card.get("minimap")
    width = WIDTH - MINIMAP - 2 if minimap else WIDTH
    header = word(lang, "card")
    _text(draw, (0, 0), _clip(header, font(SMALL), width), font(SMALL))
    face, lines = _fit_lines(name, (24, 22, 20, 18, 16, 14, 12), width, HEIGHT - 14)
    for i, line in enumerate(lines):
        _text(draw, (0, 14 + _height(face) * i), line, face)
    if minimap:
        _minimap(draw, minimap, WIDTH - MINIMAP, (HEIGHT - MINIMAP) // 2)


CELL = 11  # a minimap cell, in pixels
MINIMAP = 5 * CELL - 1


def _minimap(draw: ImageDraw.ImageDraw, minimap: dict, left: int, top: int) -> None:
    """The complex as 5x5 cells: the moving line filled, an arrow along it."""
    line = {tuple(c) for c in minimap.get("cells", [])}
    for row in range(5):
        for col in range(5):
            x, y = left + col * CELL, top + row * CELL
            box = (x, y, x + CELL - 2, y + CELL - 2)
            if (row, col) in line:
                draw.rectangle(box, fill=LIT)
            elif (row, col) == (2, 2):
                draw.ellipse(box, outline=LIT)
            else:
                draw.rectangle(box, outline=LIT)
    arrow = minimap.get("arrow") or {}
    (r0, c0), (r1, c1) = arrow.get("from", (0, 0)), arrow.get("to", (0, 0))
    half = (CELL - 2) // 2
    start = (left + c0 * CELL + half, top + r0 * CELL + half)
    end = (left + c1 * CELL + half, top + r1 * CELL + half)
    draw.line((start, end), fill=DARK, width=2)
    dx, dy = (c1 > c0) - (c1 < c0), (r1 > r0) - (r1 < r0)
    ex, ey = end
    head = [(ex + 3 * dx, ey + 3 * dy), (ex - 3 * dx - 3 * dy, ey - 3 * dy - 3 * dx)]
    head.append((ex - 3 * dx + 3 * dy, ey - 3 * dy + 3 * dx))
    draw.polygon(head, fill=DARK)


def draw_over(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """Game over with the result and the winning seats."""
    outcome = update["view"].get("outcome") or {}
    _centred(draw, 0, word(lang, "game_over"), font(SMALL))
    seats = " ".join(outcome.get("winners") or [])
    winners = word(lang, "winners", seats=seats) if seats else ""
    small = font(SMALL)
    # Eight seats do not fit on one line beside the label: the seats get a line of their own.
    rows = [winners]
    if _width(winners, small) > WIDTH:
        rows = [word(lang, "winners", seats=""), seats]
    result = word(lang, str(outcome.get("result", "defeat")))
    room = 28 if len(rows) == 1 else 24
    face, lines = _fit_lines(result, (24, 22, 20, 18, 16, 14, 12), WIDTH, room)
    y = 14
    for line in lines:
        _centred(draw, y, line, face)
        y += _height(face)
    if winners:
        face = _fit(winners, (14, 12), WIDTH) if len(rows) == 1 else small
        for n, row in enumerate(reversed(rows), start=1):
            _centred(draw, HEIGHT - n * _height(face), row.strip(), face)


def draw_paused(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The host paused the game."""
    _status(draw, update, lang)
    paused = word(lang, "paused")
    _centred(draw, 22, paused, _fit(paused, SIZES, WIDTH))


def draw_problem(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A problem the table must know: a phone offline, the journal unwritable, a device missing."""
    notices = _notices(update, lang)
    face = font(SMALL)
    draw.rectangle((0, 0, WIDTH - 1, 13), fill=LIT)
    _centred(draw, 1, f"! {word(lang, 'problem')} !", face, fill=DARK)
    lines = [line for notice in notices for line in _wrap(notice, face, WIDTH)]
    if len(lines) > 4:
        lines = [*lines[:3], _clip(f"{lines[3]} {ELLIPSIS}", face, WIDTH)]
    for i, line in enumerate(lines):
        _text(draw, (0, 15 + SMALL * i), line, face)


CHECK_PARTS = {"oled": "OLED", "gpio": "GPIO"}


def _check_name(lang: str, name: str) -> str:
    """A part of the wiring check as the OLED names it: "3" Seat 3, "panel:next" Panel Next."""
    source, _, button = name.rpartition(":")
    if button in CHECK_PARTS:
        return CHECK_PARTS[button]
    if button.isdigit():
        words = word(lang, "check_seat", n=button)
    else:
        words = word(lang, f"check_{button}")
    return f"{word(lang, 'check_panel')} {words}" if source == "panel" else words


def _test_pattern(draw: ImageDraw.ImageDraw, address: str, lang: str) -> None:
    """A border round the whole panel (every edge pixel), a checkerboard of 4-pixel squares on
    the left half, and the I2C address it answered at on the right: a dead row or column, a
    shifted picture or the wrong controller shows at a glance."""
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=LIT)
    for y in range(2, HEIGHT - 2, 4):
        for x in range(2, 62, 4):
            if (x // 4 + y // 4) % 2 == 0:
                draw.rectangle((x, y, x + 3, min(y + 3, HEIGHT - 3)), fill=LIT)
    face = font(SMALL)
    left, width = 66, WIDTH - 68
    lines = _wrap(word(lang, "check_pattern"), face, width, 2)
    for i, line in enumerate(lines):
        _text(draw, (left, 4 + i * SMALL), line, face)
    shown = f"I2C {address}" if address else word(lang, "check_no_oled")
    big = _fit(shown, (16, 14, 12), width)
    _text(draw, (left, HEIGHT - 4 - _height(big)), _clip(shown, big, width), big)


def draw_check(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A step of the wiring check: the test pattern, or which button to press (the seats
    found so far lit below), or what to listen to or wait for."""
    if update.get("verb") == "pattern":
        _test_pattern(draw, str(update.get("address") or ""), lang)
        return
    face = font(SMALL)
    _text(draw, (0, 0), f"{word(lang, 'check')} {update.get('step')}/{update.get('steps')}", face)
    draw.line((0, STATUS_RULE, WIDTH - 1, STATUS_RULE), fill=LIT)
    verb = update.get("verb")
    what = str(update.get("what") or "")
    if verb == "press":
        name = _check_name(lang, str(update.get("n")))
        ask = word(lang, "check_press")
        if update.get("panel"):
            ask = f"{word(lang, 'check_panel')}: {ask}"
        _centred(draw, BODY, ask, face)
        _centred(draw, BODY + SMALL + 1, name, _fit(name, (20, 18, 16, 14, 12), WIDTH))
        seats = list(update.get("seats") or [])
        _seat_boxes(draw, seats, list(update.get("done") or []), HEIGHT - 14)
        return
    _centred(draw, BODY + 2, word(lang, "check_listen" if verb == "listen" else "check_wait"), face)
    name = word(lang, f"check_{what}") if what else ""
    _centred(draw, BODY + SMALL + 8, name, _fit(name, (22, 20, 18, 16, 14, 12), WIDTH))


def draw_check_summary(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The end of the wiring check: how many parts answered, and which to look at."""
    faults = list(update.get("faults") or [])
    title = word(lang, "check_done")
    _centred(draw, 0, title, _fit(title, (16, 14, 12), WIDTH))
    face = font(SMALL)
    if not faults:
        fine = word(lang, "check_all_fine")
        _centred(draw, 24, fine, _fit(fine, (20, 18, 16, 14, 12), WIDTH))
        _centred(draw, HEIGHT - SMALL, word(lang, "check_fine", n=update.get("fine", 0)), face)
        return
    counts = (
        f"{word(lang, 'check_fine', n=update.get('fine', 0))} · "
        f"{word(lang, 'check_to_fix', n=len(faults))}"
    )
    _centred(draw, 18, counts, face)
    names = ", ".join(_check_name(lang, name) for name in faults)
    for i, line in enumerate(_wrap(names, face, WIDTH, 2)):
        _text(draw, (0, 18 + SMALL * (i + 1) + 4), line, face)


SCREENS: dict[str, Callable[[ImageDraw.ImageDraw, dict, str], None]] = {
    "join": draw_join,
    "pin": draw_pin,
    "setup": draw_setup,
    "setup_step": draw_setup_step,
    "programming": draw_programming,
    "action": draw_action,
    "end_of_turn": draw_end_of_turn,
    "alarm": draw_alarm,
    "timer": draw_timer,
    "elimination": draw_elimination,
    "card": draw_card,
    "over": draw_over,
    "paused": draw_paused,
    "problem": draw_problem,
    "check": draw_check,
    "check_summary": draw_check_summary,
}


def frame(moment: str, update: dict, lang: str = "") -> Image.Image:
    """A fresh 128x64 1-bit picture of `moment` for this update."""
    image = Image.new("1", (WIDTH, HEIGHT), DARK)
    SCREENS[moment](ImageDraw.Draw(image), update, lang)
    return image
