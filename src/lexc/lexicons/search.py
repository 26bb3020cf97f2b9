"""Composable word searches, the questions word-study players ask (Zyzzyva's search): every
condition is an object, the search is their AND, and any condition may be negated.

A condition can **test** a word (its letter codes, in the lexicon's alphabet: a Spanish CH is
one tile); some can also **drive** the search, listing the words that meet them straight from
the lexicon through the format protocol (a pattern, an anagram, a sub-anagram, a prefix, a
length): the search starts from the smallest list a driving condition gives (or, with none,
from every word) and keeps the words every condition holds for. So every format gives the
same answer, as fast as its own queries allow.

The conditions: ``Pattern`` (``?``, ``*``, ``[..]``, ranges), ``AnagramMatch`` (all the rack's
tiles, ``?`` one more tile, ``*`` any more), ``SubAnagram``, ``Length``, ``Contains``,
``BeginsWith``, ``EndsWith``, ``AnagramCount`` (how many words, this one included, share its
tiles), ``TakesFrontHook`` / ``TakesBackHook`` (optionally a given letter), ``DropsFirst`` /
``DropsLast`` (the word minus its first / last tile is a word: its inner hooks, and it is a
front / back hook of that shorter word), ``InLexicon`` (in another lexicon), and
``ProbabilityRank`` (a range of Zyzzyva's probability order, ``lexicons.probability``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..alphabet import BLANK_CHAR, UNBLANK, Alphabet, written_tiles
from ..errors import LexcError
from ..formats.base import LexiconBase
from ..limits import MAX_COUNT, MAX_WORD_TILES
from ..pattern import STAR, as_regex, can_match, parse_pattern
from ..ruleset import Ruleset
from .probability import combinations_list
from .study import StudyIndex, study_index


class SearchError(LexcError, ValueError):
    """A condition that cannot be read (a bad range, rack or pattern); one line."""


class Context:
    """What conditions share during one search: the lexicon, the ruleset, and answers worked
    out once (the lexicon's study index: ranks and anagram counts; each word's combinations)."""

    def __init__(self, lexicon: LexiconBase, ruleset: Ruleset):
        self.lexicon, self.ruleset, self.alphabet = lexicon, ruleset, lexicon.alphabet
        self._combinations: dict[int, dict[bytes, int]] = {}
        self._indexes: dict[int, StudyIndex] = {}
        self._anagrams: dict[bytes, int] = {}

    def words_of_length(self, length: int) -> list[bytes]:
        """Every word of ``length`` tiles."""
        if length < 1:
            return []
        tokens = (self.alphabet.mask(self.alphabet.codes),) * length
        return list(self.lexicon.pattern_codes(tokens)) if can_match(tokens) else []

    def rank(self, word: bytes, blanks: int) -> int:
        """The word's probability rank among the lexicon's words of its length."""
        return self.index(blanks).rank(len(word), self.combinations(word, blanks))

    def index(self, blanks: int = 2) -> StudyIndex:
        """The lexicon's study index (``lexc.lexicons.study``) with up to ``blanks`` blanks."""
        if blanks not in self._indexes:
            self._indexes[blanks] = study_index(self.lexicon, self.ruleset, blanks)
        return self._indexes[blanks]

    def combinations(self, word: bytes, blanks: int) -> int:
        """The word's combinations (``probability.combinations``)."""
        known = self._combinations.setdefault(blanks, {})
        if word not in known:
            self.prefetch([word], blanks)
        return known[word]

    def prefetch(self, words: Iterable[bytes], blanks: int) -> None:
        """Work out the combinations of many words at once (one call to the compiled core)."""
        known = self._combinations.setdefault(blanks, {})
        todo = [w for w in dict.fromkeys(words) if w not in known]
        known.update(zip(todo, combinations_list(todo, self.ruleset, blanks, self.lexicon.backend), strict=True))

    def anagram_count(self, word: bytes) -> int:
        """How many words of the lexicon are spelled with exactly the tiles of ``word`` (a
        word of the lexicon): read off the study index when this search has it (a table, or
        many words to test), else one anagram search per set."""
        if self._indexes:
            return self._indexes[next(iter(self._indexes))].anagram_count(word)
        key = bytes(sorted(word))
        if key not in self._anagrams:
            self._anagrams[key] = len(self.lexicon.anagram_codes(list(key), 0, False))
        return self._anagrams[key]


@dataclass(frozen=True)
class Condition:
    """One condition of a search; ``negated`` turns it into its opposite."""

    negated: bool = field(default=False, kw_only=True)

    exact = True  # what ``drive`` lists are exactly the words that meet the condition
    costly = False  # its listing reads much of the lexicon: used only when no cheap one drives

    def drive(self, context: Context) -> Collection[bytes] | None:
        """The words that meet the condition, each once (when ``exact``; else words holding
        them all), when it can list them from the lexicon (None: it can only test a word).
        Never called on a negated condition."""
        return None

    def test(self, word: bytes, context: Context) -> bool:
        """Whether the (un-negated) condition holds for the word."""
        raise NotImplementedError

    def prepare(self, words: list[bytes], context: Context) -> None:
        """Work out at once what testing these words will need (most conditions: nothing)."""

    def holds(self, word: bytes, context: Context) -> bool:
        """Whether the condition, negated or not, holds for the word."""
        return self.test(word, context) != self.negated


@lru_cache(maxsize=256)
def _tiles(text: str, alphabet: Alphabet, what: str) -> bytes:
    """Tiles written as text (any case, a multi-character tile by longest match or in brackets)."""
    try:
        letters, blanks = alphabet.parse_rack(text)
    except ValueError as exc:
        raise SearchError(f"{what} {text!r}: {exc}") from None
    if blanks:
        raise SearchError(f"{what} {text!r}: a blank ({BLANK_CHAR}) means nothing here")
    return bytes(letters)


@lru_cache(maxsize=256)
def _pattern(text: str, alphabet: Alphabet) -> tuple[tuple[int, ...], Any]:
    """A pattern's tokens and its regular expression over letter codes, read once."""
    try:
        tokens = parse_pattern(text, alphabet)
    except ValueError as exc:
        raise SearchError(str(exc)) from None
    return tokens, as_regex(tokens)


@dataclass(frozen=True)
class Pattern(Condition):
    """The word matches a pattern (``lexc.pattern``)."""

    text: str

    def drive(self, context: Context) -> Collection[bytes] | None:
        tokens, _ = _pattern(self.text, context.alphabet)
        return list(context.lexicon.pattern_codes(tokens)) if can_match(tokens) else []

    def test(self, word: bytes, context: Context) -> bool:
        return _pattern(self.text, context.alphabet)[1].fullmatch(word) is not None


@lru_cache(maxsize=256)
def _rack(text: str, alphabet: Alphabet, star: bool) -> tuple[Counter[int], int, bool]:
    """A rack's tiles, its blanks, and (when ``star`` is allowed) whether it holds a ``*``."""
    wild = star and "*" in text
    try:
        letters, blanks = alphabet.parse_rack(text.replace("*", "") if star else text)
    except ValueError as exc:
        raise SearchError(f"rack {text!r}: {exc}") from None
    return Counter(letters), blanks, wild


@dataclass(frozen=True)
class AnagramMatch(Condition):
    """The word uses every tile of the rack, ``?`` one more tile each, and with ``*`` any
    number of other tiles (Zyzzyva's anagram match)."""

    rack: str

    def drive(self, context: Context) -> Collection[bytes] | None:
        letters, blanks, wild = _rack(self.rack, context.alphabet, True)
        if wild:
            return None
        return _unblanked(context.lexicon.anagram_joined(sorted(letters.elements()), blanks, False))

    def test(self, word: bytes, context: Context) -> bool:
        letters, blanks, wild = _rack(self.rack, context.alphabet, True)
        size = sum(letters.values()) + blanks
        return (len(word) >= size if wild else len(word) == size) and not letters - Counter(word)


def _unblanked(joined: bytes) -> list[bytes]:
    """A rack search's words (``anagram_joined``) without their blank marks: one pass over
    them all (the search gives each word once)."""
    return joined.translate(UNBLANK).split(b"\0") if joined else []


@dataclass(frozen=True)
class SubAnagram(Condition):
    """The word can be made from some of the rack's tiles (``?`` a blank)."""

    rack: str

    def drive(self, context: Context) -> Collection[bytes] | None:
        letters, blanks, _ = _rack(self.rack, context.alphabet, False)
        return _unblanked(context.lexicon.anagram_joined(sorted(letters.elements()), blanks, True))

    def test(self, word: bytes, context: Context) -> bool:
        letters, blanks, _ = _rack(self.rack, context.alphabet, False)
        return sum((Counter(word) - letters).values()) <= blanks


@dataclass(frozen=True)
class Length(Condition):
    """The word has ``low`` to ``high`` tiles (``high`` None: no upper bound)."""

    low: int
    high: int | None

    def drive(self, context: Context) -> Collection[bytes] | None:
        if self.high is None or self.high - self.low > 20:
            return None
        return {w for n in range(self.low, self.high + 1) for w in context.words_of_length(n)}

    def test(self, word: bytes, context: Context) -> bool:
        return self.low <= len(word) and (self.high is None or len(word) <= self.high)


@dataclass(frozen=True)
class Contains(Condition):
    """The word holds all these tiles (as many of each as given)."""

    tiles: str
    exact = False  # (it lists the words holding its rarest tile)
    costly = True

    def drive(self, context: Context) -> Collection[bytes] | None:
        tiles = _tiles(self.tiles, context.alphabet, "contains")
        if not tiles:
            return None
        rarest = min(tiles, key=lambda code: (context.ruleset.count(code), code))  # the fewest words hold it
        return list(context.lexicon.pattern_codes((STAR, 1 << rarest, STAR)))

    def test(self, word: bytes, context: Context) -> bool:
        return not Counter(_tiles(self.tiles, context.alphabet, "contains")) - Counter(word)


@dataclass(frozen=True)
class BeginsWith(Condition):
    """The word's first tiles are these."""

    tiles: str

    def drive(self, context: Context) -> Collection[bytes] | None:
        return list(context.lexicon.iter_codes(_tiles(self.tiles, context.alphabet, "begins with")))

    def test(self, word: bytes, context: Context) -> bool:
        return word.startswith(_tiles(self.tiles, context.alphabet, "begins with"))


@dataclass(frozen=True)
class EndsWith(Condition):
    """The word's last tiles are these."""

    tiles: str
    costly = True  # (a pattern *XY: a walk of every path)

    def drive(self, context: Context) -> Collection[bytes] | None:
        tiles = _tiles(self.tiles, context.alphabet, "ends with")
        return list(context.lexicon.pattern_codes((STAR, *(1 << code for code in tiles)))) if tiles else None

    def test(self, word: bytes, context: Context) -> bool:
        return word.endswith(_tiles(self.tiles, context.alphabet, "ends with"))


@dataclass(frozen=True)
class AnagramCount(Condition):
    """``low`` to ``high`` words (this one included) are spelled with the word's tiles."""

    low: int
    high: int | None

    costly = True  # (the study index of the whole lexicon)

    def drive(self, context: Context) -> Collection[bytes] | None:
        if self.low < 2:  # most words: a scan is quicker
            return None
        sets = [alphagram for alphagram, n in context.index().anagram_sets.items()
                if self.low <= n and (self.high is None or n <= self.high)]
        if len(sets) > 2000:
            return None
        return {word for alphagram in sets for word in context.lexicon.anagram_codes(list(alphagram), 0, False)}

    def prepare(self, words: list[bytes], context: Context) -> None:
        if len(words) > 2000:  # many words: the study index at once, rather than a search a word
            context.index()

    def test(self, word: bytes, context: Context) -> bool:
        count = context.anagram_count(word)
        return self.low <= count and (self.high is None or count <= self.high)


def _hook_letter(letter: str | None, alphabet: Alphabet) -> int | None:
    if not letter:
        return None
    tiles = _tiles(letter, alphabet, "hook")
    if len(tiles) != 1:
        raise SearchError(f"hook {letter!r}: one tile")
    return tiles[0]


@dataclass(frozen=True)
class _TakesHook(Condition):
    """Some tile (or the given one) on one side of the word makes a word. Each side gives its
    letter mask from the format protocol (``_hooks``), the words that start or end with a
    letter (``_longer``) and the slice that takes that letter off (``_cut``)."""

    letter: str | None = None
    costly = True  # (every word on that side of the letter)
    _cut = slice(None)

    def _hooks(self, word: bytes, context: Context) -> int:
        raise NotImplementedError

    def _longer(self, code: int, context: Context) -> Iterable[bytes]:
        raise NotImplementedError

    def drive(self, context: Context) -> Collection[bytes] | None:
        code = _hook_letter(self.letter, context.alphabet)
        if code is None:
            return None
        contains, cut = context.lexicon.contains_codes, self._cut
        return {w[cut] for w in self._longer(code, context) if len(w) > 1 and contains(w[cut])}

    def test(self, word: bytes, context: Context) -> bool:
        mask = self._hooks(word, context)
        code = _hook_letter(self.letter, context.alphabet)
        return bool(mask) if code is None else bool(mask >> code & 1)


@dataclass(frozen=True)
class TakesFrontHook(_TakesHook):
    """Some tile (or the given one) before the word makes a word."""

    _cut = slice(1, None)

    def _hooks(self, word: bytes, context: Context) -> int:
        return context.lexicon.front_hooks(word)

    def _longer(self, code: int, context: Context) -> Iterable[bytes]:
        return context.lexicon.iter_codes(bytes([code]))


@dataclass(frozen=True)
class TakesBackHook(_TakesHook):
    """Some tile (or the given one) after the word makes a word."""

    _cut = slice(None, -1)

    def _hooks(self, word: bytes, context: Context) -> int:
        return context.lexicon.back_hooks(word)

    def _longer(self, code: int, context: Context) -> Iterable[bytes]:
        return context.lexicon.pattern_codes((STAR, 1 << code))


@dataclass(frozen=True)
class DropsFirst(Condition):
    """The word minus its first tile is a word (a front inner hook: the word is a front hook
    of that shorter word)."""

    def test(self, word: bytes, context: Context) -> bool:
        return len(word) > 1 and context.lexicon.contains_codes(word[1:])


@dataclass(frozen=True)
class DropsLast(Condition):
    """The word minus its last tile is a word (a back inner hook)."""

    def test(self, word: bytes, context: Context) -> bool:
        return len(word) > 1 and context.lexicon.contains_codes(word[:-1])


@dataclass(frozen=True)
class InLexicon(Condition):
    """The word is in another lexicon (of the same alphabet); negated: a word it lacks."""

    other: LexiconBase
    name: str = ""

    def test(self, word: bytes, context: Context) -> bool:
        return self.other.contains_codes(word)


@dataclass(frozen=True)
class ProbabilityRank(Condition):
    """The word's probability rank among the words of its length is ``low`` to ``high``
    (Zyzzyva's order with up to ``blanks`` blanks)."""

    low: int
    high: int | None
    blanks: int = 2

    def test(self, word: bytes, context: Context) -> bool:
        rank = context.rank(word, self.blanks)
        return self.low <= rank and (self.high is None or rank <= self.high)

    def prepare(self, words: list[bytes], context: Context) -> None:
        context.prefetch(words, self.blanks)


def search(lexicon: Any, conditions: Iterable[Condition], ruleset: Ruleset) -> list[bytes]:
    """The words (letter codes) of the lexicon for which every condition holds, in code order:
    the smallest list a driving condition gives, filtered by all of them."""
    conditions = list(conditions)
    context = Context(lexicon, ruleset)
    driven: list[tuple[Collection[bytes], Condition]] = []
    for costly in (False, True):  # the costly drivers only when no cheap one lists the words
        if not driven:
            driven = [(found, c) for c in conditions if not c.negated and c.costly == costly
                      for found in [c.drive(context)] if found is not None]
    if driven:
        found, driver = min(driven, key=lambda pair: len(pair[0]))
        base = sorted(found)
        if driver.exact:  # its words need no second test
            conditions = [c for c in conditions if c is not driver]
    else:
        base = list(lexicon.iter_codes())
    if not conditions:
        return base
    for condition in conditions:
        condition.prepare(base, context)
    return [word for word in base if all(c.holds(word, context) for c in conditions)]


@dataclass(slots=True)
class Row:
    """One word of a search's answer with what a player studies it by: its columns, named as
    the text table's header, the CSV's header and the JSON's keys all name them (``COLUMNS``).

    ``front``, ``back``: the hooks (a multi-character tile in brackets, ``[CH]``); ``word``;
    ``rank``: its probability rank among the words of its length (``--probability``, ``--sort
    probability``); ``alphagram``; ``anagrams``: how many words share its tiles; ``score``: its
    tiles' points; ``inner_front``, ``inner_back``: whether it minus its first or last tile is
    a word (the text table's dots); ``combinations``: the draws that spell it (what ``rank``
    orders); ``length``: its tiles."""

    front: str
    word: str
    back: str
    rank: int
    alphagram: str
    anagrams: int
    score: int
    inner_front: bool
    inner_back: bool
    combinations: int
    length: int

    def as_dict(self) -> dict[str, Any]:
        """Every column by its name (``COLUMNS``, in that order), JSON-friendly: the JSON's
        objects and the CSV's rows."""
        return {name: getattr(self, name) for name in COLUMNS}


COLUMNS = Row.__slots__  # every column's name, in order: the text table's are the first (TABLE_COLUMNS)
TABLE_COLUMNS = COLUMNS[:6]  # the columns the text table shows (score too, sorted by score)


def rows(lexicon: Any, words: list[bytes], ruleset: Ruleset, blanks: int = 2) -> list[Row]:
    """The study table of the words: hooks around them, inner-hook marks, probability rank
    (and combinations) with up to ``blanks`` blanks, alphagram, number of anagrams, score."""
    context = Context(lexicon, ruleset)
    context.prefetch(words, blanks)
    index = context.index(blanks)
    alphabet = lexicon.alphabet
    labels, decode = alphabet.mask_labels, alphabet.decode
    alphagram = decode if alphabet.single_char else lambda tiles: written_tiles(map(alphabet.label, tiles))
    combinations = context._combinations[blanks]
    value = ruleset.value
    drops_first, drops_last = DropsFirst(), DropsLast()
    out = []
    for word in words:
        count = combinations[word]
        out.append(Row(
            word=decode(word), front=written_tiles(labels(lexicon.front_hooks(word))),
            back=written_tiles(labels(lexicon.back_hooks(word))),
            inner_front=drops_first.test(word, context), inner_back=drops_last.test(word, context),
            rank=index.rank(len(word), count), combinations=count,
            alphagram=alphagram(bytes(sorted(word))), anagrams=index.anagram_count(word),
            score=sum(map(value, word)), length=len(word)))
    return out


SORTS = {
    "alpha": lambda r: (r.word,),
    "length": lambda r: (r.length, r.word),
    "probability": lambda r: (r.length, r.rank, r.alphagram, r.word),
    "score": lambda r: (-r.score, r.word),
}


def sorted_rows(table: list[Row], sort: str = "alpha", group: bool = False) -> list[Row]:
    """The rows in ``sort`` order (alpha, length, probability: by length then rank, score:
    highest first); with ``group``, each anagram set together, where its first word falls."""
    if sort not in SORTS:
        raise SearchError(f"unknown sort {sort!r} (known: {', '.join(SORTS)})")
    ordered = sorted(table, key=SORTS[sort])
    if not group:
        return ordered
    first: dict[str, int] = {}
    for i, row in enumerate(ordered):
        first.setdefault(row.alphagram, i)
    return sorted(ordered, key=lambda r: (first[r.alphagram], r.word))




def study_table(lexicon: Any, words: list[bytes], ruleset: Ruleset, blanks: int = 2, sort: str = "alpha",
                group: bool = False, limit: int | None = None) -> list[Row]:
    """The study table of the words in ``sort`` order (``sorted_rows``), at most ``limit``
    rows: where the order needs only the words (alpha or length, not grouped), only the rows
    shown are worked out."""
    if sort in ("alpha", "length") and not group and limit is not None and 0 <= limit < len(words):
        decode = lexicon.alphabet.decode
        key = (lambda w: decode(w)) if sort == "alpha" else (lambda w: (len(w), decode(w)))
        words = sorted(words, key=key)[:limit]
    return sorted_rows(rows(lexicon, words, ruleset, blanks), sort, group)[:limit]


KINDS = ("pattern", "anagram", "subanagram", "length", "contains", "begins", "ends", "anagrams", "front-hook",
         "back-hook", "drops-first", "drops-last", "in", "probability")


def parse_range(text: str, what: str, most: int = MAX_COUNT) -> tuple[int, int | None]:
    """``N``, ``N-M`` or ``N-`` (no upper bound) as (low, high), each number from 0 to
    ``most`` (a length: ``MAX_WORD_TILES``; a count or rank: ``MAX_COUNT``), so that no
    number too big for the machine (or for a word) reaches a search."""
    low, dash, high = text.strip().partition("-")
    try:
        start = int(low)
        end = (int(high) if high else None) if dash else start
    except ValueError:
        raise SearchError(f"{what} {_quoted(text)}: expected N, N-M or N-") from None
    if start < 0 or (end is not None and end < start):
        raise SearchError(f"{what} {_quoted(text)}: not a range of counts")
    if max(start, end or 0) > most:
        raise SearchError(f"{what} {_quoted(text)}: at most {most:,}")
    return start, end


def _quoted(text: str, width: int = 40) -> str:
    """A value as an error quotes it: its repr, cut to ``width`` characters."""
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."


def make_condition(kind: str, value: str | None, negated: bool = False, blanks: int = 2,
                   open_lexicon: Any = None) -> Condition:
    """The condition of a search option (``kind`` as ``KINDS`` spells it; ``value`` its text,
    None or empty for the hook kinds without a letter and the flags); ``open_lexicon(path)``
    opens the lexicon of ``in``."""
    text = value or ""
    simple = {"pattern": Pattern, "anagram": AnagramMatch, "subanagram": SubAnagram, "contains": Contains,
              "begins": BeginsWith, "ends": EndsWith}
    if kind in simple:
        if not text:
            raise SearchError(f"{kind}: give a value")
        return simple[kind](text, negated=negated)
    if kind == "length":
        return Length(*parse_range(text, "length", MAX_WORD_TILES), negated=negated)
    if kind == "anagrams":
        return AnagramCount(*parse_range(text, "anagrams"), negated=negated)
    if kind == "probability":
        return ProbabilityRank(*parse_range(text, "probability"), blanks=blanks, negated=negated)
    if kind == "front-hook":
        return TakesFrontHook(text or None, negated=negated)
    if kind == "back-hook":
        return TakesBackHook(text or None, negated=negated)
    if kind == "drops-first":
        return DropsFirst(negated=negated)
    if kind == "drops-last":
        return DropsLast(negated=negated)
    if kind == "in":
        if not text or open_lexicon is None:
            raise SearchError("in: give a lexicon file")
        return InLexicon(open_lexicon(text), text, negated=negated)
    raise SearchError(f"unknown condition {kind!r} (known: {', '.join(KINDS)})")


__all__ = [
    "COLUMNS",
    "KINDS",
    "SORTS",
    "TABLE_COLUMNS",
    "AnagramCount",
    "AnagramMatch",
    "BeginsWith",
    "Condition",
    "Contains",
    "Context",
    "DropsFirst",
    "DropsLast",
    "EndsWith",
    "InLexicon",
    "Length",
    "Pattern",
    "ProbabilityRank",
    "Row",
    "SearchError",
    "SubAnagram",
    "TakesBackHook",
    "TakesFrontHook",
    "make_condition",
    "parse_range",
    "rows",
    "search",
    "sorted_rows",
    "study_table",
]
