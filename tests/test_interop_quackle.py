"""Quackle's .dawg and .gaddag files, written by makeminidawg and makegaddag (``tests/interop.py``:
read where they are; ``../shared/interop/quackle/MANIFEST.md``): lexc reads each and lists
exactly Quackle's own listing of its words, on both backends, and lexc's writer, given the
same words (in the same order for the .dawg), writes the very same bytes
(``formats/quackle.md``). Then the bad input: every check a reader makes, each refusal one
line."""

from __future__ import annotations

import shutil

import pytest

from interop import engine_bytes, engine_file, engine_lines
from lexc import native
from lexc.formats import FormatError
from lexc.formats.foreign import by_extension, read_foreign, recognise
from lexc.formats.kwg import Kwg
from lexc.formats.quackle import QuackleDawg, QuackleGaddag, dawg_bytes, gaddag_bytes, word_hash
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ENGLISH = load_ruleset("english")
BACKENDS = [native.PURE] + ([native.COMPILED] if native.COMPILED is not None else [])
ids = {"ids": lambda b: "compiled" if b.compiled else "pure"}

FILES = [  # (file, format, Quackle's listing of its words: qdump's, in the file's own order)
    ("TINY.dawg", QuackleDawg, "TINY.dawg.txt"),
    ("TINY_SHUFFLED.dawg", QuackleDawg, "TINY_SHUFFLED.dawg.txt"),
    ("TINY.gaddag", QuackleGaddag, "TINY.gaddag.txt"),
    ("TINY_SHUFFLED.gaddag", QuackleGaddag, "TINY.gaddag.txt"),  # byte-identical to TINY.gaddag (MANIFEST)
]


def quackle_codes(words: list[str]) -> list[bytes]:
    """Words as Quackle's letter codes (A = 5)."""
    return [bytes(ord(c) - ord("A") + 5 for c in w) for w in words]


@pytest.mark.parametrize("backend", BACKENDS, **ids)
@pytest.mark.parametrize("name, fmt, listing", FILES, ids=[f for f, _, _ in FILES])
def test_lexc_lists_exactly_quackles_words(name, fmt, listing, backend):
    path = engine_file("quackle", name)
    assert recognise(path) is fmt
    lexicon = read_foreign(path, fmt, ENGLISH, backend)
    assert list(lexicon) == sorted(engine_lines("quackle", listing))
    assert lexicon.file_layout == fmt.name and lexicon.engine == backend.name
    assert not lexicon.check()


def test_the_worddump_of_libquackle_test_is_the_gaddags_strings():
    """libquackle_test's worddump (the separator a space) lists every GADDAG string; lexc's
    GADDAG of the words read spells exactly those (qdump's --paths, the separator ^)."""
    lexicon = read_foreign(engine_file("quackle", "TINY.gaddag"), QuackleGaddag, ENGLISH)
    found = []

    def walk(node, path):
        for letter, child in lexicon.children(node):
            step = path + ("^" if letter == 0 else lexicon.alphabet.label(letter))
            if lexicon.is_word(child):
                found.append(step)
            walk(child, step)

    walk(lexicon.gaddag_root(), "")
    dump = [line.replace(" ", "^") for line in engine_lines("quackle", "TINY.libquackle_test-worddump.txt")]
    assert sorted(found) == sorted(dump) == sorted(engine_lines("quackle", "TINY.gaddag.paths.txt"))


@pytest.mark.parametrize("name", ["TINY", "TINY_SHUFFLED"])
def test_lexcs_dawg_of_the_same_words_in_the_same_order_is_quackles(name):
    """makeminidawg keeps its input's order in every sibling list: the same words in the same
    order give the same bytes, and the .dawg's nodes as Quackle decodes them (qdump --nodes)."""
    words = engine_lines("quackle", f"{name}.txt")
    theirs = engine_bytes("quackle", f"{name}.dawg")
    ours = QuackleDawg.write_ordered([ENGLISH.alphabet.encode(w) for w in words], ENGLISH.alphabet, ENGLISH)
    assert ours == theirs
    assert ours[1:17].hex() == "1dbf52fb898846849edb97ab36441fcd"  # makeminidawg's "Hash:" line
    assert decoded_nodes(ours) == engine_lines("quackle", f"{name}.dawg.nodes.txt")[1:]


def decoded_nodes(data: bytes) -> list[str]:
    """A .dawg's nodes as qdump --nodes prints them (index child letter terminal lastchild
    british playability), decoded here from the spec."""
    size = data[20]
    at = 21 + 2 * size  # one-letter labels
    rows = []
    for i in range((len(data) - at) // 7):
        node = data[at + 7 * i : at + 7 * i + 7]
        child, byte, play = int.from_bytes(node[:3], "big"), node[3], int.from_bytes(node[4:], "big")
        letter = "(root)" if i == 0 else chr(ord("A") + (byte & 0x3F))
        rows.append(f"{i} {child} {letter} {int(play != 0)} {byte >> 6 & 1} {int(not byte & 0x80)} {play}")
    return rows


def test_lexcs_gaddag_of_the_same_words_is_quackles():
    theirs = engine_bytes("quackle", "TINY.gaddag")
    lexicon = read_foreign(engine_file("quackle", "TINY.dawg"), QuackleDawg, ENGLISH)
    assert QuackleGaddag.write(lexicon, ENGLISH) == theirs
    assert gaddag_bytes(quackle_codes(engine_lines("quackle", "TINY_SHUFFLED.txt"))) == theirs  # any order
    assert theirs[1:17] == engine_bytes("quackle", "TINY.dawg")[1:17]


@pytest.mark.slow
def test_enable_dawg_read_and_written_byte_for_byte():
    path = engine_file("quackle", "ENABLE.dawg")
    lexicon = read_foreign(path, QuackleDawg, ENGLISH)
    assert list(lexicon) == engine_lines("quackle", "ENABLE.dawg.txt.gz")
    assert QuackleDawg.write(lexicon, ENGLISH) == path.read_bytes()


@pytest.mark.slow
def test_enable_gaddag_read_and_written_byte_for_byte():
    data = engine_bytes("quackle", "ENABLE.gaddag.gz")
    lexicon = QuackleGaddag.read(data, "ENABLE.gaddag", ENGLISH)
    assert list(lexicon) == sorted(engine_lines("quackle", "ENABLE.gaddag.txt.gz"))
    assert lexicon.strings == 1_570_508  # makegaddag's "Sorting 1570508 words"
    assert QuackleGaddag.write(lexicon, ENGLISH) == data


# -- recognising and refusing -----------------------------------------------------------------------

def test_sniff_tells_quackles_files_from_kwg_lexc_and_word_lists(tmp_path):
    from lexc.formats import build, save

    dawg, gaddag = engine_bytes("quackle", "TINY.dawg"), engine_bytes("quackle", "TINY.gaddag")
    for data, fmt in ((dawg, QuackleDawg), (gaddag, QuackleGaddag)):
        (tmp_path / "x").write_bytes(data)
        assert recognise(tmp_path / "x") is fmt
    words = from_words(engine_lines("quackle", "TINY.txt"), ENGLISH.alphabet)
    (tmp_path / "t.kwg").write_bytes(Kwg.write(build(words, "gaddawg", "english"), ENGLISH))
    save(build(words, "dawg", "english"), tmp_path / "t.dawg")
    (tmp_path / "t.txt").write_bytes(engine_bytes("quackle", "TINY.txt"))
    assert recognise(tmp_path / "t.kwg") is Kwg
    assert recognise(tmp_path / "t.dawg") is None and recognise(tmp_path / "t.txt") is None
    assert not QuackleDawg.sniff(gaddag[:64], len(gaddag)) and not QuackleGaddag.sniff(dawg[:64], len(dawg))
    assert sorted(by_extension("x.gaddag")) == ["macondo-gaddag", "quackle-gaddag"]  # content decides
    assert recognise(engine_file("wolges", "len15.dawg")) is not QuackleDawg  # Macondo's legacy .dawg
    assert recognise(engine_file("wolges", "len15.gaddag")) is not QuackleGaddag


def test_commands_work_on_quackles_files(tmp_path):
    from lexc.lexicons.source import open_lexicon

    shutil.copy(engine_file("quackle", "TINY.dawg"), tmp_path / "TINY.dawg")
    shutil.copy(engine_file("quackle", "TINY.gaddag"), tmp_path / "TINY.gaddag")
    for name in ("TINY.dawg", "TINY.gaddag"):
        lexicon = open_lexicon(tmp_path / name)
        assert "QAT" in lexicon and "QA" not in lexicon
        assert lexicon.anagrams("TAC") == ["CAT"]
        assert lexicon.hooks("AB").as_dict()["back"] == "S"


def refusal(fmt, data: bytes, name: str = "x") -> str:
    with pytest.raises(FormatError) as info:
        fmt.read(data, name, ENGLISH)
    message = str(info.value)
    assert "\n" not in message and message.startswith(name)
    return message


def test_a_gaddag_given_for_a_dawg_says_what_it_looks_like():
    assert "looks like a quackle-gaddag file" in refusal(QuackleDawg, engine_bytes("quackle", "TINY.gaddag"))
    kwg = engine_bytes("wolges", "tiny.kwg")
    assert "looks like a kwg file" in refusal(QuackleGaddag, kwg)
    assert "looks like a quackle-dawg file" in refusal(QuackleGaddag, engine_bytes("quackle", "TINY.dawg")[:-2])


def test_a_gaddag_whose_hash_is_not_its_dawgs_is_refused(tmp_path):
    """Quackle drops such a .gaddag (makegaddag hashes a repeated word twice): lexc says so."""
    shutil.copy(engine_file("quackle", "TINY.dawg"), tmp_path / "T.dawg")
    other = gaddag_bytes(quackle_codes(["AA", "AB", "ZA"]))
    (tmp_path / "T.gaddag").write_bytes(other)
    with pytest.raises(FormatError, match=r"is not that of .*T\.dawg beside it .*Quackle drops"):
        read_foreign(tmp_path / "T.gaddag", QuackleGaddag, ENGLISH)
    (tmp_path / "T.dawg").unlink()
    assert list(read_foreign(tmp_path / "T.gaddag", QuackleGaddag, ENGLISH)) == ["AA", "AB", "ZA"]


def test_the_hash_proves_the_words():
    data = bytearray(engine_bytes("quackle", "TINY.dawg"))
    data[5] ^= 1
    assert "its words hash to" in refusal(QuackleDawg, bytes(data))
    twice = gaddag_bytes(quackle_codes(["AA", "AB", "ZA"]))
    repeated = twice[:1] + word_hash(quackle_codes(["AA", "AB", "AB", "ZA"])) + twice[17:]  # makegaddag's, AB twice
    assert "a repeated word" in refusal(QuackleGaddag, repeated)


def test_every_check_of_the_dawg_reader():
    good = engine_bytes("quackle", "TINY.dawg")
    at = 73  # node 0 (MANIFEST: 73 bytes of header)
    cases = {
        "version 1": b"\x02" + good[1:],
        "alphabet of 0 letters": good[:20] + b"\0" + good[21:],
        "not whole": good[:-3],
        "not a Quackle .dawg root": good[:at + 3] + b"\x05" + good[at + 4 :],
        "outside the 21-node array": good[:at + 7] + b"\0\0\x63" + good[at + 10 :],
        "outside its 26-letter alphabet": good[:at + 10] + b"\x3a" + good[at + 11 :],
        "the header says 13": good[:17] + b"\0\0\x0d" + good[20:],
    }
    for expected, data in cases.items():
        assert expected in refusal(QuackleDawg, data), expected
    cycle = bytearray(good)
    cycle[at + 7 * 9 : at + 7 * 9 + 3] = (7).to_bytes(3, "big")  # AAH's H leads back to AA's list
    assert "cycle" in refusal(QuackleDawg, bytes(cycle))


def test_every_check_of_the_gaddag_reader():
    good = engine_bytes("quackle", "TINY.gaddag")
    cases = {
        "version 1": b"\x00" + good[1:],
        "not a Quackle .gaddag root": good[:17] + b"\0\0\2\x80" + good[21:],
        "leads past the last": good[:21] + b"\0\1\0" + good[24:],
        "outside its 26-letter alphabet": good[:24] + b"\x03" + good[25:],
        "spells no words": good[:17] + b"\0\0\0\x80",
    }
    for expected, data in cases.items():
        assert expected in refusal(QuackleGaddag, data), expected


def test_a_letter_the_ruleset_does_not_have_is_refused():
    data = engine_bytes("quackle", "TINY.dawg")
    with pytest.raises(FormatError, match=r"^x: its letter 'Q' is not in the ruleset's alphabet"):
        QuackleDawg.read(data, "x", load_ruleset("polish"))  # (no Q in Polish)
    hacked = data.replace(b"Q ", b"\xc3\x91 ", 1)  # Q's text changed to Ñ (a multi-byte letter text)
    with pytest.raises(FormatError, match="its letter 'Ñ' is not in the ruleset's alphabet"):
        QuackleDawg.read(hacked, "x", ENGLISH)


def test_words_the_files_cannot_hold_are_refused_naming_them():
    from lexc.formats import build

    long = "A" * 41
    lexicon = build(from_words(["AA", long], ENGLISH.alphabet, max_len=None), "dawg", "english")
    with pytest.raises(FormatError, match=f"{long}: 41 tiles, more than the 40 a Quackle .dawg word holds"):
        QuackleDawg.write(lexicon, ENGLISH)
    lexicon = build(from_words(["AA", long[:40]], ENGLISH.alphabet, max_len=None), "dawg", "english")
    assert QuackleDawg.read(QuackleDawg.write(lexicon, ENGLISH), "x", ENGLISH).word_count == 2
    with pytest.raises(FormatError, match=r"40 tiles, more than the 39 a Quackle \.gaddag word holds"):
        QuackleGaddag.write(lexicon, ENGLISH)


def test_round_trips_in_another_alphabet_and_letter_order(tmp_path):
    """Polish (Quackle's order is lexc's) and a ruleset whose engine_orders table gives
    Quackle another order: the letters go by label, the files hold Quackle's numbers."""
    from lexc.formats import build

    polish = load_ruleset("polish")
    words = from_words(["ŻABA", "ŹREBIĘ", "ĄB", "ZA"], polish.alphabet)
    lexicon = build(words, "dawg", "polish")
    for fmt in (QuackleDawg, QuackleGaddag):
        assert list(fmt.read(fmt.write(lexicon, polish), "x", polish)) == list(lexicon)
    text = (ENGLISH.text + "\n[engine_orders]\nquackle = [" +
            ", ".join(f'"{c}"' for c in "ZYXWVUTSRQPONMLKJIHGFEDCBA") + "]\n")
    (tmp_path / "rev.toml").write_text(text)
    backwards = load_ruleset(str(tmp_path / "rev.toml"))
    lexicon = build(from_words(engine_lines("quackle", "TINY.txt"), ENGLISH.alphabet), "dawg", "english")
    data = QuackleDawg.write(lexicon, backwards)
    assert data[21:23] == b"Z " and data != engine_bytes("quackle", "TINY.dawg")
    assert list(QuackleDawg.read(data, "x", ENGLISH)) == list(lexicon)  # the header's alphabet says which is which
    gaddag = QuackleGaddag.write(lexicon, backwards)
    assert list(QuackleGaddag.read(gaddag, "x", backwards)) == list(lexicon)
    assert dawg_bytes(quackle_codes(["AB"]), ["A", "B"])[17:20] == b"\0\0\1"
