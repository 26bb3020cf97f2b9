"""The rack as move generators use it: counts of each letter and of blanks, taken and put
back as a search goes down and up."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from ..alphabet import BLANK_FLAG, Alphabet


class Rack:
    """Tile counts by letter code (index 0: blanks); a tile is a letter code, or a letter
    code | BLANK_FLAG for a blank standing for that letter."""

    def __init__(self, alphabet: Alphabet, letters: list[int], blanks: int):
        self.letters = list(alphabet.codes)
        self.counts = [0] * (len(self.letters) + 1)
        for code in letters:
            self.counts[code] += 1
        self.counts[0] = blanks
        self.memo: dict = {}  # a strategy's scratch for lookups shared by the lanes of one position

    def usable(self) -> int:
        """Bitmask of the letters the rack can put down: its letters, or every letter of
        the alphabet when it holds a blank."""
        if self.counts[0]:
            return sum(1 << letter for letter in self.letters)
        return sum(1 << letter for letter in self.letters if self.counts[letter])

    def children_in(self, lexicon: Any) -> Callable[[Any], list[tuple[int, Any]]]:
        """``node -> lexicon.children_among(node, self.usable())``, remembered for the
        position (its lanes share this rack): Appel & Jacobson's LeftPart meets the same
        nodes again at every anchor. Tiles taken and put back during a search do not change
        the answer: it is for the whole rack."""
        memo = self.memo.setdefault("children", {})
        among, usable = lexicon.children_among, self.usable()

        def children(node: Any) -> list[tuple[int, Any]]:
            found = memo.get(node)
            if found is None:
                found = memo[node] = among(node, usable)
            return found

        return children

    def tiles(self, allowed: int = -1) -> Iterator[tuple[int, int]]:
        """(letter, tile) for each distinct tile the rack can put on a square whose
        cross-check is ``allowed``: its letters first, then a blank as each letter."""
        counts = self.counts
        for letter in self.letters:
            if counts[letter] and allowed >> letter & 1:
                yield letter, letter
        if counts[0]:
            for letter in self.letters:
                if allowed >> letter & 1:
                    yield letter, letter | BLANK_FLAG

    def take(self, tile: int) -> None:
        """Remove a tile (a blank when the tile carries BLANK_FLAG)."""
        self.counts[0 if tile & BLANK_FLAG else tile] -= 1

    def put_back(self, tile: int) -> None:
        """Return a tile taken by ``take``."""
        self.counts[0 if tile & BLANK_FLAG else tile] += 1
