"""The recap to keep: one self-contained HTML file of a finished game (the result, the roles, the
final complex, and the timeline with the episode replay), in the language chosen. Its styles,
script and data are inline and it names no other file, so it opens offline, years later; the
names the host typed for the seats (`names` in the export) appear here, for the host's own file.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape

from companion.session.shapes import Export
from companion.words import page_settings
from companion.words.pages import names, table, text
from companion.words.reasons import reason_text

from .replay import episode

# The page texts the recap reads: its own, and the actions, roles, outcomes, editions and lines.
KEPT = ("replay_", "action_", "role_", "outcome_", "edition_", "mode_", "seat_n", "line_")


@cache
def _environment() -> Environment:
    return Environment(loader=PackageLoader("companion.story"), autoescape=select_autoescape())


def _static(name: str) -> str:
    # Through the `companion` package: importing `companion.web` would load Flask.
    static = resources.files("companion").joinpath("web").joinpath("static")
    return static.joinpath(name).read_text("utf-8")


def _script_json(value: object) -> str:
    """JSON safe inside a `<script>` element."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _when(moment: object) -> str:
    """The clock time a game ended, as the journal wrote it (seconds since 1970, UTC)."""
    if not isinstance(moment, int | float):
        return ""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def recap_html(exported: Export, lang: str) -> str:
    """The recap of a finished game's export (`NotOver` for a game still being played)."""
    told = episode(exported)
    words = {k: v for k, v in table(lang).items() if k.startswith(KEPT)}
    named = names(lang)
    shown = {key: named[key] for key in ("rooms", "rooms_short", "colours", "characters", "cards")}
    seat_names = exported.get("names") or {}
    outcome = told["outcome"] or {}
    winners = outcome.get("winners")
    roles = [
        (
            cid,
            text(lang, "seat_n", seat=c["seat"])
            + (f" ({seat_names[c['seat']]})" if seat_names.get(c["seat"]) else "")
            + f" · {shown['characters'].get(cid, cid)} — {text(lang, 'role_' + c['role'])}",
            isinstance(winners, list) and c["seat"] in winners,
        )
        for cid, c in told["characters"].items()
    ]
    heading = text(
        lang,
        "replay_recap_game",
        game=told["game"],
        edition=text(lang, "edition_" + told["edition"]),
        mode=text(lang, "mode_" + told["mode"]),
    )
    return (
        _environment()
        .get_template("recap.html")
        .render(
            lang=lang,
            t=words,
            told=told,
            heading=heading,
            ended=_when(told["ended"]),
            roles=roles,
            result=text(lang, "outcome_" + str(outcome.get("result") or "ended")),
            reason=reason_text(outcome, lang),
            css=_static("replay.css"),
            script=_static("words.js") + _static("replay.js"),
            texts=_script_json(
                {"lang": lang, "language": page_settings(lang), "t": words, "names": shown}
            ),
            data=_script_json(told),
        )
    )
