"""Other engines' files: the registry of foreign formats (``FOREIGN``), each an engine's file
kind that lexc reads, writes, or both (``formats/README.md``, "Other engines' files").

A foreign format is a class with the engine's name for the file, its extensions, the spec
in ``formats/``, and up to three class methods: ``sniff`` (does this content look like one:
most of these files have no magic, so a format recognises its own structure), ``read``
(the bytes, checked as lexc's own files are before any query, as a lexicon: read in place
where the format is a word graph lexc can walk, ``in_place``, else its words rebuilt), and
``write`` (a lexicon's words as the engine's bytes). Tiles go by label, never by number:
a format that stores tile numbers maps them through ``engine_labels``, the engine's letter
order for the ruleset, and refuses in one line a word the target cannot hold.

The registry imports a format's module only when the format is asked for, as ``FORMATS``
does; ``recognise`` tries the formats in registry order (those with a magic first).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import FormatError

if TYPE_CHECKING:
    from .. import native
    from ..ruleset import Ruleset
    from .base import LexiconBase

HEAD = 64  # bytes of a file's start a ``sniff`` is given (with the file's size)


class ForeignFormat:
    """One engine's file kind. Subclasses set the class attributes and implement what the
    format can do; ``can_read``/``can_write`` say which of ``read``/``write`` they have."""

    name: ClassVar[str] = ""  # lexc's name for it (``--to NAME``)
    engine: ClassVar[str] = ""  # the engine(s) that read and write it
    extensions: ClassVar[tuple[str, ...]] = ()  # file name endings, with the dot
    description: ClassVar[str] = ""
    spec: ClassVar[str] = ""  # the written spec, formats/NAME.md
    kind: ClassVar[str] = "lexicon"  # "lexicon", or "leaves" (leave values)
    in_place: ClassVar[bool] = False  # read as a word graph lexc queries and generates moves on as it is
    max_bytes: ClassVar[int] = 1 << 31  # the largest file read

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """Whether a file whose first bytes are ``head`` (at most ``HEAD``) and whose size is
        ``size`` looks like one of these (its magic, or its structure)."""
        return False

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> LexiconBase:
        """The file's words as a lexicon, every check done first (FormatError, one line,
        naming ``name``)."""
        raise NotImplementedError(f"lexc does not read {cls.name} files")

    @classmethod
    def write(cls, lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
        """The lexicon's words as this format's bytes (FormatError for a word or a size the
        format cannot hold, naming it)."""
        raise NotImplementedError(f"lexc does not write {cls.name} files")

    @classmethod
    def can_read(cls) -> bool:
        """Whether lexc reads these files."""
        return cls.read.__func__ is not ForeignFormat.read.__func__  # type: ignore[attr-defined]

    @classmethod
    def can_write(cls) -> bool:
        """Whether lexc writes these files."""
        return cls.write.__func__ is not ForeignFormat.write.__func__  # type: ignore[attr-defined]

    @classmethod
    def summary(cls) -> dict[str, Any]:
        """A JSON-friendly description (``lexc formats``)."""
        return {"name": cls.name, "engine": cls.engine, "extensions": list(cls.extensions),
                "description": cls.description, "spec": cls.spec, "kind": cls.kind, "read": cls.can_read(),
                "write": cls.can_write(), "query": cls.can_read(), "moves": cls.in_place}


# name -> (module, class), in the order ``recognise`` tries them: formats with a magic first,
# then those recognised by their structure alone
_WHERE: dict[str, tuple[str, str]] = {
    "kwg": ("kwg", "Kwg"),
    # leave values (kind "leaves": formats.leaves): read by ``lexc leaves``, converted by ``lexc
    # convert``; a lexicon command refuses them in one line. A KLV16's bytes are a KLV's: it is
    # recognised by name only (its sniff says no).
    "klv2": ("klv", "Klv2"),
    "klv": ("klv", "Klv"),
    "klv16": ("klv", "Klv16"),
    "superleaves": ("superleaves", "Superleaves"),
    "leaves-csv": ("leaves", "LeavesCsv"),
}


class ForeignRegistry(Mapping[str, "type[ForeignFormat]"]):
    """Foreign format name -> class, each module imported on first use."""

    def __init__(self, where: dict[str, tuple[str, str]]):
        self._entries: dict[str, type[ForeignFormat] | tuple[str, str]] = dict(where)

    def __getitem__(self, name: str) -> type[ForeignFormat]:
        entry = self._entries[name]
        if isinstance(entry, tuple):
            module, cls = entry
            entry = self._entries[name] = getattr(import_module(f"{__package__}.{module}"), cls)
        return entry

    def register(self, cls: type[ForeignFormat]) -> None:
        """Add a format (its ``name``), after the registered ones."""
        self._entries[cls.name] = cls

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


FOREIGN = ForeignRegistry(_WHERE)


def get_foreign(name: str) -> type[ForeignFormat]:
    """The foreign format registered under ``name``; FormatError naming the known ones if none."""
    try:
        return FOREIGN[name]
    except KeyError:
        raise FormatError(f"unknown engine format {name!r} (known: {', '.join(FOREIGN)})") from None


def recognise(path: str | os.PathLike[str]) -> type[ForeignFormat] | None:
    """The foreign format a file's content looks like (the first that recognises it), or None."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(HEAD)
    except OSError:
        return None
    for name in FOREIGN:
        fmt = FOREIGN[name]
        if fmt.can_read() and fmt.sniff(head, size):
            return fmt
    return None


def by_extension(path: str | os.PathLike[str]) -> list[str]:
    """The foreign formats whose extensions the file name ends with (several: ``.dawg`` is
    Quackle's, Macondo's and lexc's own)."""
    name = os.fspath(path).lower()
    return [n for n in FOREIGN if any(name.endswith(ext) for ext in FOREIGN[n].extensions)]


def read_foreign(path: str | os.PathLike[str], fmt: type[ForeignFormat], ruleset: Ruleset,
                 backend: native.Backend | None = None) -> LexiconBase:
    """A foreign file as a lexicon (``fmt.read``), refused in one line past ``max_bytes``."""
    with open(path, "rb") as f:
        data = f.read(fmt.max_bytes + 1)
    if len(data) > fmt.max_bytes:
        raise FormatError(f"{path}: too big for a {fmt.name} file (more than {fmt.max_bytes:,} bytes)")
    lexicon = fmt.read(data, os.fspath(path), ruleset, backend)
    lexicon.file_layout = fmt.name
    return lexicon


def engine_labels(ruleset: Ruleset, engine: str) -> tuple[str, ...]:
    """The labels of the ruleset's letters in the order the engine numbers its tiles (tile 1
    first): the ruleset's ``engine_orders`` table when it names the engine, else the
    ruleset's own order (which the engines share for the bundled rulesets)."""
    return ruleset.engine_order(engine)


def tile_map(ruleset: Ruleset, engine: str) -> tuple[bytes, bytes]:
    """Translation tables between the engine's tile numbers and the ruleset's letter codes
    (``bytes.translate``): (engine -> lexc, lexc -> engine); tile 0 (a separator, or the
    blank) maps to itself. Identity when the orders agree."""
    alphabet = ruleset.alphabet
    order = engine_labels(ruleset, engine)
    to_lexc = bytearray(range(256))
    to_engine = bytearray(range(256))
    for number, label in enumerate(order, 1):
        code = alphabet.code(label)
        to_lexc[number], to_engine[code] = code, number
    return bytes(to_lexc), bytes(to_engine)


__all__ = ["FOREIGN", "HEAD", "ForeignFormat", "by_extension", "engine_labels", "get_foreign", "read_foreign",
           "recognise", "tile_map"]
