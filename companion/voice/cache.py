"""Each distinct phrase rendered once and kept on disk, keyed by engine, voice, language and text:
a game says a few hundred phrases but only some dozens differ (names, numbers, cards)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from .engines import Engine


class Cache:
    """A folder of `<engine>-<digest>.wav` files."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.rendered = 0  # phrases rendered (not found in the cache)

    def path(self, engine: Engine, text: str, lang: str) -> Path:
        key = "\x00".join((engine.name, engine.voice(lang), lang, text))
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        return self.folder / f"{engine.name}-{digest}.wav"

    def clip(self, engine: Engine, text: str, lang: str) -> bytes:
        """The phrase's WAV, rendered now if it never was (written whole or not at all)."""
        path = self.path(engine, text, lang)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(suffix=".wav", dir=self.folder)
        os.close(handle)
        try:
            engine.render(text, lang, Path(temporary))
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        self.rendered += 1
        return path.read_bytes()

    def size(self) -> tuple[int, int]:
        """How many phrases the cache holds and their bytes."""
        files = list(self.folder.glob("*.wav")) if self.folder.is_dir() else []
        return len(files), sum(f.stat().st_size for f in files)
