"""The OLED on I2C: one bus opened once, one luma device made once, and the panel's set-up sent
again whenever it may have lost it.

Two things of the real hardware shape this. luma.core registers an atexit hook for every device
it makes (keeping it, its buffers and, when luma opened the bus itself, the /dev/i2c file alive),
so making a device per retry of a missing OLED leaked a file and about 350 KiB a try. And an
SSD1306 powers up dark, display and charge pump off: one unplugged and plugged back stays dark
until its set-up is sent again. So the luma device is made once, against a serial interface that
records the set-up its driver sends (about 30 bytes) instead of sending it; opening, reopening
and refreshing the panel all replay that set-up over the one bus.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

DRIVERS = ("ssd1306", "sh1106", "ssd1309")
DISPLAY_OFF, DISPLAY_ON = 0xAE, 0xAF  # the same two commands on all three controllers
SET_CONTRAST = 0x81  # and this one, followed by the level


def open_bus(port: int) -> Any:
    """smbus2's bus on /dev/i2c-`port`, closed again if opening it fails half way (smbus2 keeps
    the file it opened when asking the adapter's functions fails)."""
    import smbus2

    bus = smbus2.SMBus()
    try:
        bus.open(port)
    except BaseException:
        bus.close()
        raise
    return bus


class SetUpRecorder:
    """A luma serial interface that keeps the commands a driver sends while it is made (its
    set-up) and passes everything afterwards to the real interface."""

    def __init__(self, wire: Any) -> None:
        self.wire = wire
        self.set_up: list[tuple[int, ...]] = []
        self.recording = True

    def command(self, *cmd: int) -> None:
        if self.recording:
            self.set_up.append(cmd)
        else:
            self.wire.command(*cmd)

    def data(self, data: Any) -> None:
        if not self.recording:
            self.wire.data(data)

    def cleanup(self) -> None:
        """Nothing: the bus is the opener's, closed by `Oled.close`."""


class Oled:
    """Opens the OLED for the display (`oled()` gives the luma device, raising luma's errors or
    OSError while the panel does not answer); `set_up(device)` sends its set-up again."""

    def __init__(
        self,
        driver: str,
        port: int,
        address: int,
        rotation: int = 0,
        *,
        bus_opener: Callable[[int], Any] = open_bus,
    ) -> None:
        if driver not in DRIVERS:
            raise ValueError(f"OLED driver must be one of {', '.join(DRIVERS)}, not {driver!r}")
        if rotation not in (0, 2):
            log.warning("OLED rotation %s would stand the screens on end: 0 is used", rotation)
            rotation = 0
        self.driver, self.port, self.address, self.rotation = driver, port, address, rotation
        self._bus_opener = bus_opener
        self._bus: Any = None
        self._device: Any = None
        self._recorder: SetUpRecorder | None = None

    def __call__(self) -> Any:
        """The device with its set-up sent: made the first time, the same one afterwards."""
        if self._bus is None:
            self._bus = self._bus_opener(self.port)
        if self._device is None:
            self._device = self._make()
        self.set_up(self._device)
        return self._device

    def _make(self) -> Any:
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled

        self._recorder = SetUpRecorder(i2c(bus=self._bus, address=self.address))
        make = {"ssd1306": oled.ssd1306, "sh1106": oled.sh1106, "ssd1309": oled.ssd1309}
        device = make[self.driver](self._recorder, width=128, height=64, rotate=self.rotation)
        self._recorder.recording = False
        return device

    def set_up(self, device: Any) -> None:
        """Send the driver's set-up again (the charge pump included), leaving out its display
        off and on and its contrast: a lit panel does not blink, and a dimmed or sleeping one
        stays as it is (the driver's own contrast would light it full for a moment); the caller
        then sends the light level and the picture."""
        if self._recorder is None or device is not self._device:
            return
        for cmd in self._recorder.set_up:
            if cmd[:1] == (DISPLAY_OFF,):
                cmd = cmd[1:]
            if cmd == (DISPLAY_ON,) or (len(cmd) == 2 and cmd[0] == SET_CONTRAST):
                continue
            if cmd:
                self._recorder.wire.command(*cmd)

    def close(self) -> None:
        """Close the bus (the companion is stopping)."""
        if self._bus is not None:
            self._bus.close()
            self._bus = None
