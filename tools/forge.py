"""Forged lexicon files that pass every checksum (issue 34): ``python tools/forge.py [--out DIR]``.

A checksum protects against damage, not against a file crafted with the spec in hand: edit a
built file and re-seal it (``fuzz.seal`` recomputes the header CRC and the payload's size and
SHA-256). Two such forgeries passed ``lexc verify`` before lexc learnt to catch them:

- ``rotation``: one edge of a GADDAG relabelled, keeping its sibling list ascending: the
  edge that ends TAC (the GADDAG's reading of CAT) becomes D. Every count is unchanged and
  the DAWG part still spells CAT, but the GADDAG spells TAD: ``lexc words`` lists CAT,
  ``lexc check CAT`` says it is not valid. ``lexc verify`` now proves that the GADDAG spells
  exactly the rotations of the words (``formats/rotations.py``).
- ``join``: the label LL added to the header's alphabet of a lexicon storing A·L·L (AL ALL
  BALL, built with the English alphabet): ``lexc words`` prints ALL, which reads back as
  A + LL. The loader now refuses it (``formats/rereading.py``).

The tests craft both at run time from freshly built files (``tests/test_forgery.py``) and
keep the files this script writes in ``tests/data/`` as regression files:

    forged-tac.gaddag, forged-tac.gaddawg      AT BAT CAT, the edge of TAC relabelled D
    forged-ll.dawg, forged-ll.gaddawg,         AL ALL BALL with LL added to the alphabet
    forged-ll.prefixset, forged-ll.anatrie
"""

from __future__ import annotations

import argparse
import struct
from pathlib import Path

from fuzz import seal, split
from lexc import formats
from lexc.formats.edges import LAYOUTS
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ROTATION_WORDS = ["AT", "BAT", "CAT"]
JOIN_WORDS = ["AL", "ALL", "BALL"]
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def built(words: list[str], fmt: str) -> bytes:
    """The file bytes of ``words`` built in ``fmt`` for the English ruleset."""
    return formats.dumps(formats.build(from_words(words, load_ruleset("english").alphabet), fmt, "english"))


def relabel(data: bytes, edge: int, letter: int) -> bytes:
    """A graph file with edge ``edge`` given the letter code ``letter``, re-sealed; ValueError
    when the new letter would break its sibling list's ascending order (the loader would
    refuse that at once)."""
    header, payload = split(data)
    layout = LAYOUTS[header["meta"]["layout"]]
    size = layout.itemsize
    edges = list(struct.unpack(f"<{len(payload) // size}{layout.typecode}", payload))
    _, terminal, last, child = layout.unpack(edges[edge])
    before = layout.unpack(edges[edge - 1])
    if (not before[2] and before[0] >= letter) or (not last and layout.unpack(edges[edge + 1])[0] <= letter):
        raise ValueError(f"letter {letter} at edge {edge} breaks the ascending order of its siblings")
    edges[edge] = layout.pack(letter, terminal, last, child)
    return seal(header, struct.pack(f"<{len(edges)}{layout.typecode}", *edges))


def forge_rotation(data: bytes, word: str = "CAT", letter: str = "D") -> bytes:
    """A GADDAG file whose last edge of rev(``word``) (the word's i = n rotation) reads
    ``letter`` instead, re-sealed: its counts and its DAWG part unchanged."""
    lexicon = formats.loads(data)
    edge = lexicon.gaddag_walk(lexicon.encode(word)[::-1])
    return relabel(data, edge, lexicon.alphabet.code(letter))


def forge_join(data: bytes, label: str = "LL") -> bytes:
    """A file with ``label`` added to its header's alphabet (and, for an anagram trie, to its
    canonical order), re-sealed: the payload unchanged."""
    header, payload = split(data)
    header = dict(header, alphabet=[*header["alphabet"], label])
    if "order" in header["meta"]:
        header["meta"] = dict(header["meta"], order=[*header["meta"]["order"], len(header["alphabet"])])
    return seal(header, payload)


def regression_files() -> dict[str, bytes]:
    """File name -> bytes of the regression files kept in ``tests/data``."""
    files = {f"forged-tac.{fmt}": forge_rotation(built(ROTATION_WORDS, fmt)) for fmt in ("gaddag", "gaddawg")}
    files |= {f"forged-ll.{fmt}": forge_join(built(JOIN_WORDS, fmt))
              for fmt in ("dawg", "gaddawg", "prefixset", "anatrie")}
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/forge.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA, help="directory to write the files to [tests/data]")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in regression_files().items():
        (args.out / name).write_bytes(data)
        print(f"{args.out / name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
