"""Tests for the referee (lexc.board.referee): legality, the words formed, the score, the leave
and the reason a play is illegal.

Expected scores are computed by hand from the premium layouts in src/lexc/rulesets/*.toml.
"""

from __future__ import annotations

import json
import re

import pytest

from lexc.alphabet import BLANK_FLAG
from lexc.board.board import Board, parse_cgp
from lexc.board.notation import THROUGH, Play, PlayError
from lexc.board.referee import Ruling, judge, judge_tiles
from lexc.formats import build
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from lexicons import enable_built
from reference import NORVIG_PICTURE

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
    for notation in ("J8 (S)H", "9H (NO)H", "J8 SH", "9H NOH", "9H ..H"):
        ruling = judge(board, "HX", notation, lex)
        assert ruling.legal, (notation, ruling.reason)
        assert ruling.play == "9H (NO)H", notation
        assert ruling.words[0] == ("NOH", True)
        assert sorted(ruling.words) == [("NOH", True), ("SH", True)]
        assert ruling.score == 11
        assert ruling.leave == "X"
    assert judge_tiles(board, "HX", tiles(ENGLISH, ("J9", "H")), lex).play == "9H (NO)H"
    # the tile alone, in either direction, is not the whole word (MAGPIE's rule)
    assert_illegal(judge(board, "HX", "9J H", lex), "the word starts at 9H, not 9J: write 9H (NO)H")
    assert_illegal(judge(board, "HX", "J9 H", lex), "the word starts at J8, not J9: write J8 (S)H")


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
    # a letter other than the board's on an occupied square, named
    assert_illegal(judge(retains(), "SHEAT", "D4 SHEAT", lex), "D8 holds R, not T")
    assert_illegal(judge(retains(), "AEINRST", "8D RETAINX", lex), "J8 holds S, not X")
    # the board's letters spelled out are the board's tiles: no tile left to place
    assert_illegal(judge(retains(), "AEINRST", "8D RETAINS", lex), "no tile")
    # tiles given as tiles (not notation) on an occupied square
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


# --- strict notation (MAGPIE's rule) ----------------------------------------------------

ION = "15/15/15/15/15/15/15/5ION7/15/15/15/15/15/15/15 AIINOTZ/ 0/0 0"  # MAGPIE's ION_OPENING_CGP
OXY = ("1PACIFYING5/1IS12/YE13/1REQUALIFIED3/H1L12/EDS12/NO3T9/1RAINWASHING3/UM3O9/T2E1O9/1WAKEnERS6/"
       "1OnETIME7/OOT2E1B7/N6U7/1JACULATING4 ABEOPXZ/ 0/0 0 lex NWL20;")
HEADWORDS = ("7N6M/5ZOON4AA/7B5UN/2S4L3LADY/2T4E2QI1I1/2A2PORN3NOR/2BICE2AA1DA1E/6GUVS1OP1F/8ET1LA1U/"
             "5J3R1E1UT/4VOTE1I1R1NE/5G1MICKIES1/6FE1T1THEW/6OR3E1XI/6OY6G ??DDESW/ 0/0 0 lex NWL20;")


@pytest.mark.parametrize("notation, reason", [
    # MAGPIE's INVALID_START_COORDS and INCOMPLETE_TILE_PLACEMENT cases, named and spelled right
    ("8I IZATION", "8I IZATION: the word starts at 8F, not 8I: write 8F (ION)IZATION"),
    ("H9 OW", "H9 OW: the word starts at H8, not H9: write H8 (N)OW"),
    ("H6 AI", "H6 AI: the word continues at H8: write H6 AI(N)"),
    ("8C ZIT", "8C ZIT: the word continues at 8F: write 8C ZIT(ION)"),
    ("8G ONIZATION", "8G ONIZATION: the word starts at 8F, not 8G: write 8F (ION)IZATION"),
    ("8G (O)", "8G (O): the word starts at 8F, not 8G, and continues at 8H: write 8F (ION)"),
    ("G7 Z", "G7 Z: the word continues at G8: write G7 Z(O)"),
    # a plain letter on an occupied square must be the board's: the square is named
    ("8F IZATION", "8F IZATION: G8 holds O, not Z"),
    ("8F (IO)TIZATION", "8F (IO)TIZATION: H8 holds N, not T"),
    ("H1 AERATIOX", "H1 AERATIOX: H8 holds N, not X"),
])
def test_notation_must_be_the_whole_word_from_its_first_square(enable, notation, reason):
    position = parse_cgp(ION, ENGLISH)
    ruling = judge(position.board, "AEINOTZ", notation, enable)
    assert not ruling.legal and ruling.reason == reason
    assert ruling.score is None and ruling.play is None


def test_board_letters_in_parentheses_dots_or_spelled_out(enable):
    board = parse_cgp(ION, ENGLISH).board
    rulings = [judge(board, "AIINOTZ", n, enable)
               for n in ("8F (ION)IZATION", "8F IONIZATION", "8F ...IZATION", "8F I(O)NIZATION", "8F i.nIZATION",
                         "8f ionIZATION")]
    assert all(r == rulings[0] for r in rulings)
    ruling = rulings[0]
    assert ruling.legal and ruling.play == "8F (ION)IZATION" and ruling.words == (("IONIZATION", True),)
    # a blank designation on a board square holding that letter is the board tile: no blank used
    assert ruling.tiles_played == 7 and ruling.leave == ""
    # MAGPIE's test_validated_move_success: 8E L..., F7 Q., 7F QI, H1 AeRATION (74), H2 FIREFANG (66)
    ruling = judge(board, "AAIORT?", "H1 AeRATION", enable)
    assert ruling.legal and ruling.play == "H1 AeRATIO(N)" and ruling.score == 74 and ruling.leave == ""
    ruling = judge(board, "AEFFGIR", "H2 FIREFANG", enable)
    assert ruling.play == "H2 FIREFA(N)G" and ruling.score == 66 and ruling.tiles_played == 7


def test_magpie_positions_spelled_out_through_the_board(enable):
    """MAGPIE's validated-move tests accept board letters spelled out, with these scores."""
    position = parse_cgp(OXY, ENGLISH)
    for notation in ("A1 OXYPHENBUTAZONE", "A1 OX.P...B..AZ..E", "A1 OXYPHENBU.AZONE", "A1 OX.PHENBU.AZONE",
                     "A1 OX(Y)P(HEN)B(UT)AZ(ON)E"):
        ruling = judge(position.board, position.rack, notation, enable)
        assert ruling.play == "A1 OX(Y)P(HEN)B(UT)AZ(ON)E", notation
        assert ruling.score == 1780 and ruling.tiles_played == 7 and ruling.words[0][0] == "OXYPHENBUTAZONE"
    ruling = judge(position.board, position.rack, "A12 ZONE", enable)
    assert ruling.play == "A12 Z(ON)E" and ruling.score == 160
    assert_illegal(judge(position.board, position.rack, "A11 AZONE", enable),
                   "the word starts at A9, not A11: write A9 (UT)AZ(ON)E")
    position = parse_cgp(HEADWORDS, ENGLISH)
    ruling = judge(position.board, position.rack, "14B hEaDWORDS", enable)
    assert ruling.play == "14B hEaDW(OR)DS" and ruling.score == 106 and ruling.tiles_played == 7
    assert judge(position.board, position.rack, "14B hEaDWORD", enable).score == 38


def test_lexc_play_example_hauls_then_ose(enable):
    """README (lexc play): after 8D HAULS, H7 OSE is understood as H7 O(S)E."""
    board = lay(Board.empty(ENGLISH), "D8", False, "HAULS")
    ruling = judge(board, "ELMNOR?", "H7 OSE", enable)
    assert ruling.legal and ruling.play == "H7 O(S)E" and ruling.score == 3 and ruling.leave == "LMNR?"
    assert judge(board, "ELMNOR?", "H7 O(S)E", enable) == ruling
    assert judge(board, "ELMNOR?", "H7 OsE", enable) == ruling  # the s is the board's S, not the blank
    assert_illegal(judge(board, "ELMNOR?", "H7 OTE", enable), "H8 holds S, not T")
    assert_illegal(judge(board, "ELMNOR?", "8D UNLASH", enable), "D8 holds H, not U")
    assert_illegal(judge(board, "ELMNOR?", "H9 OE", enable), "the word starts at H8, not H9: write H8 (S)OE")
    # a blank on the board: a natural or a lower-case letter written there is the board's blank
    board = lay(Board.empty(ENGLISH), "D8", False, "HAULs")
    for notation in ("H7 OSE", "H7 OsE", "H7 O(s)E", "H7 O(S)E", "H7 O.E"):
        ruling = judge(board, "ELMNOR?", notation, enable)
        assert ruling.legal and ruling.play == "H7 O(s)E" and ruling.score == 2 and ruling.leave == "LMNR?", notation


@pytest.mark.parametrize("notation, fault", [
    ("8C A", "the word continues at 8D: write 8C A(RETAINS)"),
    ("8K S", "the word starts at 8D, not 8K: write 8D (RETAINS)S"),
    ("D7 A", "the word continues at D8: write D7 A(R)"),
    ("D9 E", "the word starts at D8, not D9: write D8 (R)E"),
])
def test_a_word_not_spelled_whole_is_an_illegal_play_not_an_exception(lex, notation, fault):
    ruling = judge(retains(), "AES", notation, lex)
    assert_illegal(ruling, fault)
    assert ruling.reason == f"{notation}: {fault}"


# --- exchanges and passes ----------------------------------------------------------------

def crowded(count: int) -> tuple[Board, str]:
    """A board holding the first ``count`` tiles of the bag (blanks as blank Es), row by row,
    and the tiles left, as rack text; not a legal position, only a bag count for the
    exchange rule."""
    codes, alphabet = ENGLISH.bag_tiles(), ENGLISH.alphabet
    e = alphabet.code("E")
    placed = [(i // 15, i % 15, code or (e | BLANK_FLAG)) for i, code in enumerate(codes[:count])]
    rest = codes[count:]
    return Board.empty(ENGLISH).with_tiles(placed), alphabet.rack_text([c for c in rest if c], rest.count(0))


def test_exchange(lex):
    ruling = judge(Board.empty(ENGLISH), "AEINRST", "-AEI", lex)
    assert ruling == Ruling(True, None, "-AEI", (), 0, 3, "NRST")
    ruling = judge(Board.empty(ENGLISH), "AEINRS?", " -?ia ", lex)  # any case, blanks, spaces around
    assert ruling.legal and ruling.play == "-AI?" and ruling.leave == "ENRS" and ruling.tiles_played == 3
    assert judge(Board.empty(ENGLISH), "AEINRST", "-AEINRST", lex).leave == ""
    ruling = judge(Board.empty(ENGLISH), "AEINRST", "-3", lex)  # GCG's count of unnamed tiles
    assert ruling.legal and ruling.play == "-3" and ruling.tiles_played == 3 and ruling.leave is None
    assert_illegal(judge(Board.empty(ENGLISH), "AEINRST", "-8", lex), "cannot exchange 8 tiles")
    assert_illegal(judge(Board.empty(ENGLISH), "AEINRST", "-Q", lex), "tile not on the rack: Q")
    assert_illegal(judge(Board.empty(ENGLISH), "AEINRST", "-AA", lex), "tile not on the rack: A")
    assert_illegal(judge(Board.empty(ENGLISH), "AEINRST", "-?", lex), "tile not on the rack: a blank")
    assert_illegal(judge(Board.empty(ENGLISH), "", "-A", lex), "not on the rack", "the rack is empty")
    ruling = judge(Board.empty(ENGLISH), "AEINRST", "-Q", lex)
    assert ruling.score is None and ruling.tiles_played == 0


def test_exchange_needs_a_rack_of_tiles_in_the_bag(lex):
    # 100 tiles: 80 on the board, 7 on the rack, 6 on the opponent's: 7 in the bag
    board, rest = crowded(80)
    rack, opponent = rest[:7], rest[7:13]
    assert board.tile_count() == 80 and len(rest) == 20
    ruling = judge(board, rack, f"-{rack[:2]}", lex, opponent)
    assert ruling.legal and ruling.tiles_played == 2 and ruling.score == 0 and ruling.leave == rack[2:]
    # the opponent's rack unknown: taken to be a full rack of 7, so the bag holds 6
    assert_illegal(judge(board, rack, f"-{rack[:2]}", lex), "no exchange with 6 tiles in the bag", "at least 7")
    assert_illegal(judge(board, rack, f"-{rack[:2]}", lex, ""), "6 tiles in the bag")  # empty is unknown
    board, rest = crowded(79)
    assert judge(board, rest[:7], f"-{rest[0]}", lex).legal  # 21 unseen: 7 mine, 7 theirs, 7 in the bag
    assert judge(board, rest[:7], f"-{rest[0]}", lex, rest[7:14]).legal
    board, rest = crowded(81)
    assert_illegal(judge(board, rest[:7], f"-{rest[0]}", lex, rest[7:14]), "no exchange with 5 tiles in the bag")
    board, rest = crowded(100 - 7)
    assert_illegal(judge(board, rest, f"-{rest[0]}", lex), "no exchange with 0 tiles in the bag")
    # more tiles than the set has: an impossible position
    board, rest = crowded(99)
    assert rest == "Z"
    assert_illegal(judge(board, "ZZ", "-Z", lex), "more tiles than the set has: Z")


def test_pass_is_always_legal(lex):
    assert judge(retains(), "QXZ", "-", lex) == Ruling(True, None, "-", (), 0, 0, "QXZ")
    assert judge(retains(), "", " - ", lex) == Ruling(True, None, "-", (), 0, 0, "")
    board, rest = crowded(100 - 7)
    assert judge(board, rest, "-", lex).legal  # an empty bag does not matter
    assert judge(Board.empty(ENGLISH), "?A", "-", lex).leave == "A?"


@pytest.mark.parametrize("move", ["--", "-K.OI", "-A B", "- A"])
def test_unreadable_exchange_raises(lex, move):
    with pytest.raises(PlayError):
        judge(Board.empty(ENGLISH), "AEIKNOR", move, lex)


def test_exchange_and_pass_json_have_the_play_shape(lex):
    play = judge(retains(), "NOQS", "9H NO", lex).as_dict()
    for move in ("-QS", "-", "-ZZ"):
        d = json.loads(json.dumps(judge(retains(), "NOQS", move, lex).as_dict()))
        assert d.keys() == play.keys() and d["words"] == [] and d["invalid_words"] == []
    d = judge(retains(), "NOQS", "-QS", lex).as_dict()
    assert d["legal"] and d["score"] == 0 and d["tiles_played"] == 2 and d["leave"] == "NO" and d["play"] == "-QS"


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
    for notation in ("8D BACK(BE)N(C)H", "8D BACK..N.H", "8D BACKBENCH", "8D BACK(BE)NCH", "8d BACKBENCH"):
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
    # a letter spelled out on an occupied square must be the board's
    assert_illegal(judge(board, "ABCHKNQ", "8D BACKBONCH", enable), "I8 holds E, not O")
    # without a B on the rack
    assert_illegal(judge(board, "ACHKNQ", "8D BACK(BE)N(C)H", enable), "not on the rack", "B")
    # a cross word made invalid: an O above the M of MUSES gives OMUSES
    ruling = judge(board, "BOCHKNQ", "8D BO", enable)
    assert_illegal(ruling, "OMUSES")
    assert ruling.invalid_words == ("OMUSES",)
