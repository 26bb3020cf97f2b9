"""A MAGPIE data folder (``formats/leaves.md``, "A MAGPIE data folder"): the files MAGPIE reads
from one ``-path`` folder, written from a lexicon, a leave table and the ruleset.

MAGPIE finds its data by name under the folder: ``lexica/NAME.kwg`` (the word graph),
``lexica/LEAVES.klv2`` (the leave values: MAGPIE keeps them beside the lexica),
``letterdistributions/LD.csv`` (the tiles: ``label,lower,count,score,is_vowel``, the blank
first) and ``layouts/standardN.txt`` (the board: a ``row, col`` line for the start square,
then one line of premium characters a row). It picks the letter distribution from the
lexicon's name (TWL, NWL, CSW, CEL, America: english; OSPS: polish; DISC: catalan; RD:
german; NSF: norwegian; FRA: french), so a lexicon whose name MAGPIE does not map to the
ruleset's distribution gets that prefix (``TWL_ENABLE``, as the interop files name theirs).
"""

from __future__ import annotations

import os
import unicodedata
from typing import TYPE_CHECKING, Any

from .errors import FormatError

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .base import LexiconBase
    from .leaves import LeaveTable, Rounding

# MAGPIE's letter distributions and the lexicon name prefixes it maps to each (ld_get_type_from_lex_name)
PREFIXES = {"english": ("TWL", "NWL", "CSW", "America", "CEL"), "german": ("RD",), "norwegian": ("NSF",),
            "catalan": ("DISC",), "french": ("FRA",), "polish": ("OSPS",)}
# layout characters (board_layout.c): none, DL, TL, QL, DW, TW, QW
LAYOUT_CHARS = {(1, 1): " ", (2, 1): "'", (3, 1): '"', (4, 1): "^", (1, 2): "-", (1, 3): "=", (1, 4): "~"}
VOWELS = frozenset("AEIOU")


def is_vowel(label: str) -> bool:
    """A vowel for MAGPIE's ``is_vowel`` column: A, E, I, O, U, with any accent."""
    base = "".join(c for c in unicodedata.normalize("NFD", label.upper()) if not unicodedata.combining(c))
    return base in VOWELS


def letter_distribution_csv(ruleset: Ruleset) -> bytes:
    """MAGPIE's letter-distribution CSV of the ruleset: the blank, then each letter in
    MAGPIE's order, as ``label,lower,count,score,is_vowel``, LF after every line."""
    lines = [f"?,?,{ruleset.blanks},{ruleset.blank_value},0"]
    alphabet = ruleset.alphabet
    for label in ruleset.engine_order("magpie"):
        code = alphabet.code(label)
        lines.append(f"{label},{label.lower()},{ruleset.count(code)},{ruleset.value(code)},{int(is_vowel(label))}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def layout_text(ruleset: Ruleset) -> bytes:
    """MAGPIE's board layout of the ruleset: ``row, col`` of the start square (from 0), then
    a line of premium characters a row, no newline after the last (as MAGPIE's own files)."""
    rows = []
    for r, row in enumerate(ruleset.premiums):
        chars = []
        for c, premium in enumerate(row):
            char = LAYOUT_CHARS.get(premium)
            if char is None:
                raise FormatError(f"the {ruleset.name} board's square {r + 1},{c + 1} is both a letter and a word "
                                  "premium, which a MAGPIE layout cannot say")
            chars.append(char)
        rows.append("".join(chars))
    start_row, start_col = ruleset.start
    return f"{start_row}, {start_col}\n".encode() + "\n".join(rows).encode()


def lexicon_name(stem: str, ruleset: Ruleset) -> str:
    """The name MAGPIE needs to find the ruleset's distribution: ``stem`` when MAGPIE maps
    it to the distribution already, else the distribution's first prefix and ``_``."""
    prefixes = PREFIXES.get(ruleset.name)
    if prefixes is None or stem.lower().startswith(tuple(p.lower() for p in prefixes)):
        return stem
    return f"{prefixes[0]}_{stem}"


def magpie_kwg(lexicon: LexiconBase, ruleset: Ruleset) -> bytes:
    """The lexicon's KWG in MAGPIE's tile order: the bytes MAGPIE's ``convert text2kwg``
    writes from its words (``kwg.write_kwg``, like magpie), or, when a word is longer than the
    board (MAGPIE's converter then writes nothing; MAGPIE still reads such a KWG and plays the
    words that fit), wolges's layout of them."""
    from .kwg import write_kwg
    from .kwgfamily import KWG_ENTRIES, KWG_TILES, engine_words, kwg_bytes
    from .wolgesgraph import build_states, layout

    if any(len(codes) > ruleset.board_size for codes in lexicon.iter_codes()):
        words = engine_words(lexicon, ruleset, "magpie", KWG_TILES, "KWG")
        return kwg_bytes(layout(build_states(words, gaddag=True), KWG_ENTRIES))
    return write_kwg(lexicon, ruleset, "magpie")


def folder_files(lexicon: LexiconBase, ruleset: Ruleset, name: str, table: LeaveTable | None = None,
                 leaves_name: str | None = None) -> tuple[dict[str, bytes], Rounding | None]:
    """The files of a MAGPIE data folder (relative path -> bytes) and the rounding of the
    leaves: ``lexica/NAME.kwg``, ``lexica/LEAVES.klv2`` (with a table: every sub-rack, as
    MAGPIE's lookup needs), ``letterdistributions/RULESET.csv``, ``layouts/standardN.txt``."""
    from .leaves import write_leaves

    files: dict[str, bytes] = {f"lexica/{name}.kwg": magpie_kwg(lexicon, ruleset)}
    rounding: Rounding | None = None
    if table is not None:
        klv, rounding = write_leaves(table, "klv2", ruleset, like="magpie")  # (MAGPIE's lookup needs every sub-rack)
        files[f"lexica/{leaves_name or name}.klv2"] = klv
    files[f"letterdistributions/{_ld_name(ruleset)}.csv"] = letter_distribution_csv(ruleset)
    files[f"layouts/standard{ruleset.board_size}.txt"] = layout_text(ruleset)
    return files, rounding


def load_command(out: str | os.PathLike[str], ruleset: Ruleset, name: str, leaves_name: str | None) -> str:
    """The command that loads the folder: ``magpie -path OUT -lex NAME [-leaves LEAVES]``, and
    ``-ld RULESET`` when MAGPIE would not pick the distribution from the lexicon's name."""
    return (f"magpie -path {os.fspath(out)} -lex {name}" + (f" -leaves {leaves_name}" if leaves_name else "")
            + ("" if ruleset.name in PREFIXES else f" -ld {_ld_name(ruleset)}"))


def write_folder(out: str | os.PathLike[str], lexicon: LexiconBase, ruleset: Ruleset, name: str,
                 table: LeaveTable | None = None, leaves_name: str | None = None) -> dict[str, Any]:
    """Write a MAGPIE data folder at ``out``; a report of the files and the rounding of the
    leaves. Atomic (``folder.write_tree``): a new folder is made whole beside ``out`` and
    renamed into place; into a folder that exists already (a MAGPIE ``data`` folder holding
    other files), each file is written atomically and nothing else is touched."""
    from .folder import write_tree

    files, rounding = folder_files(lexicon, ruleset, name, table, leaves_name)
    write_tree(out, files)
    leaves = leaves_name or (name if table is not None else None)
    return {"output": os.fspath(out), "to": "magpie", "files": {rel: len(data) for rel, data in files.items()},
            "lexicon": name, "leaves": leaves, "letter_distribution": _ld_name(ruleset),
            "layout": f"standard{ruleset.board_size}",
            "rounding": rounding.as_dict() if rounding is not None else None,
            "command": load_command(out, ruleset, name, leaves)}


def _ld_name(ruleset: Ruleset) -> str:
    return ruleset.name


__all__ = ["folder_files", "is_vowel", "layout_text", "letter_distribution_csv", "lexicon_name", "load_command",
           "magpie_kwg", "write_folder"]
