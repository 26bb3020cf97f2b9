"""Tests for lexc.wordlist: reading, normalizing, validating, deduplicating and sorting lists."""

from __future__ import annotations

import hashlib
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexc.alphabet import Alphabet
from lexc.ruleset import load_ruleset
from lexc.wordlist import WordList, WordListError, digest, from_words, read_wordlist

WORDLISTS = Path(__file__).resolve().parent.parent / "wordlists"
ENGLISH = load_ruleset("english").alphabet
SPANISH = load_ruleset("spanish").alphabet


def write(tmp_path: Path, data: bytes | str, name: str = "words.txt") -> Path:
    """A file holding ``data`` (text is written as UTF-8 bytes, newlines untouched)."""
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def read(tmp_path: Path, data: bytes | str, alphabet: Alphabet = ENGLISH, **options) -> WordList:
    return read_wordlist(write(tmp_path, data), alphabet, **options)


def tiles(word: bytes) -> int:
    return len(word)


# --- normalization ---------------------------------------------------------------------------

def test_one_word_per_line_upper_cased_and_sorted(tmp_path):
    wl = read(tmp_path, "dog\ncat\nzebra\nant\n")
    assert wl.texts() == ["ANT", "CAT", "DOG", "ZEBRA"]
    assert len(wl) == 4 and wl.lines == 4
    assert wl.duplicates == 0 and wl.rejected == ()
    assert all(isinstance(w, bytes) for w in wl.words)
    assert wl.words == sorted(wl.words)
    assert wl.words[0] == bytes(ENGLISH.code(ch) for ch in "ANT")


def test_crlf_bom_spaces_blank_lines_and_comments_are_tolerated(tmp_path):
    data = b"\xef\xbb\xbf# a comment\r\n  cat  \r\n\r\n\t\r\n   # indented comment\r\ndog\t\r\n\r\nemu"
    wl = read(tmp_path, data)
    assert wl.texts() == ["CAT", "DOG", "EMU"]
    assert wl.lines == 3  # word lines only
    assert wl.rejected == () and wl.duplicates == 0


def test_bom_only_at_start_does_not_become_part_of_the_first_word(tmp_path):
    wl = read(tmp_path, "\ufeffzoo\nant\n")
    assert wl.texts() == ["ANT", "ZOO"]


def test_mixed_case_is_folded(tmp_path):
    wl = read(tmp_path, "CaT\ndOG\n")
    assert wl.texts() == ["CAT", "DOG"]


def test_nfd_input_is_composed_to_nfc(tmp_path):
    decomposed = unicodedata.normalize("NFD", "niño\naño\n")
    assert "\u0303" in decomposed
    wl = read(tmp_path, decomposed, SPANISH)
    assert wl.texts() == ["AÑO", "NIÑO"]
    assert all(unicodedata.is_normalized("NFC", t) for t in wl.texts())
    assert [len(w) for w in wl.words] == [3, 4]


def test_duplicates_are_dropped_and_counted(tmp_path):
    wl = read(tmp_path, "cat\ndog\ncat\nCAT\nCat\ndog\nemu\n")
    assert wl.texts() == ["CAT", "DOG", "EMU"]
    assert wl.duplicates == 4
    assert wl.lines == 7
    assert wl.report()["duplicates"] == 4 and wl.report()["words"] == 3


def test_duplicates_differing_only_in_case_or_spaces(tmp_path):
    wl = read(tmp_path, "Cat\n  cAt\ncat  \n")
    assert wl.texts() == ["CAT"]
    assert wl.duplicates == 2


def test_unsorted_input_comes_out_sorted(tmp_path):
    words = ["zoo", "apple", "mango", "banana", "kiwi", "fig", "apricot", "ab"]
    wl = read(tmp_path, "\n".join(words))
    assert wl.texts() == sorted(w.upper() for w in words)


# --- lengths ---------------------------------------------------------------------------------

def test_min_len_default_is_two(tmp_path):
    wl = read(tmp_path, "a\nan\nant\nI\n")
    assert wl.texts() == ["AN", "ANT"]
    assert wl.too_short == 2


def test_min_len_and_max_len_filter_and_count(tmp_path):
    wl = read(tmp_path, "a\nan\nant\nants\nantsy\nantler\n", min_len=3, max_len=5)
    assert wl.texts() == ["ANT", "ANTS", "ANTSY"]
    assert wl.too_short == 2
    assert wl.too_long == 1
    report = wl.report()
    assert (report["too_short"], report["too_long"], report["words"]) == (2, 1, 3)


def test_min_len_one_keeps_single_letters(tmp_path):
    wl = read(tmp_path, "a\nan\n", min_len=1)
    assert wl.texts() == ["A", "AN"]
    assert wl.too_short == 0


def test_longer_than_board_is_counted_but_kept(tmp_path):
    tiny = load_ruleset("tiny")
    wl = read(tmp_path, "cat\ncatalog\ncatalogs\ncatalogue\n", board_size=tiny.board_size)
    assert tiny.board_size == 7
    assert wl.longer_than_board == 2
    assert wl.texts() == ["CAT", "CATALOG", "CATALOGS", "CATALOGUE"]
    assert read(tmp_path, "cat\ncatalogue\n").longer_than_board == 0  # no board, no count


def test_lengths_are_counted_in_tiles_not_characters(tmp_path):
    # CHURRO is 6 characters but 4 tiles: CH U RR O; CARRETA is 6 tiles: C A RR E T A
    wl = read(tmp_path, "churro\ncarreta\n", SPANISH, max_len=5)
    assert wl.texts() == ["CHURRO"]
    assert wl.too_long == 1
    wl = read(tmp_path, "churro\ncarreta\n", SPANISH, board_size=5)
    assert wl.longer_than_board == 1
    assert wl.texts() == ["CARRETA", "CHURRO"]


# --- characters outside the alphabet ---------------------------------------------------------

@pytest.mark.parametrize("text, line, shown", [
    ("# list\ncat\n\ndo$g\nemu\n", 4, "'$'"),  # comment and blank lines still count as lines
    ("cat\ncafé\n", 2, "É"),                     # an accented letter, named after folding
])
def test_invalid_character_is_an_error_naming_file_line_and_character(tmp_path, text, line, shown):
    path = write(tmp_path, text)
    with pytest.raises(WordListError) as info:
        read_wordlist(path, ENGLISH)
    message = str(info.value)
    assert f"{path}:{line}" in message
    assert shown in message
    assert "\n" not in message


def test_space_inside_a_word_is_invalid(tmp_path):
    path = write(tmp_path, "ice cream\n")
    with pytest.raises(WordListError, match=r":1: .*' '"):
        read_wordlist(path, ENGLISH)


def test_skip_invalid_counts_rejects_with_line_numbers(tmp_path):
    wl = read(tmp_path, "cat\ndo$g\n# c\nemu\ncafé\nzoo\n", skip_invalid=True)
    assert wl.texts() == ["CAT", "EMU", "ZOO"]
    assert [(r.line, r.text) for r in wl.rejected] == [(2, "DO$G"), (5, "CAFÉ")]
    assert "$" in wl.rejected[0].reason and "É" in wl.rejected[1].reason
    assert wl.report()["rejected"] == 2


def test_spanish_alphabet_rejects_english_only_letters(tmp_path):
    # Spanish Scrabble has no K or W tiles
    path = write(tmp_path, "casa\nkiwi\n")
    with pytest.raises(WordListError, match=r":2: .*'K'"):
        read_wordlist(path, SPANISH)


# --- encodings -------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding, bom", [
    ("utf-16", True),         # native order with a BOM (Python writes one)
    ("utf-16-le", False),
    ("utf-16-be", False),
])
def test_utf16_is_rejected_with_a_helpful_message(tmp_path, encoding, bom):
    data = "cat\ndog\nemu\n".encode(encoding)
    assert data.startswith((b"\xff\xfe", b"\xfe\xff")) == bom
    path = write(tmp_path, data)
    with pytest.raises(WordListError) as info:
        read_wordlist(path, ENGLISH)
    message = str(info.value)
    assert "UTF-16" in message
    assert str(path) in message
    assert "\n" not in message


def test_utf16_big_endian_with_bom_is_rejected(tmp_path):
    data = b"\xfe\xff" + "cat\ndog\n".encode("utf-16-be")
    with pytest.raises(WordListError, match="UTF-16"):
        read(tmp_path, data)


def test_latin1_is_rejected_as_not_utf8(tmp_path):
    path = write(tmp_path, "cat\ndog\ncafé\n".encode("latin-1"))
    with pytest.raises(WordListError) as info:
        read_wordlist(path, ENGLISH)
    message = str(info.value)
    assert "not UTF-8" in message
    assert f"{path}:3" in message
    assert "\n" not in message


def test_latin1_is_rejected_even_with_skip_invalid(tmp_path):
    with pytest.raises(WordListError, match="not UTF-8"):
        read(tmp_path, "café\ncat\n".encode("latin-1"), skip_invalid=True)


def test_nul_byte_is_rejected_as_binary(tmp_path):
    data = b"".join(b"word%c%c\n" % (a, b) for a in b"abcd" for b in b"abcd") + b"ca\0t\n"
    path = write(tmp_path, data)
    with pytest.raises(WordListError) as info:
        read_wordlist(path, ENGLISH, skip_invalid=True)
    assert f"{path}:17" in str(info.value) and "\n" not in str(info.value)


def test_missing_file_is_a_wordlist_error(tmp_path):
    with pytest.raises(WordListError, match="no such file"):
        read_wordlist(tmp_path / "absent.txt", ENGLISH)


def test_directory_is_a_wordlist_error(tmp_path):
    with pytest.raises(WordListError, match="directory"):
        read_wordlist(tmp_path, ENGLISH)


# --- empty results ---------------------------------------------------------------------------

@pytest.mark.parametrize("data, options", [
    (b"", {}),
    (b"\xef\xbb\xbf", {}),
    (b"\n\n  \r\n", {}),
    (b"# only\n# comments\n", {}),
    (b"a\nb\nI\n", {}),
    (b"cat\ndog\n", {"min_len": 4}),
    (b"catalog\n", {"max_len": 3}),
    (b"d$g\nc@t\n", {"skip_invalid": True}),
])
def test_an_empty_result_is_an_error(tmp_path, data, options):
    path = write(tmp_path, data)
    with pytest.raises(WordListError) as info:
        read_wordlist(path, ENGLISH, **options)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


def test_from_words_with_nothing_is_an_error():
    with pytest.raises(WordListError):
        from_words([], ENGLISH)


# --- multi-character tiles -------------------------------------------------------------------

@pytest.mark.parametrize("word, labels", [
    ("churro", ["CH", "U", "RR", "O"]),
    ("llama", ["LL", "A", "M", "A"]),
    ("niño", ["N", "I", "Ñ", "O"]),
    ("carro", ["C", "A", "RR", "O"]),
    ("muchacho", ["M", "U", "CH", "A", "CH", "O"]),
    ("calle", ["C", "A", "LL", "E"]),
])
def test_spanish_tiles_by_longest_match(tmp_path, word, labels):
    wl = read(tmp_path, word + "\n", SPANISH)
    assert len(wl.words) == 1
    assert list(wl.words[0]) == [SPANISH.code(label) for label in labels]
    assert wl.texts() == [word.upper()]


def test_spanish_two_character_tile_alone_is_one_tile(tmp_path):
    wl = read(tmp_path, "ch\nll\nrr\nche\n", SPANISH)
    assert wl.texts() == ["CHE"]  # CH, LL, RR alone are one tile each: too short
    assert wl.too_short == 3
    assert read(tmp_path, "ch\n", SPANISH, min_len=1).texts() == ["CH"]
    assert [len(w) for w in read(tmp_path, "ch\n", SPANISH, min_len=1).words] == [1]


def test_spanish_sorted_in_alphabet_order_not_text_order(tmp_path):
    # Spanish order: ... C < CH < D ... L < LL < M ... N < Ñ < O ... R < RR < S
    wl = read(tmp_path, "llama\nluna\nchico\ncura\nñu\noso\nnube\n", SPANISH)
    assert wl.texts() == ["CURA", "CHICO", "LUNA", "LLAMA", "NUBE", "ÑU", "OSO"]


def test_spanish_sample_list():
    wl = read_wordlist(WORDLISTS / "spanish-sample.txt", SPANISH)
    texts = wl.texts()
    assert len(texts) == 20 and wl.rejected == () and wl.duplicates == 0
    assert {"CHURRO", "LLAMA", "NIÑO", "ARROZ"} <= set(texts)
    by_text = dict(zip(texts, wl.words, strict=True))
    assert len(by_text["CHURRO"]) == 4 and len(by_text["LLAMA"]) == 4 and len(by_text["MUCHACHO"]) == 6
    assert texts.index("CURA") < texts.index("CHICO") < texts.index("LUNA") < texts.index("LLAMA")
    with pytest.raises(WordListError):  # Ñ is not an English letter
        read_wordlist(WORDLISTS / "spanish-sample.txt", ENGLISH)


def test_tiny_list_reads_cleanly():
    wl = read_wordlist(WORDLISTS / "tiny.txt", ENGLISH)
    raw = [line.strip() for line in (WORDLISTS / "tiny.txt").read_text("utf-8").splitlines()]
    expected = sorted({w.upper() for w in raw if w and not w.startswith("#")})
    assert wl.texts() == expected
    assert wl.rejected == () and wl.duplicates == 0 and len(wl) > 20


# --- digest ----------------------------------------------------------------------------------

def test_digest_is_sha256_of_sorted_upper_cased_text(tmp_path):
    raw = ["zebra", "Apple", "mango", "apple", "  kiwi", "# note", "", "MANGO", "fig"]
    wl = read(tmp_path, "\r\n".join(raw))
    normalized = sorted({w.strip().upper() for w in raw if w.strip() and not w.startswith("#")})
    expected = hashlib.sha256(("\n".join(normalized) + "\n").encode("utf-8")).hexdigest()
    assert wl.sha256 == expected
    assert digest(wl.words, ENGLISH) == expected
    # the same as sha256sum of the normalized file
    clean = write(tmp_path, "".join(w + "\n" for w in normalized), "clean.txt")
    assert hashlib.sha256(clean.read_bytes()).hexdigest() == wl.sha256
    assert read_wordlist(clean, ENGLISH).sha256 == expected


def test_digest_differs_for_different_lists(tmp_path):
    assert read(tmp_path, "cat\ndog\n").sha256 != read(tmp_path, "cat\ndogs\n").sha256


def test_digest_of_utf8_labels(tmp_path):
    wl = read(tmp_path, "niño\naño\n", SPANISH)
    assert wl.sha256 == hashlib.sha256("AÑO\nNIÑO\n".encode()).hexdigest()


def test_from_words_matches_reading_a_file(tmp_path):
    words = ["dog", "Cat", "cat", "emu", "a"]
    assert from_words(words, ENGLISH).words == read(tmp_path, "\n".join(words)).words


# --- round trip (hypothesis) -----------------------------------------------------------------

WORD = st.text(alphabet="abcdeABCDE", min_size=0, max_size=7)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(WORD, max_size=30), crlf=st.booleans(), pad=st.sampled_from(["", " ", "\t", "  "]))
def test_round_trip_random_lists(words, crlf, pad):
    expected = sorted({w.upper() for w in words if len(w) >= 2})
    newline = "\r\n" if crlf else "\n"
    data = newline.join(pad + w + pad for w in words).encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.txt"
        path.write_bytes(data)
        if not expected:
            with pytest.raises(WordListError):
                read_wordlist(path, ENGLISH)
            return
        wl = read_wordlist(path, ENGLISH)
    assert wl.texts() == expected
    assert [ENGLISH.decode(w) for w in wl.words] == expected
    kept = [w for w in words if len(w) >= 2]
    assert wl.duplicates == len(kept) - len(expected)
    assert wl.too_short == sum(1 for w in words if w and len(w) < 2)
    assert wl.sha256 == hashlib.sha256(("\n".join(expected) + "\n").encode()).hexdigest()


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.text(alphabet="xyz", min_size=1, max_size=5), min_size=1, max_size=20),
       min_len=st.integers(1, 4))
def test_round_trip_respects_min_len_in_an_odd_alphabet_order(words, min_len):
    # letters coded in the order Z, Y, X: words sort by that order, not by text
    alphabet = Alphabet(("Z", "Y", "X"))
    rank = {"Z": 0, "Y": 1, "X": 2}
    expected = sorted({w.upper() for w in words if len(w) >= min_len}, key=lambda w: [rank[c] for c in w])
    if not expected:
        with pytest.raises(WordListError):
            from_words(words, alphabet, min_len=min_len)
        return
    wl = from_words(words, alphabet, min_len=min_len)
    assert wl.texts() == expected


# -- decoding: the bytes-translation fast path agrees with the general one -----------------

@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=8), min_size=1, max_size=6))
def test_decode_fast_path_agrees(words):
    latin = Alphabet(("A", "Ñ", "Ü", "Z"))  # one Latin-1 character each: the fast path
    for alphabet in (ENGLISH, SPANISH, latin):
        general = [w.decode("latin-1").translate(alphabet._decode_table) for w in words]
        assert [alphabet.decode(w) for w in words] == general  # U+FFFD for unknown codes too
        clean = [w.replace(b"\x00", b"") for w in words]
        assert alphabet.decode_many(clean) == [alphabet.decode(w) for w in clean]
    assert latin.decode(bytes((2, 3 | 0x80, 9))) == "Ñü\ufffd"
    assert ENGLISH._decode_bytes is not None and latin._decode_bytes is not None
    assert SPANISH._decode_bytes is None  # CH, LL, RR: the general path


# -- racks: rack_tiles' bytes translation reads and refuses what parse_rack does ------------

RACK_CHARACTERS = "ABCNÑQRSTUXYZabnñz?_[]·L1 -*é\u0303"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=RACK_CHARACTERS, max_size=70))
def test_rack_tiles_agree_with_parse_rack(rack):
    """Every rack, on alphabets with and without the fast path (one Latin-1 character a
    label; Spanish's CH, LL, RR; a label ``_``, which a rack still reads as a blank): the same
    tiles, or the same refusal."""
    underscore = Alphabet(("A", "B", "_", "Z"))
    latin = Alphabet(("A", "Ñ", "Ü", "Z"))
    for alphabet in (ENGLISH, SPANISH, latin, underscore):
        try:
            letters, blanks = alphabet.parse_rack(rack)
        except ValueError as exc:
            with pytest.raises(ValueError) as caught:
                alphabet.rack_tiles(rack)
            assert str(caught.value) == str(exc)
            continue
        tiles = alphabet.rack_tiles(rack)
        assert sorted(tiles) == sorted(letters + [0] * blanks), (alphabet.labels, rack)
    assert ENGLISH._rack_codes is not None and SPANISH._rack_codes is None


def test_rack_tiles_read_blanks_lower_case_and_long_racks():
    assert ENGLISH.rack_tiles("ca?_T") == bytes([3, 1, 0, 0, 20])
    assert sorted(SPANISH.rack_tiles("[CH]ll?")) == sorted([0, *SPANISH.encode("CH"), *SPANISH.encode("LL")])
    with pytest.raises(ValueError, match="at most"):
        ENGLISH.rack_tiles("A" * 65)


def test_words_longer_than_the_longest_a_lexicon_holds_are_refused():
    from lexc.ruleset import load_ruleset
    from lexc.wordlist import MAX_WORD_TILES, WordListError, from_words

    alphabet = load_ruleset("english").alphabet
    longest = "A" * MAX_WORD_TILES
    assert from_words([longest, "CAT"], alphabet).words == sorted([alphabet.encode(longest), alphabet.encode("CAT")])
    with pytest.raises(WordListError, match=f"<words>:2: a word of {MAX_WORD_TILES + 1} tiles"):
        from_words(["CAT", longest + "B"], alphabet)
    skipped = from_words(["CAT", longest + "B"], alphabet, skip_invalid=True)
    assert len(skipped) == 1 and skipped.rejected[0].line == 2
