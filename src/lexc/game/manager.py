"""The game manager (Shapiro & Smith's name): the bag, the racks, the turns and the end of the game.

Self-play and the interactive game go through one ``GameManager``: it asks the player on turn
for an ``Action`` given a read-only ``TurnView``, refuses an illegal one with the referee's
``Ruling`` (``IllegalAction``), applies a legal one, refills the rack and ends the game when a
player goes out with the bag empty (the opponent's rack doubled to that player, NASPA; or
added to that player and taken from the opponent, WESPA) or after six consecutive scoreless
turns (passes and exchanges; a play resets the count, as ``lexc replay`` counts), when each
player loses the value of their own rack. The first mover (drawn) is ``#player1`` of the
record, a ``gcg.Game``; the positions program players meet are kept as ``{"turn", "cgp",
"rack"}`` (what ``lexc moves --batch`` reads). The bag is shuffled with
``random.Random(seed)``: the same seed, lexicon and strategy give the same game, byte for byte.
Players (``Action``, ``TurnView``, ``ProgramPlayer``) are in ``players.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..alphabet import Alphabet
from ..board.board import Board, tile_text
from ..board.notation import THROUGH, Play, PlayError, parse_play
from ..board.referee import Ruling, judge
from ..errors import LexcError
from ..plural import plural
from ..ruleset import Ruleset, load_ruleset
from . import gcg
from .gcg import END_PENALTY, END_POINTS, EXCHANGE, PASS, PLAY, Event, Game, write_gcg
from .players import LEVELS, Action, Player, ProgramPlayer, TurnView
from .replay import Report, replay

DOUBLING, ADD_AND_SUBTRACT = "doubling", "add-and-subtract"
END_RULES = (DOUBLING, ADD_AND_SUBTRACT)
SCORELESS_TURNS = 6
OUT, SCORELESS = "out", "six scoreless turns"  # how a game ended


def tiles_text(alphabet: Alphabet, tiles: list[int]) -> str:
    """Tile codes (0 a blank) as a rack text: letters in alphabet order, then a ``?`` per blank."""
    return alphabet.rack_text(sorted(c for c in tiles if c), tiles.count(0))


class IllegalAction(LexcError, ValueError):
    """An action the manager refuses; ``ruling`` is the referee's for a play (else a Ruling
    with only the reason), so an interactive player can be told why."""

    def __init__(self, reason: str, ruling: Ruling | None = None):
        super().__init__(reason)
        self.reason = reason
        self.ruling = ruling or Ruling(False, reason)


class Bag:
    """The tiles not yet drawn: letter codes, 0 for a blank, shuffled with ``rng``."""

    def __init__(self, ruleset: Ruleset, rng: random.Random):
        self.rng = rng
        self.tiles = ruleset.bag_tiles()
        rng.shuffle(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def draw(self, n: int) -> list[int]:
        """Up to ``n`` tiles out of the bag."""
        keep = len(self.tiles) - max(0, min(n, len(self.tiles)))
        drawn, self.tiles = self.tiles[keep:], self.tiles[:keep]
        return drawn

    def put_back(self, tiles: list[int]) -> None:
        """Tiles back into the bag, which is shaken (shuffled) again."""
        self.tiles.extend(tiles)
        self.rng.shuffle(self.tiles)


def draw_for_first(bag: Bag) -> tuple[int, list[tuple[int, int]]]:
    """Who moves first: each player draws a tile; the one nearest the start of the alphabet (a
    blank before everything) goes first; a tie draws again; the tiles go back in the bag.
    Returns the player (0 or 1) and the draws, (tile, tile) per round."""
    rounds: list[tuple[int, int]] = []
    while len(set(bag.tiles)) > 1:
        a, b = bag.draw(1)[0], bag.draw(1)[0]
        bag.put_back([a, b])
        rounds.append((a, b))
        if a != b:
            return (0 if a < b else 1), rounds
    return 0, rounds  # (a bag of one kind of tile cannot break a tie)


@dataclass(frozen=True)
class GameResult:
    """A finished game: its GCG text and record, the positions the program players met, the
    final scores and nicknames (``#player1``, the first mover, first), how it ended (``OUT``
    or ``SCORELESS``), the number of turns, the seed, the ruleset and the final board."""

    gcg: str
    record: Game
    positions: tuple[dict[str, Any], ...]
    scores: tuple[int, int]
    players: tuple[str, str]
    end: str
    turns: int
    seed: int
    ruleset: Ruleset
    board: Board

    @property
    def winner(self) -> int | None:
        """0 or 1 (the index in ``players``), None for a tie."""
        a, b = self.scores
        return None if a == b else (0 if a > b else 1)

    def agrees_with(self, report: Report) -> bool:
        """The replay of this game found nothing wrong and the totals the manager kept."""
        return report.ok and not report.unknown_words and report.final_computed == self.scores


class GameManager:
    """One game between two players: draws who goes first, deals the racks, and then ``step``
    (ask the player on turn) or ``submit`` (apply an action) until ``over``."""

    def __init__(self, ruleset: Ruleset, players: Sequence[Player], lexicon: Any,
                 seed: int = 0, end_rule: str = DOUBLING, lexicon_name: str | None = None,
                 description: str | None = None):
        if end_rule not in END_RULES:
            raise ValueError(f"unknown end rule {end_rule!r} (known: {', '.join(END_RULES)})")
        nicks = [p.nick for p in players]
        if len(players) != 2 or len(set(nicks)) != 2 or any(not n or ":" in n or n.split() != [n] for n in nicks):
            raise ValueError(f"two players with distinct nicknames without spaces or ':', not {nicks}")
        self.ruleset, self.lexicon, self.seed, self.end_rule = ruleset, lexicon, seed, end_rule
        self.lexicon_name = lexicon_name
        self.bag = Bag(ruleset, random.Random(seed))
        first, draws = draw_for_first(self.bag)
        self.players = (players[first], players[1 - first])
        self.racks = [self.bag.draw(ruleset.rack_size), self.bag.draw(ruleset.rack_size)]
        self.board, self.scores = Board.empty(ruleset), [0, 0]
        self.end: str | None  # how the game ended (OUT or SCORELESS), once it has
        self.on_turn, self.turns, self.scoreless, self.end = 0, 0, 0, None
        self.positions: list[dict[str, Any]] = []
        pragmas = [("lexicon", lexicon_name)] if lexicon_name else []
        pragmas += [("tile-distribution", ruleset.name)] + ([("description", description)] if description else [])
        said = "; ".join(", ".join(f"{players[i].nick} {tiles_text(ruleset.alphabet, [t])}" for i, t in enumerate(d))
                         for d in draws)
        self.record = gcg.Game(players=[(p.nick, p.name) for p in self.players], pragmas=pragmas,
                               notes=f"drawn for first: {said}" if said else "")

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.end is not None

    def rack(self, seat: int) -> str:
        """A player's rack as text (letters in alphabet order, then ``?`` for each blank)."""
        return tiles_text(self.ruleset.alphabet, self.racks[seat])

    def view(self) -> TurnView:
        """What the player on turn may see."""
        p = self.on_turn
        return TurnView(self.board, self.rack(p), (self.scores[p], self.scores[1 - p]), len(self.bag),
                        len(self.racks[1 - p]), self.scoreless, self.turns + 1, self.lexicon_name)

    def step(self) -> Event:
        """Ask the player on turn for an action and apply it (recording the position first for a
        program player); the event recorded."""
        player, view = self.players[self.on_turn], self.view()
        if player.program:
            self.positions.append({"turn": view.turn, "cgp": view.position().cgp(), "rack": view.rack})
        return self.submit(player.choose(view))

    def run(self) -> GameResult:
        """Play the game out and return the result."""
        while not self.over:
            self.step()
        return self.result()

    def submit(self, action: Action) -> Event:
        """Apply the player on turn's action and return its event; IllegalAction (the state
        unchanged) for an illegal play, an exchange the rack or bag does not allow, or any
        action once the game is over."""
        if self.over:
            raise IllegalAction("the game is over")
        if action.kind == PLAY:
            return self._play(action.play)
        if action.kind == EXCHANGE:
            return self._exchange(action.tiles)
        if action.kind == PASS:
            return self._scoreless(self._event(PASS))
        raise IllegalAction(f"unknown action {action.kind!r} (play, exchange or pass)")

    def result(self) -> GameResult:
        """The result of the finished game."""
        if self.end is None:  # (not over)
            raise ValueError("the game is not over")
        return GameResult(write_gcg(self.record), self.record, tuple(self.positions), (self.scores[0], self.scores[1]),
                          (self.players[0].nick, self.players[1].nick), self.end, self.turns, self.seed,
                          self.ruleset, self.board)

    # -- the actions ------------------------------------------------------------------------
    def _play(self, play: Play | str | None) -> Event:
        p, rack = self.on_turn, self.rack(self.on_turn)
        if play is None:
            raise IllegalAction("a play needs its tiles, e.g. 8H WORD")
        try:
            ruling = judge(self.board, rack, play, self.lexicon)
        except PlayError as exc:
            raise IllegalAction(str(exc)) from None
        if not ruling.legal:
            raise IllegalAction(ruling.reason or "illegal play", ruling)
        assert ruling.play is not None and ruling.score is not None  # (a legal play has both)
        play = parse_play(ruling.play, self.board)  # the canonical play: the whole word
        for code in play.rack_letters():
            self.racks[p].remove(code)
        word = "".join("." if c == THROUGH else tile_text(self.ruleset.alphabet, c) for _, _, c in play.squares())
        self.scores[p] += ruling.score
        event = self._event(PLAY, rack, ruling.score, position=play.coordinate(), word=word)
        self.board, self.scoreless = self.board.with_tiles(play.placed()), 0
        self.racks[p] += self.bag.draw(self.ruleset.rack_size - len(self.racks[p]))
        if not self.racks[p] and not self.bag:
            self._go_out(p)
        return event

    def _exchange(self, tiles: str) -> Event:
        alphabet, need = self.ruleset.alphabet, self.ruleset.rack_size
        if len(self.bag) < need:
            raise IllegalAction(f"no exchange with {plural(len(self.bag), 'tile')} in the bag "
                                f"(it takes at least {need})")
        try:
            letters, blanks = alphabet.parse_rack(tiles)
        except ValueError as exc:
            raise IllegalAction(f"exchange {tiles!r}: {exc}") from None
        codes, rack = letters + [0] * blanks, self.rack(self.on_turn)
        if not codes:
            raise IllegalAction("an exchange needs at least one tile")
        if Counter(codes) - Counter(self.racks[self.on_turn]):
            raise IllegalAction(f"exchange {tiles}: not all on the rack {rack}")
        for code in codes:
            self.racks[self.on_turn].remove(code)
        self.racks[self.on_turn] += self.bag.draw(len(codes))  # draw first, then put back
        self.bag.put_back(codes)
        return self._scoreless(self._event(EXCHANGE, rack, tiles=tiles_text(alphabet, codes)))

    def _scoreless(self, event: Event) -> Event:
        """Count a scoreless turn; the sixth in a row ends the game with rack penalties."""
        self.scoreless += 1
        if self.scoreless >= SCORELESS_TURNS:
            for seat in (0, 1):
                if self.racks[seat]:
                    self._ending(seat, END_PENALTY, -self._value(seat), self.rack(seat), self.rack(seat))
            self.end = SCORELESS
        return event

    def _go_out(self, p: int) -> None:
        """Player ``p`` went out: end-rack points under the end rule."""
        q, value, tiles = 1 - p, self._value(1 - p), self.rack(1 - p)
        if self.end_rule == DOUBLING:
            self._ending(p, END_POINTS, 2 * value, "", tiles)
        else:
            self._ending(p, END_POINTS, value, "", tiles)
            self._ending(q, END_PENALTY, -value, tiles, tiles)
        self.end = OUT

    # -- recording --------------------------------------------------------------------------
    def _event(self, kind: str, rack: str | None = None, score: int = 0, **fields: str) -> Event:
        """Record a turn's event (its score already counted) and pass the turn."""
        p = self.on_turn
        event = Event(0, p, kind, self.rack(p) if rack is None else rack, score, self.scores[p], **fields)
        self.record.events.append(event)
        self.turns, self.on_turn = self.turns + 1, 1 - p
        return event

    def _ending(self, seat: int, kind: str, score: int, rack: str, tiles: str) -> None:
        """Record an end-of-game event for a player."""
        self.scores[seat] += score
        self.record.events.append(Event(0, seat, kind, rack, score, self.scores[seat], tiles=tiles))

    def _value(self, seat: int) -> int:
        """The face value of a player's rack."""
        return sum(self.ruleset.value(c) for c in self.racks[seat])


def selfplay(lexicon: Any, ruleset: Ruleset | str, seed: int = 0, strategy: str = "auto",
             end_rule: str = DOUBLING, lexicon_name: str | None = None, levels: tuple[str, str] = ("greedy", "greedy"),
             leaves: Any = None, maker: Callable[[str, str], Player] | None = None) -> GameResult:
    """One game between two programs at ``levels`` (``greedy1`` and ``greedy2`` by default,
    the nickname being the level and the seat; the draw deciding who is ``#player1``),
    reproducible from the seed; ``leaves`` is the leave table of an ``equity`` player.
    ``maker(level, nick)`` makes a player of a level this wing does not play (the engine's
    ``sim``)."""
    ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    players: list[Player] = [
        maker(level, f"{level}{i}") if maker is not None and level not in LEVELS else
        ProgramPlayer(lexicon, strategy, f"{level}{i}", f"lexc {level} player {i}", level=level, leaves=leaves)
        for i, level in enumerate(levels, 1)]
    description = f"lexc selfplay: seed {seed}, strategy {strategy}, end rule {end_rule}"
    if tuple(levels) != ("greedy", "greedy"):
        description += f", players {' and '.join(levels)}"
    return GameManager(ruleset, players, lexicon, seed, end_rule, lexicon_name, description).run()


def check_replay(result: GameResult, lexicon: Any) -> Report:
    """Replay a finished game's GCG text through the referee (``lexc replay``); the game is
    sound when ``result.agrees_with(report)``."""
    return replay(result.gcg, lexicon, result.ruleset)
