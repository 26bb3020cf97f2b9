"""The SVG charts of `lexc bench`: well-formed, complete, escaped, deterministic, and drawn to scale."""

from __future__ import annotations

import copy
import itertools
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexc.bench.charts import format_bytes, format_number, format_seconds, panels_svg, scatter_svg

NS = "{http://www.w3.org/2000/svg}"

POINTS = [
    {"label": "dawg", "x": 489148, "y": 19.3, "group": "graph"},
    {"label": "gaddag", "x": 3226616, "y": 15.0, "group": "graph"},
    {"label": "gaddawg", "x": 3226720, "y": 15.7, "group": "graph"},
    {"label": "prefixset", "x": 688829, "y": 10.6, "group": "set"},
    {"label": "prefixset-aho", "x": 776176, "y": 12.1, "group": "set"},
    {"label": "anatrie", "x": 3039854, "y": 17.4, "group": "anagram trie"},
]
SERIES = ["dawg", "gaddag", "prefixset", "anatrie", "python-set", "marisa-trie"]
PANELS = [
    {"title": "member", "values": {"dawg": 4.9e-6, "gaddag": 8.6e-6, "prefixset": 1.6e-6, "anatrie": 16e-6,
                                   "python-set": 0.09e-6, "marisa-trie": 0.4e-6}},
    {"title": "prefix", "values": {"dawg": 2.1e-3, "gaddag": 3.3e-3, "prefixset": 0.9e-3, "anatrie": 0.063,
                                   "python-set": None, "marisa-trie": 0.25e-3}},
    {"title": "anagram 2 blanks", "values": {"dawg": 6e-3, "gaddag": 9e-3, "anatrie": 7e-3, "python-set": 53e-3}},
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def scatter(points=POINTS, **kw) -> str:
    kw = {"title": "size & speed", "x_label": "file size", "y_label": "bytes per word", **kw}
    return scatter_svg(points, **kw)


def circles(root: ET.Element) -> list[tuple[float, float]]:
    """Centres of the point markers (legend swatches, which sit above the plot, come first)."""
    return [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{NS}circle") if c.get("stroke") == "white"]


def bars(panel: ET.Element) -> dict[str, float]:
    """Series name -> bar width of one panel group, read back from the rects."""
    out = {}
    for rect in panel.iter(f"{NS}rect"):
        if rect.get("class") == "bar":
            name = rect.find(f"{NS}title").text.rsplit(": ", 1)[0]
            out[name] = float(rect.get("width"))
    return out


def panel_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "panel"]


@pytest.mark.parametrize("fn,value,expected", [
    (format_seconds, 850e-9, "850 ns"), (format_seconds, 1.2e-6, "1.2 µs"), (format_seconds, 35e-6, "35 µs"),
    (format_seconds, 4.5e-3, "4.5 ms"), (format_seconds, 1.3, "1.3 s"), (format_seconds, 0.063, "63 ms"),
    (format_seconds, 1e-6, "1 µs"), (format_seconds, 999.7e-9, "1 µs"), (format_seconds, 50e-9, "50 ns"),
    (format_seconds, 0, "0 ns"), (format_seconds, 2500, "2,500 s"),
    (format_bytes, 780, "780 B"), (format_bytes, 175_000, "175 KB"), (format_bytes, 3.2e6, "3.2 MB"),
    (format_bytes, 1.1e9, "1.1 GB"), (format_bytes, 489148, "489 KB"), (format_bytes, 3226720, "3.2 MB"),
    (format_bytes, 1e6, "1 MB"), (format_bytes, 5, "5 B"),
    (format_number, 0.5, "0.5"), (format_number, 19, "19"), (format_number, 19.3, "19"),
    (format_number, 1700, "1,700"), (format_number, 0, "0"), (format_number, 2.5, "2.5"),
    (format_number, 0.30000000000000004, "0.3"), (format_number, 105, "105"),
])
def test_formatters(fn, value, expected):
    assert fn(value) == expected


def test_scatter_document():
    svg = scatter(note="enable1; median of 5")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ')
    root = parse(svg)
    w, h = int(root.get("width")), int(root.get("height"))
    assert (w, h) == (720, 440) and root.get("viewBox") == f"0 0 {w} {h}"
    assert root.get("font-family") == "sans-serif"
    first = root[0]
    assert first.tag == f"{NS}rect" and first.get("fill") == "white"
    shown = texts(root)
    for p in POINTS:
        assert p["label"] in shown and p["group"] in shown
    assert {"size & speed", "file size", "bytes per word", "enable1; median of 5"} <= set(shown)
    assert len(circles(root)) == len(POINTS)


def test_scatter_labels_stay_on_canvas_and_apart():
    root = parse(scatter())
    w = int(root.get("width"))
    boxes = []  # estimated as the module does: 0.6 em per character, 11 px text
    for t in root.iter(f"{NS}text"):
        if t.text in {p["label"] for p in POINTS} and t.get("text-anchor") == "start" and t.get("fill") == "#222":
            x, y = float(t.get("x")), float(t.get("y"))
            boxes.append((x, x + 6.6 * len(t.text), y))
            assert x >= 0 and x + 6.6 * len(t.text) <= w
    assert len(boxes) == len(POINTS)
    for i, (a0, a1, ay) in enumerate(boxes):
        for b0, b1, by in boxes[i + 1:]:
            assert not (a0 < b1 and b0 < a1 and abs(ay - by) < 11), (ay, by)


def test_escaping():
    nasty = "a&b <c> \"d\" 'e' ?"
    svg = scatter([{"label": nasty, "x": 10, "y": 1, "group": "<g&>"}], title="t & <u>", note="x < y")
    assert "<c>" not in svg
    shown = texts(parse(svg))
    assert {nasty, "<g&>", "t & <u>", "x < y"} <= set(shown)
    svg = panels_svg([{"title": "p&<q>", "values": {"s&<t>": 1e-3}}], ["s&<t>"], title="?&")
    shown = texts(parse(svg))
    assert {"p&<q>", "s&<t>", "?&"} <= set(shown)


def test_deterministic():
    assert scatter() == scatter(copy.deepcopy(POINTS))
    assert panels_svg(PANELS, SERIES, title="t") == panels_svg(copy.deepcopy(PANELS), list(SERIES), title="t")


def test_coordinates_rounded():
    for root in (parse(scatter()), parse(panels_svg(PANELS, SERIES, title="t"))):
        for el in root.iter():
            for key in ("x", "y", "cx", "cy", "x1", "y2", "width", "height"):
                if el.get(key) is not None:
                    assert len(el.get(key).partition(".")[2]) <= 1, (el.tag, key, el.get(key))


def test_log_axis_positions():
    points = [{"label": str(x), "x": x, "y": 1, "group": "g"} for x in (1e3, 1e4, 1e5, 1e6)]
    xs = sorted(cx for cx, _ in circles(parse(scatter(points))))
    assert xs[3] > xs[0]
    assert abs((xs[1] - xs[0]) - (xs[2] - xs[1])) <= 0.2 and abs((xs[2] - xs[1]) - (xs[3] - xs[2])) <= 0.2
    shown = texts(parse(scatter(points)))
    assert {"1 KB", "10 KB", "100 KB", "1 MB"} <= set(shown)


def test_short_log_axis_has_2_and_5_ticks():
    shown = texts(parse(scatter()))
    assert {"500 KB", "1 MB", "2 MB"} <= set(shown)


def test_y_axis_from_zero_with_nice_ticks():
    root = parse(scatter())
    ticks = [t.text for t in root.iter(f"{NS}text") if t.get("text-anchor") == "end"]
    assert ticks[0] == "0" and "20" in ticks
    values = [float(t.replace(",", "")) for t in ticks]
    steps = {round(b - a, 9) for a, b in itertools.pairwise(values)}
    assert len(steps) == 1 and steps.pop() in {1, 2, 5, 10}


@pytest.mark.parametrize("points", [
    [{"label": "only", "x": 5e5, "y": 3, "group": "g"}],
    [{"label": f"p{i}", "x": 1e6, "y": i, "group": "g"} for i in range(6)],
    [{"label": f"p{i}", "x": 10 ** i, "y": 0, "group": str(i % 3)} for i in range(1, 9)],
    [{"label": f"p{i}", "x": 7, "y": 0, "group": "g"} for i in range(3)],
])
def test_scatter_edge_cases(points):
    shown = texts(parse(scatter(points)))
    assert all(p["label"] in shown for p in points)


def test_scatter_linear_x():
    points = [{"label": "a", "x": 0, "y": 1, "group": "g"}, {"label": "b", "x": -3, "y": 2, "group": "g"}]
    root = parse(scatter(points, log_x=False, x_format=format_number))
    (xa, _), (xb, _) = sorted(circles(root), key=lambda c: c[1], reverse=True)
    assert xb < xa


def test_scatter_errors():
    with pytest.raises(ValueError, match="at least one point"):
        scatter([])
    for x in (0, -5):
        with pytest.raises(ValueError, match="positive"):
            scatter([{"label": "z", "x": x, "y": 1, "group": "g"}])
    with pytest.raises(ValueError, match="y must be"):
        scatter([{"label": "z", "x": 1, "y": -1, "group": "g"}])


def test_panels_document():
    svg = panels_svg(PANELS, SERIES, title="query time", note="lower is better")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ')
    root = parse(svg)
    w, h = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {w} {h}" and root[0].get("fill") == "white"
    shown = texts(root)
    assert {"query time", "lower is better"} <= set(shown)
    groups = panel_groups(root)
    assert len(groups) == len(PANELS)
    for panel, group in zip(PANELS, groups, strict=True):
        gt = texts(group)
        assert panel["title"] in gt and all(gt.count(s) == 1 for s in SERIES)
        drawn = bars(group)
        assert set(drawn) == {s for s, v in panel["values"].items() if v is not None}
        assert gt.count("n/a") == len(SERIES) - len(drawn)
        for _name, v in panel["values"].items():
            if v is not None:
                assert format_seconds(v) in gt


def test_panels_rows_line_up_and_colours_fixed():
    root = parse(panels_svg(PANELS, SERIES, title="t", columns=3))
    rows = []
    colours: dict[str, set[str]] = {}
    for group in panel_groups(root):
        labels = [t for t in group.iter(f"{NS}text") if t.text in SERIES]
        assert [t.text for t in labels] == SERIES
        rows.append([t.get("y") for t in labels])
        for rect in group.iter(f"{NS}rect"):
            if rect.get("class") == "bar":
                colours.setdefault(rect.find(f"{NS}title").text.split(":")[0], set()).add(rect.get("fill"))
    assert all(r == rows[0] for r in rows)
    assert all(len(c) == 1 for c in colours.values())
    assert len({c.pop() for c in colours.values()}) == len(colours)


def test_bar_width_monotonic_in_value():
    root = parse(panels_svg(PANELS, SERIES, title="t"))
    for panel, group in zip(PANELS, panel_groups(root), strict=True):
        drawn = bars(group)
        ordered = sorted(drawn, key=lambda s: panel["values"][s])
        widths = [drawn[s] for s in ordered]
        assert widths == sorted(widths) and widths[0] > 0


def test_bar_lengths_are_logarithmic():
    values = {"a": 1e-6, "b": 1e-5, "c": 1e-4, "d": 1e-3}
    drawn = bars(panel_groups(parse(panels_svg([{"title": "p", "values": values}], list(values), title="t")))[0])
    steps = [drawn[b] - drawn[a] for a, b in zip("abc", "bcd", strict=True)]
    assert max(steps) - min(steps) <= 0.2 and steps[0] > 0


def test_height_grows_with_content():
    def height(panels, series):
        return int(parse(panels_svg(panels, series, title="t", columns=2)).get("height"))
    assert height(PANELS, SERIES) > height(PANELS[:2], SERIES) > height(PANELS[:2], SERIES[:2])


def test_panels_edge_cases():
    one = panels_svg([{"title": "only", "values": {"a": 2e-3}}], ["a"], title="t")
    assert "only" in texts(parse(one))
    root = parse(panels_svg([{"title": "empty", "values": {"a": None}}, {"title": "none", "values": {}},
                             {"title": "no values"}], ["a", "b"], title="t"))
    for group in panel_groups(root):
        assert texts(group).count("n/a") == 2 and not bars(group)
    root = parse(panels_svg([{"title": "same", "values": {"a": 3e-6, "b": 3e-6, "c": 1e-6}}], ["a", "b", "c"],
                            title="t"))
    drawn = bars(panel_groups(root)[0])
    assert drawn["a"] == drawn["b"] > drawn["c"] > 0
    root = parse(panels_svg([{"title": "flat", "values": {"a": 1e-6, "b": 1e-6}}], ["a", "b"], title="t"))
    drawn = bars(panel_groups(root)[0])
    assert drawn["a"] == drawn["b"] > 0
    ticks = [t.text for t in panel_groups(root)[0].iter(f"{NS}text") if t.get("font-size") == "9"]
    assert len(ticks) >= 2  # the scale spans at least one decade


def test_panels_errors():
    with pytest.raises(ValueError, match="panel"):
        panels_svg([], SERIES, title="t")
    with pytest.raises(ValueError, match="series"):
        panels_svg(PANELS, [], title="t")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=1e-9, max_value=100.0, allow_nan=False, allow_infinity=False),
                min_size=1, max_size=12),
       st.integers(min_value=1, max_value=4))
def test_property_bar_widths_order_like_values(values, columns):
    series = [f"s{i}" for i in range(len(values))]
    panels = [{"title": "p", "values": dict(zip(series, values, strict=True))},
              {"title": "q", "values": dict(zip(series, reversed(values), strict=True))}]
    root = parse(panels_svg(panels, series, title="t", columns=columns))
    for panel, group in zip(panels, panel_groups(root), strict=True):
        drawn = bars(group)
        assert set(drawn) == set(series)
        for a in series:
            for b in series:
                if panel["values"][a] < panel["values"][b]:
                    assert drawn[a] <= drawn[b]
        assert all(w > 0 for w in drawn.values())


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn")), max_size=12),
                          st.floats(min_value=1.0, max_value=1e10),
                          st.floats(min_value=0.0, max_value=1e4)),
                min_size=1, max_size=10))
def test_property_scatter_parses(rows):
    points = [{"label": label, "x": x, "y": y, "group": label[:1]} for label, x, y in rows]
    svg = scatter(points)
    root = parse(svg)
    assert len(circles(root)) == len(points)
    assert svg == scatter(copy.deepcopy(points))
    w, h = float(root.get("width")), float(root.get("height"))
    assert all(0 <= cx <= w and 0 <= cy <= h for cx, cy in circles(root))
