"""The OLED's fonts as Pillow reads them: a `.pil` file of metrics beside a `.pbm` bitmap (a PNG),
made from the Terminus PCF files in `fonts/` and shipped with the package, so that starting the
companion converts and writes nothing (a full SD card or a full /tmp cannot stop it).

`make(fonts_folder())` makes them again from the PCF files (docs/hardware.md says how);
tests/hardware/test_font_files.py checks that the shipped ones are what it makes."""

from __future__ import annotations

import gzip
import io
from importlib import resources
from pathlib import Path

from PIL import PcfFontFile

SOURCE_SUFFIX = ".pcf.gz"


def fonts_folder() -> Path:
    """The package's `fonts/` folder (an installed package is a folder of files, never a zip)."""
    return Path(str(resources.files("companion.hardware") / "fonts"))


def font_file(name: str) -> Path:
    """The shipped `.pil` file of the font `name` (`ter-u12n_iso-8859-1`)."""
    return fonts_folder() / f"{name}.pil"


def sources() -> list[Path]:
    """The PCF files the shipped fonts are made from."""
    return sorted(fonts_folder().glob(f"*{SOURCE_SUFFIX}"))


def make(folder: Path) -> list[Path]:
    """Every font converted into `folder`: its `.pil` files (each with its `.pbm`)."""
    made = []
    for source in sources():
        target = folder / f"{source.name.removesuffix(SOURCE_SUFFIX)}.pil"
        pcf = io.BytesIO(gzip.decompress(source.read_bytes()))
        PcfFontFile.PcfFontFile(pcf, "iso8859-1").save(str(target))
        made.append(target)
    return made
