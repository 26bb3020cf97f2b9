"""Replaying a GCG game record through the referee.

``replay`` plays each move through ``referee.judge`` (words the lexicon lacks are reported, not
fatal: the score is what the play would make) and checks every recorded score and running total,
the racks (tiles played or exchanged must be on them; no more of a letter than the set holds,
counting the board's), turn order, withdrawals, and the end of the game. A few quirks of real
records leave the totals right and are reported as *anomalies*, recognised by kind: a withdrawn
phony recorded with a wrong score (taken back by that same score), a withdrawal written ``+0``
whose total does subtract the play, a challenge bonus other than 5.

The bag. The replay keeps how many tiles each player holds: a full rack (``rack_size``) each
at the start, a play takes its tiles off and refills from the bag, a withdrawn phony gives
back the rack it had, an exchange leaves the count. That count is certain even when a record
types its racks partially (a rack shows only the tiles played): a player holds a full rack
whenever the bag has a tile. So the bag at every event is the set less the board less both
racks (``EventReport.bag``), and with ``board.unseen``/``board.overdrawn`` it flags, as
errors: an exchange with fewer tiles in the bag than a rack holds (the bag then is
``unseen(board, mover's rack)`` less the mover's untyped tiles and the opponent's rack); any
turn after the game ended (a player went out: played the last tile with the bag empty; or
six scoreless turns in a row: passes, exchanges, withdrawn phonies; any play, even one
scoring 0, ends the run, as the game manager counts); more tiles played than the mover holds
once the bag is empty; end-rack points for a player who has not gone out (the bag or the
rack not empty); an end-of-game rack, points or penalty, with more of a tile than the set has
once the board's are counted; and, a player out, an end rack that is not every tile off the
board. What may follow the end: end-rack points and penalties, time penalties, and a
challenge of the last play (a bonus, or its withdrawal, which takes the game back).

Mismatches are counted apart: ``Report.mismatches`` the game's moves (plays, exchanges,
passes, withdrawals, challenge bonuses) whose recorded score or total differs from the
computed one; ``Report.end_mismatches`` the end-of-game lines (rack points and penalties,
time penalties) that differ; ``Report.final_mismatch`` whether the final scores do.

``replay(..., until=LINE)`` stops after the event on that line of the file (the numbers the
report gives its events); ``lexc.game.position.position_after`` gives the position there.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import Any

from ..alphabet import BLANK_FLAG
from ..board.board import Board, overdrawn, unseen
from ..board.notation import PlayError, parse_play
from ..board.referee import judge
from ..errors import LexcError
from ..lexicons.edit import with_words
from ..plural import plural
from ..ruleset import Ruleset, available, load_ruleset
from .gcg import (
    ADDED_WORDS,
    CHALLENGE,
    END_PENALTY,
    END_POINTS,
    ENDINGS,
    EXCHANGE,
    PHONY,
    PLAY,
    TIME,
    TURNS,
    Event,
    Game,
    added_words,
    is_count,
    read_gcg,
)


class ReplayError(LexcError, ValueError):
    """A replay asked for something the game does not have (``until`` not an event's line)."""


SCORELESS_TURNS = 6  # no ruleset sets it: the standard (NASPA, WESPA) limit, the game manager's too
OUT, SCORELESS = "out", "six scoreless turns"  # how a game ended (the game manager's names)


@dataclass
class EventReport:
    """One event replayed: recorded and computed score, the running totals (recorded and
    computed), words the lexicon lacks, and what is wrong (mismatch: a score or total
    disagrees; error: a rule is broken) or a recognised anomaly of the record; ``bag``, the
    number of tiles in the bag after the event (see the module's docstring)."""

    line: int
    player: str
    kind: str
    move: str
    recorded: int
    computed: int | None
    total: int
    computed_total: int
    unknown_words: tuple[str, ...] = ()
    mismatch: bool = False
    error: str | None = None
    anomaly: str | None = None
    note: str = ""
    bag: int | None = None


@dataclass
class Report:
    """A replayed game. ``ok``: no mismatch, no error, final scores as recorded; anomalies
    (recognised quirks of a record that leave the totals right) do not spoil it."""

    game: Game
    ruleset: str
    events: list[EventReport]
    final_recorded: tuple[int, int]
    final_computed: tuple[int, int]
    end_rule: str | None  # "doubling", "add-and-subtract", or None (no end-rack points)
    board: Board | None = None
    end: str | None = None  # how the game ended, by the rules: OUT, SCORELESS, or None (not over)
    end_line: int | None = None  # the line of the play that went out, or of the sixth scoreless turn
    lexicon: str | None = None  # the name of the lexicon that judged the words (None: every word counted)
    until: int | None = None  # the line of the last event replayed, if the replay stopped there
    held: tuple[int, int] = (0, 0)  # the tiles each player holds after the last event replayed
    scoreless_turns: int = 0  # consecutive scoreless turns after the last event replayed
    added_words: tuple[str, ...] = ()  # words the game's notes added to its lexicon (lexc play's add), as used

    @property
    def game_lexicon(self) -> str | None:
        """The lexicon the game's ``#lexicon`` line names, or None."""
        return self.game.pragma("lexicon")

    @property
    def mismatches(self) -> int:
        """The game's moves (every event but the end-of-game lines) whose recorded score or
        total disagrees with the computed one."""
        return sum(e.mismatch for e in self.events if e.kind not in ENDINGS)

    @property
    def end_mismatches(self) -> int:
        """The end-of-game lines (rack points and penalties, time penalties) whose recorded
        score or total disagrees."""
        return sum(e.mismatch for e in self.events if e.kind in ENDINGS)

    @property
    def final_mismatch(self) -> bool:
        """Whether the final scores (as recorded and as computed) differ."""
        return self.final_recorded != self.final_computed

    @property
    def errors(self) -> list[str]:
        """``line N: reason`` for every event that breaks a rule."""
        return [f"line {e.line}: {e.error}" for e in self.events if e.error]

    @property
    def anomalies(self) -> list[str]:
        """``line N: what`` for every recognised anomaly."""
        return [f"line {e.line}: {e.anomaly}" for e in self.events if e.anomaly]

    @property
    def unknown_words(self) -> list[str]:
        """The words played that the lexicon lacks, in order, without repeats."""
        return list(dict.fromkeys(w for e in self.events for w in e.unknown_words))

    @property
    def ok(self) -> bool:
        """True iff nothing disagrees (moves, end-of-game lines, final scores) and no rule is broken."""
        return (not self.mismatches and not self.end_mismatches and not self.final_mismatch
                and not any(e.error for e in self.events))

    def lines(self, every_event: bool = False) -> list[str]:
        """Human-readable lines: the events with something to say (or all), then a summary."""
        out = []
        for e in self.events:
            flags = [f"mismatch: {e.note}" if e.mismatch else "", f"error: {e.error}" if e.error else "",
                     f"anomaly: {e.anomaly}" if e.anomaly else ""]
            if every_event or any(flags):
                computed = "?" if e.computed is None else f"{e.computed:+d}"
                bag = "" if e.bag is None else f"; bag {e.bag}"
                out.append(f"line {e.line:3d}  {e.player}: {e.move}  {e.recorded:+d} {e.total} (computed {computed} "
                           f"{e.computed_total}{bag})  " + "; ".join(f for f in flags if f))
        (a, b), (x, y) = self.final_recorded, self.final_computed
        names = [nick for nick, _ in self.game.players]
        endings = sum(e.kind in ENDINGS for e in self.events)
        out.append(f"{'final' if self.until is None else f'after line {self.until}'}: {names[0]} {a} - {names[1]} {b} "
                   f"recorded, {x} - {y} computed ({'they differ' if self.final_mismatch else 'they agree'})"
                   + (f"; end-of-game lines: {plural(self.end_mismatches, 'mismatch', 'mismatches')}" if endings
                      else ""))
        out.append(f"{plural(self.mismatches, 'mismatch', 'mismatches')} in the moves, "
                   f"{plural(len(self.errors), 'error')}, {plural(len(self.anomalies), 'anomaly', 'anomalies')}")
        if every_event:
            out.append(f"ended: {self.end} at line {self.end_line}" if self.end else "ended: not over by the rules")
        if self.unknown_words:
            out.append(f"not in the lexicon: {', '.join(self.unknown_words)}")
        if self.added_words:
            out.append(f"added to the lexicon by the game's notes: {', '.join(self.added_words)}")
        return out

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {"ok": self.ok, "ruleset": self.ruleset, "lexicon": self.lexicon, "game_lexicon": self.game_lexicon,
                "players": [{"nickname": n, "name": f} for n, f in self.game.players], "until": self.until,
                "final_recorded": list(self.final_recorded), "final_computed": list(self.final_computed),
                "mismatches": self.mismatches, "end_mismatches": self.end_mismatches,
                "final_mismatch": self.final_mismatch, "errors": self.errors, "anomalies": self.anomalies,
                "end_rule": self.end_rule, "end": self.end, "end_line": self.end_line,
                "unknown_words": self.unknown_words, "added_words": list(self.added_words),
                "events": [asdict(e) for e in self.events]}


def replay(source: str | bytes | os.PathLike[str] | Game, lexicon: Any = None,
           ruleset: Ruleset | str | None = None, *, until: int | None = None,
           lexicon_name: str | None = None) -> Report:
    """Replay a game through the referee (GCGError if the file is malformed). Without a
    lexicon every word counts as valid; the ruleset defaults to the one ``#tile-distribution``
    or ``#tile-set`` names (the game's own), else the lexicon's (the one it was built with),
    else english. ``until``: stop after the event on that line of the
    file (ReplayError if no event is on it); ``lexicon_name`` names the lexicon in the report."""
    game = source if isinstance(source, Game) else read_gcg(source)
    if until is not None:
        check_until(game, until)
    if ruleset is None:
        named = [(game.pragma(k) or "").split(" ")[0].lower() for k in ("tile-distribution", "tile-set")]
        ruleset = next((name for name in named if name in available()), getattr(lexicon, "ruleset", "") or "english")
    ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    anyword = SimpleNamespace(contains_codes=lambda codes: True)
    report = _Replay(game, ruleset, anyword if lexicon is None else lexicon, lexicon is not None).run(until)
    report.lexicon = lexicon_name
    return report


def check_until(game: Game, line: int) -> None:
    """ReplayError, one line, unless an event of the game is on line ``line`` of the file."""
    lines = [e.line for e in game.events]
    if line in lines:
        return
    if not lines:
        raise ReplayError(f"line {line}: the game has no events to replay")
    where = f"the events are on lines {lines[0]} to {lines[-1]}, as replay numbers them (replay -a lists them)"
    if line < lines[0] or line > lines[-1]:
        side = "before the first" if line < lines[0] else "after the last"
        raise ReplayError(f"line {line} is {side} event: {where}")
    before = max(n for n in lines if n < line)
    after = min(n for n in lines if n > line)
    raise ReplayError(f"line {line} holds no event (the events nearest it are on lines {before} and {after}); {where}")


class _Replay:
    """One replay's state: the board (and the one before the last play, for a withdrawal),
    the recorded and computed totals, the count of consecutive scoreless turns, how many
    tiles each player holds (and held before the last play), whether and how the game is
    over (``over``: OUT or SCORELESS, the line, the event's index, the player who went out)
    and the racks the end-of-game lines give each player."""

    def __init__(self, game: Game, ruleset: Ruleset, lexicon: Any, learns: bool = False):
        self.game, self.events, self.ruleset, self.lexicon = game, game.events, ruleset, lexicon
        self.learns = learns  # the lexicon takes the words the game's notes say were added (lexc play's add)
        self.added: list[str] = []
        self.board = self.before = Board.empty(ruleset)
        self.cum, self.run_total, self.computed = [0, 0], [0, 0], [0, 0]
        self.reports: list[EventReport] = []
        self.end_rule: str | None = None
        self.zeros = self.zeros_before = 0
        first = min(ruleset.rack_size, ruleset.tile_total)  # the deal: a full rack each, as the bag allows
        self.held = [first, min(ruleset.rack_size, ruleset.tile_total - first)]
        self.held_before: list[int] = list(self.held)
        self.over: tuple[str, int, int, int] | None = None
        self.over_before: tuple[str, int, int, int] | None = None
        self.end_racks: dict[int, str] = {}

    def bag(self) -> int:
        """The tiles in the bag: the set less the board less both players' racks."""
        return self.ruleset.tile_total - self.board.tile_count() - sum(self.held)

    def _over_text(self) -> str:
        """How the game ended, for a message."""
        assert self.over is not None  # (asked once the game is over)
        how, line, _, p = self.over
        return (f"{self.game.players[p][0]} went out at line {line}" if how == OUT
                else f"{SCORELESS_TURNS} scoreless turns in a row, the last at line {line}")

    def _may_follow_the_end(self, i: int, e: Event) -> bool:
        """An event that may come once the game is over: end-of-game rack points and
        penalties, time penalties, and a challenge of the play that went out (a bonus, or
        the play's withdrawal, which undoes the end)."""
        assert self.over is not None  # (asked once the game is over)
        how, _, at, _ = self.over
        return e.kind in ENDINGS or (how == OUT and e.kind in (CHALLENGE, PHONY) and i == at + 1)

    def _learn(self, note: str) -> None:
        """Add to the lexicon the words a note says were added to this game's lexicon (``lexc
        play``'s ``add`` records them so: ``gcg.ADDED_WORDS``), from this point of the game on."""
        if not self.learns or ADDED_WORDS not in note:
            return
        holder = SimpleNamespace(notes=note, events=[])
        words = [w for w in added_words(holder) if w not in self.added]  # type: ignore[arg-type]
        if words:
            try:
                self.lexicon, new = with_words(self.lexicon, words)
            except LexcError:  # (a word outside the alphabet: the plays that use it are reported as usual)
                return
            self.added += new

    def run(self, until: int | None = None) -> Report:
        """Replay the events (up to the one on line ``until``, if given) and report."""
        turn, ended = None, None
        self._learn(self.game.notes)
        for i, e in enumerate(self.events):
            r = EventReport(e.line, self.game.players[e.player][0], e.kind, e.move(), e.score, None, e.total, 0)
            problems = []
            if ended and e.kind not in ENDINGS:
                problems.append(f"{e.kind} after the game ended ({ended.kind} at line {ended.line}"
                                f"{'; a time penalty comes only at the end' if ended.kind == TIME else ''})")
            elif self.over and not self._may_follow_the_end(i, e):
                problems.append(f"{e.kind} after the game ended: {self._over_text()}")
            if e.kind in TURNS:
                if turn == e.player:
                    problems.append(f"{r.player} moves twice in a row: the event is off turn")
                turn = e.player
            elif e.kind in ENDINGS and not ended:
                ended = e
            getattr(self, "_" + e.kind.replace("-", "_"))(i, e, r)
            r.error = "; ".join(problems + ([r.error] if r.error else [])) or None
            if r.computed is not None and r.computed != e.score and not r.anomaly:
                r.mismatch, r.note = True, f"recorded {e.score:+d}, computed {r.computed:+d}" + (
                    f" ({r.note})" if r.note else "")
            self._check_total(e, r)
            r.bag = max(self.bag(), 0)
            self.reports.append(r)
            self._learn(e.note)
            if e.line == until:
                break
        how, line = self.over[:2] if self.over else (None, None)
        return Report(self.game, self.ruleset.name, self.reports, (self.cum[0], self.cum[1]),
                      (self.computed[0], self.computed[1]), self.end_rule, self.board, how, line,
                      until=until, held=(self.held[0], self.held[1]), scoreless_turns=self.zeros,
                      added_words=tuple(self.added))

    def _check_total(self, e: Event, r: EventReport) -> None:
        """The recorded total must be the previous one plus the recorded score. A typo in one
        total is flagged once: the next total may go on from it or from the right one."""
        p = e.player
        self.computed[p] += e.score if r.computed is None else r.computed
        r.computed_total = self.computed[p]
        if e.total in (self.cum[p] + e.score, self.run_total[p] + e.score) or (
                r.anomaly and r.computed is not None and e.total == self.cum[p] + r.computed):
            self.cum[p] = self.run_total[p] = e.total
            return
        if not r.mismatch:
            r.mismatch, r.note = True, f"total {e.total} is not {self.cum[p]} {e.score:+d} = {self.cum[p] + e.score}"
        self.run_total[p] += e.score
        self.cum[p] = e.total

    def _rack_problem(self, rack: str) -> str | None:
        """Why a rack cannot be (not letters, too many tiles, more of a letter than the set
        has once the board's are counted), or None."""
        try:
            letters, blanks = self.ruleset.alphabet.parse_rack(rack)
        except ValueError as exc:
            return f"rack {rack}: {exc}"
        if len(letters) + blanks > self.ruleset.rack_size:
            return f"rack {rack} has {len(letters) + blanks} tiles; a rack holds {self.ruleset.rack_size}"
        extra = self._overdrawn_by(rack)
        if extra:
            return f"rack {rack} is not in the bag: the board and the rack hold {extra} more than the set has"
        return None

    def _overdrawn_by(self, *racks: str) -> str:
        """The tiles that the racks, with the board's, hold more of than the set has, as rack
        text: only the letters the racks make worse (a board already over, by an earlier bad
        play, is that play's fault); '' if none."""
        board, left = unseen(self.board), unseen(self.board, *racks)
        return overdrawn(Counter({c: n for c, n in left.items() if n < 0 and n < board[c]}), self.ruleset.alphabet)

    def _play(self, i: int, e: Event, r: EventReport) -> None:
        try:
            play = parse_play(f"{e.position} {e.word}", self.board)
        except PlayError as exc:
            r.error = str(exc)
            return
        placed = "".join("?" if c & BLANK_FLAG else self.ruleset.alphabet.label(c) for *_, c in play.placed())
        ruling = judge(self.board, e.rack or placed, play, self.lexicon)
        if ruling.score is None:  # judge the tiles alone, to go on after a rack that lacks them
            r.error = f"illegal play {e.position} {e.word}: {ruling.reason}"
            ruling = judge(self.board, placed, play, self.lexicon)
            if ruling.score is None:
                return
        r.error = r.error or (self._rack_problem(e.rack) if e.rack else None)
        r.computed, r.unknown_words = ruling.score, ruling.invalid_words
        self.before, self.board = self.board, self.board.with_tiles(play.placed())
        self.zeros, self.zeros_before = 0, self.zeros
        r.error = r.error or self._take_and_draw(i, e, len(play.placed()))
        after = self.events[i + 1] if i + 1 < len(self.events) else None
        if ruling.score != e.score and after and (after.kind, after.player, after.score) == (PHONY, e.player, -e.score):
            r.anomaly = (f"withdrawn phony misscored: recorded {e.score:+d}, standard scoring {ruling.score:+d}; "
                         f"taken back, so the totals are unaffected")

    def _take_and_draw(self, i: int, e: Event, played: int) -> str | None:
        """The tiles a play put down leave the mover's rack, which is refilled from the bag;
        a rack left empty (the bag empty too) ends the game: the player went out. Returns
        why the play cannot be, if the mover holds fewer tiles than it puts down (the bag
        having run out), else None."""
        p, problem = e.player, None
        self.held_before, self.over_before = list(self.held), self.over
        if played > self.held[p]:
            problem = (f"{played} tiles played, but with the bag empty {self.game.players[p][0]} holds only "
                       f"{self.held[p]}")
        self.held[p] = max(self.held[p] - played, 0)
        self.held[p] += min(self.ruleset.rack_size - self.held[p], max(self.bag(), 0))
        if not self.held[p] and not self.over:
            self.over = (OUT, e.line, i, p)
        return problem

    def _scoreless_turn(self, i: int, e: Event) -> None:
        """One more scoreless turn in a row (a pass, an exchange, a withdrawn phony); the
        sixth ends the game."""
        self.zeros += 1
        if self.zeros >= SCORELESS_TURNS and not self.over:
            self.over = (SCORELESS, e.line, i, e.player)

    def _exchange(self, i: int, e: Event, r: EventReport) -> None:
        r.computed, r.error = 0, self._rack_problem(e.rack) if e.rack else None
        if is_count(e.tiles) and int(e.tiles) > self.ruleset.rack_size:
            r.error = f"cannot exchange {e.tiles} tiles: a rack holds {self.ruleset.rack_size}"
        elif e.rack and not r.error and not is_count(e.tiles) and Counter(e.tiles.upper()) - Counter(e.rack.upper()):
            r.error = f"exchanged tiles {e.tiles} are not all on the rack {e.rack}"
        elif e.kind == EXCHANGE and not r.error:
            bag, need = self._bag_for_exchange(e), self.ruleset.rack_size
            if bag < need:
                r.error = f"no exchange with {bag} tile{'s' * (bag != 1)} in the bag (it takes at least {need})"
        self._scoreless_turn(i, e)

    _pass = _exchange  # (no tiles)

    def _bag_for_exchange(self, e: Event) -> int:
        """The bag before an exchange: what the board and the mover's rack leave unseen, less
        the mover's tiles the record does not type (a partial rack) and the opponent's rack."""
        letters, blanks = self.ruleset.alphabet.parse_rack(e.rack)
        untyped = max(self.held[e.player] - len(letters) - blanks, 0)
        return max(sum(unseen(self.board, e.rack).values()) - untyped - self.held[1 - e.player], 0)

    def _phony_returned(self, i: int, e: Event, r: EventReport) -> None:
        prev, done = (self.events[i - 1], self.reports[i - 1]) if i else (None, None)
        if not prev or not done or prev.kind != PLAY or prev.player != e.player:
            r.error = (f"tiles returned (--), but the previous event{f' (line {prev.line})' if prev else ''} "
                       f"is not a play by {r.player} to withdraw")
        elif done.computed is not None:  # (a play that could not be placed left the board as it was)
            if e.rack and prev.rack and sorted(e.rack.upper()) != sorted(prev.rack.upper()):
                r.error = f"the returned rack {e.rack} is not the withdrawn play's rack {prev.rack}"
            self.board, r.computed, self.zeros = self.before, -done.computed, self.zeros_before
            self.held, self.over = list(self.held_before), self.over_before  # the rack back, the game on
            self._scoreless_turn(i, e)
            if done.anomaly and e.score == -prev.score:
                r.anomaly = done.anomaly
            elif e.score == 0 and e.total == self.cum[e.player] + r.computed:
                r.anomaly = f"withdrawal written +0, but the total does subtract the phony's {done.computed} points"

    def _challenge_bonus(self, i: int, e: Event, r: EventReport) -> None:
        r.computed, prev = e.score, self.events[i - 1] if i else None
        if not prev or prev.kind != PLAY or prev.player != e.player:
            r.error = f"a challenge bonus must follow a play by {r.player}, and the previous event is not one"
        elif e.score <= 0:
            r.error = f"a challenge bonus must be positive, not {e.score:+d}"
        elif e.score != 5:
            r.anomaly = f"challenge bonus {e.score:+d}, not the usual +5"

    def _end_rack_points(self, i: int, e: Event, r: EventReport) -> None:
        value, events = self._value(e.tiles, r), self.events
        out = next((j for j in range(i - 1, -1, -1) if events[j].kind == PLAY and events[j].player == e.player), None)
        if out is None:
            r.error = f"end-rack points for {r.player}, who made no play to go out with"
        else:
            r.error = r.error or self._not_out(e.player)
        r.error = r.error or self._end_rack_problem(1 - e.player, e.tiles) or self._end_rack_short(e)
        paired = any(o.kind == END_PENALTY and o.player != e.player and self._value(o.tiles, r) == value
                     for o in events)
        self.end_rule = "add-and-subtract" if e.score == value and paired else "doubling"
        r.computed = value if self.end_rule == "add-and-subtract" else 2 * value
        r.note = f"{self.end_rule}: {'once' if r.computed == value else 'twice'} the value of {e.tiles}"

    def _not_out(self, p: int) -> str | None:
        """Why player ``p`` has not gone out (the bag or the rack not empty), or None."""
        if self.over and self.over[0] == OUT and self.over[3] == p:
            return None
        nick, bag = self.game.players[p][0], max(self.bag(), 0)
        if bag:
            return f"end-rack points, but {nick} has not gone out: the bag still holds {bag} tile{'s' * (bag != 1)}"
        if self.held[p]:
            n = self.held[p]
            return f"end-rack points, but {nick} has not gone out: {n} tile{'s' * (n != 1)} still on the rack"
        return f"end-rack points for {nick}, but the game ended otherwise: {self._over_text()}"

    def _end_rack_problem(self, holder: int, tiles: str) -> str | None:
        """The end-of-game rack ``tiles`` of player ``holder`` (the opponent's, on an
        end-rack points line; the player's own, on a penalty line): why the set cannot hold
        it with the board and the other end rack, or None. A rack already judged (the
        add-and-subtract penalty repeats the points line's) is not judged again."""
        if self.end_racks.get(holder) == tiles:
            return None
        self.end_racks[holder] = tiles
        try:
            extra = self._overdrawn_by(*self.end_racks.values())
        except ValueError:
            return None  # (not of the alphabet: said by _value)
        if not extra:
            return None
        racks = "the end racks" if len(self.end_racks) > 1 else "the end rack"
        return f"end rack {tiles} is not in the bag: the board and {racks} hold {extra} more than the set has"

    def _end_rack_short(self, e: Event) -> str | None:
        """Once a player is out (the bag empty), the opponent holds every tile not on the
        board: why the end rack ``e.tiles`` is not all of them, or None."""
        if not (self.over and self.over[0] == OUT and self.over[3] == e.player):
            return None
        try:
            left = unseen(self.board, e.tiles)
        except ValueError:
            return None  # (not of the alphabet: said by _value)
        missing = [c for c, n in sorted(left.items()) if n > 0 for _ in range(n)]
        if not missing:
            return None
        text = self.ruleset.alphabet.rack_text([c for c in missing if c], missing.count(0))
        return (f"end rack {e.tiles} is short: with the bag empty, {self.game.players[1 - e.player][0]} holds every "
                f"tile not on the board, {text} too")

    def _end_rack_penalty(self, i: int, e: Event, r: EventReport) -> None:
        r.computed, r.note = -self._value(e.tiles, r), f"the value of {e.tiles}"
        r.error = r.error or self._end_rack_problem(e.player, e.tiles)
        if not any(o.kind == END_POINTS for o in self.events):  # no one went out: six scoreless turns
            if self.zeros < SCORELESS_TURNS:
                r.error = f"a rack penalty with no one going out needs six scoreless turns, not {self.zeros}"
            elif not any(o.kind == END_PENALTY and o.player != e.player for o in self.events):
                r.error = f"only {r.player}'s rack penalty is recorded; after six scoreless turns both lose theirs"

    def _time_penalty(self, i: int, e: Event, r: EventReport) -> None:
        r.computed = e.score
        if e.score > 0:
            r.error = f"a time penalty cannot be positive ({e.score:+d})"

    def _value(self, tiles: str, r: EventReport) -> int:
        """The face value of a rack (0, with an error on the event, if it is not of the alphabet)."""
        try:
            return sum(self.ruleset.value(c) for c in self.ruleset.alphabet.parse_rack(tiles)[0])
        except ValueError as exc:
            r.error = f"rack {tiles}: {exc}"
            return 0
