"""One drawing function per moment of a game, for a 128x64 monochrome OLED.

Each `draw_<moment>(draw, update, lang)` paints the public update (view, events, waiting,
session) with the bundled font, so a render is the same pixel for pixel everywhere: on the OLED,
in the virtual panel and in the PNGs of `room25 screens`. Nothing here reads a seat's view.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from importlib import resources

import segno
from PIL import Image, ImageDraw, ImageFont

from companion.session.notices import shown

from .words import name_of, word

WIDTH, HEIGHT = 128, 64
LIT, DARK = 255, 0

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=8)
def font(size: int) -> Font:
    """The bundled DejaVu Sans Condensed Bold at `size` pixels."""
    path = resources.files("companion.hardware") / "fonts" / "DejaVuSansCondensed-Bold.ttf"
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size)


def _width(draw: ImageDraw.ImageDraw, text: str, face: Font) -> int:
    return int(draw.textlength(text, font=face))


def _fit(draw: ImageDraw.ImageDraw, text: str, sizes: tuple[int, ...], width: int) -> Font:
    """The largest of `sizes` at which `text` fits in `width` pixels (else the smallest)."""
    for size in sizes:
        if _width(draw, text, font(size)) <= width:
            return font(size)
    return font(sizes[-1])


def _wrap(draw: ImageDraw.ImageDraw, text: str, face: Font, width: int) -> list[str]:
    lines: list[str] = []
    for word_ in text.split():
        if lines and _width(draw, f"{lines[-1]} {word_}", face) <= width:
            lines[-1] = f"{lines[-1]} {word_}"
        else:
            lines.append(word_)
    return lines


def _centred(draw: ImageDraw.ImageDraw, y: int, text: str, face: Font, fill: int = LIT) -> None:
    x = max(0, (WIDTH - _width(draw, text, face)) // 2)
    draw.text((x, y), text, font=face, fill=fill)


def _status(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The top line of the game's screens: turn, turns left, and the alarm when it rang; the
    first problem notice on the bottom line (see `_notices`)."""
    view = update["view"]
    face = font(11)
    turn = word(lang, "turn", n=view.get("turn", 1))
    tail = (
        word(lang, "turn_left")
        if view.get("last_turn")
        else word(lang, "left", n=view.get("turns_left", 0))
    )
    x = WIDTH
    if view.get("alarm"):
        tag = word(lang, "alarm")
        x = WIDTH - _width(draw, tag, face) - 4
        draw.rectangle((x, 0, WIDTH - 1, 11), fill=LIT)
        draw.text((x + 2, 0), tag, font=face, fill=DARK)
        x -= 4
    x -= _width(draw, tail, face)
    draw.text((x, 0), tail, font=face, fill=LIT)
    if _width(draw, turn, face) + 4 <= x:  # the turn number gives way to the alarm and LAST TURN
        draw.text((0, 0), turn, font=face, fill=LIT)
    draw.line((0, 12, WIDTH - 1, 12), fill=LIT)
    notices = _notices(update, lang)
    if notices:
        draw.rectangle((0, 53, WIDTH - 1, 63), fill=DARK)
        draw.text((0, 53), f"! {notices[0]}", font=font(9), fill=LIT)


def _notices(update: dict, lang: str) -> list[str]:
    """The session's and the hardware's notices, in the OLED's language."""
    return [shown(notice, lang) for notice in (update.get("session") or {}).get("notices") or []]


def _seats(view: dict) -> list[str]:
    """The game's seats in order, from the characters every seat can see."""
    seats = {c["seat"] for c in view.get("characters", {}).values()}
    return sorted(seats, key=lambda s: (len(s), s))


def draw_join(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The join QR code (dark modules on a lit quiet zone, 2 px a module) and the address."""
    address = update.get("address") or ""
    if address:
        qr = segno.make(address, error="l", boost_error=False)
        size = int(qr.symbol_size(scale=2, border=2)[0])
        top = (HEIGHT - size) // 2
        draw.rectangle((0, top, size - 1, top + size - 1), fill=LIT)
        for row, bits in enumerate(qr.matrix_iter(scale=2, border=2)):
            for col, dark in enumerate(bits):
                if dark:
                    draw.point((col, top + row), fill=DARK)
        left = size + 3
    else:
        left = 0
    width = WIDTH - left
    title = word(lang, "join")
    draw.text((left, 2), title, font=_fit(draw, title, (12, 11, 10, 9), width), fill=LIT)
    host, _, port = address.partition("://")[2].partition(":")
    for i, part in enumerate(p for p in (host, f":{port.rstrip('/')}" if port else "") if p):
        face = _fit(draw, part, (14, 12, 11, 10, 9), width)
        draw.text((left, 20 + 15 * i), part, font=face, fill=LIT)
    if update.get("pin"):
        pin = f"{word(lang, 'host_pin')} {update['pin']}"
        draw.text((left, 52), pin, font=_fit(draw, pin, (11, 10, 9), width), fill=LIT)
    elif update.get("game") is None:
        none = word(lang, "no_game")
        draw.text((left, 52), none, font=_fit(draw, none, (11, 10, 9), width), fill=LIT)


def draw_setup(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The setup summary while the seats take their starting clue."""
    view = update["view"]
    rules = view.get("ruleset", {})
    mode, edition = rules.get("mode", ""), rules.get("edition", "")
    title = f"{word(lang, f'mode_{mode}')} · {word(lang, f'edition_{edition}')}"
    draw.text((0, 0), title, font=_fit(draw, title, (12, 11), WIDTH), fill=LIT)
    seats = _seats(view)
    turns = word(lang, "turns", n=view.get("turns_left"))
    line = f"{word(lang, 'players', n=len(seats))} · {turns}"
    draw.text((0, 16), line, font=font(12), fill=LIT)
    draw.text((0, 32), word(lang, "clue"), font=font(12), fill=LIT)
    waiting = (update.get("waiting") or {}).get("seats") or []
    _seat_boxes(draw, seats, [s for s in seats if s not in waiting], 50)


def _seat_boxes(draw: ImageDraw.ImageDraw, seats: list[str], done: list[str], y: int) -> None:
    """One numbered box per seat, lit when that seat is done (locked in, clue taken)."""
    if not seats:
        return
    size = min(15, (WIDTH - 2) // len(seats) - 1)
    for i, seat in enumerate(seats):
        x = i * (size + 1)
        lit = seat in done
        draw.rectangle((x, y, x + size - 1, y + 13), outline=LIT, fill=LIT if lit else DARK)
        face = font(11)
        tx = x + (size - _width(draw, seat, face)) // 2
        draw.text((tx, y + 1), seat, font=face, fill=DARK if lit else LIT)


def draw_programming(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """Programming: the turn, which seats have locked in, and the time left when limited."""
    view = update["view"]
    _status(draw, update, lang)
    seats = _seats(view)
    waiting = update.get("waiting") or {}
    locked = list(waiting.get("locked_in") or (update.get("session") or {}).get("lock_ins") or [])
    timer = (update.get("session") or {}).get("timer") or {}
    room = WIDTH
    if timer.get("left") is not None:
        seconds = word(lang, "time", s=max(0, int(timer["left"])))
        face = font(16)
        room = WIDTH - _width(draw, seconds, face) - 4
        draw.text((room + 4, 13), seconds, font=face, fill=LIT)
    title = word(lang, "programming")
    draw.text((0, 14), title, font=_fit(draw, title, (12, 11, 9), room), fill=LIT)
    count = word(lang, "locked", n=len([s for s in seats if s in locked]), total=len(seats))
    draw.text((0, 27), count, font=font(11), fill=LIT)
    _seat_boxes(draw, seats, locked, 40)


def _round_label(lang: str, round_: int | None) -> str:
    return word(lang, f"round_{round_ if round_ in (1, 2, 3) else 1}")


def draw_action(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The action phase: whose action, which round, and the turn-order strip."""
    view = update["view"]
    waiting = update.get("waiting") or {}
    _status(draw, update, lang)
    current = waiting.get("character") or view.get("current")
    if waiting.get("phase") == "choice":
        who = name_of(current) if current else word(lang, "table")
        label = f"{who} {word(lang, 'chooses')}"
        draw.text((0, 16), label, font=_fit(draw, label, (16, 12, 11), WIDTH), fill=LIT)
    else:
        name = name_of(current)
        draw.text((0, 14), name, font=_fit(draw, name, (22, 16, 12), WIDTH), fill=LIT)
        round_ = waiting.get("round") or view.get("round")
        draw.text((0, 38), _round_label(lang, round_), font=font(11), fill=LIT)
    if not _notices(update, lang):  # else the bottom line holds the problem
        _order_strip(draw, view.get("order") or [], current, 52)


def _order_strip(draw: ImageDraw.ImageDraw, order: list[str], current: str | None, y: int) -> None:
    """The living characters in turn order by their first letters, the current one lit."""
    if not order:
        return
    step = min(20, WIDTH // len(order))
    face = font(11)
    for i, cid in enumerate(order):
        x = i * step
        label = name_of(cid)[:2]
        if cid == current:
            draw.rectangle((x, y, x + step - 2, y + 11), fill=LIT)
        draw.text((x + 1, y), label, font=face, fill=DARK if cid == current else LIT)


def draw_end_of_turn(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A turn has ended: the number of turns left, large."""
    countdown = next(e for e in update["events"] if e["type"] == "countdown")
    ended = max(1, int(countdown.get("turn", 2)) - 1)
    _centred(draw, 0, word(lang, "end_of_turn", n=ended), font(12))
    left = int(countdown.get("turns_left", 0))
    big = str(left)
    _centred(draw, 14, big, font(30))
    label = word(lang, "turn_left") if left <= 1 else word(lang, "turns_left", n=left)
    _centred(draw, 50, label, _fit(draw, label, (12, 11), WIDTH))


def draw_alarm(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The alarm, inverted (the display flashes it by alternating with its negative)."""
    alarm = next(e for e in update["events"] if e["type"] == "alarm")
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill=LIT)
    _centred(draw, 0, word(lang, "alarm"), font(26), fill=DARK)
    _centred(draw, 30, word(lang, "alarm_line"), font(12), fill=DARK)
    left = word(lang, "turns_left", n=alarm.get("turns_left", 5))
    _centred(draw, 46, left, font(14), fill=DARK)


def draw_timer(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The Timer room: a turn lost, or (in the last turn) the character it eliminated."""
    draw.rectangle((0, 0, WIDTH - 1, 17), fill=LIT)
    _centred(draw, 1, word(lang, "timer"), _fit(draw, word(lang, "timer"), (16, 12), WIDTH), DARK)
    event = update["events"][0]
    if event["type"] == "eliminated":
        name = name_of(event.get("character"))
        _centred(draw, 22, name, _fit(draw, name, (18, 14), WIDTH))
        _centred(draw, 46, word(lang, "eliminated"), font(14))
    else:
        _centred(draw, 22, word(lang, "turn_lost"), font(14))
        _centred(draw, 42, word(lang, "turns_left", n=event.get("turns_left", 0)), font(14))


def draw_elimination(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """An elimination, its cause, and the roles it forced into the open."""
    events = update["events"]
    gone = [e for e in events if e["type"] == "eliminated"]
    first = gone[0]
    names = ", ".join(name_of(e.get("character")) for e in gone)
    draw.text((0, 0), names, font=_fit(draw, names, (18, 14, 11), WIDTH), fill=LIT)
    cause = word(lang, f"cause_{first.get('cause')}")
    draw.text((0, 21), f"{word(lang, 'eliminated')} · {cause}", font=font(11), fill=LIT)
    reveals = [e for e in events if e["type"] == "role_revealed"]
    if reveals:
        text = " ".join(
            f"{name_of(e.get('character'))}: {word(lang, str(e.get('role')))}" for e in reveals
        )
        lines = [word(lang, "reveals"), *_wrap(draw, text, font(10), WIDTH)]
        for i, line in enumerate(lines[:3]):
            draw.text((0, 34 + 10 * i), line, font=font(10), fill=LIT)


def draw_card(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A M.A.C. card drawn: its name, and for a Complex Movement its 5x5 map with line and arrow."""
    event = next(e for e in update["events"] if e["type"] == "mac_drawn")
    shown = event.get("shown") or {}
    name = shown.get("name_fr" if lang == "fr" else "name_en") or str(event.get("card"))
    minimap = shown.get("minimap")
    width = WIDTH - 64 if minimap else WIDTH
    header = word(lang, "card")
    draw.text((0, 0), header, font=_fit(draw, header, (11, 10, 9), width), fill=LIT)
    for size in (12, 11, 10, 9):
        face = font(size)
        lines = _wrap(draw, name, face, width)
        if len(lines) * (size + 1) <= 50 and all(_width(draw, x, face) <= width for x in lines):
            break
    for i, line in enumerate(lines):
        draw.text((0, 14 + (face.size + 1) * i), line, font=face, fill=LIT)
    if minimap:
        _minimap(draw, minimap, WIDTH - 61, 2)


def _minimap(draw: ImageDraw.ImageDraw, minimap: dict, left: int, top: int) -> None:
    """The complex as 5x5 cells of 12 px: the moving line filled, an arrow along it."""
    cell = 12
    line = {tuple(c) for c in minimap.get("cells", [])}
    for row in range(5):
        for col in range(5):
            x, y = left + col * cell, top + row * cell
            box = (x, y, x + cell - 2, y + cell - 2)
            if (row, col) in line:
                draw.rectangle(box, fill=LIT)
            elif (row, col) == (2, 2):
                draw.ellipse(box, outline=LIT)
            else:
                draw.rectangle(box, outline=LIT)
    arrow = minimap.get("arrow") or {}
    (r0, c0), (r1, c1) = arrow.get("from", (0, 0)), arrow.get("to", (0, 0))
    half = (cell - 2) // 2
    start = (left + c0 * cell + half, top + r0 * cell + half)
    end = (left + c1 * cell + half, top + r1 * cell + half)
    draw.line((start, end), fill=DARK, width=2)
    dx, dy = (c1 > c0) - (c1 < c0), (r1 > r0) - (r1 < r0)
    ex, ey = end
    head = [(ex + 3 * dx, ey + 3 * dy), (ex - 3 * dx - 3 * dy, ey - 3 * dy - 3 * dx)]
    head.append((ex - 3 * dx + 3 * dy, ey - 3 * dy + 3 * dx))
    draw.polygon(head, fill=DARK)


def draw_over(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """Game over with the result and the winning seats."""
    outcome = update["view"].get("outcome") or {}
    _centred(draw, 0, word(lang, "game_over"), font(12))
    result = word(lang, str(outcome.get("result", "defeat")))
    _centred(draw, 18, result, _fit(draw, result, (18, 14, 12, 11), WIDTH))
    winners = outcome.get("winners") or []
    if winners:
        line = word(lang, "winners", seats=" ".join(winners))
        _centred(draw, 44, line, _fit(draw, line, (12, 11), WIDTH))


def draw_paused(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """The host paused the game."""
    _status(draw, update, lang)
    _centred(draw, 22, word(lang, "paused"), font(20))


def draw_problem(draw: ImageDraw.ImageDraw, update: dict, lang: str) -> None:
    """A problem the table must know: a phone offline, the journal unwritable, a device missing."""
    notices = _notices(update, lang)
    draw.rectangle((0, 0, WIDTH - 1, 15), fill=LIT)
    _centred(draw, 1, f"! {word(lang, 'problem')} !", font(12), fill=DARK)
    lines = [line for notice in notices for line in _wrap(draw, notice, font(11), WIDTH)]
    for i, line in enumerate(lines[:4]):
        draw.text((0, 18 + 11 * i), line, font=font(11), fill=LIT)


SCREENS: dict[str, Callable[[ImageDraw.ImageDraw, dict, str], None]] = {
    "join": draw_join,
    "setup": draw_setup,
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
}


def frame(moment: str, update: dict, lang: str = "en") -> Image.Image:
    """A fresh 128x64 1-bit picture of `moment` for this update."""
    image = Image.new("1", (WIDTH, HEIGHT), DARK)
    SCREENS[moment](ImageDraw.Draw(image), update, lang)
    return image
