"""The address the join QR code shows: chosen from the interfaces' own addresses (a hotspot has no
default route), read again at every call, overridden by `[web] public_address`; the QR code that
joins the hotspot's Wi-Fi; and their settings. The choice is checked with injected interface lists
and, where this machine allows it (root, `ip netns`), in a real network namespace."""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import lan
from companion.config import Config, load_config
from companion.lan import join_address, join_host, machine_interfaces, wifi_join_text
from companion.web.guard import OwnNames

ROOT = Path(__file__).parents[1]
HOTSPOT = [("lo", "127.0.0.1"), ("wlan0", "10.42.0.1")]


def test_the_hotspot_is_chosen_without_a_default_route() -> None:
    """NetworkManager's shared mode: wlan0 = 10.42.0.1/24 and no default route."""
    assert join_host(interfaces=lambda: HOTSPOT) == "10.42.0.1"
    assert join_address(8025, join_host(interfaces=lambda: HOTSPOT)) == "http://10.42.0.1:8025/"


@pytest.mark.parametrize(
    ("interfaces", "chosen"),
    [
        # the hotspot beats a wired LAN, whatever the order
        ([("eth0", "192.168.1.20"), ("wlan0", "10.42.0.1")], "10.42.0.1"),
        # the Wi-Fi beats the wire on the same kind of network
        ([("eth0", "192.168.1.20"), ("wlan0", "192.168.1.21")], "192.168.1.21"),
        # a private LAN beats a container bridge, a VPN and a public address
        (
            [("docker0", "172.17.0.1"), ("tailscale0", "100.101.1.2"), ("eth0", "10.0.0.7")],
            "10.0.0.7",
        ),
        ([("enp3s0", "203.0.113.9"), ("eth1", "172.20.0.5")], "172.20.0.5"),
        # only a public address: that one, never loopback
        ([("lo", "127.0.0.1"), ("eth0", "203.0.113.9")], "203.0.113.9"),
        # link-local (no DHCP answered) only when nothing better
        ([("eth0", "169.254.3.4"), ("docker0", "172.17.0.1")], "172.17.0.1"),
        ([("lo", "127.0.0.1"), ("eth0", "169.254.3.4")], "169.254.3.4"),
        # nothing but loopback, or nothing at all
        ([("lo", "127.0.0.1")], "127.0.0.1"),
        ([], "127.0.0.1"),
        ([("eth0", "not an address"), ("lo", "127.0.0.1")], "127.0.0.1"),
    ],
)
def test_the_best_address_a_phone_can_open(interfaces: list[tuple[str, str]], chosen: str) -> None:
    assert join_host(interfaces=lambda: interfaces) == chosen


def test_the_address_is_read_again_at_every_call() -> None:
    """A Pi whose Wi-Fi comes up after the service: the next call sees it."""
    now: list[tuple[str, str]] = [("lo", "127.0.0.1")]
    assert join_host(interfaces=lambda: now) == "127.0.0.1"
    now.append(("wlan0", "10.42.0.1"))
    assert join_host(interfaces=lambda: now) == "10.42.0.1"


def test_the_public_address_wins() -> None:
    assert join_host("room25.local", lambda: HOTSPOT) == "room25.local"
    assert join_host("", lambda: HOTSPOT) == "10.42.0.1"


def test_an_unreadable_interface_list_gives_loopback() -> None:
    def broken() -> list[tuple[str, str]]:
        raise OSError("no interfaces")

    assert join_host(interfaces=broken) == "127.0.0.1"


def test_this_machines_interfaces_are_read() -> None:
    found = dict(machine_interfaces())
    assert found.get("lo") == "127.0.0.1"
    for address in found.values():
        assert len(address.split(".")) == 4


UNRESOLVABLE = "room25-nowhere.invalid"  # .invalid: a name no resolver may answer (RFC 6761)


@pytest.fixture
def unresolvable_hostname(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine named as a fresh Debian or a renamed Pi may be: a hostname with no address."""
    monkeypatch.setattr(socket, "gethostname", lambda: UNRESOLVABLE)
    with pytest.raises(OSError):
        socket.getaddrinfo(socket.gethostname(), None)


@pytest.mark.usefixtures("unresolvable_hostname")
def test_a_hostname_that_does_not_resolve_hides_no_interface_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The address on the QR code is accepted as a `Host`: one failing source hides no other."""
    monkeypatch.setattr(lan, "machine_interfaces", lambda: HOTSPOT)
    assert "10.42.0.1" in lan.own_addresses()
    assert join_address(8025, join_host(interfaces=lambda: HOTSPOT)).endswith("//10.42.0.1:8025/")
    assert "10.42.0.1:8025" in OwnNames()


@pytest.mark.usefixtures("unresolvable_hostname")
def test_with_that_hostname_this_machines_join_address_is_still_its_own() -> None:
    found = lan.own_addresses()
    assert {address for _name, address in machine_interfaces()} <= found
    assert f"{join_host()}:8025" in OwnNames()


def test_the_wifi_join_text_escapes_what_the_format_reserves() -> None:
    assert wifi_join_text("Room25", "choose-8-or") == "WIFI:T:WPA;S:Room25;P:choose-8-or;;"
    assert (
        wifi_join_text('Salle;25,"A":B\\', 'p;w,d:x\\y"z')
        == 'WIFI:T:WPA;S:Salle\\;25\\,\\"A\\"\\:B\\\\;P:p\\;w\\,d\\:x\\\\y\\"z;;'
    )
    assert wifi_join_text("Room25", "") == "WIFI:T:nopass;S:Room25;;"


def _unescape(field: str) -> str:
    out, escaped = "", False
    for c in field:
        if escaped:
            out, escaped = out + c, False
        elif c == "\\":
            escaped = True
        else:
            out += c
    return out


def _fields(text: str) -> dict[str, str]:
    """Read a WIFI: text the way a phone does: split on unescaped `;`."""
    assert text.startswith("WIFI:") and text.endswith(";;")
    parts, current, escaped = [], "", False
    for c in text[5:-1]:
        if escaped:
            current, escaped = current + "\\" + c, False
        elif c == "\\":
            escaped = True
        elif c == ";":
            parts.append(current)
            current = ""
        else:
            current += c
    return {p[0]: _unescape(p[2:]) for p in parts if p}


@pytest.mark.parametrize("ssid", ["Room25", "a;b", "x:y,z", 'say "hi"', "back\\slash", "Café ☕"])
def test_a_phone_reads_back_the_network_it_was_given(ssid: str) -> None:
    password = ssid[::-1] + ';:,\\"-pad'
    assert _fields(wifi_join_text(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "room25.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_join_settings_are_read(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            '[web]\npublic_address = "room25.local"\n'
            '[hotspot]\nssid = "Room25"\npassword = "choose-8-or-more"\n',
        )
    )
    assert config.web.public_address == "room25.local"
    assert (config.hotspot.ssid, config.hotspot.password) == ("Room25", "choose-8-or-more")
    assert load_config(write(tmp_path, '[web]\npublic_address = "10.42.0.1"\n')).web == (
        Config().web.__class__(public_address="10.42.0.1")
    )
    assert Config().hotspot.ssid == "" and Config().web.public_address == ""


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[web]\npublic_address = "http://10.42.0.1:8025/"', "no http://, no port"),
        ('[web]\npublic_address = "10.42.0.1:8025"', "no http://, no port"),
        ('[web]\npublic_address = "10.42.0"', "an IPv4 address or a host name"),
        ('[web]\npublic_address = "999.1.1.1"', "an IPv4 address or a host name"),
        ("[web]\npublic_address = 10", "an IPv4 address or a host name"),
        ('[hotspot]\nssid = "' + "x" * 33 + '"', "at most 32 bytes"),
        ('[hotspot]\nssid = "tab\\there"', "at most 32 bytes"),
    ],
)
def test_bad_join_settings_are_named_and_change_nothing(
    tmp_path: Path, caplog, text: str, words: str
) -> None:
    with caplog.at_level(logging.WARNING, "companion.config"):
        config = load_config(write(tmp_path, text))
    assert config == Config()
    assert "line 2" in caplog.text and words in caplog.text


@pytest.mark.parametrize("password", ["short", "x" * 64, "accentué-long"])
def test_a_bad_hotspot_password_is_refused_without_being_logged(
    tmp_path: Path, caplog, password: str
) -> None:
    with caplog.at_level(logging.WARNING, "companion.config"):
        text = f'[hotspot]\nssid = "Room25"\npassword = "{password}"'
        config = load_config(write(tmp_path, text))
    assert config.hotspot.password == "" and config.hotspot.ssid == "Room25"
    assert "hotspot.password = (hidden) is not a WPA2 password of 8 to 63" in caplog.text
    assert password not in caplog.text


# -- in a real network namespace ------------------------------------------------------------


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture
def namespace() -> Iterator[str]:
    """A network namespace of its own (needs root and iproute2), loopback up, nothing else."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("a network namespace needs root and iproute2")
    name = f"room25-lan-{os.getpid()}"
    try:
        _ip("netns", "add", name)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"ip netns add failed: {error.stderr.decode().strip()}")
    try:
        _ip("-n", name, "link", "set", "lo", "up")
        yield name
    finally:
        _ip("netns", "delete", name)


def _add(namespace: str, interface: str, cidr: str) -> None:
    """An interface standing for wlan0 or eth0 (one end of a veth pair: the kernel may lack the
    dummy type), up, with an address and no default route."""
    peer = f"{interface}-peer"
    _ip("-n", namespace, "link", "add", interface, "type", "veth", "peer", "name", peer)
    _ip("-n", namespace, "addr", "add", cidr, "dev", interface)
    _ip("-n", namespace, "link", "set", peer, "up")
    _ip("-n", namespace, "link", "set", interface, "up")


PRINT_ADDRESS = "from companion.lan import join_address; print(join_address(8025))"


def _address_inside(namespace: str) -> str:
    found = subprocess.run(
        ["ip", "netns", "exec", namespace, sys.executable, "-c", PRINT_ADDRESS],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return found.stdout.strip()


def test_in_a_namespace_the_hotspot_address_is_the_join_address(namespace: str) -> None:
    assert _address_inside(namespace) == "http://127.0.0.1:8025/"  # nothing else yet
    _add(namespace, "wlan0", "10.42.0.1/24")
    routes = subprocess.run(
        ["ip", "-n", namespace, "route", "show", "default"], capture_output=True, text=True
    )
    assert routes.stdout.strip() == ""  # as on the hotspot: no default route
    assert _address_inside(namespace) == "http://10.42.0.1:8025/"
    _add(namespace, "eth0", "192.168.1.20/24")
    _ip("-n", namespace, "route", "add", "default", "via", "192.168.1.1")
    assert _address_inside(namespace) == "http://10.42.0.1:8025/"  # still the hotspot


def test_in_a_namespace_a_wifi_that_comes_up_later_is_seen(namespace: str) -> None:
    """One process, as the service: the address is read again after wlan0 comes up."""
    script = (
        "import sys\nfrom companion.lan import join_host\n"
        "print(join_host(), flush=True)\nsys.stdin.readline()\nprint(join_host(), flush=True)\n"
    )
    process = subprocess.Popen(
        ["ip", "netns", "exec", namespace, sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        assert process.stdout.readline().strip() == "127.0.0.1"
        _add(namespace, "wlan0", "10.42.0.1/24")
        process.stdin.write("\n")
        process.stdin.flush()
        assert process.stdout.readline().strip() == "10.42.0.1"
    finally:
        process.stdin.close()
        assert process.wait(timeout=10) == 0
