"""The libraries `room25 serve` never uses, kept out of its memory (issue 29, point 7: a Pi Zero
2 W has 512 MB, and the evening's figure is 50 MB).

OpenSSL: the table speaks plain HTTP on its own network, so `ssl` is never used, and it hashes
with SHA-256 only (the phones' secrets), which CPython has built in. Loading `_hashlib` maps
libcrypto, and OpenSSL 3 setting up its providers touches 3.4 MB of it; `_ssl` adds libssl,
0.5 MB. Without them hashlib and hmac take CPython's own hashes (the same digests), and
http.client, urllib and Werkzeug go without HTTPS, as each of them allows.

FreeType: the OLED's fonts are Pillow's bitmap fonts (`.pil` files). `PIL.ImageFont` loads
`_imagingft` (FreeType, HarfBuzz, libpng, Brotli: 1.3 MB) only for TrueType fonts, which nothing
here draws; without it Pillow says so only if a TrueType font is asked for.

Pillow's other picture formats: the first picture Pillow opens or saves (a font's glyphs, the
virtual panel's OLED) loads its BMP, GIF, JPEG, PPM and PNG readers, each where it can. The
fonts' glyphs are PNG files and the panel sends PNG, so only that one is needed: 0.3 MB less.
"""

from __future__ import annotations

import sys

LEFT_OUT = (
    "_hashlib",
    "_ssl",
    "PIL._imagingft",
    "PIL.BmpImagePlugin",
    "PIL.GifImagePlugin",
    "PIL.JpegImagePlugin",
    "PIL.PpmImagePlugin",
)


def leave_out(modules: tuple[str, ...] = LEFT_OUT) -> None:
    """Each of `modules` that is not imported yet made one that cannot be: importing it raises
    ImportError, which the modules that try it expect. Called before serve imports anything
    else; the process's other commands keep them."""
    for name in modules:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
