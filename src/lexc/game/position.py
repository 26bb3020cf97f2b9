"""The position of a replayed game after one of its events (``lexc replay --until N --board``):
the board, whose turn it is, the scores, the bag, and the racks as far as the record knows them.

Where a rack comes from. A GCG event line gives the rack its player held *before* the move;
a player's rack changes only on their own turns. So after an event, each player holds the
rack of their next turn (a play, an exchange, a pass), unless a withdrawal of theirs comes
first (the rack it returns is the one before the withdrawn play: the rack in between is not
written); at the end, the end-rack lines give the racks left, and ``#rack1``/``#rack2`` those
of an unfinished game. A player who went out holds nothing. A rack is known only if the
record types it in full (as many tiles as the replay counts on it: annotators often type only
the tiles played); otherwise it is unknown: None here, empty in the CGP, which has no other
way to say so.

The scores are the recorded totals (the replay's report says where they differ from the
computed ones). The board is drawn by ``lexc play``'s own ``render_board``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board.board import Board, Position
from ..ruleset import Ruleset
from .gcg import END_PENALTY, END_POINTS, PHONY, TURNS, Event, Game
from .interactive import render_board
from .replay import OUT, SCORELESS_TURNS, EventReport, Report


@dataclass(frozen=True)
class Seat:
    """One player at the position: nickname, recorded and computed totals, the rack (None
    when the record does not give it in full) and the number of tiles held."""

    nickname: str
    score: int
    computed: int
    rack: str | None
    tiles: int


@dataclass(frozen=True)
class GamePosition:
    """The position after the last event a replay went through (``last``; None before the
    first), which is number ``number`` of the game's ``events``."""

    board: Board
    seats: tuple[Seat, Seat]  # in the game's order (player1, player2)
    to_move: int  # 0 or 1: the player whose turn comes next
    bag: int
    scoreless_turns: int
    turn: int  # the number of the next turn (1 for the first), as lexc play counts them
    last: EventReport | None
    number: int
    events: int
    end: str | None  # how the game ended (OUT, SCORELESS), or None if not over here
    end_text: str = ""
    lexicon: str | None = None  # the lexicon the game names (#lexicon), for the CGP's lex operation

    def position(self) -> Position:
        """The CGP position: the player to move first (rack and score), unknown racks empty."""
        me, other = self.seats[self.to_move], self.seats[1 - self.to_move]
        ops = (("lex", self.lexicon),) if self.lexicon else ()
        return Position(self.board, (me.rack or "", other.rack or ""), (me.score, other.score),
                        self.scoreless_turns, ops, racks_given=True)

    def cgp(self) -> str:
        """The position as a CGP line."""
        return self.position().cgp()

    def heading(self) -> str:
        """Which event the position follows."""
        if self.last is None:
            return f"before the first event (of {self.events})"
        e = self.last
        return (f"after line {e.line} (event {self.number} of {self.events}): {e.player} {e.move} "
                f"{e.recorded:+d} {e.total}")

    def status(self) -> str:
        """Rack, scores, bag and turn in one line, as ``lexc play``'s status line, then the
        player to move and the other rack, or how the game ended."""
        me, other = self.seats[self.to_move], self.seats[1 - self.to_move]
        line = (f"rack {_rack(me)}   {me.nickname} {me.score} - {other.nickname} {other.score}   "
                f"bag {self.bag}   turn {self.turn}")
        first = f"game over: {self.end_text}" if self.end else f"{me.nickname} to move"
        return f"{line}\n{first}; {other.nickname}'s rack: {_rack(other)}"

    def lines(self, color: bool = False) -> list[str]:
        """The heading, the board as ``lexc play`` draws it, and the status lines."""
        return [self.heading(), render_board(self.board, color), self.status()]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict: the board as picture rows, the CGP, the players in the game's order."""
        return {"after_line": self.last.line if self.last else None, "event": self.number, "events": self.events,
                "to_move": self.seats[self.to_move].nickname, "turn": self.turn, "bag": self.bag,
                "scoreless_turns": self.scoreless_turns, "end": self.end,
                "players": [{"nickname": s.nickname, "score": s.score, "computed_score": s.computed,
                             "rack": s.rack, "tiles": s.tiles} for s in self.seats],
                "board": self.board.picture().splitlines(), "cgp": self.cgp()}


def _rack(seat: Seat) -> str:
    """A rack as the status line shows it: ``-`` when empty, ``unknown`` when the record does not say."""
    return "unknown" if seat.rack is None else seat.rack or "-"


def position_after(report: Report) -> GamePosition:
    """The position after the last event ``report`` replayed (its ``until``, or the end)."""
    game, done = report.game, len(report.events)
    assert report.board is not None  # (a replay always leaves its board)
    turns = [e for e in game.events[:done] if e.kind in TURNS]
    first = next((e.player for e in game.events if e.kind in TURNS), 0)  # (before any turn: the first mover)
    to_move = 1 - turns[-1].player if turns else first
    recorded, computed = report.final_recorded, report.final_computed
    rules = report.board.ruleset
    seats = tuple(Seat(game.players[p][0], recorded[p], computed[p],
                       _known_rack(game, done, p, report.held[p], rules), report.held[p]) for p in (0, 1))
    bag = max(rules.tile_total - report.board.tile_count() - sum(report.held), 0)
    end_text = ""
    if report.end:
        end_line = report.end_line
        out = next((e for e in game.events if e.line == end_line), None)
        end_text = (f"{game.players[out.player][0] if out else '?'} went out at line {end_line}" if report.end == OUT
                    else f"{SCORELESS_TURNS} scoreless turns in a row, the last at line {end_line}")
    return GamePosition(report.board, (seats[0], seats[1]), to_move, bag, report.scoreless_turns, len(turns) + 1,
                        report.events[-1] if done else None, done, len(game.events), report.end, end_text,
                        game.pragma("lexicon"))


def _known_rack(game: Game, done: int, p: int, held: int, rules: Ruleset) -> str | None:
    """Player ``p``'s rack after the first ``done`` events, if the record gives it in full
    (see the module docstring), else None."""
    if not held:
        return ""
    found, rack = _next_rack(game.events[done:], p)
    if not found:  # no later turn of p's: the rack stays to the end, where end lines or #rack1/2 may give it
        found, rack = _next_rack([e for e in game.events if e.kind in (END_POINTS, END_PENALTY)], p)
        rack = rack if found else game.pragma(f"rack{p + 1}")
    if not rack:
        return None
    try:
        letters, blanks = rules.alphabet.parse_rack(rack)
    except ValueError:
        return None
    return rack if len(letters) + blanks == held else None


def _next_rack(events: list[Event], p: int) -> tuple[bool, str | None]:
    """(found, rack): whether ``events`` (those after the position) hold the next change of
    player ``p``'s rack (their next turn, a withdrawal of theirs, or an end-rack line), and
    the rack it shows them holding before it (None if it does not say: a withdrawal, a turn
    with no rack typed)."""
    for e in events:
        if e.player == p and e.kind in TURNS:
            return True, e.rack or None
        if e.player == p and e.kind == PHONY:
            return True, None
        if (e.kind == END_POINTS and e.player != p) or (e.kind == END_PENALTY and e.player == p):
            return True, e.tiles
    return False, None
