"""Tiles by label, never by index (issue 36): the Norwegian and Swedish rulesets, whose letter
orders differ from engine to engine, through every format that stores tile numbers.

The engines' orders below are the facts their own files give (cited in
``src/lexc/rulesets/norwegian.toml`` and ``swedish.toml``), written out here independently of
the rulesets, and every file lexc writes is decoded by hand, byte by byte, without lexc's
readers: a KWG's tile field, a KBWG's, a KAD's alphagram, a Quackle .dawg's header alphabet and
letter bytes, a Quackle .gaddag's root list, a Macondo file's code points and arcs, a Lexpert
file's letter bytes, a KLV2's leave edges, a superleaves record. Then the round trips (each
format read back with the same ruleset gives the same words and leaves), the crossings (a
file written in one engine's order read and rewritten in another's), and the refusals (a word
a one-byte format cannot hold, named in one line with the format's limit).
"""

from __future__ import annotations

import dataclasses
import struct
from pathlib import Path

import pytest

from lexc import native
from lexc.formats import Dawg, FormatError
from lexc.formats.foreign import FOREIGN, engine_labels, tile_map
from lexc.formats.leaves import LeavesCsv, write_leaves
from lexc.formats.macondo import macondo_order
from lexc.formats.magpie import letter_distribution_csv, magpie_kwg
from lexc.formats.quackle import dawg_bytes, quackle_labels
from lexc.ruleset import available, load_ruleset
from lexc.wordlist import from_words
from test_cli import assert_one_error_line, run_main

ROOT = Path(__file__).resolve().parent.parent

NORWEGIAN = load_ruleset("norwegian")
SWEDISH = load_ruleset("swedish")
RULESETS = {"norwegian": NORWEGIAN, "swedish": SWEDISH}
A_TO_Z = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

# Each engine's letters in the order it numbers them (its tile 1, or letter 0, first).
# wolges: src/alphabets/norwegian.txt and swedish.txt (the language's collation, each letter
# that has no tile after the one it sorts as); MAGPIE numbers as its CSV lists them, which lexc
# writes in wolges's order.
WOLGES = {"norwegian": [*A_TO_Z[:25], "Ü", "Z", "Æ", "Ä", "Ø", "Ö", "Å"],
          "swedish": [*A_TO_Z[:25], "Ü", "Z", "Å", "Ä", "Æ", "Ö"]}
# Quackle: data/alphabets/norwegian.quackle_alphabet and swedish.quackle_alphabet: A-Z first.
QUACKLE = {"norwegian": [*A_TO_Z, "Æ", "Ø", "Å", "Ü", "Ä", "Ö"],
           "swedish": [*A_TO_Z, "Å", "Ä", "Ö", "Æ", "Ü"]}
# The other version of Quackle's Norwegian alphabet (@52c272b4: 29 letters, no Ü Ä Ö)
OLD_QUACKLE_NORWEGIAN = [*A_TO_Z, "Æ", "Ø", "Å"]
# Macondo's legacy files: by code point (Ä U+C4, Å U+C5, Æ U+C6, Ö U+D6, Ø U+D8, Ü U+DC).
MACONDO = {"norwegian": [*A_TO_Z, "Ä", "Å", "Æ", "Ö", "Ø", "Ü"],
           "swedish": [*A_TO_Z, "Ä", "Å", "Æ", "Ö", "Ü"]}

# Test words holding every letter whose number differs between the engines (not a word list
# of the language: a few real words and the letters that need a blank)
WORDS = {"norwegian": ["ÆRE", "ØRE", "ÅR", "BLÅBÆR", "GRØT", "MÜSLI", "ÄRA", "ÖL", "ZOO", "ØY", "SJØ"],
         "swedish": ["ÅR", "ÄR", "ÖL", "SMÖRGÅS", "HÄST", "MÜSLI", "ÆON", "ZON", "WOK", "YXA"]}
# One word of exactly the letters after Y in wolges's order, in no engine's order
ODD = {"norwegian": "ÅÖØÄÆZÜ", "swedish": "ÖÆÄÅZÜ"}
LEAVES_CSV = {"norwegian": "Æ,1.5\nØÅ,2.25\n?Ü,3\nÄÖ,-1\nZ,-4\n",
              "swedish": "Å,1.5\nÄÖ,2.25\n?Ü,3\nÆ,-1\nZ,-4\n"}
GRAPHS = ["kwg", "kbwg", "kwg-dawg", "kad", "quackle-dawg", "quackle-gaddag", "macondo-dawg", "macondo-gaddag",
          "lxd"]
BACKENDS = [native.PURE] + ([native.COMPILED] if native.COMPILED is not None else [])
BACKEND_IDS = ["compiled" if b.compiled else "pure" for b in BACKENDS]


def lexicon_of(words: list[str], ruleset=NORWEGIAN) -> Dawg:
    return Dawg.build(list(from_words(words, ruleset.alphabet).words), ruleset.alphabet)


def number(order: list[str], label: str, first: int = 1) -> int:
    """The engine's number of a letter: its place in the engine's order, from ``first``."""
    return order.index(label) + first


def u32s(data: bytes, at: int = 0, big: bool = False) -> list[int]:
    return list(struct.unpack(f"{'>' if big else '<'}{(len(data) - at) // 4}I", data[at:]))


# -- the rulesets ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_the_rulesets_are_bundled_with_the_engines_tiles(name):
    rules = RULESETS[name]
    assert name in available() and rules.name == name
    assert list(rules.alphabet.labels) == WOLGES[name]  # the ruleset's own order is wolges's
    assert rules.tile_total == 100 and rules.blanks == 2 and rules.rack_size == 7 and rules.bingo_bonus == 50
    assert rules.board_size == 15 and rules.start == (7, 7)
    no_tile = {t.label for t in rules.tiles if t.count == 0}
    assert no_tile == ({"Q", "X", "Z", "Ü", "Ä", "Ö"} if name == "norwegian" else {"Q", "W", "Ü", "Æ"})
    assert all(t.value == 0 for t in rules.tiles if t.count == 0)
    tiles = {t.label: (t.count, t.value) for t in rules.tiles}
    if name == "norwegian":  # (wolges, Quackle and Macondo agree)
        assert tiles["Æ"] == (1, 6) and tiles["Ø"] == (2, 5) and tiles["Å"] == (2, 4) and tiles["C"] == (1, 10)
    else:
        assert tiles["Å"] == (2, 4) and tiles["Ä"] == (2, 3) and tiles["Ö"] == (2, 4) and tiles["Z"] == (1, 10)


def test_lexc_rulesets_lists_them(capsys):
    code, out, _ = run_main(capsys, "rulesets")
    assert code == 0 and "\nnorwegian  Norwegian Scrabble" in out and "\nswedish    Swedish Scrabble" in out
    assert "32 letters, 100 tiles, rack 7, bingo 50, 15x15 board, start 8H" in out


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_each_engine_s_order_is_the_one_its_files_give(name):
    rules = RULESETS[name]
    assert list(engine_labels(rules, "wolges")) == WOLGES[name]
    assert list(engine_labels(rules, "magpie")) == WOLGES[name]
    assert list(quackle_labels(rules)) == QUACKLE[name] != WOLGES[name]
    assert list(macondo_order(rules)) == list(rules.engine_order("macondo")) == MACONDO[name] != WOLGES[name]
    assert MACONDO[name] == sorted(MACONDO[name], key=ord)  # (Macondo's legacy rule: by code point)
    to_lexc, to_engine = tile_map(rules, "quackle")
    for label in rules.alphabet.labels:
        code = rules.alphabet.code(label)
        assert to_engine[code] == number(QUACKLE[name], label) and to_lexc[to_engine[code]] == code


# -- every format: the words back, through labels ----------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
@pytest.mark.parametrize("fmt", GRAPHS)
@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_every_tile_numbered_format_reads_back_the_same_words(name, fmt, backend):
    rules = RULESETS[name]
    lexicon = lexicon_of(WORDS[name], rules)
    data = FOREIGN[fmt].write(lexicon, rules)
    again = FOREIGN[fmt].read(data, f"x.{fmt}", rules, backend)
    if fmt == "kad":  # a KAD holds alphagrams: each word's tiles sorted by wolges's number
        assert sorted(again.iter_codes()) == sorted({bytes(sorted(w)) for w in lexicon.iter_codes()})
    else:
        assert list(again) == list(lexicon)
        assert all(word in again for word in WORDS[name])


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_every_leave_format_reads_back_the_same_leaves(name):
    rules = RULESETS[name]
    table = LeavesCsv.read_leaves(LEAVES_CSV[name].encode(), "t.csv", rules)
    for fmt in ("klv2", "superleaves", "leaves-csv"):
        data, _ = write_leaves(table, fmt, rules)
        back = FOREIGN[fmt].read_leaves(data, f"x.{fmt}", rules)  # type: ignore[attr-defined]
        assert {back.text(k): v for k, v in back.items()} == {table.text(k): v for k, v in table.items()}, fmt


# -- the numbers written are the engine's: each file decoded by hand -----------------------------

def kwg_path(entries: list[int], pointer: int, tile, child, end) -> list[int]:
    """The tiles along a one-word graph from a root pointer entry (each list one edge long)."""
    tiles, at = [], child(entries[pointer])
    while at:
        assert end(entries[at])  # one word: every list holds one edge
        tiles.append(tile(entries[at]))
        at = child(entries[at])
    return tiles


def kwg_tiles(entries: list[int], pointer: int = 0) -> list[int]:
    return kwg_path(entries, pointer, lambda e: e >> 24, lambda e: e & 0x3FFFFF, lambda e: e >> 22 & 1)


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_the_kwg_family_holds_wolges_s_tile_numbers(name):
    rules, word = RULESETS[name], ODD[name]
    lexicon = lexicon_of([word], rules)
    expected = [number(WOLGES[name], c) for c in word]
    kwg = u32s(FOREIGN["kwg"].write(lexicon, rules))
    assert kwg_tiles(kwg, 0) == expected  # entry 0: the DAWG's root pointer
    assert kwg_tiles(u32s(FOREIGN["kwg-dawg"].write(lexicon, rules)), 0) == expected
    kbwg = u32s(FOREIGN["kbwg"].write(lexicon, rules))  # tile bits 0-5, end bit 6, child bits 8-31
    assert kwg_path(kbwg, 0, lambda e: e & 0x3F, lambda e: e >> 8, lambda e: e >> 6 & 1) == expected
    kad = u32s(FOREIGN["kad"].write(lexicon, rules))  # the alphagram: sorted by wolges's numbers
    assert kwg_tiles(kad, 0) == sorted(expected)
    assert kwg_tiles(u32s(magpie_kwg(lexicon, rules)), 0) == expected  # MAGPIE reads wolges's numbers
    csv = letter_distribution_csv(rules).decode().splitlines()
    assert [line.split(",")[0] for line in csv[1:]] == WOLGES[name]  # ... and numbers as its CSV lists


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_quackle_s_files_hold_quackle_s_letter_numbers(name):
    rules, word = RULESETS[name], ODD[name]
    lexicon = lexicon_of([word], rules)
    dawg = FOREIGN["quackle-dawg"].write(lexicon, rules)
    letters = dawg[20]
    header = dawg[21:].split(b" ")[:letters]
    assert [t.decode() for t in header] == QUACKLE[name]  # the alphabet, letter 0 first
    at = 21 + sum(len(t) + 1 for t in header)
    nodes = [dawg[k : k + 7] for k in range(at, len(dawg), 7)]
    path, node = [], int.from_bytes(nodes[0][:3], "big")  # node 0: the root, its child list at 1
    while node:
        path.append(nodes[node][3] & 0x3F)  # bits 0-5: the letter, 0 the alphabet's first
        node = int.from_bytes(nodes[node][:3], "big")
    assert path == [number(QUACKLE[name], c, 0) for c in word]
    gaddag = FOREIGN["quackle-gaddag"].write(lexicon, rules)
    root, i = [], 1
    while True:  # the root's children: nodes 1, 2, ... up to the last of the list (bit 7)
        byte = gaddag[17 + 4 * i + 3]
        root.append(byte & 0x3F)  # Quackle's letter code, the alphabet's first 5
        if byte & 0x80:
            break
        i += 1
    assert root == sorted(number(QUACKLE[name], c, 5) for c in set(word))  # every letter starts a string


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_macondo_s_files_hold_code_point_numbers(name):
    rules, word = RULESETS[name], ODD[name]
    data = FOREIGN["macondo-dawg"].write(lexicon_of([word], rules), rules)
    assert data[:4] == b"cdwg" and data[4] == 0  # no lexicon name
    count = struct.unpack_from(">I", data, 5)[0]
    points = struct.unpack_from(f">{count}I", data, 9)
    assert [chr(p) for p in points] == MACONDO[name]
    at = 9 + 4 * count
    sets = struct.unpack_from(f">{struct.unpack_from('>I', data, at)[0]}Q", data, at + 4)
    at += 4 + 8 * len(sets)
    nodes = u32s(data, at + 4, big=True)
    path, node = [], 0
    while nodes[node] >> 24:  # a node with an arc: its letter (bits 24-31) and the next node
        arc = nodes[node + 1]
        path.append(arc >> 24)
        node = arc & 0xFFFFFF
    last = sets[nodes[node] & 0xFFFFFF]  # the word's last letter: the bit its letter set holds
    path.append(last.bit_length() - 1)
    assert path == [number(MACONDO[name], c, 0) for c in word]


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_lexpert_stores_each_letter_as_its_latin1_byte(name):
    rules, word = RULESETS[name], ODD[name]
    entries = u32s(FOREIGN["lxd"].write(lexicon_of([word], rules), rules), 64)
    byte = lambda e: e >> 22 & 0xFF  # noqa: E731
    assert kwg_path(entries, 1, byte, lambda e: e & 0x3FFFFF, lambda e: e >> 31) == list(word.encode("latin-1"))


@pytest.mark.parametrize("name", ["norwegian", "swedish"])
def test_leave_files_hold_each_engine_s_numbers(name):
    rules = RULESETS[name]
    letters = ODD[name][:4]
    table = LeavesCsv.read_leaves(f"{letters},2.5\n".encode(), "t.csv", rules)
    klv2, _ = write_leaves(table, "klv2", rules)
    edges = struct.unpack_from("<I", klv2)[0]
    assert kwg_tiles(u32s(klv2[4 : 4 + 4 * edges]), 0) == sorted(number(WOLGES[name], c) for c in letters)
    superleaves, _ = write_leaves(table, "superleaves", rules)
    assert superleaves[0] == len(letters)
    assert list(superleaves[1 : 1 + len(letters)]) == sorted(number(QUACKLE[name], c, 5) for c in letters)


# -- one engine's file, another engine's: through the labels ------------------------------------

def test_a_kwg_and_a_quackle_dawg_of_the_same_words_read_back_alike():
    lexicon = lexicon_of(WORDS["norwegian"])
    kwg = FOREIGN["kwg"].write(lexicon, NORWEGIAN)
    dawg = FOREIGN["quackle-dawg"].write(lexicon, NORWEGIAN)
    assert list(FOREIGN["kwg"].read(kwg, "x.kwg", NORWEGIAN)) == list(FOREIGN["quackle-dawg"].read(
        dawg, "x.dawg", NORWEGIAN)) == list(lexicon)
    hop = FOREIGN["kwg"].read(kwg, "x.kwg", NORWEGIAN)  # KWG -> Quackle -> Macondo -> Lexpert -> KWG
    for fmt in ("quackle-dawg", "macondo-gaddag", "lxd", "quackle-gaddag"):
        hop = FOREIGN[fmt].read(FOREIGN[fmt].write(hop, NORWEGIAN), f"x.{fmt}", NORWEGIAN)
        assert list(hop) == list(lexicon), fmt
    assert FOREIGN["kwg"].write(hop, NORWEGIAN) == kwg


def test_the_order_a_file_is_read_with_decides_its_words():
    """Read with the wrong order for wolges (Quackle's), a Norwegian KWG's tile 28 (wolges's Æ)
    is Quackle's 28th letter, Ø, and its tile 30 (Ø) is Ü: the map through the labels is what
    keeps the words."""
    kwg = FOREIGN["kwg"].write(lexicon_of(["ÆRE", "ØY"]), NORWEGIAN)
    wrong = dataclasses.replace(NORWEGIAN, engine_orders=(("wolges", tuple(QUACKLE["norwegian"])),))
    assert list(FOREIGN["kwg"].read(kwg, "x.kwg", wrong)) == ["ÜY", "ØRE"]
    assert list(FOREIGN["kwg"].read(kwg, "x.kwg", NORWEGIAN)) == ["ÆRE", "ØY"]


def test_a_quackle_dawg_names_its_letters_so_another_alphabet_reads_by_label():
    """A .dawg made with the 29-letter version of Quackle's Norwegian alphabet (Å its 29th) holds other
    numbers than lexc writes; its header says which letter each is, and lexc reads it so."""
    words = ["ÅR", "ÆRE", "ØY"]
    codes = sorted(bytes(number(OLD_QUACKLE_NORWEGIAN, c, 5) for c in w) for w in words)
    data = dawg_bytes(codes, OLD_QUACKLE_NORWEGIAN)
    assert data != FOREIGN["quackle-dawg"].write(lexicon_of(words), NORWEGIAN)
    assert list(FOREIGN["quackle-dawg"].read(data, "old.dawg", NORWEGIAN)) == ["ÆRE", "ØY", "ÅR"]
    with pytest.raises(FormatError, match=r"^old\.dawg: its letter 'Æ' is not in the ruleset's alphabet"):
        FOREIGN["quackle-dawg"].read(data, "old.dawg", load_ruleset("english"))


def test_the_command_line_exports_and_compares_across_engines(tmp_path, capsys):
    words = tmp_path / "norsk.txt"
    words.write_text("\n".join(w.lower() for w in WORDS["norwegian"]) + "\n", encoding="utf-8")
    for fmt, out in (("kwg", "norsk.kwg"), ("quackle-dawg", "norsk.dawg"), ("macondo-gaddag", "norsk.gaddag")):
        code, _, err = run_main(capsys, "export", words, "-r", "norwegian", "--to", fmt, "-o", tmp_path / out)
        assert code == 0, err
    code, out, _ = run_main(capsys, "diff", tmp_path / "norsk.kwg", tmp_path / "norsk.dawg", "-r", "norwegian")
    assert code == 0 and "11 in both" in out
    code, out, _ = run_main(capsys, "export", tmp_path / "norsk.dawg", "-r", "norwegian", "--to", "kwg",
                            "-o", tmp_path / "again.kwg")
    assert code == 0 and (tmp_path / "again.kwg").read_bytes() == (tmp_path / "norsk.kwg").read_bytes()
    code, out, _ = run_main(capsys, "words", tmp_path / "norsk.gaddag", "-r", "norwegian")
    assert code == 0 and out.split() == in_wolges_order(WORDS["norwegian"])
    code, _, err = run_main(capsys, "words", tmp_path / "norsk.kwg")  # (English by default: no tile 28)
    assert code == 2
    assert_one_error_line(err, "norsk.kwg", "outside the 26-letter alphabet")
    code, out, _ = run_main(capsys, "info", tmp_path / "norsk.dawg", "-r", "norwegian", "--json")
    assert code == 0 and '"file_layout": "quackle-dawg"' in out and '"ruleset": "norwegian"' in out
    code, out, _ = run_main(capsys, "verify", tmp_path / "norsk.kwg", "-r", "norwegian", "--against", words)
    assert code == 0 and out.startswith("OK: 11 words")
    code, out, _ = run_main(capsys, "dump", tmp_path / "norsk.kwg", "-r", "norwegian", "-n", "3")
    assert code == 0 and "DAWG root pointer" in out


def in_wolges_order(words: list[str]) -> list[str]:
    """Words sorted by wolges's Norwegian numbers (the ruleset's order: Æ before Ø before Å)."""
    return sorted(words, key=lambda w: [number(WOLGES["norwegian"], c) for c in w])


# -- what a format cannot hold: one line naming the word and the limit ---------------------------

def test_zyzzyva_refuses_a_word_with_a_letter_beyond_ascii_naming_it(tmp_path, capsys):
    lexicon = lexicon_of(["ERE", "ÆRE", "ØRE"])
    with pytest.raises(FormatError) as caught:
        FOREIGN["zyzzyva"].write(lexicon, NORWEGIAN)
    assert str(caught.value) == "ÆRE: the tile Æ is not one ASCII character: a Zyzzyva .dwg stores one byte a letter"
    plain = lexicon_of(["ERE", "SJO", "TRE"])  # a Norwegian list of ASCII words is a .dwg
    assert list(FOREIGN["zyzzyva"].read(FOREIGN["zyzzyva"].write(plain, NORWEGIAN), "x.dwg", NORWEGIAN)) == list(plain)
    words = tmp_path / "svensk.txt"
    words.write_text("hus\nöl\n", encoding="utf-8")
    code, _, err = run_main(capsys, "export", words, "-r", "swedish", "--to", "zyzzyva", "-o", tmp_path / "x.dwg")
    assert code == 2 and not (tmp_path / "x.dwg").exists()
    assert_one_error_line(err, "ÖL: the tile Ö is not one ASCII character", "a Zyzzyva .dwg stores one byte a letter")


@pytest.mark.parametrize(("fmt", "limit"), [
    ("lxd", "is not one Latin-1 character: a Lexpert file stores one byte a letter"),
    ("macondo-dawg", "is not one character: a Macondo file stores one code point a letter"),
    ("macondo-gaddag", "is not one character: a Macondo file stores one code point a letter"),
    ("zyzzyva", "is not one ASCII character: a Zyzzyva .dwg stores one byte a letter"),
])
def test_a_multi_character_tile_into_a_one_byte_format_names_the_word_and_the_limit(fmt, limit):
    """Catalan's L·L (three characters, one tile) fits no format that stores a letter's
    character; the tile-numbered formats hold it."""
    catalan = load_ruleset("catalan")
    lexicon = lexicon_of(["CASA", "COL·LEGI"], catalan)
    with pytest.raises(FormatError) as caught:
        FOREIGN[fmt].write(lexicon, catalan)
    assert str(caught.value) == f"COL·LEGI: the tile L·L {limit}"
    for held in ("kwg", "quackle-dawg", "kad"):
        data = FOREIGN[held].write(lexicon, catalan)
        assert len(FOREIGN[held].read(data, "x", catalan)) == 2


def test_convert_reads_an_engines_file_with_the_ruleset_given(tmp_path, capsys):
    """``lexc convert`` reads another engine's file (which records no ruleset) with ``-r``'s
    tiles, into an engine's format and into lexc's own, and the words survive both."""
    sample = ROOT / "wordlists" / "norwegian-sample.txt"
    kwg, dawg, gaddawg = tmp_path / "nor.kwg", tmp_path / "nor.dawg", tmp_path / "nor.gaddawg"
    assert run_main(capsys, "export", sample, "-r", "norwegian", "--to", "kwg", "-o", kwg)[0] == 0
    assert run_main(capsys, "convert", kwg, dawg, "--to", "quackle-dawg", "-r", "norwegian")[0] == 0
    assert run_main(capsys, "convert", kwg, gaddawg, "-r", "norwegian")[0] == 0
    code, out, _ = run_main(capsys, "words", gaddawg)
    assert code == 0 and "BLÅBÆR" in out.split() and "BRØD" in out.split()
    code, out, _ = run_main(capsys, "check", dawg, "-r", "norwegian", "BLÅBÆR")
    assert code == 0 and out.strip() == "BLÅBÆR: valid"
    code, _, err = run_main(capsys, "convert", kwg, tmp_path / "en.dawg", "--to", "quackle-dawg")  # read as English
    assert code == 2 and "\n" not in err.strip()
