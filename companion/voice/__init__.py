"""The showrunner: the companion announces the game aloud, offline, in English and French.

    voice = start_voice(session, config)   # beside start_hardware
    ...
    voice.close()

script.py says which lines an update calls for (public facts only); catalogue.py puts them into
words (the `spoken_*` texts of the catalogue, companion.words); announcer.py keeps the
voice at most one announcement behind; engines.py renders a phrase (espeak-ng, or Piper with a
local model) and cache.py keeps it; sinks.py plays it (aplay) or records it (tests); voice.py puts
them together.
"""

from .voice import Voice, start_voice

__all__ = ["Voice", "start_voice"]
