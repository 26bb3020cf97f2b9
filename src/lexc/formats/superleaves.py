"""Quackle's superleaves file (``formats/superleaves.md``): one record a leave, no header.

A record is a length byte, that many tile bytes (the blank 1, the alphabet's letters from 5
in Quackle's letter order), and the value as a little-endian u16 ``(v + 128) * 256``
truncated (Quackle's ``encodeleaves``), so values run from -128 to 128 - 1/256 in steps of
1/256 point. Quackle keeps the records in a map by their tiles as stored and looks a leave up
with its tiles sorted, so lexc writes every leave's tiles sorted, and reads a record's tiles
as the multiset they are.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from .errors import FormatError
from .foreign import tile_map
from .leaves import BLANK, MAX_LEAVES, QUACKLE, LeaveFormat, LeaveTable, Rounding, check_leave

if TYPE_CHECKING:
    from ..ruleset import Ruleset

QUACKLE_BLANK = 1  # the blank's byte
FIRST_LETTER = 5  # the first letter's byte (QUACKLE_FIRST_LETTER)
MAX_RECORD_TILES = 16  # Quackle reads a leave into a buffer of 16 bytes
MAX_LETTERS = 64  # letters of an alphabet Quackle numbers (QUACKLE_MAXIMUM_ALPHABET_SIZE)


def _records(data: bytes, name: str) -> list[tuple[bytes, int]]:
    """(tile bytes, u16) of each record; a FormatError naming the byte offset of the first
    record that does not fit."""
    out = []
    pos = 0
    while pos < len(data):
        length = data[pos]
        if not 1 <= length <= MAX_RECORD_TILES:
            raise FormatError(f"{name}: byte {pos}: a record of {length} tiles (a superleaves record holds 1 to "
                              f"{MAX_RECORD_TILES})")
        if pos + 1 + length + 2 > len(data):
            raise FormatError(f"{name}: byte {pos}: the last record runs past the end of the file")
        tiles = data[pos + 1 : pos + 1 + length]
        (value,) = struct.unpack_from("<H", data, pos + 1 + length)
        out.append((tiles, value))
        if len(out) > MAX_LEAVES:
            raise FormatError(f"{name}: more than {MAX_LEAVES:,} records")
        pos += 3 + length
    return out


class Superleaves(LeaveFormat):
    """Quackle's superleaves: records of (length, tiles, u16 value)."""

    name = "superleaves"
    engine = "Quackle"
    extensions = (".superleaves",)
    description = "Quackle's superleaves: one record a leave (length, tiles, u16 (v+128)*256), no header"
    spec = "formats/superleaves.md"
    precision = QUACKLE

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        """The records the head holds are whole and well-formed (a length of 1 to 16, tiles
        the blank or letters), at least one of them, and they end with the file when it is no
        longer than the head."""
        pos, seen = 0, 0
        while pos < len(head):
            length = head[pos]
            if not 1 <= length <= MAX_RECORD_TILES:
                return False
            if pos + 3 + length > len(head):
                break
            if any(t != QUACKLE_BLANK and not FIRST_LETTER <= t < FIRST_LETTER + MAX_LETTERS
                   for t in head[pos + 1 : pos + 1 + length]):
                return False
            pos += 3 + length
            seen += 1
        return seen > 0 and (size > len(head) or pos == size)

    @classmethod
    def read_leaves(cls, data: bytes, name: str, ruleset: Ruleset) -> LeaveTable:
        """Every record as a leave (its tiles sorted) and its value; a one-line FormatError
        for a record that runs off the end, a tile outside the alphabet, a leave longer than
        the rack, a leave given twice (in any order of its tiles)."""
        to_lexc, _ = tile_map(ruleset, "quackle")
        letters = len(ruleset.alphabet)
        values: dict[bytes, float] = {}
        offset = 0
        for tiles, units in _records(data, name):
            codes = []
            for t in tiles:
                if t == QUACKLE_BLANK:
                    codes.append(BLANK)
                elif FIRST_LETTER <= t < FIRST_LETTER + letters:
                    codes.append(to_lexc[t - FIRST_LETTER + 1])
                else:
                    raise FormatError(f"{name}: byte {offset}: tile byte {t} is neither the blank (1) nor a letter of "
                                      f"the {ruleset.name} alphabet ({FIRST_LETTER}..{FIRST_LETTER + letters - 1})")
            leave = bytes(sorted(codes))
            table_text = _text(ruleset, leave)
            check_leave(leave, ruleset, f"{name}: byte {offset}", table_text)
            if leave in values:
                raise FormatError(f"{name}: byte {offset}: leave {table_text} is given twice")
            values[leave] = units / 256 - 128
            offset += 3 + len(tiles)
        if not values:
            raise FormatError(f"{name}: no records")
        return LeaveTable(values, ruleset, QUACKLE, cls.name, name)

    @classmethod
    def write_leaves(cls, table: LeaveTable, ruleset: Ruleset, like: str = "") -> tuple[bytes, Rounding]:
        """One record a leave, in the table's order, its tiles sorted (the blank first, then
        Quackle's letter order), its value truncated to 1/256 as ``encodeleaves`` does; a
        FormatError naming a value outside -128 .. 128 - 1/256, or a leave of more than 16
        tiles."""
        _, to_engine = tile_map(ruleset, "quackle")
        values, rounding = table.at(QUACKLE)
        out = bytearray()
        for leave, value in values.items():
            if len(leave) > MAX_RECORD_TILES:
                raise FormatError(f"leave {table.text(leave)} has {len(leave)} tiles; a superleaves record holds "
                                  f"at most {MAX_RECORD_TILES}")
            tiles = sorted(QUACKLE_BLANK if c == BLANK else to_engine[c] + FIRST_LETTER - 1 for c in leave)
            out.append(len(tiles))
            out += bytes(tiles)
            out += struct.pack("<H", QUACKLE.units(value))
        return bytes(out), rounding


def _text(ruleset: Ruleset, leave: bytes) -> str:
    return LeaveTable({}, ruleset).text(leave)


__all__ = ["Superleaves"]
