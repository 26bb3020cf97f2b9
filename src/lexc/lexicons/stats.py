"""Statistics of a lexicon against a ruleset: lengths, letter frequencies, what fits.

``lexicon_stats(lexicon, ruleset)`` reads every word once, as letter codes, so a length is
a number of tiles (a Spanish CH counts 1) and a letter is a tile label. The words are taken
in chunks and each chunk is measured with C-level passes (``bytes.count`` on the chunk
joined, ``Counter`` over the letter sets of its words, one regular expression per letter for
the words that need more of it than the bag holds), so a multi-million-word lexicon costs a
few seconds and little memory. ``format_stats`` renders the result as a text report.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from heapq import nlargest
from itertools import chain, islice
from typing import Any

from ..errors import LexcError
from ..plural import plural
from ..ruleset import Ruleset, load_ruleset
from .diff import LexiconDiffError, alphabet_difference, alphabet_of, sorted_codes

__all__ = ["LexiconStatsError", "format_stats", "lexicon_stats"]

CHUNK = 65536  # words measured per pass
LONGEST = 5
EXAMPLES = 10


class LexiconStatsError(LexcError, ValueError):
    """A lexicon cannot be measured against a ruleset; the message is one line."""


def lexicon_stats(lexicon: object, ruleset: Ruleset | str) -> dict[str, Any]:
    """Statistics of a lexicon (any format), a WordList or an iterable of words as text,
    measured against a ruleset (a Ruleset or a name/path for ``load_ruleset``).

    Returns a JSON-ready dict (``lengths`` has int keys, which ``json.dumps`` writes as
    strings):

    - ``words``, ``letters`` (tiles over all words), ``mean_length`` (tiles per word);
    - ``lengths``: {length in tiles: number of words}, increasing lengths, no zeros;
    - ``letters_freq``: {label: {"count": occurrences, "words": words containing it,
      "share": count / letters, "bag": tiles of it in the bag}} for every letter, in
      alphabet order;
    - ``fit``: ``board_size``, ``rack_size``, ``bag_blanks``; ``board`` (words of at most
      board_size tiles) and ``longer_than_board``; ``rack`` (at most rack_size tiles: a
      rack can make them alone); ``bingo`` (exactly rack_size) and ``bingo_plus_one``
      (rack_size + 1: a whole rack through one tile on the board); ``bag`` (words the
      full bag can spell, its blanks standing in where a letter runs out), of which
      ``bag_needs_blanks`` need at least one blank; ``bag_impossible`` (words needing more
      blanks than the bag has) and ``bag_impossible_examples`` (the first 10 in code order);
    - ``longest``: up to 5 longest words (ties in code order).

    A LexiconStatsError when the lexicon's alphabet is not the ruleset's.
    """
    rules = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    alphabet = rules.alphabet
    own = alphabet_of(lexicon)
    if own is not None:
        problem = alphabet_difference(own, alphabet, "the lexicon", f"ruleset {rules.name}")
        if problem:
            raise LexiconStatsError(f"the lexicon does not use the alphabet of ruleset {rules.name}: {problem}")
    codes = list(alphabet.codes)
    singles = [bytes((c,)) for c in codes]
    bag = [rules.count(c) for c in codes]
    blanks = rules.blanks
    # a word matches the pattern of letter c when it holds more c's than the bag: c, then
    # count(c) more c's, each after any run of letters other than c within the same word
    # (words are joined by the reserved code 0)
    over = [re.compile(_more_than(single, count)) for single, count in zip(singles, bag, strict=True)]

    words = letters = 0
    lengths: Counter[int] = Counter()
    occurrences = [0] * len(codes)
    containing: Counter[int] = Counter()
    needs_blanks = impossible = 0
    examples: list[bytes] = []
    longest: list[bytes] = []

    try:
        stream = sorted_codes(lexicon, alphabet, "the lexicon")
    except LexiconDiffError as exc:  # a plain word outside the alphabet
        raise LexiconStatsError(str(exc)) from None
    while True:
        chunk = list(islice(stream, CHUNK))
        if not chunk:
            break
        words += len(chunk)
        lengths.update(map(len, chunk))
        joined = b"\x00".join(chunk)
        letters += len(joined) - (len(chunk) - 1)
        for i, single in enumerate(singles):
            occurrences[i] += joined.count(single)
        containing.update(chain.from_iterable(map(set, chunk)))
        longest = nlargest(LONGEST, longest + nlargest(LONGEST, chunk, key=len), key=len)  # stable: ties keep order
        # words needing more of some letter than the bag has: found by the patterns, then
        # their blanks counted exactly
        candidates: set[int] = set()
        starts = None
        for pattern in over:
            for match in pattern.finditer(joined):
                if starts is None:
                    starts = _word_starts(chunk)
                candidates.add(_word_at(starts, match.start()))
        for index in sorted(candidates):
            word = chunk[index]
            need = sum(max(0, word.count(c) - rules.count(c)) for c in set(word))
            if need > blanks:
                impossible += 1
                if len(examples) < EXAMPLES:
                    examples.append(word)
            elif need:
                needs_blanks += 1

    decode = alphabet.decode
    board, rack = rules.board_size, rules.rack_size
    on_board = sum(n for length, n in lengths.items() if length <= board)
    return {
        "ruleset": rules.name,
        "words": words,
        "letters": letters,
        "mean_length": round(letters / words, 4) if words else 0.0,
        "lengths": {length: lengths[length] for length in sorted(lengths)},
        "letters_freq": {
            label: {
                "count": occurrences[i],
                "words": containing[code],
                "share": round(occurrences[i] / letters, 6) if letters else 0.0,
                "bag": bag[i],
            }
            for i, (label, code) in enumerate(zip(alphabet.labels, codes, strict=True))
        },
        "fit": {
            "board_size": board,
            "rack_size": rack,
            "bag_blanks": blanks,
            "board": on_board,
            "longer_than_board": words - on_board,
            "rack": sum(n for length, n in lengths.items() if length <= rack),
            "bingo": lengths.get(rack, 0),
            "bingo_plus_one": lengths.get(rack + 1, 0),
            "bag": words - impossible,
            "bag_needs_blanks": needs_blanks,
            "bag_impossible": impossible,
            "bag_impossible_examples": [decode(w) for w in examples],
        },
        "longest": [decode(w) for w in longest],
    }


def _more_than(single: bytes, count: int) -> bytes:
    """A pattern matching, within one word of a joined chunk, ``count`` + 1 occurrences of
    the letter ``single``."""
    letter = re.escape(single)
    return letter + b"(?:[^\\x00" + letter + b"]*" + letter + b"){%d}" % count if count else letter


def _word_starts(chunk: list[bytes]) -> list[int]:
    """The offset of each word in the chunk joined by single separators."""
    starts, at = [], 0
    for word in chunk:
        starts.append(at)
        at += len(word) + 1
    return starts


def _word_at(starts: list[int], offset: int) -> int:
    """The index of the word holding ``offset`` of the joined chunk."""
    return bisect_right(starts, offset) - 1


# -- the text report ----------------------------------------------------------------------------

BAR = 40  # characters of the longest histogram bar


def format_stats(stats: dict[str, Any]) -> str:
    """A readable text report of ``lexicon_stats``: totals, the length histogram with
    aligned bars, the letter table, what fits the ruleset, the longest words."""
    words, letters = stats["words"], stats["letters"]
    out = [f"{plural(words, 'word')}, {plural(letters, 'tile')}, {stats['mean_length']:.2f} tiles per word"
           + (f" (ruleset {stats['ruleset']})" if stats.get("ruleset") else "")]

    lengths = {int(k): v for k, v in stats["lengths"].items()}  # (int keys come back as str from JSON)
    if lengths:
        out += ["", "Lengths (tiles)"]
        top = max(lengths.values())
        span = range(min(lengths), max(lengths) + 1)  # gaps shown as empty rows
        width_len = len(str(span[-1]))
        width_n = len(f"{top:,}")
        for length in span:
            n = lengths.get(length, 0)
            bar = "#" * (round(n * BAR / top) if top else 0)
            if n and not bar:
                bar = "."  # too few to show at this scale, but some
            share = f"{100 * n / words:5.1f}%" if words else ""
            out.append(f"  {length:>{width_len}} {n:>{width_n},} {share} |{bar}")

    freq = stats["letters_freq"]
    if freq:
        width_label = max(4, max(map(len, freq)))
        width_count = max(5, len(f"{max((f['count'] for f in freq.values()), default=0):,}"))
        width_words = max(5, len(f"{max((f['words'] for f in freq.values()), default=0):,}"))
        out += ["", "Letters",
                f"  {'tile':<{width_label}} {'count':>{width_count}} {'share':>7} {'words':>{width_words}}  "
                f"{'in words':>8} {'bag':>5}"]
        for label, f in freq.items():
            in_words = f"{100 * f['words'] / words:6.1f}%" if words else ""
            out.append(f"  {label:<{width_label}} {f['count']:>{width_count},} {100 * f['share']:6.2f}% "
                       f"{f['words']:>{width_words},}  {in_words:>8} {f['bag']:>5}")

    fit = stats["fit"]
    board, rack = fit["board_size"], fit["rack_size"]
    rows = [
        (f"fit the board (at most {plural(board, 'tile')})", fit["board"]),
        ("longer than the board", fit["longer_than_board"]),
        (f"a rack can make alone (at most {rack})", fit["rack"]),
        (f"bingos ({plural(rack, 'tile')})", fit["bingo"]),
        (f"bingos through a board tile ({plural(rack + 1, 'tile')})", fit["bingo_plus_one"]),
        (f"the bag can spell ({plural(fit['bag_blanks'], 'blank')})", fit["bag"]),
        ("  of which need blanks", fit["bag_needs_blanks"]),
        ("the bag cannot spell, even with blanks", fit["bag_impossible"]),
    ]
    width_what = max(len(what) for what, _ in rows)
    width_n = max(len(f"{n:,}") for _, n in rows)
    out += ["", "Fit"]
    for what, n in rows:
        share = f"{100 * n / words:6.2f}%" if words else ""
        out.append(f"  {what:<{width_what}} {n:>{width_n},} {share}")
    if fit["bag_impossible_examples"]:
        more = " ..." if fit["bag_impossible"] > len(fit["bag_impossible_examples"]) else ""
        out.append(f"  e.g. {', '.join(fit['bag_impossible_examples'])}{more}")

    if stats["longest"]:
        out += ["", "Longest: " + ", ".join(stats["longest"])]
    return "\n".join(line.rstrip() for line in out) + "\n"
