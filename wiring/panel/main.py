"""Room 25 seat panel firmware for a Raspberry Pi Pico (MicroPython).

Eight seat buttons and Next/Back/Menu to ground (internal pull-ups), eight LEDs through 330 ohm
resistors, talking to the companion over USB serial (PROTOCOL.md). Copy protocol.py and this
file to the Pico (e.g. `mpremote cp protocol.py main.py :`).

Ctrl-C is turned off while it runs, so a stray byte on the line cannot stop it and leave the
Pico at MicroPython's prompt. To reach the prompt (to copy a new version), hold MENU while
plugging the Pico in: Ctrl-C then works as usual.
"""

import select
import sys
import time

import micropython
import protocol
from machine import Pin

SEAT_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
LED_PINS = (10, 11, 12, 13, 14, 15, 16, 17)
CONTROL_PINS = {"NEXT": 18, "BACK": 19, "MENU": 20}
BOUNCE_MS = 30
LONG_MS = 1000
BLINK_MS = 300


class Debounced:
    """The same rule as the companion's PressLogic: a level counts once it has lasted
    BOUNCE_MS; seat buttons report on the way down, controls short on release or long once."""

    def __init__(self, name, pin, long_press):
        self.name = name
        self.pin = Pin(pin, Pin.IN, Pin.PULL_UP)
        self.long_press = long_press
        self.raw = False
        self.raw_at = 0
        self.down = False
        self.down_at = 0
        self.long_sent = False

    def poll(self, now):
        pressed = self.pin.value() == 0
        if pressed != self.raw:
            self.raw, self.raw_at = pressed, now
        if self.raw != self.down and time.ticks_diff(now, self.raw_at) >= BOUNCE_MS:
            self.down = self.raw
            if self.down:
                self.down_at, self.long_sent = self.raw_at, False
                if not self.long_press:
                    return protocol.press_line(self.name)
            elif self.long_press and not self.long_sent:
                return protocol.press_line(self.name)
        held = time.ticks_diff(now, self.down_at) if self.down else 0
        if self.long_press and not self.long_sent and held >= LONG_MS:
            self.long_sent = True
            return protocol.press_line(self.name, long=True)
        return None


def main():
    menu = Pin(CONTROL_PINS["MENU"], Pin.IN, Pin.PULL_UP)
    time.sleep_ms(BOUNCE_MS)
    if menu.value() == 1:  # MENU not held at power-up: a 0x03 byte is data, not Ctrl-C
        micropython.kbd_intr(-1)
    buttons = [Debounced(str(i + 1), pin, False) for i, pin in enumerate(SEAT_PINS)]
    buttons += [Debounced(name, pin, True) for name, pin in CONTROL_PINS.items()]
    leds = [Pin(pin, Pin.OUT, value=0) for pin in LED_PINS]
    states = ["off"] * protocol.SEATS
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    pending = ""
    sys.stdout.write(protocol.hello_line())
    while True:
        now = time.ticks_ms()
        for button in buttons:
            line = button.poll(now)
            if line:
                sys.stdout.write(line)
        while poller.poll(0):
            char = sys.stdin.read(1)
            if char != "\n":
                pending = (pending + char)[-protocol.MAX_LINE :]
                continue
            message = protocol.parse_host_line(pending)
            pending = ""
            if message is None:
                continue
            kind, value = message
            if kind == "hello":
                sys.stdout.write(protocol.hello_line())
            elif kind == "leds":
                states = protocol.led_states(*value)
        lit = (now // BLINK_MS) % 2 == 0
        for i, led in enumerate(leds):  # MicroPython's zip() has no strict=
            led.value(1 if states[i] == "on" or (states[i] == "blink" and lit) else 0)
        time.sleep_ms(5)


main()
