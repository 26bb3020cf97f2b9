"""The query half of ``lexc bench``: a fixed, seeded query set and the timing of every query
kind on one structure (a lexc format or a baseline), with a digest of every answer so the
structures can be checked against each other.

Query kinds: ``member`` (words and near misses), ``prefix`` (is-prefix), ``completions``
(words with a prefix), ``anagram0/1/2`` (words using every tile of a 7-tile rack with 0, 1
or 2 blanks), ``subanagram0/1/2`` (words from some of the tiles), ``pattern`` and ``hooks``.
The search kinds (lexc's own structures only) ask the same questions through ``lexc search``'s
library (``lexc.lexicons.search``): ``search-pattern``, ``search-anagram2`` and
``search-subanagram2`` (the words, as ``search`` gives them) on the pattern and rack queries
above, ``study-row`` (the study table's row of one word: hooks, inner hooks, rank, anagrams)
on the hook words, ``study-7s`` (every 7-letter word's row, in probability order: Zyzzyva's
first study list) and ``study-index`` (working out the lexicon's study index, which the rows
read: a cost paid once per lexicon, then cached). Each search kind's answers must equal its
query's (``SEARCH_OF``).
Membership is timed on each structure's own ``__contains__`` (a lexc lexicon's, the Python
set's, marisa-trie's), called directly, so no structure pays for a Python wrapper frame that
another does not.
"""

from __future__ import annotations

import hashlib
import random
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

from .baselines import baseline_hooks, prefix_anagrams

QUERY_SEED = 2026
KINDS = ("member", "prefix", "completions", "anagram0", "anagram1", "anagram2",
         "subanagram0", "subanagram1", "subanagram2", "pattern", "hooks")
SEARCH_KINDS = ("search-pattern", "search-anagram2", "search-subanagram2", "study-row", "study-7s", "study-index")
SEARCH_OF = {"search-pattern": "pattern", "search-anagram2": "anagram2", "search-subanagram2": "subanagram2",
             "study-row": "hooks"}  # the query each search kind answers again, and how it is compared
ANAGRAM_KINDS = ("anagram0", "anagram1", "anagram2", "subanagram0", "subanagram1", "subanagram2")
LABELS = {"member": "member", "prefix": "is-prefix", "completions": "words with prefix",
          "anagram0": "anagram 0?", "anagram1": "anagram 1?", "anagram2": "anagram 2?",
          "subanagram0": "sub-anagram 0?", "subanagram1": "sub-anagram 1?", "subanagram2": "sub-anagram 2?",
          "pattern": "pattern", "hooks": "hooks",
          "search-pattern": "search pattern", "search-anagram2": "search anagram 2?",
          "search-subanagram2": "search sub-anagram 2?", "study-row": "study row", "study-7s": "study table, 7s",
          "study-index": "study index, once"}
BAG = "".join(c * k for c, k in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                    (9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1),
                                    strict=True))


def make_queries(words: list[str], n: int = 1000) -> dict[str, list[str]]:
    """A fixed, seeded query set drawn from the word list: words and near misses, prefixes,
    7-tile racks from the English bag with 0, 1 and 2 blanks, patterns and hook words."""
    rng = random.Random(QUERY_SEED)
    sample = rng.sample(words, min(n, len(words)))
    misses = [w[:-1] + ("Q" if w[-1] != "Q" else "Z") for w in sample[: n // 2]]
    racks = {b: ["".join(rng.sample(BAG, 7 - b)) + "?" * b for _ in range(12 if b < 2 else 6)] for b in (0, 1, 2)}
    long = [w for w in sample if len(w) >= 4]
    patterns = [w[0] + "?" * (len(w) - 2) + w[-1] for w in long[:40]] + [w[:2] + "*" + w[-1] for w in long[40:60]]
    return {
        "member": sample[: n // 2] + misses,
        "prefix": [w[: max(1, len(w) // 2)] for w in sample],
        "completions": [w[: max(2, (2 * len(w)) // 3)] for w in sample[:100]],
        **{f"anagram{b}": racks[b] for b in (0, 1, 2)},
        **{f"subanagram{b}": racks[b] for b in (0, 1, 2)},
        "pattern": patterns,
        "hooks": sample[:200],
    }


def search_items(queries: dict[str, list[str]]) -> dict[str, list[str]]:
    """The items of the search kinds: their queries' items; one table of 7s; one index."""
    items = {kind: queries[of] for kind, of in SEARCH_OF.items()}
    return {**queries, **items, "study-7s": ["7"], "study-index": ["2"]}


def _regex(pattern: str) -> re.Pattern[str]:
    """A lexc pattern (``?``, ``*``, ``[..]``) as a Python regular expression."""
    return re.compile(pattern.replace("?", ".").replace("*", ".*"))


def lexc_askers(lex: Any) -> dict[str, Callable[[str], Any]]:
    """Every query kind through the lexc protocol (the search kinds: ``search_askers``)."""
    ask: dict[str, Callable[[str], Any]] = {
        "member": lex.__contains__, "prefix": lex.is_prefix, "completions": lex.words,
        "pattern": lex.pattern, "hooks": lex.hooks}
    for b in (0, 1, 2):
        ask[f"anagram{b}"] = lex.anagrams
        ask[f"subanagram{b}"] = lambda r: lex.anagrams(r, sub=True)
    return ask


def search_askers(lex: Any, ruleset: Any) -> dict[str, Callable[[str], Any]]:
    """The search kinds through ``lexc.lexicons.search`` (words as text, rows as ``Row``)."""
    from ..lexicons import search as s
    from ..lexicons.study import study_index, work_out

    decode = lex.alphabet.decode_many
    study_index(lex, ruleset)  # what the rows read, made once before any is timed (study-index times it)

    def words(condition: Any) -> list[str]:
        found: list[str] = decode(s.search(lex, [condition], ruleset))
        return found

    return {
        "search-pattern": lambda p: words(s.Pattern(p)),
        "search-anagram2": lambda r: words(s.AnagramMatch(r)),
        "search-subanagram2": lambda r: words(s.SubAnagram(r)),
        "study-row": lambda w: s.rows(lex, [lex.alphabet.encode(w)], ruleset)[0],
        "study-7s": lambda n: s.study_table(lex, s.search(lex, [s.Length(int(n), int(n))], ruleset), ruleset,
                                            sort="probability"),
        "study-index": lambda b: work_out(lex, ruleset, int(b)),
    }


def set_askers(base: Any) -> dict[str, Callable[[str], Any]]:
    """Every query kind on a plain Python set of words plus Norvig's set of prefixes:
    membership and is-prefix are set lookups; anagrams are Norvig's letter-at-a-time search
    pruned by is-prefix; completions and patterns scan the words."""
    words = sorted(base.words)
    ask = _prefix_search_askers(base)
    ask["completions"] = lambda p: [w for w in words if w.startswith(p)]
    ask["pattern"] = lambda p: list(filter(_regex(p).fullmatch, words))  # compiled once per pattern
    return ask


def marisa_askers(base: Any) -> dict[str, Callable[[str], Any]]:
    """Every query kind on marisa-trie: completions by its predictive search, patterns by
    the predictive search of the pattern's literal beginning, then a regular expression."""
    trie = base.trie
    ask = _prefix_search_askers(base)
    ask["completions"] = lambda p: sorted(trie.keys(p))

    def pattern(p: str) -> list[str]:
        head = re.match(r"[A-Z]*", p)
        assert head is not None  # (the pattern matches any text, if only with "")
        lead = head.group(0)
        rx = _regex(p)
        return sorted(w for w in trie.keys(lead) if rx.fullmatch(w))

    ask["pattern"] = pattern
    return ask


def alphagram_askers(base: Any) -> dict[str, Callable[[str], Any]]:
    """An anagram-only structure: membership and the anagram kinds."""
    ask: dict[str, Callable[[str], Any]] = {"member": base.member}
    for b in (0, 1, 2):
        ask[f"anagram{b}"] = lambda r: [w for w in base.anagrams(r, sub=True) if len(w) == len(r)]
        ask[f"subanagram{b}"] = lambda r: base.anagrams(r, sub=True)
    return ask


def _prefix_search_askers(base: Any) -> dict[str, Callable[[str], Any]]:
    """The kinds a membership and is-prefix structure answers the same way everywhere."""
    ask: dict[str, Callable[[str], Any]] = {
        "member": base.member, "prefix": base.is_prefix, "hooks": lambda w: baseline_hooks(base, w)}
    for b in (0, 1, 2):
        ask[f"anagram{b}"] = lambda r: [w for w in prefix_anagrams(base, r) if len(w) == len(r)]
        ask[f"subanagram{b}"] = lambda r: prefix_anagrams(base, r)
    return ask


def answer_digest(answer: Any) -> str:
    """A short digest of one answer, the same for equal answers from any structure: a
    truth value, a set of words (the letters a blank stands for, which lexc shows in lower
    case, folded to upper case), or (front hooks, back hooks)."""
    if isinstance(answer, bool):
        text = str(answer)
    elif hasattr(answer, "front"):  # a lexc Hooks, or a study row
        text = "".join(sorted(answer.front)) + "|" + "".join(sorted(answer.back))
    elif isinstance(answer, tuple):  # baseline hooks
        text = "".join(sorted(answer[0])) + "|" + "".join(sorted(answer[1]))
    elif isinstance(answer, list) and answer and hasattr(answer[0], "rank"):  # a study table
        text = "\n".join(f"{r.word} {r.rank}" for r in answer)
    elif hasattr(answer, "by_length"):  # a study index
        text = repr(sorted((n, list(c)) for n, c in answer.by_length.items()))
    else:
        text = "\n".join(sorted({w.upper() for w in answer}))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


MIN_RUN_S = 0.005  # a timed run of a query kind lasts at least this long (passes over its queries), up to 100 passes


def member_against_set(lexicon: Any, items: list[str], rounds: int = 21, passes: int = 10) -> dict[str, float]:
    """``word in lexicon`` against ``word in set`` of the same words, hits and misses, in the
    same loop (issue 38's measure): a Python set of the lexicon's own words is made here, and
    each round times ``passes`` passes of the lexicon's ``__contains__`` over the member
    queries, then as many of the set's, on the same query strings (objects apart from the
    set's, as the baseline's are). Seconds per query, medians, and the median of the rounds'
    ratios (the lexicon's time over the set's); AssertionError if they answer differently."""
    words = set(lexicon.words())
    ask, base = lexicon.__contains__, words.__contains__
    assert [ask(q) for q in items] == [base(q) for q in items], "the lexicon and the set answer differently"
    lex_s, set_s, ratios = [], [], []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(passes):
            [ask(q) for q in items]
        mid = time.perf_counter()
        for _ in range(passes):
            [base(q) for q in items]
        end = time.perf_counter()
        lex_s.append((mid - t) / (passes * len(items)))
        set_s.append((end - mid) / (passes * len(items)))
        ratios.append((mid - t) / max(end - mid, 1e-12))
    return {"lexicon_s": statistics.median(lex_s), "set_s": statistics.median(set_s),
            "ratio": statistics.median(ratios)}


def time_queries(ask: dict[str, Callable[[str], Any]], queries: dict[str, list[str]], repeat: int,
                 budget_s: float = 2.0, stats_of: Any = None) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Seconds per query for each kind ``ask`` answers: median, min and max over ``repeat``
    runs of the mean over the kind's queries. A kind whose first query is slow (an anagram
    trie's is-prefix reads the whole file) is timed on as many leading queries as fit
    ``budget_s`` per run; ``queries`` then says how many of ``of``. A fast kind's run makes
    as many passes over its queries as last ``MIN_RUN_S`` (a pass of a thousand lookups is
    a tenth of a millisecond, shorter than the noise), after one untimed pass, for every
    structure alike. Also the digest of every
    answer, by kind. ``stats_of``: a lexicon with ``last_stats`` (what a search read), whose
    medians per sub-anagram kind are added under ``read``."""
    timings: dict[str, Any] = {}
    answers: dict[str, list[str]] = {}
    queries = search_items(queries)
    for kind in KINDS + SEARCH_KINDS:
        fn = ask.get(kind)
        if fn is None:
            continue
        items = queries[kind]
        t = time.perf_counter()
        first = fn(items[0])
        spent = time.perf_counter() - t
        if spent * len(items) > budget_s:
            items = items[: max(1, int(budget_s / max(spent, 1e-9)))]
        samples, results = [], [first]
        passes = max(1, min(100, int(MIN_RUN_S / max(spent * len(items), 1e-9))))  # a fast kind: several passes a run
        if passes > 1:  # (and a pass untimed first: its runs are timed warm, as a slow kind's are after its first)
            out = [fn(q) for q in items]
        for run in range(repeat):
            t = time.perf_counter()
            for _ in range(passes):
                out = [fn(q) for q in items]
            samples.append((time.perf_counter() - t) / passes)
            if run == 0:
                results = out
        timings[kind] = {"median": statistics.median(samples) / len(items), "min": min(samples) / len(items),
                         "max": max(samples) / len(items), "queries": len(items), "of": len(queries[kind])}
        answers[kind] = [answer_digest(a) for a in results]
    if stats_of is not None and isinstance(getattr(stats_of, "last_stats", None), dict):
        timings["read"] = {}
        for b in (0, 1, 2):
            counts = []
            for rack in queries[f"subanagram{b}"]:
                stats_of.anagrams(rack, sub=True)
                counts.append(dict(stats_of.last_stats))
            timings["read"][f"subanagram{b}"] = {k: statistics.median(c[k] for c in counts) for k in counts[0]}
    return timings, answers


def compare_answers(answers: dict[str, dict[str, list[str]]]) -> list[str]:
    """Where structures gave different answers to the same query: one line per (structure,
    kind), comparing each with the first structure that answered that kind, over the queries
    both answered."""
    problems = []
    reference: dict[str, tuple[str, list[str]]] = {}
    for name, kinds in answers.items():
        for kind, of in SEARCH_OF.items():  # a search answers as its query does
            common = min(len(kinds.get(kind, ())), len(kinds.get(of, ())))  # (a slow kind answers a prefix)
            if common and kinds[kind][:common] != kinds[of][:common]:
                problems.append(f"{name}: {kind} and {of} differ")
        for kind, digests in kinds.items():
            if kind not in reference:
                reference[kind] = (name, digests)
                continue
            first, ref = reference[kind]
            differ = [i + 1 for i, (a, b) in enumerate(zip(ref, digests, strict=False)) if a != b]
            if differ:
                problems.append(f"{name} and {first} differ on {kind} queries {differ[:5]}")
    return problems
