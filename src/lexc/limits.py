"""Limits shared by the library and the command line, in a module that imports nothing (the
command line reads them to show its options' defaults without importing the library)."""

MAX_RULESET_TEXT = 65536  # bytes of a ruleset file (and of one stored in a lexicon header)
MAX_LISTED_WORDS = 10_000_000  # words a compiled file may spell before listing them all is refused (--max-words)
