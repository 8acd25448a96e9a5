"""Seat LEDs: lit when the seat has locked in, blinking when the game waits for that seat's
action or choice. Read from the public "waiting" part of an update only."""

from __future__ import annotations

from gpiozero import LED

from companion.session import TableUpdate


def seat_lights(update: TableUpdate) -> dict[str, str]:
    """Each seat's light: "on", "blink" or (absent) off."""
    waiting = update.get("waiting") or {}
    lights = {seat: "on" for seat in waiting.get("locked_in") or []}
    if waiting.get("phase") in ("action", "choice"):
        for seat in waiting.get("seats") or []:
            if seat != "host":
                lights[seat] = "blink"
    return lights


class SeatLeds:
    """One gpiozero `LED` per seat; a light is changed only when its state changes (a blink is a
    gpiozero background thread, restarting it on every update would stutter)."""

    def __init__(self, pins: dict[str, int], pin_factory: object | None = None) -> None:
        self.leds = {seat: LED(pin, pin_factory=pin_factory) for seat, pin in pins.items()}
        self._shown: dict[str, str] = {}

    def show(self, lights: dict[str, str]) -> None:
        for seat, led in self.leds.items():
            state = lights.get(seat, "off")
            if self._shown.get(seat) == state:
                continue
            self._shown[seat] = state
            if state == "on":
                led.on()
            elif state == "blink":
                led.blink(on_time=0.3, off_time=0.3)
            else:
                led.off()

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
