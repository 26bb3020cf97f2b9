"""Building, saving and loading any format by name (re-exported by ``lexc.formats``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import native
from .._version import __version__
from ..alphabet import Alphabet
from ..ruleset import RulesetError, check_reference
from ..ruleset import reference as ruleset_reference
from . import FORMATS, container, rereading, schema
from .base import LIST_OPTION_SPECS, LexiconBase
from .errors import FormatError

if TYPE_CHECKING:
    from ..wordlist import WordList


def get_format(name: str) -> type[LexiconBase]:
    """The format class registered under ``name``; FormatError naming the known ones if none."""
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r} (known: {', '.join(FORMATS)})") from None


def build(wordlist: WordList, format: str = "dawg", ruleset: str = "english",
          progress: Callable[[float], None] | None = None, backend: native.Backend | None = None,
          **options: Any) -> LexiconBase:
    """Build a lexicon of the given format from a normalized word list, on ``backend`` (by
    default ``native.select()``'s: the compiled core when it is built). ``progress`` (if
    given) is told the share of the build done, 0.0 to 1.0, as it goes, by the formats whose
    builds take long enough to watch (the GADDAG family); the others build without a word."""
    cls = get_format(format)
    unknown = set(options) - set(cls.options)
    if unknown:
        raise FormatError(f"format {format!r} has no {'option' if len(unknown) == 1 else 'options'} "
                          f"{', '.join(sorted(unknown))}")
    chosen = {**cls.options, **options}
    extra: dict[str, Any] = {"ruleset": ruleset} if cls.uses_ruleset else {}
    if progress is not None:
        extra["progress"] = progress
    misread = rereading.first_misread(wordlist.words, wordlist.alphabet)
    if misread is not None:  # what the loader would refuse is never written (formats/README.md, check 19)
        raise FormatError(misread)
    lexicon = cls.build(wordlist.words, wordlist.alphabet, **chosen, **extra,
                        backend=backend if backend is not None else native.select())
    lexicon.build_options = chosen
    lexicon.wordlist_sha256 = wordlist.sha256
    lexicon.ruleset = ruleset_reference(ruleset)  # a bundled name, or the ruleset's own text
    return lexicon


def dumps(lexicon: LexiconBase, extra_options: dict[str, Any] | None = None) -> bytes:
    """The complete container bytes of a lexicon (deterministic)."""
    options = {**lexicon.build_options, **(extra_options or {})}
    header = {
        "format": lexicon.name,
        "format_version": lexicon.version,
        "alphabet": list(lexicon.alphabet.labels),
        "ruleset": getattr(lexicon, "ruleset", ""),
        "words": lexicon.word_count,
        "options": {k: options[k] for k in sorted(options)},
        "wordlist_sha256": getattr(lexicon, "wordlist_sha256", ""),
        "lexc_version": __version__,
        "meta": lexicon.meta(),
    }
    return container.pack(header, lexicon.payload())


def save(lexicon: LexiconBase, path: str | os.PathLike[str], extra_options: dict[str, Any] | None = None) -> int:
    """Write a lexicon file atomically; returns its size in bytes."""
    data = dumps(lexicon, extra_options)
    container.write_atomic(path, data)
    return len(data)


def loads(data: bytes, name: str = "<bytes>", backend: native.Backend | None = None) -> LexiconBase:
    """A lexicon from container bytes, every check done first, on ``backend`` (by default
    ``native.select()``'s)."""
    header, payload = container.unpack(data, name)
    return _from_checked(header, payload, name, backend)


def load(path: str | os.PathLike[str], backend: native.Backend | None = None) -> LexiconBase:
    """Load a lexicon file, every check done first, on ``backend`` (by default
    ``native.select()``'s: the compiled core when it is built, unless ``LEXC_PURE=1``)."""
    header, payload = container.read_file(path)
    return _from_checked(header, payload, str(path), backend)


@lru_cache(maxsize=32)
def _alphabet(labels: tuple[str, ...]) -> Alphabet:
    """The alphabet of a header's labels, made once for each (an ``Alphabet`` never changes):
    ValueError for labels that make none."""
    return Alphabet(labels)


def _from_checked(header: dict[str, Any], payload: Any, name: str,
                  backend: native.Backend | None = None) -> LexiconBase:
    """Instantiate the format named in a checked header."""
    cls = FORMATS.get(header["format"])
    if cls is None:
        raise FormatError(f"{name}: unknown format {header['format']!r} (known: {', '.join(FORMATS)})")
    if header["format_version"] != cls.version:
        found = header["format_version"]
        fix = (f"rebuild it from its word list: lexc build WORDLIST -f {cls.name}" if found < cls.version
               else "it was written by a newer lexc: upgrade lexc")
        raise FormatError(f"{name}: {cls.name} version {found} is not supported (this lexc reads version "
                          f"{cls.version}); {fix}")
    try:
        alphabet = _alphabet(tuple(header["alphabet"]))
    except ValueError as exc:
        raise FormatError(f"{name}: bad alphabet in header ({exc})") from None
    if tuple(header["alphabet"]) != alphabet.labels:
        raise FormatError(f"{name}: the header's alphabet is not in normal form (NFC, upper case)")
    try:
        schema.check_map("options", header["options"], {**LIST_OPTION_SPECS, **cls.option_specs})
        schema.check_map("meta", header["meta"], cls.meta_specs, cls.meta_required)
        check_reference(header["ruleset"])
    except (FormatError, RulesetError) as exc:
        raise FormatError(f"{name}: {exc}") from None
    try:
        lexicon = cls.from_payload(payload if cls.zero_copy else bytes(payload), header, alphabet,
                                   backend if backend is not None else native.select())
        lexicon.source = name
        rereading.prove(lexicon)  # every stored word reads back as its tiles
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None
    lexicon.build_options = dict(header["options"])
    lexicon.wordlist_sha256 = header["wordlist_sha256"]
    lexicon.ruleset = header["ruleset"]
    lexicon.header = header
    return lexicon
