"""The rack as move generators use it: counts of each letter and of blanks, taken and put
back as a search goes down and up."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..alphabet import BLANK_FLAG, Alphabet

TILE_BYTES = tuple(bytes((code,)) for code in range(256))  # a tile code as bytes, to extend a play's tiles


def tile_counts(letter_count: int, letters: list[int], blanks: int) -> list[int]:
    """Tile counts by letter code (index 0: blanks) for an alphabet of ``letter_count``
    letters: what a ``Rack`` holds, and all the compiled move generator needs of one."""
    counts = [0] * (letter_count + 1)
    for code in letters:
        counts[code] += 1
    counts[0] = blanks
    return counts


class Rack:
    """Tile counts by letter code (index 0: blanks); a tile is a letter code, or a letter
    code | BLANK_FLAG for a blank standing for that letter."""

    def __init__(self, alphabet: Alphabet, letters: list[int], blanks: int):
        self.letters = list(alphabet.codes)
        self.counts = tile_counts(len(self.letters), letters, blanks)
        self.memo: dict[Any, Any] = {}  # a strategy's scratch for lookups shared by the lanes of one position

    def usable(self, blanks: bool = True) -> int:
        """Bitmask of the letters the rack can put down: its letters, or every letter of
        the alphabet when it holds a blank (unless ``blanks`` is False: its letters only)."""
        if blanks and self.counts[0]:
            return sum(1 << letter for letter in self.letters)
        return sum(1 << letter for letter in self.letters if self.counts[letter])

    def children_in(self, lexicon: Any, blanks: bool = True) -> Remembered:
        """``node -> lexicon.children_among(node, self.usable(blanks))`` as a mapping (read it
        as ``children[node]``), remembered for the position (its lanes share this rack):
        Appel & Jacobson's LeftPart meets the same nodes again at every anchor. Tiles taken
        and put back during a search do not change the answer: it is for the whole rack.
        With ``blanks`` False, the children for the rack's own letters: what a search
        tries once the rack's blanks are down (a handful of letters instead of all)."""
        among, usable = lexicon.children_among, self.usable(blanks)
        return self.remembered("children" if blanks else "children without blanks", lambda node: among(node, usable))

    def remembered(self, name: str, compute: Callable[[Any], Any]) -> Remembered:
        """The position's mapping ``name``: ``compute(key)``, computed the first time a key is
        asked for and remembered for the position's other lanes (``compute`` must not
        depend on the tiles taken during a search)."""
        found = self.memo.get(name)
        if found is None:
            found = self.memo[name] = Remembered(compute)
        return found

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


class Remembered(dict[Any, Any]):
    """A mapping whose value for a key is computed the first time it is asked for (``mapping[key]``)
    and then kept."""

    def __init__(self, compute: Callable[[Any], Any]):
        super().__init__()
        self.compute = compute

    def __missing__(self, key: Any) -> Any:
        """Compute the value of a key not asked for before, and keep it."""
        found = self[key] = self.compute(key)
        return found
