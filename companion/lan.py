"""The address phones open: this machine's address on the table's network, shared by the
terminal's start-up lines, the OLED's QR code and the host page."""

from __future__ import annotations

import contextlib
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


def own_addresses() -> set[str]:
    """Every address of this machine's interfaces (IPv4 and IPv6, loopback included), so the web
    layer can tell its own names from a stranger's in a `Host` header (DNS rebinding)."""
    found = {"127.0.0.1", "::1", lan_host()}
    with contextlib.suppress(OSError):
        found |= {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    for _, name in _interfaces():
        address = _ipv4_of(name)
        if address:
            found.add(address)
    found |= _ipv6_addresses()
    return {a.split("%", 1)[0].lower() for a in found}


def own_names() -> set[str]:
    """This machine's names as a phone may type them: localhost, its hostname and hostname.local."""
    host = socket.gethostname().lower().rstrip(".")
    return {"localhost", host, f"{host}.local"} if host else {"localhost"}


def _interfaces() -> list[tuple[int, str]]:
    try:
        return socket.if_nameindex()
    except OSError:
        return []


def _ipv4_of(name: str) -> str | None:
    """An interface's IPv4 address (Linux SIOCGIFADDR), None without one or off Linux."""
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            packed = struct.pack("256s", name.encode()[:15])
            answer = fcntl.ioctl(probe.fileno(), 0x8915, packed)  # SIOCGIFADDR
        return socket.inet_ntoa(answer[20:24])
    except (OSError, ImportError):
        return None


def _ipv6_addresses() -> set[str]:
    """The IPv6 addresses Linux lists in /proc/net/if_inet6 (none elsewhere)."""
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as listing:
            rows = [line.split()[0] for line in listing if line.strip()]
    except OSError:
        return set()
    found = set()
    for row in rows:
        try:
            found.add(socket.inet_ntop(socket.AF_INET6, bytes.fromhex(row)))
        except (OSError, ValueError):
            continue
    return found
