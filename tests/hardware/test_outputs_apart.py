"""Each output follows an update on its own: the OLED failing to draw (its font unreadable, as
on a failing SD card) leaves the buzzer and the seat LEDs following the game, is said as a
notice, and the OLED draws again once it can."""

from __future__ import annotations

import errno

from waiting import eventually

from companion.hardware import screens, start_hardware
from companion.hardware.display import FRAME_GAP

from .conftest import TOKENS_GAME


def _codes(session) -> list[str]:
    return [notice["code"] for notice in session.snapshot("public")["session"]["notices"]]


def test_an_oled_that_cannot_read_its_font_leaves_the_buzzer_and_leds_going(
    session, config, ticks, mocker
) -> None:
    rig = start_hardware(session, config, "mock", clock=ticks, address="http://t:8025/")
    unreadable = OSError(errno.EIO, "Input/output error")
    try:
        assert session.host("new_game", setup={**TOKENS_GAME, "seed": 11}).ok
        for seat in "12345":
            assert any(
                session.submit({"type": "clue", "seat": seat, "cell": cell}).ok
                for cell in ("C2", "C4", "B3", "D3")
            )
        eventually(lambda: rig.display.frames > 0)
        screens.font.cache_clear()
        read = mocker.patch.object(screens.ImageFont, "load", side_effect=unreadable)
        led_3 = rig.config.buttons.leds[2]
        ticks.advance(FRAME_GAP)  # each press a while after the last picture: none is held back
        assert session.press_seat("3").ok
        eventually(lambda: [name for _, name in rig.buzzer.played][-1:] == ["lock_in"])
        eventually(lambda: rig.factory.pin(led_3).state)
        eventually(lambda: "oled_failed" in _codes(session))
        # Every picture begun before the font went is drawn by now (the display's one thread
        # failed after it): from here on, a press shows no new picture.
        drawn, tries = rig.display.frames, read.call_count
        ticks.advance(FRAME_GAP)
        assert session.press_seat("5").ok
        eventually(lambda: read.call_count > tries)
        assert rig.display.frames == drawn
        [said] = [n for n in session.snapshot("public")["session"]["notices"]
                  if n["code"] == "oled_failed"]  # fmt: skip
        assert said["text"] == "OLED cannot draw (Input/output error); trying again"
        mocker.stopall()
        ticks.advance(FRAME_GAP)
        assert session.press_seat("4").ok
        eventually(lambda: "oled_failed" not in _codes(session))
        assert rig.display.frames > drawn
    finally:
        rig.close()
        screens.font.cache_clear()
