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
from collections.abc import Iterator, Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import FormatError

if TYPE_CHECKING:
    from .. import native
    from ..alphabet import Alphabet
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
    text: ClassVar[bool] = False  # a text file (a word list refused may be one misnamed: ``named_refusal``)
    in_place: ClassVar[bool] = False  # read as a word graph lexc queries and generates moves on as it is
    # whether lexc generates moves on what it reads (None: as ``in_place``): True for a word graph
    # converted in memory, False for one whose words are not words (a KAD's alphagrams)
    moves: ClassVar[bool | None] = None
    # what its strings are: "words", or "alphagrams" (a KAD: only lexc info, dump, verify, words,
    # check and anagram open it, for its strings are no words to hook, play, count or convert)
    holds: ClassVar[str] = "words"
    max_bytes: ClassVar[int] = 1 << 31  # the largest file read
    ordered: ClassVar[bool] = False  # the bytes depend on the words' order (``write_ordered``, export --keep-order)
    # options ``write_with`` takes (name -> what it sets: a lexicon name or a date the file records);
    # ``stem_option`` names the one that defaults to the output file's name without its extension
    write_options: ClassVar[dict[str, str]] = {}
    stem_option: ClassVar[str] = ""

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """Whether a file whose first bytes are ``head`` (at most ``HEAD``) and whose size is
        ``size`` looks like one of these (its magic, or its structure)."""
        return False

    @classmethod
    def confirm(cls, data: bytes) -> bool:
        """Whether a whole file (at most ``max_bytes``) whose start ``sniff`` matched is one of
        these: asked by ``recognise`` only when several formats' ``sniff`` match the same start
        (a headerless array of entries can look like several). True unless a format can tell."""
        return True

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
    def write_ordered(cls, words: Sequence[bytes], alphabet: Alphabet, ruleset: Ruleset) -> bytes:
        """The words (letter codes of ``alphabet``), in the order given, as this format's
        bytes: for a format whose engine writes a different file for another order
        (``ordered``); the others write the lexicon of the words, in any order."""
        raise NotImplementedError(f"the bytes of a {cls.name} file do not depend on the words' order")

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> None:
        """A one-line FormatError for an option the format does not take (``write_options``)."""
        unknown = sorted(set(options) - set(cls.write_options))
        if unknown:
            takes = ", ".join(cls.write_options) or "none"
            raise FormatError(f"a {cls.name} file takes no option {unknown[0]!r} (its options: {takes})")

    @classmethod
    def write_with(cls, lexicon: LexiconBase, ruleset: Ruleset, options: Mapping[str, str]) -> bytes:
        """``write`` with the format's own options (``write_options``, each checked by
        ``check_options``). Formats that take options override this."""
        cls.check_options(options)
        return cls.write(lexicon, ruleset)

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
                "write": cls.can_write(), "query": cls.can_read(),
                "moves": cls.in_place if cls.moves is None else cls.moves,
                "in_place": cls.in_place, "holds": cls.holds, "options": dict(cls.write_options)}


# name -> (module, class), in the order ``recognise`` tries them: formats with a magic first,
# then those recognised by their structure alone
_WHERE: dict[str, tuple[str, str]] = {
    # -- wolges's family (formats/kwgfamily.md, lexpert.md, macondo.md): with a magic or a
    # fixed header first (Macondo's legacy files, Lexpert's); then the headerless arrays of
    # u32 entries, the KBWG before the KWG (a KBWG can start like a KWG: ``confirm`` tells),
    # the KAD before the DAWG-only KWG (the same start; a KAD's paths are alphagrams)
    "macondo-dawg": ("macondo", "MacondoDawg"),
    "macondo-gaddag": ("macondo", "MacondoGaddag"),
    "lxd": ("lexpert", "Lxd"),
    "kbwg": ("kwgfamily", "Kbwg"),
    # -- end of wolges's family's first block
    "kwg": ("kwg", "Kwg"),
    # leave values (kind "leaves": formats.leaves): read by ``lexc leaves``, converted by ``lexc
    # convert``; a lexicon command refuses them in one line. A KLV16's bytes are a KLV's: it is
    # recognised by name only (its sniff says no).
    "klv2": ("klv", "Klv2"),
    "klv": ("klv", "Klv"),
    "klv16": ("klv", "Klv16"),
    "superleaves": ("superleaves", "Superleaves"),
    "leaves-csv": ("leaves", "LeavesCsv"),
    # Quackle and Zyzzyva (formats/quackle.md, formats/zyzzyva.md): no magic, but a header or
    # a structure precise enough to tell them from each other, from KWG and from text: Quackle's
    # files first (a version byte, a hash, an alphabet or a root node), then Zyzzyva's (an edge
    # count equal to the file's, a 256-slot root list)
    "quackle-dawg": ("quackle", "QuackleDawg"),
    "quackle-gaddag": ("quackle", "QuackleGaddag"),
    "zyzzyva": ("zyzzyva", "Zyzzyva"),
    "zyzzyva-r": ("zyzzyva", "ZyzzyvaReversed"),
    "zyzzyva-checksums": ("zyzzyva", "ZyzzyvaChecksums"),
    # -- wolges's family, second block: DAWG-only arrays (after the KWG: they differ in entry 1)
    "kad": ("kwgfamily", "Kad"),
    "kwg-dawg": ("kwgfamily", "KwgDawg"),
    # -- end of wolges's family
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
    """The foreign format a file's content looks like, or None: the one whose ``sniff``
    matches the file's start; when several do (headerless arrays of entries: a KWG, a KBWG, a
    KAD, a DAWG-only KWG), the first that ``confirm``s the whole file, one whose extension
    the file name has first (a DAWG-only KWG of alphagram-shaped words is a KAD by its
    content alone); when none confirms, the one the name names, else the first (its reader
    then says why: a file cut short). None for UTF-16 text, whatever its start looks like."""
    from ..textfile import looks_like_utf16_text

    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            start = f.read(4096)
    except OSError:
        return None
    head = start[:HEAD]
    candidates = [FOREIGN[name] for name in FOREIGN if FOREIGN[name].can_read() and FOREIGN[name].sniff(head, size)]
    if candidates and looks_like_utf16_text(start):
        return None  # (UTF-16 text of capitals can start as a KWG does: the word-list reader says what it is)
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    from .container import map_file

    most = max(fmt.max_bytes for fmt in candidates)
    try:
        with open(path, "rb") as f:  # (mapped, as the reader will: ENABLE's KAD is not copied twice)
            try:
                data: Any = map_file(f.fileno()) if 0 < size <= most else f.read(most + 1)
            except (OSError, ValueError):  # (a file system that maps no file: read it)
                data = f.read(most + 1)
    except OSError:
        return candidates[0]
    named = by_extension(path)
    named_first = sorted(candidates, key=lambda fmt: fmt.name not in named)  # (a stable sort: FOREIGN's order kept)
    for fmt in named_first:  # (a named candidate that confirms is the answer: the others are not read)
        if len(data) <= fmt.max_bytes and fmt.confirm(data):
            return fmt
    return named_first[0]  # (a cut-short DAWG-only KWG is refused as one, not as a KAD)


def by_extension(path: str | os.PathLike[str]) -> list[str]:
    """The foreign formats whose extensions the file name ends with (several: ``.dawg`` is
    Quackle's, Macondo's and lexc's own); of those, only the ones with the longest matching
    extension (``X-R.dwg`` is Zyzzyva's reversed DAWG, not its ``.dwg``)."""
    name = os.fspath(path).lower()
    longest = {n: max((len(ext) for ext in FOREIGN[n].extensions if name.endswith(ext.lower())), default=0)
               for n in FOREIGN}
    best = max(longest.values(), default=0)
    return [n for n, length in longest.items() if length and length == best]


def looks_binary(head: bytes) -> bool:
    """Whether a file's first bytes are binary data, not text: a NUL byte, and not UTF-16
    text (whose every other byte is NUL: ``textfile.looks_like_utf16_text``)."""
    from ..textfile import looks_like_utf16_text

    return b"\0" in head and not looks_like_utf16_text(head)


def named_refusal(path: str | os.PathLike[str], ruleset: Ruleset) -> str | None:
    """Why a file that no format recognised (and the word-list reader refused) is not what
    its name says: the refusal of the reader of each binary format its extension names
    (``by_extension``; a cut-short KWG says its bytes are not whole entries, not that a
    word list has no line breaks), in one line. None for text (``looks_binary`` false: a word
    list misnamed, UTF-16 too, is refused as one), a lexc file, anything but a regular file,
    a name that names no format, or a file a named reader takes. A leave format's is said
    without reading the file (a lexicon was asked for); a file past a format's size is not
    read."""
    import stat

    from .container import MAGIC

    name = os.fspath(path)
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                return None
            size, head = st.st_size, f.read(4096)
    except OSError:
        return None
    if (head and not looks_binary(head)) or head.startswith(MAGIC):
        return None
    reasons = []
    for fmt_name in by_extension(path):
        fmt = FOREIGN[fmt_name]
        if fmt.text or not fmt.can_read():
            continue
        if fmt.kind == "leaves":
            reasons.append(f"named a {fmt.name} leave-value file ({fmt.engine}), not a lexicon: read it with "
                           f"'lexc leaves {name}'")
            continue
        if size > fmt.max_bytes:
            reasons.append(f"too big for a {fmt.name} file (more than {fmt.max_bytes:,} bytes)")
            continue
        try:
            read_foreign(path, fmt, ruleset)
        except FormatError as exc:
            reasons.append(str(exc).removeprefix(f"{name}: "))
        except OSError:
            return None
        else:
            return None
    return f"{name}: {'; '.join(reasons)}" if reasons else None


def looks_like(head: bytes, size: int) -> str | None:
    """What a file's start (``HEAD`` bytes) and size look like, in a few words, for a
    reader's message refusing a file of another kind: a lexc file, the first foreign format
    that recognises it, or None."""
    from .container import MAGIC

    if head.startswith(MAGIC):
        return "a lexc file"
    for name in FOREIGN:
        fmt = FOREIGN[name]
        if fmt.sniff(head[:HEAD], size):
            return f"a {name} file ({fmt.engine})"
    return None


def read_foreign(path: str | os.PathLike[str], fmt: type[ForeignFormat], ruleset: Ruleset,
                 backend: native.Backend | None = None) -> LexiconBase:
    """A foreign file as a lexicon (``fmt.read``), refused in one line past ``max_bytes``. A
    format read in place (``in_place``: a KWG, a DAWG-only KWG, a KAD) is given a read-only
    map of the file, as lexc's own files are (``container.map_file``), not a copy of it: the
    graph's queries then read the file's own pages (a copy of ENABLE's KWG took 1.7 ms of
    the 2.3 its load took)."""
    from .container import map_file

    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if fmt.in_place and 0 < size <= fmt.max_bytes:
            data: Any = map_file(f.fileno())
        else:
            data = f.read(fmt.max_bytes + 1)
    if len(data) > fmt.max_bytes:
        raise FormatError(f"{path}: too big for a {fmt.name} file (more than {fmt.max_bytes:,} bytes)")
    lexicon = fmt.read(data, os.fspath(path), ruleset, backend)
    lexicon.file_layout = getattr(lexicon, "file_layout", "") or fmt.name  # (a reader may name a variant)
    return lexicon


def refuse_alphagrams(path: str | os.PathLike[str], fmt: type[ForeignFormat]) -> None:
    """FormatError, in one line, for a file whose strings are not words (a KAD's alphagrams)
    opened by a command that needs words."""
    if fmt.holds != "words":
        raise FormatError(f"{os.fspath(path)}: a {fmt.name} file ({fmt.engine}) holds {fmt.holds}, not words: "
                          "lexc check and anagram look racks up in it, lexc words lists them; for words use the "
                          "word graph it was made from")


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


__all__ = ["FOREIGN", "HEAD", "ForeignFormat", "by_extension", "engine_labels", "get_foreign", "looks_binary",
           "looks_like", "named_refusal", "read_foreign", "recognise", "refuse_alphagrams", "tile_map"]
