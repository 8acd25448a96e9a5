"""The OLED's behaviour over time: redraw only on change, announcements in turn, the alarm
flashing, dimming and sleeping when idle, and a display that fails, goes missing and comes back.

The frames go through luma's own drivers: its dummy device, and its real SSD1306 driver over
luma's I2C interface, whose documented seam is the smbus object it writes to (`i2c(bus=...)`).
The bus below stands for the wire: it keeps what the driver sent, and answers "remote I/O error"
(EREMOTEIO, what the kernel says when the OLED does not acknowledge) while it is unplugged.
"""

from __future__ import annotations

import errno
from collections.abc import Callable

from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from companion.hardware.display import DIM_CONTRAST, HOLD, RETRY, Display
from companion.hardware.gallery import sample_updates
from companion.hardware.screens import frame
from companion.session.notices import Notice

OLED_MISSING = Notice("oled_missing")
COMMAND_MODE = 0x00  # luma's i2c: the control byte before command bytes (0x40 before data)
DISPLAY_OFF, DISPLAY_ON, SET_CONTRAST = 0xAE, 0xAF, 0x81  # the SSD1306 command table


class Wire:
    """The I2C wire to the OLED, as luma's unmanaged `i2c(bus=...)` uses it."""

    def __init__(self) -> None:
        self.plugged = True
        self.blocks = 0
        self.commands: list[list[int]] = []

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if not self.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.blocks += 1
        if register == COMMAND_MODE:
            self.commands.append(list(data))


def _oled(wire: Wire):
    return lambda: ssd1306(i2c(bus=wire, address=0x3C))


def _dummies() -> tuple[list, Callable]:
    """Every luma dummy device opened, and the opener that makes them."""
    devices: list = []

    def open_device():
        devices.append(dummy(width=128, height=64, mode="1"))
        return devices[-1]

    return devices, open_device


def test_only_a_changed_picture_is_sent(ticks) -> None:
    devices, open_device = _dummies()
    display = Display(open_device, clock=ticks)
    samples = sample_updates()
    display.show(samples["action"])
    sent = display.pushed
    for _ in range(5):
        display.show(samples["action"])
        ticks.advance(1)
        display.tick()
    assert display.pushed == sent
    display.show(samples["programming"])
    assert display.pushed == sent + 1
    assert devices[0].image.tobytes() == display.frame.tobytes()


def test_announcements_in_turn_then_the_steady_screen(ticks) -> None:
    display = Display(None, clock=ticks)
    samples = sample_updates()
    action = samples["action"]
    display.show(action)
    steady = display.frame.tobytes()
    both = {**action, "events": samples["end_of_turn"]["events"] + samples["card"]["events"]}
    display.show(both)
    card = display.frame.tobytes()
    assert card != steady
    ticks.advance(HOLD["card"] + 0.1)
    display.tick()
    end_of_turn = display.frame.tobytes()
    assert end_of_turn not in (card, steady)
    ticks.advance(HOLD["end_of_turn"] + 0.1)
    display.tick()
    assert display.frame.tobytes() == steady


def test_the_alarm_flashes(ticks) -> None:
    display = Display(None, clock=ticks)
    display.show(sample_updates()["alarm"])
    pictures = []
    for _ in range(4):
        pictures.append(display.frame.tobytes())
        ticks.advance(0.5)
        display.tick()
    assert pictures[0] == pictures[2] != pictures[1] == pictures[3]


def test_dims_then_sleeps_without_input_and_wakes_on_a_press(ticks) -> None:
    """What the SSD1306 driver sends: the contrast lowered, the panel switched off, then both
    back on a press."""
    wire = Wire()
    display = Display(_oled(wire), clock=ticks, dim_after=60, contrast=200)
    display.show(sample_updates()["action"])
    assert display.dimmed == "on"
    sent = len(wire.commands)
    ticks.advance(61)
    display.tick()
    assert display.dimmed == "dim"
    assert wire.commands[sent:] == [[DISPLAY_ON], [SET_CONTRAST, DIM_CONTRAST]]
    sent = len(wire.commands)
    ticks.advance(300)
    display.tick()
    assert display.dimmed == "off"
    assert wire.commands[sent:] == [[DISPLAY_OFF]]
    sent = len(wire.commands)
    display.touched()
    assert display.dimmed == "on"
    assert wire.commands[sent:] == [[DISPLAY_ON], [SET_CONTRAST, 200]]


def test_a_display_failing_on_write_is_reported_once_and_comes_back(ticks) -> None:
    wire = Wire()
    problems = []
    display = Display(_oled(wire), clock=ticks, on_problem=problems.append)
    samples = sample_updates()
    display.show(samples["action"])
    assert display.connected
    wire.plugged = False  # the cable is pulled mid-game
    display.show(samples["programming"])
    display.show(samples["end_of_turn"])
    assert not display.connected
    assert problems == [OLED_MISSING]
    assert display.frame.tobytes() != b""  # the picture goes on for the virtual panel
    ticks.advance(RETRY + 0.1)
    display.tick()  # still unplugged: retried, not reported again
    assert problems == [OLED_MISSING]
    wire.plugged = True
    sent = wire.blocks
    ticks.advance(RETRY + 0.1)
    display.tick()
    assert display.connected
    assert problems == [OLED_MISSING, None]
    assert wire.blocks > sent  # the driver's start-up commands and the current picture


def test_closing_clears_and_switches_off_the_oled(ticks) -> None:
    devices, open_device = _dummies()
    display = Display(open_device, clock=ticks)
    display.show(sample_updates()["action"])
    assert devices[0].image.getbbox() is not None
    display.close()
    assert devices[0].image.getbbox() is None  # luma's cleanup clears the picture
    assert not display.connected


def test_a_missing_i2c_bus_is_a_problem_not_a_crash(ticks) -> None:
    problems = []
    display = Display(
        lambda: ssd1306(i2c(port=9, address=0x3C)),  # no /dev/i2c-9 on this machine
        clock=ticks,
        on_problem=problems.append,
    )
    display.show(sample_updates()["action"])
    assert not display.connected
    assert problems == [OLED_MISSING]


def test_hardware_problems_are_announced_and_kept_on_screen(ticks) -> None:
    display = Display(None, clock=ticks)
    display.show(sample_updates()["action"])
    plain = display.frame.tobytes()
    display.set_notices([Notice("buzzer_missing").as_dict()])
    problem = display.frame.tobytes()
    ticks.advance(10)
    display.tick()
    footer = display.frame.tobytes()
    assert len({plain, problem, footer}) == 3


def test_the_programming_time_limit_counts_down_between_updates(ticks) -> None:
    """No update comes while the seats program: the display counts the seconds itself."""
    display = Display(None, clock=ticks)
    update = sample_updates()["programming"]  # 42 s left when it came
    display.show(update)
    ticks.advance(1.0)
    display.tick()
    session = {**update["session"], "timer": {**update["session"]["timer"], "left": 41}}
    assert display.frame.tobytes() == frame("programming", {**update, "session": session}).tobytes()
