"""Which screen an update shows: the steady picture of the game, and the announcements its events
call for. Reads the public update only (view, events, waiting, session), never a seat's view."""

from __future__ import annotations

from companion.session import TableUpdate

# Announcements in the order they are shown when one update brings several.
ANNOUNCEMENTS = ("alarm", "timer", "elimination", "card", "end_of_turn")


def steady_moment(update: TableUpdate) -> str:
    """The screen that stays up between announcements."""
    view = update.get("view")
    if update.get("game") is None or not view:
        return "join"
    if view.get("outcome") is not None or view.get("phase") == "over":
        return "over"
    if update["session"]["paused"]:
        return "paused"
    phase = (update.get("waiting") or {}).get("phase") or view.get("phase")
    if phase == "clue":
        return "setup_step" if "setup" in update["session"] else "setup"
    if phase == "programming":
        return "programming"
    return "action"


def announcements(update: TableUpdate) -> list[tuple[str, dict]]:
    """The announcements an update's public events call for, each with the update narrowed to the
    events it announces (so that two M.A.C. cards drawn together get a screen each)."""
    events = [e for e in update.get("events") or () if "private" not in e]
    found: dict[str, list[dict]] = {}
    cards: list[dict] = []
    for event in events:
        kind = event.get("type")
        if kind == "alarm":
            found.setdefault("alarm", []).append(event)
        elif (kind == "turns_reduced" and event.get("cause") == "timer") or (
            kind == "eliminated" and event.get("cause") == "timer"
        ):
            found.setdefault("timer", []).append(event)
        elif kind in ("eliminated", "role_revealed"):
            found.setdefault("elimination", []).append(event)
        elif kind == "mac_drawn":
            cards.append(event)
        elif kind == "countdown":
            found.setdefault("end_of_turn", []).append(event)
    if "elimination" in found and not any(e["type"] == "eliminated" for e in found["elimination"]):
        # A reveal without an elimination (an exposure, a mask taken off) is not an elimination.
        del found["elimination"]
    out: list[tuple[str, dict]] = []
    for moment in ANNOUNCEMENTS:
        if moment == "card":
            out.extend(("card", {**update, "events": [card]}) for card in cards)
        elif moment in found:
            out.append((moment, {**update, "events": found[moment]}))
    return out
