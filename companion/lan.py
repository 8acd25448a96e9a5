"""The address phones open: this machine's address on the table's network, shared by the
terminal's start-up lines, the OLED's QR code and the host page."""

from __future__ import annotations

import socket

# A documentation address (TEST-NET-1): connecting a UDP socket to it sends nothing, and the
# system answers with the local address of the route it would take.
PROBE = ("192.0.2.1", 9)


def lan_host() -> str:
    """This machine's address on the local network, or 127.0.0.1 without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def join_address(port: int, host: str | None = None) -> str:
    """The short address a phone opens: `http://192.168.1.20:8025/` (port 80 left out)."""
    where = host or lan_host()
    return f"http://{where}/" if port == 80 else f"http://{where}:{port}/"


def join_host(public_address: str = "", interfaces: object = None) -> str:
    """The host phones open: `[web] public_address` when set, else this machine's address on
    the table's network (`interfaces` is for tests; helper h2's version reads the interfaces)."""
    return public_address or lan_host()


def wifi_join_text(ssid: str, password: str) -> str:
    """The text of a QR code that joins the Wi-Fi `ssid` (`WIFI:T:WPA;S:...;P:...;;`), with the
    characters the format reserves escaped."""

    def escaped(text: str) -> str:
        return "".join(f"\\{c}" if c in '\\;,:"' else c for c in text)

    if not password:
        return f"WIFI:T:nopass;S:{escaped(ssid)};;"
    return f"WIFI:T:WPA;S:{escaped(ssid)};P:{escaped(password)};;"
