"""The leave values that ship with lexc: learned by ``lexc learn`` from self-play on ENABLE
(the bundled lexicon) under the English ruleset, compiled to a KLV2 file. The command that
made each file, and its learning figures, are in ``BUNDLED.md`` beside it.

A bundled file serves every ruleset with the same bag (the same letters, tile counts, blanks
and rack size) as the ruleset it was learned under: leave values depend on the tiles, not on
the board or the lexicon's name. ``bundled_leaves`` is what the equity player uses when no
leave file is given.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..ruleset import Ruleset

# the ruleset each bundled file was learned under -> its file (beside this module)
BUNDLED = {"english": "english.klv2"}


def bag_of(ruleset: Ruleset) -> tuple[Any, ...]:
    """What a leave's value depends on in a ruleset: its letters, each tile's count, the
    blanks and the rack size."""
    counts = tuple(ruleset.count(code) for code in range(len(ruleset.alphabet.labels) + 1))
    return tuple(ruleset.alphabet.labels), counts, ruleset.rack_size


def bundled_leaves_path(ruleset: Ruleset) -> Path | None:
    """The bundled leave file for a ruleset (one learned under a ruleset with the same bag),
    None when lexc ships none for it."""
    from ..ruleset import load_ruleset

    for name, file in BUNDLED.items():
        if name == ruleset.name or bag_of(load_ruleset(name)) == bag_of(ruleset):
            path = Path(__file__).resolve().with_name(file)
            return path if path.is_file() else None
    return None


def none_bundled(ruleset: Ruleset) -> str:
    """What to say when lexc ships no leave values for a ruleset's tiles (the start of the
    line; each caller says what to give instead)."""
    return f"lexc ships no leave values for the {ruleset.name} ruleset's tiles"


@lru_cache(maxsize=4)
def _read(path: str, ruleset: Ruleset) -> Any:
    from ..formats.leaves import read_leaves

    return read_leaves(path, ruleset)


def bundled_leaves(ruleset: Ruleset) -> Any:
    """The bundled leave table for a ruleset (a ``formats.leaves.LeaveTable``, read once a
    process), None when lexc ships none for it."""
    path = bundled_leaves_path(ruleset)
    return None if path is None else _read(str(path), ruleset)
