"""The serial seat panel's line protocol, version 1 (wiring/panel/PROTOCOL.md), host side.

One ASCII line per message, ending in "\\n", at most 64 bytes. The panel's firmware
(`wiring/panel/protocol.py`, MicroPython) reads and writes the same grammar; a test checks that
what one side writes, the other reads.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

VERSION = 1
MAX_LINE = 64
CONTROLS = ("NEXT", "BACK", "MENU")
MAX_SEATS = 8


@dataclass(frozen=True)
class Hello:
    version: int
    seats: int
    firmware: str


@dataclass(frozen=True)
class Pressed:
    """A button pressed on the panel: a seat ("1".."8") or a control ("next", "back", "menu")."""

    button: str
    long: bool


class ProtocolError(ValueError):
    """A line the host cannot read; the panel link stays up, the line is ignored and logged."""


def _button(word: str) -> str:
    if word in CONTROLS:
        return word.lower()
    if word.isdigit() and 1 <= int(word) <= MAX_SEATS:
        return word
    raise ProtocolError(f"unknown button {word!r}")


def parse_panel_line(raw: bytes) -> Hello | Pressed:
    """A line the panel sent: "HELLO ROOM25-PANEL <version> <seats> <firmware>", "P <button>"
    (a press) or "L <button>" (a long press)."""
    if len(raw) > MAX_LINE:
        raise ProtocolError("line too long")
    try:
        words = raw.decode("ascii").split()
    except UnicodeDecodeError as error:
        raise ProtocolError("not ASCII") from error
    if not words:
        raise ProtocolError("empty line")
    head = words[0]
    if head == "HELLO" and len(words) == 5 and words[1] == "ROOM25-PANEL":
        if not (words[2].isdigit() and words[3].isdigit()):
            raise ProtocolError("hello without a version and a seat count")
        return Hello(int(words[2]), int(words[3]), words[4])
    if head in ("P", "L") and len(words) == 2:
        return Pressed(_button(words[1]), head == "L")
    raise ProtocolError(f"unknown message {head!r}")


def leds_line(lights: dict[str, str]) -> bytes:
    """ "LEDS <on> <blink>": two hex masks, bit n-1 for seat n."""
    on = blink = 0
    for seat, state in lights.items():
        if seat.isdigit() and 1 <= int(seat) <= MAX_SEATS:
            bit = 1 << (int(seat) - 1)
            if state == "on":
                on |= bit
            elif state == "blink":
                blink |= bit
    return f"LEDS {on:02X} {blink:02X}\n".encode("ascii")


def text_line(text: str) -> bytes:
    """ "TEXT <text>": a short line for the panel's own display, printable ASCII, at most 32
    characters; accented letters lose their accents (French reads "prets", not "pr?ts") and
    control characters become spaces (a Ctrl-C or Ctrl-D would stop or restart MicroPython's
    program on a panel that listens for them)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    ascii_text = bare.encode("ascii", "replace").decode("ascii")
    clean = "".join(c if " " <= c <= "~" else " " for c in ascii_text)[:32]
    return f"TEXT {clean}\n".encode("ascii")


HELLO_QUERY = b"HELLO?\n"
