"""Commands that make lexicon files: build, convert, edit, export (an engine's file or data
folder), synth.

Each is a thin wrapper over ``lexc.lexicons`` (compile, edit, folders, synth)."""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from typing import Any, cast

import click

from ..formats import FORMATS
from ..formats.foreign import FOREIGN, get_foreign
from ..limits import MAX_SEED, MAX_SYNTH_WORDS, MAX_WORD_TILES
from ..plural import is_are, plural
from . import common
from .common import Bounded, emit, max_words_option, note, stages

LEAVE_FORMATS = ("klv2", "klv", "klv16", "leaves-csv", "superleaves")  # (formats.leaves.LEAVE_FORMATS, unimported)


@click.command()
@click.argument("wordlist", type=click.Path(dir_okay=False))
@click.option("-f", "--format", "format_", default="dawg", show_default=True,
              type=click.Choice([*sorted(FORMATS), "all"]),
              help="Format to build; 'all' builds every registered format.")
@click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset giving the alphabet.")
@click.option("-o", "--out", type=click.Path(), metavar="PATH",
              help="Output file [default: WORDLIST stem + .FORMAT in the current directory]. With -f all, a "
                   "directory (created if missing) that receives STEM.FORMAT for each format.")
@click.option("--min-len", default=2, show_default=True, type=Bounded(1, MAX_WORD_TILES), help="Shortest word kept.")
@click.option("--max-len", type=Bounded(1, MAX_WORD_TILES), help="Longest word kept.")
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
@max_words_option
@click.option("-v", "--verbose", is_flag=True, help="List rejected words.")
@click.option("--json", "as_json", is_flag=True, help="Print the build report as JSON (-f all: a list of them).")
def build(wordlist: str, format_: str, ruleset: str, out: str | None, min_len: int, max_len: int | None,
          skip_invalid: bool, layout: str, order: str, disk: str, source: str, max_words: int, verbose: bool,
          as_json: bool) -> None:
    """Compile WORDLIST into a lexicon file, or with -f all into one file per format.

    Example: lexc build wordlists/enable1.txt -f dawg -o enable.dawg

    Example: lexc build wordlists/enable1.txt -f all -o lexicons/
    """
    from ..lexicons.compile import compile_all, compile_file

    list_options: dict[str, Any] = {"min_len": min_len, "max_len": max_len, "skip_invalid": skip_invalid}
    chosen = {"layout": layout, "order": order, "disk": disk}
    if format_ == "all":
        with stages(1 + 2 * len(FORMATS)) as progress:
            reports = compile_all(wordlist, ruleset, out, **list_options, options=chosen, progress=progress,
                                  source=source, max_words=max_words)
        if as_json:
            return emit(reports, True)
        # the list is read once: what it held is said once, as a single build says it, then a line a format
        lines = _list_lines(reports[0], ruleset, f"{wordlist}: ") + [
            f"{r['output']}: {r['format']}, {plural(r['words'], 'word')}  nodes {r['nodes']:,}  edges {r['edges']:,}  "
            f"bytes {r['file_bytes']:,}  seconds {r['seconds']:.2f}" for r in reports]
        if verbose:
            lines += _reject_lines(reports[0])
        return click.echo("\n".join(lines))
    if out is not None and os.path.isdir(out):
        raise click.BadParameter(f"{out} is a directory (a directory is only for -f all)",
                                 ctx=click.get_current_context(), param_hint="'-o'")
    options = {k: v for k, v in chosen.items() if k in FORMATS[format_].options}
    with stages(3) as progress:
        report = compile_file(wordlist, format_, ruleset, out, **list_options, options=options, progress=progress,
                              source=source, max_words=max_words)
    if as_json:
        return emit(report, True)
    lines = [
        *_list_lines(report, ruleset, f"{report['output']}: {report['format']}, "),
        f"  nodes {report['nodes']:,}  edges {report['edges']:,}  bytes {report['file_bytes']:,} "
        f"({report['bytes_per_word']} per word)  seconds {report['seconds']:.2f}",
    ]
    if verbose:
        lines += _reject_lines(report)
    click.echo("\n".join(lines))


def _list_lines(report: dict[str, Any], ruleset: str, head: str) -> list[str]:
    """What a build read from its word list: the words kept, the duplicates, rejected, too
    short and too long lines, and the words longer than the board."""
    longer = report["longer_than_board"]
    return [f"{head}{plural(report['words'], 'word')} ({plural(report['duplicates'], 'duplicate')} dropped, "
            f"{report['rejected']:,} rejected, {report['too_short']:,} too short, {report['too_long']:,} too long)",
            f"  {plural(longer, 'word')} {is_are(longer)} longer than the {ruleset} board"]


def _engine_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """``-O NAME=VALUE`` pairs as a dict (a usage error for one without ``=``)."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.UsageError(f"-O/--option takes NAME=VALUE, not {pair!r}")
        options[key.strip()] = value
    return options


option_option = click.option(
    "-O", "--option", "options", multiple=True, metavar="NAME=VALUE",
    help="An option of the engine's format (repeatable): Macondo's name=, Lexpert's title= and date=, a KWG's "
         "like=magpie (MAGPIE's bytes) or like=lexc (lexc's own layout) (lexc formats --json lists them) "
         "[default: name and title: OUT's name; like=wolges].")


def _reject_lines(report: dict[str, Any]) -> list[str]:
    """The --verbose lines listing a build's rejected words."""
    return [f"  rejected {r['line']}: {r['text']} ({r['reason']})" for r in report["rejected_words"]]


@click.command()
@click.argument("source", metavar="IN", type=click.Path(dir_okay=False))
@click.argument("target", metavar="[OUT]", required=False, type=click.Path(dir_okay=False))
@click.option("-f", "--format", "--to", "format_", metavar="FORMAT",
              help="Format to write: a lexc format (lexc formats) or another engine's (kwg, ...) [default: the "
                   "one OUT's extension names].")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Output file, as OUT [default: IN stem + "
              ".FORMAT in the current directory].")
@max_words_option
@option_option
@click.option("-r", "--ruleset", default="english", show_default=True, metavar="RULESET",
              help="The ruleset giving the tiles of a file that records none: another engine's lexicon or "
                   "leave file (a lexc file keeps its own).")
@click.option("--like", type=click.Choice(["wolges", "magpie"]), default="wolges", show_default=True,
              help="Write as that engine's writer does: a KWG in its node order (as -O like=ENGINE), a leave "
                   "file (magpie: a KLV2 of every leave the bag can hold, in MAGPIE's node order; a CSV as its "
                   "klv2csv).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def convert(source: str, target: str | None, format_: str | None, out: str | None, max_words: int,
            options: tuple[str, ...], ruleset: str, like: str, as_json: bool) -> None:
    """Re-encode the lexicon IN (a lexc file, or another engine's file: a KWG, ...) into
    another format, keeping its words, alphabet and ruleset. The format is --to's, or the one
    OUT's extension names (one that fits several, such as .dawg, needs --to).

    Into a lexc format the word-list options (--min-len, --max-len, --skip-invalid) are kept
    and the words come out identical (the new file records the same word-list SHA-256); into
    an engine's format the tiles are mapped by label (lexc export does the same from a word
    list).

    Leave-value files convert the same way (KLV2, KLV, KLV16, the LEAVE,VALUE CSV,
    superleaves: lexc leaves reads them); a coarser format warns once with the largest
    rounding error.

    Example: lexc convert enable.dawg enable.gaddawg; lexc convert enable.dawg enable.kwg; lexc convert
    TWL06.csv TWL06.klv2
    """
    from ..lexicons.edit import convert_file, export_file, target_format

    if target is not None and out is not None and target != out:
        raise click.UsageError("give the output file once: OUT or -o OUT")
    out = out if out is not None else target
    chosen = target_format(out, format_)
    if chosen in LEAVE_FORMATS:
        if out is None:
            raise click.UsageError(f"say where to write the {chosen} file: OUT or -o OUT")
        from ..formats.leaves import convert_leaves
        from ..ruleset import load_ruleset

        report = convert_leaves(source, out, chosen, load_ruleset(ruleset), like="magpie" if like == "magpie" else "",
                                warn=lambda line: click.echo(f"lexc convert: warning: {line}", err=True))
        return emit(report, as_json, f"{report['output']}: {report['to']} from {report['from']}, "
                                     f"{plural(report['leaves'], 'leave')}  bytes {report['file_bytes']:,}")
    if chosen in FOREIGN:
        if out is None:
            raise click.UsageError(f"say where to write the {chosen} file: OUT or -o OUT")
        chosen_options = _engine_options(options)
        if like != "wolges" and "like" in get_foreign(chosen).write_options:
            chosen_options.setdefault("like", like)
        report = export_file(source, chosen, out, ruleset, max_words=max_words, progress=note, options=chosen_options)
        return emit(report, as_json, f"{report['output']}: {report['to']}, {plural(report['words'], 'word')}  "
                                     f"bytes {report['file_bytes']:,}")
    if options:
        raise click.UsageError(f"-O/--option sets an engine format's field; {chosen} is lexc's own format")
    with stages(3) as progress:
        report = convert_file(source, chosen, out, progress=progress, max_words=max_words, ruleset=ruleset)
    if as_json:
        return emit(report, True)
    click.echo(f"{report['output']}: {report['format']} from {report['source']} ({report['source_format']}), "
               f"{plural(report['words'], 'word')}  nodes {report['nodes']:,}  edges {report['edges']:,}  "
               f"bytes {report['file_bytes']:,}  seconds {report['seconds']:.2f}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--add", multiple=True, metavar="WORD", help="Word to add; repeatable, or several comma-separated.")
@click.option("--remove", multiple=True, metavar="WORD", help="Word to remove; repeatable, or comma-separated.")
@click.option("--add-file", multiple=True, type=click.Path(dir_okay=False), metavar="PATH",
              help="Add the words of a word list (one a line, # comments); repeatable.")
@click.option("--remove-file", multiple=True, type=click.Path(dir_okay=False), metavar="PATH",
              help="Remove the words of a word list; repeatable.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="Output file [default: FILE, replaced atomically].")
@max_words_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def edit(file: str, add: tuple[str, ...], remove: tuple[str, ...], add_file: tuple[str, ...],
         remove_file: tuple[str, ...], out: str | None, max_words: int, as_json: bool) -> None:
    """Add and remove words in the compiled lexicon FILE, rebuilding it in the same format with
    the same ruleset and options (the result is byte-identical to building the edited list).

    Words are read with the file's alphabet (any case; multi-character tiles by longest
    match). A word outside the alphabet, or an added word outside the file's --min-len and
    --max-len, is an error and nothing is written. Adding a present word or removing an absent
    one is only reported. If nothing changes, FILE is left untouched.

    Example: lexc edit enable.dawg --add QI,ZA --remove ZAX -o edited.dawg
    """
    from ..lexicons.edit import edit_file

    with stages(3) as progress:
        report = edit_file(file, _words_given(add, add_file), _words_given(remove, remove_file), out,
                           progress=progress, max_words=max_words)
    if as_json:
        return emit(report, True)
    click.echo("\n".join(_edit_lines(report)))


def _words_given(values: tuple[str, ...], paths: tuple[str, ...]) -> list[str]:
    """The words of repeated options (each may hold several, comma-separated; spaces around
    a comma are ignored, a space inside a word is kept and refused like any character outside
    the alphabet) and of word-list files, in the order given."""
    from ..wordlist import word_lines

    words = [w.strip() for value in values for w in value.split(",") if w.strip()]
    return words + [w for path in paths for w in word_lines(path)]


def _edit_lines(report: dict[str, Any]) -> list[str]:
    """The text report of ``lexc edit``."""
    counts = ", ".join(f"{len(report[k]):,} {k.replace('_', ' ')}"
                       for k in ("added", "already_present", "removed", "not_present"))
    lines = [f"{report['output']}: {report['format']}, {report['words_before']:,} -> "
             f"{plural(report['words_after'], 'word')} ({counts})"]
    lines += [f"  {k.replace('_', ' ')}: {' '.join(report[k])}"
              for k in ("added", "already_present", "removed", "not_present") if report[k]]
    if not report["written"]:
        return [*lines, f"  unchanged, not rewritten ({plural(report['file_bytes'], 'byte')})"]
    return [*lines, f"  nodes {report['nodes']:,}  edges {report['edges']:,}  bytes {report['file_bytes']:,}  "
                    f"seconds {report['seconds']:.2f}"]


FOLDERS = ("magpie", "quackle", "wolges")  # (lexicons.folders.ENGINES, unimported)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.argument("target_out", metavar="[OUT]", required=False, type=click.Path())
@click.option("--to", "target", type=click.Choice([*FOREIGN, *FOLDERS]), required=True,
              help="The engine's file format to write (lexc formats lists them), or an engine's data folder: "
                   "magpie, quackle or wolges.")
@click.option("-o", "--out", type=click.Path(), metavar="OUT",
              help="Output file (a folder for --to magpie, quackle or wolges), as OUT.")
@click.option("-r", "--ruleset", default="english", show_default=True, help="Alphabet when FILE is a plain word list.")
@click.option("--keep-order", is_flag=True,
              help="Write a plain word list's words in the list's own order, for a format whose engine writes "
                   "another file for another order (quackle-dawg: its lists keep the order letters first come).")
@click.option("--leaves", "leaves_file", type=click.Path(dir_okay=False, exists=True), metavar="LEAVES",
              help="A data folder's leave values (any file lexc leaves reads): MAGPIE's KLV2, Quackle's "
                   "superleaves, wolges's KLV2.")
@click.option("--name", metavar="NAME", help="A data folder's lexicon name [default: FILE's stem; for magpie "
                                             "prefixed as MAGPIE needs to find its letter distribution].")
@max_words_option
@option_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def export(file: str, target_out: str | None, target: str, out: str | None, ruleset: str, keep_order: bool,
           leaves_file: str | None, name: str | None, max_words: int, options: tuple[str, ...],
           as_json: bool) -> None:
    """Write a lexicon (any format, or a plain word list) as another engine's file, written
    atomically, its tiles mapped by label to the engine's: a KWG (wolges, Macondo, MAGPIE:
    DAWG and GADDAG in one array of 32-bit edges), wolges's KBWG, DAWG-only KWG and KAD,
    Lexpert's .lxd, Macondo's legacy .dawg and .gaddag, ... (lexc formats lists them).
    Each is the file the engine's own writer makes from the same words, byte for byte (a
    KWG: wolges's; -O like=magpie: MAGPIE's). A word the format cannot hold is refused,
    naming it. Every command reads the engines' files back (`lexc build --from kwg` too).

    With --to magpie, quackle or wolges, OUT is the engine's data folder, written whole (into
    an existing folder, file by file), so that the engine loads it as it is
    (formats/folders.md): magpie: lexica/NAME.kwg, the leaves of --leaves as
    lexica/LEAVES.klv2, letterdistributions/RULESET.csv, layouts/standard15.txt (magpie -path
    OUT); quackle: lexica/NAME.dawg and NAME.gaddag, alphabets/RULESET.quackle_alphabet, the
    leaves as strategy/NAME/superleaves (test --lexicon=NAME --alphabet=RULESET); wolges:
    NAME.kwg and the leaves as NAME.klv2.

    Example: lexc export enable.dawg --to lxd -o ENABLE.lxd -O date="26 November 2026"; lexc export
    enable.dawg --to magpie data --leaves TWL06.csv; lexc export enable.dawg --to quackle data --leaves
    TWL06.csv
    """
    from ..lexicons.edit import export_file

    if target_out is not None and out is not None and target_out != out:
        raise click.UsageError("give the output once: OUT or -o OUT")
    out = out if out is not None else target_out
    if out is None:
        raise click.UsageError(f"say where to write the {target} {'folder' if target in FOLDERS else 'file'}: "
                               "OUT or -o OUT")
    if target not in FOLDERS and (leaves_file is not None or name is not None):
        raise click.UsageError(f"--leaves and --name are for a data folder: --to {', '.join(FOLDERS)}")
    if target in FOLDERS:
        return _export_folder(file, target, out, ruleset, leaves_file, name, max_words, keep_order or bool(options),
                              as_json)
    report = export_file(file, target, out, ruleset, max_words, progress=note, keep_order=keep_order,
                         options=_engine_options(options))
    if target in ("kwg", "kbwg", "kwg-dawg", "kad"):  # (headerless arrays of four-byte entries)
        report["edges"] = report["file_bytes"] // 4
    emit(report, as_json, f"{out}: {target}, {plural(report['words'], 'word')}"
                          + (f"  edges {report['edges']:,}" if "edges" in report else "")
                          + f"  bytes {report['file_bytes']:,}")


ENGINE_NAMES = {"magpie": "MAGPIE", "quackle": "Quackle", "wolges": "wolges"}


def _export_folder(file: str, target: str, out: str, ruleset: str, leaves_file: str | None, name: str | None,
                   max_words: int, file_options: bool, as_json: bool) -> None:
    """``lexc export --to magpie|quackle|wolges``: the folder, and how to load it."""
    from ..lexicons.folders import export_folder

    if file_options:
        raise click.UsageError(f"--keep-order and -O/--option are for an engine's file, not --to {target}")
    report = export_folder(target, file, out, ruleset, leaves_file, name, max_words, progress=note,
                           warn=lambda line: click.echo(f"lexc export: warning: {line}", err=True))
    files = "  ".join(f"{rel} {size:,}" for rel, size in report["files"].items())
    lines = [f"{out}: {ENGINE_NAMES[target]} data folder, {plural(report['words'], 'word')}: {files}"]
    if report.get("kept"):
        lines.append(f"  kept {', '.join(report['kept'])} (the same letters in the same order)")
    if report["command"]:
        lines.append(f"  load it with: {report['command']}" + (f" ({report['how']})" if report.get("how") else ""))
    elif report.get("how"):
        lines.append(f"  {report['how']}")
    emit(report, as_json, "\n".join(lines))


@click.command()
@click.option("-n", "--words", "count", default=3_000_000, show_default=True, type=Bounded(1, MAX_SYNTH_WORDS),
              help="How many distinct words.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), metavar="PATH",
              help="Output word list [default: synth-<N>.txt].")
@click.option("--seed", default=1, show_default=True, type=Bounded(0, MAX_SEED),
              help="Random seed: the same seed, the same list.")
@click.option("--order", default=4, show_default=True, type=Bounded(1, MAX_WORD_TILES),
              help="Letters of context the chain looks back on (lower: fewer real words, more variety).")
@click.option("--min-len", default=2, show_default=True, type=Bounded(1, MAX_WORD_TILES), help="Shortest word.")
@click.option("--max-len", default=15, show_default=True, type=Bounded(1, MAX_WORD_TILES), help="Longest word.")
@click.option("--train", type=click.Path(dir_okay=False, exists=True), metavar="LIST",
              help="Word list the chain learns from [default: the bundled ENABLE].")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def synth(count: int, out: str | None, seed: int, order: int, min_len: int, max_len: int, train: str | None,
          as_json: bool) -> None:
    """Write a synthetic word list of N distinct words, far bigger than any real lexicon, for
    testing and measuring the formats at scale. Words come from a letter Markov chain trained
    on a real list: English-like beginnings, endings and lengths, mostly not English. The same
    options give the same file.

    Example: lexc synth -n 3000000 -o big.txt && lexc build big.txt -f all -o big/
    """
    from ..lexicons.synth import synth_file

    out = out or f"synth-{count}.txt"
    bar = click.progressbar(length=count, label="drawing words", file=sys.stderr) if common.on_terminal() else None
    with bar if bar is not None else nullcontext():
        report = synth_file(out, count, seed=seed, order=order, min_len=min_len, max_len=max_len, training=train,
                            progress=None if bar is None else lambda done, _: bar.update(done - bar.pos))
    made = cast(int, report["words"])
    emit(report, as_json, f"{report['output']}: {plural(made, 'word')} of {min_len}-{max_len} letters "
                          f"({report['letters_per_word']} on average), {report['bytes']:,} bytes, "
                          f"order-{order} chain on {report['training']}, seed {seed}  seconds {report['seconds']:.2f}")
