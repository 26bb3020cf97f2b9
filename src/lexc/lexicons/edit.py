"""The lexicon manager: operations on compiled lexicons, no word list needed.

Shapiro & Smith's program had a lexicon manager that inserted, deleted, checked and found
words. ``edit_file`` inserts and deletes (``lexc edit``), by rebuilding, so that the result
is byte-identical to compiling the edited list; ``convert_file`` re-encodes a lexicon into
another format (``lexc convert``). Checking and finding are the query commands.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .. import formats
from ..alphabet import Alphabet
from ..formats import FormatError, LexiconBase, container
from ..plural import plural
from ..wordlist import MAX_LISTED_WORDS, WordList, WordListError, digest, normalize_word
from .compile import build_and_save, default_output
from .source import check_listable


def convert_file(
    source: str | os.PathLike[str],
    format: str,
    out: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    max_words: int = MAX_LISTED_WORDS,
    ruleset: str | None = None,
) -> dict[str, Any]:
    """Re-encode a compiled lexicon file into ``format``; return a report like a build's.
    ``ruleset`` gives the tiles of another engine's file, which records none (English by
    default); a lexc file keeps its own.

    The words are taken from the source in code order with its alphabet and ruleset. The
    word-list options recorded in the source (``min_len``, ``max_len``, ``skip_invalid``)
    are carried over; the source format's own options (e.g. ``layout``) only when the
    target format has the same option. ``out`` defaults to ``<source stem>.<format>`` in
    the current directory and is written atomically. The new file records the source's
    word-list SHA-256; a ``FormatError`` is raised, before anything is written, if the
    source's words do not match the SHA-256 it records or the built lexicon does not
    enumerate exactly those words. ``progress`` stages: ``loading``, ``building FORMAT``,
    ``writing FORMAT``. A source of more than ``max_words`` words is refused before its words
    are listed.
    """
    started = time.perf_counter()
    target = formats.get_format(format)
    path = Path(source)
    lexicon = _load_compiled(path, f"to compile a word list, use 'lexc build {path} -f {format}'", progress,
                             ruleset=ruleset)
    words = _checked_words(lexicon, path, max_words)
    read_s = time.perf_counter() - started
    list_options, own = _split_options(lexicon)
    options = {k: v for k, v in own.items() if k in target.options}
    out = Path(out) if out is not None else default_output(path, format)
    report = build_and_save(words, format, lexicon.ruleset, out, list_options, options, progress,
                             expect_sha256=words.sha256, with_counts=False)
    report.update({"source": str(path), "source_format": lexicon.name, "wordlist_sha256": words.sha256,
                   "read_seconds": round(read_s, 4), "seconds": round(time.perf_counter() - started, 4)})
    return report


def edit_file(
    source: str | os.PathLike[str],
    add: Iterable[str] = (),
    remove: Iterable[str] = (),
    out: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    max_words: int = MAX_LISTED_WORDS,
) -> dict[str, Any]:
    """Add and remove words in a compiled lexicon file and rebuild it in its own format;
    return the report.

    Words are normalized as the word-list reader does it, with the file's alphabet (folded to
    NFC upper case, multi-character tiles by longest match). Refused with a ``WordListError``
    before anything is written: a word with a character outside the alphabet, an added word
    outside the file's recorded ``min_len``/``max_len``, a word both added and removed. Adding
    a word already present or removing an absent one is only reported. The new file keeps the
    format and its options, the ruleset and the word-list options, so it is byte-identical to
    ``compile_file`` of the edited word list with them; its header records the edited list's
    SHA-256. ``out`` defaults to ``source``, replaced atomically. If the words do not change
    and ``out`` is ``source``, the file is left untouched (``written`` is False). Removing
    every word gives an empty lexicon, or a ``FormatError`` if the format cannot hold one.
    ``progress`` stages: ``loading``, ``building FORMAT``, ``writing FORMAT``.
    """
    started = time.perf_counter()
    path = Path(source)
    lexicon = _load_compiled(path, f"edit the word list and compile it with 'lexc build {path}'", progress,
                             kwg=False)
    words = _checked_words(lexicon, path, max_words)
    list_options, options = _split_options(lexicon)
    adding = _encode_words(add, lexicon.alphabet, f"{path}: cannot add", list_options)
    removing = _encode_words(remove, lexicon.alphabet, f"{path}: cannot remove")
    both = [text for code, text in adding.items() if code in removing]
    if both:
        raise WordListError(f"{path}: {', '.join(both)} both added and removed; nothing written")
    before = set(words.words)
    after = (before - removing.keys()) | adding.keys()
    out = Path(out) if out is not None else path
    if after == before and out.exists() and os.path.samefile(out, path):
        result = {"output": str(out), "format": lexicon.name, "ruleset": lexicon.ruleset, "words": len(after),
                  **lexicon.stats(), "file_bytes": path.stat().st_size, "written": False}
    else:
        if not after:
            _check_can_be_empty(lexicon, path)
        edited = WordList(words=sorted(after), alphabet=lexicon.alphabet, source=f"{path} (edited)")
        result = build_and_save(edited, lexicon.name, lexicon.ruleset, out, list_options, options, progress,
                                 expect_sha256=edited.sha256, with_counts=False)
        result["written"] = True
    result.update(_edit_lists(adding, removing, before), source=str(path), words_before=len(before),
                  words_after=len(after), wordlist_sha256=digest(sorted(after), lexicon.alphabet),
                  seconds=round(time.perf_counter() - started, 4))
    return result


def _load_compiled(path: Path, hint: str, progress: Callable[[str], None] | None,
                   kwg: bool = True, ruleset: str | None = None) -> LexiconBase:
    """Load a compiled lexicon file, or (with ``kwg``) another engine's file (a KWG, ...:
    ``formats.foreign``) read with ``ruleset``'s tiles (English by default); a one-line
    FormatError if it is missing, a directory or a plain word list (``hint`` says what to do
    instead)."""
    from ..formats.foreign import named_refusal, read_foreign, recognise, refuse_alphagrams
    from ..ruleset import load_ruleset

    if not path.exists():
        raise FormatError(f"{path}: no such file")
    if path.is_dir():
        raise FormatError(f"{path}: is a directory")
    engine = None
    if not container.looks_like_container(path):
        engine = recognise(path)
        if engine is None:  # (a cut-short KWG: its own reader says why it is not one)
            raise FormatError(named_refusal(path, load_ruleset(ruleset or "english"))
                              or f"{path}: not a compiled lexicon; {hint}")
        if not kwg:
            raise FormatError(f"{path}: a {engine.name} file is read-only; convert it first: "
                              f"lexc convert {path} -f gaddawg")
    if progress:
        progress("loading")
    if engine is None:
        return formats.load(path)
    refuse_alphagrams(path, engine)
    return read_foreign(path, engine, load_ruleset(ruleset or "english"))


def _checked_words(lexicon: LexiconBase, path: Path, max_words: int = MAX_LISTED_WORDS) -> WordList:
    """A lexicon's words in code order, refused if they do not match the SHA-256 it records,
    or (before any is listed) if they are more than ``max_words``."""
    check_listable(lexicon, path, max_words)
    words = WordList(words=list(lexicon.iter_codes()), alphabet=lexicon.alphabet, source=str(path))
    if lexicon.wordlist_sha256 and words.sha256 != lexicon.wordlist_sha256:
        raise FormatError(f"{path}: its words do not match the SHA-256 recorded at build time (see 'lexc verify')")
    return words


def _split_options(lexicon: LexiconBase) -> tuple[dict[str, Any], dict[str, Any]]:
    """A loaded lexicon's recorded options: (word-list options, its format's own options)."""
    own = type(lexicon).options
    recorded = lexicon.build_options
    return ({k: v for k, v in recorded.items() if k not in own}, {k: v for k, v in recorded.items() if k in own})


def _encode_words(texts: Iterable[str], alphabet: Alphabet, refusal: str,
                  limits: dict[str, Any] | None = None, after: str = "; nothing written") -> dict[bytes, str]:
    """Normalize words for an edit, deduplicated in the order given: code -> text. A
    WordListError starting with ``refusal`` for a word outside the alphabet or (with
    ``limits``, the recorded word-list options) outside ``min_len``..``max_len``."""
    encoded: dict[bytes, str] = {}
    for text in texts:
        try:
            code = normalize_word(text, alphabet)
        except WordListError as exc:
            raise WordListError(f"{refusal} {exc}{after}") from None
        problem = _length_problem(len(code), limits) if limits is not None else None
        if problem:
            tiles = plural(len(code), "tile")
            raise WordListError(f"{refusal} {text.strip()!r}: {tiles}, {problem}{after}")
        encoded.setdefault(code, alphabet.decode(code))
    return encoded


def _length_problem(tiles: int, limits: dict[str, Any]) -> str | None:
    """Why a word of ``tiles`` tiles breaks the recorded ``min_len``/``max_len``, or None."""
    min_len, max_len = limits.get("min_len"), limits.get("max_len")
    if min_len is not None and tiles < min_len:
        return f"shorter than this lexicon's --min-len {min_len}"
    if max_len is not None and tiles > max_len:
        return f"longer than this lexicon's --max-len {max_len}"
    return None


def _edit_lists(adding: dict[bytes, str], removing: dict[bytes, str], before: set[bytes]) -> dict[str, list[str]]:
    """The words of an edit sorted by what happened to them, each in the order given."""
    return {"added": [t for c, t in adding.items() if c not in before],
            "already_present": [t for c, t in adding.items() if c in before],
            "removed": [t for c, t in removing.items() if c in before],
            "not_present": [t for c, t in removing.items() if c not in before]}


def _check_can_be_empty(lexicon: LexiconBase, path: Path) -> None:
    """A one-line FormatError if the lexicon's format cannot be built from no words."""
    try:
        formats.build(WordList(words=[], alphabet=lexicon.alphabet), lexicon.name, lexicon.ruleset)
    except Exception as exc:  # a builder may fail in any way on no words; say so in one line
        raise FormatError(f"{path}: the {lexicon.name} format cannot hold an empty lexicon ({exc}); "
                          "nothing written") from None


def with_words(lexicon: LexiconBase, add: Iterable[str]) -> tuple[LexiconBase, list[str]]:
    """The lexicon with words added, rebuilt in memory in its own format with its options
    (the game manager's ``add``: the word counts for the rest of the game, for the referee
    and the program alike); and the words that were new. A WordListError for a word outside
    the alphabet or the recorded length limits."""
    list_options, options = _split_options(lexicon)
    adding = _encode_words(add, lexicon.alphabet, "cannot add", list_options, after="")
    before = set(lexicon.iter_codes())
    new = [code for code in adding if code not in before]
    if not new:
        return lexicon, []
    words = WordList(words=sorted(before | set(new)), alphabet=lexicon.alphabet, source="(with added words)")
    return (formats.build(words, lexicon.name, lexicon.ruleset, backend=lexicon.backend, **options),
            [adding[code] for code in new])


def export_file(source: str | os.PathLike[str] | None, target: str, out: str | os.PathLike[str],
                ruleset: str = "english", max_words: int = MAX_LISTED_WORDS,
                progress: Callable[[str], None] | None = None, keep_order: bool = False,
                options: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Write a lexicon (a lexc file, another engine's file, a word list, or None: the bundled
    ENABLE) as another engine's file (``formats.foreign``: ``target`` names the format),
    atomically; a report. The words are mapped to the engine's tiles by label; a word or a
    size the format cannot hold is refused in one line naming it, before anything is written.
    A source of more than ``max_words`` words is refused before its words are listed. With
    ``keep_order`` a plain word list's words are written in the list's own order, for a
    format whose engine writes another file for another order (``ordered``: Quackle's .dawg).
    ``options`` are the format's own (``write_options``: a lexicon name, a title, a date);
    the one a format names ``stem_option`` defaults to OUT's name without its extension."""
    from ..formats.foreign import get_foreign
    from ..ruleset import load_ruleset
    from .source import lexicon_ruleset, open_lexicon

    started = time.perf_counter()
    fmt = get_foreign(target)
    if fmt.kind != "lexicon":
        raise FormatError(f"{fmt.name} is a leave-value format, not a lexicon's: convert a leave file with "
                          f"'lexc convert LEAVES OUT --to {fmt.name}'")
    if not fmt.can_write():
        raise FormatError(f"lexc reads {fmt.name} files but does not write them")
    chosen = dict(options or {})
    fmt.check_options(chosen)
    if fmt.stem_option:
        chosen.setdefault(fmt.stem_option, Path(out).name.split(".")[0])
    if keep_order:
        return _export_in_order(source, fmt, out, ruleset, max_words, started)
    lexicon = open_lexicon(source, "dawg", ruleset, progress=progress)  # (the writers list its words)
    check_listable(lexicon, source or "the bundled lexicon", max_words)
    rules = load_ruleset(lexicon_ruleset(lexicon, None)[0])  # (a lexicon keeps its ruleset; a list was read with -r)
    try:
        data = fmt.write_with(lexicon, rules, chosen) if chosen else fmt.write(lexicon, rules)
    except FormatError as exc:
        raise FormatError(f"{source or 'the bundled lexicon'}: {exc}") from None
    container.write_atomic(out, data)
    return {"output": os.fspath(out), "to": fmt.name, "engine": fmt.engine, "source": os.fspath(source or ""),
            "words": len(lexicon), "file_bytes": len(data), "options": chosen,
            "seconds": round(time.perf_counter() - started, 3)}


def _export_in_order(source: str | os.PathLike[str] | None, fmt: Any, out: str | os.PathLike[str], ruleset: str,
                     max_words: int, started: float) -> dict[str, Any]:
    """``export_file`` with ``keep_order``: a plain word list's words, in its order (a
    repeated word kept where it first comes), as ``fmt``'s bytes."""
    from ..formats.foreign import recognise
    from ..ruleset import load_ruleset
    from ..wordlist import word_lines

    if not fmt.ordered:
        raise FormatError(f"the bytes of a {fmt.name} file do not depend on the words' order: leave out --keep-order")
    if source is None or container.looks_like_container(source) or recognise(source) is not None:
        raise FormatError("--keep-order takes a plain word list (one word a line, in the order to write)")
    rules = load_ruleset(ruleset)
    words = list(_encode_words(word_lines(source), rules.alphabet, f"{source}: cannot write").keys())
    if len(words) > max_words:
        raise FormatError(f"{source}: holds {len(words):,} words, more than the {max_words:,} lexc lists at once "
                          "(raise --max-words to go on)")
    try:
        data = fmt.write_ordered(words, rules.alphabet, rules)
    except FormatError as exc:
        raise FormatError(f"{source}: {exc}") from None
    container.write_atomic(out, data)
    return {"output": os.fspath(out), "to": fmt.name, "engine": fmt.engine, "source": os.fspath(source),
            "words": len(words), "file_bytes": len(data), "seconds": round(time.perf_counter() - started, 3)}


def export_magpie(source: str | os.PathLike[str] | None, out: str | os.PathLike[str], ruleset: str = "english",
                  leaves: str | os.PathLike[str] | None = None, name: str | None = None,
                  max_words: int = MAX_LISTED_WORDS, progress: Callable[[str], None] | None = None,
                  warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Write a MAGPIE data folder at ``out`` (``folders.export_folder("magpie", ...)``): the
    lexicon's KWG, the leave file ``leaves`` (any format ``lexc leaves`` reads) as a KLV2 of
    every sub-rack, the ruleset's letter distribution and layout; a report. ``name`` is the
    lexicon's (default: its file's stem, prefixed as MAGPIE needs to find the distribution);
    the leaves keep their file's stem. ``warn`` is told once when the leaves' values were
    rounded."""
    from .folders import export_folder

    return export_folder("magpie", source, out, ruleset, leaves, name, max_words, progress, warn)


def target_format(out: str | os.PathLike[str] | None, asked: str | None) -> str:
    """The format a conversion writes: ``asked`` (a lexc format or an engine's, by name), else
    the one ``out``'s extension names (``.gaddag``: lexc's; ``.kwg``: wolges's); a one-line
    FormatError when neither says, or when the extension fits several (``.dawg``)."""
    from ..formats.foreign import FOREIGN, by_extension

    if asked is not None:
        if asked not in formats.FORMATS and asked not in FOREIGN:
            raise FormatError(f"unknown format {asked!r} (known: {', '.join([*formats.FORMATS, *FOREIGN])})")
        return asked
    if out is None:
        raise FormatError("say which format to write: --format/--to FORMAT, or an output file whose extension names it")
    suffix = Path(out).suffix.lower()
    fits = [name for name in formats.FORMATS if suffix == f".{name}"] + by_extension(out)
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise FormatError(f"{out}: the extension {suffix or '(none)'} names no format: say --to FORMAT "
                          "(lexc formats lists them)")
    raise FormatError(f"{out}: {suffix} is the extension of several formats ({', '.join(fits)}): say --to FORMAT")


__all__ = ["convert_file", "edit_file", "export_file", "export_magpie", "target_format", "with_words"]
