"""wiring/ agrees with itself and with the code, and following it damages nothing.

The pin map in the README, room25.toml, the built-in defaults and the diagram's labels name the
same GPIOs, on the header pins gpiozero's board data gives them. Every buzzer sits behind the NPN
stage with its 10 kΩ base pull-down; the flyback diode (magnetic buzzer) and the parallel
resistor (piezo disc) are drawn and listed; the seat buttons' long wires get their series
resistor and the pull-up and capacitor advice; the parts list recommends the 2.42" SSD1309,
which the diagram draws with its CS, DC and RES wiring. The pin map for an I2S audio hat leaves
the hat its pins.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config, load_config

WIRING = Path(__file__).resolve().parents[2] / "wiring"
SVG = "{http://www.w3.org/2000/svg}"

# Each part of the buzzer stage and the seat lines: the diagram's group, and its value, which the
# diagram and the parts list must both give.
PARTS = {
    "base-pull-down": "10 kΩ",
    "flyback-diode": "1N4148",
    "piezo-resistor": "1 kΩ",
    **{f"seat-{seat}-series-resistor": "1 kΩ" for seat in range(1, 9)},
}


def _header() -> dict[int, str]:
    """Header pin number -> its name ("GPIO18", "5V", "GND"), from gpiozero's board data."""
    factory = MockFactory()
    try:
        return {number: pin.name for number, pin in factory.board_info.headers["J8"].pins.items()}
    finally:
        factory.close()


def _uses(config: Config) -> dict[str, int]:
    """What each GPIO does under `config`, named the way the test reads README and diagram."""
    assert config.display.i2c_port == 1  # I2C bus 1 is GPIO2 (SDA) and GPIO3 (SCL) on every Pi
    buttons = config.buttons
    uses = {"SDA": 2, "SCL": 3, "buzzer": config.buzzer.pin}
    uses |= {"Next": buttons.next, "Back": buttons.back, "Menu": buttons.menu}
    for seat, (button, led) in enumerate(zip(buttons.seats, buttons.leds, strict=True), start=1):
        uses |= {f"seat {seat} button": button, f"seat {seat} LED": led}
    return uses


def _section(title: str) -> list[list[str]]:
    """The rows of the table under `## title` in wiring/README.md, as lists of cells."""
    text = (WIRING / "README.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {title}")[1].split("\n## ")[0]
    rows = [line.strip().strip("|").split("|") for line in body.splitlines() if line[:1] == "|"]
    return [[cell.strip() for cell in row] for row in rows[2:]]  # the head and its rule left out


def _readme_uses() -> dict[str, int]:
    """The pin map: each row names its uses in order, each 'GPIO (header pin)'."""
    header = _header()
    uses: dict[str, int] = {}
    for what, pins, _ in _section("Pin map"):
        pairs = [(int(g), int(p)) for g, p in re.findall(r"(\d+) \((\d+)\)", pins)]
        for gpio, number in pairs:
            assert header[number] == f"GPIO{gpio}", f"README: GPIO{gpio} is not pin {number}"
        seats = re.fullmatch(r"seat (buttons|LEDs) (\d)–(\d)", what)
        if seats:
            kind = seats[1][:-1]
            names = [f"seat {n} {kind}" for n in range(int(seats[2]), int(seats[3]) + 1)]
        else:
            names = {"OLED SDA / SCL": ["SDA", "SCL"], "buzzer": ["buzzer"]}.get(
                what, what.split(" / ")
            )
        assert len(names) == len(pairs), f"README: {what!r} names {len(pairs)} pins"
        uses |= {name: gpio for name, (gpio, _) in zip(names, pairs, strict=True)}
    return uses


def _texts(element: ElementTree.Element) -> list[ElementTree.Element]:
    return list(element.iter(f"{SVG}text"))


def _svg_uses(root: ElementTree.Element) -> dict[str, int]:
    """The header's labels ('GPIO18 (12)', 'GND (39, 34, 30...)') checked against the board, and
    what each GPIO's wire leads to: the label at the end of its row."""
    header = _header()
    texts = _texts(root)
    uses: dict[str, int] = {}
    for label in texts:
        if label.get("text-anchor") != "end" or float(label.get("x", 0)) > 270:
            continue
        name = (label.text or "").split()[0]
        numbers = re.search(r"\(([\d, ]+)(?:\.\.\.)?\)$", label.text or "")
        assert numbers, f"diagram: {label.text!r} gives no header pin"
        for number in numbers[1].split(","):
            assert header[int(number)] == name, f"diagram: {label.text!r}, pin {number}"
        if not name.startswith("GPIO"):
            continue
        row = float(label.get("y", 0))
        ends = [
            t.text or ""
            for t in texts
            if float(t.get("x", 0)) > 270 and abs(float(t.get("y", 0)) - row) <= 2
        ]
        words = " ".join(ends)
        found = re.search(r"seat \d (button|LED)|Next|Back|Menu|SDA|SCL|NPN", words)
        assert found, f"diagram: {label.text!r} leads to nothing named ({words!r})"
        uses[found[0].replace("NPN", "buzzer")] = int(name.removeprefix("GPIO"))
    return uses


def test_readme_toml_defaults_and_diagram_name_the_same_pins() -> None:
    defaults = _uses(Config())
    assert _uses(load_config(WIRING / "room25.toml")) == defaults
    assert _readme_uses() == defaults
    assert _svg_uses(ElementTree.parse(WIRING / "wiring.svg").getroot()) == defaults


def test_the_diagram_draws_every_safety_part_with_its_value() -> None:
    root = ElementTree.parse(WIRING / "wiring.svg").getroot()
    groups = {group.get("id"): group for group in root.iter(f"{SVG}g")}
    for part, value in PARTS.items():
        assert part in groups, f"diagram: no {part}"
        shapes = [e for e in groups[part] if e.tag in (f"{SVG}rect", f"{SVG}polygon")]
        assert shapes, f"diagram: {part} is not drawn"
        labels = [t.text or "" for t in _texts(groups[part])]
        assert any(value in label for label in labels), f"diagram: {part} is not {value}"
    advice = " ".join(t.text or "" for t in _texts(groups["long-wire-advice"]))
    assert "10 kΩ from the GPIO to 3V3" in advice and "100 nF from the GPIO to GND" in advice


@pytest.mark.parametrize("name", ["README.md", "wiring.svg"])
def test_no_buzzer_is_wired_straight_to_a_gpio(name: str) -> None:
    text = (WIRING / name).read_text(encoding="utf-8")
    assert not re.search(r"\bdirect(ly)?\b", text), f"{name} offers a buzzer straight on a GPIO"
    buzzer = next(notes for what, _, notes in _section("Pin map") if what == "buzzer")
    assert "NPN" in buzzer and "every buzzer" in buzzer


def test_the_parts_list_gives_what_the_diagram_draws() -> None:
    parts = {" ".join(row[1:]) for row in _section("Parts list")}

    def listed(*words: str) -> bool:
        return any(all(word in part for word in words) for part in parts)

    assert listed("NPN", "every buzzer")
    assert listed(PARTS["base-pull-down"], "base to GND")
    assert listed(PARTS["flyback-diode"], "magnetic")
    assert listed(PARTS["piezo-resistor"], "across a piezo disc")
    assert listed(PARTS["seat-1-series-resistor"], "in series with each seat button")
    assert listed("10 kΩ", "100 nF", "3V3", "longer than")
    assert listed('2.42"', "SSD1309", "recommended")


# An I2S hat's pins: bit clock, word clock, data in (microphones, ADCs), data out.
I2S_HAT = {18, 19, 20, 21}


def test_the_i2s_hat_pin_map_leaves_the_hat_its_pins(caplog) -> None:
    config = load_config(WIRING / "room25-i2s-hat.toml")
    assert not caplog.records, [r.getMessage() for r in caplog.records]  # every value taken
    uses = _uses(config)
    assert uses != _uses(Config())
    assert not set(uses.values()) & I2S_HAT, uses
    assert len(set(uses.values())) == len(uses), "a GPIO used twice"
    header = _header()
    assert all(f"GPIO{gpio}" in header.values() for gpio in uses.values())


def test_the_diagram_draws_the_ssd1309s_cs_dc_and_res_wiring() -> None:
    root = ElementTree.parse(WIRING / "wiring.svg").getroot()
    groups = {group.get("id"): group for group in root.iter(f"{SVG}g")}
    labels = " ".join(t.text or "" for t in _texts(groups["oled-ssd1309-pins"]))
    for wiring in ("CS", "→ GND", "DC", "→ GND (0x3C)", "RES", "10 kΩ", "→ 3V3", "100 nF → GND"):
        assert wiring in labels, wiring
    assert any(e.tag == f"{SVG}rect" for e in groups["oled-ssd1309-pins"])  # the resistor
    names = " ".join(t.text or "" for t in _texts(root))
    assert 'driver = "ssd1309"' in names
