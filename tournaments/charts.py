"""A server-rendered SVG line chart of running totals, for the organiser's standings page.

Standard library only: the page needs no JavaScript, and the picture is the same in any browser and
in a printout. Names are escaped here, so the result is safe to embed in HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

WIDTH, HEIGHT = 720, 360
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48, 140, 16, 32
# Colour-blind-safe palette (Okabe & Ito), repeated with dashes once the colours run out.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def running_totals_svg(series: Mapping[str, Sequence[float]], rounds: Sequence[int]) -> str:
    """One line per player through their total after each round; labels at the right-hand end."""
    plot_width = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_height = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    top = max((value for values in series.values() for value in values), default=0) or 1
    step = plot_width / max(len(rounds) - 1, 1)

    def x(index: int) -> float:
        return MARGIN_LEFT + (index * step if len(rounds) > 1 else plot_width / 2)

    def y(value: float) -> float:
        return MARGIN_TOP + plot_height * (1 - value / top)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-label="Running totals by round" font-size="11">',
        f'<line x1="{MARGIN_LEFT}" y1="{y(0):.1f}" x2="{MARGIN_LEFT + plot_width}" y2="{y(0):.1f}" stroke="#888"/>',
        f'<line x1="{MARGIN_LEFT}" y1="{MARGIN_TOP}" x2="{MARGIN_LEFT}" y2="{y(0):.1f}" stroke="#888"/>',
        f'<text x="{MARGIN_LEFT - 6}" y="{MARGIN_TOP + 4}" text-anchor="end">{top:g}</text>',
        f'<text x="{MARGIN_LEFT - 6}" y="{y(0):.1f}" text-anchor="end">0</text>',
    ]
    parts += [
        f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle">round {number}</text>'
        for i, number in enumerate(rounds)
    ]
    for n, (name, values) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        dash = ' stroke-dasharray="5 3"' if n >= len(COLOURS) else ""
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        label = escape(name)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{points}">'
            f"<title>{label}</title></polyline>"
        )
        parts += [
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>'
            for i, v in enumerate(values)
        ]
        if values:
            end_x, end_y = x(len(values) - 1) + 6, y(values[-1]) + 4
            parts.append(
                f'<text x="{end_x:.1f}" y="{end_y:.1f}" fill="{colour}">{label} ({values[-1]:g})</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
