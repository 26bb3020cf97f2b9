"""The one protocol every lexicon format implements, and the queries derived from it.

A format implements its traversal primitives plus ``build`` and its payload bytes; the
``LexiconBase`` mixin derives every query from the primitives (the way word-golib writes its
anagram and hook algorithms once over a handful of node primitives). A format overrides a
query only where its structure answers it natively, and says so in ``capabilities``.

Words move through the library as ``bytes`` of letter codes (see ``lexc.alphabet``); the
user-facing methods take and return ``str``. In anagram results a letter made by a blank
carries ``BLANK_FLAG`` (it prints in lower case).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import add
from typing import Any, ClassVar, NoReturn, Protocol, TypeVar, runtime_checkable

from .. import native
from ..alphabet import BLANK_FLAG, MAX_WORD_TILES, UNBLANK, Alphabet, written_tiles
from ..pattern import Matcher, can_match, parse_pattern
from ..plural import plural
from . import schema
from .errors import FormatError

T = TypeVar("T")

# an opaque handle: whatever the format uses to name a position in its graph (an edge index, a
# key), handed back to the same lexicon's primitives; each format's own methods say which
Node = Any


# the word-list options every header records (``lexc build --min-len/--max-len/--skip-invalid``)
LIST_OPTION_SPECS: dict[str, schema.Spec] = {
    "min_len": schema.integer(1, 10**6),
    "max_len": schema.optional(schema.integer(1, 10**6)),
    "skip_invalid": schema.boolean,
}


class Capability(enum.Flag):
    """What a format offers beyond the ``Lexicon`` protocol."""

    NONE = 0
    TRIE = enum.auto()  # root / child / children / is_word / word_letters
    GADDAG = enum.auto()  # the same primitives over reversed-prefix paths with a separator
    ANAGRAM_INDEX = enum.auto()  # words_from(rack, required=...) / words_using(codes...) in canonical order
    NATIVE_ANAGRAM = enum.auto()  # anagrams answered by format-specific code
    NATIVE_PATTERN = enum.auto()  # patterns answered by format-specific code

    def names(self) -> list[str]:
        """The flag names, lower case, with '-' for '_'."""
        return [f.name.lower().replace("_", "-") for f in Capability if f and f in self and f.name]


@dataclass(frozen=True)
class Hooks:
    """The front and back hooks of a word, and whether the word itself is valid."""

    word: str
    valid: bool
    front: tuple[str, ...]
    back: tuple[str, ...]

    @classmethod
    def make(cls, word: str, valid: bool, front: tuple[str, ...], back: tuple[str, ...]) -> Hooks:
        """The same object as ``Hooks(...)``, made without the frozen dataclass's per-field
        ``__setattr__`` calls (hooks are asked for one word at a time: this is most of it)."""
        made = object.__new__(cls)
        fields = made.__dict__
        fields["word"], fields["valid"], fields["front"], fields["back"] = word, valid, front, back
        return made

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form: the hooks of each side as one string, a multi-character tile
        in brackets as the move notation writes it (``C[CH]H``: ``alphabet.written_tiles``)."""
        return {"word": self.word, "valid": self.valid, "front": written_tiles(self.front),
                "back": written_tiles(self.back)}


@runtime_checkable
class Trie(Protocol):
    """Traversal primitives of a letter graph read left to right."""

    def root(self) -> Node: ...
    def child(self, node: Node, letter: int) -> Node | None: ...
    def children(self, node: Node) -> Iterator[tuple[int, Node]]: ...
    def children_among(self, node: Node, letters: int) -> list[tuple[int, Node]]: ...
    def is_word(self, node: Node) -> bool: ...
    def word_letters(self, node: Node) -> int: ...


class LexiconBase:
    """Shared behaviour of every format: the container interface and all derived queries."""

    name: ClassVar[str] = ""
    version: ClassVar[int] = 1
    description: ClassVar[str] = ""
    capabilities: ClassVar[Capability] = Capability.NONE
    options: ClassVar[dict[str, Any]] = {}  # build options and their defaults
    uses_ruleset: ClassVar[bool] = False  # build() also takes the ruleset's name (e.g. for tile values)
    zero_copy: ClassVar[bool] = False  # from_payload() keeps the loaded view (of the mapped file) as is
    compiled: ClassVar[bool] = False  # the compiled core answers its queries on the compiled backend
    # the header fields a loader reads, each with its type and range (``schema``), checked before from_payload
    option_specs: ClassVar[dict[str, schema.Spec]] = {}
    meta_specs: ClassVar[dict[str, schema.Spec]] = {}
    meta_required: ClassVar[tuple[str, ...]] = ()

    alphabet: Alphabet
    word_count: int
    build_options: dict[str, Any]
    # set by the registry once a lexicon is built or loaded (``formats.build``, ``load``)
    wordlist_sha256: str  # of the normalized word list ("" when not known: a KWG file)
    ruleset: str  # a bundled ruleset's name, or a ruleset's own text (``ruleset.ruleset_reference``)
    header: dict[str, Any]  # a loaded file's checked header
    file_layout: str  # how a lexicon read in place is stored, when not as a lexc container ("kwg")
    file_fields: dict[str, Any]  # what another engine's file records beside its words (a title, a date, a name)
    source: str = ""  # the file a lexicon was read from ("" when built), named in the errors of its deferred proofs
    # the backend the lexicon was made with (``native.select``): its hot operations run there
    backend: native.Backend = native.PURE

    @property
    def engine(self) -> str:
        """What answers this lexicon's queries and searches: ``"compiled core (C)"`` or
        ``"pure Python"`` (``prefixset-aho`` adds the library its patterns go to)."""
        return "pure Python"

    # -- what every format provides -------------------------------------------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, **options: Any) -> LexiconBase:
        """Build from strictly increasing, deduplicated encoded words (``backend=`` the backend
        to make it on: ``native.select()``'s by default)."""
        raise NotImplementedError

    @classmethod
    def check_options(cls, options: dict[str, Any], alphabet: Alphabet, ruleset: str) -> None:
        """Raise FormatError for build options this format cannot use (before any work)."""

    def payload(self) -> bytes:
        """The payload bytes stored after the container header."""
        raise NotImplementedError

    def meta(self) -> dict[str, Any]:
        """Format-specific header fields needed to read the payload back (msgpack-able)."""
        return {}

    @classmethod
    def from_payload(cls, payload: bytes, header: dict[str, Any], alphabet: Alphabet,
                     backend: native.Backend | None = None) -> LexiconBase:
        """Rebuild from a checked payload and its header, on ``backend`` (``native.select()``'s
        by default)."""
        raise NotImplementedError

    def stats(self) -> dict[str, int]:
        """Size figures: at least ``nodes``, ``edges`` and ``bytes`` (payload bytes)."""
        return {"nodes": 0, "edges": 0, "bytes": len(self.payload())}

    def check(self) -> list[str]:
        """Structural invariants; a list of violations (empty when sound)."""
        return []

    def dump_rows(self) -> Iterator[dict[str, Any]]:
        """The format's low-level table (edges, nodes...) as dicts, for ``lexc dump``."""
        raise NotImplementedError(f"{self.name} has no dump")

    def search_graph(self, strategy: str) -> tuple[Any, tuple[int, int, int]]:
        """The word graph a whole-position search reads on the lexicon's backend (its
        ``native.Backend.graph`` object; None for a format that is no word graph), and its
        roots: the DAWG root, the one the strategy starts from, and the GADDAG root the
        cross-checks may read (-1: none)."""
        return None, (0, 0, -1)

    # -- Trie primitives (formats with Capability.TRIE override them) ---------------------
    def root(self) -> Node:
        """The node of the empty prefix."""
        raise NotImplementedError(f"{self.name} has no trie primitives")

    def child(self, node: Node, letter: int) -> Node | None:
        """The node reached from ``node`` by ``letter``, or None."""
        for code, sub in self.children(node):
            if code == letter:
                return sub
        return None

    def children(self, node: Node) -> Iterator[tuple[int, Node]]:
        """(letter, node) pairs in increasing letter order."""
        raise NotImplementedError(f"{self.name} has no trie primitives")

    def children_among(self, node: Node, letters: int) -> list[tuple[int, Node]]:
        """The (letter, node) pairs of ``children`` whose letter is in the bitmask
        ``letters`` (what a move generator can use: the rack's letters, a square's
        cross-check); a format that finds children by trying letters tries only these."""
        return [(letter, sub) for letter, sub in self.children(node) if letters >> letter & 1]

    def is_word(self, node: Node) -> bool:
        """True when the path to ``node`` spells a word."""
        raise NotImplementedError(f"{self.name} has no trie primitives")

    def word_letters(self, node: Node) -> int:
        """Bitmask of the letters that complete a word from ``node`` (back hooks, cross-checks)."""
        mask = 0
        for letter, sub in self.children(node):
            if self.is_word(sub):
                mask |= 1 << letter
        return mask

    # -- derived queries on codes ---------------------------------------------------------
    def walk(self, codes: bytes) -> Node | None:
        """The node at the end of a path, or None if no word starts so."""
        return self.walk_from(self.root(), codes)

    def walk_from(self, node: Node, codes: bytes) -> Node | None:
        """The node reached from ``node`` by the letters, or None."""
        for letter in codes:
            node = self.child(node, letter)
            if node is None:
                return None
        return node

    def contains_codes(self, codes: bytes) -> bool:
        """Membership of an encoded word."""
        node = self.walk(codes) if codes else None
        return node is not None and self.is_word(node)

    def is_prefix_codes(self, codes: bytes) -> bool:
        """True when some word starts with ``codes`` (the word itself counts)."""
        return self.walk(codes) is not None

    def iter_codes(self, prefix: bytes = b"") -> Iterator[bytes]:
        """Every word starting with ``prefix``, in increasing code order."""
        start = self.walk(prefix)
        if start is None:
            return
        if prefix and self.is_word(start):
            yield bytes(prefix)
        stack = [(iter(list(self.children(start))), bytes(prefix))]
        while stack:
            it, path = stack[-1]
            for letter, sub in it:
                word = path + bytes((letter,))
                if self.is_word(sub):
                    yield word
                below = list(self.children(sub))
                if below and len(word) >= MAX_WORD_TILES:
                    too_deep(word)
                stack.append((iter(below), word))
                break
            else:
                stack.pop()

    def anagram_joined(self, letters: Sequence[int], blanks: int, sub: bool) -> bytes:
        """``anagram_codes`` joined by the code 0 (empty for none): the compact form for a
        caller that works on all the words at once (the compiled core gives it as it is)."""
        return b"\x00".join(self.anagram_codes(letters, blanks, sub))

    def anagram_codes(self, letters: Sequence[int], blanks: int, sub: bool) -> list[bytes]:
        """Words from the rack (letter codes plus ``blanks``): all of it, or any part if ``sub``.

        Each word comes once, in the form using the most natural tiles (a blank stands in
        only where the natural tile has run out), blank-made letters carrying BLANK_FLAG.
        """
        counts = [0] * 256
        for c in letters:
            counts[c] += 1
        need = len(letters) + blanks
        out: list[bytes] = []
        children, is_word = self.children, self.is_word

        def search(node: Node, path: list[int], blanks: int) -> None:
            for letter, nxt in children(node):
                if counts[letter]:
                    counts[letter] -= 1
                    path.append(letter)
                elif blanks:
                    blanks -= 1
                    path.append(letter | BLANK_FLAG)
                else:
                    continue
                if is_word(nxt) and (sub or len(path) == need):
                    out.append(bytes(path))
                if len(path) < need:
                    search(nxt, path, blanks)
                if path.pop() & BLANK_FLAG:
                    blanks += 1
                else:
                    counts[letter] += 1

        search(self.root(), [], blanks)
        return out

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """Words matching a parsed pattern, in increasing code order."""
        matcher = Matcher(tokens)
        step, accepts = matcher.step, matcher.accepts

        def search(node: Node, states: int, path: bytes) -> Iterator[bytes]:
            for letter, sub in self.children(node):
                nxt = step(states, letter)
                if nxt:
                    word = path + bytes((letter,))
                    if accepts(nxt) and self.is_word(sub):
                        yield word
                    if len(word) < MAX_WORD_TILES:
                        yield from search(sub, nxt, word)
                    elif any(True for _ in self.children(sub)):
                        too_deep(word)

        yield from search(self.root(), matcher.start, b"")

    def front_hooks(self, codes: bytes) -> int:
        """Bitmask of letters L such that L + word is a word."""
        mask = 0
        for letter in self.alphabet.codes:
            if self.contains_codes(bytes((letter,)) + codes):
                mask |= 1 << letter
        return mask

    def back_hooks(self, codes: bytes) -> int:
        """Bitmask of letters L such that word + L is a word."""
        node = self.walk(codes)
        return 0 if node is None else self.word_letters(node)

    # -- the user-facing protocol (str in, str out) ---------------------------------------
    def encode(self, word: str | bytes | bytearray) -> bytes:
        """A word as letter codes (bytes pass through)."""
        return self.alphabet.encode(word) if isinstance(word, str) else word if isinstance(word, bytes) else bytes(word)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, (str, bytes, bytearray)):
            return False
        try:
            return self.contains_codes(self.encode(word))
        except ValueError:
            return False

    def contains_many(self, words: Iterable[object]) -> list[bool]:
        """``word in self`` for each word, in order: one call for a batch of queries (the
        word graphs walk eight at a time in the compiled core, their memory reads
        overlapping)."""
        return [word in self for word in words]

    def __iter__(self) -> Iterator[str]:
        decode = self.alphabet.decode
        return (decode(w) for w in self.iter_codes())

    def __len__(self) -> int:
        return self.word_count

    def is_prefix(self, prefix: str) -> bool:
        """True when some word starts with ``prefix``."""
        return self.is_prefix_codes(self.encode(prefix))

    def words(self, prefix: str = "") -> list[str]:
        """Every word starting with ``prefix``, in alphabet order (at most ``MAX_ANSWERS``;
        ``iter_codes`` streams any number)."""
        decode = self.alphabet.decode
        return [decode(w) for w in answers(self.iter_codes(self.encode(prefix)))]

    def iter_words(self, prefix: str = "", pattern: str | None = None) -> Iterator[str]:
        """The words starting with ``prefix`` (as tiles: Spanish C is no prefix of CHICO) and
        matching ``pattern`` if given, in alphabet order, decoded one by one: any number of
        them in bounded memory."""
        decode = self.alphabet.decode
        start = self.encode(prefix)
        if pattern is None:
            return map(decode, self.iter_codes(start))
        tokens = parse_pattern(pattern, self.alphabet)
        if not can_match(tokens):
            return iter(())
        return (decode(w) for w in self.pattern_codes(tokens) if w.startswith(start))

    def anagrams(self, rack: str, sub: bool = False) -> list[str]:
        """Anagrams (or with ``sub`` sub-anagrams) of a rack; ``?`` is a blank. Sorted by
        length, longest first, then alphabetically; blank-made letters in lower case."""
        letters, blanks = self.alphabet.parse_rack(rack)
        found = self.anagram_codes(letters, blanks, sub)
        return self.alphabet.decode_joined(in_anagram_order(found)) if found else []

    def pattern(self, pattern: str) -> list[str]:
        """Words matching a pattern (see ``lexc.pattern``), in alphabet order; a pattern that
        needs more letters than any word has matches nothing, answered without a search."""
        tokens = parse_pattern(pattern, self.alphabet)
        if not can_match(tokens):
            return []
        decode = self.alphabet.decode
        return [decode(w) for w in answers(self.pattern_codes(tokens))]

    def hooks(self, word: str) -> Hooks:
        """Front and back hooks of ``word`` and its validity."""
        codes = self.encode(word)
        labels = self.alphabet.mask_labels
        return Hooks(
            word=self.alphabet.decode(codes),
            valid=self.contains_codes(codes),
            front=tuple(labels(self.front_hooks(codes))),
            back=tuple(labels(self.back_hooks(codes))),
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}: {plural(self.word_count, 'word')}>"


def in_anagram_order(found: list[bytes]) -> bytes:
    """The words (at least one) longest first, then in code order of their letters
    (blank-made or not), then natural tiles before blank-made ones; joined by the code 0,
    for ``decode_joined``.
    Each word gets one key, (255 - length, the word unblanked, the word) concatenated, built
    with C-level passes over all the words at once; the keys are Latin-1 strings, which
    Python compares with memcmp (several times faster than bytes objects), and the words
    are cut back out of the sorted keys."""
    if max(map(len, found)) > 254:  # the length would not fit a nonzero key character
        return b"\x00".join(key[2] for key in sorted((-len(w), w.translate(UNBLANK), w) for w in found))
    joined = b"\x00".join(found)
    words = joined.decode("latin-1").split("\x00")
    unblanked = joined.translate(UNBLANK).decode("latin-1").split("\x00")
    keys = list(map(add, map(add, map(_LENGTH_KEY.__getitem__, map(len, found)), unblanked), words))
    keys.sort()
    return "\x00".join([key[(len(key) + 1) >> 1 :] for key in keys]).encode("latin-1")


_LENGTH_KEY = [chr(255 - n) for n in range(255)]


MAX_ANSWERS = 10_000_000  # words one query may list; a lexicon whose graph spells more streams them (iter_codes)


class TooManyAnswers(FormatError):
    """A query's answer would hold more than ``MAX_ANSWERS`` words."""

    def __init__(self) -> None:
        super().__init__(f"more than {MAX_ANSWERS:,} answers: narrow the query")


def answers(found: Iterable[T]) -> list[T]:
    """The words of a search as a list, refused (TooManyAnswers) past ``MAX_ANSWERS``: a
    small file can spell an enormous list, and memory is bounded by what was asked."""
    out = list(islice(found, MAX_ANSWERS + 1))
    if len(out) > MAX_ANSWERS:
        raise TooManyAnswers()
    return out


def capped_append(out: list[bytes]) -> Callable[[bytes], None]:
    """An ``out.append`` that raises TooManyAnswers once ``out`` holds more than ``MAX_ANSWERS``."""
    def append(word: bytes) -> None:
        out.append(word)
        if len(out) > MAX_ANSWERS:
            raise TooManyAnswers()
    return append


def is_count(value: Any) -> bool:
    """A non-negative int (not a bool), as meta counts must be."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def too_deep(path: bytes) -> NoReturn:
    """A traversal reached a path longer than any word (``MAX_WORD_TILES``) and the path
    goes on: the file's graph has a cycle (or is not what its header says). Raises FormatError."""
    raise FormatError(f"a path of more than {MAX_WORD_TILES} letters: the word graph has a cycle "
                      "or is corrupt (lexc check FILE)")


def require(condition: bool, message: str) -> None:
    """Raise FormatError(message) unless ``condition``: for loaders' structural checks."""
    if not condition:
        raise FormatError(message)
