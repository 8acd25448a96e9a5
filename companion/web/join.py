"""The join address and its QR code: what the OLED and the host page show so phones find the
Pi on the table's network."""

from __future__ import annotations

import io

import segno

from companion.lan import join_address

__all__ = ["join_address", "qr_svg"]


def qr_svg(address: str, dark: str = "#000", light: str = "#fff") -> bytes:
    """The QR code of an address as SVG: dark modules on a light quiet zone, which every phone
    camera reads."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out, kind="svg", scale=8, border=4, dark=dark, light=light, xmldecl=False
    )
    return out.getvalue()
