"""The ``lexc`` command line: the click group and ``main``; the commands live one module per wing.

``lexicons`` (build, convert, edit, export, synth), ``inspect`` (info, verify, dump, formats,
rulesets, diff, stats), ``query`` (check, words, anagram, hooks, search), ``board`` (moves, judge),
``game`` (replay, selfplay, match, play), ``engine`` (endgame, analyze), ``bench`` and ``leaves``
(leave-value files: leaves, learn); ``common`` holds what they share, ``reading`` how they
read words, racks, files and the ruleset. Each
command is a thin wrapper over one library function, which its ``--help`` names, and imports
it when it runs: start-up imports only what the chosen command needs. The CLI is the top
wing: it may import every wing, and nothing imports it.

Exit status: 0 success, 1 a negative answer (an invalid word, no match, a finding of
``verify``; a reader that closed the output pipe early, ``lexc dump FILE | head``: quietly), 2
bad input or usage (one line on stderr, never a traceback). The rules that keep it so: every
argument is UTF-8 text (``common.check_arguments``), every integer option a ``Bounded`` range
(``lexc.limits``), every text file read by ``lexc.textfile``.

One wording for one problem, whichever command meets it: a missing file is ``FILE: no such
file`` (``main`` words every OSError as ``lexc.textfile`` does, and every path parameter is a
``reading.FilePath``, given by ``_register``); a usage error points at the command's own
``--help``; a WORD that is no word of the alphabet is bad input (``reading.word_codes``); a
count is printed with its noun by ``lexc.plural``; a lexicon's ruleset is the one it was built
with unless ``-r`` says otherwise (``reading.command_ruleset``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import native
from .._version import __version__
from ..errors import LexcError
from . import bench, board, engine, game, inspect, leaves, lexicons, query
from .common import Negative, check_arguments, one_line
from .reading import FilePath


def is_user_error(exc: BaseException) -> bool:
    """Whether an exception is the user's: a ``LexcError`` (every library error derives from
    it), or an OSError (a file the user named)."""
    return isinstance(exc, (LexcError, OSError))


# The library function each command wraps, named in its --help (with the command's own module).
LIBRARY = {
    "build": "lexc.lexicons.compile.compile_file (-f all: compile_all)",
    "convert": "lexc.lexicons.edit.convert_file",
    "edit": "lexc.lexicons.edit.edit_file",
    "export": "lexc.lexicons.edit.export_file (a data folder: lexc.lexicons.folders.export_folder)",
    "synth": "lexc.lexicons.synth.synth_file",
    "info": "lexc.lexicons.compile.describe",
    "verify": "lexc.lexicons.compile.verify",
    "dump": "the format's dump_rows (src/lexc/formats/)",
    "formats": "lexc.formats.FORMATS",
    "rulesets": "lexc.ruleset.load_ruleset",
    "diff": "lexc.lexicons.diff.diff_lexicons",
    "stats": "lexc.lexicons.stats.lexicon_stats",
    "check": "the format protocol: LexiconBase.__contains__ (src/lexc/formats/base.py)",
    "words": "the format protocol: LexiconBase.words and .pattern (src/lexc/formats/base.py)",
    "anagram": "the format protocol: LexiconBase.anagrams (src/lexc/formats/base.py)",
    "hooks": "the format protocol: LexiconBase.hooks (src/lexc/formats/base.py)",
    "search": "lexc.lexicons.search.search and rows",
    "moves": "lexc.movegen.generate_plays",
    "judge": "lexc.board.referee.judge",
    "replay": "lexc.game.replay.replay",
    "selfplay": "lexc.game.manager.selfplay",
    "match": "lexc.game.match.match_games and summarise, lexc.engine.player.play_match_game",
    "play": "lexc.game.interactive.play_game",
    "bench": "lexc.bench.runner.run_bench",
    "leaves": "lexc.formats.leaves.read_leaves and LeaveTable.value",
    "learn": "lexc.leavemodel.learn (the model file: lexc.leavemodel.modelfile)",
    "endgame": "lexc.engine.endgame.solve",
    "analyze": "lexc.engine.sim.simulate (without --sim: lexc.equity.candidates)",
}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lexc",
                      message=f"%(prog)s, version %(version)s\nengine: {native.path_name()}")
def cli() -> None:
    """lexc: compile word lists into lexicon formats for crossword games, and query them.

    A FILE argument may be a compiled lexicon, a plain word list (compiled in memory), or
    left out for the bundled ENABLE list.
    """


def _register(group: click.Group) -> None:
    """Add every command module's commands to the group, each --help naming its code."""
    for module in (lexicons, inspect, query, board, game, engine, bench, leaves):
        assert module.__file__ is not None  # (each is a file of this package)
        where = f"src/lexc/cli/{Path(module.__file__).name}"
        for command in vars(module).values():
            if isinstance(command, click.Command):
                assert command.callback is not None and command.name is not None  # (a command of ours has both)
                command.epilog = f"Code: {where} ({command.callback.__name__}), over {LIBRARY[command.name]}."
                for param in command.params:  # a missing file: one wording on every command (reading.FilePath)
                    if type(param.type) is click.Path:
                        param.type = FilePath.like(param.type)
                group.add_command(command)


_register(cli)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning user errors into one line and exit status 2. Bare
    ``lexc`` prints the help (exit 0); a reader that closes the pipe early (``| head``) ends
    the command quietly with status 1 (as click ends a command whose output pipe closed)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:2] == ["leaves", "learn"]:  # `lexc leaves learn` is `lexc learn` (a leave file named so: ./learn)
        args = args[1:]
    native.keep_heap()  # (a command's batch makes big buffers position after position: keep the pages)
    try:
        check_arguments(args)
        if not args and not any(key.endswith("_COMPLETE") for key in os.environ):  # (click's shell completion
            # runs the program with no arguments and _LEXC_COMPLETE set: it goes to click)
            with cli.context_class(cli, info_name="lexc", **cli.context_settings) as ctx:
                click.echo(cli.get_help(ctx))
            sys.exit(0)
        cli.main(args=args, prog_name="lexc", standalone_mode=False)
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        click.echo(f"lexc: error: {one_line(exc)} (see '{_command_path(exc, args)} --help')", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"lexc: error: {one_line(exc)}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("lexc: aborted", err=True)
        sys.exit(130)
    except Negative:
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("lexc: interrupted", err=True)
        sys.exit(130)
    except MemoryError:  # a last resort: the limits (--max-words, rack, pattern, line caps) come first
        click.echo("lexc: error: out of memory: the input or the answer is too big for this machine", err=True)
        sys.exit(2)
    except RecursionError:
        click.echo("lexc: error: the input nests too deeply to process", err=True)
        sys.exit(2)
    except Exception as exc:
        if not is_user_error(exc):
            raise
        click.echo(f"lexc: error: {one_line(exc)}", err=True)
        sys.exit(2)
    try:
        sys.stdout.flush()  # the last of the output, while a closed pipe can still be told apart
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(1)
    sys.exit(0)


def _command_path(exc: click.UsageError, args: list[str]) -> str:
    """The command whose ``--help`` a usage error points at: the command that was being read
    (``lexc moves``), also when click's parser raised the error without a context (``lexc
    moves -n``: an option missing its value), where the command is the first argument that is
    not an option; ``lexc`` for an error of the group itself."""
    if exc.ctx is not None:
        return exc.ctx.command_path
    named = next((arg for arg in args if not arg.startswith("-")), None)
    return f"lexc {named}" if named in cli.commands else "lexc"


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's own flush at exit does not report
    the closed pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
