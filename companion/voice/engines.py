"""Speech engines that run offline on a Pi, each rendering a phrase to a WAV file: espeak-ng
(Debian's package, the default; each language's voice named in its folder of the catalogue) and
Piper (a neural voice, used only when the config names a model file the user put on the Pi;
nothing is ever downloaded)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Protocol

from companion import words
from companion.words.said import Said, say

RENDER_TIMEOUT = 30  # seconds: a phrase takes espeak-ng a few milliseconds, Piper under a second


def _espeak_voice(lang: str) -> str:
    """espeak-ng's voice for a language, from its folder of the catalogue (`voice`)."""
    return str(words.settings(lang)["voice"])


class EngineError(Exception):
    """An engine that cannot speak, said in any language (its log line in the fallback's):
    `missing` when its program or model is not there."""

    def __init__(self, said: Said, missing: bool = False) -> None:
        super().__init__(str(said))
        self.said = said
        self.missing = missing

    def text(self, lang: str) -> str:
        return self.said.text(lang)


class Engine(Protocol):
    name: str

    def voice(self, lang: str) -> str:
        """The voice used for `lang`: part of the cache key, so a new voice renders anew."""
        ...

    def render(self, text: str, lang: str, out: Path) -> None:
        """Write `text` spoken in `lang` to the WAV file `out`; raise EngineError."""
        ...


def _run(command: list[str], text: str, what: str) -> None:
    try:
        done = subprocess.run(
            command,
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=RENDER_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        said = say("cli_voice_not_installed", program=what, command=command[0])
        raise EngineError(said, missing=True) from None
    except subprocess.TimeoutExpired:
        raise EngineError(say("cli_voice_too_slow", program=what, seconds=RENDER_TIMEOUT)) from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        own = why[-1] if why else say("cli_voice_exit", code=done.returncode)  # its own words
        raise EngineError(say("cli_voice_failed", program=what, why=own))


class Espeak:
    """espeak-ng through its command line, the text on standard input (never an argument)."""

    name = "espeak-ng"

    def __init__(self, program: str = "espeak-ng", speed: int = 165) -> None:
        self.program = program
        self.speed = speed

    def voice(self, lang: str) -> str:
        return f"{_espeak_voice(lang)}@{self.speed}"

    def render(self, text: str, lang: str, out: Path) -> None:
        voice = _espeak_voice(lang)
        command = [self.program, "-v", voice, "-s", str(self.speed), "-w", str(out), "--stdin"]
        _run(command, text, "espeak-ng")


class Piper:
    """A Piper voice model (`*.onnx` with its `*.onnx.json` beside it) through the `piper`
    program; it speaks the model's language only."""

    name = "piper"

    def __init__(self, model: Path, program: str | None = None) -> None:
        self.model = Path(model)
        # `pip install piper-tts` puts `piper` beside this Python, which a service's PATH lacks.
        beside = Path(sys.executable).with_name("piper")
        self.program = program or (str(beside) if beside.exists() else "piper")
        if not self.model.is_file():
            raise EngineError(say("cli_voice_no_model", path=str(self.model)), missing=True)
        self.language = model_language(self.model)

    def speaks(self, lang: str) -> bool:
        return self.language in (None, lang)

    def voice(self, lang: str) -> str:
        stat = self.model.stat()
        return f"{self.model.name}:{stat.st_size}:{int(stat.st_mtime)}"

    def render(self, text: str, lang: str, out: Path) -> None:
        command = [self.program, "--model", str(self.model), "--output_file", str(out)]
        _run(command, text, "piper")


def model_language(model: Path) -> str | None:
    """The language of a Piper model from its JSON config ("fr_FR" -> "fr"); None if unknown."""
    config = model.with_name(model.name + ".json")
    try:
        data = json.loads(config.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    code = (data.get("language") or {}).get("code") or (data.get("espeak") or {}).get("voice")
    return str(code)[:2].lower() if code else None


class Speaker:
    """The engine for each language: Piper where its model speaks the language, else espeak-ng."""

    def __init__(self, espeak: Espeak, piper: Piper | None = None) -> None:
        self.espeak = espeak
        self.piper = piper

    def engine(self, lang: str) -> Engine:
        if self.piper is not None and self.piper.speaks(lang):
            return self.piper
        return self.espeak
