"""WAV clips as bytes: the phrases of an announcement joined into one clip (one `aplay`, one file
for the browser) and the volume applied when played, so the cache keeps one render per phrase."""

from __future__ import annotations

import io
import sys
import wave
from array import array

GAP = 0.25  # seconds of silence between two phrases


def duration(clip: bytes) -> float:
    """A clip's length in seconds."""
    with wave.open(io.BytesIO(clip)) as reader:
        return reader.getnframes() / reader.getframerate()


def join(clips: list[bytes], gap: float = GAP) -> bytes:
    """The clips one after the other with a short silence between them (the clips come from
    one engine and voice, so they share a format; a clip of another format is resampled by
    no one: it is refused)."""
    if not clips:
        raise ValueError("no clip to join")
    frames = []
    params = None
    for clip in clips:
        with wave.open(io.BytesIO(clip)) as reader:
            these = reader.getparams()
            if params is not None and these[:3] != params[:3]:
                raise ValueError(f"clips of different formats: {these[:3]} and {params[:3]}")
            params = these
            frames.append(reader.readframes(reader.getnframes()))
    assert params is not None
    silence = b"\x00" * (int(params.framerate * gap) * params.sampwidth * params.nchannels)
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(params.nchannels)
        writer.setsampwidth(params.sampwidth)
        writer.setframerate(params.framerate)
        writer.writeframes(silence.join(frames))
    return out.getvalue()


def scaled(clip: bytes, volume: float) -> bytes:
    """The clip at `volume` (0 to 1) of its loudness; 16-bit samples only (espeak-ng and Piper
    write those), any other clip as it is."""
    if volume >= 1.0:
        return clip
    with wave.open(io.BytesIO(clip)) as reader:
        params = reader.getparams()
        frames = reader.readframes(reader.getnframes())
    if params.sampwidth != 2:
        return clip
    samples = array("h", frames)
    if sys.byteorder == "big":
        samples.byteswap()
    factor = max(0.0, volume)
    samples = array("h", (int(s * factor) for s in samples))
    if sys.byteorder == "big":
        samples.byteswap()
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setparams(params)
        writer.writeframes(samples.tobytes())
    return out.getvalue()
