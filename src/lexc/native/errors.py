"""The errors a hot operation raises, whichever backend ran it (``lexc.native``).

Both backends raise these classes: the compiled core creates its errors from them (its module
init imports this one), and the pure-Python twins raise them directly, so a caller catches one
class, never a ``ValueError`` whose arguments it has to unpack. Each derives from
``lexc.errors.LexcError``; the formats turn them into a ``FormatError`` that names the file.
"""

from __future__ import annotations

from ..errors import LexcError


class CoreError(LexcError):
    """An error of a hot operation (either backend)."""


class MalformedGraph(CoreError):
    """A word graph breaks a rule its walks rely on: ``kind`` names the rule ("layout",
    "short", "unclosed", "child", "pointer", "letter", "order" on construction; "cycle",
    "deep", "most" in the proof), ``index`` the first edge that breaks it, ``value`` what was
    found there (a child index, a letter) or 0."""

    def __init__(self, kind: str, index: int = 0, value: int = 0) -> None:
        super().__init__(kind, index, value)
        self.kind, self.index, self.value = kind, index, value

    def __str__(self) -> str:
        return f"malformed word graph: {self.kind} at edge {self.index} ({self.value})"


class AnswerCap(CoreError):
    """A listing passed the cap it was given (``found`` answers so far): the caller says
    "narrow the query" in its own words."""

    def __init__(self, found: int = 0) -> None:
        super().__init__("cap", found)
        self.found = found

    def __str__(self) -> str:
        return f"more than the allowed number of answers ({self.found:,} found)"


class TooDeep(CoreError):
    """A walk reached a path longer than any word (``index``: the edge): a graph that was
    not proved acyclic, or not what its header says."""

    def __init__(self, index: int = 0) -> None:
        super().__init__("deep", index)
        self.index = index

    def __str__(self) -> str:
        return f"a path longer than any word, at edge {self.index}"


class DamagedRecord(CoreError):
    """A record of a file searched in place (the anagram trie's letter table) is damaged:
    ``kind`` says how ("past", "backward", "letter", ...), ``where`` its offset."""

    def __init__(self, kind: str, where: int = 0) -> None:
        super().__init__(kind, where)
        self.kind, self.where = kind, where

    def __str__(self) -> str:
        return f"damaged record ({self.kind}) at {self.where}"
