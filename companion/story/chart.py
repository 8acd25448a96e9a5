"""A group's rates as a small SVG chart drawn here (no chart library, nothing fetched): per
result, the table's bar above the simulator's, each with its percentage written out, so the
figures read without the bars too."""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

WIDTH = 360
LABEL = 150  # the results' names, left of the bars
BAR = 14
ROW = 2 * BAR + 14
TOP = 26  # the legend's line
TABLE_COLOUR = "#1f5fa8"
SIMULATED_COLOUR = "#8a94a3"


def _bar(y: float, rate: float | None, colour: str, kind: str) -> str:
    """One bar and its percentage (a dash when there is no rate)."""
    span = WIDTH - LABEL - 48
    length = round(span * (rate or 0.0), 1)
    said = "–" if rate is None else f"{rate:.0%}"
    return (
        f'<rect class="{kind}" x="{LABEL}" y="{y}" width="{length}" height="{BAR}" '
        f'fill="{colour}"/>'
        f'<text x="{LABEL + length + 4}" y="{y + BAR - 3}" font-size="11">{said}</text>'
    )


def rates_chart(
    rates: dict[str, float],
    simulated: dict[str, float] | None,
    label: Callable[[str], str],
    legend: tuple[str, str],
    title: str,
) -> str:
    """The chart of one group: `rates` and `simulated` map a result to its share of the games,
    `label` names a result, `legend` names the two bars (this table, the simulator)."""
    results = sorted({*rates, *(simulated or {})})
    height = TOP + ROW * max(len(results), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="history-chart" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label={quoteattr(title)} font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="4" width="10" height="10" fill="{TABLE_COLOUR}"/>',
        f'<text x="14" y="13" font-size="11">{escape(legend[0])}</text>',
        f'<rect x="{WIDTH // 2}" y="4" width="10" height="10" fill="{SIMULATED_COLOUR}"/>',
        f'<text x="{WIDTH // 2 + 14}" y="13" font-size="11">{escape(legend[1])}</text>',
    ]
    for i, result in enumerate(results):
        y = TOP + i * ROW
        parts.append(
            f'<text class="result" x="0" y="{y + BAR + 4}" font-size="12">'
            f"{escape(label(result))}</text>"
        )
        parts.append(_bar(y, rates.get(result, 0.0), TABLE_COLOUR, "table"))
        sim = None if simulated is None else simulated.get(result, 0.0)
        parts.append(_bar(y + BAR + 2, sim, SIMULATED_COLOUR, "simulated"))
    parts.append("</svg>")
    return "".join(parts)
