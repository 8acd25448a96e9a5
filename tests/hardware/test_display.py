"""The OLED's behaviour over time: redraw only on change, announcements in turn, the alarm
flashing, dimming and sleeping when idle, and a display that fails, goes missing and comes back.

The frames go through luma's own drivers: its dummy device, and its real SSD1306 driver over
luma's I2C interface, whose documented seam is the smbus object it writes to (`i2c(bus=...)`).
The bus below stands for the wire: it keeps what the driver sent, and answers "remote I/O error"
(EREMOTEIO, what the kernel says when the OLED does not acknowledge) while it is unplugged.
"""

from __future__ import annotations

import errno
import itertools
from collections.abc import Callable

from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from companion.hardware.display import (
    DIM_CONTRAST,
    FRAME_GAP,
    HOLD,
    NUDGE_EVERY,
    RETRY,
    RETRY_MAX,
    Display,
)
from companion.hardware.gallery import sample_updates
from companion.hardware.moments import announcements, steady_moment
from companion.hardware.screens import frame
from companion.session.notices import Notice

OLED_MISSING = Notice("oled_missing")
COMMAND_MODE = 0x00  # luma's i2c: the control byte before command bytes (0x40 before data)
DISPLAY_OFF, DISPLAY_ON, SET_CONTRAST = 0xAE, 0xAF, 0x81  # the SSD1306 command table


class Wire:
    """The I2C wire to the OLED, as luma's unmanaged `i2c(bus=...)` uses it."""

    def __init__(self) -> None:
        self.plugged = True
        self.blocks = 0
        self.commands: list[list[int]] = []

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if not self.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.blocks += 1
        if register == COMMAND_MODE:
            self.commands.append(list(data))


def _oled(wire: Wire):
    return lambda: ssd1306(i2c(bus=wire, address=0x3C))


def _dummies() -> tuple[list, Callable]:
    """Every luma dummy device opened, and the opener that makes them."""
    devices: list = []

    def open_device():
        devices.append(dummy(width=128, height=64, mode="1"))
        return devices[-1]

    return devices, open_device


def test_only_a_changed_picture_is_sent(ticks) -> None:
    devices, open_device = _dummies()
    display = Display(open_device, clock=ticks)
    samples = sample_updates()
    display.show(samples["action"])
    sent = display.pushed
    for _ in range(5):
        display.show(samples["action"])
        ticks.advance(1)
        display.tick()
    assert display.pushed == sent
    display.show(samples["programming"])
    assert display.pushed == sent + 1
    assert devices[0].image.tobytes() == display.frame.tobytes()


def test_announcements_in_turn_then_the_steady_screen(ticks) -> None:
    display = Display(None, clock=ticks)
    samples = sample_updates()
    action = samples["action"]
    display.show(action)
    steady = display.frame.tobytes()
    both = {**action, "events": samples["end_of_turn"]["events"] + samples["card"]["events"]}
    ticks.advance(FRAME_GAP)
    display.show(both)
    card = display.frame.tobytes()
    assert card != steady
    ticks.advance(HOLD["card"] + 0.1)
    display.tick()
    end_of_turn = display.frame.tobytes()
    assert end_of_turn not in (card, steady)
    ticks.advance(HOLD["end_of_turn"] + 0.1)
    display.tick()
    assert display.frame.tobytes() == steady


def test_the_alarm_flashes(ticks) -> None:
    display = Display(None, clock=ticks)
    display.show(sample_updates()["alarm"])
    pictures = []
    for _ in range(4):
        pictures.append(display.frame.tobytes())
        ticks.advance(0.5)
        display.tick()
    assert pictures[0] == pictures[2] != pictures[1] == pictures[3]


def test_dims_then_sleeps_without_input_and_wakes_on_a_press(ticks) -> None:
    """What the SSD1306 driver sends: the contrast lowered, the panel switched off, then both
    back on a press."""
    wire = Wire()
    display = Display(_oled(wire), clock=ticks, dim_after=60, contrast=200)
    display.show(sample_updates()["action"])
    assert display.dimmed == "on"
    sent = len(wire.commands)
    ticks.advance(61)
    display.tick()
    assert display.dimmed == "dim"
    assert wire.commands[sent : sent + 2] == [[SET_CONTRAST, DIM_CONTRAST], [DISPLAY_ON]]
    sent = len(wire.commands)
    ticks.advance(300)
    display.tick()
    assert display.dimmed == "off"
    assert wire.commands[sent] == [DISPLAY_OFF]
    assert [DISPLAY_ON] not in wire.commands[sent:]  # the periodic refresh keeps it off
    sent = len(wire.commands)
    display.touched()
    assert display.dimmed == "on"
    assert wire.commands[sent:] == [[SET_CONTRAST, 200], [DISPLAY_ON]]


def test_a_display_failing_on_write_is_reported_once_and_comes_back(ticks) -> None:
    wire = Wire()
    problems = []
    display = Display(_oled(wire), clock=ticks, on_problem=problems.append)
    samples = sample_updates()
    display.show(samples["action"])
    assert display.connected
    wire.plugged = False  # the cable is pulled mid-game
    ticks.advance(FRAME_GAP)
    display.show(samples["programming"])
    ticks.advance(FRAME_GAP)
    display.show(samples["end_of_turn"])
    assert not display.connected
    assert problems == [OLED_MISSING]
    assert display.frame.tobytes() != b""  # the picture goes on for the virtual panel
    ticks.advance(RETRY_MAX)
    display.tick()  # still unplugged: retried, not reported again
    assert problems == [OLED_MISSING]
    wire.plugged = True
    sent = wire.blocks
    ticks.advance(RETRY_MAX)
    display.tick()
    assert display.connected
    assert problems == [OLED_MISSING, None]
    assert wire.blocks > sent  # the driver's start-up commands and the current picture


def test_closing_clears_and_switches_off_the_oled(ticks) -> None:
    devices, open_device = _dummies()
    display = Display(open_device, clock=ticks)
    display.show(sample_updates()["action"])
    assert devices[0].image.getbbox() is not None
    display.close()
    assert devices[0].image.getbbox() is None  # luma's cleanup clears the picture
    assert not display.connected


def test_a_missing_i2c_bus_is_a_problem_not_a_crash(ticks) -> None:
    problems = []
    display = Display(
        lambda: ssd1306(i2c(port=9, address=0x3C)),  # no /dev/i2c-9 on this machine
        clock=ticks,
        on_problem=problems.append,
    )
    display.show(sample_updates()["action"])
    assert not display.connected
    assert problems == [OLED_MISSING]


def test_hardware_problems_are_announced_and_kept_on_screen(ticks) -> None:
    display = Display(None, clock=ticks)
    display.show(sample_updates()["action"])
    plain = display.frame.tobytes()
    display.set_notices([Notice("buzzer_missing").as_dict()])
    problem = display.frame.tobytes()
    ticks.advance(10)
    display.tick()
    footer = display.frame.tobytes()
    assert len({plain, problem, footer}) == 3


def test_the_programming_time_limit_counts_down_between_updates(ticks) -> None:
    """No update comes while the seats program: the display counts the seconds itself."""
    display = Display(None, clock=ticks)
    update = sample_updates()["programming"]  # 42 s left when it came
    display.show(update)
    ticks.advance(1.0)
    display.tick()
    session = {**update["session"], "timer": {**update["session"]["timer"], "left": 41}}
    assert display.frame.tobytes() == frame("programming", {**update, "session": session}).tobytes()


def _game_updates(count: int, seed: int = 5) -> list[dict]:
    """The public updates of a real game played by random legal commands, each with its
    events (cards, ends of turn, eliminations...), as the session publishes them."""
    import random

    from companion.engine import apply, events_for, legal_commands, public_view, start, waiting_for

    rng = random.Random(seed)
    state = start({"edition": "season2", "mode": "cooperation", "players": 4, "seed": seed}).state
    updates = []
    while state.outcome is None and len(updates) < count:
        seats = sorted({c["seat"] for c in public_view(state)["characters"].values()})
        options = [c for s in seats for c in legal_commands(state, s) if c["type"] != "unlock"]
        result = apply(state, rng.choice(options))
        state = result.state
        updates.append(
            {
                "game": "g",
                "version": state.version,
                "view": public_view(state),
                "events": events_for(result.events, None),
                "waiting": waiting_for(state).as_dict(),
                "session": {"paused": False, "timer": None, "notices": [], "lock_ins": []},
            }
        )
    return updates


def test_after_a_burst_the_oled_shows_the_game_as_it_is_now(ticks) -> None:
    """Fifty commands in a second, many with announcements: one second later the OLED shows
    what a display that saw only the last update shows, never an older moment."""
    updates = _game_updates(200)
    announced = [u for u in updates if announcements(u)]
    assert len(announced) >= 5
    burst = updates[: updates.index(announced[4]) + 1]
    burst = [*burst, *[u for u in updates[len(burst) :] if not announcements(u)][:1]]
    display = Display(None, clock=ticks)
    for update in burst[-50:]:
        display.show(update)
        ticks.advance(1 / 50)
    fresh = Display(None, clock=ticks)
    fresh.show(burst[-1])
    ticks.advance(1.0)
    display.tick()
    fresh.tick()
    assert display.frame.tobytes() == fresh.frame.tobytes()
    last = burst[-1]
    assert display.frame.tobytes() == frame(steady_moment(last), {**last, "nudge": 0}).tobytes()


def test_a_later_announcement_replaces_the_one_showing(ticks) -> None:
    samples = sample_updates()
    display = Display(None, clock=ticks)
    display.show(samples["card"])
    ticks.advance(0.5)
    display.show(samples["end_of_turn"])
    moment, narrowed = announcements(samples["end_of_turn"])[0]
    assert display.frame.tobytes() == frame(moment, narrowed).tobytes()


def test_a_cleared_problem_is_not_shown_afterwards(ticks) -> None:
    """The OLED goes missing during a card and comes back: once the card is over it shows the
    game, not the "OLED missing" it had while it was away."""
    wire = Wire()
    display = Display(
        _oled(wire),
        clock=ticks,
        on_problem=lambda p: display.set_notices([p.as_dict()] if p else []),
    )
    samples = sample_updates()
    display.show(samples["action"])
    wire.plugged = False
    ticks.advance(FRAME_GAP)
    display.show(samples["card"])
    assert display.problem == OLED_MISSING
    wire.plugged = True
    ticks.advance(RETRY + 0.1)
    display.tick()
    assert display.connected
    ticks.advance(HOLD["card"])
    display.tick()
    steady = frame("action", {**samples["card"], "nudge": 0}).tobytes()
    assert display.frame.tobytes() == steady


def test_the_pin_is_shown_on_demand_for_a_while(ticks) -> None:
    display = Display(None, clock=ticks, address="http://t:8025/")
    display.set_pin("481093")
    display.show(sample_updates()["join"])
    join = display.frame.tobytes()
    display.show_pin(seconds=15)
    assert display.frame.tobytes() == frame("pin", {"pin": "481093"}).tobytes()
    ticks.advance(14)
    display.tick()
    assert display.frame.tobytes() == frame("pin", {"pin": "481093"}).tobytes()
    ticks.advance(1.5)
    display.tick()
    assert display.frame.tobytes() == join


def test_the_join_screen_never_goes_dark(ticks) -> None:
    _devices, open_device = _dummies()
    display = Display(open_device, clock=ticks, dim_after=60, address="http://t:8025/")
    display.show(sample_updates()["join"])
    for _ in range(24):  # two hours without a press
        ticks.advance(300)
        display.tick()
        assert display.dimmed in ("on", "dim")
    display.show(sample_updates()["action"])
    ticks.advance(600)
    display.tick()
    assert display.dimmed == "off"  # a game left alone still sleeps (burn-in)


def test_the_join_address_is_worked_out_again_while_the_join_screen_is_up(ticks) -> None:
    """The Wi-Fi comes up after the companion: the QR code follows within seconds."""
    where = ["http://127.0.0.1:8025/"]
    display = Display(None, clock=ticks, address=lambda: where[0])
    display.show(sample_updates()["join"])
    loopback = display.frame.tobytes()
    where[0] = "http://10.42.0.1:8025/"
    ticks.advance(6)
    display.tick()
    assert display.frame.tobytes() != loopback
    expected = {**sample_updates()["join"], "address": where[0], "join_step": 1}
    assert display.frame.tobytes() == frame("join", expected).tobytes()


def test_the_status_bar_moves_by_a_pixel_now_and_then(ticks) -> None:
    display = Display(None, clock=ticks)
    display.show(sample_updates()["action"])
    seen = set()
    for _ in range(8):
        seen.add(display.frame.crop((0, 0, 128, 14)).tobytes())
        ticks.advance(180)
        display.touched()
    assert len(seen) == 4


def test_a_missing_oled_is_retried_less_and_less_often(ticks) -> None:
    """After 5 s, then 10, 20, 40 and every 60 s: a panel that is not wired costs next to
    nothing, one that is plugged back is found within a minute."""
    wire = Wire()
    wire.plugged = False
    tried = []

    def open_device():
        tried.append(ticks())
        return ssd1306(i2c(bus=wire, address=0x3C))

    display = Display(open_device, clock=ticks)
    for _ in range(300):
        ticks.advance(1)
        display.tick()
    gaps = [round(b - a) for a, b in itertools.pairwise(tried)]
    assert gaps == [5, 10, 20, 40, 60, 60, 60]


def test_the_problem_screen_is_for_a_present_problem_never_for_news(ticks) -> None:
    """Issue 28, point 3: a seat asked for or a game resumed is news, said on the bottom line of
    the game's screen; only a problem (a phone offline) takes the whole OLED, and only while it
    lasts."""
    update = sample_updates()["action"]

    def told(*notices: Notice) -> dict:
        said = [n.as_dict() for n in notices]
        return {**update, "session": {**update["session"], "notices": said}}

    def problem_screen(*notices: Notice) -> bytes:
        return frame("problem", told(*notices)).tobytes()

    def game_screen(*notices: Notice) -> bytes:
        return frame("action", {**told(*notices), "nudge": int(ticks() // NUDGE_EVERY)}).tobytes()

    display = Display(None, clock=ticks)
    news = Notice("seat_asked", {"seat": "2", "ask": "47"})
    display.show(told(news))
    assert display.frame.tobytes() == game_screen(news) != problem_screen(news)
    offline = Notice("phone_offline", {"seat": "3"})
    ticks.advance(FRAME_GAP)
    display.show(told(news, offline))
    assert display.frame.tobytes() == problem_screen(offline)
    ticks.advance(FRAME_GAP)
    display.show(told(news))  # the phone is back before the problem screen's time is up
    assert display.frame.tobytes() == game_screen(news)


def _locked(update: dict, seats: list[str]) -> dict:
    """The programming update with `seats` locked in (their boxes lit on the OLED)."""
    return {**update, "waiting": {**(update["waiting"] or {}), "locked_in": seats}}


def test_a_burst_of_updates_is_drawn_once_a_frame_gap_the_newest_last(ticks) -> None:
    """Four seats locking in within 15 ms: the first is drawn at once, the next three wait for
    the gap (an SSD1306 on I2C takes about 25 ms a picture), then only the newest is drawn."""
    programming = sample_updates()["programming"]
    display = Display(None, clock=ticks)
    display.show(_locked(programming, []))
    first, drawn = display.frame.tobytes(), display.frames
    assert display.due() is None
    for n in (1, 2, 3):
        ticks.advance(0.005)
        display.show(_locked(programming, ["1", "2", "3"][:n]))
        assert display.frame.tobytes() == first  # held back
    assert 0 < display.due() <= FRAME_GAP
    ticks.advance(display.due())
    display.tick()
    newest = frame("programming", {**_locked(programming, ["1", "2", "3"]), "nudge": 0})
    assert display.frame.tobytes() == newest.tobytes()
    assert display.frames == drawn + 1  # one picture for the three updates
    assert display.due() is None


def test_an_update_after_a_quiet_while_and_a_button_are_drawn_at_once(ticks) -> None:
    programming = sample_updates()["programming"]
    display = Display(None, clock=ticks, address="http://t:8025/")
    display.set_pin("481093")
    display.show(_locked(programming, []))
    ticks.advance(FRAME_GAP)
    display.show(_locked(programming, ["2"]))
    lit = frame("programming", {**_locked(programming, ["2"]), "nudge": 0})
    assert display.frame.tobytes() == lit.tobytes()
    display.show_pin(seconds=15)  # Menu held at once after it: the table's own button
    assert display.frame.tobytes() == frame("pin", {"pin": "481093"}).tobytes()
