"""Where a lexicon comes from: a compiled file, a plain word list, or the bundled ENABLE.

Every command that takes a lexicon FILE goes through ``open_lexicon``: a file with the lexc
magic is loaded (and checked); another engine's file (``formats.foreign``: a KWG of wolges,
MAGPIE or Macondo, ...; recognised by its content) is checked and read, in place where it is
a word graph lexc walks; any other file is read as a word list and compiled in memory; no file
at all means the bundled ENABLE list, compiled once and cached on disk.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import formats
from .._version import __version__
from ..formats import FormatError, LexiconBase, container
from ..limits import MAX_LISTED_WORDS

if TYPE_CHECKING:
    from ..wordlist import WordList

# KWG reading, rulesets and word lists are imported where they are used: opening a compiled
# file or the cached bundled list needs none of them (lexc check CAT starts faster).

BUNDLED_NAME = "enable1.txt"


def bundled_wordlist() -> Path:
    """Path of the bundled ENABLE list (package data when installed, wordlists/ in a checkout)."""
    here = Path(__file__).resolve()
    for path in (here.parents[1] / "wordlists" / BUNDLED_NAME,  # installed: package data, lexc/wordlists/
                 here.parents[3] / "wordlists" / BUNDLED_NAME):  # a checkout: wordlists/ beside src/
        if path.is_file():
            return path
    raise FileNotFoundError(f"the bundled word list {BUNDLED_NAME} is missing from this installation")


def cache_dir() -> Path:
    """Where compiled bundled lexicons are cached: $LEXC_CACHE, else $XDG_CACHE_HOME/lexc."""
    if os.environ.get("LEXC_CACHE"):
        return Path(os.environ["LEXC_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "lexc"


def read_list(path: str | os.PathLike[str], ruleset: str = "english", **options: Any) -> WordList:
    """Read a word list with a ruleset's alphabet (board size for the long-word count). A
    file the word-list reader refuses whose name names an engine's binary format (a KWG cut
    short: no format recognised it) is refused by that format's reader instead
    (``named_refusal``), as its name says what it was meant to be."""
    from ..formats.foreign import named_refusal
    from ..ruleset import load_ruleset
    from ..wordlist import WordListError, read_wordlist

    rules = load_ruleset(ruleset)
    try:
        return read_wordlist(path, rules.alphabet, board_size=rules.board_size, **options)
    except (WordListError, FormatError):
        refusal = named_refusal(path, rules)
        if refusal is None:
            raise
        raise FormatError(refusal) from None


def read_words(path: str | os.PathLike[str], ruleset: str = "english",
               max_words: int = MAX_LISTED_WORDS) -> LexiconBase | WordList:
    """The words of a file without compiling anything: a compiled lexicon is loaded, a plain
    word list is read (for word-by-word work such as ``lexc diff`` and ``lexc stats``). A
    compiled file whose graph spells more than ``max_words`` words is refused before any
    is read: a small file may spell an enormous list."""
    from ..formats.foreign import read_foreign, recognise, refuse_alphagrams
    from ..ruleset import load_ruleset

    if container.looks_like_container(path):
        lexicon = formats.load(path)
    elif (engine := recognise(path)) is not None:
        refuse_alphagrams(path, engine)
        lexicon = read_foreign(path, engine, load_ruleset(ruleset))
    else:
        return read_list(path, ruleset)
    check_listable(lexicon, path, max_words)
    return lexicon


def check_listable(lexicon: LexiconBase, path: str | os.PathLike[str], max_words: int = MAX_LISTED_WORDS) -> None:
    """FormatError unless the lexicon's words (counted from its graph on load) are few enough
    to be listed in memory: ``--max-words`` raises the limit."""
    if len(lexicon) > max_words:
        raise FormatError(f"{path}: holds {len(lexicon):,} words, more than the {max_words:,} lexc lists at once "
                          "(raise --max-words to go on)")



def compile_list(path: str | os.PathLike[str], format: str = "dawg", ruleset: str = "english",
                 **options: Any) -> tuple[WordList, LexiconBase]:
    """Read and compile a word list in memory."""
    wordlist = read_list(path, ruleset, **options)
    return wordlist, formats.build(wordlist, format, ruleset)


def open_lexicon(path: str | os.PathLike[str] | None = None, format: str = "dawg", ruleset: str | None = "english",
                 progress: Callable[[str], None] | None = None, alphagrams: bool = False) -> LexiconBase:
    """A lexicon from a compiled file, a word list (compiled in memory), or the bundled
    ENABLE list when ``path`` is None. ``ruleset`` reads a word list (and a KWG, which names
    none); None is english. A compiled file keeps the ruleset it was built with (its header's
    ``ruleset``; ``lexicon_ruleset`` says which a command then uses). An engine's file whose
    strings are not words (a KAD's alphagrams) is refused in one line unless ``alphagrams``.
    A file is proved in full before it is returned (``proved``)."""
    ruleset = ruleset or DEFAULT_RULESET
    if path is None:
        return bundled_lexicon(format, ruleset, progress)
    if not Path(path).exists():
        raise FormatError(f"{path}: no such file")
    if container.looks_like_container(path):
        return proved(formats.load(path))
    from ..formats.foreign import read_foreign, recognise, refuse_alphagrams

    engine = recognise(path)  # another engine's file (KWG, ...), recognised by its content
    if engine is not None:
        from ..ruleset import load_ruleset

        if not alphagrams:
            refuse_alphagrams(path, engine)
        return proved(read_foreign(path, engine, load_ruleset(ruleset)))
    if progress:
        progress(f"compiling word list {path} in memory")
    return compile_list(path, format, ruleset)[1]


def proved(lexicon: LexiconBase) -> LexiconBase:
    """The lexicon with any whole-graph proof its loader deferred made now (``Dawg.owe_proof``):
    a command refuses a malformed file in one line whatever it asks of it, where a library
    caller of ``formats.load`` opens in milliseconds and pays the proof only before a query
    that relies on it."""
    settle = getattr(lexicon, "settle_proof", None)
    if settle is not None:
        settle()
    return lexicon


def holds_alphagrams(lexicon: Any) -> bool:
    """Whether a lexicon read from an engine's file holds alphagrams, not words (a KAD)."""
    from ..formats.foreign import FOREIGN

    layout = getattr(lexicon, "file_layout", "")
    return layout in FOREIGN and FOREIGN[layout].holds == "alphagrams"


def alphagram_of(codes: bytes, lexicon: Any) -> bytes:
    """A word's alphagram as a KAD stores it: its tiles sorted in the engine's order (wolges's
    order of the lexicon's ruleset), in lexc's codes."""
    from ..formats.foreign import tile_map
    from ..ruleset import load_ruleset

    to_lexc, to_engine = tile_map(load_ruleset(getattr(lexicon, "ruleset", "") or DEFAULT_RULESET), "wolges")
    return bytes(sorted(codes.translate(to_engine))).translate(to_lexc)


def alphagram_list(words: WordList, lexicon: Any) -> WordList:
    """A word list's distinct alphagrams (``alphagram_of``), to compare with a KAD."""
    from dataclasses import replace

    return replace(words, words=sorted({alphagram_of(w, lexicon) for w in words.words}))


DEFAULT_RULESET = "english"  # a word list's (and a KWG's) when no ruleset is given


def lexicon_ruleset(lexicon: Any, option: str | None, name: str = "the lexicon") -> tuple[str, str | None]:
    """The ruleset a command uses with ``lexicon`` (``name`` names it in messages), as a
    reference ``load_ruleset`` reads (a bundled name or a ruleset's text), and a warning to
    show (or None): the one of every command that takes a lexicon and ``-r`` (moves, judge,
    play, selfplay, search, stats, the queries), so that a lexicon keeps its ruleset.

    ``option`` None: the ruleset the lexicon was built with (its header's ``ruleset``; a
    word list compiled in memory, or the bundled list, has the one it was read with), else
    english. An ``option`` that is the lexicon's own (the same name, file or rules): it. One
    that differs but has the same alphabet: it, as given, with a warning saying the lexicon
    was built for another (the same words on another board or bag is a choice, say ENABLE on
    a WWF board). One of another alphabet: RulesetError, for the lexicon's tiles are not its
    tiles (leave out ``-r`` to use the lexicon's own)."""
    from dataclasses import replace

    from ..ruleset import RulesetError, load_ruleset, reference

    stored = getattr(lexicon, "ruleset", "") or ""
    if option is None:
        return stored or DEFAULT_RULESET, None
    given = reference(option)
    if not stored or given == stored:
        return given, None
    own, asked = load_ruleset(stored), load_ruleset(given)
    if replace(own, source="") == replace(asked, source=""):  # (a copy of the same rules)
        return given, None
    built = f"{name} was built with the {own.name} ruleset" + ("" if "\n" not in stored else " (stored in it)")
    shown = _shown(option) + ("" if option == asked.name else f" ({asked.name})")
    if tuple(own.alphabet.labels) != tuple(asked.alphabet.labels):
        raise RulesetError(f"{built}; -r {shown} has another alphabet (leave out -r to use {own.name})")
    return given, f"{built}; using -r {shown} as given"


def _shown(text: str) -> str:
    """A ruleset option as a message quotes it (a ruleset's own text, by its first line)."""
    first = text.splitlines()[0] if text else text
    return first if len(first) <= 60 and "\n" not in text else first[:57] + "..."


def bundled_lexicon(format: str = "dawg", ruleset: str = "english",
                    progress: Callable[[str], None] | None = None) -> LexiconBase:
    """The bundled ENABLE list compiled to ``format``, from the cache when possible."""
    source = bundled_wordlist()
    tag = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    cached = cache_dir() / f"enable1-{ruleset}-{format}-{__version__}-{tag}.lexc"
    if cached.is_file():
        try:
            return proved(formats.load(cached))
        except FormatError:
            pass  # a damaged cache entry is rebuilt below
    if progress:
        progress(f"compiling the bundled ENABLE list to {format} (once; cached in {cached.parent})")
    _, lexicon = compile_list(source, format, ruleset)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        formats.save(lexicon, cached)
    except OSError:
        pass  # no writable cache: the compiled lexicon is still good for this run
    return lexicon
