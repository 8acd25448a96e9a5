"""The companion's settings, from an optional TOML file (`room25 serve --config FILE`).

Every value has a default; a bad value is logged with its line and the default used instead, so
a typo never stops the table from playing; the log says it in the catalogue's words
(`config_*`, words/<lang>/config.json). See docs/session.md for the file.
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
from companion.words.locale import cli_language
from companion.words.said import Said, say

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Table:
    language: str = field(default_factory=words.fallback)  # a folder of companion/words
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


# What each value may be, in words for the log (a text of the catalogue, config.json), and
# its check.
_BOOLEAN = (say("config_expects_boolean"), lambda v: isinstance(v, bool))
_GPIO = (say("config_expects_gpio"), _int(0, 27))
_SHARE = (say("config_expects_share"), _number(0.0, 1.0))
_PINS = (say("config_expects_pins", n=8), _pins(8))
RULES: dict[tuple[str, str], tuple[Said, Callable[[Any], bool]]] = {
    ("table", "language"): (
        say("config_expects_language", languages=list(words.languages())),
        lambda v: v in words.languages(),
    ),
    ("table", "time_limit"): (
        say("config_expects_time_limit", most=MAX_TIME_LIMIT),
        _int(0, MAX_TIME_LIMIT),
    ),
    ("table", "warning"): (say("config_expects_warning"), _int(0, 600)),
    ("web", "host"): (say("config_expects_host"), _text),
    ("web", "port"): (say("config_expects_port"), _int(1, 65535)),
    ("web", "public_address"): (say("config_expects_public_address"), _host),
    ("display", "driver"): (
        say("config_expects_driver"),
        _one_of("ssd1306", "sh1106", "ssd1309", "none"),
    ),
    ("display", "i2c_port"): (say("config_expects_i2c_port"), _int(0, 10)),
    ("display", "address"): (say("config_expects_i2c_address"), _int(0x03, 0x77)),
    ("display", "rotation"): (say("config_expects_rotation"), _int(0, 3)),
    ("display", "contrast"): (say("config_expects_contrast"), _int(0, 255)),
    ("display", "dim_after"): (say("config_expects_dim_after"), _int(0, 86400)),
    ("buzzer", "kind"): (say("config_expects_buzzer"), _one_of("passive", "active", "none")),
    ("buzzer", "pin"): _GPIO,
    ("buzzer", "volume"): _SHARE,
    ("buzzer", "mute"): _BOOLEAN,
    ("buttons", "pin_factory"): (say("config_expects_pin_factory"), _text),
    ("buttons", "seats"): _PINS,
    ("buttons", "leds"): _PINS,
    ("buttons", "next"): _GPIO,
    ("buttons", "back"): _GPIO,
    ("buttons", "menu"): _GPIO,
    ("buttons", "long_press"): (say("config_expects_long_press"), _number(0.2, 10.0)),
    ("buttons", "bounce"): (say("config_expects_bounce"), _number(0.0, 0.5)),
    ("panel", "port"): (say("config_expects_serial_port"), _text),
    ("panel", "usb_id"): (
        say("config_expects_usb_id"),
        lambda v: isinstance(v, str) and bool(re.fullmatch(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}", v)),
    ),
    ("panel", "baud"): (say("config_expects_baud"), _int(1200, 4_000_000)),
    ("hotspot", "ssid"): (say("config_expects_ssid"), _ssid),
    ("hotspot", "password"): (say("config_expects_password"), _wpa_password),
    ("panel", "allow"): (say("config_expects_allow"), _addresses),
    ("voice", "enabled"): _BOOLEAN,
    ("voice", "language"): (
        say("config_expects_voice_language", languages=list(words.languages())),
        lambda v: v == "" or v in words.languages(),
    ),
    ("voice", "volume"): _SHARE,
    ("voice", "mute"): _BOOLEAN,
    ("voice", "quiet_table"): _BOOLEAN,
    ("voice", "table_speaks"): _BOOLEAN,
    ("voice", "engine"): (say("config_expects_engine"), _one_of("espeak-ng", "piper")),
    ("voice", "model"): (
        say("config_expects_model"),
        lambda v: isinstance(v, str) and (v == "" or v.endswith(".onnx")),
    ),
    ("voice", "cache_mb"): (say("config_expects_cache_mb"), _int(1, 10_000)),
    ("voice", "device"): (
        say("config_expects_device"),
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


def _where(path: Path, text: str, section: str, key: str | None = None) -> Said:
    line = _line_of(text, section, key)
    return (
        say("config_at_line", path=str(path), line=line)
        if line
        else say("config_at", path=str(path))
    )


def _language_of(data: dict[str, Any]) -> str:
    """The language of the file's own lines: its [table] language when it is one of the
    catalogue's, else the environment's (docs/languages.md)."""
    table = data.get("table")
    asked = table.get("language", "") if isinstance(table, dict) else ""
    return cli_language(configured=asked if isinstance(asked, str) else "")


def _warn(lang: str, key: str, /, **params: object) -> None:
    log.warning("%s", say(key, **params).text(lang))


def load_config(path: Path | str | None) -> Config:
    """The settings in `path` (None: all defaults). Never raises on a bad value; each one is
    logged in the language of the file (`_language_of`)."""
    config = Config()
    if path is None:
        return config
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        _warn(cli_language(), "config_unreadable", path=str(path), why=error.strerror)
        return config
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        _warn(cli_language(), "config_not_toml", path=str(path), why=str(error))
        return config
    lang = _language_of(data)
    sections: dict[str, Any] = {}
    for name, values in data.items():
        if name not in SECTIONS or not isinstance(values, dict):
            _warn(lang, "config_unknown_section", where=_where(path, text, name), section=name)
            continue
        section = getattr(config, name)
        changes: dict[str, Any] = {}
        for key, value in values.items():
            rule = RULES.get((name, key))
            where = _where(path, text, name, key)
            if rule is None:
                _warn(lang, "config_unknown_setting", where=where, section=name, key=key)
                continue
            expects, check = rule
            default = getattr(section, key)
            if not check(value):
                hidden = say("config_hidden") if (name, key) in SECRET else None
                _warn(
                    lang, "config_bad_value", where=where, section=name, key=key,
                    value=hidden or repr(value), expects=expects, default=hidden or repr(default),
                )  # fmt: skip
                continue
            changes[key] = tuple(value) if isinstance(value, list) else value
        sections[name] = replace(section, **changes)
    return replace(config, **sections)
