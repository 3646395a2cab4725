"""QR codes of a public tournament's page, printed on the table sheets so that a phone finds the
live tables and standings, of a guest's seat link and of the check-in page on the door's poster
(segno: pure Python, no image library; SVG prints sharp at any size)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

# Modules (the code's squares) of 1 mm at 96 dpi: about 3 cm for a tournament's address.
MODULE_PX = 4


def qr_svg(url: str, *, title: str, scale: int = MODULE_PX) -> SafeString:
    """An inline ``<svg>`` of ``url``, medium error correction (a coffee stain on a slip);
    ``scale`` pixels a module (a poster's code is read from across a doorway)."""
    code = segno.make(url, error="m")
    return mark_safe(  # segno escapes the title; the rest is its own markup
        code.svg_inline(scale=scale, border=2, title=title, svgclass="qr")
    )
