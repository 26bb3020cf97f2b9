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

import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..board.board import Board, unseen
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


def fastest(lexicon: Any) -> str:
    """The strategy ``auto`` runs on a lexicon: the fastest its format and backend allow, as
    ``lexc bench`` measures them (docs/playing.md). Gordon's where the compiled core runs it
    over the lexicon's GADDAG; Appel & Jacobson's over any other trie, and in pure Python over
    a GADDAG too (there the reference's Gordon reads more Python objects a play than A&J's);
    else Shapiro & Smith's over an anagram index, else the naive one."""
    caps = lexicon.capabilities
    if Capability.GADDAG in caps and compiled.applicable(lexicon, "gordon"):
        return "gordon"
    return ("appel-jacobson" if Capability.TRIE in caps else "shapiro-smith" if Capability.ANAGRAM_INDEX in caps
            else "naive")


def choose(lexicon: Any, strategy: str = "auto") -> Any:
    """The strategy module for a lexicon: ``auto`` is the ``fastest`` for it."""
    if strategy == "auto":
        strategy = fastest(lexicon)
    module = STRATEGIES.get(strategy)
    if module is None:
        raise MoveGenError(f"unknown strategy {strategy!r} (known: auto, {', '.join(STRATEGIES)})")
    if not module.applicable(lexicon):
        raise MoveGenError(f"strategy {strategy!r} does not apply to the {lexicon.name} format")
    return module


def generate(board: Board, rack: str, lexicon: Any, strategy: str = "auto") -> list[Move]:
    """Every legal play, scored, best first (score descending, then notation)."""
    return generate_plays(board, rack, lexicon, strategy).moves()


# What generate_plays keeps for a (lexicon, ruleset, strategy as asked): the lexicon (weakly:
# the entry goes with it), the ruleset, the strategy module, and the backend's generator (None:
# the strategy runs lane by lane, in Python). By ids: hashing a ruleset costs microseconds.
_KEPT: dict[tuple[int, int, str], tuple[weakref.ref[Any], Any, Any, Any]] = {}
_KEEP_AT_MOST = 32


def _keep(lexicon: Any, ruleset: Any, strategy: str) -> tuple[weakref.ref[Any], Any, Any, Any]:
    """``_KEPT``'s entry for a lexicon, a ruleset and a strategy, made after the checks
    ``generate_plays`` makes once for them (the strategy applies, the alphabets agree)."""
    module = choose(lexicon, strategy)
    mine, theirs = lexicon.alphabet.labels, ruleset.alphabet.labels
    if mine is not theirs and mine != theirs:
        raise MoveGenError(f"the lexicon's alphabet is not the {ruleset.name} ruleset's")
    run = compiled.generator(ruleset, lexicon, module.NAME)
    key = (id(lexicon), id(ruleset), strategy)
    if len(_KEPT) >= _KEEP_AT_MOST:
        _KEPT.clear()
    table = _KEPT  # (the callback holds the dict itself: at the interpreter's exit, a module's names may be gone)
    kept = (weakref.ref(lexicon, lambda _ref: table.pop(key, None)), ruleset, module, run)
    _KEPT[key] = kept
    return kept


def generate_plays(board: Board, rack: str, lexicon: Any, strategy: str = "auto") -> Plays:
    """Every legal play as a compact ``Plays``, generated on the lexicon's backend: the
    compiled core's records where it runs the strategy whole (Appel & Jacobson's or Gordon's
    over a word graph: no Python object per play until ``Plays.moves`` is asked for some),
    else the pure-Python strategy lane by lane (the reference). What a lexicon, ruleset and
    strategy need is checked and set up on their first call and kept for the next."""
    ruleset = board.ruleset
    kept = _KEPT.get((id(lexicon), id(ruleset), strategy))
    if kept is None or kept[0]() is not lexicon or kept[1] is not ruleset:
        kept = _keep(lexicon, ruleset, strategy)
    alphabet = ruleset.alphabet
    try:
        tiles = alphabet.rack_tiles(rack)
    except ValueError as exc:
        raise MoveGenError(f"rack {rack!r}: {exc}") from None
    if len(tiles) > ruleset.rack_size:
        raise MoveGenError(f"rack {rack!r} has {len(tiles)} tiles; the {ruleset.name} rack holds "
                           f"{ruleset.rack_size}")
    run = kept[3]
    if run is not None:
        return compiled.core_plays(board, tiles, run, lexicon.backend)
    letters = [code for code in tiles if code]
    return lane_plays(board, Rack(alphabet, letters, len(tiles) - len(letters)), lexicon, kept[2])


@dataclass(frozen=True)
class Counting:
    """How a list of plays is counted, so that counts compare with another engine's.

    ``lexc`` (the default): every tile placement, both directions on the empty board, no
    exchange and no pass. ``wolges`` and ``magpie`` (read in their move generators: wolges's
    ``kurnia_gen_place_moves`` and ``kurnia_gen_nonplace_moves``, MAGPIE's
    ``board_update_all_anchors`` and ``generate_moves``): on an empty board whose premiums
    are symmetric about the diagonal through its start square, each placement once, across
    (the down plays are its mirror images); and besides the placements, every distinct
    exchange (each sub-multiset of the rack) when the bag holds at least a rack's worth of
    tiles, and the pass. The two engines count alike; both names are kept, for the user who
    compares with one of them."""

    name: str
    mirror_on_empty_board: bool  # list the down plays of an empty symmetric board (their mirror images)
    exchanges_and_pass: bool

    def describe(self) -> str:
        """How this counting counts, in a few words (what ``lexc moves`` says it counted)."""
        if self.name == "lexc":
            return ("lexc's count: every tile placement, across and down on the empty board; no exchange, "
                    "no pass")
        return (f"{self.name}'s count: every tile placement, across only on an empty board symmetric about its "
                "diagonal; every distinct exchange (when the bag holds a rack's worth) and the pass")


COUNTINGS = {"lexc": Counting("lexc", True, False), "wolges": Counting("wolges", False, True),
             "magpie": Counting("magpie", False, True)}


def counted_plays(board: Board, rack: str, lexicon: Any, strategy: str = "auto", like: str = "lexc",
                  opponent: str | None = None) -> Plays:
    """``generate_plays``, listed and counted as ``like`` (``COUNTINGS``) lists them: for
    wolges and MAGPIE, across only on an empty symmetric board, then the exchanges (the bag
    being what the board and both racks leave, a full rack for an unknown ``opponent``, as
    the referee counts it) and the pass, each scoring 0."""
    counting = COUNTINGS.get(like)
    if counting is None:
        raise MoveGenError(f"unknown counting {like!r} (known: {', '.join(COUNTINGS)})")
    plays = generate_plays(board, rack, lexicon, strategy)
    if not counting.mirror_on_empty_board and not board.tile_count() and symmetric(board):
        plays = plays.across()
    if not counting.exchanges_and_pass:
        return plays
    return CountedPlays(plays, ["-", *exchanges(board, rack, opponent)])


def symmetric(board: Board) -> bool:
    """Whether the board is its own mirror image about the diagonal through its start square
    (the start on the diagonal, each premium where its mirror image is): then an empty
    board's down plays are its across plays mirrored."""
    rules = board.ruleset
    premiums, (row, col) = rules.premiums, rules.start
    return row == col and all(premiums[r][c] == premiums[c][r] for r in range(rules.board_size) for c in range(r))


def exchanges(board: Board, rack: str, opponent: str | None = None) -> list[str]:
    """Every distinct exchange of the rack's tiles in GCG notation (``-AEI``; each
    sub-multiset once), when the bag holds at least a rack's worth of tiles (the referee's
    rule), else none."""
    from itertools import product

    rules = board.ruleset
    alphabet, need = rules.alphabet, rules.rack_size
    bag = sum(unseen(board, rack, opponent).values()) if opponent else sum(unseen(board, rack).values()) - need
    if bag < need:
        return []
    letters, blanks = alphabet.parse_rack(rack)
    held = Counter(letters)
    codes = sorted(held)
    out = []
    for counts in product(*(range(held[code] + 1) for code in codes), range(blanks + 1)):
        if any(counts):
            kept = [code for code, n in zip(codes, counts, strict=False) for _ in range(n)]
            out.append("-" + alphabet.rack_text(kept, counts[-1]))
    return out


class CountedPlays(Plays):
    """Placements (a ``Plays``) and moves that place no tile (exchanges, the pass: GCG
    notation, scoring 0), counted and ranked together; ``moves`` gives the placements'
    ``Move`` objects only (an exchange is no ``Play``)."""

    def __init__(self, placements: Plays, others: list[str]):
        self.board, self.placements, self.others = placements.board, placements, others
        self.count = placements.count + len(others)

    def scores(self) -> list[int]:
        return self.placements.scores() + [0] * len(self.others)

    def pairs(self, top: int | None = None) -> list[tuple[str, int]]:
        """(notation, score), best first (score descending, then notation), the best ``top``
        if given, as every ``Plays`` ranks them: the placements' best ``top`` and the others
        hold them all."""
        pairs = sorted(self.placements.pairs(top) + [(note, 0) for note in self.others], key=lambda p: (-p[1], p[0]))
        return pairs if top is None else pairs[:top]

    def moves(self, top: int | None = None) -> list[Any]:
        return self.placements.moves(top)

    def batch_bytes(self, top: int | None = None) -> bytes:
        """The placements' own line where nothing else is counted (lexc's counting)."""
        return self.placements.batch_bytes(top) if not self.others else super().batch_bytes(top)

    def across(self) -> Plays:
        return CountedPlays(self.placements.across(), self.others)


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
