"""Charts for ``lexc bench`` as standalone SVG text (no plotting library).

Two kinds: a labelled scatter plot (e.g. file size against bytes per word, log x axis) and small
multiples of horizontal bar charts on log scales (one panel per query, one row per structure).
Output is deterministic: the same input gives a byte-identical string, coordinates rounded to
one decimal. Text sizes are estimated from character counts, so layouts are approximate but
never depend on fonts installed on the machine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

# Okabe-Ito (colour-blind safe), then Tableau 10; cycled when there are more series.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000",
           "#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948", "#B07AA1", "#FF9DA7",
           "#9C755F", "#BAB0AC"]
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_LOG_TICK_MULTIPLES = (1, 2, 5)


def _scaled(v: float, units: list[tuple[float, str]]) -> str:
    """``v`` in the largest unit that keeps it at 1 or more, 2 significant digits, integer part kept."""
    if not math.isfinite(v):
        return f"{v} {units[0][1]}"
    sign, v = ("-" if v < 0 else ""), abs(v)
    if v == 0:
        return f"0 {units[0][1]}"
    i = 0
    while i + 1 < len(units) and v >= units[i + 1][0]:
        i += 1
    while True:
        x = v / units[i][0]
        text = f"{x:.0f}" if x >= 9.95 else (f"{x:.1f}" if x >= 1 else f"{x:.2g}")
        if float(text) >= 1000 and i + 1 < len(units):
            i += 1  # 999.7 ns rounds to 1000 ns: say 1 µs instead
            continue
        text = text[:-2] if text.endswith(".0") else text
        if float(text) >= 1000:
            text = f"{round(float(text)):,}"
        return f"{sign}{text} {units[i][1]}"


def format_seconds(s: float) -> str:
    """A duration as "850 ns", "1.2 µs", "35 µs", "4.5 ms", "1.3 s" (2 significant digits)."""
    return _scaled(s, [(1e-9, "ns"), (1e-6, "µs"), (1e-3, "ms"), (1.0, "s")])


def format_bytes(n: float) -> str:
    """A size as "780 B", "175 KB", "3.2 MB", "1.1 GB" (powers of 1000, 2 significant digits)."""
    return _scaled(n, [(1.0, "B"), (1e3, "KB"), (1e6, "MB"), (1e9, "GB"), (1e12, "TB")])


def format_number(x: float) -> str:
    """A plain number for linear axes: "0.5", "19", "1,700" (integers from 10 up, grouped)."""
    if not math.isfinite(x):
        return str(x)
    if abs(x) >= 9.995:
        return f"{round(x):,}"
    text = f"{x:.3g}"
    return "0" if float(text) == 0 else text


def _n(v: float) -> str:
    """A coordinate rounded to one decimal, without a trailing ".0"."""
    text = f"{round(v, 1):.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _esc(s: object) -> str:
    return escape(_BAD_XML.sub("", str(s)), {'"': "&quot;"})


def _width(text: str, size: float) -> float:
    """Estimated rendered width of ``text`` in a sans-serif font of ``size`` px."""
    return 0.6 * size * len(text)


def _text(x: float, y: float, s: str, size: float = 11, anchor: str = "start", extra: str = "") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{_esc(s)}</text>")


def _document(width: float, height: float, title: str, body: list[str], note: str) -> str:
    w, h = math.ceil(width), math.ceil(height)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            'font-family="sans-serif">',
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
            _text(w / 2, 24, title, 16, "middle", ' font-weight="bold"')]
    if note:
        body = [*body, _text(12, h - 8, note, 10, extra=' fill="#555"')]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def _nice_step(span: float, target: int = 5) -> float:
    """A 1, 2 or 5 times 10^k step giving about ``target`` intervals over ``span``."""
    raw = span / target
    mag: float = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * (1 - 1e-9))


def _log_ticks(lo: float, hi: float, px_per_decade: float) -> list[tuple[float, bool]]:
    """Log10 positions of ticks within [lo, hi], each with whether it gets a label: decades, plus
    2 and 5 on ranges under two decades; on crowded axes only every few decades are labelled."""
    multiples = _LOG_TICK_MULTIPLES if hi - lo < 2 else (1,)
    every = max(1, math.ceil(44 / max(px_per_decade, 1e-9)))  # a labelled decade at most every 44 px
    ticks = []
    for d in range(math.floor(lo), math.ceil(hi) + 1):
        ticks += [(d + math.log10(m), (d - math.ceil(lo - 1e-9)) % every == 0) for m in multiples
                  if lo - 1e-9 <= d + math.log10(m) <= hi + 1e-9]
    return ticks


def scatter_svg(points: list[dict[str, Any]], *, title: str, x_label: str, y_label: str,
                x_format: Callable[[float], str] = format_bytes, y_format: Callable[[float], str] = format_number,
                log_x: bool = True, width: int = 720, height: int = 440, note: str = "") -> str:
    """A labelled scatter plot as an SVG document.

    ``points`` are dicts with "label", "x" (> 0 on a log axis), "y" (>= 0) and "group"; markers are
    coloured by group (with a legend) and labelled, labels nudged apart so they do not overprint.
    The x axis is log10 when ``log_x``, the y axis linear from 0 with 1/2/5 steps.
    """
    if not points:
        raise ValueError("scatter_svg needs at least one point")
    for p in points:
        x, y = float(p["x"]), float(p["y"])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"point {p.get('label')!r}: x and y must be finite, got x={x}, y={y}")
        if log_x and x <= 0:
            raise ValueError(f"point {p.get('label')!r}: x must be positive on a log axis, got {x}")
        if y < 0:
            raise ValueError(f"point {p.get('label')!r}: y must be >= 0 (the y axis starts at 0), got {y}")
    groups = list(dict.fromkeys(str(p.get("group", "")) for p in points))
    colour = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    # y: linear from 0, headroom over the highest point
    ymax = max(float(p["y"]) for p in points)
    if ymax < 1e-300:  # all zero (or subnormal): an axis from 0 to 1
        ymax = 1.0
    ystep = _nice_step(ymax * 1.05)
    ytop = math.ceil(ymax * 1.05 / ystep - 1e-9) * ystep
    yticks = [i * ystep for i in range(round(ytop / ystep) + 1)]
    # x: data range padded; at least one decade on a log axis (so there are at least two ticks)
    tx = (lambda v: math.log10(v)) if log_x else float
    xs = [tx(float(p["x"])) for p in points]
    lo, hi = min(xs), max(xs)
    minspan = 1.0 if log_x else (abs(hi) or 1.0)
    if hi - lo < minspan:
        lo, hi = (lo + hi - minspan) / 2, (lo + hi + minspan) / 2
    pad = 0.06 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    # legend rows under the title
    legend, lx, ly = [], 12.0, 46.0
    for g in groups:
        w = 16 + _width(g, 11) + 14
        if lx + w > width - 12 and lx > 12:
            lx, ly = 12.0, ly + 16
        legend += [f'<circle cx="{_n(lx + 5)}" cy="{_n(ly - 4)}" r="5" fill="{colour[g]}"/>',
                   _text(lx + 14, ly, g, 11)]
        lx += w
    ylabels = [y_format(t) for t in yticks]
    left = 36 + max(_width(t, 11) for t in ylabels)
    top, right, bottom = ly + 14, width - 16.0, height - (62 if note else 46)
    if bottom - top < 40:
        raise ValueError(f"height {height} leaves no room for the plot")
    X: Callable[[float], float] = lambda v: left + (tx(v) - lo) / (hi - lo) * (right - left)  # noqa: E731
    Y: Callable[[float], float] = lambda v: bottom - v / ytop * (bottom - top)  # noqa: E731
    body = [*legend, f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(right - left)}" '
                     f'height="{_n(bottom - top)}" fill="none" stroke="#999"/>']
    for t, s in zip(yticks, ylabels, strict=True):
        body += [f'<line x1="{_n(left)}" y1="{_n(Y(t))}" x2="{_n(right)}" y2="{_n(Y(t))}" stroke="#e4e4e4"/>',
                 _text(left - 6, Y(t) + 4, s, 11, "end")]
    if log_x:
        xticks = [(10 ** t, shown) for t, shown in _log_ticks(lo, hi, (right - left) / (hi - lo))]
    else:
        step = _nice_step(hi - lo)
        xticks = [(k * step, True) for k in range(math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9) + 1)]
    for t, shown in xticks:
        body.append(f'<line x1="{_n(X(t))}" y1="{_n(top)}" x2="{_n(X(t))}" y2="{_n(bottom)}" stroke="#e4e4e4"/>')
        if shown:
            body.append(_text(X(t), bottom + 16, x_format(t), 11, "middle"))
    body += [_text((left + right) / 2, bottom + 34, x_label, 12, "middle"),
             _text(16, (top + bottom) / 2, y_label, 12, "middle",
                   f' transform="rotate(-90 16 {_n((top + bottom) / 2)})"')]
    # labels placed greedily top to bottom, right or left of their marker, whichever side needs the
    # smaller push down to clear the labels already placed and every other marker
    pos = [(X(float(p["x"])), Y(float(p["y"]))) for p in points]
    boxes = [(px - 5, px + 5, py - 5, py + 5) for px, py in pos]  # obstacles: (x0, x1, y0, y1)
    marks, labels = [], []
    for i in sorted(range(len(points)), key=lambda i: (pos[i][1], pos[i][0], i)):
        (px, py), label = pos[i], str(points[i].get("label", ""))
        marks.append(f'<circle cx="{_n(px)}" cy="{_n(py)}" r="5" fill="{colour[str(points[i].get("group", ""))]}" '
                     'stroke="white" stroke-width="1"/>')
        w, best = _width(label, 11), None
        for x0 in [x for x in (px + 8, px - 8 - w) if x >= 2 and x + w <= width - 2] or [px + 8]:
            base, moved = py + 4, True
            while moved:
                moved = False
                for k, (a, b, c, d) in enumerate(boxes):
                    if k != i and a < x0 + w and x0 < b and c < base + 2 and base - 9 < d:
                        base, moved = d + 10, True
            if best is None or base < best[1]:
                best = (x0, base)
        assert best is not None  # (the first candidate sets it)
        x0, base = best[0], min(best[1], height - 4)
        boxes.append((x0, x0 + w, base - 9, base + 2))
        if abs(base - 4 - py) > 6:
            labels.append(f'<line x1="{_n(px)}" y1="{_n(py)}" x2="{_n(x0 if x0 > px else x0 + w)}" '
                          f'y2="{_n(base - 4)}" stroke="#aaa" stroke-width="0.8"/>')
        labels.append(_text(x0, base, label, 11, extra=' fill="#222"'))
    return _document(width, height, title, body + marks + labels, note)


def panels_svg(panels: list[dict[str, Any]], series: list[str], *, title: str,
               value_format: Callable[[float], str] = format_seconds, columns: int = 3,
               panel_width: int = 300, bar_height: int = 14, note: str = "") -> str:
    """Small multiples of horizontal log-scale bar charts as an SVG document.

    One panel per entry of ``panels`` ({"title": str, "values": {series: float | None}}), ``columns``
    to a row. Every panel has one row per name in ``series``, in that order and colour, with the
    value printed at the end of its bar; a missing, None or non-finite value keeps its row, marked
    "n/a". Each panel has its own log10 scale, from a decade below its smallest value to a decade
    at or above its largest.
    """
    if not panels:
        raise ValueError("panels_svg needs at least one panel")
    if not series:
        raise ValueError("panels_svg needs at least one series")
    if columns < 1:
        raise ValueError(f"columns must be at least 1, got {columns}")
    values = []
    for panel in panels:
        row = {}
        for name in series:
            v = (panel.get("values") or {}).get(name)
            row[name] = float(v) if v is not None and math.isfinite(float(v)) else None
        values.append(row)
    texts = [value_format(v) for row in values for v in row.values() if v is not None]
    label_w = max(_width(str(s), 11) for s in series) + 10
    value_w = max((_width(t, 10) for t in texts), default=20) + 8
    bar_w = max(panel_width - label_w - value_w - 12, 40.0)
    pw = label_w + bar_w + value_w + 12
    row_h = bar_height + 5
    ph = 20 + len(series) * row_h + 24
    cols = min(columns, len(panels))
    rows = math.ceil(len(panels) / cols)
    width = max(cols * pw + 24, _width(title, 16) + 24, _width(note, 10) + 24)
    top = 40
    height = top + rows * ph + (28 if note else 12)
    colour = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(series)}
    body: list[str] = []
    for k, (panel, row) in enumerate(zip(panels, values, strict=True)):
        ox, oy = 12 + (k % cols) * pw, top + (k // cols) * ph
        x0, y0 = ox + label_w, oy + 20
        body += ['<g class="panel">', _text(x0 + bar_w / 2, oy + 12, str(panel.get("title", "")), 12, "middle",
                                            ' font-weight="bold"')]
        present = [v for v in row.values() if v is not None and v > 0]
        if present:
            lo = math.floor(math.log10(min(present)))
            if min(present) <= 10 ** lo * (1 + 1e-9):
                lo -= 1  # a value on a decade would get an empty bar
            hi = max(math.ceil(math.log10(max(present))), lo + 1)
            for t, shown in _log_ticks(lo, hi, bar_w / (hi - lo)):
                if abs(t - round(t)) > 1e-9:
                    continue
                tx = x0 + (t - lo) / (hi - lo) * bar_w
                body.append(f'<line x1="{_n(tx)}" y1="{_n(y0 - 2)}" x2="{_n(tx)}" '
                            f'y2="{_n(y0 + len(series) * row_h)}" stroke="#e4e4e4"/>')
                if shown:
                    body.append(_text(tx, y0 + len(series) * row_h + 12, value_format(10 ** t), 9, "middle",
                                      ' fill="#555"'))
        body.append(f'<line x1="{_n(x0)}" y1="{_n(y0 - 2)}" x2="{_n(x0)}" '
                    f'y2="{_n(y0 + len(series) * row_h)}" stroke="#999"/>')
        for j, name in enumerate(series):
            ry = y0 + j * row_h
            body.append(_text(x0 - 6, ry + bar_height / 2 + 4, str(name), 11, "end"))
            v = row[name]
            if v is None:
                body.append(_text(x0 + 4, ry + bar_height / 2 + 4, "n/a", 10, extra=' fill="#888"'))
                continue
            w = (math.log10(v) - lo) / (hi - lo) * bar_w if v > 0 else 0.0
            body += [f'<rect class="bar" x="{_n(x0)}" y="{_n(ry)}" width="{_n(w)}" height="{bar_height}" '
                     f'fill="{colour[name]}"><title>{_esc(name)}: {_esc(value_format(v))}</title></rect>',
                     _text(x0 + w + 3, ry + bar_height / 2 + 4, value_format(v), 10, extra=' fill="#222"')]
        body.append("</g>")
    return _document(width, height, title, body, note)
