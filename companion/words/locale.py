"""The language of the command line (`room25 ...` in a terminal): the one asked for (`--lang`),
else the table's when a settings file names it ([table] language), else the environment's
(`LC_ALL`, then `LC_MESSAGES`, then `LANG`, as POSIX reads them), else the fallback; always
one the catalogue has. docs/languages.md says so for the owner."""

from __future__ import annotations

import os
from collections.abc import Mapping

from .catalogue import fallback, languages

ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The catalogue's language the environment names ("fr_FR.UTF-8" is fr), else the
    fallback (also for "C" and "POSIX")."""
    found = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = found.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            return code if code in languages() else fallback()
    return fallback()


def cli_language(asked: str = "", configured: str = "") -> str:
    """The language a command speaks in: asked, else configured, else the environment's."""
    for lang in (asked, configured):
        if lang in languages():
            return lang
    return environment_language()
