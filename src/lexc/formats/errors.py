"""The one exception every loader raises for a bad lexicon file."""

from ..errors import LexcError


class FormatError(LexcError):
    """A lexicon file (or payload) is not valid: wrong magic, version, size or checksum,
    or structurally broken. The message is one line that says what is wrong."""
