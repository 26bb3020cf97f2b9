"""The papers' claims measured again, for ``lexc bench``: each with the published figure,
ours on the benchmarked word list, and one line on why they differ. Every sentence of ours is
derived from this run's figures: where a ratio goes the other way than on ENABLE (a small
list, another language), the sentence says that, never ENABLE's explanation.

- Appel & Jacobson 1988: trie-to-DAWG node reduction (117,150 -> 19,853 nodes, 94,240 words;
  780 KB of list -> 175 KB of DAWG).
- Gordon 1994 (as Sheppard 2002 reports it): the GADDAG "nearly five times larger" than the
  DAWG (0.5 MB -> 2.5 MB) and move generation "more than twice as fast".
- Shapiro & Smith 1977, Shapiro 1979: the canonical order of the anagram trie (S last: 21
  against 32 nodes for Figure 2; 2,126 words in 4,262 records), against other orders.
- Norvig 2015: 276,374 prefixes of ENABLE, and the speed of his letter-at-a-time method.
"""

from __future__ import annotations

from typing import Any

from .charts import format_bytes

AJ_WORDS, AJ_TRIE, AJ_DAWG, AJ_LIST_KB, AJ_DAWG_KB = 94_240, 117_150, 19_853, 780, 175
NORVIG_PREFIXES = 276_374


def _pos_s(result: dict[str, Any], fmt: str, strategy: str) -> float | None:
    """Median positions per second of a format x strategy pair, if measured."""
    figures = result["formats"].get(fmt, {}).get("movegen", {}).get(strategy)
    if not figures or "skipped" in figures:
        return None
    median: float = figures["positions_per_s"]["median"]
    return median


def appel_jacobson(result: dict[str, Any], texts: list[str]) -> dict[str, Any]:
    """The trie-to-DAWG node reduction."""
    entry: dict[str, Any] = {
        "paper": "Appel & Jacobson 1988", "claim": "minimizing the trie into a DAWG",
        "published": f"{AJ_TRIE:,} -> {AJ_DAWG:,} nodes ({AJ_TRIE / AJ_DAWG:.1f}x fewer) for {AJ_WORDS:,} words; "
                     f"{AJ_LIST_KB} KB of list -> {AJ_DAWG_KB} KB of DAWG"}
    dawg = result["formats"].get("dawg")
    if not dawg or not dawg.get("trie_nodes"):
        return {**entry, "ours": "not measured (needs the dawg format)", "why": ""}
    list_bytes = sum(len(w) + 1 for w in texts)
    mean = list_bytes / len(texts) - 1
    theirs = AJ_LIST_KB * 1000 / AJ_WORDS - 1
    entry["ours"] = (f"{dawg['trie_nodes']:,} -> {dawg['nodes']:,} nodes "
                     f"({dawg['trie_nodes'] / dawg['nodes']:.1f}x fewer) for {len(texts):,} words; "
                     f"{format_bytes(list_bytes)} of list -> "
                     f"{format_bytes(dawg['file_bytes'])} of DAWG")
    ours, published = dawg["trie_nodes"] / dawg["nodes"], AJ_TRIE / AJ_DAWG
    more, longer = len(texts) > AJ_WORDS, mean > theirs
    if abs(ours - published) < 0.05 * published:
        effect = "these words share about as many endings as theirs did, so merging them saves about as much"
    elif ours > published:
        reason = ("more and longer words share more endings" if more and longer else
                  "more words share more endings" if more else "longer words share more endings" if longer else
                  "these words share more endings than theirs did")
        effect = f"{reason}, so merging them saves more"
    else:
        reason = ("fewer and shorter words share fewer endings" if not more and not longer else
                  "fewer words share fewer endings" if not more else "shorter words share fewer endings"
                  if not longer else "these words share fewer endings than theirs did")
        effect = f"{reason}, so merging them saves less"
    entry["why"] = (f"{len(texts):,} words against their {AJ_WORDS:,}, at {mean:.1f} letters a word against their "
                    f"{theirs:.1f}: {effect}; our file spends 4 bytes an edge ({dawg['edges']:,} edges)")
    entry["figures"] = {"trie_nodes": dawg["trie_nodes"], "dawg_nodes": dawg["nodes"],
                        "reduction": dawg["trie_nodes"] / dawg["nodes"], "published_reduction": AJ_TRIE / AJ_DAWG}
    return entry


def gordon_size(result: dict[str, Any], texts: list[str], short: dict[str, Any] | None) -> dict[str, Any]:
    """The GADDAG's size against the DAWG's."""
    entry: dict[str, Any] = {"paper": "Gordon 1994 (Sheppard 2002)",
                             "claim": "the GADDAG is nearly five times the DAWG",
                             "published": "nearly 5x (0.5 MB -> 2.5 MB)"}
    formats = result["formats"]
    if "dawg" not in formats or "gaddag" not in formats:
        return {**entry, "ours": "not measured (needs dawg and gaddag)", "why": ""}
    ratio = formats["gaddag"]["file_bytes"] / formats["dawg"]["file_bytes"]
    entry["ours"] = (f"{ratio:.2f}x ({format_bytes(formats['dawg']['file_bytes'])} -> "
                     f"{format_bytes(formats['gaddag']['file_bytes'])})")
    entry["figures"] = {"ratio": ratio}
    longest = max((len(w) for w in texts), default=0)
    why = "a word of n letters puts n paths in the GADDAG"
    if not short:
        why += "; lexc bench --full also measures it on short words (Gordon's lexicon was such a list)"
    else:
        short_ratio = short["gaddag"]["file_bytes"] / short["dawg"]["file_bytes"]
        entry["figures"]["ratio_short"] = short_ratio
        words = (f"the {short['words']:,} words of at most {short['max_len']} letters"
                 + (f" (the list's longest word has {longest} letters)" if longest else ""))
        why += (f", so the ratio grows with word length: on {words} it is {short_ratio:.2f}x" if short_ratio < ratio
                else f"; on {words} the ratio is {short_ratio:.2f}x, no smaller: on this list the word lengths do "
                     "not explain it")
    entry["why"] = why
    return entry


def _compact(result: dict[str, Any], fmt: str, strategy: str) -> dict[str, Any] | None:
    """A pair's move-generation figures, if measured."""
    figures = result["formats"].get(fmt, {}).get("movegen", {}).get(strategy)
    return None if not figures or "skipped" in figures else figures


_BLANKS = {"0": "no blank", "1": "one blank", "2": "two blanks"}


def _by_blanks_ratio(gordon: dict[str, Any], aj: dict[str, Any]) -> list[tuple[str, float, float | None]]:
    """(blanks, Gordon's speed over Appel & Jacobson's, their edges read over Gordon's) for each
    number of blanks on the rack both were timed on (compact results, per-position medians)."""
    g_ms, a_ms = gordon.get("compact_ms_per_position") or {}, aj.get("compact_ms_per_position") or {}
    g_edges, a_edges = gordon.get("search_edges_by_blanks") or {}, aj.get("search_edges_by_blanks") or {}
    out = []
    for b in sorted(set(g_ms) & set(a_ms)):
        if g_ms[b] and a_ms[b]:
            edges = a_edges[b] / g_edges[b] if g_edges.get(b) and a_edges.get(b) else None
            out.append((b, a_ms[b] / g_ms[b], edges))
    return out


def gordon_speed(result: dict[str, Any]) -> dict[str, Any]:
    """Gordon's move generation on the GADDAG against Appel & Jacobson's on the DAWG: on the
    compiled core where it ran (compact results: the search and scoring alone), and on the
    pure-Python path; the edges each search read and the structures' sizes explain the ratio."""
    entry: dict[str, Any] = {"paper": "Gordon 1994 (Sheppard 2002)",
                             "claim": "GADDAG move generation is more than twice as fast as the DAWG's",
                             "published": "more than 2x"}
    gaddag, dawg = _compact(result, "gaddag", "gordon"), _compact(result, "dawg", "appel-jacobson")
    if gaddag is None or dawg is None:
        return {**entry, "ours": "not measured (needs gaddag x gordon and dawg x appel-jacobson)", "why": ""}
    key = "compact_positions_per_s" if "compact_positions_per_s" in gaddag else "positions_per_s"
    fast, base = gaddag[key]["median"], dawg[key]["median"]
    engine = gaddag.get("engine", "pure Python")
    speedup = fast / base
    entry["ours"] = f"{speedup:.2f}x on the {engine} ({fast:,.0f} against {base:,.0f} positions per second)"
    figures: dict[str, Any] = {"speedup": speedup, "engine": engine}
    # the two searches on one file: the gaddawg, whose stored DAWG root lets Appel & Jacobson's
    # search run as it does on a DAWG (the gaddag's DAWG root is rebuilt in memory), else the gaddag
    for one in ("gaddawg", "gaddag"):
        g_one, aj_one = _compact(result, one, "gordon"), _compact(result, one, "appel-jacobson")
        if g_one and aj_one and key in g_one and key in aj_one:
            same_file = g_one[key]["median"] / aj_one[key]["median"]
            entry["ours"] += f"; on the {one} itself Gordon runs at {same_file:.2f}x Appel & Jacobson's speed"
            figures["speedup_same_file"] = same_file
            by_blanks = _by_blanks_ratio(g_one, aj_one)
            if by_blanks:
                entry["ours"] += " (" + ", ".join(f"{_BLANKS[b]} {r:.2f}x" for b, r, _ in by_blanks) + ")"
                figures["same_file_by_blanks"] = {b: {"speedup": r, "edges_ratio": e} for b, r, e in by_blanks}
            break
    pure_g, pure_d = _compact(result, "gaddag (pure)", "gordon"), _compact(result, "dawg (pure)", "appel-jacobson")
    if pure_g and pure_d:
        pure = pure_g["positions_per_s"]["median"] / pure_d["positions_per_s"]["median"]
        entry["ours"] += f"; {pure:.2f}x on the pure-Python path"
        figures["speedup_pure"] = pure
    elif result.get("full_only") and engine != "pure Python":
        entry["ours"] += "; on the pure-Python path: lexc bench --full"
    why = []
    edges_g, edges_d = gaddag.get("search_edges_per_position"), dawg.get("search_edges_per_position")
    if edges_g and edges_d:
        figures["edges_ratio"] = edges_d / edges_g
        why.append(f"the GADDAG search reads {edges_d / edges_g:.2f}x fewer edges" if edges_g <= edges_d else
                   f"the GADDAG search reads {edges_g / edges_d:.2f}x more edges, not fewer")
        why[-1] += f" ({edges_g:,.0f} against {edges_d:,.0f} a position, medians)"
    sizes = {f: result["formats"].get(f, {}).get("file_bytes") for f in ("gaddag", "dawg")}
    if sizes["gaddag"] and sizes["dawg"]:
        ratio = sizes["gaddag"] / sizes["dawg"]
        figures["size_ratio"] = ratio
        why.append(f"and they lie in a structure {ratio:.1f}x the DAWG's size")
    # the same search over the same edges, in the DAWG and in the gaddawg's DAWG half: what
    # the bigger array alone costs
    same = _compact(result, "gaddawg", "appel-jacobson")
    if same and same.get("search_edges_per_position") == edges_d and key in same:
        cost = dawg[key]["median"] / same[key]["median"]
        figures["layout_cost"] = cost
        reading = f"Appel & Jacobson reading the same {edges_d:,.0f} edges in the gaddawg's DAWG half runs "
        if cost > 1:
            bigger = f"a {ratio:.1f}x bigger array" if sizes["gaddag"] and sizes["dawg"] else "a bigger array"
            why.append(f"{reading}{cost:.2f}x slower than in the DAWG: the edges sit in {bigger}, "
                       "where a read is likelier to miss the processor's caches")
        else:
            why.append(f"{reading}{1 / cost:.2f}x as fast as in the DAWG: the bigger array costs nothing measurable "
                       "on this list")
    blanks = figures.get("same_file_by_blanks") or {}
    if blanks and all(f["edges_ratio"] for f in blanks.values()):
        why.append("on one file, Appel & Jacobson's search reads " + ", ".join(
            f"{f['edges_ratio']:.1f}x Gordon's edges with {_BLANKS[b]}"
            for b, f in sorted(blanks.items())) + ": its left parts are every string the rack spells before the "
            "anchor (a blank makes each square 26 choices), checked against the board only afterwards, where "
            "Gordon's start from the anchor's letter or the board's tiles and go left only along the GADDAG's "
            "paths; the gap in time is smaller than in edges, as Gordon's edges lie in the bigger array, where "
            "more reads miss the caches")
    why = [w for w in why if w]
    if "speedup_pure" in figures:
        pure, compiled = figures["speedup_pure"], speedup
        nearer = "closer to" if abs(pure - 1) < abs(compiled - 1) else "further from"
        why.append(f"on the pure-Python path the ratio is {pure:.2f}x, {nearer} "
                   "even: an edge read costs there about what a lookup or a call does, so the ratio follows the work "
                   "done per play rather than the edges read")
    gordon_holds = speedup > 2
    why.append("so Gordon's claim holds on this machine" if gordon_holds else
               "so the GADDAG is faster here, but not twice" if speedup > 1 else
               "so the DAWG is the faster of the two here: Gordon's claim does not hold on this machine")
    entry["why"] = "; ".join(why)
    entry["figures"] = figures
    return entry


def shapiro_smith(result: dict[str, Any], orders: dict[str, Any] | None) -> dict[str, Any]:
    """The anagram trie's canonical order against other orders."""
    entry: dict[str, Any] = {
        "paper": "Shapiro & Smith 1977, Shapiro 1979", "claim": "the canonical order (valuable letters first, S last)",
        "published": "S last: 21 nodes for Figure 2 against 32 with S before L; 2,126 words in 4,262 records"}
    if not orders:
        ours = ("not measured by a default run (lexc bench --full builds the anagram trie in each order)"
                if "anatrie" in result["formats"] else "not measured (needs anatrie)")
        return {**entry, "ours": ours, "why": ""}
    words = result["words"]
    best = min(orders, key=lambda o: orders[o]["nodes"])
    fewest_reads = min(orders, key=lambda o: orders[o]["subanagram2"]["nodes_read"])
    parts = []
    if "1979" in orders and "1979-s-before-l" in orders:
        last, before = orders["1979"]["nodes"], orders["1979-s-before-l"]["nodes"]
        parts.append(f"S last: {last:,} nodes against {before:,} with S before L ({before / last:.2f}x); "
                     f"{last / words:.2f} nodes a word")
    parts.append(f"fewest nodes: {best} order ({orders[best]['nodes']:,})")
    parts.append(f"fewest nodes read by a 2-blank sub-anagram search: {fewest_reads} order "
                 f"({orders[fewest_reads]['subanagram2']['nodes_read']:,.0f}"
                 + (f" against {orders['1979']['subanagram2']['nodes_read']:,.0f} for 1979)" if "1979" in orders
                    else ")"))
    entry["ours"] = "; ".join(parts)
    why = []
    if "1979" in orders and "1979-s-before-l" in orders:
        why.append("S last holds for the same reason (a word and its plural share a path)"
                   if orders["1979"]["nodes"] < orders["1979-s-before-l"]["nodes"] else
                   "S last does not save nodes on this list (its words rarely differ by a final S)")
    if "1979" in orders:  # (what is said of the papers' order needs it measured)
        if best == "1979":
            why.append("the papers' own order is also the smallest here")
        else:
            why.append(f"the {best} order shares more at the top of the trie than the papers' (rare letters first, "
                       "so the most valuable words come out first)")
        if fewest_reads != "1979":
            why.append(f"a blank reads fewest nodes in the {fewest_reads} order: in the papers' order it descends "
                       "into every rare letter's subtrie first")
        else:
            why.append("and the papers' order also reads the fewest nodes for a blank here")
    entry["why"] = "; ".join(why)
    entry["orders"] = orders
    return entry


def norvig(result: dict[str, Any], texts: list[str]) -> dict[str, Any]:
    """Norvig's prefix count and the speed of his method."""
    prefixes = len({w[:i] for w in texts for i in range(len(w))})
    entry: dict[str, Any] = {"paper": "Norvig 2015", "claim": "the prefixes of ENABLE; his letter-at-a-time method",
                             "published": f"{NORVIG_PREFIXES:,} prefixes (the empty one included); no timings printed"}
    speeds = []
    for fmt in ("prefixset", "dawg"):
        pos_s = _pos_s(result, fmt, "naive")
        if pos_s is not None:
            ms = result["formats"][fmt]["movegen"]["naive"]["ms_per_position"]
            speeds.append(f"naive on {fmt} {pos_s:.1f} positions per second ("
                          + ", ".join(f"{v:,.0f} ms with {b}?" for b, v in ms.items()) + ")")
    entry["ours"] = f"{prefixes:,} prefixes" + ("; " + "; ".join(speeds) if speeds else
                                                "; his method's speed: lexc bench --full (naive)")
    same = prefixes == NORVIG_PREFIXES
    entry["why"] = (("the same list (his enable1.txt) gives the same count" if same else
                     "a different word list gives a different count")
                    + "; naive is his method over lexc's membership and is-prefix, and he printed no times to compare")
    entry["figures"] = {"prefixes": prefixes, "published_prefixes": NORVIG_PREFIXES}
    return entry


def papers_section(result: dict[str, Any], texts: list[str], jobs: dict[str, Any]) -> list[dict[str, Any]]:
    """Every claim, in the order the papers appeared."""
    return [shapiro_smith(result, jobs.get("orders")), appel_jacobson(result, texts),
            gordon_size(result, texts, jobs.get("short")), gordon_speed(result), norvig(result, texts)]

