"""`room25 serve` without OpenSSL and FreeType, and with Pillow's PNG reader only
(companion/lean.py): the real process maps none of those libraries, and what could have used
them works as before: the host's PIN and a phone's seat (hmac, SHA-256), the OLED's words in
Pillow's bitmap fonts (PNG glyphs) and its QR code. Its C library is found without
`ctypes.util` (companion/heap.py)."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

from serving import Phone, Serve, host_of

from companion.hardware.screens import frame

from .conftest import SETUP

LEFT_OUT = ("libcrypto", "libssl", "libfreetype")
JOIN = {"address": "http://192.168.1.25:8025/"}
PIN_SCREEN = {"pin": "2525"}
# The same two screens drawn in a process that left the libraries out, as serve does.
DRAWN_LEAN = (
    "import sys\n"
    "from companion import lean\n"
    "lean.leave_out()\n"
    "from companion.hardware.screens import frame\n"
    f"pictures = frame('join', {JOIN!r}).tobytes() + frame('pin', {PIN_SCREEN!r}).tobytes()\n"
    "assert sys.modules['PIL._imagingft'] is None and sys.modules['_hashlib'] is None\n"
    "assert sys.modules['PIL.PngImagePlugin'] is not None\n"
    "assert all(sys.modules[f'PIL.{kind}ImagePlugin'] is None for kind in ('Bmp', 'Gif', 'Jpeg',"
    " 'Ppm'))\n"
    "sys.stdout.buffer.write(pictures)\n"
)
FOUND_LIBC = (
    "import sys\n"
    "from companion import heap\n"
    "print(heap.LIBC is not None, 'ctypes.util' in sys.modules)\n"
)


def test_serve_maps_neither_openssl_nor_freetype(server: Serve) -> None:
    maps = Path(f"/proc/{server.process.pid}/maps").read_text()
    assert [name for name in LEFT_OUT if name in maps] == []


def test_the_pin_and_a_seat_still_let_their_holders_in(server: Serve) -> None:
    host = host_of(server)  # the PIN compared by hmac
    assert host.post("/api/host/login", {"pin": "0000"})[0] == 403
    assert host.post("/api/host/games", {"setup": SETUP})[0] == 200
    phone = Phone(server.url)
    assert phone.post("/api/join", {"seat": "1"})[0] == 200
    status, view = phone.get("/api/view")  # the seat's secret, known by its SHA-256
    assert status == 200 and "legal" in view, view  # what seat 1 may do: its own view
    assert "legal" not in Phone(server.url).get("/api/view")[1]  # a stranger's is public


def test_the_oled_draws_the_same_without_freetype() -> None:
    drawn = subprocess.run(
        [sys.executable, "-c", DRAWN_LEAN], capture_output=True, check=True, timeout=120
    ).stdout
    join, pin = frame("join", JOIN), frame("pin", PIN_SCREEN)
    assert len(set(join.tobytes())) > 1  # the QR code and the address drawn, not a blank
    assert drawn == join.tobytes() + pin.tobytes()


def test_the_c_library_is_found_among_those_loaded() -> None:
    """glibc's mallopt and malloc_trim, from the library the process already runs on: no
    `ldconfig` run, no `ctypes.util` imported, to find it."""
    found = subprocess.run(
        [sys.executable, "-c", FOUND_LIBC], capture_output=True, check=True, timeout=60, text=True
    ).stdout
    assert found == ("True False\n" if platform.libc_ver()[0] == "glibc" else "False False\n")
