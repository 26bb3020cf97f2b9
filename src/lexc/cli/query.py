"""Query commands: check, words, anagram, hooks: the format protocol (``lexc.formats.base``)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice
from typing import TYPE_CHECKING

import click

from ..limits import MAX_COUNT, MAX_WORD_TILES
from .common import (
    Bounded,
    Negative,
    count_option,
    emit,
    lexicon_arg,
    lexicon_options,
    lexicon_ruleset_arg,
    max_words_option,
    nothing_found,
)
from .reading import rack_arg, word_codes

if TYPE_CHECKING:
    from ..lexicons.search import Row


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="[FILE] WORD...")
@lexicon_options
def check(args: tuple[str, ...], lexicon_opt: str | None, format_: str, ruleset: str | None, as_json: bool) -> None:
    """Check words; exit 0 iff every word is valid (exit 2 for a WORD that is not one of the
    alphabet's: bad input, as for hooks and anagram).

    On a KAD (wolges's DAWG of alphagrams) each WORD's alphagram is looked up: whether some
    word is an anagram of it.

    Example: lexc check QI ZA XU
    """
    from ..lexicons.source import alphagram_of, holds_alphagrams

    lexicon, words = lexicon_arg(args, lexicon_opt, format_, ruleset, alphagrams=True)
    if holds_alphagrams(lexicon):
        grams = [alphagram_of(codes, lexicon) for codes in word_codes(lexicon, words)]
        results = [{"word": w.upper(), "alphagram": lexicon.alphabet.decode(g), "valid": lexicon.contains_codes(g)}
                   for w, g in zip(words, grams, strict=True)]
        emit(results, as_json, "\n".join(f"{r['word']}: {r['alphagram']} {'is' if r['valid'] else 'is NOT'} a "
                                         "word's alphagram" for r in results))
    else:
        results = [{"word": w.upper(), "valid": lexicon.contains_codes(codes)}
                   for w, codes in zip(words, word_codes(lexicon, words), strict=True)]
        emit(results, as_json, "\n".join(f"{r['word']}: {'valid' if r['valid'] else 'NOT valid'}" for r in results))
    if not all(r["valid"] for r in results):
        raise Negative


@click.command()
@click.argument("args", nargs=-1, metavar="[FILE]")
@click.option("-p", "--prefix", default="", help="Only words starting with this.")
@click.option("--pattern", default=None, help="Pattern: ? one letter, * any run, [ABC], [^ABC].")
@count_option("-n", "--limit", default=None, help="Show at most N words.")
@lexicon_options
def words(args: tuple[str, ...], prefix: str, pattern: str | None, limit: int | None, lexicon_opt: str | None,
          format_: str, ruleset: str | None, as_json: bool) -> None:
    """List words, all or by prefix or pattern ([A-E] a range, [^AEIOU] any but those); exit 1
    (and "no words" on stderr) if none. A KAD's are its alphagrams.

    Example: lexc words --pattern 'QU?Z*'
    """
    from ..formats.base import answers

    lexicon, rest = lexicon_arg(args, lexicon_opt, format_, ruleset, min_rest=0, alphagrams=True)  # (a KAD's)
    if rest:
        raise click.UsageError(f"unexpected argument {rest[0]!r} (a prefix is --prefix, a pattern --pattern)")
    if prefix:
        rack_arg(lexicon, prefix, "--prefix")
    found = lexicon.iter_words(prefix, pattern)  # streamed: a list of millions prints in bounded memory
    first = next(found, None)
    shown: Iterator[str] = (chain((first,), islice(found, limit - 1) if limit is not None else found)
                            if first is not None else iter(()))
    if as_json:
        emit(answers(shown), True)
    else:
        for word in shown:
            click.echo(word)
    if first is None:
        nothing_found("no words")


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="[FILE] RACK")
@click.option("--sub", is_flag=True, help="Also words using only part of the rack.")
@click.option("--stats", is_flag=True,
              help="Also report what the search read (anatrie: bytes and nodes of the file), on stderr "
                   "(with --json: {words, stats}).")
@lexicon_options
@max_words_option
def anagram(args: tuple[str, ...], sub: bool, stats: bool, lexicon_opt: str | None, format_: str, ruleset: str | None,
            max_words: int, as_json: bool) -> None:
    """Anagrams of RACK (? is a blank; blank-made letters print in lower case); exit 1 (and
    "no words" on stderr) if none.

    Example: lexc anagram RETAINS?  |  lexc anagram --sub QI?  |  lexc anagram enable.anatrie --stats RETAIN??
    """
    from ..lexicons.source import check_listable

    lexicon, (rack, *extra) = lexicon_arg(args, lexicon_opt, format_, ruleset, alphagrams=True)  # (a KAD too)
    check_listable(lexicon, "the lexicon", max_words)  # answers grow with the lexicon
    if extra:
        raise click.UsageError("give one RACK (put several tiles together, e.g. RETAINS?)")
    found = lexicon.anagrams(rack_arg(lexicon, rack), sub=sub)
    read = dict(getattr(lexicon, "last_stats", {}) or {})
    if stats and as_json:
        emit({"words": found, "stats": read}, True)
    elif as_json or found:
        emit(found, as_json, "\n".join(found))
    if stats and not as_json:
        click.echo(("stats: " + ", ".join(f"{k} {v:,}" for k, v in read.items())) if read
                   else f"stats: {lexicon.name} does not count what it reads", err=True)
    if not found:
        nothing_found("no words")


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="[FILE] WORD...")
@lexicon_options
def hooks(args: tuple[str, ...], lexicon_opt: str | None, format_: str, ruleset: str | None, as_json: bool) -> None:
    """Front and back hooks of words, and whether each word is valid.

    Example: lexc hooks CARE
    """
    lexicon, words = lexicon_arg(args, lexicon_opt, format_, ruleset)
    results = [lexicon.hooks(codes).as_dict() for codes in word_codes(lexicon, words)]
    emit(results, as_json, "\n".join(
        f"{r['front'] or '-':>8} {r['word']}{'' if r['valid'] else ' (not a word)'} {r['back'] or '-'}"
        for r in results))


@click.command(name="search")
@click.argument("args", nargs=-1, metavar="[FILE]")
@click.option("--pattern", metavar="P", help="Matches a pattern: ? a tile, * any run, [ABC], [A-E], [^AEIOU].")
@click.option("--anagram", metavar="RACK", help="Uses every tile of RACK; ? one more tile, * any more (e.g. QU*).")
@click.option("--subanagram", metavar="RACK", help="Can be made from some of RACK's tiles (? a blank).")
@click.option("--length", metavar="N|N-M",
              help=f"Has N (to M) tiles; N- for at least N (N, M from 0 to {MAX_WORD_TILES}).")
@click.option("--contains", metavar="TILES", help="Holds all these tiles.")
@click.option("--begins", metavar="TILES", help="Begins with these tiles.")
@click.option("--ends", metavar="TILES", help="Ends with these tiles.")
@click.option("--anagrams", "anagram_count", metavar="N|N-M",
              help=f"N (to M) words share its tiles, itself included (N, M from 0 to {MAX_COUNT:,}).")
@click.option("--front-hook", is_flag=False, flag_value="", default=None, metavar="[L]",
              help="Takes a front hook (the letter L, if given).")
@click.option("--back-hook", is_flag=False, flag_value="", default=None, metavar="[L]",
              help="Takes a back hook (the letter L, if given).")
@click.option("--drops-first", is_flag=True, help="Minus its first tile it is a word (a front inner hook).")
@click.option("--drops-last", is_flag=True, help="Minus its last tile it is a word (a back inner hook).")
@click.option("--in", "in_file", metavar="FILE", help="Is in this other lexicon too (--not in=FILE: is not).")
@click.option("--probability", metavar="N|N-M",
              help=f"Its probability rank among the words of its length is N (to M; N, M from 0 to {MAX_COUNT:,}).")
@click.option("--blanks", type=Bounded(0, 2), default=2, show_default=True,
              help="Blanks the probability order counts (Zyzzyva's 0, 1 or 2).")
@click.option("--not", "negated", multiple=True, metavar="KIND=VALUE",
              help="A condition that must not hold, e.g. --not in=old.dawg, --not 'pattern=*S', --not front-hook.")
@click.option("--sort", type=click.Choice(["alpha", "length", "probability", "score"]), default="alpha",
              show_default=True, help="Order of the rows (probability: by length, then rank).")
@click.option("--group", is_flag=True, help="List each anagram set together.")
@click.option("--csv", "as_csv", is_flag=True, help="Every column as CSV.")
@count_option("-n", "--limit", default=None, help="Show at most N rows (after sorting).")
@lexicon_options
@max_words_option
def search_cmd(args: tuple[str, ...], pattern: str | None, anagram: str | None, subanagram: str | None,
               length: str | None, contains: str | None, begins: str | None, ends: str | None,
               anagram_count: str | None, front_hook: str | None, back_hook: str | None, drops_first: bool,
               drops_last: bool, in_file: str | None, probability: str | None, blanks: int, negated: tuple[str, ...],
               sort: str, group: bool, as_csv: bool, limit: int | None, lexicon_opt: str | None, format_: str,
               ruleset: str | None, max_words: int, as_json: bool) -> None:
    """Words that meet every condition given (AND; --not KIND=VALUE negates one), as a study
    table: front hooks, the word (a dot where removing its first or last tile leaves a word),
    back hooks, probability rank, alphagram, number of anagrams (and with --sort score, the
    score). Exit 1 (and "no words" on stderr) if none.

    The columns have one name each, the text header's, the CSV header's and the JSON keys:
    front, word, back, rank, alphagram, anagrams, score, then inner_front and inner_back (the
    dots), combinations (what rank orders) and length, which only the CSV and JSON give.

    Example: lexc search --length 7 --sort probability -n 100  |  lexc search --pattern 'Q*' --not contains=U
    """
    from ..lexicons.search import COLUMNS, KINDS, SearchError, make_condition, search, study_table
    from ..lexicons.source import check_listable, open_lexicon
    from ..ruleset import load_ruleset

    lexicon, rest, ruleset = lexicon_ruleset_arg(args, lexicon_opt, format_, ruleset, min_rest=0)
    if rest:
        raise click.UsageError(f"unexpected argument {rest[0]!r} (conditions are options: see --help)")
    check_listable(lexicon, "the lexicon", max_words)  # a search may list (and tabulate) every word
    rules = load_ruleset(ruleset)  # (the lexicon's own unless -r says otherwise: its tile values and bag)
    if tuple(rules.alphabet.labels) != tuple(lexicon.alphabet.labels):
        raise click.UsageError(f"the lexicon's alphabet is not the {rules.name} ruleset's (give -r)")
    opener = lambda path: open_lexicon(path, format_, ruleset)  # noqa: E731  (--in: a list read as the lexicon is)
    given = [("pattern", pattern), ("anagram", anagram), ("subanagram", subanagram), ("length", length),
             ("contains", contains), ("begins", begins), ("ends", ends), ("anagrams", anagram_count),
             ("front-hook", front_hook), ("back-hook", back_hook), ("drops-first", "" if drops_first else None),
             ("drops-last", "" if drops_last else None), ("in", in_file), ("probability", probability)]
    try:
        conditions = [make_condition(kind, value, False, blanks, opener) for kind, value in given if value is not None]
        for text in negated:
            kind, _, value = text.partition("=")
            if kind not in KINDS:
                raise SearchError(f"--not {text!r}: unknown condition {kind!r} (known: {', '.join(KINDS)})")
            conditions.append(make_condition(kind, value, True, blanks, opener))
        found = search(lexicon, conditions, rules)
        table = study_table(lexicon, found, rules, blanks, sort, group, limit)
    except SearchError as exc:
        raise click.UsageError(str(exc)) from None
    if as_csv and table:
        import csv
        import io

        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(r.as_dict() for r in table)
        click.echo(out.getvalue(), nl=False)
    elif as_json or table:
        emit([r.as_dict() for r in table] if as_json else None, as_json,
             None if as_json else _study_table(table, group, sort == "score"))
    if not table:
        nothing_found("no words")


def _study_table(table: list[Row], group: bool, score: bool = False) -> str:
    """The rows as a text table under a header naming each column as the CSV and the JSON
    name it (``search.TABLE_COLUMNS``): hooks around the word, inner-hook dots, probability
    rank, alphagram, number of anagrams, and with ``score`` (``--sort score``) the score (a
    blank line between anagram sets with ``group``)."""
    from ..lexicons.search import TABLE_COLUMNS

    names = (*TABLE_COLUMNS, "score") if score else TABLE_COLUMNS
    front = max([len(r.front) for r in table] + [len(names[0])])
    word = max([len(r.word) for r in table] + [len(names[1])]) + 2
    back = max([len(r.back) for r in table] + [len(names[2])])
    rank = max([len(str(r.rank)) for r in table] + [len(names[3])])
    alphagram = max([len(r.alphagram) for r in table] + [len(names[4])])
    anagrams = max([len(str(r.anagrams)) for r in table] + [len(names[5])])
    points = max([len(str(r.score)) for r in table] + [len(names[-1])])
    head = (f"{names[0]:>{front}} {' ' + names[1]:<{word}} {names[2]:<{back}}  {names[3]:>{rank}}  "
            f"{names[4]:<{alphagram}}  {names[5]:<{anagrams}}")
    lines = [head + (f"  {names[-1]:>{points}}" if score else "")]
    previous = None
    for r in table:
        if group and previous is not None and r.alphagram != previous:
            lines.append("")
        previous = r.alphagram
        marked = ("·" if r.inner_front else " ") + r.word + ("·" if r.inner_back else " ")
        lines.append((f"{r.front:>{front}} {marked:<{word}} {r.back:<{back}}  {r.rank:>{rank}}  "
                      f"{r.alphagram:<{alphagram}}  {r.anagrams:<{anagrams}}"
                      + (f"  {r.score:>{points}}" if score else "")).rstrip())
    return "\n".join(line.rstrip() for line in lines)
