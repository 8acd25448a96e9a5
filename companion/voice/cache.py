"""Each distinct phrase rendered once and kept on disk, keyed by engine, voice, language and text:
a game says a few hundred phrases but only some dozens differ (names, numbers, cards). The folder
is kept under a size (`[voice] cache_mb`): when a new phrase goes past it, the phrases said least
recently go first (a phrase said is touched, so its file's time is when it was last said)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

from .engines import Engine

MB = 1_000_000


class Cache:
    """A folder of `<engine>-<digest>.wav` files, at most `limit` bytes (None: no limit)."""

    def __init__(self, folder: Path, limit: int | None = None) -> None:
        self.folder = Path(folder)
        self.limit = limit
        self.rendered = 0  # phrases rendered (not found in the cache)
        self.evicted = 0  # phrases removed to keep the folder under its limit

    def path(self, engine: Engine, text: str, lang: str) -> Path:
        key = "\x00".join((engine.name, engine.voice(lang), lang, text))
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        return self.folder / f"{engine.name}-{digest}.wav"

    def clip(self, engine: Engine, text: str, lang: str) -> bytes:
        """The phrase's WAV, rendered now if it never was (written whole or not at all)."""
        path = self.path(engine, text, lang)
        try:
            found = path.read_bytes()
        except FileNotFoundError:
            pass
        else:
            _touch(path)
            return found
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
        found = path.read_bytes()
        self._trim(keep=path)
        return found

    def _trim(self, keep: Path) -> None:
        """Remove the phrases said least recently until the folder is under its limit (the one
        just rendered stays, even alone past a limit smaller than itself)."""
        if self.limit is None:
            return
        files = []
        for file in self.folder.glob("*.wav"):
            try:
                status = file.stat()
            except FileNotFoundError:  # removed meanwhile (another voice on the same folder)
                continue
            files.append((status.st_mtime_ns, status.st_size, file))
        total = sum(size for _, size, _ in files)
        for _, size, file in sorted(files, key=lambda found: found[0]):
            if total <= self.limit:
                return
            if file == keep:
                continue
            file.unlink(missing_ok=True)
            total -= size
            self.evicted += 1

    def size(self) -> tuple[int, int]:
        """How many phrases the cache holds and their bytes."""
        files = list(self.folder.glob("*.wav")) if self.folder.is_dir() else []
        return len(files), sum(f.stat().st_size for f in files)


def _touch(path: Path) -> None:
    """Mark a phrase as just said (its place in the least-recently-used order)."""
    with contextlib.suppress(OSError):  # removed meanwhile, or read-only: it is only an order
        os.utime(path)
