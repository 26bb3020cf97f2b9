"""Playing against lexc in the terminal: Shapiro & Smith's game manager with a person at the
keyboard (``lexc play``).

Each turn shows the board (premium squares and tiles; colour on a colour terminal), the
rack, both scores and the bag. The person types a play in standard notation (``8H WORD``
across, ``H8 WORD`` down, from the whole word's first square, a blank in lower case, the
board's letters in parentheses or spelled out; the rule is ``play.parse_play``'s, the same
as ``lexc judge`` and ``lexc replay``), ``pass``, ``exchange TILES``, or asks the
lexicon manager (``check``, ``anagram``, ``hooks``, ``add``, which the saved game records
as a ``#note``), and the game manager referees the play: a refusal is one line naming the
rule or the words, with how to write the play (from the word's first square, a blank in
lower case) only when the referee accepts it so written (``advice.py``); a word that is
neither a command nor a coordinate is an unknown command. ``hint`` lists the best plays
for the person's rack. The program answers with its play, score and leave. Ctrl-C ends the
game like ``quit``: the game so far is saved. Programs and people go through the same ``GameManager`` loop
(``play_game``), so a game between two programs (``--watch``) runs the very same code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click

from ..alphabet import BLANK_FLAG, written_tiles
from ..board.board import Board, tile_text, unseen
from ..board.referee import judge
from ..lexicons.edit import with_words
from ..plural import plural
from ..wordlist import excerpt
from .advice import explain_refusal
from .gcg import ADDED_WORDS, EXCHANGE, PASS, PLAY, add_note, write_gcg
from .manager import GameManager, IllegalAction, tiles_text
from .players import Action, ProgramPlayer, TurnView

HELP = """commands:
  8H WORD | H8 WORD   a play: across (row first) or down (column first), from the first
                      square of the whole word; lower case for a blank; letters already
                      on the board in parentheses or spelled out: 8G (CAT)S or 8G CATS
  pass                pass the turn
  exchange TILES      exchange tiles from your rack (? for a blank), e.g. exchange QV
  check WORD...       whether words are in the lexicon
  anagram [LETTERS]   the words your rack (or LETTERS, ? a blank) makes, longest first
  hooks WORD          the letters that go before and after a word
  hint [N]            the N best plays for your rack (5 if no N), with their scores
                      (with --leaves: the N best moves by equity, leave and its value)
  add WORD            add a word to this game's lexicon (asks first; the saved game notes it)
  score               the scores, the bag and the unseen tiles
  board               show the board again
  help                this list
  quit                end the game here (asks first); the game so far is saved
                      (Ctrl-C ends and saves the game too)"""

LEGEND = "= triple word  - double word  ; triple letter  : double letter  * start"
_MARK_STYLE: dict[str, dict[str, Any]] = {"=": {"bg": "red", "fg": "white"}, "-": {"bg": "magenta", "fg": "white"},
                                           ";": {"bg": "blue", "fg": "white"}, ":": {"bg": "cyan", "fg": "black"},
                                           "*": {"bg": "magenta", "fg": "white"}}


class Quit(Exception):
    """The person ended the game."""


def looks_like_play(word: str) -> bool:
    """Whether the first word of a line is meant as a play's coordinate (``8H``, ``H8``,
    ``h8word``: a digit first, or a letter then a digit) rather than a command."""
    return bool(word) and word[0].isascii() and (word[0].isdigit() or (
        len(word) > 1 and word[0].isalpha() and word[1].isascii() and word[1].isdigit()))


def premium_mark(board: Board, row: int, col: int) -> str:
    """The legend character of an empty square: ``=`` ``-`` ``;`` ``:`` ``*`` or ``.``."""
    ruleset = board.ruleset
    letter, word = ruleset.premiums[row][col]
    if (row, col) == ruleset.start:
        return "*"
    return "=" if word >= 3 else "-" if word == 2 else ";" if letter >= 3 else ":" if letter == 2 else "."


def render_board(board: Board, color: bool = False) -> str:
    """The board as text: column letters, row numbers, tiles (a blank in lower case, a
    multi-character tile by its first character), premium marks on empty squares; with
    ``color``, premiums on coloured backgrounds and tiles in bold."""
    n, alphabet = board.size, board.ruleset.alphabet
    lines = ["    " + " ".join(chr(ord("A") + c) for c in range(n))]
    for r in range(n):
        cells = []
        for c in range(n):
            code = board.at(r, c)
            if code:
                text = tile_text(alphabet, code).strip("[]")[0]
                text = text.lower() if code & BLANK_FLAG else text
                cells.append(click.style(text, fg="black", bg="yellow", bold=True) if color else text)
            else:
                mark = premium_mark(board, r, c)
                cells.append(click.style(mark, **_MARK_STYLE[mark]) if color and mark in _MARK_STYLE else mark)
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    return "\n".join([*lines, "    " + LEGEND])


@dataclass
class Console:
    """Where the game talks to the person: ``ask`` returns a line (None at the end of the
    input), ``say`` prints."""

    ask: Callable[[str], str | None]
    say: Callable[[str], None]
    color: bool = False

    def confirm(self, question: str) -> bool:
        """A yes/no question; anything but y/yes is no."""
        answer = self.ask(f"{question} [y/N] ")
        return answer is not None and answer.strip().lower() in ("y", "yes")


@dataclass
class HumanPlayer:
    """The person at the keyboard: ``choose`` reads commands until one is a turn (a play, a
    pass or an exchange); the other commands are answered on the spot."""

    session: Session
    nick: str = "you"
    name: str = "human player"
    program: bool = False

    def choose(self, view: TurnView) -> Action:
        """The action the person types for this turn (Quit if they end the game)."""
        console = self.session.console
        while True:
            line = console.ask(f"{self.nick}> ")
            if line is None:
                raise Quit()
            words = line.split()
            if not words:
                continue
            command, rest = words[0].lower(), words[1:]
            if command in ("pass", "-"):
                return Action.pass_turn()
            if command in ("exchange", "exch", "swap"):
                if not rest:
                    console.say("exchange what? e.g. exchange QV")
                    continue
                return Action.exchange("".join(rest))
            if command == "quit":
                if console.confirm("End the game here?"):
                    raise Quit()
                continue
            handler = self.session.commands.get(command)
            if handler:
                handler(view, rest)
                continue
            if not looks_like_play(words[0]):
                console.say(f"unknown command {excerpt(words[0], 20)}: type help for the commands")
                continue
            return Action.place(line.strip())  # the referee reads it (play.parse_play's rule) and says why not


@dataclass
class Session:
    """One interactive game: the manager, the console, the lexicon (``add`` rebuilds it with
    the new word, for the referee and the program alike) and the command handlers."""

    console: Console
    lexicon: Any
    manager: GameManager | None = None
    added: list[str] = field(default_factory=list)
    leaves: Any = None  # a leave table: hints ranked by equity (lexc.equity), with the leave and its value

    @property
    def commands(self) -> dict[str, Callable[[TurnView, list[str]], None]]:
        """The commands that do not take the turn."""
        return {"check": self.check, "anagram": self.anagram, "hooks": self.hooks, "hint": self.hint,
                "add": self.add, "score": self.score, "board": self.board,
                "help": lambda view, rest: self.console.say(HELP)}

    def check(self, view: TurnView, rest: list[str]) -> None:
        """Whether each word is in the lexicon."""
        if not rest:
            return self.console.say("check what? e.g. check QI ZA")
        for word in rest:
            self.console.say(f"{word.upper()}: {'valid' if self._valid(word) else 'not in the lexicon'}")

    def anagram(self, view: TurnView, rest: list[str]) -> None:
        """The words the rack (or the letters given) makes, longest first."""
        letters = "".join(rest) or view.rack
        try:
            found = self.lexicon.anagrams(letters, sub=True)
        except ValueError as exc:
            return self.console.say(f"anagram {letters}: {exc}")
        shown = found[:40]
        more = f" ... and {len(found) - len(shown)} more" if len(found) > len(shown) else ""
        self.console.say(f"{letters}: " + (" ".join(shown) + more if found else "no words"))

    def hooks(self, view: TurnView, rest: list[str]) -> None:
        """The front and back hooks of a word."""
        if len(rest) != 1:
            return self.console.say("hooks of what? e.g. hooks CARE")
        try:
            h = self.lexicon.hooks(rest[0])
        except ValueError as exc:
            return self.console.say(f"hooks {rest[0]}: {exc}")
        self.console.say(f"{written_tiles(h.front) or '-'} {h.word} {written_tiles(h.back) or '-'}"
                         + ("" if h.valid else f"  ({h.word} itself is not a word)"))

    def hint(self, view: TurnView, rest: list[str]) -> None:
        """The best plays for the rack on this board (the program's own move generator), with
        their scores: ``hint`` the top 5, ``hint N`` the top N. With a leave table, the best
        moves by equity (exchanges and the pass among them), with score, leave and its value."""
        from ..movegen import generate_plays

        if len(rest) > 1 or (rest and not (rest[0].isascii() and rest[0].isdigit() and 0 < int(rest[0]) <= 100)):
            return self.console.say("hint how many? e.g. hint, or hint 10 (at most 100)")
        top = int(rest[0]) if rest else 5
        if self.leaves is not None:
            return self.console.say(equity_hint(view, self.lexicon, self.leaves, top))
        best = generate_plays(view.board, view.rack, self.lexicon).pairs(top)[:top]
        if not best:
            return self.console.say(f"no play for {view.rack}: pass or exchange")
        self.console.say("\n".join(f"{score:>4}  {notation}" for notation, score in best))

    def add(self, view: TurnView, rest: list[str]) -> None:
        """Add words to this game's lexicon, after a confirmation."""
        if not rest:
            return self.console.say("add what? e.g. add QAT")
        new = [w for w in rest if not self._valid(w)]
        if not new:
            return self.console.say(f"{' '.join(w.upper() for w in rest)}: already in the lexicon")
        if not self.console.confirm(f"Add {' '.join(w.upper() for w in new)} to this game's lexicon?"):
            return self.console.say("nothing added")
        self.console.say(f"rebuilding the {self.lexicon.name} lexicon with {' '.join(w.upper() for w in new)} "
                         f"({len(self.lexicon):,} words; a few seconds for a large list) ...")
        try:
            lexicon, added = with_words(self.lexicon, new)
        except ValueError as exc:
            return self.console.say(str(exc))
        self.use_lexicon(lexicon)
        self.added += added
        if self.manager is not None:  # the saved game says so: lexc replay judges by its own list
            add_note(self.manager.record, f"{self.manager.players[self.manager.on_turn].nick} {ADDED_WORDS} "
                                          f"{' '.join(added)}")
        self.console.say(f"added for this game: {' '.join(added)}")

    def use_lexicon(self, lexicon: Any) -> None:
        """Switch the game (referee and program players) to another lexicon."""
        self.lexicon = lexicon
        if self.manager is not None:
            self.manager.lexicon = lexicon
            for player in self.manager.players:
                if isinstance(player, ProgramPlayer):
                    player.lexicon = lexicon

    def score(self, view: TurnView, rest: list[str]) -> None:
        """Both scores, the bag and the tiles not yet seen by the player on turn."""
        self.console.say(self.status(view))
        unseen = self.unseen(view)
        self.console.say(f"unseen ({sum(unseen.values())}: bag and opponent's rack): "
                         + tiles_text(view.ruleset.alphabet, list(unseen.elements())))

    def board(self, view: TurnView, rest: list[str]) -> None:
        """Show the board and the status line."""
        self.console.say(render_board(view.board, self.console.color))
        self.console.say(self.status(view))

    def status(self, view: TurnView) -> str:
        """Rack, scores, bag and turn in one line."""
        m = self.manager
        me = m.players[m.on_turn].nick if m else "you"
        other = m.players[1 - m.on_turn].nick if m else "opponent"
        return (f"rack {view.rack}   {me} {view.scores[0]} - {other} {view.scores[1]}   "
                f"bag {view.bag}   turn {view.turn}")

    def unseen(self, view: TurnView) -> Counter[int]:
        """Tiles the player on turn has not seen: every tile less the board and their rack."""
        return +unseen(view.board, view.rack)

    def _valid(self, word: str) -> bool:
        try:
            return word in self.lexicon
        except ValueError:
            return False


def equity_hint(view: TurnView, lexicon: Any, leaves: Any, top: int) -> str:
    """The ``top`` moves by equity for the player on turn (``lexc.equity.candidates``, the game
    as the view shows it), one a line: equity, score, leave value, leave, move."""
    from ..equity import candidates

    ranked = candidates(view.board, view.rack, lexicon, leaves, situation=view.situation()).ranked(top)
    lines = ["equity score  leave value  move"]
    for c in ranked:
        equity = "-" if c.equity is None else f"{c.equity:.2f}"
        value = "-" if c.leave_value is None else f"{c.leave_value:.2f}"
        lines.append(f"{equity:>6} {c.score:>5}  {c.leave or '-':<7} {value:>5}  {c.notation}")
    return "\n".join(lines)


def play_game(manager: GameManager, session: Session) -> str:
    """Run the game to its end (or until the person quits), telling the console each turn;
    returns how it ended: the manager's end, or ``"quit"``."""
    console = session.console
    session.manager = manager
    console.say(manager.record.notes)
    refused = False
    while not manager.over:
        try:
            player, view = manager.players[manager.on_turn], manager.view()
            if not player.program and not refused:
                session.board(view, [])
            action = None
            try:
                if player.program:
                    event = manager.step()
                else:  # (the person's action is kept, to explain a refusal)
                    action = player.choose(view)
                    event = manager.submit(action)
            except IllegalAction as exc:
                console.say(f"illegal: {refusal(exc, action, view, session.lexicon)}")
                refused = True
                continue
            except Quit:
                console.say("game ended by the player")
                return "quit"
            refused = False
            console.say(describe_turn(player.nick, event, view, session.lexicon))
        except KeyboardInterrupt:  # Ctrl-C anywhere in a turn: the game so far is kept, as quit keeps it
            console.say("\ninterrupted: game ended by the player")
            return "quit"
    console.say(render_board(manager.board, console.color))
    for event in manager.record.events:
        if event.kind not in (PLAY, EXCHANGE, PASS) and event.score:
            console.say(f"{manager.players[event.player].nick}: end of game {event.score:+d} ({event.tiles})")
    a, b = manager.players[0].nick, manager.players[1].nick
    console.say(f"final: {a} {manager.scores[0]} - {b} {manager.scores[1]} ({manager.end})")
    assert manager.end is not None  # (the game is over)
    return manager.end


def refusal(exc: IllegalAction, action: Action | None, view: TurnView, lexicon: Any) -> str:
    """Why an action was refused, as the person is told it: for a play they typed, the
    referee's reason with a suggestion only when it is legal (``advice.explain_refusal``)."""
    if action is None or action.kind != PLAY or not isinstance(action.play, str):
        return exc.reason
    return explain_refusal(view.board, view.rack, action.play, exc.reason, lexicon)


def describe_turn(nick: str, event: Any, view: TurnView, lexicon: Any) -> str:
    """One line for a turn: the play in standard notation with its score and leave, or the
    exchange or pass."""
    if event.kind == PLAY:
        ruling = judge(view.board, view.rack, f"{event.position} {event.word}", lexicon)
        return f"{nick}: {ruling.play} for {ruling.score} (leave {ruling.leave or '-'}; total {event.total})"
    if event.kind == EXCHANGE:
        tiles = len(view.ruleset.alphabet.parse_rack(event.tiles)[0]) + event.tiles.count("?")
        return f"{nick}: exchanged {plural(tiles, 'tile')}"
    return f"{nick}: passed"


def save_record(manager: GameManager) -> str:
    """The game so far as GCG (a finished game, or one ended by ``quit``)."""
    return write_gcg(manager.record)
