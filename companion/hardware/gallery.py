"""Every OLED screen rendered to PNG (`room25 screens OUTDIR`), from real engine positions.

The updates are built the way the session builds them, from `public_view`, `waiting_for` and
public events of a real game, so the gallery shows exactly what a table would see.
"""

from __future__ import annotations

from pathlib import Path

from luma.core.device import dummy

from companion import words
from companion.engine import apply, legal_commands, load_deck, public_view, start, waiting_for
from companion.lan import wifi_join_text
from companion.session import TableUpdate
from companion.session.notices import Notice
from companion.teaching.setup import setup_steps

from .display import QUIET_SESSION
from .moments import announcements, steady_moment
from .screens import frame

JOIN_ADDRESS = "http://10.42.0.1:8025/"  # NetworkManager's hotspot address
HOTSPOT = {"text": wifi_join_text("Room 25", "cube-rouge-42"), "ssid": "Room 25"}


def _update(state, events: list[dict] | None = None, **session: object) -> dict:
    view = public_view(state)
    return {
        "game": "sample",
        "version": view["version"],
        "view": view,
        "events": events or [],
        "waiting": waiting_for(state).as_dict(),
        "session": {**QUIET_SESSION, **session},
        "resync": False,
    }


def _first(state, seat: str, kind: str) -> dict:
    return next(c for c in legal_commands(state, seat) if c["type"] == kind)


def _until(state, phase: str):
    """Play the first legal command of whoever the game waits for until it waits in `phase`."""
    while waiting_for(state).phase != phase:
        seat = waiting_for(state).seats[0]
        state = apply(state, legal_commands(state, seat)[0]).state
    return state


def sample_updates() -> dict[str, dict]:
    """One public update per screen, named after its moment."""
    game = start({"edition": "season2", "mode": "cooperation", "players": 4, "seed": 3})
    state = game.state
    samples: dict[str, dict] = {
        "join": {
            "game": None,
            "version": 0,
            "view": None,
            "events": [],
            "waiting": None,
            "session": QUIET_SESSION,
            "resync": False,
        },
        "setup": _update(state),
    }
    setup = {"edition": "season2", "mode": "cooperation", "players": 4}
    steps = [step.as_dict() for step in setup_steps(samples["setup"]["view"], setup)]
    samples["setup_step"] = _update(state, setup={"at": 0, "steps": steps})
    samples["join_wifi"] = samples["join"]
    samples["pin"] = samples["join"]
    state = _until(state, "programming")
    for seat in ("1", "3"):
        state = apply(state, _first(state, seat, "program")).state
    samples["programming"] = _update(state, timer={"left": 42, "limit": 120})
    for seat in ("2", "4"):
        state = apply(state, _first(state, seat, "program")).state
    state = _until(state, "action")
    samples["action"] = _update(state)
    samples["paused"] = _update(state, paused=True)
    offline = Notice("phone_offline", {"seat": "3"})
    notices = [offline.as_dict(), Notice("oled_missing").as_dict()]
    samples["problem"] = _update(state, notices=notices)
    turns_left = public_view(state)["turns_left"]
    samples["end_of_turn"] = _update(
        state, [{"type": "countdown", "order": [], "turn": 2, "turns_left": turns_left - 1}]
    )
    samples["alarm"] = _update(state, [{"type": "alarm", "turns_left": 5}])
    samples["timer"] = _update(
        state, [{"type": "turns_reduced", "turns_left": turns_left - 2, "cause": "timer"}]
    )
    samples["elimination"] = _update(
        state,
        [
            {"type": "eliminated", "character": "kevin", "cause": "acid"},
            {"type": "role_revealed", "character": "kevin", "role": "guard", "reason": "death"},
        ],
    )
    card = load_deck().by_id("move-col3-north-x2").as_json()
    card.pop("count", None)
    samples["card"] = _update(state, [{"type": "mac_drawn", "card": card["id"], "shown": card}])
    over = _update(state)
    over["view"] = {
        **over["view"],
        "phase": "over",
        "outcome": {"result": "complete_victory", "winners": ["1", "2", "3", "4"], "reason": ""},
    }
    samples["over"] = over
    seats = [str(n) for n in range(1, 9)]
    samples["check_pattern"] = {"moment": "check", "verb": "pattern", "address": "0x3C"}
    step = {"moment": "check", "step": 4, "steps": 15, "seats": seats, "done": ["1", "2"]}
    samples["check_press"] = {**step, "verb": "press", "n": "3"}
    samples["check_listen"] = {**step, "verb": "listen", "what": "speaker", "step": 14}
    samples["check_summary"] = {"moment": "check_summary", "fine": 12, "faults": ["3", "next"]}
    return samples


def moment_of(name: str, update: dict) -> tuple[str, dict]:
    """The screen a sample shows: its first announcement, else the problem or PIN screen for
    those samples, the wiring check's own screens, else its steady screen."""
    if "moment" in update:
        return update["moment"], update
    found = announcements(_published(update))
    if found:
        return found[0]
    if name in ("problem", "pin"):
        return name, update
    return steady_moment(_published(update)), update


def _published(sample: dict) -> TableUpdate:
    """The update a sample holds, without what the display adds to it (`as_shown`)."""
    return TableUpdate(
        game=sample["game"],
        version=sample["version"],
        view=sample["view"],
        events=sample["events"],
        waiting=sample["waiting"],
        session=sample["session"],
        resync=sample["resync"],
    )


def as_shown(name: str, update: dict) -> dict:
    """A sample with what the display adds: the join address (and the hotspot's Wi-Fi code
    for "join_wifi"), the PIN for "pin"."""
    if name == "join":
        return {**update, "address": JOIN_ADDRESS}
    if name == "join_wifi":
        return {**update, "address": JOIN_ADDRESS, "wifi": HOTSPOT, "join_step": 0}
    if name == "pin":
        return {**update, "pin": "481093"}
    return update


def render_screens(outdir: Path, lang: str) -> list[Path]:
    """Render every screen to `outdir/<sample>.png` through luma's dummy device."""
    outdir.mkdir(parents=True, exist_ok=True)
    device = dummy(width=128, height=64, mode="1")
    written = []
    for name, update in sample_updates().items():
        moment, shown = moment_of(name, as_shown(name, update))
        device.display(frame(moment, shown, lang))
        path = outdir / f"{name}{'' if lang == words.fallback() else '.' + lang}.png"
        device.image.resize((512, 256)).save(path)
        written.append(path)
    return written


def screens_command(outdir: str, lang: str) -> int:
    """`room25 screens OUTDIR`: write the PNGs in every language of the catalogue, the
    fallback's with no language in their names, and list them under their language, said
    in `lang`."""
    for language, name in words.names().items():
        written = render_screens(Path(outdir), language)
        print(words.text(lang, "cli_screens_language", language=name, n=len(written)))
        for path in written:
            print(path)
    return 0
