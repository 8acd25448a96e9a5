"""`room25 serve` without OpenSSL and FreeType, and with Pillow's PNG reader only
(companion/lean.py): the real process maps none of those libraries, and what could have used
them works as before: the host's PIN and a phone's seat (hmac, SHA-256), the OLED's words in
Pillow's bitmap fonts (PNG glyphs) and its QR code. Its C library is found without
`ctypes.util` (companion/heap.py). At an English table it reads no other language's texts
but its M.A.C. cards' words until a reader asks for that language (companion/words)."""

from __future__ import annotations

import ctypes
import http.client
import os
import platform
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from pseudo_locale import CODE, write_pseudo_locale
from serving import Phone, Serve, host_of

from companion import words
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
# A game whose M.A.C. deck is read (Season 2): its cards' words are said in every language.
CARDS_GAME = {"edition": "season2", "mode": "suspicion", "players": 5, "tracking": "dealt"}
# What a language other than the table's is read for before anyone asks for it: its name (the
# language menus) and its cards' words (a drawn card's event carries them in each language).
READ_UNASKED = {"language.json", "cards.json"}
IN_OPEN, IN_NONBLOCK = 0x20, os.O_NONBLOCK
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


class Opened:
    """The files opened in some folders from now on, by folder (Linux's inotify)."""

    def __init__(self, folders: list[Path]) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(IN_NONBLOCK)
        assert self.fd >= 0, os.strerror(ctypes.get_errno())
        self.folders = {libc.inotify_add_watch(self.fd, bytes(f), IN_OPEN): f.name for f in folders}
        assert min(self.folders) >= 0, os.strerror(ctypes.get_errno())

    def names(self) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {name: set() for name in self.folders.values()}
        while True:
            try:
                events = os.read(self.fd, 65536)
            except BlockingIOError:
                return found
            at = 0
            while at < len(events):
                watch, _, _, length = struct.unpack_from("iIII", events, at)
                found[self.folders[watch]].add(
                    events[at + 16 : at + 16 + length].rstrip(b"\0").decode()
                )
                at += 16 + length

    def close(self) -> None:
        os.close(self.fd)


def _page(server: Serve, lang: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", "/", headers={"Accept-Language": lang})
    page = connection.getresponse().read().decode()
    connection.close()
    return page


@pytest.mark.skipif(platform.system() != "Linux", reason="inotify is Linux's")
def test_an_english_table_reads_another_language_when_it_is_asked_for(tmp_path: Path) -> None:
    """A game with M.A.C. cards under way at an English table, its phones in English: no other
    language's texts read but its name and its cards' words; a French phone then gets French,
    and a folder language (`$ROOM25_WORDS`) is read the same way."""
    extra = write_pseudo_locale(tmp_path / "words")
    package = Path(words.__file__).parent
    others = [package / lang for lang in words.languages() if lang != words.fallback()]
    opened = Opened([*others, extra / CODE])
    server = Serve(tmp_path / "data", env={words.catalogue.EXTRA: str(extra)}).wait_ready()
    try:
        host = host_of(server)
        assert host.post("/api/host/games", {"setup": CARDS_GAME})[0] == 200
        phone = Phone(server.url)
        assert phone.post("/api/join", {"seat": "1"})[0] == 200
        assert phone.get("/api/view")[0] == 200
        assert '<html lang="en"' in _page(server, "en")
        unasked = opened.names()
        assert '<html lang="fr"' in _page(server, "fr")
        asked = opened.names()
    finally:
        server.stop()
        opened.close()
    assert unasked == {folder.name: READ_UNASKED for folder in [*others, extra / CODE]}
    assert "pages.json" in asked["fr"] and asked["de"] == asked[CODE] == set()
