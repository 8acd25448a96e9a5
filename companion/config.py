"""The companion's settings, from an optional TOML file (`room25 serve --config FILE`).

Every value has a default; a bad value is logged with its line and the default used instead, so
a typo never stops the table from playing. See docs/session.md for the file.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion import words

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Table:
    language: str = "en"  # the name of a folder of companion/words
    time_limit: int = 0  # programming time limit in seconds, 0 = off
    warning: int = 15  # seconds before the limit for the warning


@dataclass(frozen=True)
class Web:
    host: str = "0.0.0.0"
    port: int = 8025
    public_address: str = ""  # the host phones open, when the companion cannot tell it


@dataclass(frozen=True)
class Display:
    driver: str = "ssd1306"
    i2c_port: int = 1
    address: int = 0x3C
    rotation: int = 0
    contrast: int = 200
    dim_after: int = 120


@dataclass(frozen=True)
class Buzzer:
    kind: str = "passive"  # passive | active | none
    pin: int = 18
    volume: float = 0.5
    mute: bool = False


@dataclass(frozen=True)
class Buttons:
    pin_factory: str = ""
    seats: tuple[int, ...] = (5, 6, 13, 19, 26, 16, 20, 21)
    leds: tuple[int, ...] = (4, 14, 15, 23, 24, 25, 8, 7)
    next: int = 17
    back: int = 27
    menu: int = 22
    long_press: float = 1.0
    bounce: float = 0.03


@dataclass(frozen=True)
class Panel:
    port: str = ""
    usb_id: str = "2e8a:0005"
    baud: int = 115200
    allow: tuple[str, ...] = ()  # addresses (or networks) besides the Pi's own that may use /panel


@dataclass(frozen=True)
class Hotspot:
    """The Wi-Fi network the Pi makes for the table (docs/pi-setup.md), so the OLED can show a
    QR code that joins it. An empty ssid: the companion runs no hotspot of its own."""

    ssid: str = ""
    password: str = ""  # WPA2; empty for an open network


@dataclass(frozen=True)
class Voice:
    enabled: bool = True
    language: str = ""  # "" follows [table] language
    volume: float = 0.8
    mute: bool = False
    quiet_table: bool = False  # only the alarm and the end of the game
    engine: str = "espeak-ng"  # espeak-ng | piper
    model: str = ""  # a Piper voice model file (.onnx) on this machine
    device: str = ""  # an ALSA device (aplay -L); "" = the default; "none" = no speaker
    cache_mb: int = 100  # the rendered phrases kept on disk, at most (least recently said go)
    table_speaks: bool = False  # the table page says the announcements (browser speech)


@dataclass(frozen=True)
class Config:
    table: Table = field(default_factory=Table)
    web: Web = field(default_factory=Web)
    display: Display = field(default_factory=Display)
    buzzer: Buzzer = field(default_factory=Buzzer)
    buttons: Buttons = field(default_factory=Buttons)
    panel: Panel = field(default_factory=Panel)
    hotspot: Hotspot = field(default_factory=Hotspot)
    voice: Voice = field(default_factory=Voice)


SECTIONS = frozenset(f.name for f in fields(Config))
MAX_TIME_LIMIT = 3600  # seconds: the longest programming time limit, here and per game


def _int(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _number(low: float, high: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high


def _one_of(*allowed: str) -> Callable[[Any], bool]:
    return lambda v: v in allowed


def _pins(count: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and len(v) == count and all(_int(0, 27)(p) for p in v)


def _text(v: Any) -> bool:
    return isinstance(v, str)


HOST_NAME = re.compile(r"(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?)+", re.ASCII)


def _host(v: Any) -> bool:
    """An IPv4 address or a host name (`room25.local`), nothing around it; or empty."""
    if not isinstance(v, str):
        return False
    if v == "":
        return True
    if re.fullmatch(r"[0-9.]+", v):
        try:
            ipaddress.IPv4Address(v)
        except ValueError:
            return False
        return True
    return bool(HOST_NAME.fullmatch(v))


def _ssid(v: Any) -> bool:
    return isinstance(v, str) and len(v.encode("utf-8")) <= 32 and v.isprintable()


def _wpa_password(v: Any) -> bool:
    return isinstance(v, str) and (
        v == "" or (8 <= len(v) <= 63 and all(" " <= c <= "~" for c in v))
    )


def _addresses(v: Any) -> bool:
    """A list of IP addresses or networks ("192.168.1.30", "192.168.1.0/24")."""
    if not isinstance(v, list) or not all(isinstance(a, str) for a in v):
        return False
    try:
        for address in v:
            ipaddress.ip_network(address, strict=False)
    except ValueError:
        return False
    return True


# What each value may be, in words for the log, and its check.
RULES: dict[tuple[str, str], tuple[str, Callable[[Any], bool]]] = {
    ("table", "language"): (
        f"one of {', '.join(words.languages())}",
        lambda v: v in words.languages(),
    ),
    ("table", "time_limit"): (
        f"seconds from 0 (off) to {MAX_TIME_LIMIT}",
        _int(0, MAX_TIME_LIMIT),
    ),
    ("table", "warning"): ("seconds from 0 to 600", _int(0, 600)),
    ("web", "host"): ("an address such as 0.0.0.0", _text),
    ("web", "port"): ("a port from 1 to 65535", _int(1, 65535)),
    ("web", "public_address"): (
        "an IPv4 address or a host name such as 192.168.1.20 or room25.local "
        "(no http://, no port), or empty",
        _host,
    ),
    ("display", "driver"): (
        "ssd1306, sh1106, ssd1309 or none",
        _one_of("ssd1306", "sh1106", "ssd1309", "none"),
    ),
    ("display", "i2c_port"): ("an I2C bus number from 0 to 10", _int(0, 10)),
    ("display", "address"): ("an I2C address from 0x03 to 0x77", _int(0x03, 0x77)),
    ("display", "rotation"): ("0, 1, 2 or 3", _int(0, 3)),
    ("display", "contrast"): ("from 0 to 255", _int(0, 255)),
    ("display", "dim_after"): ("seconds from 0 (never) to 86400", _int(0, 86400)),
    ("buzzer", "kind"): ("passive, active or none", _one_of("passive", "active", "none")),
    ("buzzer", "pin"): ("a GPIO number from 0 to 27", _int(0, 27)),
    ("buzzer", "volume"): ("from 0.0 to 1.0", _number(0.0, 1.0)),
    ("buzzer", "mute"): ("true or false", lambda v: isinstance(v, bool)),
    ("buttons", "pin_factory"): ("a gpiozero pin factory name, or empty", _text),
    ("buttons", "seats"): ("8 GPIO numbers", _pins(8)),
    ("buttons", "leds"): ("8 GPIO numbers", _pins(8)),
    ("buttons", "next"): ("a GPIO number from 0 to 27", _int(0, 27)),
    ("buttons", "back"): ("a GPIO number from 0 to 27", _int(0, 27)),
    ("buttons", "menu"): ("a GPIO number from 0 to 27", _int(0, 27)),
    ("buttons", "long_press"): ("seconds from 0.2 to 10", _number(0.2, 10.0)),
    ("buttons", "bounce"): ("seconds from 0 to 0.5", _number(0.0, 0.5)),
    ("panel", "port"): ("a serial device such as /dev/ttyACM0, or empty (auto)", _text),
    ("panel", "usb_id"): (
        "vendor:product in hex such as 2e8a:0005",
        lambda v: isinstance(v, str) and bool(re.fullmatch(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}", v)),
    ),
    ("panel", "baud"): ("a speed from 1200 to 4000000", _int(1200, 4_000_000)),
    ("hotspot", "ssid"): ("a network name of at most 32 bytes, or empty", _ssid),
    ("hotspot", "password"): (
        "a WPA2 password of 8 to 63 plain ASCII characters, or empty (an open network)",
        _wpa_password,
    ),
    ("panel", "allow"): (
        'a list of IP addresses or networks such as ["192.168.1.30"]',
        _addresses,
    ),
    ("voice", "enabled"): ("true or false", lambda v: isinstance(v, bool)),
    ("voice", "language"): (
        f'one of {", ".join(words.languages())} or "" (the table\'s)',
        lambda v: v == "" or v in words.languages(),
    ),
    ("voice", "volume"): ("from 0.0 to 1.0", _number(0.0, 1.0)),
    ("voice", "mute"): ("true or false", lambda v: isinstance(v, bool)),
    ("voice", "quiet_table"): ("true or false", lambda v: isinstance(v, bool)),
    ("voice", "table_speaks"): ("true or false", lambda v: isinstance(v, bool)),
    ("voice", "engine"): ("espeak-ng or piper", _one_of("espeak-ng", "piper")),
    ("voice", "model"): (
        "the path of a Piper voice model ending in .onnx, or empty",
        lambda v: isinstance(v, str) and (v == "" or v.endswith(".onnx")),
    ),
    ("voice", "cache_mb"): ("a whole number of megabytes from 1 to 10000", _int(1, 10_000)),
    ("voice", "device"): (
        'an ALSA device name (aplay -L), "" for the default or "none"',
        lambda v: isinstance(v, str) and bool(re.fullmatch(r"[A-Za-z0-9_:,=.\-]*", v)),
    ),
}
# Never written to the log, even when refused.
SECRET = frozenset({("hotspot", "password")})


def _line_of(text: str, section: str, key: str | None = None) -> int | None:
    """The line of `[section]` or of `key` inside it (tomllib does not say)."""
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.fullmatch(r"\[\s*([A-Za-z0-9_-]+)\s*\](\s*#.*)?", stripped)
        if header:
            current = header[1]
            if key is None and current == section:
                return number
        elif (
            current == section and key is not None and re.match(rf"{re.escape(key)}\s*=", stripped)
        ):
            return number
    return None


def _where(path: Path, text: str, section: str, key: str | None = None) -> str:
    line = _line_of(text, section, key)
    return f"{path}, line {line}" if line else str(path)


def load_config(path: Path | str | None) -> Config:
    """The settings in `path` (None: all defaults). Never raises on a bad value."""
    config = Config()
    if path is None:
        return config
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        log.warning("config %s cannot be read (%s): using the defaults", path, error.strerror)
        return config
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        log.warning("config %s is not valid TOML (%s): using the defaults", path, error)
        return config
    sections: dict[str, Any] = {}
    for name, values in data.items():
        if name not in SECTIONS or not isinstance(values, dict):
            log.warning("%s: unknown section [%s], ignored", _where(path, text, name), name)
            continue
        section = getattr(config, name)
        changes: dict[str, Any] = {}
        for key, value in values.items():
            rule = RULES.get((name, key))
            if rule is None:
                log.warning(
                    "%s: unknown setting %s.%s, ignored", _where(path, text, name, key), name, key
                )
                continue
            words, check = rule
            default = getattr(section, key)
            if not check(value):
                hidden = (name, key) in SECRET
                log.warning(
                    "%s: %s.%s = %s is not %s; using the default %s",
                    _where(path, text, name, key),
                    name,
                    key,
                    "(hidden)" if hidden else repr(value),
                    words,
                    "(hidden)" if hidden else repr(default),
                )
                continue
            changes[key] = tuple(value) if isinstance(value, list) else value
        sections[name] = replace(section, **changes)
    return replace(config, **sections)
