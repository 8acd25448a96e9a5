"""The address phones open: this machine's address on the table's network, shared by the
terminal's start-up lines, the OLED's QR codes and the host page.

The address is read from the interfaces themselves, not from the route to the internet: a Pi
that is its own hotspot (NetworkManager's shared mode, wlan0 = 10.42.0.1) has no default route,
yet that is the one address its phones can open. It is read again at every call (a few
microseconds), so a Wi-Fi that comes up after the companion is seen.
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct
from collections.abc import Callable

LOOPBACK = "127.0.0.1"
SIOCGIFADDR = 0x8915  # Linux: an interface's (primary) IPv4 address
PRIVATE = tuple(
    ipaddress.IPv4Network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)
# NetworkManager's shared mode ("nmcli device wifi hotspot") gives the Pi 10.42.<n>.1.
HOTSPOT = ipaddress.IPv4Network("10.42.0.0/16")
# Interfaces no phone at the table is on: containers, VMs, VPNs.
VIRTUAL = ("docker", "br-", "veth", "virbr", "lxc", "lxd", "tun", "tap", "wg", "tailscale", "zt")

Interfaces = Callable[[], list[tuple[str, str]]]


def machine_interfaces() -> list[tuple[str, str]]:
    """(interface, IPv4 address) for every interface that has one, in the kernel's order.

    The standard library alone (interface names, then one ioctl each): no subprocess to spawn
    every few seconds on a Zero 2 W, no `ip` command to rely on, and it works under the unit's
    RestrictAddressFamilies. Only an interface's primary address is seen, which is the one
    NetworkManager and DHCP give."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # down, or no IPv4 address
                continue
            found.append((name, socket.inet_ntoa(answer[20:24])))
    return found


def _rank(interface: str, address: str) -> int:
    """Lower is better: the hotspot, the Wi-Fi, a private LAN, a virtual one, anything else,
    link-local, loopback."""
    ip = ipaddress.IPv4Address(address)
    if ip.is_loopback:
        return 7
    if ip.is_link_local:
        return 6
    if ip in HOTSPOT and address.endswith(".1"):
        return 0
    virtual = interface.startswith(VIRTUAL)
    if interface.startswith("wl") and not virtual:
        return 1
    if any(ip in net for net in PRIVATE):
        return 3 if virtual else 2
    return 4 if not virtual else 5


def join_host(public_address: str = "", interfaces: Interfaces | None = None) -> str:
    """The host a phone should open: `public_address` when set (`[web] public_address`), else
    the best of this machine's addresses, 127.0.0.1 only when it has no other."""
    if public_address:
        return public_address
    try:
        found = (interfaces or machine_interfaces)()
    except OSError:
        found = []
    usable = []
    for order, (name, address) in enumerate(found):
        try:
            usable.append((_rank(name, address), order, address))
        except ValueError:  # not an IPv4 address
            continue
    return min(usable)[2] if usable else LOOPBACK


def join_address(port: int, host: str | None = None) -> str:
    """The short address a phone opens: `http://192.168.1.20:8025/` (port 80 left out)."""
    where = host or join_host()
    return f"http://{where}/" if port == 80 else f"http://{where}:{port}/"


WIFI_SPECIAL = '\\;,:"'


def _wifi_escape(text: str) -> str:
    return "".join("\\" + c if c in WIFI_SPECIAL else c for c in text)


def wifi_join_text(ssid: str, password: str) -> str:
    """What a QR code holds to join a Wi-Fi network (the format phones' cameras read):
    `WIFI:T:WPA;S:Room25;P:secret;;`, with `\\ ; , : "` escaped; an open network without P."""
    if not password:
        return f"WIFI:T:nopass;S:{_wifi_escape(ssid)};;"
    return f"WIFI:T:WPA;S:{_wifi_escape(ssid)};P:{_wifi_escape(password)};;"


def own_addresses() -> set[str]:
    """Every address of this machine's interfaces (IPv4 and IPv6, loopback included), so the web
    layer can tell its own names from a stranger's in a `Host` header (DNS rebinding)."""
    found = {LOOPBACK, "::1"}
    # One source failing hides no other: a hostname that does not resolve (a fresh Debian, a Pi
    # renamed without its /etc/hosts line) must not hide the interfaces' addresses, the very
    # ones the join QR code shows.
    with contextlib.suppress(OSError):
        found |= {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    with contextlib.suppress(OSError):
        found |= {address for _name, address in machine_interfaces()}
    found |= _ipv6_addresses()
    return {a.split("%", 1)[0].lower() for a in found}


def own_names() -> set[str]:
    """This machine's names as a phone may type them: localhost, its hostname and hostname.local."""
    host = socket.gethostname().lower().rstrip(".")
    return {"localhost", host, f"{host}.local"} if host else {"localhost"}


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
