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


QUIET_SAMPLE = 300  # below this a 16-bit sample is taken for silence (espeak-ng's ends)
THINNED = 3  # compact keeps one sample in three (espeak-ng's 22050 Hz: 7350 Hz, a telephone's)


def compact(clip: bytes) -> bytes:
    """The clip at a third of its rate in 8 bits, its silent ends cut: a sixth of the bytes, for
    the docs' gallery of every announcement (a speech engine's voice keeps its words); 16-bit
    mono clips only, any other as it is."""
    with wave.open(io.BytesIO(clip)) as reader:
        params = reader.getparams()
        frames = reader.readframes(reader.getnframes())
    if params.sampwidth != 2 or params.nchannels != 1:
        return clip
    samples = array("h", frames)
    if sys.byteorder == "big":
        samples.byteswap()
    loud = [i for i, s in enumerate(samples) if abs(s) > QUIET_SAMPLE]
    margin = params.framerate // 20  # 50 ms kept either side of the words
    if loud:
        samples = samples[max(0, loud[0] - margin) : loud[-1] + margin]
    # Each kept sample the mean of its three: a crude low-pass, enough against aliasing hiss.
    thinned = (
        sum(samples[i : i + THINNED]) // THINNED
        for i in range(0, len(samples) - THINNED + 1, THINNED)
    )
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(1)  # 8-bit WAV samples are unsigned
        writer.setframerate(params.framerate // THINNED)
        writer.writeframes(bytes((s >> 8) + 128 for s in thinned))
    return out.getvalue()
