"""Generated rulesets, word lists and positions for the agreement tests (test_generated.py),
and the brute-force answers they are held to.

A ruleset is drawn as a ``RulesetSpec`` (board side, premium squares, start square, tiles
with labels, counts and values, blanks, rack size, bingo bonus), written out as the TOML text
of the schema in ``src/lexc/rulesets/english.toml`` and read back by the real loader
(``lexc.load_ruleset`` on a file). Everything drawn is something the loader accepts: labels
from a pool of single letters (ASCII, Latin-1 and beyond) and Spanish/Catalan/Polish style
digraphs (CH, LL, RR, L·L, ...), which the alphabet splits by longest match; words are texts
of labels, kept as the loader reads them (``C`` then ``H`` may come back as the tile ``CH``);
tile values are capped so that the largest play a ruleset allows scores at most 2**53 - 1
(the bound the loader is to enforce, computed as the schema describes it).

The brute-force answers work on sets of words as bytes of letter codes and share nothing
with lexc's formats, strategies or referee: every play by trying every word at every place
of every line (the score from ``lexc.board.scoring``, THE scoring definition), anagrams,
patterns, hooks and prefix listings by filtering the set.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from lexc import formats, native
from lexc.alphabet import BLANK_FLAG
from lexc.board.board import Board
from lexc.board.notation import THROUGH, Play
from lexc.board.scoring import score
from lexc.formats import FORMATS
from lexc.movegen import STRATEGIES
from lexc.pattern import STAR
from lexc.ruleset import PREMIUMS, Ruleset, load_ruleset

ASCII = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
LATIN1 = tuple("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞ")  # one Latin-1 character: the core encodes such words itself
WIDER = tuple("ŁŐŻΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")  # beyond Latin-1
SINGLE = ASCII + LATIN1 + WIDER
MULTI = ("CH", "LL", "RR", "NY", "L·L", "QU", "SS", "DŻ", "SZ", "CZ", "RZ", "NG", "TH", "SH", "ZH", "ΘΘ")
POOL = SINGLE + MULTI  # 128 labels: an alphabet holds at most 127
LEGEND = {".": "none", ":": "DL", ";": "TL", "!": "QL", "-": "DW", "=": "TW", "+": "QW"}  # "*": the start
KIND_CHAR = {name: char for char, name in LEGEND.items()}
MAX_SCORE = 2**53 - 1  # the largest score a ruleset may allow (the loader's bound, issue 34)


@dataclass(frozen=True)
class RulesetSpec:
    """A ruleset as drawn: what its TOML says, and so what the loaded ruleset must hold."""

    size: int
    premiums: tuple[tuple[str, ...], ...]  # the premium name of every square, row by row
    start: tuple[int, int]
    start_kind: str  # the start square's premium
    tiles: tuple[tuple[str, int, int], ...]  # (label, count, value), in alphabet (code) order
    blanks: int
    rack_size: int
    bingo: int
    spaced: bool  # rows written with a space between squares
    regime: str = "small"  # how it was drawn (``rulesets``): words and racks are drawn to suit it

    @property
    def total(self) -> int:
        """The tiles in the bag, blanks included."""
        return sum(count for _, count, _ in self.tiles) + self.blanks

    def grid(self) -> list[list[tuple[int, int]]]:
        """(letter, word) multipliers of every square, the start square's included."""
        out = [[PREMIUMS[name] for name in row] for row in self.premiums]
        out[self.start[0]][self.start[1]] = PREMIUMS[self.start_kind]
        return out

    def toml(self) -> str:
        """The ruleset's text in the schema of ``src/lexc/rulesets/english.toml``."""
        legend = ", ".join(f'"{char}" = "{name}"' for char, name in LEGEND.items())
        lines = [
            'name = "generated"',
            f'description = "a generated ruleset: {self.size}x{self.size}, {len(self.tiles)} letters"',
            f"rack_size = {self.rack_size}",
            f"bingo_bonus = {self.bingo}",
            f"tile_total = {self.total}",
            "",
            "[tiles]",
            *(f'"{label}" = [{count}, {value}]' for label, count, value in self.tiles),
            f'"?" = [{self.blanks}, 0]',
            "",
            "[board]",
            f'legend = {{ {legend}, "*" = "{self.start_kind}" }}',
            'start = "*"',
            "rows = [",
        ]
        sep = " " if self.spaced else ""
        for r, row in enumerate(self.premiums):
            chars = ["*" if (r, c) == self.start else KIND_CHAR[name] for c, name in enumerate(row)]
            lines.append(f'    "{sep.join(chars)}",')
        lines.append("]")
        return "\n".join(lines) + "\n"


def score_bound(size: int, value: int, grid: list[list[tuple[int, int]]], rack_size: int, bingo: int) -> int:
    """The schema's bound on any play's score: side x top value x top letter premium x the
    product of the min(rack, side) largest word premiums, plus a cross word (one word
    premium) per tile put down, plus the bingo bonus."""
    squares = [square for row in grid for square in row]
    letter = max(lm for lm, _ in squares)
    words = sorted((wm for _, wm in squares), reverse=True)
    k = min(rack_size, size)
    product = 1
    for wm in words[:k]:
        product *= wm
    tile = size * value * letter
    return tile * product + k * tile * words[0] + bingo


def _largest_value(size: int, grid: list[list[tuple[int, int]]], rack_size: int, bingo: int) -> int:
    """The largest top tile value whose score bound stays within ``MAX_SCORE``."""
    per_point = score_bound(size, 1, grid, rack_size, 0)
    return (MAX_SCORE - bingo) // per_point


REGIMES = ("small", "tiny", "wide", "huge")


@st.composite
def rulesets(draw: st.DrawFn, regime: str | None = None) -> RulesetSpec:
    """A ruleset the loader accepts, in one of four regimes (drawn when not given): small
    (side 3..11, a few letters, values up to 12, racks 1..9), tiny (side 1..3), wide (side
    12..26, alphabets of up to 127 letters, values up to 400, racks of 7..64) and
    huge (boards of word premiums, QW above all, values in the thousands, racks of 8..12:
    plays past 2**31 points). Premiums are any mix of the legend's kinds at some density,
    the start square anywhere with any premium; rows are written with or without spaces.
    (Where a choice is drawn from a list, the list starts with the value Hypothesis should
    try first: it draws the first one more often than the others.)"""
    if regime is None:
        regime = draw(st.sampled_from(REGIMES))
    size = draw({"small": st.sampled_from([7, 3, 4, 5, 6, 8, 9, 10, 11]), "tiny": st.sampled_from([3, 2, 1]),
                 "wide": st.sampled_from([15, 12, 20, 26, 13, 17, 21, 25]),
                 "huge": st.sampled_from([9, 8, 10, 12])}[regime])
    if regime == "huge":
        kinds = ["QW", *draw(st.lists(st.sampled_from(["TW", "DW", "TL", "none"]), max_size=1))]
        density = 1.0
    else:
        kinds = draw(st.lists(st.sampled_from(sorted(PREMIUMS)), min_size=1, max_size=len(PREMIUMS), unique=True))
        density = draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    premiums = tuple(tuple((kinds[0] if regime == "huge" and rng.random() < 0.9 else rng.choice(kinds))
                           if rng.random() < density else "none" for _ in range(size)) for _ in range(size))
    start = (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))
    start_kind = draw(st.sampled_from(sorted(PREMIUMS))) if regime != "huge" else "QW"
    if regime == "wide" and draw(st.booleans()):
        labels = list(draw(st.permutations(POOL))[: draw(st.sampled_from([127, 40, 64, 65, 100]))])
    else:
        many = draw(st.sampled_from([5, 2, 3, 4, 6, 8, 12, 1] if regime != "wide" else [26, 12, 30]))
        labels = draw(st.lists(st.sampled_from(POOL), min_size=many, max_size=many, unique=True))
    for label in [label for label in labels if len(label) > 1]:  # a digraph's letters beside it, often
        if draw(st.booleans()):
            for ch in label:
                if ch in SINGLE and ch not in labels and len(labels) < 127:
                    labels.append(ch)
    top = {"small": 12, "tiny": 12, "wide": 400, "huge": 10000}[regime]
    low = 5000 if regime == "huge" else 0
    values = [draw(st.integers(low, top)) for _ in labels]
    counts = [draw(st.integers(0, 12)) for _ in labels]
    blanks = draw(st.sampled_from([2, 0, 1, 3]))
    rack_size = draw({"small": st.sampled_from([7, 1, 2, 3, 4, 5, 6, 8, 9]), "tiny": st.sampled_from([3, 1, 2, 4]),
                      "wide": st.sampled_from([10, 7, 15, 20, 64]), "huge": st.sampled_from([9, 8, 10, 12])}[regime])
    bingo = draw(st.integers(0, 100) if regime != "huge" else st.integers(0, 10000))
    short = rack_size - (sum(counts) + blanks)
    if short > 0:
        counts[0] += short
    spaced = draw(st.booleans())
    spec = RulesetSpec(size, premiums, start, start_kind, (), blanks, rack_size, bingo, spaced, regime)
    cap = _largest_value(size, spec.grid(), rack_size, bingo)
    tiles = tuple((label, count, min(value, cap)) for label, count, value in zip(labels, counts, values, strict=True))
    return RulesetSpec(size, premiums, start, start_kind, tiles, blanks, rack_size, bingo, spaced, regime)


def load(spec: RulesetSpec, directory: Path) -> tuple[Path, Ruleset]:
    """Write the ruleset's TOML to a file named by its content (the loader caches by path)
    and load it through ``lexc.load_ruleset``."""
    text = spec.toml()
    path = directory / f"ruleset-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path, load_ruleset(str(path))


def check_loaded(spec: RulesetSpec, ruleset: Ruleset) -> list[str]:
    """What the loaded ruleset holds that the spec did not say (empty when faithful)."""
    problems = []
    want = {
        "labels": tuple(label for label, _, _ in spec.tiles),
        "board_size": spec.size,
        "start": spec.start,
        "premiums": tuple(tuple(row) for row in spec.grid()),
        "rack_size": spec.rack_size,
        "bingo_bonus": spec.bingo,
        "blanks": spec.blanks,
        "tile_total": spec.total,
        "values": tuple(value for _, _, value in spec.tiles),
        "counts": tuple(count for _, count, _ in spec.tiles),
    }
    got = {
        "labels": ruleset.alphabet.labels,
        "board_size": ruleset.board_size,
        "start": ruleset.start,
        "premiums": ruleset.premiums,
        "rack_size": ruleset.rack_size,
        "bingo_bonus": ruleset.bingo_bonus,
        "blanks": ruleset.blanks,
        "tile_total": ruleset.tile_total,
        "values": tuple(ruleset.value(code) for code in ruleset.alphabet.codes),
        "counts": tuple(ruleset.count(code) for code in ruleset.alphabet.codes),
    }
    for key in want:
        if want[key] != got[key]:
            problems.append(f"{key}: the TOML says {want[key]!r}, the loader gives {got[key]!r}")
    return problems


@st.composite
def word_texts(draw: st.DrawFn, spec: RulesetSpec) -> list[str]:
    """Words over the ruleset's labels: 1 to 25 texts, mostly over a few letters (so that
    they meet on the board), of 1 to min(side + 1, 9) labels (8 or more in the huge regime),
    often with one-letter words beside them, some in lower case (the reader folds them). A
    text the alphabet cannot split (a digraph's letters may run into another label) is left
    out: it is no word of this alphabet."""
    from lexc.alphabet import Alphabet

    labels = [label for label, _, _ in spec.tiles]
    alphabet = Alphabet(tuple(labels))
    few = draw(st.integers(1, min(len(labels), 6)))
    common = draw(st.lists(st.sampled_from(labels), min_size=few, max_size=few, unique=True))
    longest = max(1, min(spec.size + 1, 9))
    if spec.regime == "huge":
        lengths = st.integers(min(8, spec.size), min(spec.size, 10))
    else:
        lengths = st.one_of(st.integers(2, min(longest, 4)), st.integers(1, longest))
    texts = []
    for _ in range(draw(st.integers(1, 25))):
        pool = common if draw(st.integers(0, 3)) else labels
        texts.append("".join(draw(st.sampled_from(pool)) for _ in range(draw(lengths))))
    texts += draw(st.lists(st.sampled_from(labels), max_size=3))  # one-letter words
    kept = []
    for text in texts:
        try:
            alphabet.encode(text)
        except ValueError:
            continue
        kept.append(text.lower() if draw(st.integers(0, 4)) == 0 else text)
    return kept or [labels[0]]


# -- lexicons ------------------------------------------------------------------------------

def kinds_built(wordlist, ruleset_path: Path) -> dict[str, object]:
    """The word list in every registered format: ``NAME`` on ``native.select()``'s backend
    (the compiled core when it is built: loaded from the pure build's file, after checking
    that the core builds the very same file) and ``NAME:pure`` on the pure-Python reference
    for each format the core runs; a format the core does not run once, as lexc makes it."""
    out = {}
    core = native.select()
    for name in FORMATS:
        pure = formats.build(wordlist, name, ruleset=str(ruleset_path), backend=native.PURE)
        if FORMATS[name].compiled and core.compiled:
            data = formats.dumps(pure)
            built = formats.build(wordlist, name, ruleset=str(ruleset_path), backend=core)
            if formats.dumps(built) != data:
                raise AssertionError(f"{name}: the compiled core builds another file than the pure path")
            out[name] = formats.loads(data, backend=core)
            out[f"{name}:pure"] = pure
        else:
            out[name] = formats.build(wordlist, name, ruleset=str(ruleset_path))
    return out


NAIVE_ON = ("dawg", "prefixset", "prefixset-aho")  # the formats the naive method is compared on


def combos(kinds: dict[str, object]) -> list[tuple[str, str]]:
    """Every (kind, strategy) pair where the strategy applies to the kind's format, but the
    naive method only on ``NAIVE_ON``'s formats on lexc's chosen backend: it is the same
    Python code on any format, asking only membership and is-prefix (which the query tests
    compare everywhere), and on the anagram trie an is-prefix is a pass over the file."""
    return [(kind, strategy) for kind, lexicon in kinds.items() for strategy, module in STRATEGIES.items()
            if module.applicable(lexicon) and (strategy != "naive" or kind in NAIVE_ON)]


class WordSet:
    """A plain set of encoded words, answering the one question the referee asks."""

    def __init__(self, words: set[bytes]):
        self.words = words

    def contains_codes(self, codes: bytes) -> bool:
        return bytes(codes) in self.words


# -- brute force ---------------------------------------------------------------------------

def _cross(board: Board, row: int, col: int, letter: int, down: bool) -> bytes | None:
    """The word a tile ``letter`` put at (row, col) makes across the play (``down``: the
    play's direction), unblanked; None when no tile touches it that way."""
    n = board.size
    dr, dc = (0, 1) if down else (1, 0)  # across the play
    before, r, c = [], row - dr, col - dc
    while 0 <= r < n and 0 <= c < n and board.at(r, c):
        before.append(board.at(r, c) & ~BLANK_FLAG)
        r, c = r - dr, c - dc
    after, r, c = [], row + dr, col + dc
    while 0 <= r < n and 0 <= c < n and board.at(r, c):
        after.append(board.at(r, c) & ~BLANK_FLAG)
        r, c = r + dr, c + dc
    if not before and not after:
        return None
    return bytes([*before[::-1], letter, *after])


def _blank_choices(letters: list[int], naturals: Counter, blanks: int) -> list[tuple[int, ...]]:
    """Every way to put down ``letters`` (in order) from a rack: each a tuple of codes, a
    blank standing for a letter as ``letter | BLANK_FLAG``; a blank may stand in even where
    the natural tile is on the rack (another placement)."""
    where: dict[int, list[int]] = {}
    for i, letter in enumerate(letters):
        where.setdefault(letter, []).append(i)
    options = []
    for letter, spots in where.items():
        least = max(0, len(spots) - naturals[letter])
        options.append([set(chosen) for k in range(least, min(len(spots), blanks) + 1)
                        for chosen in itertools.combinations(spots, k)])
    out = []
    for pick in itertools.product(*options):
        blanked = set().union(*pick) if pick else set()
        if len(blanked) <= blanks:
            out.append(tuple(letter | BLANK_FLAG if i in blanked else letter for i, letter in enumerate(letters)))
    return out


def brute_plays(board: Board, letters: list[int], blanks: int, words: set[bytes]) -> set[tuple[str, int]]:
    """Every legal play as (notation, score), by trying every word of two letters or more at
    every place of every row and column: the squares before and after it empty, the board's
    tiles where it has them, the rest from the rack (every choice of natural or blank), the
    start square covered on an empty board or else a tile of the board used or touched,
    every cross word a word; a one-tile play that makes words both ways listed once, across.
    Scored by ``lexc.board.scoring.score``. (The words tried are those the rack and the
    board's tiles together could spell: no other can be played.)"""
    n, ruleset = board.size, board.ruleset
    naturals = Counter(letters)
    tiles = len(letters) + blanks
    empty = board.is_empty()
    out = set()
    spare = naturals + Counter(c & ~BLANK_FLAG for row in board.rows for c in row if c)
    tried = [w for w in words if sum((Counter(w) - spare).values()) <= blanks]
    for down in (False, True):
        for index in range(n):
            line = board.line(index, down)
            for word in tried:
                length = len(word)
                if length < 2 or length > n:
                    continue
                for s in range(n - length + 1):
                    if (s and line[s - 1]) or (s + length < n and line[s + length]):
                        continue
                    if any(line[s + i] and line[s + i] & ~BLANK_FLAG != word[i] for i in range(length)):
                        continue
                    new = [i for i in range(length) if not line[s + i]]
                    if not new or len(new) > tiles:
                        continue
                    squares = [(s + i, index) if down else (index, s + i) for i in range(length)]
                    if len(new) == 1 and down:  # listed across when it touches a tile across
                        r, c = squares[new[0]]
                        if (c and board.at(r, c - 1)) or (c + 1 < n and board.at(r, c + 1)):
                            continue
                    crosses = [_cross(board, *squares[i], word[i], down) for i in new]
                    if any(cross is not None and cross not in words for cross in crosses):
                        continue
                    if empty:
                        if ruleset.start not in [squares[i] for i in new]:
                            continue
                    elif len(new) == length and all(cross is None for cross in crosses):
                        continue  # touches nothing
                    for codes in _blank_choices([word[i] for i in new], naturals, blanks):
                        laid = dict(zip(new, codes, strict=True))
                        play = Play(*squares[0], down, bytes(laid.get(i, THROUGH) for i in range(length)))
                        out.add((play.notation(board), score(board, play)))
    return out


def brute_anagrams(words: set[bytes], letters: list[int], blanks: int, sub: bool) -> list[bytes]:
    """Words from the rack (all of it, or any part with ``sub``), each once in its most
    natural form (a blank stands in, left to right, where the natural tiles have run out),
    longest first, then by letters, natural tiles before blank-made ones."""
    tiles = len(letters) + blanks
    out = []
    for word in words:
        if len(word) > tiles or (not sub and len(word) != tiles):
            continue
        left, spelled, spare = Counter(letters), [], blanks
        for letter in word:
            if left[letter]:
                left[letter] -= 1
                spelled.append(letter)
            else:
                spare -= 1
                spelled.append(letter | BLANK_FLAG)
        if spare >= 0:
            out.append(bytes(spelled))
    return sorted(out, key=lambda w: (-len(w), bytes(c & ~BLANK_FLAG for c in w), w))


def matches(tokens: tuple[int, ...], word: bytes) -> bool:
    """Whether a word matches a parsed pattern (letter masks and STAR), by dynamic programming."""
    reach = {0}
    for letter in word:
        nxt = set()
        for k in _closure(tokens, reach):
            if k < len(tokens):
                if tokens[k] == STAR:
                    nxt.add(k)
                elif tokens[k] >> letter & 1:
                    nxt.add(k + 1)
        reach = nxt
        if not reach:
            return False
    return len(tokens) in _closure(tokens, reach)


def _closure(tokens: tuple[int, ...], reach: set[int]) -> set[int]:
    """The pattern positions reachable by letting each ``*`` match nothing."""
    out, todo = set(reach), list(reach)
    while todo:
        k = todo.pop()
        if k < len(tokens) and tokens[k] == STAR and k + 1 not in out:
            out.add(k + 1)
            todo.append(k + 1)
    return out


def brute_hooks(words: set[bytes], codes: bytes, letters: range) -> tuple[bool, tuple[int, ...], tuple[int, ...]]:
    """(is a word, front hooks, back hooks) of ``codes``, the hooks as letter codes in order."""
    return (codes in words, tuple(c for c in letters if bytes((c,)) + codes in words),
            tuple(c for c in letters if codes + bytes((c,)) in words))
