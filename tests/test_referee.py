"""Tests for the referee (lexc.referee): legality, the words formed, the score, the leave
and the reason a play is illegal.

Expected scores are computed by hand from the premium layouts in lexc/rulesets/*.toml.
"""

from __future__ import annotations

import json
import re

import pytest

from lexc.alphabet import BLANK_FLAG
from lexc.board import Board, parse_cgp
from lexc.formats import build
from lexc.play import THROUGH, Play, PlayError
from lexc.referee import Ruling, judge, judge_tiles
from lexc.ruleset import load_ruleset

from reference import NORVIG_PICTURE
from lexc.wordlist import from_words

from lexicons import enable_built

ENGLISH = load_ruleset("english")
WWF = load_ruleset("wwf")
SPANISH = load_ruleset("spanish")
TINY = load_ruleset("tiny")

WORDS = ["RETAINS", "NO", "IN", "ON", "SHEAR", "ALIEN", "QI", "AT", "ATE", "SH", "NOH", "CAT", "CRATE", "RE",
         "ER", "AE"]



def lexicon(words, ruleset=ENGLISH):
    return build(from_words(sorted(words), ruleset.alphabet, min_len=1), "dawg", ruleset=ruleset.name)


@pytest.fixture(scope="module")
def lex():
    return lexicon(WORDS)


@pytest.fixture(scope="module")
def enable(enable_list):
    return enable_built(enable_list, "dawg")


def sq(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0].upper()) - ord("A")


def code(ruleset, letter: str) -> int:
    c = ruleset.alphabet.code(letter.upper())
    return c | BLANK_FLAG if letter != letter.upper() else c


def lay(board: Board, start: str, down: bool, text: str) -> Board:
    """``board`` with a word laid from ``start`` (``_`` skips a square; lower case a blank)."""
    r, c = sq(start)
    dr, dc = (1, 0) if down else (0, 1)
    return board.with_tiles([(r + dr * i, c + dc * i, code(board.ruleset, ch))
                             for i, ch in enumerate(text) if ch != "_"])


def tiles(ruleset, *placed: tuple[str, str]) -> list[tuple[int, int, int]]:
    """(row, col, code) tiles from ("H9", "N") pairs."""
    return [(*sq(s), code(ruleset, letter)) for s, letter in placed]


def retains() -> Board:
    """RETAINS on 8D: R D8, E E8, T F8, A G8, I H8, N I8, S J8."""
    return lay(Board.empty(ENGLISH), "D8", False, "RETAINS")


def assert_illegal(ruling: Ruling, *fragments: str) -> None:
    assert not ruling.legal
    assert ruling.reason, "an illegal play needs a reason"
    for fragment in fragments:
        assert fragment in ruling.reason, f"{fragment!r} not in {ruling.reason!r}"


# --- legal plays -------------------------------------------------------------------------

def test_first_play_retains(lex):
    ruling = judge(Board.empty(ENGLISH), "AEINRST", "8D RETAINS", lex)
    assert ruling.legal and ruling.reason is None
    assert ruling.play == "8D RETAINS"
    assert ruling.words == (("RETAINS", True),)
    assert ruling.invalid_words == ()
    # R on D8 (DL) 2 + E T A I N S 6 = 8, x2 (start H8 DW) = 16, bingo + 50 = 66
    assert ruling.score == 66
    assert ruling.tiles_played == 7
    assert ruling.leave == ""


def test_first_play_down_is_legal(lex):
    ruling = judge(Board.empty(ENGLISH), "AEINRST", "H2 RETAINS", lex)
    # R on H2, E on H3, T on H4 (DL) 1x2, A on H5, I on H6, N on H7 (all plain), S on the
    # start H8 (DW): 1 + 1 + 2 + 1 + 1 + 1 + 1 = 8, x2 = 16, + 50 = 66
    assert ENGLISH.premiums[3][7] == (2, 1)
    assert ruling.legal and ruling.play == "H2 RETAINS" and ruling.score == 66


def test_parallel_play_forms_cross_words(lex):
    ruling = judge(retains(), "NOQS", "9H NO", lex)
    assert ruling.legal, ruling.reason
    assert ruling.play == "9H NO"
    assert ruling.words[0] == ("NO", True)
    assert sorted(ruling.words) == sorted([("NO", True), ("IN", True), ("NO", True)])
    # NO: N (H9) 1 + O (I9 DL) 2 = 3; IN: 1 + 1 = 2 (the DW under the old I no longer
    # counts); NO down: N old 1 + O 2 = 3: 8
    assert ruling.score == 8
    assert ruling.tiles_played == 2
    assert sorted(ruling.leave) == sorted("QS")


def test_play_through_a_board_tile(lex):
    ruling = judge(retains(), "AEHSX", "D4 SHEA(R)", lex)
    assert ruling.legal, ruling.reason
    assert ruling.play == "D4 SHEA(R)"
    assert ruling.words == (("SHEAR", True),)
    # S on D4 (DW) 1 + H 4 + E 1 + A 1 + R old 1 (its DL on D8 does not count) = 8, x2 = 16
    assert ruling.score == 16
    assert ruling.leave == "X"
    # GCG's '.' for the board letter gives the same ruling
    assert judge(retains(), "AEHSX", "D4 SHEA.", lex) == ruling


def test_canonical_notation_extends_to_the_whole_word(lex):
    # the H under the S, given as a one-letter play: the word is SH from J8
    ruling = judge(retains(), "H", "9J H", lex)
    assert ruling.legal, ruling.reason
    assert ruling.play == "J8 (S)H"
    assert ruling.words == (("SH", True),)
    assert ruling.score == 5  # S 1 + H on J9 (plain) 4
    # given as a Play object covering only the placed tile
    assert judge(retains(), "H", Play(8, 9, False, bytes([code(ENGLISH, "H")])), lex) == ruling
    # given as tiles
    assert judge_tiles(retains(), "H", tiles(ENGLISH, ("J9", "H")), lex) == ruling


def test_one_tile_making_words_both_ways_is_written_across(lex):
    board = lay(retains(), "H9", False, "NO")  # NO under the I and the N
    # an H on J9: NOH across (N 1 + O 1 + H 4 = 6, J9 plain), SH down (S 1 + H 4 = 5): 11
    for notation in ("J8 (S)H", "9H (NO)H", "9J H", "J9 H"):
        ruling = judge(board, "HX", notation, lex)
        assert ruling.legal, (notation, ruling.reason)
        assert ruling.play == "9H (NO)H", notation
        assert ruling.words[0] == ("NOH", True)
        assert sorted(ruling.words) == [("NOH", True), ("SH", True)]
        assert ruling.score == 11
        assert ruling.leave == "X"
    assert judge_tiles(board, "HX", tiles(ENGLISH, ("J9", "H")), lex).play == "9H (NO)H"


def test_one_tile_making_only_an_across_word(lex):
    board = lay(Board.empty(ENGLISH), "H8", False, "AT")
    ruling = judge(board, "E", "J8 E", lex)  # written down, but the word is across
    assert ruling.legal and ruling.play == "8H (AT)E" and ruling.words == (("ATE", True),)
    assert ruling.score == 3  # A 1 + T 1 + E on J8 (plain) 1


def test_two_blanks(lex):
    ruling = judge(retains(), "??", "9H no", lex)
    assert ruling.legal, ruling.reason
    assert ruling.play == "9H no"
    assert ruling.words[0][0].upper() == "NO"
    assert sorted(w.upper() for w, _ in ruling.words) == ["IN", "NO", "NO"]
    assert all(ok for _, ok in ruling.words)
    # NO: 0 + 0; IN: I 1 + n 0 = 1; NO down: N 1 + o 0 = 1: 2
    assert ruling.score == 2
    assert ruling.leave == "" and ruling.tiles_played == 2
    # a first play with two blanks: r (D8 DL) 0, E T A 3, i (H8) 0, N S 2: 5 x 2 = 10, + 50
    ruling = judge(Board.empty(ENGLISH), "??AENST", "8D rETAiNS", lex)
    assert ruling.legal and ruling.score == 60 and ruling.leave == "" and ruling.play == "8D rETAiNS"
    assert ruling.words[0][0].upper() == "RETAINS" and ruling.words[0][1]


def test_blank_and_natural_tiles(lex):
    # a blank n and a natural O: nO: 0 + O on I9 (DL) 2 = 2; In: 1 + 0 = 1; NO: 1 + 2 = 3: 6
    ruling = judge(retains(), "O?X", "9H nO", lex)
    assert ruling.legal and ruling.score == 6 and ruling.leave == "X"
    # the blank is used only where the play says so: an upper-case O needs an O on the rack
    assert_illegal(judge(retains(), "N?", "9H NO", lex), "not on the rack", "O")
    # and a lower-case letter needs a blank
    assert_illegal(judge(retains(), "NO", "9H nO", lex), "not on the rack", "blank")
    # a lower-case rack reads as upper case
    ruling = judge(retains(), "noqs", "9H NO", lex)
    assert ruling.legal and sorted(ruling.leave) == ["Q", "S"]


def test_leave(lex):
    ruling = judge(retains(), "NOQS??", "9H NO", lex)
    assert sorted(ruling.leave) == sorted("QS??")
    ruling = judge(retains(), "NNOO", "9H NO", lex)
    assert sorted(ruling.leave) == ["N", "O"]
    ruling = judge(retains(), "?NO", "9H nO", lex)
    assert ruling.leave == "N"
    ruling = judge(retains(), "_NO", "9H nO", lex)  # '_' is a blank on a rack too
    assert ruling.legal and ruling.leave == "N"


# --- illegal plays, one reason each ------------------------------------------------------

def test_not_in_one_line(lex):
    ruling = judge_tiles(retains(), "NO", tiles(ENGLISH, ("H9", "N"), ("I10", "O")), lex)
    assert_illegal(ruling, "one line")
    assert ruling.score is None


@pytest.mark.parametrize("placed, gap", [
    ((("H9", "N"), ("J9", "O")), "I9"),     # across
    ((("H9", "N"), ("H11", "O")), "H10"),   # down
    ((("K8", "S"), ("M8", "O")), "L8"),     # extends RETAINS, then a gap
])
def test_gap(lex, placed, gap):
    ruling = judge_tiles(retains(), "NOS", tiles(ENGLISH, *placed), lex)
    assert_illegal(ruling, "gap", gap)


def test_gap_from_a_play_object(lex):
    # THROUGH on an empty square: the tiles leave a gap at I9
    p = Play(8, 7, False, bytes([code(ENGLISH, "N"), THROUGH, code(ENGLISH, "O")]))
    assert_illegal(judge(retains(), "NO", p, lex), "gap", "I9")


@pytest.mark.parametrize("notation", ["3A NO", "9K NO", "K9 NO", "7K NO", "15O A"])
def test_not_connected(lex, notation):
    # 9K / K9 / 7K touch the S on J8 only diagonally
    assert_illegal(judge(retains(), "NOA", notation, lex), "not connected")


def test_not_connected_even_over_the_start_square(lex):
    board = lay(Board.empty(ENGLISH), "A1", False, "AT")
    assert_illegal(judge(board, "NO", "8H NO", lex), "not connected")


@pytest.mark.parametrize("notation", ["7D RETAINS", "8A RETAINS", "H1 RETAINS", "G2 RETAINS", "8I RETAINS"])
def test_first_play_misses_the_start_square(lex, notation):
    assert_illegal(judge(Board.empty(ENGLISH), "AEINRST", notation, lex), "start square", "H8")


def test_first_play_of_one_tile(lex):
    assert_illegal(judge(Board.empty(ENGLISH), "A", "8H A", lex), "two letters")


def test_square_occupied(lex):
    assert_illegal(judge(retains(), "AEINRST", "8D RETAINS", lex), "occupied", "D8")
    # the R of SHEAR not marked as on the board
    assert_illegal(judge(retains(), "SHEAR", "D4 SHEAR", lex), "occupied", "D8")
    assert_illegal(judge_tiles(retains(), "X", tiles(ENGLISH, ("H8", "X")), lex), "occupied", "H8")


def test_tile_not_on_the_rack(lex):
    assert_illegal(judge(retains(), "NXY", "9H NO", lex), "not on the rack", "O")
    assert_illegal(judge(retains(), "", "9H NO", lex), "not on the rack")
    # one O on the rack, two in the play
    board = lay(Board.empty(ENGLISH), "H8", False, "N")
    assert_illegal(judge(board, "ON", "H7 O(N)O", lex), "not on the rack", "O")


@pytest.mark.parametrize("notation", ["8N NOS", "O14 NOS", "16A NO", "8P NO", "0A NO"])
def test_off_the_board_notation(lex, notation):
    assert_illegal(judge(retains(), "NOS", notation, lex), "off the board")


def test_off_the_board_play_and_tiles(lex):
    p = Play(7, 13, False, bytes([code(ENGLISH, c) for c in "NOS"]))  # N8 O8 P8
    assert_illegal(judge(retains(), "NOS", p, lex), "off the board")
    assert_illegal(judge_tiles(retains(), "NO", [(15, 3, code(ENGLISH, "N"))], lex), "off the board")
    assert_illegal(judge_tiles(retains(), "NO", [(8, -1, code(ENGLISH, "N"))], lex), "off the board")


def test_invalid_words_are_listed(lex):
    # 9H XO: XO (X on H9 8 + O on I9 DL 2 = 10), IX (1 + 8 = 9) invalid; NO (1 + 2 = 3) valid
    ruling = judge(retains(), "OX", "9H XO", lex)
    assert_illegal(ruling, "invalid words", "XO", "IX")
    assert "NO" not in ruling.reason
    assert sorted(ruling.invalid_words) == ["IX", "XO"]
    assert ruling.words[0] == ("XO", False)
    assert sorted(ruling.words) == sorted([("XO", False), ("IX", False), ("NO", True)])
    assert ruling.score == 22  # what it would have scored
    assert ruling.play == "9H XO" and ruling.leave == "" and ruling.tiles_played == 2
    # one invalid word
    ruling = judge(retains(), "X", "J8 (S)X", lex)
    assert_illegal(ruling, "invalid word", "SX")
    assert "invalid words" not in ruling.reason
    assert ruling.invalid_words == ("SX",) and ruling.score == 9  # S 1 + X on J9 8
    # the main word valid, the cross words invalid: 9H ON: ON valid, IO and NN invalid
    ruling = judge(retains(), "NO", "9H ON", lex)
    assert_illegal(ruling, "IO", "NN")
    assert sorted(ruling.invalid_words) == ["IO", "NN"]
    assert ruling.words[0] == ("ON", True)


def test_invalid_word_with_a_blank_checks_the_letter(lex):
    ruling = judge(Board.empty(ENGLISH), "Q?", "8H Qx", lex)
    assert not ruling.legal and [w.upper() for w in ruling.invalid_words] == ["QX"]
    ruling = judge(Board.empty(ENGLISH), "Q?", "8H Qi", lex)
    assert ruling.legal and ruling.score == 20  # (10 + 0) x 2


def test_other_faults(lex):
    assert_illegal(judge(retains(), "", "8D (RETAINS)", lex), "no tile")
    two = [(8, 7, code(ENGLISH, "N")), (8, 7, code(ENGLISH, "O"))]
    assert not judge_tiles(retains(), "NO", two, lex).legal
    assert not judge_tiles(retains(), "NO", [], lex).legal
    assert_illegal(judge(retains(), "N0", "9H NO", lex), "rack")
    # a rack of more tiles than the ruleset's rack holds
    assert_illegal(judge(retains(), "NOABCDEF", "9H NO", lex), "rack")
    # notation that does not fit the board is the play's fault
    assert_illegal(judge(retains(), "NO", "9H N(O)", lex), "I9", "empty")
    assert_illegal(judge(retains(), "NO", "D7 A(E)", lex), "D8", "holds R")


@pytest.mark.parametrize("notation", ["9H NO1", "NO 9H", "9H", "9H [XY]", "8D (RETAINS", "9H N)O"])
def test_unreadable_notation_raises(lex, notation):
    with pytest.raises(PlayError):
        judge(retains(), "NO", notation, lex)


def test_ruling_as_dict_is_json(lex):
    ruling = judge(retains(), "OX", "9H XO", lex)
    d = json.loads(json.dumps(ruling.as_dict()))
    assert d["legal"] is False and d["score"] == 22 and d["play"] == "9H XO"
    assert {"word": "NO", "valid": True} in d["words"] and sorted(d["invalid_words"]) == ["IX", "XO"]
    assert d["reason"] == ruling.reason and d["leave"] == "" and d["tiles_played"] == 2


# --- other boards ------------------------------------------------------------------------

def test_tiny_board():
    empty = Board.empty(TINY)
    tiny_lex = lexicon(WORDS, TINY)
    # 4B CRATE: 3+1+1+1+1 = 7, A on D4 (DW) x2 = 14, 5 tiles = the tiny rack: + 20 = 34
    ruling = judge(empty, "ACERT", "4B CRATE", tiny_lex)
    assert ruling.legal and ruling.score == 34 and ruling.leave == ""
    # the start is D4 on the tiny board
    assert_illegal(judge(empty, "ACT", "4E CAT", tiny_lex), "start square", "D4")
    ruling = judge(empty, "ACT", "D2 CAT", tiny_lex)  # C D2, A D3, T on D4 (DW): 5 x 2
    assert ruling.legal and ruling.score == 10
    assert_illegal(judge(empty, "ACT", "4F CAT", tiny_lex), "off the board")


def test_spanish_multi_character_tiles():
    sp_lex = lexicon(["CHE", "AS", "HA"], SPANISH)
    empty = Board.empty(SPANISH)
    ruling = judge(empty, "CHEA", "8H [CH]E", sp_lex)
    assert ruling.legal and ruling.play == "8H [CH]E" and ruling.words == (("CHE", True),)
    assert ruling.score == 12  # (CH 5 + E 1) x 2
    assert ruling.leave == "A"
    # the rack's C and H (written apart) are not the CH tile
    assert_illegal(judge(empty, "HCEA", "8H [CH]E", sp_lex), "not on the rack", "CH")


def test_spanish_leave_keeps_c_and_h_apart():
    sp_lex = lexicon(["CHE", "AS", "HA"], SPANISH)
    ruling = judge(Board.empty(SPANISH), "HCAS", "8H AS", sp_lex)
    assert ruling.legal
    # the leave must read back as the tiles C and H, by the rules racks are read with
    # (longest match, so a bare "CH" is the CH tile; a bracketed [X] is one tile)
    labels = []
    for bracketed, bare in re.findall(r"\[([^\]]*)\]|([^\[]+)", ruling.leave):
        labels += [bracketed] if bracketed else SPANISH.alphabet.split(bare.upper())
    assert sorted(labels) == ["C", "H"]


def test_referee_accepts_the_rack_of_a_cgp_position():
    sp_lex = lexicon(["CHE"], SPANISH)
    pos = parse_cgp("/".join(["15"] * 15) + " [CH]EA/ 0/0 0", SPANISH)
    ruling = judge(pos.board, pos.rack, "8H [CH]E", sp_lex)
    assert ruling.legal and ruling.leave == "A"


# --- ENABLE, realistic plays -------------------------------------------------------------

def test_enable_first_plays(enable):
    empty = Board.empty(ENGLISH)
    ruling = judge(empty, "AEINRST", "8D RETAINS", enable)
    assert ruling.legal and ruling.score == 66 and ruling.words == (("RETAINS", True),)
    ruling = judge(empty, "AEINRST", "8D RETIANS", enable)
    assert_illegal(ruling, "invalid word", "RETIANS")
    assert ruling.score == 66 and ruling.invalid_words == ("RETIANS",)
    # QI is not in ENABLE: Q on G8 10 + I on H8 1, x2 = 22 had it been good
    ruling = judge(empty, "QI", "8G QI", enable)
    assert_illegal(ruling, "QI")
    assert ruling.score == 22


def test_norvig_backbench_on_wwf(enable):
    """Norvig's example: rack ABCHKNQ, BACKBENCH from his square 140 (8D) scores 116."""
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    for notation in ("8D BACK(BE)N(C)H", "8D BACK..N.H"):
        ruling = judge(board, "ABCHKNQ", notation, enable)
        assert ruling.legal, ruling.reason
        assert ruling.play == "8D BACK(BE)N(C)H"
        assert ruling.words == (("BACKBENCH", True), ("AMUSES", True), ("THE", True))
        assert ruling.score == 116
        assert ruling.leave == "Q" and ruling.tiles_played == 6
    # his other plays from the prefix B on 140: BA, BAH, BAN (In [47])
    # BAH: B on D8 (DW) 3 + A 1 + H 4 = 8, x2 = 16; AMUSES (A on the plain E8) 1+3+1+1+1+1 = 8
    ruling = judge(board, "ABCHKNQ", "8D BAH", enable)
    assert ruling.legal and ruling.score == 24 and ruling.words == (("BAH", True), ("AMUSES", True))
    assert sorted(ruling.leave) == sorted("CKNQ")
    # BA: (3 + 1) x 2 = 8, + 8 = 16; BAN: (3 + 1 + 1) x 2 = 10, + 8 = 18
    assert judge(board, "ABCHKNQ", "8D BA", enable).score == 16
    assert judge(board, "ABCHKNQ", "8D BAN", enable).score == 18
    # the board's letters not marked: the squares are occupied
    assert_illegal(judge(board, "ABCHKNQ", "8D BACKBENCH", enable), "occupied", "H8")
    # without a B on the rack
    assert_illegal(judge(board, "ACHKNQ", "8D BACK(BE)N(C)H", enable), "not on the rack", "B")
    # a cross word made invalid: an O above the M of MUSES gives OMUSES
    ruling = judge(board, "BOCHKNQ", "8D BO", enable)
    assert_illegal(ruling, "OMUSES")
    assert ruling.invalid_words == ("OMUSES",)
