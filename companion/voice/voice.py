"""The showrunner put together: it listens to the session's public updates, says their lines in
the table's language through the engine and the speaker, and keeps the latest announcement for
the browser (the virtual panel plays its WAV, the table page may speak its text). A missing
engine or speaker is a notice for the table; the game never waits on the voice."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict, Unpack

from companion import words
from companion.config import Config
from companion.config import Voice as VoiceSettings
from companion.session import Session, TableUpdate
from companion.session.notices import Notice

from .announcer import Announcement, Announcer
from .cache import MB, Cache
from .engines import EngineError, Espeak, Piper, Speaker
from .script import QUIET, Line, Script
from .sinks import Aplay, Clip, Sink, SinkError
from .wav import join, scaled

log = logging.getLogger(__name__)

KEPT = 8  # recent announcements whose WAV the browser may still fetch
MUTE_BUTTON = "back"  # the control button whose short press mutes (companion/hardware/table.py)


class Said(TypedDict):
    """An announcement as the browser reads it (`Voice.latest`, `/panel/voice`)."""

    id: int
    text: str
    lang: str
    wav: str | None  # its WAV's file name, None when nothing was rendered
    muted: bool


class Voice:
    """The running voice. Start it with `start_voice`; `close()` stops its threads."""

    def __init__(
        self,
        session: Session,
        config: Config,
        *,
        speaker: bool = True,
        sink: Sink | None = None,
        engines: Speaker | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        """`speaker` False: nothing is played here (a laptop's virtual table: the browser plays
        it). `sink`, `engines` and `cache_dir` replace the defaults (tests, benchmarks)."""
        settings = config.voice
        self.session = session
        self.enabled = settings.enabled
        self.lang = words.offered(settings.language or config.table.language)
        self.volume = float(settings.volume)
        self.quiet = settings.quiet_table
        self.device = settings.device
        self.script = Script()
        self._problems: dict[str, Notice] = {}
        self.muted = False
        self.set_mute(settings.mute)
        self._recent: OrderedDict[int, tuple[Said, bytes | None]] = OrderedDict()
        self._said = threading.Condition()
        self.cache = Cache(cache_dir or _cache_dir(session), settings.cache_mb * MB)
        self.engines = engines or self._engines(settings)
        if sink is None and speaker and settings.device != "none":
            sink = Aplay(settings.device)
        self.sink = sink
        self.announcer = Announcer(self._speak, self._cut)
        self._stop = threading.Event()
        self._heard = threading.Condition()
        self._rounds = 0
        self._all_heard = True
        self._listener = session.listen("public")
        self._on_update(session.snapshot("public"))
        self._thread = threading.Thread(target=self._updates, name="room25-voice-in", daemon=True)
        self._thread.start()

    def _engines(self, settings: VoiceSettings) -> Speaker:
        piper = None
        if settings.engine == "piper":
            if not settings.model:
                log.warning("voice: engine piper without a model: espeak-ng speaks")
            else:
                try:
                    piper = Piper(Path(settings.model))
                except EngineError as error:
                    log.error("voice: %s; espeak-ng speaks instead", error)
                    self._problem("model", Notice("voice_model_missing", {"model": settings.model}))
        return Speaker(Espeak(), piper)

    # --- controls (the host page, a control button) -------------------------------------------

    def set_volume(self, volume: float) -> None:
        self.volume = min(1.0, max(0.0, float(volume)))

    def set_mute(self, mute: bool) -> None:
        """Mute or speak again; a muted voice is a notice, so the table knows why it is quiet."""
        self.muted = bool(mute)
        self._problem("mute", Notice("voice_muted", {"button": MUTE_BUTTON}) if mute else None)

    def toggle_mute(self) -> bool:
        """The control button's short press: muted if it spoke, speaking if muted."""
        self.set_mute(not self.muted)
        return self.muted

    def set_quiet(self, quiet: bool) -> None:
        self.quiet = bool(quiet)

    def set_language(self, lang: str) -> None:
        self.lang = words.offered(lang)

    # --- what the browser reads -------------------------------------------------------------

    def latest(self) -> Said | None:
        """The last announcement: {id, text, lang, wav (a file name or None), muted}."""
        with self._said:
            if not self._recent:
                return None
            return Said(**next(reversed(self._recent.values()))[0])

    def wait(self, after: int, timeout: float) -> Said | None:
        """The first announcement newer than id `after`, waiting up to `timeout` seconds."""
        with self._said:
            self._said.wait_for(
                lambda: self._stop.is_set() or any(i > after for i in self._recent), timeout
            )
        found = self.latest()
        return found if found is not None and found["id"] > after else None

    def audio(self, announcement: int) -> bytes | None:
        """The WAV of a recent announcement (`/panel/voice/<id>.wav`), at full volume."""
        with self._said:
            kept = self._recent.get(announcement)
        return None if kept is None else kept[1]

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until every update published so far is announced and said (tests, the
        benchmark): one whole round of the listening thread after the call, with nothing left."""
        with self._heard:
            start = self._rounds
            self._listener.nudge()  # the thread waits for updates without a timeout
            if not self._heard.wait_for(lambda: self._rounds > start and self._all_heard, timeout):
                return False
        return self.announcer.idle(timeout)

    def describe(self) -> str:
        where = "none" if self.sink is None else (self.device or "ALSA default")
        names = {self.engines.engine(lang).name for lang in words.languages()}
        return (
            f"voice {'on' if self.enabled else 'off'}: {', '.join(sorted(names))}, speaker {where}"
        )

    # --- from updates to sound ----------------------------------------------------------------

    def _updates(self) -> None:
        while not self._stop.is_set():
            update = self._listener.get()  # nothing polls: an update, idle() or close() wakes it
            with self._heard:
                try:
                    if update is not None:
                        self._on_update(update)
                except Exception:  # one odd update must not silence the rest of the game
                    log.exception("voice: update not announced")
                # Read by this thread, the one that takes updates: nothing heard is left unsaid.
                self._rounds += 1
                self._all_heard = self._listener.pending() == 0
                self._heard.notify_all()

    def _on_update(self, update: TableUpdate) -> None:
        lines = self.script.lines(update)
        if self.quiet:
            lines = [line for line in lines if line.key in QUIET]
        self.announcer.announce(lines)

    def say(self, lines: list[Line]) -> Announcement | None:
        """Announce lines that are not from an update (the CLI, the host's test button)."""
        return self.announcer.announce(lines)

    def _speak(self, announcement: Announcement) -> None:
        lang = self.lang
        texts = [line.text(lang) for line in announcement.lines]
        wav = self._render(texts, lang) if self.enabled else None
        text = " ".join(texts)
        record: Said = {
            "id": announcement.id,
            "text": text,
            "lang": lang,
            "wav": None if wav is None else f"{announcement.id}.wav",
            "muted": self.muted,
        }
        with self._said:
            self._recent[announcement.id] = (record, wav)
            while len(self._recent) > KEPT:
                self._recent.popitem(last=False)
            self._said.notify_all()
        if wav is None or self.sink is None or self.muted or self.volume <= 0:
            return
        try:
            self.sink.play(Clip(announcement.id, text, lang, scaled(wav, self.volume)))
        except SinkError as error:
            log.error("voice: the speaker (%s) failed: %s", self.device or "default", error)
            device = self.device or "default"
            self._problem("speaker", Notice("speaker_unavailable", {"device": device}))
        else:
            self._problem("speaker", None)

    def _cut(self, announcement: int) -> None:
        """A more urgent announcement (or a stale wait) stops this one's clip."""
        if self.sink is not None:
            self.sink.cut(announcement)

    def _render(self, texts: list[str], lang: str) -> bytes | None:
        engine = self.engines.engine(lang)
        try:
            wav = join([self.cache.clip(engine, text, lang) for text in texts])
        except EngineError as error:
            log.error("voice: %s", error)
            if self.sink is not None:  # without a speaker here only the browser misses it
                if error.missing:
                    notice = Notice("voice_engine_missing", {"engine": engine.name})
                else:
                    notice = Notice("voice_engine_failed", {"engine": engine.name})
                self._problem("engine", notice)
            return None
        except (OSError, ValueError) as error:  # a cache folder not writable, an odd WAV
            log.error("voice: %s", error)
            self._problem("engine", Notice("voice_engine_failed", {"engine": engine.name}))
            return None
        self._problem("engine", None)
        return wav

    def _problem(self, key: str, notice: Notice | None) -> None:
        """A voice problem (or its end) told to the table once, as the hardware's are."""
        if self._problems.get(key) == notice:
            return
        if notice is None:
            self._problems.pop(key, None)
        else:
            self._problems[key] = notice
        set_notice = getattr(self.session, "set_notice", None)
        if set_notice is not None:
            # On its own thread: the session may be waiting on this very thread's listener.
            threading.Thread(
                target=_tell, args=(set_notice, f"voice:{key}", notice), daemon=True
            ).start()

    def problems(self) -> list[Notice]:
        return list(self._problems.values())

    def close(self) -> None:
        """Stop listening, cut the clip playing, stop the threads; a long poll waiting for the
        next announcement is answered at once."""
        self._stop.set()
        with self._said:
            self._said.notify_all()
        self._listener.nudge()
        self._thread.join(timeout=2)
        self._listener.close()
        if self.sink is not None:
            self.sink.stop()
        self.announcer.close()


def _tell(
    set_notice: Callable[[str, Notice | None], None], key: str, notice: Notice | None
) -> None:
    try:
        set_notice(key, notice)
    except Exception:  # a closing session: the log already has the problem
        log.debug("could not pass %s to the session", key, exc_info=True)


def _cache_dir(session: Session) -> Path:
    journal = getattr(session, "journal_path", None)
    if journal is not None:
        return Path(journal).parent / "voice"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("room25")) / "voice"


class VoiceOptions(TypedDict, total=False):
    """What `start_voice` may be given: the keywords of `Voice`, so a caller passing one it
    does not take, or of another type, fails the type check."""

    speaker: bool
    sink: Sink | None
    engines: Speaker | None
    cache_dir: Path | None


def start_voice(session: Session, config: Config, **options: Unpack[VoiceOptions]) -> Voice:
    """Start the voice: `speaker=False` where the browser plays it (the virtual table)."""
    started = Voice(session, config, **options)
    log.info("%s", started.describe())
    return started


__all__ = ["Voice", "start_voice"]
