"""How a command reads its arguments and options, one way on every command: a WORD or a RACK
in the lexicon's alphabet (``word_codes``, ``rack_arg``: one that is not of it is bad input,
named in one line), a file (``FilePath``: a missing one is ``FILE: no such file``), the
ruleset (``command_ruleset``: the lexicon's own unless ``-r`` says otherwise). The command
modules import them from here (``common`` uses them too, and re-exports the ruleset's)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])  # a command function, as a decorator hands it on


def word_codes(lexicon: Any, words: Iterable[str]) -> list[bytes]:
    """Each WORD argument in the lexicon's tiles, all of them read before any is answered: a
    word that is not one of the lexicon's alphabet is bad input (one line naming it, exit 2),
    as ``hooks`` and ``anagram`` always treated it, never a negative answer (``check
    README.md QI`` says README.md is no word of the alphabet, not that it is not valid)."""
    from ..alphabet import AlphabetError

    codes = []
    for word in words:
        try:
            codes.append(lexicon.encode(word))
        except AlphabetError as exc:
            raise AlphabetError(f"{_shown(word)}: {_fault(exc, 'not a word of', lexicon)}", exc.position,
                                exc.char) from None
    return codes


def rack_arg(lexicon: Any, rack: str, what: str = "rack") -> str:
    """A RACK argument (or another text of tiles, ``what`` naming it), checked against the
    lexicon's alphabet: AlphabetError naming it, as ``word_codes`` names a word."""
    from ..alphabet import AlphabetError

    try:
        lexicon.alphabet.parse_rack(rack)
    except AlphabetError as exc:
        raise AlphabetError(f"{what} {_shown(rack)}: {_fault(exc, 'not tiles of', lexicon)}", exc.position,
                            exc.char) from None
    return rack


def alphabet_name(lexicon: Any) -> str:
    """``the english alphabet`` for a lexicon built with a bundled ruleset, else ``the
    lexicon's alphabet``."""
    name = getattr(lexicon, "ruleset", "") or ""
    return f"the {name} alphabet" if name and "\n" not in name else "the lexicon's alphabet"


def _fault(exc: Exception, what: str, lexicon: Any) -> str:
    """What an AlphabetError found, saying which alphabet: ``not a word of the english
    alphabet ('.' at position 7 is no tile of it)``; another fault (unbalanced brackets) as it
    is, without the rack it names (the line names it first)."""
    import re

    text = str(exc)
    found = re.fullmatch(r"character (.+?)( at position \d+)?( in rack .*)? is not in the alphabet", text, re.S)
    if found:
        return f"{what} {alphabet_name(lexicon)} ({found[1]}{found[2] or ''} is no tile of it)"
    return re.sub(r"^rack '.*?': ", "", text, flags=re.S)


RULESET_DEFAULT = "[default: the one the lexicon was built with, else english]"


def ruleset_option(what: str) -> Callable[[F], F]:
    """``-r/--ruleset``, spelled the same on every command that plays or reads a lexicon: by
    default the lexicon's own (``command_ruleset``)."""
    return click.option("-r", "--ruleset", default=None, metavar="RULESET", help=f"{what} {RULESET_DEFAULT}")


def command_ruleset(lexicon: Any, option: str | None, lexfile: str | os.PathLike[str] | None = None) -> str:
    """The ruleset the running command uses with ``lexicon`` (``lexicons.source.lexicon_ruleset``,
    the one rule: the lexicon's own unless ``-r`` says otherwise), as a reference
    ``load_ruleset`` reads; a ``-r`` other than the lexicon's own is warned about on stderr
    (``lexc moves: warning: ...``), and one of another alphabet refused."""
    from ..lexicons.source import lexicon_ruleset

    ruleset, warning = lexicon_ruleset(lexicon, option, os.fspath(lexfile) if lexfile else "the bundled lexicon")
    if warning:
        ctx = click.get_current_context(silent=True)
        click.echo(f"lexc {ctx.info_name if ctx else ''}: warning: {warning}".replace("lexc : ", "lexc: "), err=True)
    return ruleset


class FilePath(click.Path):
    """``click.Path`` whose file is missing, or is a directory where a file is wanted, raises
    the OSError that ``main`` words as every command words it (``FILE: no such file``, ``FILE:
    is a directory``: ``one_line``), rather than click's own sentence about the parameter.
    ``cli._register`` gives it to every path argument and option of every command."""

    @classmethod
    def like(cls, other: click.Path) -> FilePath:
        """A FilePath checking what ``other`` checks."""
        return cls(exists=other.exists, file_okay=other.file_okay, dir_okay=other.dir_okay,
                   writable=other.writable, readable=other.readable, resolve_path=other.resolve_path,
                   allow_dash=other.allow_dash, path_type=other.type, executable=other.executable)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not (self.allow_dash and value in ("-", b"-")):
            path = os.fsdecode(value)
            if self.exists and not os.path.lexists(path):
                raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
            if not self.dir_okay and os.path.isdir(path):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        return super().convert(value, param, ctx)


def _shown(arg: str, width: int = 60) -> str:
    """An argument as an error line quotes it: at most ``width`` characters, a byte that is
    not UTF-8 as ``\\xNN``, a control character escaped."""
    try:
        data = os.fsencode(arg[:width])  # the bytes as given (a lone surrogate is one of them)
    except UnicodeEncodeError:
        data = arg[:width].encode("utf-8", "backslashreplace")
    text = data.decode("utf-8", "backslashreplace")
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return text + ("..." if len(arg) > width else "")
