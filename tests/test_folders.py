"""Engines' data folders (``lexc export LEXICON --to quackle|wolges DIR``, ``lexicons/folders.py``,
``formats/folders.md``; MAGPIE's in ``test_leaves.py``): each folder holds exactly the files its
engine expects, each reads back through lexc's readers to the lexicon's words and the leaves'
values, and, from the engines' own inputs, they are the engines' own bytes (read in place from
``../shared/interop``: Quackle's TINY.dawg, TINY.gaddag and small_leaves.superleaves, wolges's
tiny.kwg and CSW21_small.klv2). Bad input is refused in one line, before anything is written."""

from __future__ import annotations

import json

import pytest

from interop import engine_bytes, engine_file, engine_lines
from lexc.formats import FormatError
from lexc.formats.foreign import get_foreign, read_foreign
from lexc.formats.leaves import QUACKLE, read_leaves
from lexc.formats.quackle import QuackleDawg, QuackleGaddag, parse_dawg_header, word_hash
from lexc.formats.quackle_alphabet import alphabet_file, read_alphabet
from lexc.ruleset import load_ruleset
from test_cli import assert_one_error_line, run_main

ENGLISH = load_ruleset("english")
QUACKLE_FILES = ["alphabets/english.quackle_alphabet", "lexica/TINY.dawg", "lexica/TINY.gaddag",
                 "strategy/TINY/superleaves"]


def files_in(folder) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def export(capsys, *args) -> tuple[int, str, str]:
    return run_main(capsys, "export", *args)


# -- Quackle ------------------------------------------------------------------------------------

def test_the_quackle_folder_of_tiny_is_quackle_s_own_bytes(tmp_path, capsys):
    """From TINY.txt and small_leaves.csv: makeminidawg's TINY.dawg, makegaddag's TINY.gaddag
    and encodeleaves's superleaves, byte for byte, under the names Quackle looks them up by;
    the one value encodeleaves truncates is warned about once."""
    out = tmp_path / "data"
    code, text, err = export(capsys, engine_file("quackle", "TINY.txt"), "--to", "quackle", out,
                             "--leaves", engine_file("quackle", "small_leaves.csv"), "--json")
    assert code == 0, err
    assert files_in(out) == QUACKLE_FILES
    assert (out / "lexica" / "TINY.dawg").read_bytes() == engine_bytes("quackle", "TINY.dawg")
    assert (out / "lexica" / "TINY.gaddag").read_bytes() == engine_bytes("quackle", "TINY.gaddag")
    assert (out / "strategy" / "TINY" / "superleaves").read_bytes() == engine_bytes("quackle",
                                                                                    "small_leaves.superleaves")
    report = json.loads(text)
    assert report["files"] == {rel: (out / rel).stat().st_size for rel in report["files"]}
    assert sorted(report["files"]) == QUACKLE_FILES and report["kept"] == []
    assert report["hash"] == "1dbf52fb898846849edb97ab36441fcd"  # (makeminidawg's: MANIFEST.md)
    assert report["command"] == "test --lexicon=TINY --alphabet=english" and report["leaves"] == "TINY"
    assert report["rounding"]["values_rounded"] == 1 and report["rounding"]["leave"] == "EEE"
    line = err.strip()
    assert line.startswith("lexc export: warning: ") and "superleaves" in line and "EEE: -4.1 -> -4.1015625" in line
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".data")]  # (the scratch folder was renamed)


def backwards_english(tmp_path):
    """English with Quackle's letters numbered Z first (an ``engine_orders.quackle`` table)."""
    path = tmp_path / "rev.toml"
    path.write_text(ENGLISH.text + '\n[engine_orders]\nquackle = [' + ", ".join(f'"{c}"' for c in
                                                                               "ZYXWVUTSRQPONMLKJIHGFEDCBA") + "]\n")
    return path


def test_the_quackle_folder_reads_back_and_its_alphabet_is_the_dawg_s_order(tmp_path, capsys):
    """Another letter order: the alphabet file's letters are the .dawg header's, in order, with
    the ruleset's scores and counts; the .dawg and the .gaddag (read with the .dawg beside it,
    whose hash it must have) spell the words; the superleaves read back to the values at
    Quackle's precision."""
    words = tmp_path / "w.txt"
    words.write_text("ZAX\nQI\nCAT\nCATS\nAB\n")
    leaves = tmp_path / "l.csv"
    leaves.write_text("?,25.5\nZ,5.125\nQ,-7.5\nAE,-3.25\n")
    rules = load_ruleset(str(backwards_english(tmp_path)))
    out = tmp_path / "q"
    code, text, err = export(capsys, words, "--to", "quackle", "-o", out, "-r", backwards_english(tmp_path),
                             "--leaves", leaves, "--name", "W")
    assert code == 0, err
    dawg, gaddag = (out / "lexica" / "W.dawg").read_bytes(), (out / "lexica" / "W.gaddag").read_bytes()
    header = parse_dawg_header(dawg, "W.dawg")
    alphabet = read_alphabet((out / "alphabets" / "english.quackle_alphabet").read_bytes(), "a")
    assert alphabet.labels == header.labels == tuple("ZYXWVUTSRQPONMLKJIHGFEDCBA")
    for letter in alphabet.letters:
        code_ = ENGLISH.alphabet.code(letter.text)
        assert (letter.score, letter.count, letter.blank_text) == (ENGLISH.value(code_), ENGLISH.count(code_),
                                                                   letter.text.lower())
        assert letter.vowel == (letter.text in "AEIOU")
    assert alphabet.blank == (0, 2)
    assert dawg[1:17] == gaddag[1:17] == header.hash
    want = sorted(["AB", "CAT", "CATS", "QI", "ZAX"])
    for name, fmt in (("W.dawg", QuackleDawg), ("W.gaddag", QuackleGaddag)):
        lexicon = read_foreign(out / "lexica" / name, fmt, rules)
        assert sorted(ENGLISH.alphabet.decode(w) for w in lexicon.iter_codes()) == want
    assert header.hash == word_hash(sorted(ENGLISH.alphabet.encode(w).translate(_to_quackle(rules)) for w in want))
    table = read_leaves(out / "strategy" / "W" / "superleaves", rules)
    given = read_leaves(leaves, rules)
    assert dict(table.items()) == {k: QUACKLE.quantize(v) for k, v in given.items()}
    assert "load it with: test --lexicon=W --alphabet=english" in text and f"rename {out} to data" in text


def _to_quackle(rules) -> bytes:
    table = bytearray(256)
    for number, label in enumerate(rules.engine_order("quackle"), 5):
        table[rules.alphabet.code(label)] = number
    return bytes(table)


def test_into_an_existing_quackle_folder_its_alphabet_is_kept_or_the_export_refused(tmp_path, capsys):
    """Quackle's own data folder holds other lexica and its alphabets: each file is written
    in, nothing else touched; an alphabet file of the same name with the same letters in the
    same order is kept as it is, one with other letters refuses the export (Quackle would read
    the new lexicon with it), before anything is written."""
    words = tmp_path / "w.txt"
    words.write_text("AA\nAB\n")
    out = tmp_path / "data"
    (out / "alphabets").mkdir(parents=True)
    theirs = "# Quackle's own\nA a 1 9 1\n" + "".join(f"{c} {c.lower()} 9 9 0\n" for c in "BCDEFGHIJKLMNOPQRSTUVWXYZ")
    (out / "alphabets" / "english.quackle_alphabet").write_text(theirs + "blank 0 2\n")
    (out / "other.txt").write_text("theirs")
    code, text, err = export(capsys, words, "--to", "quackle", out)
    assert code == 0, err
    assert files_in(out) == ["alphabets/english.quackle_alphabet", "lexica/w.dawg", "lexica/w.gaddag", "other.txt"]
    assert (out / "alphabets" / "english.quackle_alphabet").read_text() == theirs + "blank 0 2\n"
    assert "kept alphabets/english.quackle_alphabet" in text
    (out / "alphabets" / "english.quackle_alphabet").write_bytes(alphabet_file(load_ruleset(
        str(backwards_english(tmp_path)))))
    code, _, err = export(capsys, words, "--to", "quackle", out, "--name", "X")
    assert code == 2
    assert_one_error_line(err, "english.quackle_alphabet: its letters (Z Y X", "Quackle would misread the lexicon")
    assert not (out / "lexica" / "X.dawg").exists()


# -- wolges -------------------------------------------------------------------------------------

def test_the_wolges_folder_is_wolges_s_own_bytes_and_reads_back(tmp_path, capsys):
    """From wolges's tiny.txt and MAGPIE-DATA's CSW21_small.csv (wolges's input for its
    CSW21_small files), side by side under the lexicon's name: english-klv2's CSW21_small.klv2
    byte for byte, and the KWG of buildlex's tiny.kwg (its size, words and GADDAG strings: lexc
    orders the nodes its own way, ``formats/kwg.md``); both read back to the words and values."""
    words = tmp_path / "tiny.txt"
    words.write_text("\n".join(engine_lines("wolges", "tiny.kwg.txt")) + "\n")
    csv = engine_file("magpie", "magpie-data", "CSW21_small.csv")
    out = tmp_path / "lexbin"
    code, text, err = export(capsys, words, "--to", "wolges", out, "--leaves", csv, "--json")
    assert code == 0, err
    assert files_in(out) == ["tiny.klv2", "tiny.kwg"] and not err
    assert (out / "tiny.klv2").read_bytes() == engine_bytes("wolges", "CSW21_small.klv2")
    report = json.loads(text)
    assert report["files"] == {"tiny.kwg": 224, "tiny.klv2": (out / "tiny.klv2").stat().st_size}
    assert report["lexicon"] == report["leaves"] == "tiny" and report["command"] is None
    lexicon = read_foreign(out / "tiny.kwg", get_foreign("kwg"), ENGLISH)
    theirs = read_foreign(engine_file("wolges", "tiny.kwg"), get_foreign("kwg"), ENGLISH)
    assert [ENGLISH.alphabet.decode(w) for w in lexicon.iter_codes()] == engine_lines("wolges", "tiny.kwg.txt")
    assert lexicon.strings == theirs.strings and len(engine_bytes("wolges", "tiny.kwg")) == 224
    assert dict(read_leaves(out / "tiny.klv2", ENGLISH).items()) == dict(read_leaves(csv, ENGLISH).items())


def test_the_wolges_folder_without_leaves_and_with_a_name(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("QAT\nZA\n")
    code, text, err = export(capsys, words, "--to", "wolges", "-o", tmp_path / "out", "--name", "CSW.mine")
    assert code == 0, err
    assert files_in(tmp_path / "out") == ["CSW.mine.kwg"]
    assert "wolges data folder, 2 words: CSW.mine.kwg" in text and "lexbin/CSW.mine.kwg" in text


# -- refusals -----------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ["quackle", "wolges", "magpie"])
def test_what_is_not_a_folder_or_a_leave_file_is_refused_in_one_line(tmp_path, capsys, engine):
    words = tmp_path / "w.txt"
    words.write_text("AA\nAB\n")
    code, _, err = export(capsys, words, "--to", engine, words)
    assert code == 2
    assert_one_error_line(err, "w.txt: exists and is not a folder")
    code, _, err = export(capsys, words, "--to", engine, tmp_path / "d", "--leaves", words)
    assert code == 2
    assert_one_error_line(err, "not a leave file")
    code, _, err = export(capsys, words, "--to", engine, tmp_path / "d", "--name", "a/b")
    assert code == 2
    assert_one_error_line(err, "the lexicon name 'a/b' holds '/'")
    code, _, err = export(capsys, words, "--to", engine, tmp_path / "d", "--keep-order")
    assert code == 2 and "--keep-order and -O/--option are for an engine's file" in err
    assert not (tmp_path / "d").exists()


def test_quackle_refuses_a_dotted_name_and_a_word_it_cannot_hold_naming_it(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("AA\n" + "A" * 41 + "\n")
    code, _, err = export(capsys, words, "--to", "quackle", tmp_path / "d", "--name", "csw.v2")
    assert code == 2
    assert_one_error_line(err, "'csw.v2' holds '.'")
    code, _, err = export(capsys, words, "--to", "quackle", tmp_path / "d")
    assert code == 2
    assert_one_error_line(err, "w.txt: ", "41 tiles, more than the 40 a Quackle .dawg word holds")
    assert not (tmp_path / "d").exists()
    code, _, err = export(capsys, words, "--to", "kwg", tmp_path / "x.kwg", "--name", "X")
    assert code == 2 and "--leaves and --name are for a data folder" in err


def test_a_leave_value_the_engine_cannot_hold_is_refused_naming_the_leave_file(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("AA\n")
    leaves = tmp_path / "big.csv"
    leaves.write_text("Q,128\n")
    code, _, err = export(capsys, words, "--to", "quackle", tmp_path / "d", "--leaves", leaves)
    assert code == 2
    assert_one_error_line(err, "big.csv: ", "leave Q")
    assert not (tmp_path / "d").exists()


def test_the_alphabet_file_reader_refuses_what_quackle_would_skip():
    with pytest.raises(FormatError, match="line 2: not a Quackle alphabet line"):
        read_alphabet(b"A a 1 9 1\nB b x 2 0\n", "a")
    assert read_alphabet(b"# c\n\n  A a 1 9 1\nblank 0 2\n", "a").labels == ("A",)
    text = alphabet_file(ENGLISH).decode()
    assert text.count("\n") == 28 and text.splitlines()[1] == "A\ta\t1\t9\t1" and text.endswith("blank\t0\t2\n")
