"""Replaying a GCG game record through the referee.

``replay`` plays each move through ``referee.judge`` (words the lexicon lacks are reported, not
fatal: the score is what the play would make) and checks every recorded score and running total,
the racks (tiles played or exchanged must be on them; no more of a letter than the set holds,
counting the board's), turn order, withdrawals, and the end of the game. A few quirks of real
records leave the totals right and are reported as *anomalies*, recognised by kind: a withdrawn
phony recorded with a wrong score (taken back by that same score), a withdrawal written ``+0``
whose total does subtract the play, a challenge bonus other than 5.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import Any

from .alphabet import BLANK_FLAG
from .board import Board
from .gcg import END_PENALTY, END_POINTS, ENDINGS, PHONY, PLAY, TIME, TURNS, Event, Game, read_gcg
from .play import PlayError, parse_play
from .referee import judge
from .ruleset import Ruleset, available, load_ruleset


@dataclass
class EventReport:
    """One event replayed: recorded and computed score, the running totals (recorded and
    computed), words the lexicon lacks, and what is wrong (mismatch: a score or total
    disagrees; error: a rule is broken) or a recognised anomaly of the record."""

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

    @property
    def mismatches(self) -> int:
        """Events whose score or total disagrees, plus one if the final scores do."""
        return sum(e.mismatch for e in self.events) + (self.final_recorded != self.final_computed)

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
        """True iff nothing disagrees and no rule is broken."""
        return not self.mismatches and not any(e.error for e in self.events)

    def lines(self, every_event: bool = False) -> list[str]:
        """Human-readable lines: the events with something to say (or all), then a summary."""
        out = []
        for e in self.events:
            flags = [f"mismatch: {e.note}" if e.mismatch else "", f"error: {e.error}" if e.error else "",
                     f"anomaly: {e.anomaly}" if e.anomaly else ""]
            if every_event or any(flags):
                computed = "?" if e.computed is None else f"{e.computed:+d}"
                out.append(f"line {e.line:3d}  {e.player}: {e.move}  {e.recorded:+d} {e.total} (computed {computed} "
                           f"{e.computed_total})  " + "; ".join(f for f in flags if f))
        (a, b), (x, y) = self.final_recorded, self.final_computed
        names = [nick for nick, _ in self.game.players]
        out.append(f"final: {names[0]} {a} - {names[1]} {b} recorded, {x} - {y} computed; "
                   f"{self.mismatches} mismatch(es), {len(self.errors)} error(s), {len(self.anomalies)} anomaly(ies)")
        if self.unknown_words:
            out.append(f"not in the lexicon: {', '.join(self.unknown_words)}")
        return out

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {"ok": self.ok, "ruleset": self.ruleset, "lexicon": self.game.pragma("lexicon"),
                "players": [{"nickname": n, "name": f} for n, f in self.game.players],
                "final_recorded": list(self.final_recorded), "final_computed": list(self.final_computed),
                "mismatches": self.mismatches, "errors": self.errors, "anomalies": self.anomalies,
                "end_rule": self.end_rule, "unknown_words": self.unknown_words,
                "events": [asdict(e) for e in self.events]}


def replay(source: str | bytes | os.PathLike | Game, lexicon: Any = None,
           ruleset: Ruleset | str | None = None) -> Report:
    """Replay a game through the referee (GCGError if the file is malformed). Without a
    lexicon every word counts as valid; the ruleset defaults to the one ``#tile-distribution``
    or ``#tile-set`` names, else english."""
    game = source if isinstance(source, Game) else read_gcg(source)
    if ruleset is None:
        named = [(game.pragma(k) or "").split(" ")[0].lower() for k in ("tile-distribution", "tile-set")]
        ruleset = next((name for name in named if name in available()), "english")
    ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    anyword = SimpleNamespace(contains_codes=lambda codes: True)
    return _Replay(game, ruleset, anyword if lexicon is None else lexicon).run()


class _Replay:
    """One replay's state: the board (and the one before the last play, for a withdrawal),
    the recorded and computed totals, and the count of consecutive scoreless turns."""

    def __init__(self, game: Game, ruleset: Ruleset, lexicon: Any):
        self.game, self.events, self.ruleset, self.lexicon = game, game.events, ruleset, lexicon
        self.board = self.before = Board.empty(ruleset)
        self.cum, self.run_total, self.computed = [0, 0], [0, 0], [0, 0]
        self.reports: list[EventReport] = []
        self.end_rule: str | None = None
        self.zeros = self.zeros_before = 0

    def run(self) -> Report:
        turn, ended = None, None
        for i, e in enumerate(self.events):
            r = EventReport(e.line, self.game.players[e.player][0], e.kind, e.move(), e.score, None, e.total, 0)
            problems = []
            if ended and e.kind not in ENDINGS:
                problems.append(f"{e.kind} after the game ended ({ended.kind} at line {ended.line}"
                                f"{'; a time penalty comes only at the end' if ended.kind == TIME else ''})")
            if e.kind in TURNS:
                if turn == e.player:
                    problems.append(f"{r.player} moves twice in a row: the event is off turn")
                turn = e.player
            elif e.kind in ENDINGS and not ended:
                ended = e
            getattr(self, "_" + e.kind.replace("-", "_"))(i, e, r)
            r.error = "; ".join(problems + [r.error] * bool(r.error)) or None
            if r.computed is not None and r.computed != e.score and not r.anomaly:
                r.mismatch, r.note = True, f"recorded {e.score:+d}, computed {r.computed:+d}" + (
                    f" ({r.note})" if r.note else "")
            self._check_total(e, r)
            self.reports.append(r)
        return Report(self.game, self.ruleset.name, self.reports, (self.cum[0], self.cum[1]),
                      (self.computed[0], self.computed[1]), self.end_rule, self.board)

    def _check_total(self, e: Event, r: EventReport) -> None:
        """The recorded total must be the previous one plus the recorded score. A typo in one
        total is flagged once: the next total may go on from it or from the right one."""
        p = e.player
        self.computed[p] += e.score if r.computed is None else r.computed
        r.computed_total = self.computed[p]
        if e.total in (self.cum[p] + e.score, self.run_total[p] + e.score) or (
                r.anomaly and e.total == self.cum[p] + r.computed):
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
        held = Counter(letters + [0] * blanks)
        seen = Counter(0 if c & BLANK_FLAG else c for row in self.board.rows for c in row if c and
                       (0 if c & BLANK_FLAG else c) in held)
        for code, k in (held + seen).items():
            if k > self.ruleset.count(code):
                label = "?" if code == 0 else self.ruleset.alphabet.label(code)
                return (f"rack {rack} is not in the bag: counting the board's that makes {k} {label}; "
                        f"the set has {self.ruleset.count(code)}")
        return None

    def _play(self, i: int, e: Event, r: EventReport) -> None:
        try:
            play = parse_play(f"{e.position} {e.word}", self.board, lenient=True)
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
        after = self.events[i + 1] if i + 1 < len(self.events) else None
        if ruling.score != e.score and after and (after.kind, after.player, after.score) == (PHONY, e.player, -e.score):
            r.anomaly = (f"withdrawn phony misscored: recorded {e.score:+d}, standard scoring {ruling.score:+d}; "
                         f"taken back, so the totals are unaffected")

    def _exchange(self, i: int, e: Event, r: EventReport) -> None:
        r.computed, r.error, self.zeros = 0, self._rack_problem(e.rack) if e.rack else None, self.zeros + 1
        if e.tiles.isdigit() and int(e.tiles) > self.ruleset.rack_size:
            r.error = f"cannot exchange {e.tiles} tiles: a rack holds {self.ruleset.rack_size}"
        elif e.rack and not r.error and not e.tiles.isdigit() and Counter(e.tiles.upper()) - Counter(e.rack.upper()):
            r.error = f"exchanged tiles {e.tiles} are not all on the rack {e.rack}"

    _pass = _exchange  # (no tiles)

    def _phony_returned(self, i: int, e: Event, r: EventReport) -> None:
        prev, done = (self.events[i - 1], self.reports[i - 1]) if i else (None, None)
        if not prev or prev.kind != PLAY or prev.player != e.player:
            r.error = (f"tiles returned (--), but the previous event{f' (line {prev.line})' if prev else ''} "
                       f"is not a play by {r.player} to withdraw")
        elif done.computed is not None:  # (a play that could not be placed left the board as it was)
            if e.rack and prev.rack and sorted(e.rack.upper()) != sorted(prev.rack.upper()):
                r.error = f"the returned rack {e.rack} is not the withdrawn play's rack {prev.rack}"
            self.board, r.computed, self.zeros = self.before, -done.computed, self.zeros_before + 1
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
        for j in range(i if out is None else out + 1, i):  # nothing takes a turn once a player is out
            if events[j].kind in TURNS:
                late = f"{events[j].kind} after the game ended: {r.player} went out at line {events[out].line}"
                self.reports[j].error = "; ".join(filter(None, [self.reports[j].error, late]))
        paired = any(o.kind == END_PENALTY and o.player != e.player and self._value(o.tiles, r) == value
                     for o in events)
        self.end_rule = "add-and-subtract" if e.score == value and paired else "doubling"
        r.computed = value if self.end_rule == "add-and-subtract" else 2 * value
        r.note = f"{self.end_rule}: {'once' if r.computed == value else 'twice'} the value of {e.tiles}"

    def _end_rack_penalty(self, i: int, e: Event, r: EventReport) -> None:
        r.computed, r.note = -self._value(e.tiles, r), f"the value of {e.tiles}"
        if not any(o.kind == END_POINTS for o in self.events):  # no one went out: six scoreless turns
            if self.zeros < 6:
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
