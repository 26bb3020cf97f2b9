"""KWG export and import (formats/kwg.md): the layout decoded independently, round trips from
every format, determinism, hostile files refused, and the command line."""

from __future__ import annotations

import json
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexc import cli
from lexc.formats import FORMATS, FormatError, build
from lexc.formats.kwg import MAX_WORDS, export_kwg, read_kwg
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

RULES = load_ruleset("english")
ENGLISH = RULES.alphabet
WORDS = ["AT", "BAT", "CAT", "CATS", "ZA", "QI", "QUIZ", "AA", "ABA", "ABBA", "TACT", "ACTS", "SCAT", "TA"]


def edges_of(data: bytes) -> list[tuple[int, bool, bool, int]]:
    """(tile, accepts, end, child) per edge, decoded from the published bit layout."""
    return [(e >> 24, bool(e >> 23 & 1), bool(e >> 22 & 1), e & 0x3FFFFF)
            for e in struct.unpack(f"<{len(data) // 4}I", data)]


def spell(edges, start: int, prefix: str = "") -> set[str]:
    """Every accepted string from a node, with '@' for tile 0."""
    out: set[str] = set()
    p = start
    while True:
        tile, accepts, end, child = edges[p]
        text = prefix + ("@" if tile == 0 else ENGLISH.label(tile))
        if accepts:
            out.add(text)
        if child:
            out |= spell(edges, child, text)
        if end:
            return out
        p += 1


def test_layout_holds_the_dawg_and_the_gaddag():
    lexicon = build(from_words(WORDS, ENGLISH), "dawg")
    edges = edges_of(export_kwg(lexicon))
    for pointer in edges[:2]:
        assert pointer[0] == 0 and pointer[2] and not pointer[1]  # tile 0, end bit, no accept
    assert spell(edges, edges[0][3]) == set(WORDS)
    gaddag = {w[:i][::-1] + ("@" + w[i:] if i < len(w) else "") for w in WORDS for i in range(1, len(w) + 1)}
    assert spell(edges, edges[1][3]) == gaddag


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_round_trip_from_every_format_and_same_bytes(fmt):
    lexicon = build(from_words(WORDS, ENGLISH), fmt)
    data = export_kwg(lexicon)
    assert data == export_kwg(build(from_words(WORDS, ENGLISH), "dawg"))  # the words decide the bytes
    assert [ENGLISH.decode(c) for c in read_kwg(data, ENGLISH)] == sorted(WORDS)


@pytest.mark.slow
def test_enable_round_trip(enable_list):
    from lexicons import enable_built

    data = export_kwg(enable_built(enable_list, "gaddawg"))
    # formats/kwg.md: lexc's layout, parents first; wolges's own KWG of ENABLE is 808,272 entries
    # (every tail shared), lexc's 16,177 more (a tail shared only inside a list built before it)
    assert len(data) == 4 * 824_449
    assert read_kwg(data, ENGLISH) == sorted(enable_list.words)


def _pack(*edges: tuple[int, bool, bool, int]) -> bytes:
    return b"".join(struct.pack("<I", t << 24 | a << 23 | e << 22 | c) for t, a, e, c in edges)


@pytest.mark.parametrize("data, message", [
    (b"", "not a KWG"),
    (b"\x00" * 7, "not a KWG"),
    (b"\x89PNG\r\n\x1a\n", "outside"),                                    # a foreign file
    (_pack((0, 0, 1, 9), (0, 0, 1, 0)), "outside"),                       # root pointer past the end
    # no end bit: the list runs past the end
    (_pack((0, 0, 1, 2), (0, 0, 1, 0), (1, 1, 0, 0)), "does not close its node"),
    (_pack((0, 0, 1, 2), (0, 0, 1, 0), (40, 1, 1, 0)), "outside the 26-letter alphabet"),
    (_pack((0, 0, 1, 2), (0, 0, 1, 0), (1, 1, 1, 2)), "cycle"),
])
def test_hostile_files_are_refused(data, message):
    with pytest.raises(FormatError, match=message):
        read_kwg(data, ENGLISH)


def test_a_long_chain_is_refused_without_deep_recursion():
    chain = 5000  # far past both the 64-tile limit and Python's recursion limit
    edges = [(0, 0, 1, 2), (0, 0, 1, 0)] + [(1, i == chain - 1, 1, 0 if i == chain - 1 else 3 + i)
                                            for i in range(chain)]
    with pytest.raises(FormatError, match="longer than"):
        read_kwg(_pack(*edges), ENGLISH)


def test_a_small_file_cannot_expand_into_billions_of_words():
    # 8 levels of 26 letters, each level's edges all pointing at the next level: 26**8 words
    levels, edges = 8, [(0, 0, 1, 2), (0, 0, 1, 0)]
    for level in range(levels):
        child = 2 + 26 * (level + 1) if level + 1 < levels else 0
        edges += [(t, 1, t == 26, child) for t in range(1, 27)]
    data = _pack(*edges)
    assert 26 ** levels > MAX_WORDS and len(data) < 1000
    with pytest.raises(FormatError, match="more than"):
        read_kwg(data, ENGLISH)


def run(capsys, *args):
    with pytest.raises(SystemExit) as exit_:
        cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_cli_export_and_build_from_kwg(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "export", words, "--to", "kwg", "-o", tmp_path / "w.kwg", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["words"] == len(WORDS) and report["file_bytes"] == (tmp_path / "w.kwg").stat().st_size
    code, _, err = run(capsys, "build", "--from", "kwg", tmp_path / "w.kwg", "-f", "anatrie",
                       "-o", tmp_path / "w.anatrie")
    assert code == 0, err
    code, _, err = run(capsys, "diff", words, tmp_path / "w.anatrie")
    assert code == 0, err
    code, _, err = run(capsys, "build", "--from", "kwg", words, "-o", tmp_path / "x.dawg")  # a text list is no KWG
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.dawg").exists()



# -- any command reads a KWG file directly (read-only) -----------------------------------

def test_sibling_lists_are_ascending_with_the_separator_first():
    """The KWG convention: a reader seeks a tile by scanning a node's list and stopping at the
    first tile that is not smaller, so every list must be strictly ascending, tile 0 first."""
    edges = edges_of(export_kwg(build(from_words(WORDS, ENGLISH), "dawg")))
    start, with_separator = 2, 0
    for i, (_, _, end, _) in enumerate(edges[2:], 2):
        if end:
            tiles = [t for t, _, _, _ in edges[start : i + 1]]
            assert tiles == sorted(set(tiles)), f"edges {start}..{i}: {tiles}"
            with_separator += 0 in tiles and len(tiles) > 1
            start = i + 1
    assert with_separator  # the property is exercised: some list holds the separator and letters


def kwg_file(tmp_path, words=WORDS):
    path = tmp_path / "w.kwg"
    path.write_bytes(export_kwg(build(from_words(words, ENGLISH), "dawg")))
    return path


def test_a_kwg_file_is_recognised_by_its_content(tmp_path):
    from lexc.formats.kwg import looks_like_kwg
    from lexc.lexicons.source import open_lexicon

    path = kwg_file(tmp_path)
    renamed = tmp_path / "no-extension"
    renamed.write_bytes(path.read_bytes())
    text = tmp_path / "list.kwg"  # the extension decides nothing: a word list stays a word list
    text.write_text("AAAA\nBBBB\n", encoding="utf-8")
    assert looks_like_kwg(path) and looks_like_kwg(renamed) and not looks_like_kwg(text)
    lexicon = open_lexicon(renamed)
    assert lexicon.name == "gaddawg" and lexicon.file_layout == "kwg"
    assert list(lexicon) == sorted(WORDS) and len(lexicon) == len(WORDS)
    assert list(open_lexicon(text)) == ["AAAA", "BBBB"]


def test_a_kwg_answers_every_query_as_lexcs_own_gaddawg(tmp_path):
    from lexc.lexicons.source import open_lexicon

    kwg = open_lexicon(kwg_file(tmp_path))
    own = build(from_words(WORDS, ENGLISH), "gaddawg")
    assert kwg.check() == []
    for word in ["AT", "CATS", "QUIZ", "QUI", "ZZ", "T"]:
        assert (word in kwg) == (word in own) and kwg.hooks(word) == own.hooks(word), word
        assert kwg.is_prefix(word) == own.is_prefix(word), word
    for rack in ["TAC", "STAC?", "??", "QUIZ"]:
        assert kwg.anagrams(rack, sub=True) == own.anagrams(rack, sub=True), rack
    assert kwg.pattern("?A*") == own.pattern("?A*")


def test_cli_commands_take_a_kwg_file(tmp_path, capsys):
    path = kwg_file(tmp_path)
    code, out, _ = run(capsys, "check", path, "QI", "CAT")
    assert code == 0 and "QI" in out
    code, out, _ = run(capsys, "check", path, "CATZ")
    assert code == 1
    code, out, _ = run(capsys, "anagram", path, "TAC", "--json")
    assert code == 0 and json.loads(out) == ["CAT"]
    code, out, _ = run(capsys, "hooks", path, "AT", "--json")
    assert code == 0 and json.loads(out)[0]["front"] == "BC"
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABTCS/ 0/0 0"
    code, out, err = run(capsys, "moves", path, "--cgp", cgp, "--json")
    assert code == 0, err
    own = tmp_path / "w.gaddawg"
    assert run(capsys, "build", _list(tmp_path), "-f", "gaddawg", "-o", own)[0] == 0
    code, expected, _ = run(capsys, "moves", own, "--cgp", cgp, "--json")
    assert json.loads(out) == json.loads(expected) and json.loads(out)
    code, out, _ = run(capsys, "info", path, "--json")
    assert code == 0 and json.loads(out)["file_layout"] == "kwg" and json.loads(out)["words"] == len(WORDS)
    code, out, _ = run(capsys, "verify", path, "--against", _list(tmp_path))
    assert code == 0, out
    code, _, err = run(capsys, "convert", path, "-f", "dawg", "-o", tmp_path / "c.dawg")
    assert code == 0, err
    assert run(capsys, "diff", _list(tmp_path), tmp_path / "c.dawg")[0] == 0
    code, _, err = run(capsys, "edit", path, "--add", "TACO")
    assert code == 2 and "read-only" in err and len(err.strip().splitlines()) == 1


def _list(tmp_path):
    words = tmp_path / "list.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return words


@pytest.mark.parametrize("edges, message", [
    # the DAWG half is fine (AT), the GADDAG half has a cycle
    ([(0, 0, 1, 2), (0, 0, 1, 4), (1, 0, 1, 3), (20, 1, 1, 0), (1, 0, 1, 4)], "cycle"),
    # separator last among siblings, as older lexc exports wrote it: a reader's seek never finds it
    ([(0, 0, 1, 2), (0, 0, 1, 4), (1, 0, 1, 3), (20, 1, 1, 0), (20, 0, 0, 6), (0, 0, 1, 3), (1, 1, 1, 0)],
     "ascending tile order"),
    ([(0, 0, 1, 0), (0, 0, 1, 0)], "no words"),
])
def test_hostile_kwg_files_are_refused_by_every_command(tmp_path, capsys, edges, message):
    path = tmp_path / "bad.kwg"
    path.write_bytes(_pack(*edges))
    code, _, err = run(capsys, "check", path, "AT")
    assert code == 2 and message in err and str(path) in err and len(err.strip().splitlines()) == 1


def test_an_old_separator_last_kwg_still_gives_its_words(tmp_path, capsys):
    """An older lexc exported the GADDAG half's separator last among its siblings: the
    loader refuses such a file for queries, but ``build --from kwg`` reads its words (the
    sibling lists sorted first, which the words do not depend on)."""
    path = tmp_path / "old.kwg"
    # DAWG half: AT; GADDAG half: the strings of AT (TA, A^T), the separator listed after T
    path.write_bytes(_pack((0, 0, 1, 2), (0, 0, 1, 4), (1, 0, 1, 3), (20, 1, 1, 0),
                           (20, 0, 0, 6), (0, 0, 1, 3), (1, 1, 1, 0)))
    code, _, err = run(capsys, "build", "--from", "kwg", path, "-f", "dawg", "-o", tmp_path / "at.dawg")
    assert code == 0, err
    code, out, _ = run(capsys, "words", tmp_path / "at.dawg")
    assert out.split() == ["AT"]


# -- the writers: wolges's bytes, MAGPIE's, lexc's (formats/kwg.md, "Writing") -----------

LIKES = ["wolges", "magpie", "lexc"]


def _checked(data: bytes, words: list[str]) -> None:
    """Decoded independently: the pointers, the DAWG spelling exactly the words, the GADDAG
    exactly their rotations, every sibling list strictly ascending; then lexc's reader."""
    edges = edges_of(data)
    for pointer in edges[:2]:
        assert pointer[0] == 0 and pointer[2] and not pointer[1]
    assert spell(edges, edges[0][3]) == set(words)
    gaddag = {w[:i][::-1] + ("@" + w[i:] if i < len(w) else "") for w in words for i in range(1, len(w) + 1)}
    assert spell(edges, edges[1][3]) == gaddag
    start = 2
    for i, (_, _, end, _) in enumerate(edges[2:], 2):
        if end:
            tiles = [t for t, _, _, _ in edges[start : i + 1]]
            assert tiles == sorted(set(tiles)), f"edges {start}..{i}: {tiles}"
            start = i + 1
    assert [ENGLISH.decode(c) for c in read_kwg(data, ENGLISH)] == sorted(set(words))


@pytest.mark.parametrize("like", LIKES)
def test_every_writer_holds_the_dawg_and_the_gaddag(like):
    """Each writer's file decodes to the words and their GADDAG strings; the words decide the
    bytes, whatever format the lexicon comes from; wolges's and MAGPIE's differ only in the
    order and sharing of the lists (wolges shares every list tail, lexc those it can keep
    parents first, MAGPIE none: each never smaller than the one before)."""
    from lexc.formats.kwg import Kwg

    data = {fmt: Kwg.write_with(build(from_words(WORDS, ENGLISH), fmt), RULES, {"like": like})
            for fmt in ("dawg", "gaddawg", "anatrie")}
    assert len(set(data.values())) == 1
    _checked(data["dawg"], WORDS)
    lexicon = build(from_words(WORDS, ENGLISH), "dawg")
    sizes = {other: len(Kwg.write_with(lexicon, RULES, {"like": other})) for other in LIKES}
    assert sizes["wolges"] <= sizes["lexc"] <= sizes["magpie"]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.text("ABCSTZ", min_size=1, max_size=9), min_size=1, max_size=40))
def test_random_lists_round_trip_through_every_writer(words):
    """Lists with shared prefixes, words inside words, one-letter words: every writer's file
    spells exactly them (MAGPIE's too: no word here is longer than the board)."""
    from lexc.formats.kwg import Kwg

    lexicon = build(from_words(words, ENGLISH, min_len=1), "dawg")
    for like in LIKES:
        _checked(Kwg.write_with(lexicon, RULES, {"like": like}), words)
