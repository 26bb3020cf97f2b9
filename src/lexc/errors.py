"""The one base of every error lexc raises for its user's input: ``LexcError``.

Every library error (a bad word list, alphabet, ruleset, pattern, play, position, game
record, lexicon file, search or bench) derives from it, so a program using lexc catches
``LexcError`` for "the input was bad" and the command line turns exactly these (and
``OSError``, a file the user named) into one line and exit status 2. The classes beneath it
keep ``ValueError`` (or ``RuntimeError``) as a second base where they had it, so code that
caught those still works. The compiled core raises its own errors as subclasses too
(``lexc.native``).
"""


class LexcError(Exception):
    """Bad input to lexc; the message is one line that says what is wrong."""
