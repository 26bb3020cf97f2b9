"""Helpers every command module shares: output, exit status 1, the lexicon and position options,
and the types of the integer options (``Bounded``: every one has a range, stated in its --help)."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..formats import FORMATS  # the registry's names (each format's module is imported when used)
from ..formats.errors import FormatError
from ..limits import MAX_COUNT, MAX_LISTED_WORDS
from .reading import RULESET_DEFAULT, _shown
from .reading import command_ruleset as command_ruleset  # (re-exported: the game commands use it as common's)
from .reading import ruleset_option as ruleset_option

if TYPE_CHECKING:
    from ..board.board import Position
    from ..ruleset import Ruleset

F = TypeVar("F", bound=Callable[..., Any])  # a command function, as a decorator hands it on

MAX_MESSAGE = 400  # characters of an error line: an input of any size is quoted in part


class Negative(Exception):
    """A query's answer is no: exit status 1, nothing on stderr."""


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print JSON or the human-readable text."""
    if not as_json:
        return click.echo(text)
    import json  # (what a command needs is imported when it runs: start-up stays short)

    click.echo(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, list) else 2))


def on_terminal() -> bool:
    return sys.stderr.isatty()


def note(message: str) -> None:
    if on_terminal():
        click.echo(message, err=True)


# A leading argument is taken for the lexicon FILE by its form alone, never because a file of
# that name happens to exist: it names a folder (``/``, ``./``) or ends in a lexicon or word-list
# extension. Any other leading argument is a word (or rack); if a file of that name exists, a
# note says how to name the file instead (``./NAME`` or ``-L NAME``).
LEXICON_SUFFIXES = (".txt", ".lst", ".lexc", ".kwg", *(f".{name}" for name in FORMATS))


def looks_like_file(arg: str) -> bool:
    """Whether a leading argument is written as a file: a path with a folder in it, or a name
    ending in a lexicon or word-list extension (``enable1.txt``, ``enable.dawg``)."""
    return "/" in arg or os.sep in arg or arg.lower().endswith(LEXICON_SUFFIXES)


def lexicon_arg(args: tuple[str, ...], lexicon_opt: str | None, format: str, ruleset: str | None,
                min_rest: int = 1, alphagrams: bool = False) -> tuple[Any, tuple[str, ...]]:
    """``lexicon_ruleset_arg`` without the ruleset (a query that only reads words: its ``-r``
    is still checked against the lexicon's own); ``alphagrams`` opens a KAD too."""
    lexicon, rest, _ = lexicon_ruleset_arg(args, lexicon_opt, format, ruleset, min_rest, alphagrams)
    return lexicon, rest


def lexicon_ruleset_arg(args: tuple[str, ...], lexicon_opt: str | None, format: str, ruleset: str | None,
                        min_rest: int = 1, alphagrams: bool = False) -> tuple[Any, tuple[str, ...], str]:
    """Split positional args into an optional leading FILE and the rest (at least
    ``min_rest``; with ``min_rest`` 0 the only positional argument is FILE); open the lexicon
    (``-L`` FILE, else the leading FILE, else the bundled ENABLE list); and the ruleset the
    command uses with it (``command_ruleset``: the lexicon's own unless ``-r`` says otherwise)."""
    from ..lexicons.source import open_lexicon

    path = lexicon_opt
    if path is None and len(args) > min_rest:
        if min_rest == 0 and not looks_like_file(args[0]) and not os.path.exists(args[0]):
            raise click.UsageError(f"{args[0]}: no such file (words that start with it: --prefix {args[0]}; "
                                   "a pattern: --pattern)")
        if min_rest == 0 or looks_like_file(args[0]):
            path, args = args[0], args[1:]
        elif os.path.exists(args[0]):
            click.echo(f"lexc: note: {args[0]} is read as a word, not as the file of that name "
                       f"(for the file: ./{args[0]} or -L {args[0]})", err=True)
    elif path is None and 0 < len(args) == min_rest and looks_like_file(args[0]):
        if not os.path.exists(args[0]):
            raise FormatError(f"{args[0]}: no such file")
        raise click.UsageError(f"{args[0]} is a file: give the lexicon's words or rack after it")
    if len(args) < min_rest:
        raise click.UsageError("missing argument")
    lexicon = open_lexicon(path, format, ruleset, progress=note, alphagrams=alphagrams)
    return lexicon, args, command_ruleset(lexicon, ruleset, path)


def lexicon_file(positional: str | None, option: str | None) -> str | None:
    """The lexicon a board or game command uses: its LEXFILE argument or ``-L FILE`` (not
    both), else None for the bundled ENABLE list."""
    if positional is not None and option is not None:
        raise click.UsageError(f"two lexicons: {positional} and -L {option} (give one)")
    return positional if positional is not None else option


def lexicon_option(f: F) -> F:
    """``-L/--lexicon FILE``, spelled the same on every command that uses a lexicon."""
    return click.option("-L", "--lexicon", "lexicon_opt", metavar="FILE",
                        help="Lexicon file or word list [default: the LEXFILE argument, else bundled ENABLE].")(f)


def nothing_found(what: str) -> None:
    """An empty answer: say so on stderr (``no words``, ``no play``) and exit 1."""
    click.echo(f"lexc: {what}", err=True)
    raise Negative


def lexicon_options(f: F) -> F:
    """Options shared by the query commands."""
    f = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")(f)
    f = click.option("-r", "--ruleset", default=None, metavar="RULESET",
                     help=f"Ruleset whose alphabet reads a plain word list {RULESET_DEFAULT}.")(f)
    f = click.option("-f", "--format", "format_", default="dawg", show_default=True,
                     type=click.Choice(sorted(FORMATS)), help="Format to compile a plain word list into.")(f)
    f = click.option("-L", "--lexicon", "lexicon_opt", metavar="FILE",
                     help="Lexicon file or word list (else a leading FILE argument: a path with a folder or a "
                          ".txt/.dawg/... name; else bundled ENABLE).")(f)
    return f


def position_options(f: F) -> F:
    """Options shared by the board commands."""
    f = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")(f)
    f = ruleset_option("Ruleset: board, tiles, bingo.")(f)
    f = click.option("--rack", default=None, help="The rack (? a blank) [default: the CGP's rack to move]; "
                                                  "with no --cgp or --board, on the empty board.")(f)
    f = click.option("--board", "board_file", type=click.Path(dir_okay=False), metavar="FILE",
                     help="File holding a text picture of the board ('.' empty) or a CGP line.")(f)
    f = click.option("--cgp", default=None, help="The position as a CGP string.")(f)
    return f


def position_args(cgp: str | None, board_file: str | None, rack: str | None,
                  ruleset: str) -> tuple[Ruleset, Position, str]:
    """(ruleset, position, rack) from the board options: ``--rack`` as given (an explicit
    ``--rack ''`` is an empty rack), else the CGP's rack to move (an empty rack field, ``/``,
    is an empty rack, as MAGPIE reads it); neither is a usage error.
    A rack with no position (no ``--cgp``, no ``--board``) is on the ruleset's empty board."""
    from ..board.board import Board, Position, read_position
    from ..ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    if cgp is None and board_file is None:
        if rack is None:
            raise click.UsageError("give a position (--cgp or --board), or --rack alone for the empty board")
        return rules, Position(Board.empty(rules)), rack
    position = read_position(rules, cgp, board_file)
    if rack is None:
        rack = position.rack
        if not rack and not position.racks_given:
            raise click.UsageError("no rack: give --rack (the CGP has none for the player to move)")
    return rules, position, rack


@contextmanager
def stages(length: int) -> Iterator[Any]:
    """One progress bar over ``length`` stages on a terminal, with an ETA: the callback is
    called at the start of each stage with its label, and during a long stage again with the
    share of it done (``progress("building gaddawg", 0.4)``), so the bar moves within it; a
    no-op callback otherwise."""
    if not on_terminal():
        yield None
        return
    unit = 100  # steps of the bar per stage
    with click.progressbar(length=length * unit, label="reading", file=sys.stderr, show_eta=True) as bar:
        state: dict[str, Any] = {"stage": None, "index": -1}

        def progress(stage: str, done: float = 0.0) -> None:
            if stage != state["stage"]:
                state["stage"], state["index"] = stage, state["index"] + 1
                bar.label = stage
            target = min(length * unit, state["index"] * unit + int(min(max(done, 0.0), 1.0) * unit))
            if target > bar.pos:
                bar.update(target - bar.pos)

        yield progress
        bar.update(length * unit - bar.pos)


@contextmanager
def status_line(logged: str | None = None, every: float = 1.0) -> Iterator[Callable[[int, int, str], None]]:
    """A one-line progress display on a terminal (``[step/total] message``), cleared at the end.
    With ``logged`` (a command's name), off a terminal (a log, CI) progress goes to stderr as
    lines ``NAME: [step/total] message``: each new step, and within a step at most one line
    every ``every`` seconds."""
    import shutil
    import time

    width = shutil.get_terminal_size((80, 20)).columns - 1
    shown = False
    last = {"step": -1, "at": 0.0}

    def show(step: int, total: int, message: str) -> None:
        nonlocal shown
        if on_terminal():
            click.echo("\r" + f"[{step}/{total}] {message}"[:width].ljust(width), err=True, nl=False)
            shown = True
        elif logged is not None:
            now = time.monotonic()
            if step != last["step"] or now - last["at"] >= every:
                click.echo(f"{logged}: [{step}/{total}] {message}", err=True)
                last["step"], last["at"] = step, now

    try:
        yield show
    finally:
        if shown:
            click.echo("\r" + " " * width + "\r", err=True, nl=False)


def one_line(exc: BaseException) -> str:
    """An exception as one line (click's errors name the option). An OSError names its file,
    worded as every reader of the user's files words it (``lexc.textfile.open_error``): a
    missing file is ``FILE: no such file`` whichever command, argument or option named it."""
    if isinstance(exc, OSError) and exc.filename:
        from ..textfile import open_error

        name = os.fsdecode(exc.filename)
        if exc.strerror in (None, os.strerror(exc.errno or 0)):  # the system's words, not lexc's own
            return one_line(open_error(name, exc))
        return f"{name}: {exc.strerror}"
    text = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
    text = " ".join(text.split()) or type(exc).__name__
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


class Bounded(click.IntRange):
    """The type of every integer option: an integer from ``low`` to ``high`` (both given, from
    ``lexc.limits``). ``--help`` states the range, and any other value (too big for the
    machine, negative, zero where a count must be positive, not an integer) is refused by
    click with one line naming the option, before the library sees it."""

    def __init__(self, low: int, high: int) -> None:
        super().__init__(low, high)

    def _describe_range(self) -> str:
        """The range as --help and the error show it: ``1<=x<=1,000,000,000``."""
        return f"{self.min:,}<=x<={self.max:,}"


class BoundedFloat(click.FloatRange):
    """``Bounded`` for a number of seconds: from ``low`` to ``high``, and never NaN (which
    passes every comparison, so a plain range would let it through)."""

    def __init__(self, low: float, high: float) -> None:
        super().__init__(low, high)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number

    def _describe_range(self) -> str:
        return f"{self.min:g}<=x<={self.max:g}"


def count_option(*names: str, low: int = 1, help: str, **kwargs: Any) -> Callable[[F], F]:
    """An option holding a count or limit (``-n``, ``--limit``): ``Bounded(low, MAX_COUNT)``,
    shown as N."""
    return click.option(*names, type=Bounded(low, MAX_COUNT), metavar="N", help=help, **kwargs)


def check_arguments(args: list[str]) -> None:
    """Refuse, with one line, a command-line argument lexc cannot read as text: a NUL
    character, or a byte that is not UTF-8 (Python hands it over as a lone surrogate, which
    no word, rack or file name lexc writes can hold). Every argument, file names too, is
    UTF-8 text, as every text file lexc reads is (``lexc.textfile``)."""
    for number, arg in enumerate(args, 1):
        if "\0" in arg:
            raise click.ClickException(f"argument {number} ({_shown(arg)}) holds a NUL character")
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise click.ClickException(f"argument {number} ({_shown(arg)}) is not UTF-8 text; lexc reads its "
                                       "arguments, file names too, as UTF-8") from None


def max_words_option(f: F) -> F:
    """``--max-words``: how many words of a compiled file lexc lists at once (convert, edit,
    export, build --from kwg, the listing queries); a file that spells more is refused before
    any word is listed."""
    return click.option("--max-words", type=Bounded(1, MAX_COUNT), default=MAX_LISTED_WORDS, show_default=True,
                        metavar="N", help="Refuse a compiled file (or KWG) that spells more words than this, "
                                          "before listing them.")(f)
