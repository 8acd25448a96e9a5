"""The QR code of the join address, which the host and table pages show so phones find the Pi
on the table's network (the address itself: `companion.lan`)."""

from __future__ import annotations

import io

import segno


def qr_svg(address: str) -> bytes:
    """The QR code of an address as SVG: dark modules on a light quiet zone, which every phone
    camera reads."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out, kind="svg", scale=8, border=4, dark="#000", light="#fff", xmldecl=False
    )
    return out.getvalue()
