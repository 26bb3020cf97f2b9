"""lexc: a lexicon compiler and data-structure toolchain for crossword games.

Public API::

    import lexc
    words = lexc.read_wordlist("wordlists/enable1.txt", lexc.load_ruleset("english").alphabet)
    dawg = lexc.build(words, "dawg")
    lexc.save(dawg, "enable.dawg"); dawg = lexc.load("enable.dawg")
    dawg.anagrams("RETAINS?", sub=True)
"""

from typing import TYPE_CHECKING

from ._version import __version__
from .lazy import lazy_names

if TYPE_CHECKING:  # what the lazy names are, for the type checker (imported on first use at run time)
    from .alphabet import Alphabet
    from .errors import LexcError
    from .formats import FORMATS, FormatError, build, get_format, load, save
    from .ruleset import Ruleset, RulesetError, load_ruleset
    from .wordlist import WordList, WordListError, read_wordlist

# the public API, each name imported from its module on first use (``import lexc`` stays cheap:
# a command that needs one format never imports the others)
_API = {
    "Alphabet": "alphabet", "FORMATS": "formats", "FormatError": "formats", "build": "formats",
    "get_format": "formats", "load": "formats", "save": "formats", "Ruleset": "ruleset",
    "RulesetError": "ruleset", "load_ruleset": "ruleset", "WordList": "wordlist", "WordListError": "wordlist",
    "read_wordlist": "wordlist", "LexcError": "errors",
}

__all__ = [
    "FORMATS",
    "Alphabet",
    "FormatError",
    "LexcError",
    "Ruleset",
    "RulesetError",
    "WordList",
    "WordListError",
    "__version__",
    "build",
    "get_format",
    "load",
    "load_ruleset",
    "read_wordlist",
    "save",
]


__getattr__ = lazy_names(__name__, globals(), _API)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
