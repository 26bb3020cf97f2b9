"""Shapiro & Smith's canonical-order anagram trie, searched on its disk file (``anatrie``).

Shapiro & Smith, "A SCRABBLE Crossword Game Playing Program" (1977), and Shapiro, "A
SCRABBLE Crossword Game Playing Program" (IJCAI 1979). The lexicon is a *letter table*: a
binary tree whose nodes carry a letter, the list of words spelled by permutations of the
letters on the path, a success link and a fail link. The letters of each word are first
re-ordered in a canonical order (most valuable letters first), so one backtracking search,
``findwords``, finds every word that any combination of the rack's letters makes, most
valuable letters first and longer words before their sub-collections. Spec:
``formats/anatrie.md``.

The tree is stored in pre-order (node, success subtrie, fail subtrie), in either of the
papers' two layouts (``anadisk.py``: ``PascalFile`` and ``SimulaFile``), and every
search reads the file's bytes directly (an mmap of the lexicon file, or the built bytes);
no node ever becomes a Python object. ``last_stats`` records how many bytes a query read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

from .. import native
from ..alphabet import BLANK_FLAG, MAX_WORD_TILES, UNBLANK, Alphabet
from ..plural import plural
from . import schema
from .anadisk import LAYOUTS, NodeFile, reading, scan_words
from .base import Capability, LexiconBase, is_count, require
from .errors import FormatError

ORDERS = {
    "1979": "QZXJKHFYWVCMPBGDLUTNRIOAES",  # Shapiro 1979
    "1977": "ZQJXKVWYFHBPMCGDULSIRNOATE",  # Shapiro & Smith 1977
}
ENGLISH = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def canonical_order(alphabet: Alphabet, order: str = "auto", ruleset: str = "english") -> tuple[int, ...]:
    """The letter codes in canonical order: a named order (``1979``, ``1977``: A-Z only),
    ``alpha`` (code order), ``values`` (the paper's rule applied to the ruleset's tiles:
    higher value first, then the rarer tile first), ``auto`` (``1979`` for A-Z, else
    ``values``) or an explicit permutation of the alphabet's labels."""
    labels = alphabet.labels
    if order == "auto":
        order = "1979" if set(labels) == ENGLISH else "values"
    if order == "alpha":
        return tuple(alphabet.codes)
    if order == "values":
        from ..ruleset import load_ruleset

        rules = load_ruleset(ruleset)
        require(rules.alphabet.labels == labels, f"ruleset {ruleset!r} does not have this alphabet")
        return tuple(sorted(alphabet.codes, key=lambda c: (-rules.value(c), rules.count(c), c)))
    spelled = ORDERS.get(order, order)
    try:
        codes = tuple(alphabet.encode(spelled))
    except ValueError:
        raise FormatError(f"order {order!r} is not a permutation of the alphabet") from None
    if sorted(codes) != list(alphabet.codes):
        raise FormatError(f"order {order!r} is not a permutation of the alphabet "
                          f"(known orders: auto, 1979, 1977, alpha, values)")
    return codes


class AnagramTrie(LexiconBase):
    """The canonical-order letter table over a disk layout; searches read the file."""

    name = "anatrie"
    version = 1
    description = "Shapiro & Smith's canonical-order anagram trie (letter table), searched on its file"
    capabilities = Capability.ANAGRAM_INDEX | Capability.NATIVE_ANAGRAM
    options: ClassVar[dict[str, Any]] = {"order": "auto", "disk": "pascal"}
    option_specs: ClassVar[dict[str, schema.Spec]] = {"order": schema.text(256),
                                                      "disk": schema.text(16, tuple(LAYOUTS))}
    meta_specs: ClassVar[dict[str, schema.Spec]] = {"order": schema.int_list(1, 127, 127),
                                                    "disk": schema.text(16, tuple(LAYOUTS)),
                                                    "nodes": schema.optional(schema.integer(0, 2**40))}
    meta_required = ("order", "disk")
    uses_ruleset = True  # the "values" order needs the tile values
    zero_copy = True  # keep the loaded payload as a view of the mapped file
    compiled = True  # the compiled core runs findwords2 (src/lexc/native/anatrie.c)

    def __init__(self, data: Any, alphabet: Alphabet, word_count: int, order: Sequence[int], disk: str,
                 build_options: dict[str, Any] | None = None, nodes: int | None = None,
                 backend: native.Backend | None = None):
        self.alphabet = alphabet
        self.word_count = word_count
        self.order = tuple(order)
        self.disk = disk
        self.build_options = dict(build_options or {})
        self.nodes = nodes
        self.rank = [255] * 256  # letter code -> position in the canonical order
        for i, code in enumerate(self.order):
            self.rank[code] = i
        self.file: NodeFile = LAYOUTS[disk](data, len(alphabet))
        self._read = (0, 0)  # bytes and nodes the last search read: last_stats
        self.backend = backend if backend is not None else native.select()  # findwords2 and the scan run there
        self._made = bytes(self.order)  # rank -> the letter a blank makes there
        self._hooks_of: tuple[bytes, tuple[int, int]] | None = None  # the last word's hook masks

    @property
    def engine(self) -> str:
        """The backend this lexicon was made with: the compiled core, or pure Python."""
        return self.backend.name

    # -- build, bytes ---------------------------------------------------------------------
    @classmethod
    def build(cls, words: Sequence[bytes], alphabet: Alphabet, order: str = "auto", disk: str = "pascal",
              ruleset: str = "english", backend: native.Backend | None = None, **_: Any) -> AnagramTrie:
        """Re-spell every word in canonical order, sort, and write the letter table."""
        if disk not in LAYOUTS:
            raise FormatError(f"unknown disk layout {disk!r} (known: {', '.join(LAYOUTS)})")
        codes = canonical_order(alphabet, order, ruleset)
        rank = [255] * 256
        for i, code in enumerate(codes):
            rank[code] = i
        keyed = sorted((bytes(sorted(rank[c] for c in w)), w) for w in words)
        data, nodes = LAYOUTS[disk].write(keyed, codes)
        return cls(data, alphabet, len(words), codes, disk, {"order": order, "disk": disk}, nodes, backend)

    @classmethod
    def check_options(cls, options: dict[str, Any], alphabet: Alphabet, ruleset: str) -> None:
        """The disk layout is known and the order is a permutation of the alphabet."""
        if options.get("disk", "pascal") not in LAYOUTS:
            raise FormatError(f"unknown disk layout {options['disk']!r} (known: {', '.join(LAYOUTS)})")
        canonical_order(alphabet, options.get("order", "auto"), ruleset)

    def payload(self) -> bytes:
        """The layout's bytes."""
        return bytes(self.file.data)

    def meta(self) -> dict[str, Any]:
        """Header fields: the canonical order (as letter codes), the layout, the node count."""
        return {"order": list(self.order), "disk": self.disk, "nodes": self.nodes}

    @classmethod
    def from_payload(cls, payload: Any, header: dict[str, Any], alphabet: Alphabet,
                     backend: native.Backend | None = None) -> AnagramTrie:
        """A lexicon over a checked payload (kept as a view of the file: nothing is parsed)."""
        meta = header.get("meta", {})
        order, disk = meta.get("order"), meta.get("disk")
        require(isinstance(disk, str) and disk in LAYOUTS, f"unknown disk layout {disk!r}")
        require(meta.get("nodes") is None or is_count(meta.get("nodes")), f"bad meta nodes={meta.get('nodes')!r}")
        require(isinstance(order, list) and sorted(order) == list(alphabet.codes),
                "meta.order is not a permutation of the alphabet's codes")
        require(header["words"] == 0 or len(payload) > 0, "empty payload for a non-empty lexicon")
        return cls(payload, alphabet, header["words"], order, disk, header.get("options"), meta.get("nodes"), backend)

    def stats(self) -> dict[str, int]:
        """Nodes (letter-table nodes), edges (success + fail links), payload bytes."""
        nodes = self.nodes
        if nodes is None:
            with reading("counting nodes"):
                nodes = sum(1 for _ in self.file.preorder())
        return {"nodes": nodes, "edges": max(nodes - 1, 0), "bytes": len(self.file.data)}

    def check(self) -> list[str]:
        """Invariants: every record readable (pascal: flags, dummy records, fail offsets that
        point at the right segment), no dead-end node, siblings strictly increasing in
        canonical order, every word a permutation of its path, each node's words sorted and
        distinct, and the word and node counts the header's."""
        problems: list[str] = []
        path: list[int]
        rank, path, count, nodes = self.rank, [], 0, 0
        for offset, depth, letter, words in self._checked_preorder(problems):
            nodes += 1
            if words != sorted(set(words)):
                problems.append(f"node at {offset}: words repeated or out of order")
            r = rank[letter]
            del path[depth - 1 :]
            if r == 255:
                problems.append(f"node at {offset}: letter {letter} is not in the alphabet")
            elif len(path) != depth - 1:
                problems.append(f"node at {offset}: depth {depth} does not follow its parent")
            path.append(r)
            key = sorted(path)
            for w in words:
                count += 1
                if sorted(rank[c] for c in w) != key:
                    problems.append(f"node at {offset}: word {self.alphabet.decode(w)} "
                                    "is not a permutation of its path")
            if len(problems) > 20:
                return problems
        if not problems and count != self.word_count:
            problems.append(f"the file holds {plural(count, 'word')}, the header says {self.word_count}")
        if not problems and self.nodes is not None and nodes != self.nodes:
            problems.append(f"the file holds {plural(nodes, 'node')}, the header says {self.nodes}")
        return problems

    def _checked_preorder(self, problems: list[str]) -> Iterator[tuple[int, int, int, list[bytes]]]:
        """The file's nodes in order, with the sibling order checked on the way; a record
        that cannot be read ends the walk with a problem."""
        siblings: list[int]
        rank, siblings = self.rank, []  # siblings[d - 1]: rank of the last node seen at depth d
        try:
            with reading("check"):
                for offset, depth, letter, words in self.file.preorder(with_words=True):
                    del siblings[depth:]
                    if len(siblings) == depth and siblings[-1] >= rank[letter]:
                        problems.append(f"node at {offset}: siblings not in canonical order")
                    siblings[depth - 1 :] = [rank[letter]]
                    yield offset, depth, letter, words
        except FormatError as exc:
            problems.append(f"the file cannot be read through: {exc}")

    def dump_rows(self) -> Iterator[dict[str, Any]]:
        """One row per node in file order (pre-order), for ``lexc dump``."""
        label = self.alphabet.label
        for offset, depth, letter, words, succ, fail in self.file.rows():
            yield {"index": offset, "raw": bytes(self.file.data[offset : offset + 2]).hex(), "letter": label(letter),
                   "terminal": bool(words), "last": fail is None, "child": succ if succ is not None else "-",
                   "note": f"depth {depth}" + (f", fail {fail}" if fail not in (None, -1) else "")
                   + (": " + " ".join(self.alphabet.decode(w) for w in words) if words else "")}

    # -- the papers' search ---------------------------------------------------------------
    def _rack(self, letters: Sequence[int], required: Sequence[int] = ()) -> tuple[int, ...]:
        """The search list of real letters in canonical order, each as rank << 1 | optional,
        so that a required letter comes before an optional equal one."""
        rank = self.rank
        for c in list(letters) + list(required):
            if rank[c] == 255:
                raise ValueError(f"letter code {c} is not in this lexicon's alphabet")
        return tuple(sorted([rank[c] << 1 | 1 for c in letters] + [rank[c] << 1 for c in required]))

    def findwords(self, rack: str) -> Iterator[list[str]]:
        """Shapiro & Smith's findwords: groups of words (anagrams of one another) from any
        combination and permutation of the rack (``?`` a blank, its letter in lower case),
        in the paper's order; a generator, so the search can stop after any group and be
        resumed (the SIMULA detach)."""
        letters, blanks = self.alphabet.parse_rack(rack)
        return self._groups(self._rack(letters), blanks)

    def findwords2(self, rack: str, required: str) -> Iterator[list[str]]:
        """findwords with some letters required (the board letters a play must use): only
        words using every required letter, plus any of the rack's."""
        letters, blanks = self.alphabet.parse_rack(rack)
        needed = self.alphabet.encode(required) if required else b""
        return self._groups(self._rack(letters, needed), blanks)

    def words_from(self, rack: str, required: str = "") -> Iterator[str]:
        """The words of ``findwords2`` (``findwords`` without ``required``), one by one."""
        for group in (self.findwords2(rack, required) if required else self.findwords(rack)):
            yield from group

    def words_using(self, letters: Sequence[int], blanks: int, required: Sequence[int] = ()) -> Iterator[bytes]:
        """The words (letter codes, blanks not marked) findwords2 finds for a rack of letter
        codes and blanks with ``required`` letter codes (the board letters a play must use):
        each word once, in the paper's order. The codes-level form of ``words_from``, for
        move generation."""
        for words, _ in self._search(self._rack(letters, required), blanks):
            yield from words

    def _groups(self, letters: tuple[int, ...], blanks: int) -> Iterator[list[str]]:
        decode = self.alphabet.decode
        for words, blanked in self._search(letters, blanks):
            yield [decode(w) for w in (_mark_blanks(words, blanked) if blanked else words)]

    def _search(self, letters: tuple[int, ...], blanks: int) -> Iterator[tuple[list[bytes], bytes]]:
        """``_findwords2`` on the lexicon's backend (the compiled core's: the same groups in the
        same order, and the same bytes and nodes read), a damaged record reported as
        FormatError (see ``reading``)."""
        self._read = (0, 0)
        if not self.word_count:
            return
        try:
            with reading("anagram search"):
                yield from self.backend.findwords(self.file.data, 0 if self.disk == "pascal" else 1, letters,
                                                  blanks, bytes(self.rank), self._made, len(self.alphabet),
                                                  self._record, lambda: self._findwords2(letters, blanks))
        except native.MalformedTable as exc:  # (the compiled core's search names the damage this way)
            message = _NATIVE_ERRORS.get(exc.kind, "anagram search: {where}: a corrupt record")
            raise FormatError(message.format(where=exc.index)) from None

    def _record(self, nbytes: int, nodes: int) -> None:
        """What the running search has read (``last_stats``)."""
        self._read = (nbytes, nodes)

    def _findwords2(self, letters: tuple[int, ...], blanks: int) -> Iterator[tuple[list[bytes], bytes]]:
        """findwords2 (Shapiro & Smith 1977, section 4) from the root: the (words, blank-made
        letter codes) of each group, in the paper's order. Without required letters it is
        findwords. The list of letters is kept as the number of blanks (always at the front
        of the paper's list) and the real letters (see ``_rack``). The paper's recursion runs
        on an explicit stack, so the generator is one frame deep: each group is handed out
        directly, and the caller may stop or resume at any group (SIMULA's detach).
        ``last_stats`` counts the bytes and nodes read."""
        f = self.file
        self._read = (0, 0)
        if not self.word_count:
            return
        node, skip, seek, words_of, rank, data = f.node, f.skip, f.seek, f.words, self.rank, f.data
        made = [bytes((code,)) for code in self.order]  # rank -> the letter a blank makes there
        # the real letters left are always a suffix letters[i:] of the sorted list (the search
        # only ever drops the first one), so a frame holds an index; ``required[i]`` counts
        # the required letters in letters[i:]; the sentinel 512 ends the list
        end = len(letters)
        letters = (*letters, 512)
        required = [sum(1 for x in letters[j:end] if not x & 1) for j in range(end + 1)]
        nbytes = nodes = 0
        tree, depth, i, blanked = f.root, 1, 0, b""
        stack: list[tuple[int, int, int, bytes, int | None, int | None, int | None, int]] = []
        while True:
            if tree is not None and (blanks or i < end):
                if not blanks and rank[data[tree]] < letters[i] >> 1:
                    # pass the siblings before the next real letter at once (a record
                    # starts with its letter in both layouts)
                    tree, size, passed = seek(tree, depth, rank, letters[i] >> 1)
                    nbytes += size
                    nodes += passed
                    if tree is None:
                        continue
                letter, succ, fail, words_at, size = node(tree, depth)
                nodes += 1
                nbytes += size
                r = rank[letter]
                if r == 255:
                    raise FormatError(f"node at {tree}: letter code {letter} is not in the alphabet")
                head = letters[i] >> 1
                while head < r and letters[i] & 1:  # past the next real letter: drop it (an
                    i += 1  # optional one; a required one stops the search below)
                    head = letters[i] >> 1
                if head == r:  # the node matches the next real letter
                    stack.append((depth, i, blanks, blanked, succ, fail, words_at, -1))
                    tree, depth, i = succ, depth + 1, i + 1
                elif head < r:
                    tree = None  # a required letter was passed: nothing here can use it
                elif blanks:  # the node comes before the next real letter: a blank matches it
                    stack.append((depth, i, blanks, blanked, succ, fail, words_at, r))
                    tree, depth, blanks, blanked = succ, depth + 1, blanks - 1, blanked + made[r]
                elif i < end:  # no blank for it: try the next node
                    tree = fail
                    if fail == -1:  # simula: past the success subtrie, by reading it
                        tree, skipped = skip(succ, depth + 1)  # type: ignore[arg-type]  # (-1 comes with a succ)
                        nbytes += skipped
                else:
                    tree = None
                continue
            if not stack:
                break
            depth, i, blanks, blanked, succ, fail, words_at, r = stack.pop()
            if r < 0:  # back from the real letter's success subtrie
                if words_at is not None and not required[i + 1]:
                    self._read = (nbytes, nodes)
                    yield words_of(words_at, depth), blanked
                if not letters[i] & 1:
                    tree = None  # a required letter cannot be skipped: nothing further uses it
                    continue
                i += 1
            elif words_at is not None and not required[i]:  # back from the blank's subtrie
                self._read = (nbytes, nodes)
                yield words_of(words_at, depth), blanked + made[r]
            tree = fail
            if fail == -1:
                tree, skipped = skip(succ, depth + 1)  # type: ignore[arg-type]  # (as above)
                nbytes += skipped
        self._read = (nbytes, nodes)

    @property
    def last_stats(self) -> dict[str, int]:
        """Bytes and nodes the last search read (so far, if it was stopped early)."""
        nbytes, nodes = self._read
        return {"bytes_read": nbytes, "nodes_read": nodes}

    # -- protocol queries -----------------------------------------------------------------
    def anagram_codes(self, letters: Sequence[int], blanks: int, sub: bool) -> list[bytes]:
        """All words from the rack (or, with ``sub``, any part of it), by findwords."""
        need = len(letters) + blanks
        rack = self._rack(letters) if sub else self._rack((), letters)  # all of it: every letter required
        out: list[bytes] = []
        for words, blanked in self._search(rack, blanks):
            if sub or len(words[0]) == need:  # (a whole-rack anagram leaves no blank over)
                out += _mark_blanks(words, blanked) if blanked else words
        return out

    def contains_codes(self, codes: bytes) -> bool:
        """Look the canonical re-spelling up (fail links across, success links down), then
        the word in that node's list. (One path for both engines: on a damaged file the
        core's findwords2 and this walk read different records, and the paths must agree.)"""
        if not codes or not self.word_count:
            return False
        if any(self.rank[c] == 255 for c in codes):
            return False
        with reading("lookup"):
            return self._lookup(codes)

    def _lookup(self, codes: bytes) -> bool:
        """``contains_codes`` on the file."""
        rank = self.rank
        f = self.file
        key = sorted(rank[c] for c in codes)
        tree: int | None = f.root
        for depth, want in enumerate(key, 1):
            while tree is not None:
                letter, succ, fail, words_at, _ = f.node(tree, depth)
                r = rank[letter]
                if r == want:
                    break
                if r > want:
                    return False
                tree = fail if fail != -1 else f.skip(succ, depth + 1)[0]  # type: ignore[arg-type]  # (as above)
            if tree is None:
                return False
            if depth == len(key):
                return words_at is not None and bytes(codes) in f.words(words_at, depth)
            tree = succ
        return False

    def iter_codes(self, prefix: bytes = b"") -> Iterator[bytes]:
        """Every word starting with ``prefix``, in code order: one pass over the whole file
        (the structure has no spelling order), then a sort."""
        prefix = bytes(prefix)
        found = sorted(w for w in self._scan() if w.startswith(prefix))
        return iter(found)

    def _scan(self) -> Iterable[bytes]:
        """Every word of the file, in file order: the compiled core's pass when it is enabled
        (it hands back None at a damaged record, and the Python pass then names the damage),
        else the Python pass."""
        if not self.word_count:
            return scan_words(self.file)
        return self.backend.scan_words(self.file.data, 0 if self.disk == "pascal" else 1, self.file.letters,
                                       lambda: scan_words(self.file))

    def is_prefix_codes(self, codes: bytes) -> bool:
        """Some word starts with ``codes``: a pass over the file (no spelling order here)."""
        codes = bytes(codes)
        if not codes:
            return self.word_count > 0
        return any(w.startswith(codes) for w in self._scan())

    def pattern_codes(self, tokens: tuple[int, ...]) -> Iterator[bytes]:
        """Words matching a pattern: every word of the file through the pattern as a regular
        expression (no spelling order here to prune on)."""
        from ..pattern import as_regex

        match = as_regex(tokens).fullmatch
        return iter(sorted(w for w in self._scan() if match(w)))

    def front_hooks(self, codes: bytes) -> int:
        """Letters L with L + word a word (``hook_masks``)."""
        return self.hook_masks(codes)[0]

    def back_hooks(self, codes: bytes) -> int:
        """Letters L with word + L a word (``hook_masks``)."""
        return self.hook_masks(codes)[1]

    def hook_masks(self, codes: bytes) -> tuple[int, int]:
        """The front and back hooks of a word as letter masks, from one anagram search: the
        words of its tiles and one blank, those that are a letter and the word, or the word
        and a letter (the anagram trie's own way to a hook; no spelling order to walk). The
        last word's answer is kept, as the study table asks for both sides in turn."""
        codes = bytes(codes)
        if self._hooks_of is not None and self._hooks_of[0] == codes:
            return self._hooks_of[1]
        front = back = 0
        if len(codes) < MAX_WORD_TILES:
            for word in self.anagram_codes(list(codes), 1, False):
                plain = word.translate(UNBLANK)
                if plain[1:] == codes:
                    front |= 1 << plain[0]
                if plain[:-1] == codes:
                    back |= 1 << plain[-1]
        self._hooks_of = (codes, (front, back))
        return front, back


_NATIVE_ERRORS = {
    "past": ("anagram search: a record runs past the end of the letter table "
             "(truncated or corrupt file; lexc check FILE)"),
    "backward": "node at {where}: its fail offset does not point forward",
    "letter": "node at {where}: its letter code is not in the alphabet",
    "word": "the words at offset {where} hold a code outside the alphabet",
    "deep": "anagram search: node at {where}: deeper than any rack reaches (corrupt file; lexc check FILE)",
}


def _mark_blanks(words: list[bytes], blanked: bytes) -> list[bytes]:
    """The words with BLANK_FLAG on the letters the blanks made (``blanked``, their codes):
    the last occurrences of each (the natural tiles are used first, as every format does).
    The words of a group are permutations of one another: when the blanks made every
    occurrence of their letters (the usual case), one translation flags them."""
    first = words[0]
    if len(first) - len(first.translate(None, blanked)) == len(blanked):
        table = bytes.maketrans(blanked, blanked.translate(_FLAGGED))
        return [w.translate(table) for w in words] if len(words) > 1 else [first.translate(table)]
    for code in blanked:  # a letter also played from the rack: flag its last unflagged copy
        flagged = bytes((code | BLANK_FLAG,))
        words = [w[:at] + flagged + w[at + 1 :] for w in words for at in (w.rfind(code),)]
    return words


_FLAGGED = bytes(c | BLANK_FLAG if c < BLANK_FLAG else c for c in range(256))  # every letter blank-made
