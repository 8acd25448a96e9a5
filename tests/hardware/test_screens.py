"""Every screen drawn from real engine positions through luma's dummy device, and what each must
show: the QR code module for module, the alarm inverted, nothing that depends on a secret."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import segno
from luma.core.device import dummy
from PIL import Image

from companion import words
from companion.engine import apply, events_for, legal_commands, public_view, start, waiting_for
from companion.hardware import screens
from companion.hardware.gallery import (
    JOIN_ADDRESS,
    as_shown,
    moment_of,
    render_screens,
    sample_updates,
)
from companion.hardware.moments import announcements, steady_moment
from companion.hardware.screens import SCREENS, frame
from companion.session.notices import Notice


def _lit(image: Image.Image) -> float:
    pixels = image.convert("L").tobytes()
    return sum(1 for p in pixels if p) / len(pixels)


def test_a_frame_stamps_its_texts_pixel_for_pixel_as_pillow_draws_them(monkeypatch) -> None:
    """Each run of text is drawn once and stamped afterwards (`screens._stamp`): every sample
    screen, in both languages, twice (the second time from the stamps), is the very picture that
    Pillow's own `draw.text` gives."""
    samples = [moment_of(name, as_shown(name, u)) for name, u in sample_updates().items()]
    stamped = [[frame(m, u, lang).tobytes() for lang in ("en", "fr")] for m, u in samples]
    again = [[frame(m, u, lang).tobytes() for lang in ("en", "fr")] for m, u in samples]

    def drawn_by_pillow(draw, xy, run, face, fill):
        draw.text(xy, run, font=face, fill=fill)

    monkeypatch.setattr(screens, "_run", drawn_by_pillow)
    pillow = [[frame(m, u, lang).tobytes() for lang in ("en", "fr")] for m, u in samples]
    assert any(any(b for b in f[0]) for f in pillow)  # the screens are not blank
    assert stamped == pillow and again == pillow


def test_every_moment_has_a_sample_and_renders_in_both_languages() -> None:
    samples = sample_updates()
    shown = set()
    device = dummy(width=128, height=64, mode="1")
    for name, update in samples.items():
        moment, narrowed = moment_of(name, as_shown(name, update))
        shown.add(moment)
        for lang in ("en", "fr"):
            device.display(frame(moment, narrowed, lang))
            assert 0.02 < _lit(device.image) < 0.98, (moment, lang)
    assert shown == set(SCREENS)


def test_english_and_french_screens_differ() -> None:
    update = sample_updates()["programming"]
    assert (
        frame("programming", update, "en").tobytes() != frame("programming", update, "fr").tobytes()
    )


def test_a_notice_is_drawn_in_the_oled_language() -> None:
    """The problem screen says the session's notice from its code: in French the same pixels as
    the French line itself, and not the English."""
    update = sample_updates()["problem"]
    offline = Notice("phone_offline", {"seat": "3"})

    def with_notice(notice: dict) -> dict:
        return {**update, "session": {**update["session"], "notices": [notice]}}

    french = frame("problem", with_notice(offline.as_dict()), "fr").tobytes()
    line = {"code": "not_in_the_catalogue", "text": "Téléphone de la place 3 hors ligne"}
    assert french == frame("problem", with_notice(line), "fr").tobytes()
    assert french != frame("problem", with_notice(offline.as_dict()), "en").tobytes()


def test_join_screen_draws_the_qr_code_dark_on_a_lit_quiet_zone() -> None:
    update = {"game": None, "view": None, "events": [], "address": JOIN_ADDRESS}
    image = frame("join", update, "en")
    qr = segno.make(JOIN_ADDRESS, error="l", boost_error=False)
    matrix = list(qr.matrix_iter(scale=1, border=2))
    size = len(matrix) * 2
    top = (64 - size) // 2
    assert size <= 64
    for row, bits in enumerate(matrix):
        for col, dark in enumerate(bits):
            for dy in (0, 1):
                for dx in (0, 1):
                    pixel = image.getpixel((2 * col + dx, top + 2 * row + dy))
                    assert (pixel == 0) == bool(dark), (row, col)


def test_the_join_screen_never_shows_the_host_pin() -> None:
    """The OLED is public: the PIN is shown only when asked for at the table (`draw_pin`)."""
    update = {"game": "g1", "view": None, "events": [], "address": JOIN_ADDRESS}
    for lang in ("en", "fr"):
        without = frame("join", update, lang)
        assert frame("join", {**update, "pin": "481093"}, lang).tobytes() == without.tobytes()
    asked = frame("pin", {"pin": "481093"}, "en")
    assert asked.tobytes() != frame("pin", {"pin": "123456"}, "en").tobytes()


def test_with_a_hotspot_the_join_screen_alternates_the_wifi_and_address_codes() -> None:
    """First the code that joins the Wi-Fi, then the address's (each module for module)."""
    update = {"game": None, "view": None, "events": [], "address": JOIN_ADDRESS}
    wifi = {"text": "WIFI:T:WPA;S:Room 25;P:cube-rouge-42;;", "ssid": "Room 25"}
    first = frame("join", {**update, "wifi": wifi, "join_step": 0}, "en")
    second = frame("join", {**update, "wifi": wifi, "join_step": 1}, "en")
    assert second.tobytes() == frame("join", update, "en").tobytes()
    assert _decoded_modules(first) == _modules(wifi["text"])
    assert _decoded_modules(second) == _modules(JOIN_ADDRESS)


def _modules(text: str) -> list[list[bool]]:
    qr = segno.make(text, error="l", boost_error=False)
    return [[bool(b) for b in row] for row in qr.matrix_iter(scale=1, border=0)]


def _decoded_modules(image: Image.Image) -> list[list[bool]]:
    """The QR code's modules read back from the picture: inside the lit quiet zone on the left,
    from its first to its last dark pixel, 2 px a module."""
    top = next(y for y in range(64) if image.getpixel((0, y)))
    side = next((y for y in range(top, 64) if not image.getpixel((0, y))), 64) - top
    dark = [
        (x, y) for y in range(top, top + side) for x in range(side) if not image.getpixel((x, y))
    ]
    left, first = min(x for x, _ in dark), min(y for _, y in dark)
    right, last = max(x for x, _ in dark), max(y for _, y in dark)
    return [
        [not image.getpixel((x, y)) for x in range(left, right + 1, 2)]
        for y in range(first, last + 1, 2)
    ]


def test_the_alarm_is_inverted_and_most_of_the_screen_is_lit() -> None:
    update = sample_updates()["alarm"]
    moment, narrowed = announcements(update)[0]
    assert moment == "alarm"
    assert _lit(frame("alarm", narrowed, "en")) > 0.6
    assert _lit(frame("action", update, "en")) < 0.4


def test_two_cards_drawn_together_get_a_screen_each() -> None:
    card = sample_updates()["card"]
    first = card["events"][0]
    second = {**first, "card": "blackout", "shown": {"name_en": "Blackout", "name_fr": "Panne"}}
    found = announcements({**card, "events": [first, second]})
    assert [m for m, _ in found] == ["card", "card"]
    pictures = {frame(m, u, "en").tobytes() for m, u in found}
    assert len(pictures) == 2


def test_steady_screen_follows_the_phase() -> None:
    samples = sample_updates()
    assert steady_moment(samples["join"]) == "join"
    assert steady_moment(samples["setup"]) == "setup"
    assert steady_moment(samples["programming"]) == "programming"
    assert steady_moment(samples["action"]) == "action"
    assert steady_moment(samples["paused"]) == "paused"
    assert steady_moment(samples["over"]) == "over"


def _programmed(tokens_first: bool) -> list[bytes]:
    """Frames of a game up to the last lock-in where seat 1 programs two tokens in one order
    or the other; everything else equal."""
    state = start({"edition": "base", "mode": "suspicion", "players": 5, "seed": 11}).state
    while waiting_for(state).phase != "programming":
        seat = waiting_for(state).seats[0]
        state = apply(state, legal_commands(state, seat)[0]).state
    pictures = []
    for seat in ("1", "2", "3", "4", "5"):
        options = [c for c in legal_commands(state, seat) if c["type"] == "program"]
        choice = options[0]
        if seat == "1" and not tokens_first:
            # The same two tokens in the other order: nothing is revealed before he acts.
            swapped = list(reversed(choice["actions"]))
            choice = next(c for c in options if c["actions"] == swapped)
        result = apply(state, choice)
        state = result.state
        update = {
            "game": "g",
            "view": public_view(state),
            "events": events_for(result.events, None),
            "waiting": waiting_for(state).as_dict(),
            "session": {"paused": False, "timer": None, "notices": [], "lock_ins": []},
        }
        shown = [frame(m, u, "en") for m, u in announcements(update)]
        shown.append(frame(steady_moment(update), update, "en"))
        pictures.extend(p.tobytes() for p in shown)
    return pictures


def test_screens_do_not_depend_on_what_a_seat_programmed() -> None:
    assert _programmed(True) == _programmed(False)


def test_render_screens_writes_every_png(tmp_path) -> None:
    written = render_screens(tmp_path, "en")
    assert {p.stem for p in written} == set(sample_updates())
    for path in written:
        assert Image.open(path).size == (512, 256)


def test_room25_screens_writes_every_screen_in_every_language(tmp_path) -> None:
    room25 = Path(sys.executable).with_name("room25")
    done = subprocess.run(
        [str(room25), "screens", str(tmp_path / "out")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    names = sample_updates()
    suffixes = ["" if lang == "en" else f".{lang}" for lang in words.languages()]
    assert written == sorted(f"{m}{suffix}.png" for m in names for suffix in suffixes)
    assert done.stdout.count(".png") == len(written)


def test_french_signs_keep_their_no_break_space_drawn_and_unbroken() -> None:
    """The no-break space French sets before : ; ? ! comes from `words.fill` (the language's
    `space_before`), is in the OLED's Latin-1 font as a blank the width of a space, and a line
    never breaks at it (a "?" alone on a line reads as a glitch)."""
    asked = words.fill("fr", "Terminer la partie ? Oui : {seat}", {"seat": "3"})
    assert asked == "Terminer la partie\u00a0? Oui\u00a0: 3"
    assert words.fill("en", "End the game? Yes: {seat}", {"seat": "3"}) == "End the game? Yes: 3"
    face = screens.font(screens.SMALL)
    assert screens.latin1(asked) == asked
    assert face.getlength("\u00a0") == face.getlength(" ") > 0
    assert face.getmask("\u00a0").getbbox() is None  # drawn blank, not a missing glyph's box
    width = screens._width("Terminer la partie", face) + 1  # room for the words, not the sign
    lines = screens._wrap("Terminer la partie\u00a0?", face, width)
    assert lines == ["Terminer la", "partie\u00a0?"]
