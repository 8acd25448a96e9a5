"""`room25 check`: the wiring check from the terminal, on the table's own hardware (the Pi's
header, OLED, speaker and serial panel) while the companion is not serving; each step asked for
and each part's line printed as it comes, then the summary. With the companion serving, the
host page's "Check the table" runs the same walk on its hardware."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from companion import words
from companion.config import load_config
from companion.hardware.check import SHOW_SECONDS, Check, Part
from companion.words.locale import cli_language


def check_command(
    asked: str | None, config_file: Path | None, data_dir: Path | None, seconds: float, lang: str
) -> int:
    """Walk the table's parts; 0 when every part answered, 1 when one is to look at."""
    from companion.hardware import start_hardware
    from companion.serve import ServeError, choose_hardware, default_data_dir, take_lock
    from companion.session import Session

    config = load_config(config_file)
    lang = cli_language(lang, config.table.language if config_file else "")
    kind, _why = choose_hardware(asked)
    if kind == "virtual":
        print(f"room25 check: {words.text(lang, 'check_virtual_here')}", file=sys.stderr)
        return 2
    try:
        lock = take_lock(data_dir or default_data_dir())  # no serve may hold the pins meanwhile
    except ServeError:
        print(f"room25 check: {words.text(lang, 'check_serving')}", file=sys.stderr)
        return 1
    with lock, tempfile.TemporaryDirectory() as folder, Session(Path(folder) / "j.sqlite") as table:
        rig = start_hardware(table, config, kind)
        voice = _voice(table, config, kind)
        rig.set_voice(voice)
        try:
            check = rig.start_check(
                step_seconds=seconds,
                show_seconds=min(seconds, SHOW_SECONDS),
                summary_seconds=min(seconds, 5.0),
                on_step=lambda step: print(f"> {step.text(lang)}", flush=True),
                on_part=lambda part: print(f"  {_mark(part)} {part.text(lang)}", flush=True),
            )
            assert isinstance(check, Check)  # no game in a journal of its own
            check.ended.wait()
        except KeyboardInterrupt:
            return 130
        finally:
            rig.close()
            if voice is not None:
                voice.close()
    for line in check.summary(lang):
        print(line)
    return 1 if any(part.status == "fault" for part in check.parts) else 0


def _voice(table, config, kind: str):
    """The speaker's voice on a Pi (None when off or when it cannot start: the line says so)."""
    if not config.voice.enabled:
        return None
    try:
        from companion.voice import start_voice

        return start_voice(table, config, speaker=kind == "pi")
    except Exception:  # a missing engine: the speaker's line says the voice is off
        return None


def _mark(part: Part) -> str:
    return {"ok": "ok ", "fault": "!! ", "absent": "-- "}[part.status]
