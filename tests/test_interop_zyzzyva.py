"""Zyzzyva's .dwg, -R.dwg and -Checksums.txt, written by DawgCreator (``tests/interop.py``: read
where they are; ``../shared/interop/zyzzyva/MANIFEST.md``): lexc reads each and lists exactly
the engine's dump of its words, on both backends, and lexc's writer, given the same words,
writes the very same bytes and checksums (``formats/zyzzyva.md``). Then the bad input."""

from __future__ import annotations

import shutil
import struct

import pytest

from interop import engine_bytes, engine_file, engine_lines
from lexc import native
from lexc.formats import FormatError
from lexc.formats.foreign import by_extension, read_foreign, recognise
from lexc.formats.kwg import Kwg
from lexc.formats.quackle import QuackleDawg
from lexc.formats.zyzzyva import (
    Zyzzyva,
    ZyzzyvaChecksums,
    ZyzzyvaReversed,
    checksum,
    dwg_bytes,
    parse_checksums,
)
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ENGLISH = load_ruleset("english")
BACKENDS = [native.PURE] + ([native.COMPILED] if native.COMPILED is not None else [])


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: "compiled" if b.compiled else "pure")
@pytest.mark.parametrize("name, layout", [("TINY.dwg", "zyzzyva"), ("TINY-R.dwg", "zyzzyva-r")])
def test_lexc_lists_exactly_zyzzyvas_words(name, layout, backend):
    path = engine_file("zyzzyva", name)
    assert recognise(path) is Zyzzyva  # (an -R.dwg is told by its name)
    lexicon = read_foreign(path, Zyzzyva, ENGLISH, backend)
    assert list(lexicon) == engine_lines("zyzzyva", "TINY.dwg.dump.txt") == engine_lines(
        "zyzzyva", "TINY.zyzzyva-search.txt")
    assert lexicon.file_layout == layout and lexicon.engine == backend.name
    assert not lexicon.check()


def test_the_reversed_file_holds_the_reversed_words():
    """DawgCreator's dump of the -R.dwg (the reversed words, sorted) is what lexc's reader of
    the -R.dwg walks before it turns the words round."""
    data = engine_bytes("zyzzyva", "TINY-R.dwg")
    assert list(Zyzzyva.read(data, "plain.dwg", ENGLISH)) == engine_lines("zyzzyva", "TINY-R.dwg.dump.txt")


@pytest.mark.parametrize("stem", ["TINY", "ENABLE15", "ENABLE"])
def test_lexcs_files_of_the_same_words_are_zyzzyvas(stem):
    """DawgCreator's .dwg and -R.dwg, and the checksums Zyzzyva's loader accepted, byte for
    byte (ENABLE's by the tool with its one bug mended: MANIFEST)."""
    listing = f"{stem}.dwg.dump.txt" + (".gz" if stem != "TINY" else "")
    words = from_words(engine_lines("zyzzyva", listing), ENGLISH.alphabet)
    from lexc.formats import build

    lexicon = build(words, "dawg", "english")
    forward, reverse = Zyzzyva.write(lexicon, ENGLISH), ZyzzyvaReversed.write(lexicon, ENGLISH)
    assert forward == engine_bytes("zyzzyva", f"{stem}.dwg")
    assert reverse == engine_bytes("zyzzyva", f"{stem}-R.dwg")
    assert ZyzzyvaChecksums.write(lexicon, ENGLISH) == engine_bytes("zyzzyva", f"{stem}-Checksums.txt")


@pytest.mark.parametrize("stem, sums", [("TINY", (51149, 26894)), ("ENABLE15", (703, 31975)),
                                        ("ENABLE", (24406, 28368))])
def test_checksums_are_zyzzyvas_crc_of_the_first_edge_count_bytes(stem, sums):
    assert parse_checksums(engine_bytes("zyzzyva", f"{stem}-Checksums.txt"), "x") == sums
    fwd = engine_bytes("zyzzyva", f"{stem}.dwg")
    assert (checksum(fwd), checksum(engine_bytes("zyzzyva", f"{stem}-R.dwg"))) == sums
    if stem == "TINY":  # over all the edge bytes it would be another number (MANIFEST: 27644)
        assert checksum(struct.pack("<I", len(fwd) - 4) + fwd[4:]) == 27644


@pytest.mark.slow
@pytest.mark.parametrize("name, listing", [("ENABLE15.dwg", "ENABLE15.dwg.dump.txt.gz"),
                                           ("ENABLE15-R.dwg", "ENABLE15.dwg.dump.txt.gz"),
                                           ("ENABLE.dwg", "ENABLE.dwg.dump.txt.gz"),
                                           ("ENABLE-R.dwg", "ENABLE.dwg.dump.txt.gz")])
def test_enable_read(name, listing):
    lexicon = read_foreign(engine_file("zyzzyva", name), Zyzzyva, ENGLISH)
    assert list(lexicon) == engine_lines("zyzzyva", listing)


@pytest.mark.slow
@pytest.mark.parametrize("stem", ["ENABLE15", "ENABLE"])
def test_enable_reversed_file_holds_zyzzyvas_reversed_strings(stem):
    """Read as a plain .dwg, ENABLE's -R.dwg spells exactly Zyzzyva's own dump of it: every
    word reversed, sorted."""
    data = engine_bytes("zyzzyva", f"{stem}-R.dwg")
    assert list(Zyzzyva.read(data, "plain.dwg", ENGLISH)) == engine_lines("zyzzyva", f"{stem}-R.dwg.dump.txt.gz")


# -- recognising and refusing -----------------------------------------------------------------------

def test_sniff_and_extensions(tmp_path):
    for name in ("TINY.dwg", "TINY-R.dwg"):
        data = engine_bytes("zyzzyva", name)
        assert Zyzzyva.sniff(data[:64], len(data))
        assert not Kwg.sniff(data[:64], len(data)) and not QuackleDawg.sniff(data[:64], len(data))
    for engine, name in (("wolges", "tiny.kwg"), ("quackle", "TINY.dawg"), ("quackle", "TINY.gaddag"),
                         ("quackle", "TINY.txt"), ("wolges", "len15.dawg")):
        data = engine_bytes(engine, name)
        assert not Zyzzyva.sniff(data[:64], len(data)), name
    assert by_extension("X-R.dwg") == ["zyzzyva-r"] and by_extension("X.dwg") == ["zyzzyva"]
    assert by_extension("X-Checksums.txt") == ["zyzzyva-checksums"]


def refusal(data: bytes, name: str = "x.dwg") -> str:
    with pytest.raises(FormatError) as info:
        Zyzzyva.read(data, name, ENGLISH)
    message = str(info.value)
    assert "\n" not in message and message.startswith(name)
    return message


def edit(data: bytes, slot: int, value: int) -> bytes:
    return data[: 4 * slot] + struct.pack("<I", value) + data[4 * slot + 4 :]


def test_every_check_of_the_dwg_reader():
    good = engine_bytes("zyzzyva", "TINY.dwg")  # slots: 1-6 the root list, 256 its end, 257-268 the lists
    cases = {
        "says 269 edges and holds 268": edit(good, 0, 269),
        "it says 268 edges and holds 267": good[:-4],
        "not a Zyzzyva .dwg (1,000 bytes": good[:1000],
        "after the root list are not DawgCreator's padding": edit(good, 200, 5),
        "the reserved bit 21 is set": edit(good, 257, 0x48C00000 | 1 << 21),
        "points into the root block": edit(good, 259, 0x41800000 | 3),
        "past the last of its 268 edges": edit(good, 259, 0x41800000 | 300),
        "letter byte 0x61 is not a letter": edit(good, 257, 0x61C00000),
        "spells no words": good[:4] + bytes(4 * 255) + struct.pack("<I", 1 << 22) + good[4 * 257 :],
    }
    for expected, data in cases.items():
        assert expected in refusal(data), expected
    assert "cycle" in refusal(edit(good, 257, 0x48C00000 | 259))  # AAH's H leads back to AA's list
    assert "looks like a kwg file" in refusal(engine_bytes("wolges", "tiny.kwg"))
    assert "looks like a quackle-dawg file" in refusal(engine_bytes("quackle", "TINY.dawg")[:-4])


def test_a_checksum_that_differs_from_the_checksums_file_beside_is_refused(tmp_path):
    for name in ("TINY.dwg", "TINY-R.dwg", "TINY-Checksums.txt"):
        shutil.copy(engine_file("zyzzyva", name), tmp_path / name)
    assert len(read_foreign(tmp_path / "TINY-R.dwg", Zyzzyva, ENGLISH)) == 12
    (tmp_path / "TINY-Checksums.txt").write_text("51149\n26895\n")
    assert len(read_foreign(tmp_path / "TINY.dwg", Zyzzyva, ENGLISH)) == 12
    with pytest.raises(FormatError, match=r"TINY-R.dwg: its checksum is 26894, not the 26895 of .*TINY-Checksums"):
        read_foreign(tmp_path / "TINY-R.dwg", Zyzzyva, ENGLISH)
    (tmp_path / "TINY-Checksums.txt").write_text("hello\n")
    with pytest.raises(FormatError, match="not a Zyzzyva checksums file"):
        read_foreign(tmp_path / "TINY.dwg", Zyzzyva, ENGLISH)


def test_commands_work_on_zyzzyvas_files(tmp_path):
    from lexc.lexicons.source import open_lexicon

    for name in ("TINY.dwg", "TINY-R.dwg"):
        shutil.copy(engine_file("zyzzyva", name), tmp_path / name)
        lexicon = open_lexicon(tmp_path / name)
        assert "QAT" in lexicon and lexicon.anagrams("TAC") == ["CAT"]
        assert lexicon.hooks("AB").as_dict()["back"] == "S"


def test_letters_a_dwg_cannot_hold_are_refused():
    from lexc.formats import build

    spanish = load_ruleset("spanish")
    lexicon = build(from_words(["CHICO", "NIÑO"], spanish.alphabet), "dawg", "spanish")
    with pytest.raises(FormatError, match=r"^CHICO: the tile CH is not one ASCII character"):
        Zyzzyva.write(lexicon, spanish)
    lexicon = build(from_words(["CASA", "NIÑO"], spanish.alphabet), "dawg", "spanish")
    with pytest.raises(FormatError, match=r"^NIÑO: the tile Ñ is not one ASCII character"):
        Zyzzyva.write(lexicon, spanish)
    plain = build(from_words(["CASA", "NINO"], spanish.alphabet), "dawg", "spanish")  # (its CH and Ñ unused)
    assert list(Zyzzyva.read(Zyzzyva.write(plain, spanish), "x.dwg", spanish)) == ["CASA", "NINO"]
    with pytest.raises(FormatError, match="not in strictly increasing order"):
        dwg_bytes([b"B", b"A"])


def test_one_letter_and_long_words_are_written_as_zyzzyva_reads_them():
    """DawgCreator drops words of one letter and (unmended) fails past 15 letters; lexc writes
    both, and reads them back (formats/zyzzyva.md)."""
    from lexc.formats import build

    words = ["A", "AB", "ABSENTMINDEDNESSES"]
    lexicon = build(from_words(words, ENGLISH.alphabet, min_len=1), "dawg", "english")
    for fmt, name in ((Zyzzyva, "x.dwg"), (ZyzzyvaReversed, "x-R.dwg")):
        assert list(Zyzzyva.read(fmt.write(lexicon, ENGLISH), name, ENGLISH)) == words
