"""Move generation: every legal play for a board and a rack, through the format protocol.

``generate`` computes anchors and cross-checks once, cuts the board into lanes (rows for
plays across, columns for plays down) and runs one strategy per lane. Every strategy yields
the same set of plays (the convention of wolges and Macondo): every distinct tile placement;
a one-tile play that forms words in both directions is listed once, as the across play; a
natural tile and a blank for the same letter are different placements, as is each letter a
blank may stand for; on the empty board both directions are listed. The one scoring
function (``LaneScoring.score``) scores every play, as it does for the referee.

Wing 4 of the package: imports the foundations, ``formats`` (the protocol) and ``board``.
``crosschecks`` finds anchors and cross-checks, ``lanes`` cuts the board, ``rack`` counts
tiles, and one module per strategy is named for its authors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board.board import Board
from ..board.notation import THROUGH, Play, coordinate, spelled, tile_texts
from ..board.scoring import lane_scoring
from ..errors import LexcError
from ..formats.base import Capability
from . import appel_jacobson, compiled, gordon, naive, shapiro_smith
from .compiled import ListedPlays, Plays
from .crosschecks import ANY
from .lanes import Lane, lanes
from .rack import Rack

STRATEGIES = {module.NAME: module for module in (naive, appel_jacobson, gordon, shapiro_smith)}


class MoveGenError(LexcError, ValueError):
    """A strategy that does not apply to the lexicon's format, or a bad rack."""


@dataclass(frozen=True)
class Move:
    """A generated play with its score and notation (``ranked`` orders them)."""

    score: int
    notation: str
    play: Play


def choose(lexicon: Any, strategy: str = "auto") -> Any:
    """The strategy module for a lexicon: ``auto`` picks by the format's capabilities."""
    if strategy == "auto":
        caps = lexicon.capabilities
        strategy = ("gordon" if Capability.GADDAG in caps else "appel-jacobson" if Capability.TRIE in caps
                    else "shapiro-smith" if Capability.ANAGRAM_INDEX in caps else "naive")
    module = STRATEGIES.get(strategy)
    if module is None:
        raise MoveGenError(f"unknown strategy {strategy!r} (known: auto, {', '.join(STRATEGIES)})")
    if not module.applicable(lexicon):
        raise MoveGenError(f"strategy {strategy!r} does not apply to the {lexicon.name} format")
    return module


def generate(board: Board, rack: str, lexicon: Any, strategy: str = "auto") -> list[Move]:
    """Every legal play, scored, best first (score descending, then notation)."""
    return generate_plays(board, rack, lexicon, strategy).moves()


def generate_plays(board: Board, rack: str, lexicon: Any, strategy: str = "auto") -> Plays:
    """Every legal play as a compact ``Plays``, generated on the lexicon's backend: the
    compiled core's records where it runs the strategy whole (Appel & Jacobson's or Gordon's
    over a word graph: no Python object per play until ``Plays.moves`` is asked for some),
    else the pure-Python strategy lane by lane (the reference)."""
    module = choose(lexicon, strategy)
    alphabet = board.ruleset.alphabet
    if tuple(lexicon.alphabet.labels) != tuple(alphabet.labels):
        raise MoveGenError(f"the lexicon's alphabet is not the {board.ruleset.name} ruleset's")
    try:
        letters, blanks = alphabet.parse_rack(rack)
    except ValueError as exc:
        raise MoveGenError(f"rack {rack!r}: {exc}") from None
    if len(letters) + blanks > board.ruleset.rack_size:
        raise MoveGenError(f"rack {rack!r} has {len(letters) + blanks} tiles; the {board.ruleset.name} rack holds "
                           f"{board.ruleset.rack_size}")
    tiles = Rack(alphabet, letters, blanks)
    return compiled.plays(board, tiles.counts, lexicon, module.NAME, lambda: lane_plays(board, tiles, lexicon, module))


def lane_plays(board: Board, tiles: Rack, lexicon: Any, module: Any) -> ListedPlays:
    """Every play of the position by a pure-Python strategy, lane by lane: each scored by the
    one scoring function (``LaneScoring.score``), a one-tile play that forms words both ways
    listed once, across."""
    texts = tile_texts(board.ruleset.alphabet)
    listed = []
    for lane in lanes(board, lexicon):
        score = lane_scoring(board, lane.index, lane.down).score
        line, index, down = lane.squares, lane.index, lane.down
        starts = [(start, index) if down else (index, start) for start in range(len(line))]  # (row, col) of each
        coordinates = [coordinate(row, col, down) for row, col in starts]
        for start, placed in module.lane_plays(lane, tiles, lexicon):
            if down and _listed_across(lane, start, placed):
                continue
            notation = f"{coordinates[start]} {spelled(texts, line, start, placed)}"
            listed.append((score(start, placed), notation, *starts[start], down, placed))
    return ListedPlays(board, listed)


def ranked(moves: list[Move]) -> list[Move]:
    """Score descending, then notation."""
    return sorted(moves, key=lambda m: (-m.score, m.notation))


def _listed_across(lane: Lane, start: int, placed: bytes) -> bool:
    """A one-tile play down (in a column ``lane``) that also forms an across word is listed
    as the across play: its one new tile has a tile beside it across, which is when its
    square's cross-check is not ANY."""
    if len(placed) - placed.count(THROUGH) != 1:
        return False
    square = start + next(i for i, code in enumerate(placed) if code != THROUGH)
    return lane.checks[square] != ANY
