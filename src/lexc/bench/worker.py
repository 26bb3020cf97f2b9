"""One measurement job of ``lexc bench``, run in a fresh interpreter so that its memory
figures belong to it alone: ``python -m lexc.bench.worker JOB.json RESULT.json``.

Jobs (the JSON object's ``job``):

- ``build``: read the word list and build one structure ``repeat`` times, save it; build
  and read times, file bytes, node and edge counts, the process's peak memory.
- ``use``: load the saved structure ``repeat`` times, answer the query set, then (lexc's own
  structures) the search kinds, then generate moves on the position set with every strategy
  that applies; load and query times, answer digests, move-generation figures, the peak
  memory after the queries, after the searches (the study index) and after the moves.
- ``orders``: Shapiro & Smith's anagram trie built in several canonical orders; nodes and
  what a sub-anagram search reads in each.
- ``short``: DAWG and GADDAG of the words of at most 8 letters (Gordon's lexicon was
  such a list), for the size ratio.
- ``play``: equity ranking beside move generation, and self-play games a second with
  equity and greedy players, on one saved structure (``lexc.bench.play``).

Progress goes to stderr as lines ``progress: ...``; the parent shows them.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..wordlist import WordList

BASELINES = ("python-set", "marisa-trie", "alphagram-trie", "alphagram-dict")
ORDERS = ("1979", "1979-s-before-l", "1977", "alpha", "values", "frequency")
S_BEFORE_L = "QZXJKHFYWVCMPBGDSLUTNRIOAE"  # Shapiro 1979's order with S put back where its value puts it


def peak_mb() -> float:
    """This process's peak resident size in MB (VmHWM; ru_maxrss where /proc is missing)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KB elsewhere
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def rss_mb() -> float:
    """This process's resident size now, in MB (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            import os

            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0


def summarize(samples: list[float]) -> dict[str, float]:
    """Median, min and max of repeated measurements."""
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


def progress(message: str) -> None:
    """Tell the parent what is being measured."""
    print(f"progress: {message}", file=sys.stderr, flush=True)


def _texts(path: str) -> list[str]:
    """A saved plain list (one normalized word per line)."""
    with open(path, encoding="utf-8") as f:
        return f.read().split()


def build_job(job: dict[str, Any]) -> dict[str, Any]:
    """Build one structure ``repeat`` times from the word list and save it at ``out``."""
    from .. import formats
    from ..lexicons.source import read_list

    name, repeat, out = job["name"], job["repeat"], Path(job["out"])
    start = peak_mb()
    read_s, build_s = [], []
    lex: Any = None  # a lexc lexicon, a marisa-trie or a baseline
    words: WordList | None = None
    for run in range(repeat):
        progress(f"build {run + 1}/{repeat}")
        lex = words = None
        t = time.perf_counter()
        words = read_list(job["wordlist"], job["ruleset"])
        read_s.append(time.perf_counter() - t)
        texts = words.texts() if name in BASELINES else []  # only the baselines need str
        t = time.perf_counter()
        if name == "marisa-trie":
            import marisa_trie

            lex = marisa_trie.Trie(texts)
        elif name in BASELINES:
            lex = _baseline(name)(texts)
        else:
            lex = formats.build(words, name, job["ruleset"])
        build_s.append(time.perf_counter() - t)
    result: dict[str, Any] = {"read_s": summarize(read_s), "build_s": summarize(build_s)}
    assert words is not None  # (built at least once)
    if name == "marisa-trie":
        lex.save(str(out))
    elif name in BASELINES:  # the "file" of an in-memory structure is the plain list it is made from
        out.write_text("\n".join(texts) + "\n", encoding="utf-8")
    else:
        formats.save(lex, out, {"min_len": 2, "max_len": None, "skip_invalid": False})  # as `lexc build`
        stats = lex.stats()
        result.update(nodes=stats.get("nodes"), edges=stats.get("edges"))
        layout = lex.meta().get("layout")
        if isinstance(layout, str):
            result["layout"] = layout  # u32, or u64 past 2**22 edges
        trie_nodes = getattr(lex, "trie_nodes", None)
        if trie_nodes:
            result["trie_nodes"] = trie_nodes
    size = out.stat().st_size
    result.update(file_bytes=size, bytes_per_word=size / len(words.words),
                  build_memory={"peak_mb": peak_mb(), "start_mb": start})
    return result


def _baseline(name: str) -> Any:
    """The class of an in-memory baseline built from a list of words."""
    from . import baselines

    return {"python-set": baselines.SetBaseline, "alphagram-trie": baselines.AlphagramTrie,
            "alphagram-dict": baselines.AlphagramDict}[name]


def _load(name: str, path: str) -> Any:
    """Load a saved structure: a lexc file, a marisa file, or a baseline's plain list."""
    if name == "marisa-trie":
        import marisa_trie

        trie = marisa_trie.Trie()
        trie.load(path)
        return trie
    if name in BASELINES:
        return _baseline(name)(_texts(path))
    from .. import formats

    return formats.load(path)


def _load_and_count(name: str, path: str, repeat: int) -> list[float]:
    """Seconds to open a file and count its words, ``repeat`` times, each on a fresh load: the
    first query that relies on the whole-graph proof a graph's loader defers (formats/README.md,
    "What the loader guarantees"), so this is a load with the proof made."""
    spent = []
    for _ in range(repeat):
        t = time.perf_counter()
        len(_load(name, path))
        spent.append(time.perf_counter() - t)
    return spent


def use_job(job: dict[str, Any]) -> dict[str, Any]:
    """Load a saved structure, answer the query set, generate moves; figures and digests."""
    from . import queries as bq

    name, repeat = job["name"], job["repeat"]
    start = peak_mb()
    load_s = []
    lex: Any = None  # a lexc lexicon, a marisa-trie or a baseline
    added: list[float] = []
    for run in range(repeat):
        progress(f"load {run + 1}/{repeat}")
        lex = None
        before = rss_mb()
        t = time.perf_counter()
        lex = _load(name, job["file"])
        load_s.append(time.perf_counter() - t)
        added.append(rss_mb() - before)  # what holding the loaded structure costs (the previous one released)
    queries = json.loads(Path(job["queries"]).read_text(encoding="utf-8"))
    if name == "marisa-trie":
        from .baselines import MarisaBaseline

        ask, stats_of = bq.marisa_askers(MarisaBaseline(lex)), None
    elif name == "python-set":
        ask, stats_of = bq.set_askers(lex), None
    elif name in BASELINES:
        ask, stats_of = bq.alphagram_askers(lex), None
    else:
        ask, stats_of = bq.lexc_askers(lex), lex
    progress("queries")
    query_s, answers = bq.time_queries(ask, queries, repeat, job["budget_query_s"], stats_of)
    result: dict[str, Any] = {"load_s": summarize(load_s), "query_s": query_s, "answers": answers,
                              "memory": {"peak_mb": peak_mb(), "start_mb": start,
                                         "load_added_mb": statistics.median(added[1:] or added)}}
    if name not in BASELINES:  # open and count the words: a query that needs the whole structure proved
        progress("load and count")
        result["load_count_s"] = summarize(_load_and_count(name, job["file"], repeat))
    if name not in BASELINES and name != "marisa-trie":  # a lexc structure against a set of its words, one loop
        progress("member against a set")
        result["member_vs_set"] = bq.member_against_set(lex, queries["member"])
    if name not in BASELINES:  # lexc search's kinds, after the peak of the queries alone is taken
        from ..ruleset import load_ruleset

        progress("searches")
        search_s, search_answers = bq.time_queries(bq.search_askers(lex, load_ruleset(job["ruleset"])), queries,
                                                   repeat, job["budget_query_s"])
        query_s.update(search_s)
        answers.update(search_answers)
        result["search_memory"] = {"peak_mb": peak_mb()}
    if job.get("positions") is not None and name not in BASELINES:
        from ..movegen import choose, compiled, generate_plays
        from .moves import command_rate, load_positions, time_strategies

        positions, _ = load_positions(job["positions"] or None, job["ruleset"])
        limit = job.get("positions_limit")  # (a default run's pure-path row: the leading positions)
        result["movegen"] = time_strategies(lex, positions[:limit], job["movegen_repeat"], job["budget_s"], progress,
                                            job.get("strategies"), job.get("python_extras", True))
        for figures in result["movegen"].values():
            figures["of"] = len(positions)
        picked = choose(lex, "auto").NAME if job.get("command") == "auto" else None
        for strategy, figures in result["movegen"].items():  # the command itself, where the core runs it whole
            if (compiled.applicable(lex, strategy) and figures.get("positions") == len(positions)
                    and picked in (None, strategy)):
                progress(f"lexc moves --batch --json, {strategy}")

                def library(strategy: str = strategy) -> None:  # the library's JSON of every position, once
                    for board, rack, _ in positions:
                        generate_plays(board, rack, lex, strategy).batch_json()

                figures.update(command_rate(job["file"], strategy, job["positions"] or None, job["ruleset"],
                                            len(positions), job.get("command_repeat") or job["movegen_repeat"],
                                            library=library))
        result["movegen_memory"] = {"peak_mb": peak_mb()}
    return result


def orders_job(job: dict[str, Any]) -> dict[str, Any]:
    """Shapiro & Smith's trie in each canonical order: nodes, file bytes, and the median
    nodes and bytes a sub-anagram search reads, with its time."""
    from .. import formats
    from ..formats.anatrie import AnagramTrie
    from ..lexicons.source import read_list

    words = read_list(job["wordlist"], job["ruleset"])
    queries = json.loads(Path(job["queries"]).read_text(encoding="utf-8"))
    out = {}
    for order in ORDERS:
        progress(f"order {order}")
        spelled = {"frequency": frequency_order(words), "1979-s-before-l": S_BEFORE_L}.get(order, order)
        try:
            lex = formats.build(words, "anatrie", job["ruleset"], order=spelled)
        except formats.FormatError:  # a named order of another alphabet
            continue
        path = Path(job["dir"]) / f"order-{order}.anatrie"
        size = formats.save(lex, path)
        lex = formats.load(path)
        assert isinstance(lex, AnagramTrie)
        figures: dict[str, Any] = {"order": "".join(words.alphabet.label(c) for c in lex.order),
                                   "nodes": lex.stats().get("nodes"), "file_bytes": size}
        for b in (0, 1, 2):
            racks = queries[f"subanagram{b}"]
            nodes, read, ms = [], [], []
            for rack in racks:
                times = []
                for _ in range(job["repeat"]):
                    t = time.perf_counter()
                    lex.anagrams(rack, sub=True)
                    times.append(time.perf_counter() - t)
                ms.append(1e3 * statistics.median(times))
                nodes.append(lex.last_stats["nodes_read"])
                read.append(lex.last_stats["bytes_read"])
            figures[f"subanagram{b}"] = {"nodes_read": statistics.median(nodes), "bytes_read": statistics.median(read),
                                         "ms": statistics.median(ms)}
        out[order] = figures
    return out


def frequency_order(words: Any) -> str:
    """The alphabet's letters, most frequent in the word list first (ties in code order)."""
    counts = dict.fromkeys(words.alphabet.codes, 0)
    for word in words.words:
        for code in word:
            counts[code] += 1
    return "".join(words.alphabet.label(c) for c in sorted(counts, key=lambda c: (-counts[c], c)))


def short_job(job: dict[str, Any]) -> dict[str, Any]:
    """DAWG and GADDAG file bytes and edges on the words of at most ``max_len`` letters."""
    from .. import formats
    from ..lexicons.source import read_list

    words = read_list(job["wordlist"], job["ruleset"], max_len=job["max_len"])
    out: dict[str, Any] = {"max_len": job["max_len"], "words": len(words.words)}
    for name in ("dawg", "gaddag"):
        progress(f"{name} of words up to {job['max_len']} letters")
        lex = formats.build(words, name, job["ruleset"])
        out[name] = {"file_bytes": len(formats.dumps(lex)), "edges": lex.stats().get("edges")}
    return out


def play_job(job: dict[str, Any]) -> dict[str, Any]:
    """Equity ranking beside move generation on the position set, and self-play games a
    second with equity and greedy players (``lexc.bench.play``), on the saved structure at
    ``file`` with the leave file ``leaves`` (None: the bundled leaves for the ruleset)."""
    from ..equity.bundled import bundled_leaves_path
    from ..formats.leaves import read_leaves
    from ..lexicons.source import open_lexicon
    from ..ruleset import load_ruleset
    from . import BenchError
    from .moves import load_positions
    from .play import equity_overhead, selfplay_rates

    rules = load_ruleset(job["ruleset"])
    leaves_path = job.get("leaves") or bundled_leaves_path(rules)
    if leaves_path is None:
        raise BenchError(f"no leave values for the {rules.name} ruleset's tiles to play with")
    leaves = read_leaves(leaves_path, rules)
    lexicon = open_lexicon(job["file"], ruleset=job["ruleset"])
    positions, _ = load_positions(job["positions"] or None, job["ruleset"])
    progress("equity ranking beside move generation")
    result: dict[str, Any] = {"file": job["name"], "leaves": str(leaves_path),
                              "equity": equity_overhead(lexicon, positions, leaves, job["repeat"])}
    result["selfplay"] = selfplay_rates(lexicon, rules, leaves, job["games"], job["repeat"], progress)
    return result


JOBS = {"build": build_job, "use": use_job, "orders": orders_job, "short": short_job, "play": play_job}


def main(argv: list[str] | None = None) -> None:
    """Run the job in ``argv[0]`` (JSON) and write its figures to ``argv[1]`` (JSON)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        sys.exit("usage: python -m lexc.bench.worker JOB.json RESULT.json")
    job = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    result = JOBS[job["job"]](job)
    Path(args[1]).write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    main()
