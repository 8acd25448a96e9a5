"""The OLED on a Pi, through the path `room25 serve` takes (the "pi" hardware kind, luma's real
SSD1306 driver and I2C interface, smbus2's bus class): a missing panel costs no file and no
memory however often it is retried, and a panel unplugged and plugged back comes back lit.

The wire is smbus2's own `SMBus` with only what the kernel would answer replaced: opening it
opens a real file (so a leaked bus is a leaked descriptor), and each transfer goes to `Panel`, a
model of the SSD1306 that powers up dark (display and charge pump off, noise in its memory) and
lights only when its set-up commands say so; with no panel on the wire a transfer fails with
EREMOTEIO ("Remote I/O error"), as the kernel's I2C driver answers when nothing acknowledges.
"""

from __future__ import annotations

import errno
import gc
import os
import random
import tracemalloc
from dataclasses import replace

import pytest
import serial
import smbus2
from waiting import eventually

from companion.hardware import start_hardware
from companion.hardware.display import FRAME_GAP
from companion.hardware.pins import mock_factory
from companion.hardware.screens import frame

from .conftest import TOKENS_GAME

ARGS = {0x81: 1, 0xD5: 1, 0xA8: 1, 0xD3: 1, 0x8D: 1, 0x20: 1, 0xDA: 1, 0xD9: 1, 0xDB: 1}
ARGS |= {0x21: 2, 0x22: 2, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}


class Panel:
    """An SSD1306 at 0x3C: what lights it, and the 1 KiB it shows (horizontal addressing)."""

    def __init__(self) -> None:
        self.plugged = True
        self.power_up()

    def power_up(self) -> None:
        """As the datasheet's reset state: display off, charge pump off, memory undefined."""
        self.display_on = False
        self.charge_pump = False
        self.contrast = 0x7F
        self.seen: list[tuple[bool, int]] = []  # (lit, contrast) after each command
        self.ram = bytearray(random.getrandbits(8) for _ in range(1024))
        self.columns, self.pages = (0, 127), (0, 7)
        self.column, self.page = 0, 0

    def replug(self) -> None:
        """Unplugged and plugged back between two transfers: it powers up again."""
        self.power_up()

    @property
    def lit(self) -> bool:
        return self.display_on and self.charge_pump

    def commands(self, data: list[int]) -> None:
        i = 0
        while i < len(data):
            op, args = data[i], data[i + 1 : i + 1 + ARGS.get(data[i], 0)]
            i += 1 + ARGS.get(op, 0)
            if op in (0xAE, 0xAF):
                self.display_on = op == 0xAF
            elif op == 0x8D:
                self.charge_pump = args[0] == 0x14
            elif op == 0x81:
                self.contrast = args[0]
            elif op == 0x21:
                self.columns, self.column = (args[0], args[1]), args[0]
            elif op == 0x22:
                self.pages, self.page = (args[0], args[1]), args[0]
            self.seen.append((self.lit, self.contrast))

    def data(self, data: list[int]) -> None:
        for byte in data:
            self.ram[self.page * 128 + self.column] = byte
            self.column += 1
            if self.column > self.columns[1]:
                self.column = self.columns[0]
                self.page = self.pages[0] if self.page >= self.pages[1] else self.page + 1

    def shows(self, picture) -> bool:
        """Lit, with exactly `picture` (a 128x64 1-bit image) in its memory."""
        pixels = picture.load()
        expected = bytearray(1024)
        for page in range(8):
            for x in range(128):
                expected[page * 128 + x] = sum(
                    1 << bit for bit in range(8) if pixels[x, page * 8 + bit]
                )
        return self.lit and bytes(expected) == bytes(self.ram)


class Wire:
    """What the test plugs into the bus: a panel or nothing, and how often it was tried."""

    def __init__(self, panel: Panel | None) -> None:
        self.panel = panel
        self.tries = 0
        self.buses = 0

    def transfer(self, address: int, control: int, data: list[int]) -> None:
        self.tries += 1
        if self.panel is None or not self.panel.plugged or address != 0x3C:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if control == 0x00:
            self.panel.commands(data)
        else:
            self.panel.data(data)


def bus_class(wire: Wire) -> type:
    class Bus(smbus2.SMBus):
        """smbus2's SMBus on a real file, its transfers answered by `wire`."""

        def open(self, bus):
            self.fd = os.open(os.devnull, os.O_RDWR)
            self.funcs = 0
            wire.buses += 1

        def write_i2c_block_data(self, i2c_addr, register, data, force=None):
            wire.transfer(i2c_addr, register, list(data))

        def i2c_rdwr(self, *messages):
            for message in messages:
                data = list(message)
                wire.transfer(message.addr, data[0], data[1:])

    return Bus


@pytest.fixture
def pi(session, config, ticks, monkeypatch):
    """Start the "pi" hardware against `wire` (mock GPIO, a loop:// serial panel)."""
    rigs = []

    def start(wire: Wire):
        monkeypatch.setattr(smbus2, "SMBus", bus_class(wire))
        rig = start_hardware(
            session,
            replace(config, display=replace(config.display, dim_after=0)),
            "pi",
            clock=ticks,
            timers=ticks,
            address="http://t:8025/",
            pin_factory=mock_factory(),
            panel_opener=lambda: serial.serial_for_url("loop://", timeout=0.05),
        )
        rigs.append(rig)
        return rig

    yield start
    for rig in rigs:
        rig.close()


def _settled(rig, panel: Panel, session, ticks) -> None:
    """Wait until the OLED shows the new game's setup screen (the update comes from the
    session's thread, a frame gap after the picture before it)."""
    ticks.advance(FRAME_GAP)
    update = {**session.snapshot("public"), "nudge": 0}
    setup = frame("setup", update).tobytes()
    eventually(lambda: rig.display.frame.tobytes() == setup and panel.shows(rig.display.frame))


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_missing_oled_retried_for_hours_costs_no_file_and_no_memory(pi, ticks) -> None:
    wire = Wire(None)  # nothing answers at 0x3C
    rig = pi(wire)
    assert not rig.display.connected
    gc.collect()
    files = _open_files()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(300):
            tries = wire.tries
            ticks.advance(3600)  # whatever the back-off, each tick is a retry
            rig.display.tick()
            assert wire.tries > tries
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert _open_files() - files <= 1, "a file leaked per retry"
    assert grown < 256 * 1024, f"{grown} bytes kept after 300 retries"
    assert not rig.display.connected


def test_an_oled_replugged_while_the_picture_is_unchanged_comes_back_lit(
    pi, session, ticks
) -> None:
    panel = Panel()
    rig = pi(Wire(panel))
    assert session.host("new_game", setup={**TOKENS_GAME, "seed": 11}).ok
    _settled(rig, panel, session, ticks)
    panel.replug()  # the cable pulled and pushed back between two frames: dark, noise shown
    assert not panel.lit
    for _ in range(15):  # fifteen seconds, nothing happening at the table
        ticks.advance(1)
        rig.display.tick()
    assert panel.shows(rig.display.frame)
    assert rig.display.problem is None


def test_an_oled_unplugged_for_a_while_comes_back_lit_and_without_the_problem(
    pi, session, ticks
) -> None:
    panel = Panel()
    wire = Wire(panel)
    rig = pi(wire)
    assert session.host("new_game", setup={**TOKENS_GAME, "seed": 11}).ok
    _settled(rig, panel, session, ticks)
    body = (0, 15, 128, 64)  # under the status bar (which moves by a pixel now and then)
    steady = rig.display.frame.crop(body).tobytes()
    panel.plugged = False
    for _ in range(30):
        ticks.advance(1)
        rig.display.tick()
    assert rig.display.problem is not None
    panel.plugged = True
    panel.replug()
    for _ in range(120):
        ticks.advance(1)
        rig.display.tick()
    assert rig.display.connected
    assert panel.shows(rig.display.frame)
    assert rig.display.frame.crop(body).tobytes() == steady  # no "OLED missing" left over
    assert wire.buses == 1  # one bus opened, for the whole while


def test_the_set_up_refresh_leaves_a_dimmed_or_sleeping_panel_as_it_is(ticks, monkeypatch) -> None:
    """Issue 28: the set-up sent again every 10 s never lights a dimmed panel at the driver's
    contrast for a moment, nor wakes a sleeping one; a replugged panel wakes at its level."""
    from companion.hardware.display import DIM_CONTRAST, Display
    from companion.hardware.gallery import sample_updates
    from companion.hardware.oled import Oled

    panel = Panel()
    monkeypatch.setattr(smbus2, "SMBus", bus_class(Wire(panel)))
    oled = Oled("ssd1306", 1, 0x3C)
    display = Display(oled, clock=ticks, dim_after=60, contrast=200)
    try:
        display.show(sample_updates()["action"])
        for _ in range(70):
            ticks.advance(1)
            display.tick()
        assert display.dimmed == "dim"
        panel.seen.clear()
        for _ in range(35):  # three refreshes and more, dimmed
            ticks.advance(1)
            display.tick()
        assert panel.seen and set(panel.seen) == {(True, DIM_CONTRAST)}
        panel.replug()
        panel.seen.clear()
        for _ in range(11):
            ticks.advance(1)
            display.tick()
        assert panel.lit and panel.contrast == DIM_CONTRAST
        assert (True, 0x7F) not in panel.seen and (True, 0xCF) not in panel.seen
        for _ in range(300):
            ticks.advance(1)
            display.tick()
        assert display.dimmed == "off"
        panel.seen.clear()
        for _ in range(35):
            ticks.advance(1)
            display.tick()
        assert panel.seen and not any(lit for lit, _ in panel.seen)
    finally:
        display.close()
        oled.close()
