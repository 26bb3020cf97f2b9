"""Where a lexicon comes from: a compiled file, a plain word list, or the bundled ENABLE.

Every command that takes a lexicon FILE goes through ``open_lexicon``: a file with the lexc
magic is loaded (and checked); a KWG file (wolges, Macondo, MAGPIE; recognised by its
content) is checked and read in place as a read-only ``gaddawg``; any other file is read as a
word list and compiled in memory; no file at all means the bundled ENABLE list, compiled once
and cached on disk.
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
    """Read a word list with a ruleset's alphabet (board size for the long-word count)."""
    from ..ruleset import load_ruleset
    from ..wordlist import read_wordlist

    rules = load_ruleset(ruleset)
    return read_wordlist(path, rules.alphabet, board_size=rules.board_size, **options)


def read_words(path: str | os.PathLike[str], ruleset: str = "english",
               max_words: int = MAX_LISTED_WORDS) -> LexiconBase | WordList:
    """The words of a file without compiling anything: a compiled lexicon is loaded, a plain
    word list is read (for word-by-word work such as ``lexc diff`` and ``lexc stats``). A
    compiled file whose graph spells more than ``max_words`` words is refused before any
    is read: a small file may spell an enormous list."""
    from ..formats.kwg import looks_like_kwg, open_kwg

    if container.looks_like_container(path):
        lexicon = formats.load(path)
    elif looks_like_kwg(path):
        lexicon = open_kwg(path, ruleset)
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


def open_lexicon(path: str | os.PathLike[str] | None = None, format: str = "dawg", ruleset: str = "english",
                 progress: Callable[[str], None] | None = None) -> LexiconBase:
    """A lexicon from a compiled file, a word list (compiled in memory), or the bundled
    ENABLE list when ``path`` is None."""
    if path is None:
        return bundled_lexicon(format, ruleset, progress)
    if not Path(path).exists():
        raise FormatError(f"{path}: no such file")
    if container.looks_like_container(path):
        return formats.load(path)
    from ..formats.kwg import looks_like_kwg, open_kwg

    if looks_like_kwg(path):
        return open_kwg(path, ruleset)
    if progress:
        progress(f"compiling word list {path} in memory")
    return compile_list(path, format, ruleset)[1]


def bundled_lexicon(format: str = "dawg", ruleset: str = "english",
                    progress: Callable[[str], None] | None = None) -> LexiconBase:
    """The bundled ENABLE list compiled to ``format``, from the cache when possible."""
    source = bundled_wordlist()
    tag = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    cached = cache_dir() / f"enable1-{ruleset}-{format}-{__version__}-{tag}.lexc"
    if cached.is_file():
        try:
            return formats.load(cached)
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
