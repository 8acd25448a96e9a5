"""Where an announcement is heard: ALSA's `aplay` on the Pi (jack, HDMI, USB or a Bluetooth
speaker behind an ALSA device), or a fake sink that records what would be played (tests, the
benchmark, a table with no speaker).

`aplay` rather than a Python audio library: it ships with Raspberry Pi OS (alsa-utils), needs no
compiled wheel, takes any ALSA device name (`aplay -L`), and a player that hangs or crashes is a
child process to kill, never the table server's own thread.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from companion.words.said import Said, say

from .wav import duration


class SinkError(Exception):
    """A clip that could not be played, in plain words of any language (its log line in the
    fallback's)."""

    def __init__(self, said: Said) -> None:
        super().__init__(str(said))
        self.said = said

    def text(self, lang: str) -> str:
        return self.said.text(lang)


@dataclass(frozen=True)
class Clip:
    """An announcement ready to be heard."""

    id: int
    text: str
    lang: str
    wav: bytes


class Sink(Protocol):
    def play(self, clip: Clip) -> None:
        """Play the clip to its end (blocking); raise SinkError when it cannot be heard."""
        ...

    def stop(self) -> None:
        """Cut the clip playing now, if any, and play no more (closing)."""
        ...

    def cut(self, clip: int) -> None:
        """Cut clip number `clip` if it is playing, or skip it if it is yet to come (a more
        urgent announcement came); the next clips play."""
        ...


class Aplay:
    """`aplay -q [-D device] -`, the clip on standard input."""

    def __init__(
        self,
        device: str = "",
        program: str = "aplay",
        on_start: Callable[[Clip], None] | None = None,
    ) -> None:
        self.device = device
        self.program = program
        self.on_start = on_start
        self._playing: subprocess.Popen | None = None
        self._clip: int | None = None  # the number of the clip playing
        self._cut: int | None = None  # the clip cut before it began
        self._lock = threading.Lock()
        self._stopped = False

    def command(self) -> list[str]:
        return [self.program, "-q", *(["-D", self.device] if self.device else []), "-"]

    def play(self, clip: Clip) -> None:
        with self._lock:
            if self._stopped or self._cut == clip.id:
                return
            try:
                player = subprocess.Popen(
                    self.command(),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            except FileNotFoundError:
                raise SinkError(say("cli_voice_no_player", program=self.program)) from None
            self._playing, self._clip = player, clip.id
        if self.on_start is not None:
            self.on_start(clip)
        try:
            _, errors = player.communicate(clip.wav, timeout=duration(clip.wav) + 10)
        except subprocess.TimeoutExpired:
            player.kill()
            player.communicate()
            device = self.device or "default"  # ALSA's name
            raise SinkError(
                say("cli_voice_player_hung", program=self.program, device=device)
            ) from None
        finally:
            with self._lock:
                self._playing, self._clip = None, None
        if player.returncode != 0 and not self._stopped and self._cut != clip.id:
            lines = errors.decode("utf-8", "replace").strip().splitlines()
            if lines:  # the player's own words
                raise SinkError(say("cli_voice_player_failed", why=lines[-1]))
            raise SinkError(
                say("cli_voice_player_exited", program=self.program, code=player.returncode)
            )

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._playing is not None:
                self._playing.kill()

    def cut(self, clip: int) -> None:
        with self._lock:
            self._cut = clip
            if self._playing is not None and self._clip == clip:
                self._playing.kill()


@dataclass
class Played:
    at: float
    clip: Clip


@dataclass
class FakeSink:
    """Records each clip with the time it started; `fail` makes it refuse like a missing device,
    `seconds` makes each clip last that long (as a real speaker would) unless it is cut."""

    clock: Callable[[], float] = time.monotonic
    seconds: float = 0.0
    fail: str | None = None
    played: list[Played] = field(default_factory=list)
    cut_clips: list[int] = field(default_factory=list)
    _cutting: threading.Event = field(default_factory=threading.Event)

    def play(self, clip: Clip) -> None:
        if self.fail:
            raise SinkError(say("cli_voice_player_failed", why=self.fail))
        if clip.id in self.cut_clips:
            return
        self._cutting.clear()
        self.played.append(Played(self.clock(), clip))
        if self.seconds:
            self._cutting.wait(self.seconds)

    def stop(self) -> None:
        self._cutting.set()

    def cut(self, clip: int) -> None:
        self.cut_clips.append(clip)
        if self.played and self.played[-1].clip.id == clip:
            self._cutting.set()

    def texts(self) -> list[str]:
        return [p.clip.text for p in self.played]
