"""The seat panel's side of the line protocol, version 1 (PROTOCOL.md).

MicroPython and CPython alike (no typing, no dataclasses): copy it to the Pico beside main.py.
The companion reads and writes the same grammar in companion/hardware/panel_protocol.py; the
tests check that what one side writes, the other reads.
"""

VERSION = 1
MAX_LINE = 64
SEATS = 8
FIRMWARE = "pico-0.1"


def hello_line(seats=SEATS):
    """What the panel says when it starts and whenever the companion asks "HELLO?"."""
    return f"HELLO ROOM25-PANEL {VERSION} {seats} {FIRMWARE}\n"


def press_line(button, long=False):
    """A press: button is a seat number (1-8) or NEXT, BACK, MENU."""
    return f"{'L' if long else 'P'} {button}\n"


def parse_host_line(line):
    """A line from the companion as (kind, value): ("leds", (on_mask, blink_mask)),
    ("text", str), ("hello", None); None for anything else (ignored, never a crash)."""
    if len(line) > MAX_LINE:
        return None
    line = line.strip()
    if line == "HELLO?":
        return ("hello", None)
    if line.startswith("TEXT"):
        return ("text", "".join(c if " " <= c <= "~" else " " for c in line[5:][:32]))
    words = line.split()
    if len(words) == 3 and words[0] == "LEDS":
        try:
            on, blink = int(words[1], 16), int(words[2], 16)
        except ValueError:
            return None
        if 0 <= on < 256 and 0 <= blink < 256:
            return ("leds", (on, blink))
    return None


def led_states(on, blink):
    """Each seat's light from the two masks: "on", "blink" or "off", seat 1 first."""
    states = []
    for seat in range(SEATS):
        bit = 1 << seat
        states.append("blink" if blink & bit else ("on" if on & bit else "off"))
    return states
