"""The standings chart plots what ranks, on a fixed 0–1 scale, with labels that never overlap."""

import itertools
import re

from switchgame.tournament.charts import LABEL_GAP, score_chart_svg


def label_heights(svg: str) -> dict[str, float]:
    return {
        name: float(y)
        for y, name in re.findall(r'<text x="\d+" y="([\d.]+)" fill="[^"]+">([^<]+?) \(', svg)
    }


def test_the_leader_is_on_top_and_labels_keep_apart():
    # Seven entries ending on nearly the same score, the leader last in no particular order.
    series = {f"P{n}": [0.5, 0.5 + n / 1000] for n in range(7, 0, -1)}

    svg = score_chart_svg(series, [1, 2])

    heights = label_heights(svg)
    ordered = sorted(heights, key=lambda name: heights[name])
    assert ordered == [f"P{n}" for n in range(7, 0, -1)]  # the top score's label first
    ys = sorted(heights.values())
    assert min(b - a for a, b in itertools.pairwise(ys)) >= LABEL_GAP


def test_an_entry_that_joined_late_starts_where_it_joined():
    svg = score_chart_svg({"Early": [1.0, 0.5], "Late": [None, 1.0]}, [1, 2])

    late = re.search(r'<polyline[^>]*points="([^"]+)"><title>Late', svg)
    assert late is not None
    assert len(late.group(1).split()) == 1
