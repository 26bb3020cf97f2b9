"""Commands that look at lexicon files: info, verify, dump, formats, rulesets, diff, stats.

Thin wrappers over ``lexc.lexicons`` (compile.describe/verify, diff, stats) and the registry."""

from __future__ import annotations

import os
from typing import Any

import click

from ..formats import FORMATS
from ..formats.errors import FormatError
from ..plural import plural
from .common import Negative, count_option, emit, max_words_option, note, one_line
from .reading import command_ruleset, ruleset_option

ENGINE_FILE_RULESET = ("Ruleset whose alphabet reads another engine's file (a KWG, a Quackle .dawg, ...: they "
                       "record no ruleset) or a plain word list; a lexc file keeps its own [default: english].")


@click.command()
@click.argument("file", required=False)
@click.option("-r", "--ruleset", default=None, metavar="RULESET", help=ENGINE_FILE_RULESET)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def info(file: str | None, ruleset: str | None, as_json: bool) -> None:
    """Show a lexicon's header and size figures (FILE defaults to bundled ENABLE).

    Example: lexc info enable.dawg --json; lexc info NSF.kwg -r norwegian
    """
    from ..lexicons.compile import describe
    from ..lexicons.source import open_lexicon

    lexicon = open_lexicon(file, ruleset=ruleset, progress=note, alphagrams=True)
    data = describe(lexicon, file)
    if as_json:
        return emit(data, True)
    keys = ["path", "format", "file_layout", "description", "words", "nodes", "edges", "bytes", "payload_bytes",
            "ruleset", "capabilities", "engine", "options", "wordlist_sha256", "payload_sha256", "lexc_version"]
    lines = [f"{k:>16}: {data[k]}" for k in keys if data.get(k) is not None]
    lines += [f"{k:>16}: {v}" for k, v in data.get("file_fields", {}).items()]  # (a title, a date, a lexicon name)
    emit(data, False, "\n".join(lines))


@click.command(name="verify")
@click.argument("file", required=False)
@click.option("--against", type=click.Path(dir_okay=False), help="Word list the lexicon must hold exactly.")
@click.option("-r", "--ruleset", default=None, metavar="RULESET",
              help="Ruleset to read --against with, and another engine's FILE (a KWG, ...: it records no "
                   "ruleset) [default: the file's, else english].")
@max_words_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def verify_cmd(file: str | None, against: str | None, ruleset: str | None, max_words: int, as_json: bool) -> None:
    """Check a lexicon file: magic, version, checksums, invariants, its words' count and
    SHA-256, and (with --against) the exact word set, naming the first words that differ.

    Exit status 1 for every finding, a damaged or truncated file (checksum mismatch) as much
    as a word set that differs: finding damage is this command's job. Exit 2 for bad usage
    (a missing file, an unreadable --against list).

    Example: lexc verify enable.dawg --against wordlists/enable1.txt
    """
    from ..lexicons.compile import verify
    from ..lexicons.source import alphagram_list, holds_alphagrams, open_lexicon, read_list
    from ..wordlist import WordListError

    try:
        lexicon = open_lexicon(file, ruleset=ruleset, progress=note, alphagrams=True)
    except (FormatError, WordListError) as exc:
        if file is None or not os.path.isfile(file):
            raise  # nothing to verify: bad usage, not a finding
        result: dict[str, Any] = {"path": file, "words": None, "wordlist_sha256": None, "problems": [one_line(exc)],
                                  "ok": False}
        emit(result, as_json, f"FAILED: {one_line(exc)}")
        raise Negative from None
    words = None
    if against:
        words = read_list(against, ruleset or lexicon.ruleset or "english",
                          min_len=lexicon.build_options.get("min_len", 2),
                          max_len=lexicon.build_options.get("max_len"),
                          skip_invalid=lexicon.build_options.get("skip_invalid", False))
        if holds_alphagrams(lexicon):  # (a KAD: the list's alphagrams, in the engine's tile order)
            words = alphagram_list(words, lexicon)
    result = verify(lexicon, words, max_words, file or "")
    text = ("OK: " if result["ok"] else "FAILED: ") + (
        f"{plural(result['words'], 'word')}, invariants hold" if result["ok"] else "; ".join(result["problems"]))
    for key, where in (("only_in_file", "only in the file"), ("only_in_list", "only in the list")):
        if result.get(key):
            shown = result[key]  # (verify lists the first 20)
            text += f"\n  {where}{f' (the first {len(shown)})' if len(shown) == 20 else ''}: {' '.join(shown)}"
    emit(result, as_json, text)
    if not result["ok"]:
        raise Negative


@click.command()
@click.argument("file", required=False)
@count_option("-n", "--limit", low=0, default=None, help="Show at most N rows.")
@click.option("-r", "--ruleset", default=None, metavar="RULESET", help=ENGINE_FILE_RULESET)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def dump(file: str | None, limit: int | None, ruleset: str | None, as_json: bool) -> None:
    """Print a lexicon's low-level table, one row per edge (a prefix set: one per key).

    Example: lexc dump formats/golden/hook.gaddawg
    """
    from ..lexicons.source import open_lexicon

    lexicon = open_lexicon(file, ruleset=ruleset, progress=note, alphagrams=True)
    rows: list[dict[str, Any]] = []
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


@click.command(name="formats")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def formats_cmd(as_json: bool) -> None:
    """List the file formats lexc knows and what it does with each: its own lexicon formats
    (built, read, queried, moves generated on), and other engines' files (read, written,
    queried, moves generated on the file as it is), with the spec of each in formats/."""
    from ..formats.foreign import FOREIGN

    data: list[dict[str, Any]] = [{"name": cls.name, "version": cls.version, "description": cls.description,
                                   "capabilities": cls.capabilities.names(), "options": cls.options,
                                   "engine": "lexc", "read": True, "write": True, "query": True,
                                   "moves": True}  # (every lexc format: the naive strategy needs only membership)
                                  for cls in FORMATS.values()]
    engines = [FOREIGN[name].summary() for name in FOREIGN]
    if as_json:
        return emit(data + engines, True)
    width = max(len(d["name"]) for d in data + engines)

    def does(d: dict[str, Any]) -> str:
        return ", ".join(what for what in ("read", "write", "query", "moves") if d[what]) or "-"

    lines = [f"{d['name']:<{width}}  v{d['version']}  {d['description']}\n"
             f"{'':<{width + 2}}capabilities: {', '.join(d['capabilities']) or '-'}" for d in data]
    lines += ["", "other engines' files:"]
    lines += [f"{d['name']:<{width}}  {d['engine']}: {d['description']}\n"
              f"{'':<{width + 2}}{' '.join(d['extensions'])}; lexc does: {does(d)}; spec {d['spec']}" for d in engines]
    emit(data + engines, False, "\n".join(lines))


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def rulesets(as_json: bool) -> None:
    """List the bundled rulesets (alphabet, tiles, board)."""
    from ..ruleset import available, load_ruleset

    data = [load_ruleset(name).summary() for name in available()]
    emit(data, as_json, "\n".join(
        f"{d['name']:<10} {d['description']}\n{'':<11}{plural(len(d['letters']), 'letter')}, "
        f"{plural(d['tile_total'], 'tile')}, "
        f"rack {d['rack_size']}, bingo {d['bingo_bonus']}, {d['board_size']}x{d['board_size']} board, "
        f"start {d['start']}" for d in data))


@click.command()
@click.argument("a", type=click.Path(dir_okay=False, exists=True))
@click.argument("b", type=click.Path(dir_okay=False, exists=True))
@click.option("-r", "--ruleset", default="english", show_default=True,
              help="Alphabet for a side that is a plain word list.")
@count_option("--limit", low=0, help="List at most N words of each side (counts stay exact).")
@click.option("--counts", "counts_only", is_flag=True, help="Counts only, no word lists.")
@max_words_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def diff(a: str, b: str, ruleset: str, limit: int | None, counts_only: bool, max_words: int, as_json: bool) -> None:
    """Words only in A, only in B, and the counts. A and B may be compiled lexicons of any
    format or plain word lists; they are compared in the alphabet's order, by streaming
    merge. Exit status 0 when they hold the same words, 1 when they differ.

    Example: lexc diff old.dawg new-list.txt --limit 50
    """
    from ..lexicons.diff import diff_lexicons
    from ..lexicons.source import read_words

    result = diff_lexicons(read_words(a, ruleset, max_words), read_words(b, ruleset, max_words),
                           limit=0 if counts_only else limit)
    data = {"a": a, "b": b, **result.as_dict()}
    lines = [f"{a}: {plural(result.count_a, 'word')}; {b}: {plural(result.count_b, 'word')}; {result.common:,} in both",
             f"only in {a}: {result.only_a_count:,}", f"only in {b}: {result.only_b_count:,}"]
    if not counts_only:
        for side, words, count in ((a, result.only_a, result.only_a_count), (b, result.only_b, result.only_b_count)):
            if words:
                more = f" (first {len(words):,} of {count:,})" if len(words) < count else ""
                lines.append(f"\nonly in {side}{more}:\n" + "\n".join(f"  {w}" for w in words))
    emit(data, as_json, "\n".join(lines))
    if not result.identical:
        raise Negative()


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, exists=True))
@ruleset_option("Ruleset to measure against.")
@max_words_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def stats(file: str | None, ruleset: str | None, max_words: int, as_json: bool) -> None:
    """Length histogram, letter frequencies and how many words fit the board, a rack, a bingo
    and the bag, for a compiled lexicon or a plain word list (default: the bundled ENABLE).

    Example: lexc stats enable.dawg; lexc stats palabras.txt -r spanish --json
    """
    from ..lexicons.source import bundled_wordlist, read_list, read_words
    from ..lexicons.stats import format_stats, lexicon_stats

    words = (read_words(file, ruleset or "english", max_words) if file
             else read_list(bundled_wordlist(), ruleset or "english"))
    result = lexicon_stats(words, command_ruleset(words, ruleset, file))  # the lexicon's own unless -r
    emit(result, as_json, format_stats(result).rstrip("\n"))
