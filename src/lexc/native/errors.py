"""The errors a hot operation raises, whichever backend ran it (``lexc.native``).

Both backends raise these classes: the compiled core takes them from this module when it is
imported (``errors_init`` in ``_core.c``), and the pure-Python twins raise them directly, so a
caller catches one class, never a ``ValueError`` whose arguments it has to unpack. Each
derives from ``lexc.errors.LexcError``, with ``ValueError`` as its second base (the errors
they replace were ``ValueError``); the formats turn them into a ``FormatError`` that names the
file. Plain bad arguments from a Python caller stay ``ValueError``.
"""

from __future__ import annotations

from ..errors import LexcError


class CoreError(LexcError, ValueError):
    """An error of a hot operation (either backend), caused by a file or an input."""


class MalformedGraph(CoreError):
    """A word graph breaks a rule its walks rely on: ``kind`` names the rule ("layout",
    "short", "unclosed", "child", "pointer", "letter", "order" on construction; "cycle",
    "deep", "most" in the proof), ``index`` the first edge that breaks it, ``value`` what was
    found there (a child index, a letter) or 0."""

    def __init__(self, kind: str = "", index: int = 0, value: int = 0) -> None:
        super().__init__(kind, index, value)
        self.kind, self.index, self.value = kind, index, value

    def __str__(self) -> str:
        return f"malformed word graph: {self.kind} at edge {self.index} ({self.value})"


class UnknownLayout(CoreError):
    """An edge layout other than the two the core reads (u32, u64: ``formats/dawg.md``)."""


class MalformedTable(CoreError):
    """An anagram trie's letter table is damaged where a search read it: ``kind`` says how
    ("past", "backward", "letter", "word", "deep"), ``index`` the record's offset."""

    def __init__(self, kind: str = "", index: int = 0, value: int = 0) -> None:
        super().__init__(kind, index, value)
        self.kind, self.index, self.value = kind, index, value

    def __str__(self) -> str:
        return f"damaged letter table: {self.kind} at offset {self.index}"


class AnswerCap(CoreError):
    """A listing passed the cap it was given (``count`` answers found): the caller says
    "narrow the query" in its own words."""

    def __init__(self, count: int = 0) -> None:
        super().__init__(count)
        self.count = count

    def __str__(self) -> str:
        return f"more answers than allowed ({self.count:,} found)"


class TooDeep(CoreError):
    """A walk reached a path longer than any word (``index``: the edge): a graph that was not
    proved acyclic, or not what its header says."""

    def __init__(self, index: int = 0) -> None:
        super().__init__(index)
        self.index = index

    def __str__(self) -> str:
        return f"a path longer than any word, at edge {self.index}"


class UnsupportedWord(CoreError):
    """A word the core does not count (a code outside the alphabet, not 1 to 64 tiles): the
    reference counts it, or refuses it in its own words."""
