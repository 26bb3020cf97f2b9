"""The measurements behind ``lexc bench``: size, build, load, memory and query speed of every
format, beside two baselines (a plain Python set with Norvig's prefix set, and marisa-trie).

Every timing is repeated and reported as median, min and max; memory is the peak resident
size of a fresh process that loads the file and answers queries. Figures come from here,
never from timed tests.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from . import formats
from ._version import __version__
from .formats import FORMATS
from .baselines import AlphagramDict, AlphagramTrie, MarisaBaseline, SetBaseline, baseline_hooks, prefix_anagrams
from .source import bundled_wordlist, read_list

QUERY_SEED = 2026
BAG = "".join(c * k for c, k in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                    (9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1)))


def summarize(samples: list[float]) -> dict[str, float]:
    """Median, min and max of repeated measurements."""
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[dict[str, float], Any]:
    """Run ``fn`` ``repeat`` times; seconds summarized, and the last result."""
    samples, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - t)
    return summarize(samples), result


def make_queries(words: list[str], n: int = 1000) -> dict[str, list[str]]:
    """A fixed, seeded query set: words and near misses, prefixes, racks, hook words."""
    rng = random.Random(QUERY_SEED)
    sample = rng.sample(words, min(n, len(words)))
    misses = [w[:-1] + "Q" for w in sample[: n // 2]]
    racks = {b: ["".join(rng.sample(BAG, 7 - b)) + "?" * b for _ in range(12 if b < 2 else 6)] for b in (0, 1, 2)}
    return {
        "member": sample[: n // 2] + misses,
        "prefix": [w[: max(1, len(w) // 2)] for w in sample],
        "anagram0": racks[0], "anagram1": racks[1], "anagram2": racks[2],
        "hooks": sample[:200],
    }


def time_queries(lex, queries: dict[str, list[str]], repeat: int, native: bool,
                 budget_s: float = 2.0) -> dict[str, Any]:
    """Per-query seconds (median over repeats of the mean over the query set). A query kind
    whose first query is slow (an anagram trie's is-prefix reads the whole file) is timed on
    as many of its queries as fit ``budget_s`` per run; ``queries`` then says how many.
    Formats that count what a search reads (``last_stats``) also get the median bytes and
    nodes read per anagram query."""
    if native or hasattr(lex, "anagrams"):
        anagram = lambda r: lex.anagrams(r, sub=True)  # noqa: E731
    else:
        anagram = lambda r: prefix_anagrams(lex, r)  # noqa: E731
    hooks = (lambda w: lex.hooks(w)) if native else (lambda w: baseline_hooks(lex, w))
    ask = {"member": lambda w: w in lex, "prefix": getattr(lex, "is_prefix", None), "hooks": hooks,
           "anagram0": anagram, "anagram1": anagram, "anagram2": anagram}
    if not hasattr(lex, "is_prefix"):  # an anagram-only structure: no spelling order to ask
        del ask["prefix"], ask["hooks"]
    out: dict[str, Any] = {}
    for name, fn in ask.items():
        items = queries[name]
        t = time.perf_counter()
        fn(items[0])
        first = time.perf_counter() - t
        if first * len(items) > budget_s:
            items = items[: max(1, int(budget_s / max(first, 1e-9)))]
        summary, _ = timed(lambda: [fn(q) for q in items], repeat)
        out[name] = {k: v / len(items) for k, v in summary.items()}
        out[name]["queries"], out[name]["of"] = len(items), len(queries[name])
    if native and isinstance(getattr(lex, "last_stats", None), dict):
        out["read"] = {}
        for b in (0, 1, 2):
            counts = []
            for rack in queries[f"anagram{b}"]:
                lex.anagrams(rack, sub=True)
                counts.append(dict(lex.last_stats))
            out["read"][f"anagram{b}"] = {k: statistics.median(c[k] for c in counts) for k in counts[0]}
    return out


_MEMORY_PROBE = """
import resource, sys, json
def peak_kb():
    # VmHWM belongs to this process image; ru_maxrss can carry the forking parent's peak
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kind, path = sys.argv[1], sys.argv[2]
before = peak_kb()
if kind == "build":
    from lexc import formats
    from lexc.source import read_list
    formats.build(read_list(path), sys.argv[3])
elif kind == "lexc":
    import lexc
    lex = lexc.load(path)
    lex.anagrams("RETAIN??", sub=True); lex.hooks("CARE"); "CARE" in lex
elif kind == "marisa":
    import marisa_trie
    t = marisa_trie.Trie(); t.load(path); "CARE" in t; next(t.iterkeys("CAR"), None)
else:
    words = open(path, encoding="utf-8").read().upper().split()
    s = set(words); p = {w[:i] for w in words for i in range(len(w))}
print(json.dumps({"peak_kb": peak_kb(), "start_kb": before}))
"""


def peak_memory(kind: str, path: str, *extra: str) -> dict[str, float]:
    """Peak RSS (MB) of a fresh interpreter loading the structure and answering queries
    (kind ``build``: reading the word list at ``path`` and building format ``extra[0]``),
    and the interpreter's own start-up peak."""
    res = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, kind, path, *extra], capture_output=True,
                         text=True, check=True)
    data = json.loads(res.stdout)
    return {"peak_mb": data["peak_kb"] / 1024, "start_mb": data["start_kb"] / 1024}


def run_bench(wordlist: str | None = None, repeat: int = 5, formats_: list[str] | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Measure every format (and the baselines) on a word list; the JSON-ready result."""
    import marisa_trie

    note = progress or (lambda _m: None)
    source = Path(wordlist) if wordlist else bundled_wordlist()
    words = read_list(source)
    texts = words.texts()
    queries = make_queries(texts)
    result: dict[str, Any] = {"wordlist": str(source), "words": len(words), "repeat": repeat,
                              "lexc_version": __version__, "machine": machine_info(), "formats": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name in formats_ or list(FORMATS):
            note(f"bench: {name}")
            build_t, lex = timed(lambda: formats.build(words, name), repeat)
            read_t, _ = timed(lambda: read_list(source), repeat)
            path = Path(tmp) / f"bench.{name}"
            size = formats.save(lex, path, {"min_len": 2, "max_len": None, "skip_invalid": False})  # as `build`
            load_t, lex = timed(lambda: formats.load(path), repeat)
            stats = lex.stats()
            result["formats"][name] = {
                "build_s": build_t, "read_s": read_t, "file_bytes": size, "bytes_per_word": size / len(words),
                "nodes": stats.get("nodes"), "edges": stats.get("edges"), "load_s": load_t,
                "memory": peak_memory("lexc", str(path)),
                "build_memory": peak_memory("build", str(source), name),
                "query_s": time_queries(lex, queries, repeat, native=True),
            }
        result["ratios"] = size_ratios(result["formats"])
        note("bench: python set baseline")
        build_t, base = timed(lambda: SetBaseline(texts), repeat)
        text_path = Path(tmp) / "words.txt"
        text_path.write_text("\n".join(texts) + "\n", encoding="utf-8")
        load_t, _ = timed(lambda: SetBaseline(text_path.read_text(encoding="utf-8").split()), repeat)
        result["formats"]["python-set"] = {
            "build_s": build_t, "file_bytes": text_path.stat().st_size,
            "bytes_per_word": text_path.stat().st_size / len(words), "load_s": load_t,
            "memory": peak_memory("set", str(text_path)),
            "query_s": time_queries(base, queries, repeat, native=False),
        }
        note("bench: marisa-trie baseline")
        build_t, trie = timed(lambda: marisa_trie.Trie(texts), repeat)
        mpath = Path(tmp) / "words.marisa"
        trie.save(str(mpath))
        load_t, trie = timed(lambda: marisa_trie.Trie().load(str(mpath)), repeat)
        result["formats"]["marisa-trie"] = {
            "build_s": build_t, "file_bytes": mpath.stat().st_size,
            "bytes_per_word": mpath.stat().st_size / len(words), "load_s": load_t,
            "memory": peak_memory("marisa", str(mpath)),
            "query_s": time_queries(MarisaBaseline(trie), queries, repeat, native=False),
        }
        for cls in (AlphagramTrie, AlphagramDict):
            note(f"bench: {cls.name} baseline")
            build_t, base = timed(lambda: cls(texts), repeat)
            result["formats"][cls.name] = {
                "build_s": build_t, "query_s": time_queries(base, queries, repeat, native=False),
            }
    return result


def size_ratios(measured: dict[str, Any]) -> dict[str, float]:
    """File-size ratios of every format to the DAWG (Gordon: a GADDAG is "nearly five times")."""
    if "dawg" not in measured:
        return {}
    base = measured["dawg"]["file_bytes"]
    return {f"{name}/dawg": f["file_bytes"] / base for name, f in measured.items() if name != "dawg"}


def machine_info() -> dict[str, Any]:
    """Where the figures were measured."""
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None}


COLUMNS = [
    ("build s", lambda f: f"{f['build_s']['median']:.3f}"),
    ("file bytes", lambda f: f"{f['file_bytes']:,}"),
    ("B/word", lambda f: f"{f['bytes_per_word']:.2f}"),
    ("load ms", lambda f: f"{f['load_s']['median'] * 1e3:.2f}"),
    ("build MB", lambda f: f"{f['build_memory']['peak_mb']:.0f}"),
    ("peak MB", lambda f: f"{f['memory']['peak_mb']:.1f}"),
    ("member us", lambda f: f"{f['query_s']['member']['median'] * 1e6:.2f}"),
    ("prefix us", lambda f: f"{f['query_s']['prefix']['median'] * 1e6:.2f}"),
    ("anagram ms 0?", lambda f: f"{f['query_s']['anagram0']['median'] * 1e3:.2f}"),
    ("1?", lambda f: f"{f['query_s']['anagram1']['median'] * 1e3:.2f}"),
    ("2?", lambda f: f"{f['query_s']['anagram2']['median'] * 1e3:.2f}"),
    ("hooks us", lambda f: f"{f['query_s']['hooks']['median'] * 1e6:.1f}"),
]


def _cell(fmt, figures: dict[str, Any]) -> str:
    """One table cell; "-" where the structure has no such figure."""
    try:
        return fmt(figures)
    except KeyError:
        return "-"


def format_table(result: dict[str, Any], markdown: bool = False) -> str:
    """The result as an aligned text table (or Markdown), medians only."""
    head = ["structure"] + [c for c, _ in COLUMNS]
    rows = [[name] + [_cell(fmt, f) for _, fmt in COLUMNS] for name, f in result["formats"].items()]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in [head] + rows]
    m = result["machine"]
    for name, f in result["formats"].items():
        read = f.get("query_s", {}).get("read")
        if read:
            lines.append(f"\n{name} reads per anagram query (median bytes of its {f['file_bytes']:,}-byte file): "
                         + ", ".join(f"{b[-1]}? {v['bytes_read']:,.0f}" for b, v in read.items()))
        sampled = [f"{k} on {v['queries']} of {v['of']}" for k, v in f.get("query_s", {}).items()
                   if k != "read" and v.get("queries", 0) < v.get("of", 0)]
        if sampled:
            lines.append(f"{name}: slow queries timed on a sample: " + ", ".join(sampled))
    if result.get("ratios"):
        lines.append("\nfile size / dawg: " + ", ".join(f"{k.split('/')[0]} {v:.2f}" for k, v in result["ratios"].items()))
    lines.append(f"\n{result['words']:,} words from {Path(result['wordlist']).name}; medians of "
                 f"{result['repeat']} runs; anagram = all words from a 7-tile rack with 0, 1, 2 blanks; "
                 f"Python {m['python']}, {m['cpus']} CPUs, load average {m['load_average']}")
    return "\n".join(lines)
