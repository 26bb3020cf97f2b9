"""KWG files written by wolges and MAGPIE (``tests/interop.py``: read where they are): lexc
reads each and lists exactly the engine's own listing of its words, on both backends; and
lexc's writer, given the same words, writes the engine's very bytes: wolges's ``buildlex
english-kwg`` by default, MAGPIE's ``convert text2kwg`` with ``like=magpie``
(``formats/kwg.md``); ``like=lexc`` writes lexc's own layout, the same graph in another
order."""

from __future__ import annotations

import struct

import pytest
from click.testing import CliRunner

from interop import engine_bytes, engine_file, engine_lines
from lexc import native
from lexc.cli import cli, main
from lexc.formats import Dawg, FormatError
from lexc.formats.foreign import read_foreign, recognise
from lexc.formats.kwg import Kwg, export_kwg
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ENGLISH = load_ruleset("english")
BACKENDS = [native.PURE] + ([native.COMPILED] if native.COMPILED is not None else [])

# (engine folder, KWG file, the engine's listing of its words)
KWGS = [
    ("wolges", "tiny.kwg", "tiny.kwg.txt"),
    ("wolges", "len15.kwg", "len15.kwg.txt"),
    ("magpie", "TWL_tiny.kwg", "TWL_tiny.dawg2text.txt"),
    ("magpie", "TWL_len15.kwg", "TWL_len15.dawg2text.txt"),
    ("magpie", "magpie-data/CSW21_ab.kwg", "CSW21_ab.dawg2text.txt"),  # MAGPIE-DATA's test fixture
]


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: "compiled" if b.compiled else "pure")
@pytest.mark.parametrize("engine, name, listing", KWGS, ids=[f"{e}-{n}" for e, n, _ in KWGS])
def test_lexc_lists_exactly_the_engines_words(engine, name, listing, backend):
    path = engine_file(engine, name)
    assert recognise(path) is Kwg
    lexicon = read_foreign(path, Kwg, ENGLISH, backend)
    assert list(lexicon) == engine_lines(engine, listing)
    assert lexicon.file_layout == "kwg" and lexicon.engine == backend.name


def test_the_gaddag_half_spells_the_engines_gaddag_strings():
    """wolges's listing of a KWG's GADDAG strings (the separator written '@'), read by lexc's
    walk of the GADDAG root."""
    lexicon = read_foreign(engine_file("wolges", "len15.kwg"), Kwg, ENGLISH)
    alphabet = lexicon.alphabet
    found = []

    def walk(node, path):
        for letter, child in lexicon.children(node):
            step = path + ("@" if letter == 0 else alphabet.label(letter))
            if lexicon.is_word(child):
                found.append(step)
            walk(child, step)

    walk(lexicon.gaddag_root(), "")
    assert sorted(found) == sorted(engine_lines("wolges", "len15.kwg.gaddag.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("engine, name, listing", [("wolges", "ENABLE.kwg", "ENABLE.kwg.txt.gz"),
                                                   ("magpie", "TWL_ENABLE.kwg", "TWL_ENABLE.dawg2text.txt.gz")])
def test_enable_from_the_engines(engine, name, listing):
    """lexc lists the engine's words; and ``word in lexicon`` (read in place: the walk from the
    DAWG half, then its prefix table, made here at once) answers each word and its near misses
    as the listing does."""
    lexicon = read_foreign(engine_file(engine, name), Kwg, ENGLISH)
    words = engine_lines(engine, listing)
    assert list(lexicon) == words
    truth = set(words)
    queries = [q for w in words for q in (w, w[:-1] + ("Q" if w[-1] != "Q" else "Z"), w + "S", w[:-1])]
    expected = [q in truth for q in queries]
    assert [q in lexicon for q in queries[:20000]] == expected[:20000]  # (the walk alone: fewer than 65,536)
    table = getattr(lexicon._graph, "prefixes", None)
    if table is not None:  # the compiled core
        length, _ = table()
        assert 6 <= length <= 8
    assert [q in lexicon for q in queries] == expected


# (engine folder, the engine's KWG, the words it was written from, how lexc writes it)
WRITTEN = [
    ("wolges", "tiny.kwg", "tiny.kwg.txt", "wolges"),
    ("wolges", "len15.kwg", "len15.kwg.txt", "wolges"),
    ("wolges", "len16.kwg", "len16.kwg.txt", "wolges"),
    ("magpie", "TWL_tiny.kwg", "TWL_tiny.dawg2text.txt", "magpie"),
    ("magpie", "TWL_len15.kwg", "TWL_len15.dawg2text.txt", "magpie"),
]
WRITTEN_IDS = [f"{e}-{n}" for e, n, _, _ in WRITTEN]


def _lexicon(engine: str, listing: str) -> Dawg:
    """The engine's input words (its listing of the file: the input list byte for byte)."""
    return Dawg.build(list(from_words(engine_lines(engine, listing), ENGLISH.alphabet).words), ENGLISH.alphabet)


def _first_difference(ours: bytes, theirs: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs)))
    return f"{len(ours):,} bytes against {len(theirs):,}, first difference at byte {at}"


@pytest.mark.parametrize("engine, name, listing, like", WRITTEN, ids=WRITTEN_IDS)
def test_lexcs_writer_writes_the_engines_bytes(engine, name, listing, like):
    """From the engine's input words, ``write`` (wolges's by default) and ``write_with``
    (``like``) give the engine's file byte for byte."""
    lexicon = _lexicon(engine, listing)
    theirs = engine_bytes(engine, name)
    ours = Kwg.write_with(lexicon, ENGLISH, {"like": like})
    assert ours == theirs, _first_difference(ours, theirs)
    assert (Kwg.write(lexicon, ENGLISH) == theirs) == (like == "wolges")


@pytest.mark.parametrize("engine, name, listing, like", WRITTEN, ids=WRITTEN_IDS)
def test_lexc_export_writes_the_engines_bytes(engine, name, listing, like, tmp_path):
    """The command line: ``lexc export LIST --to kwg`` (``-O like=magpie`` for MAGPIE's), and
    ``lexc convert`` from a lexc file to ``.kwg``."""
    out = tmp_path / "out.kwg"
    option = [] if like == "wolges" else ["-O", f"like={like}"]
    result = CliRunner().invoke(cli, ["export", str(engine_file(engine, listing)), "--to", "kwg", "-o", str(out),
                                      *option])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == engine_bytes(engine, name), _first_difference(out.read_bytes(),
                                                                              engine_bytes(engine, name))
    dawg = tmp_path / "words.dawg"
    assert CliRunner().invoke(cli, ["build", str(engine_file(engine, listing)), "-o", str(dawg)]).exit_code == 0
    again = tmp_path / "again.kwg"
    result = CliRunner().invoke(cli, ["convert", str(dawg), str(again), *option])
    assert result.exit_code == 0, result.output
    assert again.read_bytes() == engine_bytes(engine, name)


@pytest.mark.parametrize("like", ["wolges", "magpie", "lexc"])
def test_every_kwg_lexc_writes_reads_back_as_its_words(like):
    """A round trip: the file lexc writes reads back (recognised, every check passed) as the
    same words, and its GADDAG half spells wolges's listing of the GADDAG strings (the same
    graph whatever the order of its lists)."""
    lexicon = _lexicon("wolges", "len15.kwg.txt")
    data = Kwg.write_with(lexicon, ENGLISH, {"like": like})
    again = Kwg.read(data, "ours", ENGLISH)
    assert list(again) == list(lexicon) == engine_lines("wolges", "len15.kwg.txt")
    assert sorted(_gaddag_strings(again)) == sorted(engine_lines("wolges", "len15.kwg.gaddag.txt"))
    assert again.check() == []


def _gaddag_strings(lexicon) -> list[str]:
    """Every string the GADDAG half spells ('@' the separator)."""
    found: list[str] = []

    def walk(node, path):
        for letter, child in lexicon.children(node):
            step = path + ("@" if letter == 0 else lexicon.alphabet.label(letter))
            if lexicon.is_word(child):
                found.append(step)
            walk(child, step)

    walk(lexicon.gaddag_root(), "")
    return found


@pytest.mark.parametrize("name, listing", [("tiny.kwg", "tiny.kwg.txt"), ("len15.kwg", "len15.kwg.txt")])
def test_like_lexc_is_the_same_graph_in_lexcs_order(name, listing):
    """``like=lexc``: lexc's own ``gaddawg`` layout (``export_kwg``): the same minimal graph,
    the same words and GADDAG strings as wolges's, its lists parents first (every child after
    its edge), so a list's tail is shared only inside a list built before it: never smaller
    than wolges's, which shares every tail. A KWG read in place is written back as it is (its
    array is the payload already)."""
    theirs = engine_file("wolges", name).read_bytes()
    lexicon = _lexicon("wolges", listing)
    ours = Kwg.write_with(lexicon, ENGLISH, {"like": "lexc"})
    assert ours == export_kwg(lexicon) and len(ours) >= len(theirs) and ours != theirs
    entries = struct.unpack(f"<{len(ours) // 4}I", ours)
    assert all(e & 0x3FFFFF > i for i, e in enumerate(entries) if i >= 2 and e & 0x3FFFFF)
    read = Kwg.read(theirs, name, ENGLISH)
    again = Kwg.read(ours, "ours", ENGLISH)
    assert list(again) == list(read) == engine_lines("wolges", listing)
    assert again.strings == read.strings
    assert Kwg.write_with(read, ENGLISH, {"like": "lexc"}) == theirs


def test_like_magpie_refuses_a_word_longer_than_the_board(tmp_path, capsys):
    """MAGPIE's converter writes no KWG from a list holding a word longer than its board
    (``len16``); neither does lexc like MAGPIE: one line naming the word and the limit, and
    nothing written. wolges's layout takes the word."""
    lexicon = _lexicon("wolges", "len16.kwg.txt")
    with pytest.raises(FormatError) as caught:
        Kwg.write_with(lexicon, ENGLISH, {"like": "magpie"})
    message = str(caught.value)
    assert message.startswith("ABSENTMINDEDNESS: 16 tiles, longer than the 15 MAGPIE's convert text2kwg takes")
    assert "1 word in all" in message and "--max-len 15" in message and "\n" not in message
    out = tmp_path / "x.kwg"
    with pytest.raises(SystemExit) as exit_:
        main(["export", str(engine_file("wolges", "len16.kwg.txt")), "--to", "kwg", "-o", str(out), "-O",
              "like=magpie"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and not out.exists()
    assert len(err.strip().splitlines()) == 1 and "ABSENTMINDEDNESS: 16 tiles, longer than the 15" in err
    assert Kwg.write(lexicon, ENGLISH) == engine_bytes("wolges", "len16.kwg")


def test_an_unknown_like_or_option_is_refused_in_one_line():
    lexicon = _lexicon("wolges", "tiny.kwg.txt")
    with pytest.raises(FormatError, match=r"written like wolges, magpie or lexc, not 'quackle'"):
        Kwg.write_with(lexicon, ENGLISH, {"like": "quackle"})
    with pytest.raises(FormatError, match=r"takes no option 'layout' \(its options: like\)"):
        Kwg.write_with(lexicon, ENGLISH, {"layout": "lexc"})
    assert "like" in Kwg.summary()["options"]


@pytest.mark.parametrize("listing, kwg", [(("magpie", "TWL_tiny.dawg2text.txt"), ("magpie", "TWL_tiny.kwg")),
                                          (("wolges", "len16.kwg.txt"), ("wolges", "len16.kwg"))])
def test_a_magpie_folder_holds_magpies_kwg(listing, kwg, tmp_path):
    """``lexc export --to magpie``: the folder's KWG is the one MAGPIE's converter writes from
    the words; from a list with a word longer than the board (MAGPIE's converter writes none,
    its reader still loads one), wolges's layout of them."""
    out = tmp_path / "data"
    result = CliRunner().invoke(cli, ["export", str(engine_file(*listing)), "--to", "magpie", str(out),
                                      "--name", "TWL_x"])
    assert result.exit_code == 0, result.output
    assert (out / "lexica" / "TWL_x.kwg").read_bytes() == engine_bytes(*kwg)


@pytest.mark.slow
@pytest.mark.parametrize("engine, name, listing, like", [
    ("wolges", "ENABLE.kwg", "ENABLE.kwg.txt.gz", "wolges"),
    ("magpie", "TWL_ENABLE.kwg", "TWL_ENABLE.dawg2text.txt.gz", "magpie")])
def test_enable_is_the_engines_bytes(engine, name, listing, like, tmp_path):
    """ENABLE (172,820 words; MAGPIE's without the 4,272 longer than 15 letters): ``lexc
    export --to kwg`` (``Kwg.write``, ``write_with``) writes the engine's file byte for byte
    (3,233,088 and 3,187,416 bytes)."""
    words = tmp_path / "words.txt"
    words.write_bytes(engine_bytes(engine, listing))
    out = tmp_path / "out.kwg"
    option = [] if like == "wolges" else ["-O", f"like={like}"]
    result = CliRunner().invoke(cli, ["export", str(words), "--to", "kwg", "-o", str(out), *option])
    assert result.exit_code == 0, result.output
    theirs = engine_bytes(engine, name)
    assert out.read_bytes() == theirs, _first_difference(out.read_bytes(), theirs)


def test_convert_like_magpie_gives_magpies_kwg_from_wolgess(tmp_path, capsys):
    """``lexc convert IN OUT --like magpie`` (as ``-O like=magpie``) turns wolges's KWG into the
    very bytes MAGPIE's converter writes from the same words, and back."""
    from test_cli import run_main

    out = tmp_path / "m.kwg"
    assert run_main(capsys, "convert", engine_file("wolges", "len15.kwg"), out, "--like", "magpie")[0] == 0
    assert out.read_bytes() == engine_file("magpie", "TWL_len15.kwg").read_bytes()
    back = tmp_path / "w.kwg"
    assert run_main(capsys, "convert", out, back)[0] == 0
    assert back.read_bytes() == engine_file("wolges", "len15.kwg").read_bytes()
