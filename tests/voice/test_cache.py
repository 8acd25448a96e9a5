"""The phrase cache keeps the folder under `[voice] cache_mb`: past it, the phrases said least
recently go first, a phrase said again is kept, the one just rendered always stays."""

from __future__ import annotations

import os
from pathlib import Path

from companion.config import Config, load_config
from companion.voice import start_voice
from companion.voice.cache import MB, Cache
from companion.voice.engines import Speaker
from companion.voice.sinks import FakeSink

from .conftest import Murmur, voice_config


def _clip_bytes(cache: Cache, text: str) -> int:
    return cache.path(Murmur(), text, "en").stat().st_size


def _aged(cache: Cache, texts: list[str]) -> None:
    """Give the files distinct times, oldest first (a coarse clock would tie them)."""
    for age, text in enumerate(reversed(texts), start=1):
        stamp = 1_700_000_000 - age * 60
        os.utime(cache.path(Murmur(), text, "en"), (stamp, stamp))


def test_past_its_size_the_cache_drops_the_phrases_said_least_recently(
    tmp_path: Path, mocker
) -> None:
    murmur = Murmur()
    render = mocker.spy(murmur, "render")
    texts = ["Turn one.", "Turn two.", "Turn six."]  # the same length: the same size
    cache = Cache(tmp_path)
    for text in texts:
        cache.clip(murmur, text, "en")
    size = _clip_bytes(cache, texts[0])
    cache.limit = 3 * size
    _aged(cache, texts)
    cache.clip(murmur, texts[0], "en")  # said again: now the most recent
    cache.clip(murmur, "Turn ten.", "en")  # a fourth phrase: one must go
    kept = {text for text in [*texts, "Turn ten."] if cache.path(murmur, text, "en").exists()}
    assert kept == {"Turn one.", "Turn six.", "Turn ten."}
    assert cache.size() == (3, 3 * size) and cache.evicted == 1
    rendered = [call.args[:2] for call in render.call_args_list]
    assert rendered.count(("Turn one.", "en")) == 1  # a hit is not rendered again


def test_the_phrase_just_rendered_stays_even_past_a_tiny_limit(tmp_path: Path) -> None:
    murmur = Murmur()
    cache = Cache(tmp_path, limit=1)
    cache.clip(murmur, "Room 25 has been found.", "en")
    cache.clip(murmur, "Game over.", "en")
    assert cache.size()[0] == 1 and cache.path(murmur, "Game over.", "en").exists()


def test_without_a_limit_nothing_is_dropped(tmp_path: Path) -> None:
    murmur = Murmur()
    cache = Cache(tmp_path)
    for n in range(20):
        cache.clip(murmur, f"Turn {n}.", "en")
    assert cache.size()[0] == 20 and cache.evicted == 0


def test_the_voice_keeps_its_cache_under_cache_mb(session, tmp_path: Path) -> None:
    assert Config().voice.cache_mb == 100
    voice = start_voice(
        session,
        voice_config(cache_mb=5),
        sink=FakeSink(),
        engines=Speaker(Murmur()),
        cache_dir=tmp_path / "voice",
    )
    try:
        assert voice.cache.limit == 5 * MB
    finally:
        voice.close()


def test_cache_mb_is_taken_or_refused_in_plain_words(tmp_path: Path, caplog) -> None:
    path = tmp_path / "room25.toml"
    path.write_text("[voice]\ncache_mb = 20\n", encoding="utf-8")
    assert load_config(path).voice.cache_mb == 20
    for bad in ("0", "2.5", '"big"', "100000"):
        path.write_text(f"[voice]\ncache_mb = {bad}\n", encoding="utf-8")
        caplog.clear()
        assert load_config(path).voice.cache_mb == 100
        assert "voice.cache_mb" in caplog.text
        assert "a whole number of megabytes from 1 to 10000" in caplog.text
