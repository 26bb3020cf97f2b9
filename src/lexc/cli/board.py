"""Board commands: moves (``lexc.movegen.generate``) and judge (``lexc.board.referee.judge``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..plural import plural
from .common import (
    Negative,
    count_option,
    emit,
    lexicon_file,
    lexicon_option,
    max_words_option,
    note,
    nothing_found,
    one_line,
    position_args,
    position_options,
)
from .reading import command_ruleset


@click.command()
@click.argument("lexfile", required=False)
@position_options
@click.option("--strategy", default="auto", show_default=True,
              help="naive, appel-jacobson, gordon, shapiro-smith, or auto (the fastest for the file).")
@count_option("-n", "--top", default=None, help="Show only the N best plays (and those tied with the last).")
@click.option("--count-like", "like", type=click.Choice(["lexc", "wolges", "magpie"]), default="lexc",
              show_default=True,
              help="List and count the plays as this engine does, so that counts compare: lexc every tile "
                   "placement, across and down on the empty board, no exchange, no pass; wolges and magpie (they "
                   "agree) across only on an empty board symmetric about its diagonal, and every distinct exchange "
                   "(when the bag holds a rack's worth) and the pass, scoring 0.")
@click.option("--batch", type=click.Path(dir_okay=False), metavar="FILE.jsonl",
              help='One position per line, {"cgp": ..., "rack": ...}: one JSON line out per position.')
@click.option("--leaves", "leaves_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Rank by static equity with this leave-value file (any format lexc leaves reads): each move's "
                   "leave, leave value and equity, exchanges and the pass among the candidates.")
@click.option("--leaves-format", type=click.Choice(["klv2", "klv", "klv16", "leaves-csv", "superleaves"]),
              metavar="FORMAT", help="The --leaves file's format [default: the one its content looks like].")
@lexicon_option
@max_words_option
def moves(lexfile: str | None, cgp: str | None, board_file: str | None, rack: str | None, ruleset: str | None,
          as_json: bool,
          strategy: str, top: int | None, like: str, batch: str | None, leaves_file: str | None,
          leaves_format: str | None, lexicon_opt: str | None, max_words: int) -> None:
    """Every legal play for a position and rack, best first (score, then notation); exit 1
    (and "no play" on stderr) if there is none. --rack alone is on the empty board.

    The plays are every distinct tile placement (a blank's letter, a natural tile or a blank,
    make distinct ones), both directions on the empty board, a one-tile play that forms words
    both ways once (across); no exchange, no pass. On a terminal, a last line on stderr says
    how many there are and how they were counted. --count-like wolges (or magpie) lists and
    counts them as those engines do, for counts that compare.

    With --leaves FILE the candidates are ranked by static equity, MAGPIE's rule (score plus
    the leave's value while the bag holds tiles; the vowel penalty of the opening; at the end,
    twice the opponent's rack for going out, twice the tiles kept plus 10 against): the columns
    are equity, score, leave value, leave and move; every distinct exchange (while the bag
    and the opponent's rack hold two racks' worth) and the pass (not valued: last) are listed
    beside the placements. --count-like then only says whether the empty board's down plays
    are listed.

    Example: lexc moves enable.dawg --cgp '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0' -n 5
    """
    from ..board.board import PositionError, read_position
    from ..lexicons.source import check_listable, open_lexicon
    from ..movegen import COUNTINGS, counted_plays
    from ..ruleset import load_ruleset

    if leaves_format is not None and leaves_file is None:
        raise click.UsageError("--leaves-format says how to read a --leaves file: give one")
    lexfile = lexicon_file(lexfile, lexicon_opt)
    lexicon = open_lexicon(lexfile, "dawg", ruleset, progress=note)
    ruleset = command_ruleset(lexicon, ruleset, lexfile)  # the lexicon's own unless -r says otherwise
    check_listable(lexicon, lexfile or "the bundled lexicon", max_words)  # plays grow with the lexicon
    if leaves_file is not None:
        return _equity_moves(lexicon, ruleset, leaves_file, leaves_format, cgp, board_file, rack, as_json, strategy,
                             top, like, batch)
    if batch:
        from ..bench.moves import position_items
        from ..errors import LexcError

        rules = load_ruleset(ruleset)
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)  # the core's ASCII lines, written as they are
        for number, item in position_items(batch):  # read as it goes: a file of any length
            try:
                position = read_position(rules, item["cgp"])
                line = counted_plays(position.board, item.get("rack") or position.rack, lexicon, strategy, like,
                                     position.racks[1] or None).batch_bytes(top)
            except (LexcError, ValueError) as exc:  # (a bad CGP or rack: named by its line)
                raise PositionError(f"{batch}:{number}: {one_line(exc)}") from None
            if out is None:  # (a text-only stdout)
                click.echo(line.decode("ascii"))
            else:  # (two writes: the line is not copied to add its newline)
                out.write(line)
                out.write(b"\n")
        if out is not None:
            out.flush()
        return
    rules, position, rack = position_args(cgp, board_file, rack, ruleset)
    plays = counted_plays(position.board, rack, lexicon, strategy, like, position.racks[1] or None)
    shown = plays.pairs(top)
    if shown or as_json:
        emit([{"move": n, "score": s} for n, s in shown], as_json, "\n".join(f"{s:>4}  {n}" for n, s in shown))
    note(f"lexc: {plural(len(plays), 'play')}" + (f", the best {len(shown):,} shown" if len(shown) < len(plays) else "")
         + f" ({COUNTINGS[like].describe()})")
    if not shown:
        nothing_found("no play")


def _equity_moves(lexicon: Any, ruleset: str, leaves_file: str, leaves_format: str | None, cgp: str | None,
                  board_file: str | None, rack: str | None, as_json: bool, strategy: str, top: int | None, like: str,
                  batch: str | None) -> None:
    """``lexc moves --leaves``: the candidates ranked by equity (``lexc.equity.candidates``)."""
    import json

    from ..board.board import PositionError, read_position
    from ..equity import candidates
    from ..formats.leaves import read_leaves
    from ..ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    table = read_leaves(leaves_file, rules, leaves_format)
    mirror = like == "lexc"
    if batch:
        from ..bench.moves import position_items
        from ..errors import LexcError

        for number, item in position_items(batch):
            try:
                position = read_position(rules, item["cgp"])
                found = candidates(position.board, item.get("rack") or position.rack, lexicon, table,
                                   opponent=position.racks[1] or None, strategy=strategy, mirror=mirror).ranked(top)
            except (LexcError, ValueError) as exc:  # (a bad CGP or rack: named by its line)
                raise PositionError(f"{batch}:{number}: {one_line(exc)}") from None
            click.echo(json.dumps({"count": len(found), "moves": [c.as_dict() for c in found]}, ensure_ascii=False))
        return
    _rules, position, rack = position_args(cgp, board_file, rack, ruleset)
    listed = candidates(position.board, rack, lexicon, table, opponent=position.racks[1] or None, strategy=strategy,
                        mirror=mirror)
    shown = listed.ranked(top)
    width = max([len(c.leave) for c in shown] + [5])
    emit([c.as_dict() for c in shown], as_json, "\n".join(
        f"{_points(c.equity):>9}  {c.score:>4}  {_points(c.leave_value):>8}  {c.leave or '-':<{width}}  {c.notation}"
        for c in shown))
    note(f"lexc: {plural(len(listed), 'candidate')}" + (f", the best {len(shown):,} shown" if len(shown) < len(listed)
                                                        else "")
         + f" ranked by equity (MAGPIE's rule, leaves {leaves_file}; "
         + ("placements both ways on the empty board" if mirror else "across only on a symmetric empty board")
         + ", exchanges while allowed, the pass last)")


def _points(value: float | None) -> str:
    """A value in points to the thousandth, as the equity listing shows it ('-': none)."""
    return "-" if value is None else f"{value:.3f}"


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, required=True, metavar="[LEXFILE] PLAY")
@position_options
@lexicon_option
def judge(args: tuple[str, ...], cgp: str | None, board_file: str | None, rack: str | None, ruleset: str | None,
          as_json: bool, lexicon_opt: str | None) -> None:
    """Judge a play: legal or not (and why), the words it forms, its score. LEXFILE is a
    lexicon file or word list [default: bundled ENABLE]. PLAY is '8H WORD' (across) or
    'H8 WORD' (down) from the whole word's first square, an exchange '-ABC' or a pass '-'
    (GCG notation; put '--' before an exchange written in lower case).

    Exit status 1 for an illegal play. Example:
    lexc judge --cgp '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0' '8D RETAINS'
    """
    from ..board.referee import judge as judge_play
    from ..lexicons.source import open_lexicon

    unknown = [a for a in args if a.startswith("--") and a != "--"]
    if unknown:  # (click's own error, worded as for every other command)
        ctx = click.get_current_context()
        raise click.NoSuchOption(unknown[0].partition("=")[0], ctx=ctx,
                                 possibilities=[o for p in ctx.command.params for o in p.opts if o.startswith("--")])
    if len(args) > 2:
        raise click.UsageError(f"expected [LEXFILE] PLAY, got {len(args)} arguments (quote a play: '8H WORD')")
    lexfile, play = (None, *args) if len(args) == 1 else args
    lexfile = lexicon_file(lexfile, lexicon_opt)
    lexicon = open_lexicon(lexfile, "dawg", ruleset, progress=note)
    ruleset = command_ruleset(lexicon, ruleset, lexfile)  # the lexicon's own unless -r says otherwise
    _rules, position, rack = position_args(cgp, board_file, rack, ruleset)
    named, using = position.op("lex"), _lexicon_name(lexfile)
    if named and named.casefold() != using.casefold():
        click.echo(f"lexc judge: warning: the position names lexicon {named}; judging with {using}", err=True)
    ruling = judge_play(position.board, rack, play, lexicon, position.racks[1] or None)
    words = ", ".join(f"{w}{'' if ok else ' (not a word)'}" for w, ok in ruling.words)
    if not ruling.legal:
        text = f"illegal: {ruling.reason}" + (f" ({ruling.play} would score {ruling.score})"
                                              if ruling.score is not None else "")
    elif ruling.play == "-":
        text = f"legal: - (a pass) scores 0; leave {ruling.leave or '-'}"
    elif ruling.play is not None and ruling.play.startswith("-"):  # (a legal ruling names its play)
        text = (f"legal: {ruling.play} exchanges {plural(ruling.tiles_played, 'tile')}, "
                f"scores 0; leave {ruling.leave or '-'}")
    else:
        text = f"legal: {ruling.play} scores {ruling.score} ({words}); leave {ruling.leave or '-'}"
    emit(ruling.as_dict(), as_json, text)
    if not ruling.legal:
        raise Negative()


def _lexicon_name(lexfile: str | None) -> str:
    """The name of the lexicon in use, to compare with a CGP's ``lex`` operation: the bundled
    list (or a file named after it, enable1.txt, enable.dawg) is ENABLE, any other file its
    stem."""
    stem = Path(lexfile).stem if lexfile else "ENABLE"
    return "ENABLE" if stem.casefold() in ("enable", "enable1") else stem
