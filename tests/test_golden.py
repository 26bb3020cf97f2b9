"""Golden files and the worked dumps of the format specs.

Every file in ``formats/golden`` is rebuilt from its word list and compared byte for byte
with the stored one; ``pytest --record-golden`` rewrites the stored files instead (and then
compares them all the same). The specs under ``formats/`` carry worked dumps in fenced
blocks whose info string names a golden file:

    ```dump three.dawg      the edge table, one edge a line: index raw letter T L child ...
    ```xxd three.dawg       the whole file, xxd-style

Each such block is checked against the golden file, so a spec cannot silently go stale.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from lexc import formats
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "formats"
GOLDEN = SPECS / "golden"

# golden lexicon file -> (its word list, format, ruleset[, build options])
CASES = {
    "three.dawg": ("three.txt", "dawg", "english"),
    "spanish.dawg": ("spanish.txt", "dawg", "spanish"),
    "three.dawg-packed": ("three.txt", "dawg-packed", "english"),
    "spanish.dawg-packed": ("spanish.txt", "dawg-packed", "spanish"),
    "hook.gaddawg": ("hook.txt", "gaddawg", "english"),
    "three.gaddag": ("three.txt", "gaddag", "english"),
    "three.gaddawg": ("three.txt", "gaddawg", "english"),
    "norvig.prefixset": ("norvig.txt", "prefixset", "english"),
    "norvig.prefixset-aho": ("norvig.txt", "prefixset-aho", "english"),
    "figure4.anatrie": ("figure4.txt", "anatrie", "english", {"order": "1977", "disk": "pascal"}),
    "figure4-simula.anatrie": ("figure4.txt", "anatrie", "english", {"order": "1977", "disk": "simula"}),
}

FENCE = re.compile(r"^```(dump|xxd) (\S+)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def word_lines(name: str) -> list[str]:
    """The words of a golden word list, as written in the file."""
    return (GOLDEN / CASES[name][0]).read_text("utf-8").splitlines()


def build_options(name: str) -> dict:
    """The build options of a golden file (the format's defaults unless CASES gives some)."""
    return CASES[name][3] if len(CASES[name]) > 3 else {}


def build(name: str):
    """The lexicon of a golden file, built from its word list."""
    _, fmt, ruleset = CASES[name][:3]
    wordlist = from_words(word_lines(name), load_ruleset(ruleset).alphabet)
    return formats.build(wordlist, fmt, ruleset, **build_options(name))


def first_difference(a: bytes, b: bytes) -> str:
    """Where two byte strings first differ, for a readable assertion message."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"first difference at byte {at:#x}; stored {len(a)} bytes, rebuilt {len(b)} bytes"


def xxd(data: bytes) -> str:
    """An xxd-style dump: offset, 16 bytes in groups of two, printable ASCII."""
    lines = []
    for offset in range(0, len(data), 16):
        chunk = data[offset : offset + 16]
        groups = " ".join(chunk[i : i + 2].hex() for i in range(0, len(chunk), 2))
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{offset:08x}: {groups:<39}  {text}")
    return "\n".join(lines)


def spec_blocks(kind: str) -> list:
    """(spec file, golden file, block text) of every fenced ``kind`` block in formats/*.md."""
    found = []
    for spec in sorted(SPECS.glob("*.md")):
        for match in FENCE.finditer(spec.read_text("utf-8")):
            if match.group(1) == kind:
                found.append(pytest.param(spec.name, match.group(2), match.group(3),
                                          id=f"{spec.name}:{match.group(2)}"))
    return found


# -- the golden files --------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_file_is_rebuilt_byte_for_byte(name, request):
    path = GOLDEN / name
    lexicon = build(name)
    if request.config.getoption("--record-golden"):
        formats.save(lexicon, path)
    assert path.exists(), f"{path} is missing; record it with pytest --record-golden"
    stored, rebuilt = path.read_bytes(), formats.dumps(lexicon)
    assert stored == rebuilt, (
        f"{name} no longer rebuilds identically ({first_difference(stored, rebuilt)}); "
        "if the change is intended, re-record with pytest --record-golden and review the diff"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_file_loads_to_its_word_list(name):
    path = GOLDEN / name
    words_file, fmt, ruleset = CASES[name][:3]
    lexicon = formats.load(path)
    words = word_lines(name)
    assert list(lexicon) == words  # the lists are stored in code order, upper case
    assert len(lexicon) == len(words)
    assert all(word in lexicon for word in words)
    assert lexicon.check() == []
    header = lexicon.header
    assert (header["format"], header["ruleset"], header["words"]) == (fmt, ruleset, len(words))
    assert {k: header["options"][k] for k in build_options(name)} == build_options(name)
    # the lists are normalized text, so wordlist_sha256 is plain sha256sum of the file
    assert header["wordlist_sha256"] == hashlib.sha256((GOLDEN / words_file).read_bytes()).hexdigest()


def test_every_golden_word_list_has_a_golden_file():
    lists = {p.name for p in GOLDEN.glob("*.txt")}
    assert lists == {case[0] for case in CASES.values()}


# -- the worked dumps in the specs -------------------------------------------------------

def test_specs_have_worked_dumps():
    assert any(p.values[:2] == ("dawg.md", "three.dawg") for p in spec_blocks("dump"))
    assert any(p.values[:2] == ("README.md", "three.dawg") for p in spec_blocks("xxd"))


@pytest.mark.parametrize("spec, name, block", spec_blocks("dump"))
def test_spec_edge_dump_matches_dump_rows(spec, name, block):
    rows = [line.split() for line in block.splitlines()[1:] if line.strip()]  # line 1: column names
    documented = [tuple(fields[:6]) for fields in rows]
    actual = [
        (str(r["index"]), r["raw"], r["letter"], str(int(r["terminal"])), str(int(r["last"])), str(r["child"]))
        for r in formats.load(GOLDEN / name).dump_rows()
    ]
    expected = "\n".join("{:>4}  {}  {:<6}  {}  {}  {:>5}".format(*row) for row in actual)
    assert documented == actual, f"the dump of {name} in formats/{spec} is stale; the edges now are:\n{expected}"


@pytest.mark.parametrize("spec, name, block", spec_blocks("xxd"))
def test_spec_hex_dump_matches_golden_file(spec, name, block):
    documented = [line.rstrip() for line in block.splitlines()]
    actual = [line.rstrip() for line in xxd((GOLDEN / name).read_bytes()).splitlines()]
    assert documented == actual, f"the hex dump of {name} in formats/{spec} is stale; now:\n" + "\n".join(actual)
