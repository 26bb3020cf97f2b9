"""The ``lexc`` command line: thin click commands over the library.

Exit status: 0 success, 1 a negative answer (an invalid word, no match), 2 bad input or
usage (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Iterator

import click

from ._version import __version__
from .alphabet import AlphabetError
from .bench import BenchError
from .board import PositionError, read_position
from .compiler import compile_all, compile_file, describe, verify
from .manager import convert_file, edit_file
from .formats import FORMATS, FormatError
from .gcg import GCGError
from .lexdiff import LexiconDiffError
from .lexstats import LexiconStatsError
from .movegen import MoveGenError
from .pattern import PatternError
from .play import PlayError
from .ruleset import RulesetError, available, load_ruleset
from .source import open_lexicon, read_list, read_words
from .wordlist import WordListError, word_lines

USER_ERRORS = (BenchError, LexiconDiffError, LexiconStatsError, FormatError, WordListError, RulesetError, PatternError, AlphabetError, PositionError, PlayError,
               MoveGenError, GCGError, OSError)


class Negative(Exception):
    """A query's answer is no: exit status 1, nothing on stderr."""


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print JSON or the human-readable text."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, list) else 2)
               if as_json else text)


def _on_terminal() -> bool:
    return sys.stderr.isatty()


def _note(message: str) -> None:
    if _on_terminal():
        click.echo(message, err=True)


def lexicon_arg(args: tuple[str, ...], lexicon_opt: str | None, format: str, ruleset: str,
                min_rest: int = 1) -> tuple[Any, tuple[str, ...]]:
    """Split positional args into an optional leading FILE and the rest; open the lexicon."""
    path = lexicon_opt
    if path is None and len(args) > min_rest and os.path.isfile(args[0]):
        path, args = args[0], args[1:]
    elif path is None and len(args) > min_rest and ("/" in args[0] or args[0].endswith((".txt", ".lexc", *(f".{name}" for name in FORMATS)))):
        raise FormatError(f"{args[0]}: no such file")
    if len(args) < min_rest:
        raise click.UsageError("missing argument")
    return open_lexicon(path, format, ruleset, progress=_note), args


def lexicon_options(f):
    """Options shared by the query commands."""
    f = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")(f)
    f = click.option("-r", "--ruleset", default="english", show_default=True,
                     help="Ruleset whose alphabet reads a plain word list.")(f)
    f = click.option("-f", "--format", "format_", default="dawg", show_default=True,
                     type=click.Choice(sorted(FORMATS)), help="Format to compile a plain word list into.")(f)
    f = click.option("-L", "--lexicon", "lexicon_opt", metavar="FILE",
                     help="Lexicon file or word list (else a leading FILE argument, else bundled ENABLE).")(f)
    return f


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lexc")
def cli() -> None:
    """lexc: compile word lists into lexicon formats for crossword games, and query them.

    A FILE argument may be a compiled lexicon, a plain word list (compiled in memory), or
    left out for the bundled ENABLE list.
    """


@cli.command()
@click.argument("wordlist", type=click.Path(dir_okay=False))
@click.option("-f", "--format", "format_", default="dawg", show_default=True,
              type=click.Choice([*sorted(FORMATS), "all"]),
              help="Format to build; 'all' builds every registered format.")
@click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset giving the alphabet.")
@click.option("-o", "--out", type=click.Path(), metavar="PATH",
              help="Output file [default: WORDLIST stem + .FORMAT in the current directory]. With -f all, a "
                   "directory (created if missing) that receives STEM.FORMAT for each format.")
@click.option("--min-len", default=2, show_default=True, type=click.IntRange(1), help="Shortest word kept.")
@click.option("--max-len", type=click.IntRange(1), help="Longest word kept.")
@click.option("--skip-invalid", is_flag=True, help="Leave out words with letters outside the alphabet.")
@click.option("--layout", type=click.Choice(["auto", "u32", "u64"]), default="auto", show_default=True,
              help="Edge layout of word-graph formats (ignored by formats without one).")
@click.option("--order", default="auto", show_default=True, metavar="ORDER",
              help="anatrie: canonical letter order: 1979, 1977, alpha, values (by tile values) or the "
                   "letters spelled out; auto is 1979 for A-Z, else values (ignored by other formats).")
@click.option("--disk", type=click.Choice(["pascal", "simula"]), default="pascal", show_default=True,
              help="anatrie: disk layout (pascal: fail subtries reachable directly; simula: forward only; "
                   "ignored by other formats).")
@click.option("--from", "source", type=click.Choice(["list", "kwg"]), default="list", show_default=True,
              help="What WORDLIST is: a plain word list, or a KWG file (wolges, Macondo, MAGPIE) whose words to read.")
@click.option("-v", "--verbose", is_flag=True, help="List rejected words.")
@click.option("--json", "as_json", is_flag=True, help="Print the build report as JSON (-f all: a list of them).")
def build(wordlist, format_, ruleset, out, min_len, max_len, skip_invalid, layout, order, disk, source, verbose, as_json):
    """Compile WORDLIST into a lexicon file, or with -f all into one file per format.

    Example: lexc build wordlists/enable1.txt -f dawg -o enable.dawg

    Example: lexc build wordlists/enable1.txt -f all -o lexicons/
    """
    list_options = {"min_len": min_len, "max_len": max_len, "skip_invalid": skip_invalid}
    chosen = {"layout": layout, "order": order, "disk": disk}
    if format_ == "all":
        with _stages(1 + 2 * len(FORMATS)) as progress:
            reports = compile_all(wordlist, ruleset, out, **list_options, options=chosen, progress=progress,
                                  source=source)
        if as_json:
            return emit(reports, True)
        lines = [f"{r['output']}: {r['format']}, {r['words']:,} words  nodes {r['nodes']:,}  edges {r['edges']:,}  "
                 f"bytes {r['file_bytes']:,}  seconds {r['seconds']:.2f}" for r in reports]
        if verbose:
            lines += _reject_lines(reports[0])
        return click.echo("\n".join(lines))
    if out is not None and os.path.isdir(out):
        raise click.BadParameter(f"{out} is a directory (a directory is only for -f all)",
                                 ctx=click.get_current_context(), param_hint="'-o'")
    options = {k: v for k, v in chosen.items() if k in FORMATS[format_].options}
    with _stages(3) as progress:
        report = compile_file(wordlist, format_, ruleset, out, **list_options, options=options, progress=progress,
                              source=source)
    if as_json:
        return emit(report, True)
    lines = [
        f"{report['output']}: {report['format']}, {report['words']:,} words "
        f"({report['duplicates']:,} duplicates dropped, {report['rejected']:,} rejected, "
        f"{report['too_short']:,} too short, {report['too_long']:,} too long)",
        f"  {report['longer_than_board']:,} words are longer than the {ruleset} board",
        f"  nodes {report['nodes']:,}  edges {report['edges']:,}  bytes {report['file_bytes']:,} "
        f"({report['bytes_per_word']} per word)  seconds {report['seconds']:.2f}",
    ]
    if verbose:
        lines += _reject_lines(report)
    click.echo("\n".join(lines))


def _reject_lines(report: dict[str, Any]) -> list[str]:
    """The --verbose lines listing a build's rejected words."""
    return [f"  rejected {r['line']}: {r['text']} ({r['reason']})" for r in report["rejected_words"]]


@cli.command()
@click.argument("source", metavar="IN", type=click.Path(dir_okay=False))
@click.option("-f", "--format", "format_", required=True, type=click.Choice(sorted(FORMATS)),
              help="Format to re-encode into.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Output file [default: IN stem + .FORMAT "
              "in the current directory].")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def convert(source, format_, out, as_json):
    """Re-encode the compiled lexicon IN into another format, keeping its words, alphabet,
    ruleset and word-list options (--min-len, --max-len, --skip-invalid).

    The words come out identical: the new file records the same word-list SHA-256.

    Example: lexc convert enable.dawg -f gaddag -o enable.gaddag
    """
    with _stages(3) as progress:
        report = convert_file(source, format_, out, progress=progress)
    if as_json:
        return emit(report, True)
    click.echo(f"{report['output']}: {report['format']} from {report['source']} ({report['source_format']}), "
               f"{report['words']:,} words  nodes {report['nodes']:,}  edges {report['edges']:,}  "
               f"bytes {report['file_bytes']:,}  seconds {report['seconds']:.2f}")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--add", multiple=True, metavar="WORD", help="Word to add; repeatable, or several comma-separated.")
@click.option("--remove", multiple=True, metavar="WORD", help="Word to remove; repeatable, or comma-separated.")
@click.option("--add-file", multiple=True, type=click.Path(dir_okay=False), metavar="PATH",
              help="Add the words of a word list (one a line, # comments); repeatable.")
@click.option("--remove-file", multiple=True, type=click.Path(dir_okay=False), metavar="PATH",
              help="Remove the words of a word list; repeatable.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Output file [default: FILE, replaced atomically].")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def edit(file, add, remove, add_file, remove_file, out, as_json):
    """Add and remove words in the compiled lexicon FILE, rebuilding it in the same format with
    the same ruleset and options (the result is byte-identical to building the edited list).

    Words are read with the file's alphabet (any case; multi-character tiles by longest
    match). A word outside the alphabet, or an added word outside the file's --min-len and
    --max-len, is an error and nothing is written. Adding a present word or removing an absent
    one is only reported. If nothing changes, FILE is left untouched.

    Example: lexc edit enable.dawg --add QI,ZA --remove ZAX -o edited.dawg
    """
    with _stages(3) as progress:
        report = edit_file(file, _words_given(add, add_file), _words_given(remove, remove_file), out,
                           progress=progress)
    if as_json:
        return emit(report, True)
    click.echo("\n".join(_edit_lines(report)))


def _words_given(values: tuple[str, ...], paths: tuple[str, ...]) -> list[str]:
    """The words of repeated options (each may hold several, comma- or space-separated) and
    of word-list files, in the order given."""
    words = [w for value in values for w in re.split(r"[,\s]+", value) if w]
    return words + [w for path in paths for w in word_lines(path)]


def _edit_lines(report: dict[str, Any]) -> list[str]:
    """The text report of ``lexc edit``."""
    counts = ", ".join(f"{len(report[k]):,} {k.replace('_', ' ')}"
                       for k in ("added", "already_present", "removed", "not_present"))
    lines = [f"{report['output']}: {report['format']}, {report['words_before']:,} -> "
             f"{report['words_after']:,} words ({counts})"]
    lines += [f"  {k.replace('_', ' ')}: {' '.join(report[k])}"
              for k in ("added", "already_present", "removed", "not_present") if report[k]]
    if not report["written"]:
        return lines + [f"  unchanged, not rewritten ({report['file_bytes']:,} bytes)"]
    return lines + [f"  nodes {report['nodes']:,}  edges {report['edges']:,}  bytes {report['file_bytes']:,}  "
                    f"seconds {report['seconds']:.2f}"]


@contextmanager
def _stages(length: int) -> Iterator[Any]:
    """One progress bar over ``length`` stages on a terminal (the callback is called at the
    start of each stage with its label); a no-op callback otherwise."""
    if not _on_terminal():
        yield None
        return
    with click.progressbar(length=length, label="reading", file=sys.stderr) as bar:
        state = {"n": 0}

        def progress(stage: str) -> None:
            bar.label = stage
            if state["n"]:
                bar.update(1)
            state["n"] += 1

        yield progress
        bar.update(1)


@cli.command()
@click.argument("file", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def info(file, as_json):
    """Show a lexicon's header and size figures (FILE defaults to bundled ENABLE).

    Example: lexc info enable.dawg --json
    """
    lexicon = open_lexicon(file, progress=_note)
    data = describe(lexicon, file)
    if as_json:
        return emit(data, True)
    keys = ["path", "format", "file_layout", "description", "words", "nodes", "edges", "bytes", "payload_bytes", "ruleset",
            "capabilities", "options", "wordlist_sha256", "payload_sha256", "lexc_version"]
    emit(data, False, "\n".join(f"{k:>16}: {data[k]}" for k in keys if data.get(k) is not None))


@cli.command(name="verify")
@click.argument("file", required=False)
@click.option("--against", type=click.Path(dir_okay=False), help="Word list the lexicon must hold exactly.")
@click.option("-r", "--ruleset", default=None, help="Ruleset to read --against with [default: the file's].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def verify_cmd(file, against, ruleset, as_json):
    """Check invariants, checksums and (with --against) the exact word set. Exit 1 on failure.

    Example: lexc verify enable.dawg --against wordlists/enable1.txt
    """
    lexicon = open_lexicon(file, progress=_note)
    words = None
    if against:
        words = read_list(against, ruleset or lexicon.ruleset or "english",
                          min_len=lexicon.build_options.get("min_len", 2),
                          max_len=lexicon.build_options.get("max_len"),
                          skip_invalid=lexicon.build_options.get("skip_invalid", False))
    result = verify(lexicon, words)
    emit(result, as_json, ("OK: " if result["ok"] else "FAILED: ") + (
        f"{result['words']:,} words, invariants hold" if result["ok"] else "; ".join(result["problems"])))
    if not result["ok"]:
        raise Negative


@cli.command()
@click.argument("file", required=False)
@click.option("-n", "--limit", type=click.IntRange(0), default=None, help="Show at most N rows.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def dump(file, limit, as_json):
    """Print a lexicon's low-level table, one row per edge (a prefix set: one per key).

    Example: lexc dump formats/golden/hook.gaddawg
    """
    lexicon = open_lexicon(file, progress=_note)
    rows = []
    for row in lexicon.dump_rows():
        if limit is not None and len(rows) >= limit:
            break
        rows.append(row)
    if as_json:
        return emit(rows, True)
    width = max([10] + [len(r["raw"]) for r in rows])
    click.echo(f"{'index':>8} {'raw':>{width}}  letter term last {'child':>8}  note")
    for r in rows:
        click.echo(f"{r['index']:>8} {r['raw']:>{width}}  {r['letter']:<6} {'T' if r['terminal'] else '.':<4} "
                   f"{'L' if r['last'] else '.':<4} {r['child']:>8}  {r['note']}".rstrip())


@cli.command()
@click.argument("args", nargs=-1, required=True, metavar="[FILE] WORD...")
@lexicon_options
def check(args, lexicon_opt, format_, ruleset, as_json):
    """Check words; exit 0 iff every word is valid.

    Example: lexc check QI ZA XU
    """
    lexicon, words = lexicon_arg(args, lexicon_opt, format_, ruleset)
    results = [{"word": w.upper(), "valid": w in lexicon} for w in words]
    emit(results, as_json, "\n".join(f"{r['word']}: {'valid' if r['valid'] else 'NOT valid'}" for r in results))
    if not all(r["valid"] for r in results):
        raise Negative


@cli.command()
@click.argument("args", nargs=-1, metavar="[FILE]")
@click.option("-p", "--prefix", default="", help="Only words starting with this.")
@click.option("--pattern", default=None, help="Pattern: ? one letter, * any run, [ABC], [^ABC].")
@click.option("-n", "--limit", type=click.IntRange(0), default=None, help="Show at most N words.")
@lexicon_options
def words(args, prefix, pattern, limit, lexicon_opt, format_, ruleset, as_json):
    """List words, all or by prefix or pattern; exit 1 if none.

    Example: lexc words --pattern 'QU?Z*'
    """
    lexicon, _ = lexicon_arg(args, lexicon_opt, format_, ruleset, min_rest=0)
    found = lexicon.pattern(pattern) if pattern else lexicon.words(prefix)
    if pattern and prefix:  # compared as tiles, not text: Spanish C is no prefix of CHICO
        start = lexicon.encode(prefix)
        found = [w for w in found if lexicon.encode(w).startswith(start)]
    shown = found if limit is None else found[:limit]
    emit(shown, as_json, "\n".join(shown))
    if not found:
        raise Negative


@cli.command()
@click.argument("args", nargs=-1, required=True, metavar="[FILE] RACK")
@click.option("--sub", is_flag=True, help="Also words using only part of the rack.")
@click.option("--stats", is_flag=True,
              help="Also report what the search read (anatrie: bytes and nodes of the file), on stderr "
                   "(with --json: {words, stats}).")
@lexicon_options
def anagram(args, sub, stats, lexicon_opt, format_, ruleset, as_json):
    """Anagrams of RACK (? is a blank; blank-made letters print in lower case); exit 1 if none.

    Example: lexc anagram RETAINS?  |  lexc anagram --sub QI?  |  lexc anagram enable.anatrie --stats RETAIN??
    """
    lexicon, (rack, *extra) = lexicon_arg(args, lexicon_opt, format_, ruleset)
    if extra:
        raise click.UsageError("give one RACK (put several tiles together, e.g. RETAINS?)")
    found = lexicon.anagrams(rack, sub=sub)
    read = dict(getattr(lexicon, "last_stats", {}) or {})
    if stats and as_json:
        emit({"words": found, "stats": read}, True)
    else:
        emit(found, as_json, "\n".join(found))
        if stats:
            click.echo(("stats: " + ", ".join(f"{k} {v:,}" for k, v in read.items())) if read
                       else f"stats: {lexicon.name} does not count what it reads", err=True)
    if not found:
        raise Negative


@cli.command()
@click.argument("args", nargs=-1, required=True, metavar="[FILE] WORD...")
@lexicon_options
def hooks(args, lexicon_opt, format_, ruleset, as_json):
    """Front and back hooks of words, and whether each word is valid.

    Example: lexc hooks CARE
    """
    lexicon, words = lexicon_arg(args, lexicon_opt, format_, ruleset)
    results = [lexicon.hooks(w).as_dict() for w in words]
    emit(results, as_json, "\n".join(
        f"{r['front'] or '-':>8} {r['word']}{'' if r['valid'] else ' (not a word)'} {r['back'] or '-'}"
        for r in results))


def position_options(f):
    """Options shared by the board commands."""
    f = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")(f)
    f = click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset: board, tiles, bingo.")(f)
    f = click.option("--rack", default=None, help="The rack (? a blank) [default: the CGP's rack to move].")(f)
    f = click.option("--board", "board_file", type=click.Path(dir_okay=False), metavar="FILE",
                     help="File holding a text picture of the board ('.' empty) or a CGP line.")(f)
    f = click.option("--cgp", default=None, help="The position as a CGP string.")(f)
    return f


def _position(cgp: str | None, board_file: str | None, rack: str | None, ruleset: str):
    """(ruleset, position, rack) from the board options: ``--rack`` as given (an explicit
    ``--rack ''`` is an empty rack), else the CGP's rack to move; neither is a usage error."""
    rules = load_ruleset(ruleset)
    position = read_position(rules, cgp, board_file)
    if rack is None:
        rack = position.rack
        if not rack:
            raise click.UsageError("no rack: give --rack (the CGP has none for the player to move)")
    return rules, position, rack


@cli.command()
@click.argument("lexfile", required=False)
@position_options
@click.option("--strategy", default="auto", show_default=True,
              help="naive, appel-jacobson, gordon, shapiro-smith, or auto (by the format's capabilities).")
@click.option("-n", "--top", type=click.IntRange(0), default=None, help="Show only the N best plays.")
@click.option("--batch", type=click.Path(dir_okay=False), metavar="FILE.jsonl",
              help='One position per line, {"cgp": ..., "rack": ...}: one JSON line out per position.')
def moves(lexfile, cgp, board_file, rack, ruleset, as_json, strategy, top, batch):
    """Every legal play for a position and rack, best first (score, then notation).

    Example: lexc moves enable.dawg --cgp '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0' -n 5
    """
    from .movegen import generate

    lexicon = open_lexicon(lexfile, "dawg", ruleset, progress=_note)
    if batch:
        rules = load_ruleset(ruleset)
        with open(batch, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                    position = read_position(rules, item["cgp"])
                    found = generate(position.board, item.get("rack") or position.rack, lexicon, strategy)
                except (ValueError, KeyError, TypeError) as exc:
                    raise PositionError(f"{batch}:{number}: {_one_line(exc)}") from None
                found = found[:top] if top is not None else found
                click.echo(json.dumps({"count": len(found), "moves": [{"move": m.notation, "score": m.score}
                                                                      for m in found]}))
        return
    rules, position, rack = _position(cgp, board_file, rack, ruleset)
    found = generate(position.board, rack, lexicon, strategy)
    shown = found[:top] if top is not None else found
    emit([{"move": m.notation, "score": m.score} for m in shown], as_json,
         "\n".join(f"{m.score:>4}  {m.notation}" for m in shown) or "no play")


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, required=True, metavar="[LEXFILE] PLAY")
@position_options
def judge(args, cgp, board_file, rack, ruleset, as_json):
    """Judge a play: legal or not (and why), the words it forms, its score. LEXFILE is a
    lexicon file or word list [default: bundled ENABLE]. PLAY is '8H WORD' (across) or
    'H8 WORD' (down) from the whole word's first square, an exchange '-ABC' or a pass '-'
    (GCG notation; put '--' before an exchange written in lower case).

    Exit status 1 for an illegal play. Example:
    lexc judge --cgp '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0' '8D RETAINS'
    """
    from .referee import judge as judge_play

    unknown = [a for a in args if a.startswith("--") and a != "--"]
    if unknown:
        raise click.UsageError(f"no such option: {unknown[0]}")
    if len(args) > 2:
        raise click.UsageError(f"expected [LEXFILE] PLAY, got {len(args)} arguments (quote a play: '8H WORD')")
    lexfile, play = (None, *args) if len(args) == 1 else args
    lexicon = open_lexicon(lexfile, "dawg", ruleset, progress=_note)
    rules, position, rack = _position(cgp, board_file, rack, ruleset)
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
    elif ruling.play.startswith("-"):
        text = (f"legal: {ruling.play} exchanges {ruling.tiles_played} tile{'s' * (ruling.tiles_played != 1)}, "
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


@cli.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("-l", "--lexicon", "lexfile", metavar="LEXFILE",
              help="Lexicon file or word list to judge the words [default: bundled ENABLE].")
@click.option("-a", "--all", "every_event", is_flag=True, help="Show every event, not only the problems.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def replay(game, lexfile, every_event, as_json):
    """Replay a GCG game through the referee: recorded and computed scores, words the
    lexicon lacks, score mismatches, broken rules (the bag's too: an exchange with too few
    tiles in the bag, a turn after the end, going out with tiles left). Exit status 0 iff no
    score mismatch and no broken rule.

    Example: lexc replay game.gcg -l enable.dawg
    """
    from .replay import replay as replay_game

    lexicon = open_lexicon(lexfile, "dawg", "english", progress=_note)
    report = replay_game(game, lexicon)
    emit(report.as_dict(), as_json, "\n".join(report.lines(every_event)))
    if not report.ok:
        raise Negative()


@cli.command()
@click.argument("lexfile", required=False)
@click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset: board, tiles, bingo.")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1), help="How many games.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the first game (game i uses SEED + i).")
@click.option("--strategy", default="auto", show_default=True,
              help="Move generator: naive, appel-jacobson, gordon, shapiro-smith, or auto.")
@click.option("--end-rule", type=click.Choice(["doubling", "add-and-subtract"]), default="doubling",
              show_default=True, help="End-rack points: NASPA's doubling or WESPA's add-and-subtract.")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write each game as DIR/selfplay-SEED.gcg.")
@click.option("--positions", "positions_out", type=click.Path(dir_okay=False), metavar="OUT.jsonl",
              help='Write every position met, {"game", "turn", "cgp", "rack"} per line.')
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def selfplay(lexfile, ruleset, games, seed, strategy, end_rule, out_dir, positions_out, as_json):
    """Greedy programs play complete games (a real bag, exchanges and passes, the standard end of
    game); every game's GCG record is replayed through the referee (exit 1 if a replay
    disagrees) and, with -o, written to DIR. The same seed gives the same games.

    Example: lexc selfplay enable.gaddawg --games 10 --seed 1 -o games --positions positions.jsonl
    """
    from .formats.container import write_atomic
    from .game import check_replay, selfplay as play_game

    lexicon = open_lexicon(lexfile, "gaddawg" if lexfile is None else "dawg", ruleset, progress=_note)
    name = Path(lexfile).stem if lexfile else "ENABLE"
    summaries, positions, failed = [], [], []
    bar = click.progressbar(length=games, label="self-play", file=sys.stderr) if _on_terminal() else None
    for i in range(games):
        result = play_game(lexicon, ruleset, seed + i, strategy, end_rule, lexicon_name=name)
        report = check_replay(result, lexicon)
        ok = result.agrees_with(report)
        path = None
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            path = os.path.join(out_dir, f"selfplay-{seed + i}.gcg")
            write_atomic(path, result.gcg.encode("utf-8"))
        positions += [{"game": seed + i, **p} for p in result.positions]
        summaries.append({"seed": seed + i, "players": list(result.players), "scores": list(result.scores),
                          "turns": result.turns, "end": result.end, "replay_ok": ok, "gcg": path})
        if not ok:
            failed.append(seed + i)
        if bar:
            bar.update(1)
    if bar:
        bar.render_finish()
    if positions_out:
        write_atomic(positions_out, "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in positions).encode("utf-8"))
    emit(summaries, as_json, "\n".join(
        f"seed {g['seed']}: {g['players'][0]} {g['scores'][0]}, {g['players'][1]} {g['scores'][1]}; "
        f"{g['turns']} turns, ended {g['end']}; replay {'ok' if g['replay_ok'] else 'DISAGREES'}"
        + (f" -> {g['gcg']}" if g["gcg"] else "") for g in summaries))
    if failed:
        click.echo(f"lexc: error: the replay of game(s) {', '.join(map(str, failed))} disagrees with the game", err=True)
        raise Negative()


@cli.command()
@click.argument("lexfile", required=False)
@click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset: board, tiles, bingo.")
@click.option("--seed", type=int, default=None, help="Seed of the deal [default: a random one, printed].")
@click.option("--strategy", default="auto", show_default=True,
              help="The program's move generator: naive, appel-jacobson, gordon, shapiro-smith, or auto.")
@click.option("--level", type=click.Choice(["greedy", "beginner"]), default="greedy", show_default=True,
              help="greedy: the program's best-scoring play; beginner: the middle of its ranking.")
@click.option("--name", default="you", show_default=True, help="Your nickname in the game record (no spaces).")
@click.option("--end-rule", type=click.Choice(["doubling", "add-and-subtract"]), default="doubling",
              show_default=True, help="End-rack points: NASPA's doubling or WESPA's add-and-subtract.")
@click.option("--save", type=click.Path(dir_okay=False), metavar="FILE.gcg",
              help="Where the game is saved as GCG [default: lexc-game-SEED.gcg].")
@click.option("--watch", is_flag=True, help="Watch two programs play (the same game loop).")
@click.option("--color/--no-color", default=None, help="Colour the board [default: on a colour terminal].")
@click.option("--json", "as_json", is_flag=True, help="The game's summary as JSON at the end (the game on stderr).")
def play(lexfile, ruleset, seed, strategy, level, name, end_rule, save, watch, color, as_json):
    """Play a game against lexc in the terminal: type plays as 8H WORD (across) or H8 WORD
    (down), or pass, exchange TILES, check, anagram, hooks, add, score, board, help, quit.

    Example: lexc play enable.gaddawg --seed 7
    """
    import random as _random

    from .formats.container import write_atomic
    from .game import GameManager
    from .interactive import Console, HumanPlayer, Session, play_game, save_record
    from .players import ProgramPlayer

    if not name or name.split() != [name] or ":" in name or name == "lexc":
        raise click.BadParameter("a nickname without spaces or ':', other than 'lexc'", param_hint="--name")
    rules = load_ruleset(ruleset)
    lexicon = open_lexicon(lexfile, "gaddawg" if lexfile is None else "dawg", ruleset, progress=_note)
    if seed is None:
        seed = _random.SystemRandom().randrange(1_000_000)
    out = sys.stderr if as_json else sys.stdout
    tty = out.isatty()
    color = (tty and "NO_COLOR" not in os.environ) if color is None else color

    def say(text: str) -> None:
        click.echo(text, file=out, color=color)

    def ask(prompt: str) -> str | None:
        click.echo(prompt, nl=False, file=out)
        line = sys.stdin.readline()
        if not line:
            click.echo(file=out)
            return None
        return line.rstrip("\r\n")

    session = Session(Console(ask, say, color), lexicon)
    program = ProgramPlayer(lexicon, strategy, "lexc", f"lexc {level} player", level=level)
    other = (ProgramPlayer(lexicon, strategy, "lexc2", f"lexc {level} player 2", level=level) if watch
             else HumanPlayer(session, name, "human player"))
    name_tag = Path(lexfile).stem if lexfile else "ENABLE"
    manager = GameManager(rules, [other, program], lexicon, seed, end_rule, name_tag,
                          f"lexc play: seed {seed}, strategy {strategy}, level {level}, end rule {end_rule}")
    say(f"lexc play: seed {seed} (the same seed deals the same game), {rules.name} rules, lexicon {name_tag}; "
        "type help for the commands")
    end = play_game(manager, session)
    path = save or f"lexc-game-{seed}.gcg"
    write_atomic(path, save_record(manager).encode("utf-8"))
    say(f"saved to {path} (lexc replay {path})")
    if as_json:
        emit({"seed": seed, "players": [p.nick for p in manager.players], "scores": list(manager.scores),
              "end": end, "turns": manager.turns, "added": session.added, "gcg": path}, True)


@cli.command(name="formats")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def formats_cmd(as_json):
    """List the registered lexicon formats and their capabilities."""
    data = [{"name": cls.name, "version": cls.version, "description": cls.description,
             "capabilities": cls.capabilities.names(), "options": cls.options} for cls in FORMATS.values()]
    width = max(len(d["name"]) for d in data)
    emit(data, as_json, "\n".join(f"{d['name']:<{width}}  v{d['version']}  {d['description']}\n"
                                  f"{'':<{width + 2}}capabilities: {', '.join(d['capabilities']) or '-'}"
                                  for d in data))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def rulesets(as_json):
    """List the bundled rulesets (alphabet, tiles, board)."""
    data = [load_ruleset(name).summary() for name in available()]
    emit(data, as_json, "\n".join(
        f"{d['name']:<10} {d['description']}\n{'':<11}{len(d['letters'])} letters, {d['tile_total']} tiles, "
        f"rack {d['rack_size']}, bingo {d['bingo_bonus']}, {d['board_size']}x{d['board_size']} board, "
        f"start {d['start']}" for d in data))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("--to", "target", type=click.Choice(["kwg"]), required=True, help="The file layout to write.")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False), metavar="OUT.kwg", help="Output file.")
@click.option("-r", "--ruleset", default="english", show_default=True, help="Alphabet when FILE is a plain word list.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def export(file, target, out, ruleset, as_json):
    """Write a lexicon (any format, or a plain word list) in another engine's layout: a KWG
    file (wolges, Macondo, MAGPIE: DAWG and GADDAG in one array of 32-bit edges), written
    atomically. `lexc build --from kwg` reads one back.

    Example: lexc export enable.dawg --to kwg -o enable.kwg
    """
    from .formats.container import write_atomic
    from .kwg import export_kwg

    lexicon = open_lexicon(file, "gaddawg", ruleset, progress=_note)  # a plain list compiles straight to KWG's graph
    data = export_kwg(lexicon)
    write_atomic(out, data)
    report = {"output": out, "to": target, "words": len(lexicon), "edges": len(data) // 4, "file_bytes": len(data)}
    emit(report, as_json, f"{out}: kwg, {report['words']:,} words  edges {report['edges']:,}  bytes {len(data):,}")


@cli.command()
@click.argument("a", type=click.Path(dir_okay=False, exists=True))
@click.argument("b", type=click.Path(dir_okay=False, exists=True))
@click.option("-r", "--ruleset", default="english", show_default=True,
              help="Alphabet for a side that is a plain word list.")
@click.option("--limit", type=click.IntRange(0), metavar="N", help="List at most N words of each side (counts stay exact).")
@click.option("--counts", "counts_only", is_flag=True, help="Counts only, no word lists.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def diff(a, b, ruleset, limit, counts_only, as_json):
    """Words only in A, only in B, and the counts. A and B may be compiled lexicons of any
    format or plain word lists; they are compared in the alphabet's order, by streaming
    merge. Exit status 0 when they hold the same words, 1 when they differ.

    Example: lexc diff old.dawg new-list.txt --limit 50
    """
    from .lexdiff import diff_lexicons

    result = diff_lexicons(read_words(a, ruleset), read_words(b, ruleset), limit=0 if counts_only else limit)
    data = {"a": a, "b": b, **result.as_dict()}
    lines = [f"{a}: {result.count_a:,} words; {b}: {result.count_b:,} words; {result.common:,} in both",
             f"only in {a}: {result.only_a_count:,}", f"only in {b}: {result.only_b_count:,}"]
    if not counts_only:
        for side, words, count in ((a, result.only_a, result.only_a_count), (b, result.only_b, result.only_b_count)):
            if words:
                more = f" (first {len(words):,} of {count:,})" if len(words) < count else ""
                lines.append(f"\nonly in {side}{more}:\n" + "\n".join(f"  {w}" for w in words))
    emit(data, as_json, "\n".join(lines))
    if not result.identical:
        raise Negative()


@cli.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, exists=True))
@click.option("-r", "--ruleset", help="Ruleset to measure against (default: the lexicon's own, else english).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def stats(file, ruleset, as_json):
    """Length histogram, letter frequencies and how many words fit the board, a rack, a bingo
    and the bag, for a compiled lexicon or a plain word list (default: the bundled ENABLE).

    Example: lexc stats enable.dawg; lexc stats palabras.txt -r spanish --json
    """
    from .lexstats import format_stats, lexicon_stats
    from .source import bundled_wordlist

    words = read_words(file, ruleset or "english") if file else read_list(bundled_wordlist(), ruleset or "english")
    own = getattr(words, "ruleset", None) if file else None
    result = lexicon_stats(words, ruleset or own or "english")
    emit(result, as_json, format_stats(result).rstrip("\n"))


@cli.command()
@click.option("-n", "--words", "count", default=3_000_000, show_default=True, type=click.IntRange(1),
              help="How many distinct words.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), metavar="PATH",
              help="Output word list [default: synth-<N>.txt].")
@click.option("--seed", default=1, show_default=True, type=int, help="Random seed: the same seed, the same list.")
@click.option("--order", default=4, show_default=True, type=click.IntRange(1),
              help="Letters of context the chain looks back on (lower: fewer real words, more variety).")
@click.option("--min-len", default=2, show_default=True, type=click.IntRange(1), help="Shortest word.")
@click.option("--max-len", default=15, show_default=True, type=click.IntRange(1), help="Longest word.")
@click.option("--train", type=click.Path(dir_okay=False, exists=True), metavar="LIST",
              help="Word list the chain learns from [default: the bundled ENABLE].")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def synth(count, out, seed, order, min_len, max_len, train, as_json):
    """Write a synthetic word list of N distinct words, far bigger than any real lexicon, for
    testing and measuring the formats at scale. Words come from a letter Markov chain trained
    on a real list: English-like beginnings, endings and lengths, mostly not English. The same
    options give the same file.

    Example: lexc synth -n 3000000 -o big.txt && lexc build big.txt -f all -o big/
    """
    from .synth import synth_file

    out = out or f"synth-{count}.txt"
    bar = click.progressbar(length=count, label="drawing words", file=sys.stderr) if _on_terminal() else None
    with bar if bar is not None else nullcontext():
        report = synth_file(out, count, seed=seed, order=order, min_len=min_len, max_len=max_len, training=train,
                            progress=None if bar is None else lambda done, _: bar.update(done - bar.pos))
    emit(report, as_json, f"{report['output']}: {report['words']:,} words of {min_len}-{max_len} letters "
                          f"({report['letters_per_word']} on average), {report['bytes']:,} bytes, "
                          f"order-{order} chain on {report['training']}, seed {seed}  seconds {report['seconds']:.2f}")


@cli.command()
@click.argument("wordlist", required=False, type=click.Path(dir_okay=False, exists=True))
@click.option("--formats", "formats_", metavar="F1,F2", help="Only these formats (default: every registered one).")
@click.option("--positions", type=click.Path(dir_okay=False, exists=True), metavar="FILE.jsonl",
              help='Move-generation positions, {"cgp": ..., "rack": ...} per line (default: the built-in 100).')
@click.option("--repeat", default=5, show_default=True, type=click.IntRange(1), help="Runs per figure (median, min, max).")
@click.option("--movegen-repeat", type=click.IntRange(1), metavar="N", help="Runs per move-generation figure (default: --repeat).")
@click.option("--budget", default=10.0, show_default=True, type=click.FloatRange(0.1),
              help="Seconds a move generator may spend on its first run over the positions (a slower one is "
                   "timed on the positions done by then).")
@click.option("--movegen/--no-movegen", default=True, show_default=True, help="Measure move generation.")
@click.option("--papers/--no-papers", default=True, show_default=True,
              help="Measure the papers' claims again (extra builds: the anagram trie in five orders, short words).")
@click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset of the list and positions.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Also write DIR/bench.md, DIR/bench.json and two SVG charts.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def bench(wordlist, formats_, positions, repeat, movegen_repeat, budget, movegen, papers, ruleset, out_dir, as_json):
    """Measure every format side by side: build time, file bytes, nodes and edges, load time,
    peak memory, the time of every query kind, move generation per strategy, beside a plain
    Python set and marisa-trie; then the papers' claims measured again. Each structure is
    measured in its own fresh processes (default list: the bundled ENABLE).

    Examples: lexc bench --repeat 7 --out bench-results; lexc bench words.txt --formats dawg,gaddag --no-movegen
    """
    from .bench import run_bench
    from .benchreport import format_report, write_out

    names = [f.strip() for f in formats_.split(",") if f.strip()] if formats_ else list(FORMATS)
    unknown = [f for f in names if f not in FORMATS]
    if unknown:
        raise click.BadParameter(f"unknown format {unknown[0]!r} (known: {', '.join(FORMATS)})", param_hint="--formats")
    load_ruleset(ruleset)
    with _status_line() as show:
        result = run_bench(wordlist, names, positions, repeat=repeat, movegen=movegen, movegen_repeat=movegen_repeat,
                           budget_s=budget, ruleset=ruleset, papers=papers, progress=show)
    if out_dir:
        for path in write_out(result, out_dir):
            _note(f"wrote {path}")
    emit(result, as_json, format_report(result).rstrip("\n"))
    if result["disagreements"]:  # a bug in some structure: make it fail loudly (make bench, make biglist)
        raise BenchError(f"{len(result['disagreements'])} disagreement(s) between the structures (listed above)")


@contextmanager
def _status_line():
    """A one-line progress display on a terminal (``[step/total] message``), cleared at the end."""
    width = shutil.get_terminal_size((80, 20)).columns - 1
    shown = False

    def show(step: int, total: int, message: str) -> None:
        nonlocal shown
        if _on_terminal():
            click.echo("\r" + f"[{step}/{total}] {message}"[:width].ljust(width), err=True, nl=False)
            shown = True

    try:
        yield show
    finally:
        if shown:
            click.echo("\r" + " " * width + "\r", err=True, nl=False)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning user errors into one line and exit status 2."""
    try:
        cli.main(args=argv, prog_name="lexc", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        command = exc.ctx.command_path if exc.ctx else "lexc"
        click.echo(f"lexc: error: {_one_line(exc)} (see '{command} --help')", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"lexc: error: {_one_line(exc)}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("lexc: aborted", err=True)
        sys.exit(130)
    except Negative:
        sys.exit(1)
    except USER_ERRORS as exc:
        click.echo(f"lexc: error: {_one_line(exc)}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("lexc: interrupted", err=True)
        sys.exit(130)
    sys.exit(0)


def _one_line(exc: BaseException) -> str:
    """An exception as one line (OSError gets its file name; click's errors name the option)."""
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror}"
    text = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
    return " ".join(text.split()) or type(exc).__name__
