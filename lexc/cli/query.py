"""Query commands: check, words, anagram, hooks: the format protocol (``lexc.formats.base``)."""

from __future__ import annotations


from itertools import chain, islice

import click

from .common import max_words_option, Negative, emit, lexicon_arg, lexicon_options, nothing_found


@click.command()
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


@click.command()
@click.argument("args", nargs=-1, metavar="[FILE]")
@click.option("-p", "--prefix", default="", help="Only words starting with this.")
@click.option("--pattern", default=None, help="Pattern: ? one letter, * any run, [ABC], [^ABC].")
@click.option("-n", "--limit", type=click.IntRange(1), default=None, help="Show at most N words.")
@lexicon_options
def words(args, prefix, pattern, limit, lexicon_opt, format_, ruleset, as_json):
    """List words, all or by prefix or pattern ([A-E] a range, [^AEIOU] any but those); exit 1
    (and "no words" on stderr) if none.

    Example: lexc words --pattern 'QU?Z*'
    """
    from ..formats.base import answers

    lexicon, rest = lexicon_arg(args, lexicon_opt, format_, ruleset, min_rest=0)
    if rest:
        raise click.UsageError(f"unexpected argument {rest[0]!r} (a prefix is --prefix, a pattern --pattern)")
    found = lexicon.iter_words(prefix, pattern)  # streamed: a list of millions prints in bounded memory
    first = next(found, None)
    shown = chain((first,), islice(found, limit - 1) if limit is not None else found) if first is not None else iter(())
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
def anagram(args, sub, stats, lexicon_opt, format_, ruleset, max_words, as_json):
    """Anagrams of RACK (? is a blank; blank-made letters print in lower case); exit 1 (and
    "no words" on stderr) if none.

    Example: lexc anagram RETAINS?  |  lexc anagram --sub QI?  |  lexc anagram enable.anatrie --stats RETAIN??
    """
    from ..lexicons.source import check_listable

    lexicon, (rack, *extra) = lexicon_arg(args, lexicon_opt, format_, ruleset)
    check_listable(lexicon, "the lexicon", max_words)  # answers grow with the lexicon
    if extra:
        raise click.UsageError("give one RACK (put several tiles together, e.g. RETAINS?)")
    found = lexicon.anagrams(rack, sub=sub)
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
def hooks(args, lexicon_opt, format_, ruleset, as_json):
    """Front and back hooks of words, and whether each word is valid.

    Example: lexc hooks CARE
    """
    lexicon, words = lexicon_arg(args, lexicon_opt, format_, ruleset)
    results = [lexicon.hooks(w).as_dict() for w in words]
    emit(results, as_json, "\n".join(
        f"{r['front'] or '-':>8} {r['word']}{'' if r['valid'] else ' (not a word)'} {r['back'] or '-'}"
        for r in results))
