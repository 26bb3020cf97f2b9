"""lexc's KWG export drives an engine that reads the file the way wolges does (issue 17).

``kwg_engine`` is an independent KWG reader and GADDAG move generator: it seeks a tile by
scanning a node's ascending siblings and stopping at the first tile that is not smaller, so
it only finds the separator when the separator comes first. On every built-in position it
must find exactly the plays (and scores) lexc's own generator finds, which is what the old
separator-last layout broke (most plays made past the separator were missing).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kwg_engine import SEP, Kwg, generate
from lexc import cli
from lexc.board.board import parse_cgp
from lexc.formats.kwg import write_kwg
from lexc.movegen import generate_plays as lexc_generate_plays
from lexc.ruleset import load_ruleset
from lexicons import enable_built

ENGLISH = load_ruleset("english")
POSITIONS = Path(__file__).resolve().parent.parent / "src" / "lexc" / "bench" / "enable-selfplay.jsonl"
WORDS = ["AT", "BAT", "CAT", "CATS", "ZA", "QI", "QUIZ", "AA", "ABA", "ABBA", "TACT", "ACTS", "SCAT", "TA"]


def text(tiles) -> str:
    """Tile codes as letters, '@' for the separator."""
    return "".join("@" if t == SEP else ENGLISH.alphabet.label(t) for t in tiles)


def codes(word: str) -> list[int]:
    return [ENGLISH.alphabet.code(ch) for ch in word]


@pytest.fixture(scope="module")
def small_kwg(tmp_path_factory) -> Kwg:
    """The hand list exported by the command line, read back from the file."""
    tmp = tmp_path_factory.mktemp("kwg-small")
    (tmp / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli.cli, ["export", str(tmp / "words.txt"), "--to", "kwg",
                                          "-o", str(tmp / "words.kwg")])
    assert result.exit_code == 0, result.output
    return Kwg.read(tmp / "words.kwg")


@pytest.fixture(scope="module")
def enable_kwg(tmp_path_factory, enable_list) -> Kwg:
    """ENABLE exported to a KWG file (the session's gaddawg, as ``lexc export`` writes it:
    wolges's layout)."""
    path = tmp_path_factory.mktemp("kwg-enable") / "enable.kwg"
    path.write_bytes(write_kwg(enable_built(enable_list, "gaddawg"), ENGLISH))
    return Kwg.read(path)


def test_reader_spells_the_hand_list_through_the_dawg_half(small_kwg):
    assert sorted(text(w) for w in small_kwg.spell(small_kwg.dawg_root)) == sorted(WORDS)
    gordon = {w[:i][::-1] + ("@" + w[i:] if i < len(w) else "") for w in WORDS for i in range(1, len(w) + 1)}
    assert {text(s) for s in small_kwg.spell(small_kwg.gaddag_root)} == gordon


def test_seek_finds_the_separator_beside_other_children(small_kwg, enable_kwg):
    kwg = small_kwg
    node = kwg.child(kwg.seek(kwg.gaddag_root, codes("A")[0]))  # "A": B, C, T to its left, or turn right
    assert len(list(kwg.siblings(node))) > 1
    sep = kwg.seek(node, SEP)
    assert sep >= 0, "the separator is not found by an ascending seek: it is not first among its siblings"
    assert sorted(text(s) for s in kwg.spell(kwg.child(sep))) == ["A", "BA", "BBA", "CTS", "T"]  # the words A...
    for word in WORDS:  # every Gordon string with a separator, read the wolges way
        for i in range(1, len(word)):
            end = kwg.walk(kwg.gaddag_root, [*codes(word[:i][::-1]), SEP, *codes(word[i:])])
            assert end >= 0 and kwg.accepts(end), f"{word[:i][::-1]}@{word[i:]}"
    for edge in enable_kwg.siblings(enable_kwg.gaddag_root):  # ENABLE: each letter L both starts words (L@...)
        letter = enable_kwg.tile(edge)                            # and follows others (...L, read leftwards)
        node = enable_kwg.child(enable_kwg.seek(enable_kwg.gaddag_root, letter))
        assert len(list(enable_kwg.siblings(node))) > 1 and enable_kwg.seek(node, SEP) >= 0, text([letter])


def test_engine_finds_exactly_lexcs_plays_on_the_built_in_positions(enable_kwg, enable_list):
    reference = enable_built(enable_list, "dawg")  # lexc's generator on the DAWG: no GADDAG involved
    positions = [json.loads(line) for line in POSITIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(positions) == 100
    differ, found, expected = [], 0, 0
    for index, entry in enumerate(positions):
        board = parse_cgp(entry["cgp"], ENGLISH).board
        plays = [(play.notation(board), score) for play, score in generate(enable_kwg, board, entry["rack"])]
        ours = set(plays)
        assert len(ours) == len(plays), f"position {index}: a play found twice"
        theirs = set(lexc_generate_plays(board, entry["rack"], reference).pairs())
        found, expected = found + len(ours & theirs), expected + len(theirs)
        if ours != theirs:
            differ.append(f"position {index} (rack {entry['rack']}): {len(theirs - ours)} missing, e.g. "
                          f"{sorted(theirs - ours)[:4]}; {len(ours - theirs)} extra, e.g. {sorted(ours - theirs)[:4]}")
    if differ:
        pytest.fail(f"the KWG engine's plays differ from lexc's on {len(differ)} of {len(positions)} positions "
                    f"(it found {found:,} of lexc's {expected:,} plays):\n" + "\n".join(differ[:5]), pytrace=False)
    assert expected > 150_000  # (162,164 today: the comparison is not vacuous)
