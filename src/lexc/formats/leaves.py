"""Leave values: the table every engine ranks plays by (equity = score + the value of the tiles
kept), and the files the engines keep it in (``formats/leaves.md``).

A ``LeaveTable`` maps a leave -- a multiset of tiles, the blank included, written as its
letter codes sorted (the blank, code 0, first) -- to a value in points. It is read from and
written to every engine's leave file, each a ``LeaveFormat`` in the foreign registry
(``formats.foreign``, kind ``leaves``): wolges's and MAGPIE's KLV2 (f32 values) and KLV (i16
in 1/256 points), wolges's KLV16 (i16 in 1/8 points), the engines' ``leave,value`` CSV
(``leaves-csv`` here), and Quackle's superleaves file. Tiles go by label, never by number:
each format maps lexc's codes to its engine's tile numbers (``foreign.tile_map``).

Precision is kept honestly: a table knows the precision of the file it came from
(``Precision``), a conversion to a coarser one rounds the way that engine's writer does and
reports the largest rounding error (``Rounding``; the command line warns once), and a round
trip at the coarser precision is exact.

A leave's value is looked up in constant time: a table read from a KLV answers by the
engines' own lookup, the leave's rank in the stored graph (``klv.KlvGraph.rank``: a walk
of at most rack-size steps over sibling lists of at most the alphabet's size), any other
table by its dict. The rank walk runs on the arrays of the file as they are (edges, and the
count of leaves below each edge): in the compiled core behind ``lexc.native``'s backend
(``src/lexc/native/leaves.c``) when it is built, else in Python (``KlvGraph.rank_pure``, the
reference).
"""

from __future__ import annotations

import math
import os
import re
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, ClassVar

from ..alphabet import BLANK_CHAR, AlphabetError
from ..plural import plural
from .errors import FormatError
from .foreign import FOREIGN, HEAD, ForeignFormat, by_extension, looks_binary

if TYPE_CHECKING:
    from .. import native
    from ..ruleset import Ruleset
    from .base import LexiconBase
    from .klv import KlvGraph

BLANK = 0  # the blank's code in a leave (and its tile number in every engine's leave file)
MAX_LEAVES = 1 << 24  # leaves a table may hold (TWL06's full table: 914,624)
MAX_LEAVES_BYTES = 1 << 30  # the largest leave file read
MAX_CSV_LINE = 256  # characters of a CSV line (MAGPIE reads at most 256)


# -- precision --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Precision:
    """How exactly a file holds a value: ``step`` points (None: a float), rounded to the
    nearest step (``floor``: truncated, as Quackle's writer does), within ``low``..``high``;
    ``f32``: a 32-bit float."""

    name: str
    step: float | None = None
    f32: bool = False
    floor: bool = False
    low: float = -math.inf
    high: float = math.inf

    milli: bool = False  # MAGPIE: rounded to 1/1000 point first (its Equity), then an f32

    def quantize(self, value: float) -> float:
        """The value this precision stores for ``value``."""
        if self.milli:
            return to_f32(round_half_away(value * 1000) / 1000)
        if self.f32:
            return to_f32(value)
        if self.step is None:
            return value
        if self.floor:  # Quackle: (unsigned short)((v + 128) * 256), a C cast that truncates
            units = math.floor((value - self.low) / self.step)
            return units * self.step + self.low
        return round_half_away(to_f32(value) / self.step) * self.step  # wolges: f32, * scale, round

    def units(self, value: float) -> int:
        """The integer a file of this precision stores for an already quantized value."""
        assert self.step is not None
        return round((value - (self.low if self.floor else 0.0)) / self.step)

    def check_range(self, leave: Callable[[], str], stored: float, given: float) -> None:
        """A one-line FormatError naming the leave (``leave()``) and the limit when the value
        ``given`` is stored as ``stored`` out of the range (an f32 overflows to infinity)."""
        if not self.low <= stored <= self.high:  # (a NaN fails too)
            shown = fmt_value(given) if abs(given) < 1e16 else f"{given:.6g}"
            raise FormatError(f"leave {leave()}: value {shown} does not fit the {self.name} range "
                              f"({fmt_value(self.low) if self.step else f'{self.low:.6g}'} .. "
                              f"{fmt_value(self.high) if self.step else f'{self.high:.6g}'} points)")


EXACT = Precision("decimal")
F32 = Precision("f32", f32=True, low=-3.4028234663852886e38, high=3.4028234663852886e38)
I16_256 = Precision("1/256 point", step=1 / 256, low=-32768 / 256, high=32767 / 256)
I16_8 = Precision("1/8 point", step=1 / 8, low=-32768 / 8, high=32767 / 8)
MAGPIE_F32 = Precision("f32 of a 1/1000 point", f32=True, milli=True, low=F32.low, high=F32.high)
QUACKLE = Precision("1/256 point, truncated", step=1 / 256, floor=True, low=-128.0, high=128.0 - 1 / 256)


def to_f32(value: float) -> float:
    """The nearest 32-bit float (as a Python float); an OverflowError past its range."""
    result: float = struct.unpack("<f", struct.pack("<f", value))[0]
    return result


def round_half_away(x: float) -> int:
    """Round to the nearest integer, halves away from zero (C's and Rust's ``round``)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def fmt_value(value: float, f32: bool = False) -> str:
    """A value as the engines' text form writes it: the shortest decimal that reads back as
    the same value (as the same 32-bit float with ``f32``, as wolges's ``read`` prints a
    KLV), always with a decimal point, never an exponent (``1.0``, ``-4.1015625``)."""
    if f32 and math.isfinite(value):
        for digits in range(1, 18):
            text = f"{value:.{digits}g}"
            if to_f32(float(text)) == value:
                break
    else:
        text = repr(value)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    if "." not in text and "inf" not in text and "nan" not in text:
        text += ".0"
    return text


def _is_f32(value: float) -> bool:
    """Whether a value is a 32-bit float's (a KLV2's): shown as its shortest f32 text."""
    try:
        return math.isfinite(value) and to_f32(value) == value
    except OverflowError:
        return False


@dataclass
class Rounding:
    """What writing a table at a coarser precision did: how many values changed, the largest
    change, and the leave that had it (the command line warns once with it)."""

    precision: str
    changed: int = 0
    largest: float = 0.0
    leave: str = ""
    before: float = 0.0
    after: float = 0.0

    def note(self, what: str) -> str:
        """The one warning line (empty when nothing changed)."""
        if not self.changed:
            return ""
        return (f"{what} holds values to {self.precision}: {plural(self.changed, 'value')} rounded, the largest "
                f"error {self.largest:.6g} points ({self.leave}: {fmt_value(self.before, _is_f32(self.before))} -> "
                f"{fmt_value(self.after)})")

    def as_dict(self) -> dict[str, Any]:
        return {"precision": self.precision, "values_rounded": self.changed, "largest_error": self.largest,
                "leave": self.leave}


# -- the table --------------------------------------------------------------------------------

class LeaveTable:
    """Leave -> value. ``values`` maps each leave (its codes sorted, the blank first) to
    its value in points, in the order of the file it came from (a KLV's rank order, a CSV's
    line order); ``precision`` is that file's; ``graph`` the KLV graph it was read from, whose
    rank lookup answers ``value`` as the engines do."""

    def __init__(self, values: dict[bytes, float], ruleset: Ruleset, precision: Precision = EXACT,
                 file_format: str = "", source: str = "", graph: KlvGraph | None = None):
        self.values = values
        self.ruleset = ruleset
        self.precision = precision
        self.file_format = file_format
        self.source = source
        self.graph = graph  # (a KLV's graph, in lexc's codes: the engines' rank lookup)
        self._ranked: list[float] | None = None
        self._ascii: bytes | None = None  # (code -> character, for an alphabet of ASCII letters)

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.values)

    def items(self) -> Iterable[tuple[bytes, float]]:
        return self.values.items()

    @property
    def alphabet(self) -> Any:
        return self.ruleset.alphabet

    def text(self, leave: bytes) -> str:
        """A leave as text: the blanks first as ``?``, then the letters (multi-character
        tiles bracketed where they would read as others)."""
        if self._ascii is None:
            labels = self.alphabet.labels
            self._ascii = b""
            if all(len(label) == 1 and label.isascii() for label in labels):
                self._ascii = bytes([ord(BLANK_CHAR), *(ord(label) for label in labels)]).ljust(256, b"?")
        if self._ascii:
            return leave.translate(self._ascii).decode("ascii")
        blanks = leave.count(BLANK)
        letters = [c for c in leave if c != BLANK]
        return BLANK_CHAR * blanks + (self.alphabet.rack_text(letters) if letters else "")

    def leave_of(self, rack: str) -> bytes:
        """A rack's tiles as a leave (codes sorted, the blank first); an AlphabetError for a
        tile outside the alphabet."""
        letters, blanks = self.alphabet.parse_rack(rack)
        return bytes([BLANK] * blanks + sorted(letters))

    def rank(self, leave: bytes) -> int | None:
        """The leave's rank in the stored KLV graph (the index of its value), None when it is
        not stored; None for a table that was not read from a KLV."""
        if self.graph is None:
            return None
        return self.graph.rank(bytes(sorted(leave)))

    def value(self, leave: bytes) -> float:
        """The value of a leave (its codes in any order): the engines' lookup, its rank in
        the stored graph for a table read from a KLV; 0.0 for a leave not stored (and for the
        empty leave), as wolges and MAGPIE answer."""
        leave = bytes(sorted(leave))
        if self.graph is not None:
            if self._ranked is None:
                self._ranked = list(self.values.values())
            rank = self.graph.rank(leave)
            return 0.0 if rank is None else self._ranked[rank]
        return self.values.get(leave, 0.0)

    def stats(self) -> dict[str, Any]:
        """Counts for ``lexc leaves``: leaves by length, the smallest and largest value."""
        lengths: dict[int, int] = {}
        for leave in self.values:
            lengths[len(leave)] = lengths.get(len(leave), 0) + 1
        vals = list(self.values.values())
        return {"leaves": len(self.values), "by_length": {str(k): lengths[k] for k in sorted(lengths)},
                "min": min(vals) if vals else None, "max": max(vals) if vals else None,
                "precision": self.precision.name, "format": self.file_format, "ruleset": self.ruleset.name}

    def at(self, precision: Precision) -> tuple[dict[bytes, float], Rounding]:
        """The values as ``precision`` stores them, and what that rounded. A FormatError,
        naming the leave and the limit, for a value out of its range."""
        rounding = Rounding(precision.name)
        if precision == self.precision:
            return dict(self.values), rounding
        out: dict[bytes, float] = {}
        quantized = _bulk(precision, list(self.values.values()))
        for (leave, value), stored in zip(self.values.items(), quantized, strict=True):
            precision.check_range(lambda: self.text(leave), stored, value)  # noqa: B023 (called at once)
            out[leave] = stored
            error = abs(stored - value)
            if precision.f32 and error and keeps_decimal(value, stored):
                error = 0.0  # (a decimal the f32 reads back as, 0.1: nothing of the text form is lost)
            if error:
                rounding.changed += 1
                if error > rounding.largest:
                    rounding.largest, rounding.leave = error, self.text(leave)
                    rounding.before, rounding.after = value, stored
        return out, rounding

    def sorted_leaves(self) -> list[bytes]:
        """The leaves in code order (the blank first): the rank order of a KLV of them."""
        return sorted(self.values)


def keeps_decimal(value: float, stored: float) -> bool:
    """Whether the f32 ``stored`` gives back ``value``'s shortest decimal when written with
    as many significant digits (0.1 stored as an f32 is still 0.1: nothing written is lost)."""
    text = repr(value)
    mantissa = text.split("e")[0].lstrip("-").replace(".", "").lstrip("0").rstrip("0") or "0"
    digits = len(mantissa)
    if digits > 9:
        return False
    return float(f"{stored:.{digits}g}") == value


def _bulk(precision: Precision, values: list[float]) -> list[float]:
    """``precision.quantize`` of many values, the f32 conversion done at once (an f32 that
    overflows comes back infinite: the range check names it)."""
    if not (precision.f32 or (precision.step is not None and not precision.floor)):
        return [precision.quantize(v) for v in values]
    if precision.milli:
        return _bulk(F32, [round_half_away(v * 1000) / 1000 for v in values])
    big = F32.high
    f32s = struct.unpack(f"<{len(values)}f", struct.pack(f"<{len(values)}f", *(
        v if -big <= v <= big else math.copysign(big, v) for v in values)))
    f32s = tuple(f if -big <= v <= big else math.copysign(math.inf, v) for f, v in zip(f32s, values, strict=True))
    if precision.f32:
        return list(f32s)
    step = precision.step
    assert step is not None
    return [math.copysign(math.floor(abs(f / step) + 0.5), f) * step if math.isfinite(f) else f for f in f32s]


def check_leave(leave: bytes, ruleset: Ruleset, where: str, text: str) -> None:
    """A leave a rack of the ruleset can keep: not empty, no longer than the rack (a
    one-line FormatError naming ``text``)."""
    if not leave:
        raise FormatError(f"{where}: an empty leave")
    if len(leave) > ruleset.rack_size:
        raise FormatError(f"{where}: leave {text} has {len(leave)} tiles, more than the {ruleset.name} rack's "
                          f"{ruleset.rack_size}")


def drawable_leaves(ruleset: Ruleset, longest: int | None = None) -> Iterator[bytes]:
    """Every leave of 1 .. ``longest`` tiles (default: rack size - 1) the bag can hold, by
    length, then in code order (the blank first): MAGPIE's order of every sub-rack
    (klv2csv, csv2klv)."""
    counts = [ruleset.count(code) for code in range(len(ruleset.alphabet) + 1)]
    codes = [code for code, count in enumerate(counts) if count]
    longest = ruleset.rack_size - 1 if longest is None else longest
    for length in range(1, longest + 1):
        # (the multisets of a length in order, C-fast, less those holding a tile more often than the bag)
        too_many = [re.escape(bytes([code]) * (count + 1)) for code, count in enumerate(counts) if 0 < count < length]
        if not too_many:
            yield from map(bytes, combinations_with_replacement(codes, length))
            continue
        over = re.compile(b"|".join(too_many)).search
        yield from (leave for leave in map(bytes, combinations_with_replacement(codes, length)) if not over(leave))


# -- the formats ------------------------------------------------------------------------------

class LeaveFormat(ForeignFormat):
    """An engine's leave-value file: ``read_leaves`` gives a ``LeaveTable`` (every check done
    first), ``write_leaves`` the bytes of one (and what rounding cost). ``read``, the
    lexicon reader every command uses, refuses the file in one line saying what it is."""

    kind = "leaves"
    moves = False  # (leave values: no words to play)
    precision: ClassVar[Precision] = EXACT
    max_bytes = MAX_LEAVES_BYTES

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> LexiconBase:
        raise FormatError(f"{name}: a {cls.name} leave-value file ({cls.engine}), not a lexicon: "
                          f"read it with 'lexc leaves {name}'")

    @classmethod
    def read_leaves(cls, data: bytes, name: str, ruleset: Ruleset) -> LeaveTable:
        raise NotImplementedError(f"lexc does not read {cls.name} files")

    @classmethod
    def write_leaves(cls, table: LeaveTable, ruleset: Ruleset, like: str = "") -> tuple[bytes, Rounding]:
        raise NotImplementedError(f"lexc does not write {cls.name} files")

    @classmethod
    def can_read(cls) -> bool:
        return cls.read_leaves.__func__ is not LeaveFormat.read_leaves.__func__  # type: ignore[attr-defined]

    @classmethod
    def can_write(cls) -> bool:
        return cls.write_leaves.__func__ is not LeaveFormat.write_leaves.__func__  # type: ignore[attr-defined]

    @classmethod
    def summary(cls) -> dict[str, Any]:
        return {**super().summary(), "precision": cls.precision.name}


_CSV_LINE = re.compile(r"\s*([^,\s][^,]*?)\s*,\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*")


class LeavesCsv(LeaveFormat):
    """The engines' text form: one ``LEAVE,VALUE`` line per leave (wolges's buildlex input
    and read output, MAGPIE's csv2klv input and klv2csv output)."""

    name = "leaves-csv"
    engine = "wolges, MAGPIE"
    extensions = (".csv",)
    text = True
    description = "leave values as text: one LEAVE,VALUE line a leave (blank ?), as wolges and MAGPIE read and write"
    spec = "formats/leaves.md"

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """Its first whole line is ``LEAVE,NUMBER`` (or the header ``leave,value``)."""
        line = head.split(b"\n", 1)[0].rstrip(b"\r")
        if len(line) == len(head) and size > len(head):
            return False  # (no whole first line in the head)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return bool(_CSV_LINE.fullmatch(text)) or text.strip().lower() == "leave,value"

    @classmethod
    def read_leaves(cls, data: bytes, name: str, ruleset: Ruleset) -> LeaveTable:
        """Every line ``LEAVE,VALUE`` (blank lines skipped, a first line ``leave,value``
        taken for a header): the leave in any order of its tiles (``?`` the blank), the value
        any decimal number. A one-line FormatError naming the line for anything else, a
        duplicate leave (in any order of its tiles), a leave longer than the rack."""
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FormatError(f"{name}: not a leave,value CSV (byte {exc.start} is not UTF-8 text)") from None
        values: dict[bytes, float] = {}
        alphabet = ruleset.alphabet
        # (one upper-case character a tile, the common case: read without the rack parser)
        simple = {label: alphabet.code(label) for label in alphabet.labels if alphabet.single_char and label.isupper()}
        simple[BLANK_CHAR] = BLANK
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if len(line) > MAX_CSV_LINE:
                raise FormatError(f"{name}:{number}: a line of {len(line):,} characters (at most {MAX_CSV_LINE})")
            match = _CSV_LINE.fullmatch(line)
            if match is None:
                if number == 1 and line.strip().lower() == "leave,value":
                    continue
                shown = line if len(line) <= 40 else line[:40] + "..."
                raise FormatError(f"{name}:{number}: {shown!r} is not a LEAVE,VALUE line" + (
                    " (a word list? a leave CSV has a value on every line)" if "," not in line else ""))
            leave_text, value_text = match.groups()
            try:
                leave = bytes(sorted(simple[ch] for ch in leave_text))
            except KeyError:
                try:
                    letters, blanks = alphabet.parse_rack(leave_text)
                except AlphabetError as exc:
                    raise FormatError(f"{name}:{number}: leave {leave_text!r}: {exc}") from None
                leave = bytes([BLANK] * blanks + sorted(letters))
            check_leave(leave, ruleset, f"{name}:{number}", leave_text)
            value = float(value_text)
            if not math.isfinite(value):
                raise FormatError(f"{name}:{number}: value {value_text!r} is not a finite number")
            if leave in values:
                raise FormatError(f"{name}:{number}: leave {leave_text} is given twice")
            if len(values) >= MAX_LEAVES:
                raise FormatError(f"{name}: more than {MAX_LEAVES:,} leaves")
            values[leave] = value
        if not values:
            raise FormatError(f"{name}: no LEAVE,VALUE line")
        return LeaveTable(values, ruleset, EXACT, cls.name, name)

    @classmethod
    def write_leaves(cls, table: LeaveTable, ruleset: Ruleset, like: str = "") -> tuple[bytes, Rounding]:
        """One ``LEAVE,VALUE`` line a leave, LF-terminated. As wolges's ``read`` writes it
        (the default): the leaves in tile order (a KLV's rank order), each value the shortest decimal that
        reads back as itself (as a 32-bit float for a table read from a KLV). ``like="magpie"``:
        as MAGPIE's ``klv2csv`` writes it, every leave the bag can hold of 1 to rack-size - 1
        tiles (by length, then in tile order; 0 for one the table lacks), each value
        ``%f`` of its value in MAGPIE's milli-points (so rounded to 1/1000 point)."""
        if like == "magpie":
            rounding = Rounding("1/1000 point (MAGPIE's milli-points)")
            f32 = table.precision.f32 or table.precision.step is not None
            lines = []
            for leave in drawable_leaves(ruleset):
                value = table.values.get(leave, 0.0)
                stored = round_half_away(value * 1000) / 1000
                error = abs(stored - value)
                if error and not (f32 and keeps_decimal(stored, value)):  # (0.1 as an f32 is 0.1)
                    rounding.changed += 1
                    if error > rounding.largest:
                        rounding.largest, rounding.leave = error, table.text(leave)
                        rounding.before, rounding.after = value, stored
                lines.append(f"{table.text(leave)},{stored:f}\n")
            return "".join(lines).encode("utf-8"), rounding
        f32 = table.precision.f32 or table.precision.step is not None
        values = table.values
        body = "".join(f"{table.text(leave)},{fmt_value(values[leave], f32)}\n" for leave in table.sorted_leaves())
        return body.encode("utf-8"), Rounding("decimal")


# -- reading and writing files ----------------------------------------------------------------

LEAVE_FORMATS = ("klv2", "klv", "klv16", "leaves-csv", "superleaves")


def leave_format(name: str) -> type[LeaveFormat]:
    """The leave format registered under ``name``; a FormatError naming the known ones."""
    fmt = FOREIGN.get(name)
    if fmt is None or not issubclass(fmt, LeaveFormat):
        raise FormatError(f"unknown leave format {name!r} (known: {', '.join(LEAVE_FORMATS)})")
    return fmt


def detect(data: bytes, name: str) -> type[ForeignFormat] | None:
    """The foreign format (leave or lexicon) a file's bytes look like, or None."""
    head = data[:HEAD]
    for fmt_name in FOREIGN:
        fmt = FOREIGN[fmt_name]
        if fmt.can_read() and fmt.sniff(head, len(data)):
            return fmt
    return None


def read_leaves(path: str | os.PathLike[str], ruleset: Ruleset, fmt: str | None = None) -> LeaveTable:
    """A leave file as a table: the format ``fmt`` names, else the one its content looks
    like (a KLV16 only by name, ``fmt`` or a ``.klv16`` file name: its bytes are a KLV's). A
    one-line FormatError for a file that is no leave file, saying what it looks like."""
    name = os.fspath(path)
    if fmt is None and name.lower().endswith(".klv16"):
        fmt = "klv16"  # (its bytes are a KLV's: the name is what tells them apart)
    with open(path, "rb") as f:
        data = f.read(MAX_LEAVES_BYTES + 1)
    if len(data) > MAX_LEAVES_BYTES:
        raise FormatError(f"{name}: too big for a leave file (more than {MAX_LEAVES_BYTES:,} bytes)")
    return loads_leaves(data, name, ruleset, fmt)


def loads_leaves(data: bytes, name: str, ruleset: Ruleset, fmt: str | None = None) -> LeaveTable:
    """``read_leaves`` on bytes."""
    if fmt is not None:
        return leave_format(fmt).read_leaves(data, name, ruleset)
    found = detect(data, name)
    if found is None:
        named = [n for n in by_extension(name) if n in LEAVE_FORMATS and not FOREIGN[n].text]
        if named and looks_binary(data[:4096]):  # (a cut-short KLV2 is refused by the KLV reader, which says
            # what its size should be; a text file misnamed is refused as what it looks like)
            return leave_format(named[0]).read_leaves(data, name, ruleset)
        raise FormatError(f"{name}: not a leave file ({what_it_looks_like(data)}); lexc reads "
                          f"{', '.join(LEAVE_FORMATS)} (a klv16 only when named: --from klv16)")
    if not issubclass(found, LeaveFormat):
        raise FormatError(f"{name}: a {found.name} file ({found.engine}: {found.description}), not a leave file")
    return found.read_leaves(data, name, ruleset)


def what_it_looks_like(data: bytes) -> str:
    """A few words on what a file that no reader recognised looks like."""
    if not data:
        return "it is empty"
    from .container import MAGIC

    if data.startswith(MAGIC):
        return "a lexc lexicon file"
    try:
        text = data[:4096].decode("utf-8")
    except UnicodeDecodeError:
        return f"{plural(len(data), 'byte')} of binary data in no layout lexc knows"
    first = text.splitlines()[0] if text.splitlines() else ""
    if first and "," not in first and first.strip().isalpha():
        return "a word list: one word a line"
    return "text, but not LEAVE,VALUE lines"


def write_leaves(table: LeaveTable, fmt: str, ruleset: Ruleset | None = None, like: str = "") -> tuple[bytes, Rounding]:
    """A table as ``fmt``'s bytes and the rounding it took (``like``: ``magpie`` writes as
    MAGPIE's writer does: a KLV2 of every sub-rack, the CSV of every sub-rack)."""
    target = leave_format(fmt)
    if not target.can_write():
        raise FormatError(f"lexc reads {target.name} files but does not write them")
    return target.write_leaves(table, ruleset or table.ruleset, like)


def convert_leaves(source: str | os.PathLike[str], out: str | os.PathLike[str], fmt: str, ruleset: Ruleset,
                   source_format: str | None = None, like: str = "",
                   warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Read a leave file and write it as ``fmt``, atomically; the report. ``warn`` is told
    once, when the target's precision rounded a value, the largest error."""
    from .container import write_atomic

    table = read_leaves(source, ruleset, source_format)
    data, rounding = write_leaves(table, fmt, ruleset, like)
    if rounding.changed and warn is not None:
        warn(rounding.note(os.fspath(out)))
    write_atomic(out, data)
    return {"output": os.fspath(out), "to": fmt, "from": table.file_format, "source": os.fspath(source),
            "leaves": len(table), "file_bytes": len(data), "rounding": rounding.as_dict(), "like": like or None}


__all__ = ["EXACT", "F32", "I16_8", "I16_256", "LEAVE_FORMATS", "MAGPIE_F32", "QUACKLE", "LeaveFormat", "LeaveTable",
           "LeavesCsv", "Precision", "Rounding", "convert_leaves", "drawable_leaves", "fmt_value", "leave_format",
           "loads_leaves", "read_leaves", "write_leaves"]
