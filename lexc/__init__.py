"""lexc: a lexicon compiler and data-structure toolchain for crossword games.

Public API::

    import lexc
    words = lexc.read_wordlist("wordlists/enable1.txt", lexc.load_ruleset("english").alphabet)
    dawg = lexc.build(words, "dawg")
    lexc.save(dawg, "enable.dawg"); dawg = lexc.load("enable.dawg")
    dawg.anagrams("RETAINS?", sub=True)
"""

from ._version import __version__
from .alphabet import Alphabet
from .formats import FORMATS, FormatError, build, get_format, load, save
from .ruleset import Ruleset, RulesetError, load_ruleset
from .wordlist import WordList, WordListError, read_wordlist

__all__ = ["Alphabet", "FORMATS", "FormatError", "Ruleset", "RulesetError", "WordList", "WordListError",
           "__version__", "build", "get_format", "load", "load_ruleset", "read_wordlist", "save"]
