"""A server-rendered SVG line chart of the ranking score round by round, for the standings pages.

It plots what ranks: each entry's score after each round — the shares of table opponents
outscored (docs/rules.md §5) added up or averaged over the rounds so far, as the tournament ranks
— on a scale from 0 to ``top`` (1 for averages, the most rounds' worth for sums), so the line on
top at the right is the leader. End labels are spread apart so they never overlap, with a thin leader line back to the
point they name. Standard library only: no JavaScript, the same picture in any browser and in a
printout. Names are escaped here, so the result is safe to embed in HTML. No style attribute (the
pages' Content-Security-Policy refuses them): its class, ``score-chart``, keeps it at most
``WIDTH`` pixels wide (tournaments/static/tournaments/print.css).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape

WIDTH = 720
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48, 200, 16, 32
PLOT_HEIGHT = 300
LABEL_GAP = 13  # the least distance between two end labels, in the chart's units (font 11)
GRID_LINES = 5  # 0, a quarter, a half, three quarters and the whole of the scale
# Colour-blind-safe palette (Okabe & Ito), repeated with dashes once the colours run out.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def score_chart_svg(
    series: Mapping[str, Sequence[float | None]],
    rounds: Sequence[int],
    top: float = 1.0,
    *,
    title: str = "Ranking score by round",
    round_label: str = "round {number}",
) -> str:
    """One line per entry through its score after each round (``None``: not yet playing), on a
    scale from 0 to ``top``. ``title`` (the chart's accessible name) and ``round_label`` (each
    round's, a template of ``{number}``) are in the reader's language."""
    plot_width = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    step = plot_width / max(len(rounds) - 1, 1)

    def y(score: float) -> float:
        return MARGIN_TOP + PLOT_HEIGHT * (1 - score / top)

    labels = _spread_labels(series, y)
    height = max([MARGIN_TOP + PLOT_HEIGHT, *(y + 4 for y in labels.values())]) + MARGIN_BOTTOM

    def x(index: int) -> float:
        return MARGIN_LEFT + (index * step if len(rounds) > 1 else plot_width / 2)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" '
        f'width="100%" class="score-chart" role="img" '
        f'aria-label="{escape(title)}" font-size="11" font-family="sans-serif">'
    ]
    for level in (top * step / (GRID_LINES - 1) for step in range(GRID_LINES)):
        parts.append(
            f'<line x1="{MARGIN_LEFT}" y1="{y(level):.1f}" x2="{MARGIN_LEFT + plot_width}" '
            f'y2="{y(level):.1f}" stroke="#ccc"/>'
            f'<text x="{MARGIN_LEFT - 6}" y="{y(level) + 4:.1f}" text-anchor="end">{level:g}</text>'
        )
    parts += [
        f'<text x="{x(i):.1f}" y="{MARGIN_TOP + PLOT_HEIGHT + 20}" text-anchor="middle">'
        f"{escape(round_label.format(number=number))}</text>"
        for i, number in enumerate(rounds)
    ]
    for n, (name, values) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        dash = ' stroke-dasharray="5 3"' if n >= len(COLOURS) else ""
        plotted = [(x(i), y(v)) for i, v in enumerate(values) if v is not None]
        if not plotted:
            continue
        label = escape(name)
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in plotted)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{points}">'
            f"<title>{label}</title></polyline>"
        )
        parts += [
            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>' for px, py in plotted
        ]
        end_x, end_y = plotted[-1]
        label_x, label_y = MARGIN_LEFT + plot_width + 16, labels[name]
        parts.append(
            f'<line x1="{end_x + 4:.1f}" y1="{end_y:.1f}" x2="{label_x - 3}" y2="{label_y:.1f}" '
            f'stroke="{colour}" stroke-width="0.75"/>'
            f'<text x="{label_x}" y="{label_y + 4:.1f}" fill="{colour}">'
            f"{label} ({_last(values):.2f})</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _last(values: Sequence[float | None]) -> float:
    return next(value for value in reversed(values) if value is not None)


def _spread_labels(
    series: Mapping[str, Sequence[float | None]], y: Callable[[float], float]
) -> dict[str, float]:
    """Each label's height: at its line's end, pushed down just enough to clear the one above.

    Labels keep the order of the lines' ends (ties in standings order), so reading down the
    labels reads down the standings.
    """
    ends = sorted(
        (y(_last(values)), rank, name)
        for rank, (name, values) in enumerate(series.items())
        if any(value is not None for value in values)
    )
    placed: dict[str, float] = {}
    floor = -float("inf")
    for end, _, name in ends:
        floor = max(end, floor + LABEL_GAP)
        placed[name] = floor
    return placed
