"""Cross-checks and anchors: what a move generator computes once per position.

For plays along one direction, an empty square's **cross-check** is the set of letters
(a bitmask over letter codes) that form a word with the tiles next to it in the other
direction: the perpendicular word through the square. A square with no tile beside it in
the other direction accepts any letter (``ANY``). An **anchor** is an empty square next to a
tile in any direction, or the start square on an empty board: every play covers one.
"""

from __future__ import annotations

from typing import Any

from ..alphabet import BLANK_FLAG
from ..board.board import Board, neighbours
from ..formats.base import Capability, LexiconBase

ANY = -1  # every letter: a square with no perpendicular neighbour


def cross_checks(board: Board, lexicon: Any, searched: dict[bytes, list[bytes]] | None = None) -> list[list[int]]:
    """``checks[r][c]`` for plays *across*: the letters that make a word with the tiles above
    and below square (r, c) (ANY when there are none; 0 on an occupied square). For plays
    down, ask with the transposed board. ``searched`` keeps an anagram index's searches by
    their letters (pass one dict for both directions of a position to share them)."""
    n = board.size
    letters = list(board.ruleset.alphabet.codes)
    capabilities = getattr(lexicon, "capabilities", Capability.NONE)
    trie, anagram = Capability.TRIE in capabilities, Capability.ANAGRAM_INDEX in capabilities
    checks = [[0] * n for _ in range(n)]
    searched = {} if searched is None else searched
    for c in range(n):
        column = board.line(c, down=True)
        for r in range(n):
            if column[r]:
                continue
            top = r
            while top > 0 and column[top - 1]:
                top -= 1
            bottom = r + 1
            while bottom < n and column[bottom]:
                bottom += 1
            if top == r and bottom == r + 1:
                checks[r][c] = ANY
                continue
            before = bytes(x & ~BLANK_FLAG for x in column[top:r])
            after = bytes(x & ~BLANK_FLAG for x in column[r + 1 : bottom])
            checks[r][c] = (_trie_check(lexicon, before, after) if trie else
                            _anagram_check(lexicon, before, after, searched) if anagram else
                            _lookup_check(lexicon, letters, before, after))
    return checks


def _trie_check(lexicon: LexiconBase, before: bytes, after: bytes) -> int:
    """The cross-check by walking the trie: the letters below the node of ``before`` from
    which ``after`` ends a word."""
    node = lexicon.walk(before)
    if node is None:
        return 0
    if not after:
        return lexicon.word_letters(node)
    mask = 0
    for letter, child in lexicon.children(node):
        end = lexicon.walk_from(child, after)
        if end is not None and lexicon.is_word(end):
            mask |= 1 << letter
    return mask


def _anagram_check(lexicon: Any, before: bytes, after: bytes, searched: dict[bytes, list[bytes]]) -> int:
    """The cross-check by one anagram search, Shapiro & Smith's way (findwords2): the words
    made of the line's letters, all required, and one blank, one letter longer than the
    line, that read ``before`` + L + ``after``. Lines with the same letters share the
    search (``searched``, by the letters in sorted order)."""
    at, length = len(before), len(before) + 1 + len(after)
    letters = bytes(sorted(before + after))
    words = searched.get(letters)
    if words is None:
        words = searched[letters] = [word for word in lexicon.words_using((), 1, letters) if len(word) == length]
    mask = 0
    for word in words:
        if word[:at] == before and word[at + 1:] == after:
            mask |= 1 << word[at]
    return mask


def _lookup_check(lexicon: Any, letters: list[int], before: bytes, after: bytes) -> int:
    """The cross-check by one membership test per letter (any format)."""
    mask = 0
    for letter in letters:
        if lexicon.contains_codes(before + bytes((letter,)) + after):
            mask |= 1 << letter
    return mask


def anchors(board: Board) -> list[list[bool]]:
    """``anchors[r][c]``: the empty squares next to a tile; the start square on an empty board."""
    n = board.size
    out = [[False] * n for _ in range(n)]
    if board.is_empty():
        r, c = board.ruleset.start
        out[r][c] = True
        return out
    for r in range(n):
        for c in range(n):
            if board.at(r, c):
                continue
            out[r][c] = any(board.at(rr, cc) for rr, cc in neighbours(board, r, c))
    return out
