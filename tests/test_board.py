"""Tests for the board (lexc.board.board), play notation (lexc.board.notation) and scoring (lexc.board.scoring).

Expected scores are computed by hand from the premium layouts in src/lexc/rulesets/*.toml (the
arithmetic is written next to each case); the code under test never supplies an expected
value. Squares are named like the notation: column letter + row number, ``H8`` the centre.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexc.alphabet import BLANK_FLAG
from lexc.board.board import Board, Position, PositionError, parse_cgp, read_position
from lexc.board.notation import THROUGH, Play, PlayError, parse_play
from lexc.board.scoring import FormedWord, score, words_formed
from lexc.ruleset import load_ruleset
from reference import NORVIG_PICTURE

ENGLISH = load_ruleset("english")
WWF = load_ruleset("wwf")
SPANISH = load_ruleset("spanish")
TINY = load_ruleset("tiny")
RULESETS = {"english": ENGLISH, "wwf": WWF, "spanish": SPANISH, "tiny": TINY}

NONE, DL, TL, DW, TW = (1, 1), (2, 1), (3, 1), (1, 2), (1, 3)
EMPTY15 = "/".join(["15"] * 15)


# --- helpers (independent of the code under test) ---------------------------------------

def sq(name: str) -> tuple[int, int]:
    """(row, col) of a square named like ``H8``."""
    return int(name[1:]) - 1, ord(name[0].upper()) - ord("A")


def codes(ruleset, text: str) -> bytes:
    """Tile codes of a word: upper case a tile, lower case a blank, ``_`` a square played
    through; ``[CH]`` / ``[ch]`` a multi-character tile."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "_":
            out.append(THROUGH)
            i += 1
            continue
        if text[i] == "[":
            end = text.index("]", i)
            label, i = text[i + 1:end], end + 1
        else:
            label, i = text[i], i + 1
        code = ruleset.alphabet.code(label.upper())
        out.append(code | BLANK_FLAG if label != label.upper() else code)
    return bytes(out)


def lay(board: Board, start: str, down: bool, text: str) -> Board:
    """``board`` with the word ``text`` laid from square ``start`` (``_`` skips a square)."""
    r, c = sq(start)
    dr, dc = (1, 0) if down else (0, 1)
    tiles = [(r + dr * i, c + dc * i, code) for i, code in enumerate(codes(board.ruleset, text)) if code]
    return board.with_tiles(tiles)


def play(ruleset, start: str, down: bool, text: str) -> Play:
    r, c = sq(start)
    return Play(r, c, down, codes(ruleset, text))


def retains_board() -> Board:
    """The English board after 8D RETAINS (R D8 .. S J8)."""
    return lay(Board.empty(ENGLISH), "D8", False, "RETAINS")


# Norvig's example board ("Refactoring a Crossword Game Program", 2015, In [19]): his
# 17x17 board has a '#' border, so his square s is row s // 17 - 1, column s % 17 - 1 on
# our 15x15 board, and his DOWN is 17. His plays:
#   145 DOWN ENTER -> I8   144 ACROSS BE -> 8H      138 DOWN GAVE -> B8
#   158 DOWN MUSES -> E9   172 ACROSS VIRULeNT -> 10B (the e a blank)
#   213 ACROSS RED -> 12I  198 ACROSS LYTHE -> 11K  147 DOWN CHILDREN -> K8
#   164 ACROSS HEARD -> 9K 117 DOWN BRIDLES -> O6   131 ACROSS TOUR -> 7L
# The picture below matches his rendered board row by row (e.g. his row 8 "G2 DW B3 E1 C3
# DW I1" is G at B8, DW at D8, B H8, E I8, C K8, DW L8, I O8).


def norvig_board_from_plays() -> Board:
    board = Board.empty(WWF)
    for square, down, word in [("I8", True, "ENTER"), ("H8", False, "B_"), ("B8", True, "GAVE"),
                               ("E9", True, "MUSES"), ("B10", False, "_IR_LeN_"), ("I12", False, "_ED"),
                               ("K11", False, "LYTHE"), ("K8", True, "CHI__REN"), ("K9", False, "_EARD"),
                               ("O6", True, "BRI_L_S"), ("L7", False, "TOU_")]:
        board = lay(board, square, down, word)
    return board


# --- the board ---------------------------------------------------------------------------

def test_empty_board():
    for ruleset in RULESETS.values():
        board = Board.empty(ruleset)
        n = ruleset.board_size
        assert board.size == n and len(board.rows) == n and all(row == bytes(n) for row in board.rows)
        assert board.is_empty() and board.tile_count() == 0
        assert board.picture() == "\n".join(["." * n] * n)


def test_with_tiles_is_a_new_board_and_refuses_occupied_squares():
    empty = Board.empty(ENGLISH)
    board = retains_board()
    assert empty.is_empty()  # immutable: with_tiles made a new board
    assert board.tile_count() == 7 and not board.is_empty()
    assert board.at(*sq("D8")) == ENGLISH.alphabet.code("R")
    assert board.at(*sq("J8")) == ENGLISH.alphabet.code("S")
    assert board.at(*sq("K8")) == 0
    assert board.line(7, down=False) == bytes(3) + codes(ENGLISH, "RETAINS") + bytes(5)
    assert board.line(3, down=True) == bytes(7) + codes(ENGLISH, "R") + bytes(7)
    with pytest.raises(PositionError, match="H8"):
        board.with_tiles([(7, 7, ENGLISH.alphabet.code("A"))])
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.rows = ()  # frozen


def test_with_tiles_refuses_squares_off_the_board():
    board = Board.empty(ENGLISH)
    with pytest.raises((PositionError, IndexError)):
        board.with_tiles([(15, 0, 1)])
    with pytest.raises((PositionError, IndexError)):
        board.with_tiles([(-1, 0, 1)])  # would silently land on A15


def test_board_refuses_wrong_sizes_and_unknown_codes():
    with pytest.raises(PositionError):
        Board(ENGLISH, tuple(bytes(15) for _ in range(14)))
    with pytest.raises(PositionError):
        Board(ENGLISH, tuple(bytes(14) for _ in range(15)))
    rows = [bytes(15)] * 15
    rows[0] = bytes([27]) + bytes(14)  # English letters are 1..26
    with pytest.raises(PositionError, match="A1"):
        Board(ENGLISH, tuple(rows))
    rows[0] = bytes([BLANK_FLAG]) + bytes(14)  # a blank standing for no letter
    with pytest.raises(PositionError):
        Board(ENGLISH, tuple(rows))


def test_transposed():
    board = lay(retains_board(), "D4", True, "SHEA_")
    t = board.transposed()
    assert t.transposed() == board
    for r in range(15):
        assert t.line(r, down=False) == board.line(r, down=True)
        for c in range(15):
            assert t.at(c, r) == board.at(r, c)


# --- pictures ----------------------------------------------------------------------------

def test_picture_of_retains():
    lines = retains_board().picture().splitlines()
    assert len(lines) == 15
    assert lines[7] == "...RETAINS....."
    assert all(line == "." * 15 for i, line in enumerate(lines) if i != 7)


def test_picture_round_trip_norvig():
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    assert board == norvig_board_from_plays()
    assert board.at(*sq("G10")) == WWF.alphabet.code("E") | BLANK_FLAG  # the blank in VIRULeNT
    assert board.picture() == NORVIG_PICTURE.strip("\n")
    assert Board.from_picture(board.picture(), WWF) == board


def test_picture_with_spaces_and_blank_lines():
    text = "\n\n" + "\n".join(" ".join(line) for line in NORVIG_PICTURE.strip().splitlines()) + "\n\n"
    assert Board.from_picture(text, WWF) == Board.from_picture(NORVIG_PICTURE, WWF)


def test_picture_spanish_multi_character_tiles():
    board = lay(lay(Board.empty(SPANISH), "H8", False, "[CH]E"), "H9", True, "[ll]A")
    lines = board.picture().splitlines()
    assert lines[7] == ".......[CH]E......"
    assert lines[8] == ".......[ll]......."
    assert Board.from_picture(board.picture(), SPANISH) == board


@pytest.mark.parametrize("picture, message", [
    ("\n".join(["." * 15] * 14), "14"),                                       # too few rows
    ("\n".join(["." * 15] * 16), "16"),                                       # too many rows
    ("\n".join(["." * 15] * 7 + ["." * 16] + ["." * 15] * 7), "row 8"),       # a row too long
    ("\n".join(["." * 15] * 7 + ["." * 14] + ["." * 15] * 7), "row 8"),       # a row too short
    ("\n".join(["." * 15] * 7 + ["......1........"] + ["." * 15] * 7), "row 8"),  # not a tile
    ("\n".join(["." * 15] * 7 + [".......[CH]..."] + ["." * 15] * 7), "row 8"),   # no CH in English
])
def test_bad_pictures(picture, message):
    with pytest.raises(PositionError, match=message):
        Board.from_picture(picture, ENGLISH)


# --- CGP ---------------------------------------------------------------------------------

def test_cgp_empty_board():
    pos = parse_cgp(EMPTY15 + " AEINRST/ 0/0 0", ENGLISH)
    assert pos.board == Board.empty(ENGLISH)
    assert pos.racks == ("AEINRST", "") and pos.rack == "AEINRST"
    assert pos.scores == (0, 0) and pos.scoreless_turns == 0 and pos.ops == ()
    assert pos.cgp() == EMPTY15 + " AEINRST/ 0/0 0"
    assert Board.empty(ENGLISH).cgp_rows() == EMPTY15


def test_cgp_runs_of_empty_squares():
    rows = ["15"] * 15
    rows[7] = "3RETAINS5"
    pos = parse_cgp("/".join(rows) + " ?ABC/DEF 123/-4 2", ENGLISH)
    assert pos.board == retains_board()
    assert pos.board.cgp_rows() == "/".join(rows)
    assert pos.racks == ("?ABC", "DEF") and pos.scores == (123, -4) and pos.scoreless_turns == 2
    # a number is the whole run of digits: 12 then 3 cannot be written apart
    rows[7] = "123"
    with pytest.raises(PositionError, match="row 8"):
        parse_cgp("/".join(rows), ENGLISH)
    rows[7] = "1A1B1C1D1E1F1G1"
    line = parse_cgp("/".join(rows), ENGLISH).board.line(7, down=False)
    assert line == bytes([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0])


def test_cgp_blanks_and_full_rows():
    rows = ["15"] * 15
    rows[0] = "ABCDEFGHIJKLMNO"
    rows[14] = "abcdefghijklmno"
    rows[6] = "z13Q"
    board = parse_cgp("/".join(rows) + " / 0/0 0", ENGLISH).board
    assert board.at(0, 0) == 1 and board.at(0, 14) == 15
    assert board.at(14, 0) == 1 | BLANK_FLAG and board.at(14, 14) == 15 | BLANK_FLAG
    assert board.at(6, 0) == 26 | BLANK_FLAG and board.at(6, 14) == 17
    assert board.cgp_rows() == "/".join(rows)


def test_cgp_ops():
    text = EMPTY15 + " AEINRST/EEE 10/20 3 lex NWL20; ld english; note two  words here;"
    pos = parse_cgp(text, ENGLISH)
    assert pos.ops == (("lex", "NWL20"), ("ld", "english"), ("note", "two  words here"))
    assert pos.op("lex") == "NWL20" and pos.op("ld") == "english" and pos.op("bdn") is None
    assert pos.cgp() == text
    assert parse_cgp(pos.cgp(), ENGLISH) == pos


def test_cgp_board_only_defaults():
    pos = parse_cgp(EMPTY15, ENGLISH)
    assert pos.racks == ("", "") and pos.scores == (0, 0) and pos.scoreless_turns == 0 and pos.ops == ()
    assert parse_cgp(pos.cgp(), ENGLISH) == pos


def test_cgp_norvig_position_on_wwf():
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    rows = ["15"] * 5 + ["14B", "11TOUR", "1G5BE1C3I", "1A2M3N1HEARD", "1VIRULeNT1I3L", "1E2S3E1LYTHE",
                         "4E3RED3S", "4S5R4", "10E4", "10N4"]
    cgp = "/".join(rows) + " ABCHKNQ/ 0/0 0 lex ENABLE;"
    pos = parse_cgp(cgp, WWF)
    assert pos.board == board
    assert pos.cgp() == cgp
    assert pos.rack == "ABCHKNQ" and pos.op("lex") == "ENABLE"


def test_cgp_spanish_multi_character_tiles():
    rows = ["15"] * 15
    rows[7] = "7[CH]E6"
    rows[8] = "7[ll]Ñ[RR]ñ4"
    pos = parse_cgp("/".join(rows) + " [CH]A?/[RR] 5/7 0", SPANISH)
    b = pos.board
    a = SPANISH.alphabet
    assert b.at(*sq("H8")) == a.code("CH") and b.at(*sq("I8")) == a.code("E")
    assert b.at(*sq("H9")) == a.code("LL") | BLANK_FLAG and b.at(*sq("I9")) == a.code("Ñ")
    assert b.at(*sq("J9")) == a.code("RR") and b.at(*sq("K9")) == a.code("Ñ") | BLANK_FLAG
    assert b.tile_count() == 6
    assert b.cgp_rows() == "/".join(rows)
    assert parse_cgp(pos.cgp(), SPANISH) == pos
    with pytest.raises(PositionError, match="row 8"):
        parse_cgp("/".join(["15"] * 7 + ["7[XY]7"] + ["15"] * 7), SPANISH)
    with pytest.raises(PositionError, match="row 8"):  # no CH tile in English
        parse_cgp("/".join(["15"] * 7 + ["7[CH]7"] + ["15"] * 7), ENGLISH)


def test_read_position(tmp_path):
    picture = tmp_path / "board.txt"
    picture.write_text(NORVIG_PICTURE, encoding="utf-8")
    assert read_position(WWF, picture_path=str(picture)) == Position(Board.from_picture(NORVIG_PICTURE, WWF))
    line = tmp_path / "board.cgp"
    line.write_text("\n" + EMPTY15 + " AEINRST/ 0/0 0 lex NWL20;\n", encoding="utf-8")
    assert read_position(ENGLISH, picture_path=str(line)).op("lex") == "NWL20"
    assert read_position(ENGLISH, cgp=EMPTY15 + " A/B 1/2 3").scores == (1, 2)
    with pytest.raises(PositionError):
        read_position(ENGLISH)
    with pytest.raises(PositionError):
        read_position(ENGLISH, cgp=EMPTY15, picture_path=str(picture))


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("/".join(["15"] * 14) + " / 0/0 0", "14 rows"),
    ("/".join(["15"] * 16) + " / 0/0 0", "16 rows"),
    ("/".join(["15"] * 2 + ["16"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["14"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["3RETAINS6"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["3RETAINS4"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["7.7"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["7?7"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["7é7"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    ("/".join(["15"] * 2 + ["7[A7"] + ["15"] * 12) + " / 0/0 0", "row 3"),
    (EMPTY15 + " ABC 0/0 0", "racks"),
    (EMPTY15 + " A/B/C 0/0 0", "racks"),
    (EMPTY15 + " AB1/ 0/0 0", "rack"),
    (EMPTY15 + " / 0 0", "scores"),
    (EMPTY15 + " / 0/x 0", "scores"),
    (EMPTY15 + " / 0/0/0 0", "scores"),
    (EMPTY15 + " / 1.5/0 0", "scores"),
    (EMPTY15 + " / 0/0 x", "scoreless"),
    (EMPTY15 + " / 0/0 -1", "scoreless"),
    (EMPTY15 + " / 0/0 0 lex NWL20", "';'"),
    (EMPTY15 + " / 0/0 0 lex NWL20; ld english", "';'"),
])
def test_malformed_cgp(text, message):
    with pytest.raises(PositionError, match=message):
        parse_cgp(text, ENGLISH)


def test_malformed_cgp_superscript_digit_count():
    with pytest.raises(PositionError, match="scoreless"):
        parse_cgp(EMPTY15 + " / 0/0 ²", ENGLISH)


@st.composite
def boards(draw, ruleset_names=("english", "wwf", "spanish", "tiny")):
    """Random boards: each square empty, a tile or a blank, at a random density."""
    ruleset = RULESETS[draw(st.sampled_from(ruleset_names))]
    n = ruleset.board_size
    letters = len(ruleset.alphabet)
    density = draw(st.sampled_from([0, 16, 128, 256]))  # out of 256
    fill = draw(st.binary(min_size=n * n, max_size=n * n))
    which = draw(st.binary(min_size=n * n, max_size=n * n))
    squares = [((w % letters + 1) | (BLANK_FLAG if w >= 128 else 0)) if f < density else 0
               for f, w in zip(fill, which, strict=True)]
    return Board(ruleset, tuple(bytes(squares[r * n:(r + 1) * n]) for r in range(n)))


def racks(ruleset):
    labels = [f"[{label}]" if len(label) > 1 else label for label in ruleset.alphabet.labels] + ["?"]
    return st.lists(st.sampled_from(labels), max_size=ruleset.rack_size).map("".join)


op_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=8)
op_values = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./ ",
                    max_size=12).map(str.strip)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_cgp_round_trip(data):
    board = data.draw(boards())
    ruleset = board.ruleset
    position = Position(
        board,
        (data.draw(racks(ruleset)), data.draw(racks(ruleset))),
        (data.draw(st.integers(-1000, 5000)), data.draw(st.integers(-1000, 5000))),
        data.draw(st.integers(0, 12)),
        tuple(data.draw(st.lists(st.tuples(op_names, op_values), max_size=3))),
    )
    text = position.cgp()
    again = parse_cgp(text, ruleset)
    assert again == position
    assert again.cgp() == text
    assert parse_cgp(board.cgp_rows(), ruleset).board == board


@settings(max_examples=150, deadline=None)
@given(boards())
def test_picture_round_trip(board):
    picture = board.picture()
    assert len(picture.splitlines()) == board.size
    assert Board.from_picture(picture, board.ruleset) == board
    assert board.transposed().transposed() == board


# --- notation ----------------------------------------------------------------------------

def test_parse_across_and_down_on_the_empty_board():
    empty = Board.empty(ENGLISH)
    assert parse_play("8D RETAINS", empty) == Play(7, 3, False, codes(ENGLISH, "RETAINS"))
    assert parse_play("D8 RETAINS", empty) == Play(7, 3, True, codes(ENGLISH, "RETAINS"))
    assert parse_play("  8d  RETAINS ", empty) == Play(7, 3, False, codes(ENGLISH, "RETAINS"))
    assert parse_play("h8 qI", empty) == Play(7, 7, True, codes(ENGLISH, "qI"))
    assert parse_play("15A ZZ", empty) == Play(14, 0, False, codes(ENGLISH, "ZZ"))
    assert parse_play("O1 ZZ", empty) == Play(0, 14, True, codes(ENGLISH, "ZZ"))
    assert parse_play("1A ABCDEFGHIJKLMNO", empty).tiles == bytes(range(1, 16))


@pytest.mark.parametrize("start, down, text, notation", [
    ("D8", False, "RETAINS", "8D RETAINS"),
    ("D8", True, "RETAINS", "D8 RETAINS"),
    ("H8", False, "rETAiNS", "8H rETAiNS"),
    ("A1", False, "QI", "1A QI"),
    ("A1", True, "QI", "A1 QI"),
    ("N15", False, "XU", "15N XU"),
    ("O14", True, "XU", "O14 XU"),
    ("A10", False, "ZA", "10A ZA"),
    ("J1", True, "ZA", "J1 ZA"),
])
def test_notation_round_trip_empty_board(start, down, text, notation):
    board = Board.empty(ENGLISH)
    p = play(ENGLISH, start, down, text)
    assert p.notation(board) == notation
    assert parse_play(notation, board) == p


def test_notation_parentheses_one_pair_per_run():
    # 10B (QUOIN)s: QUOIN on B10..F10, a blank s hooked on G10
    board = lay(Board.empty(ENGLISH), "B10", False, "QUOIN")
    p = play(ENGLISH, "B10", False, "_____s")
    assert p.notation(board) == "10B (QUOIN)s"
    assert parse_play("10B (QUOIN)s", board) == p
    # G7 R(EF): E on G8, F on G9
    board = lay(Board.empty(ENGLISH), "G8", True, "EF")
    p = play(ENGLISH, "G7", True, "R__")
    assert p.notation(board) == "G7 R(EF)"
    assert parse_play("G7 R(EF)", board) == p
    # two runs: 8D BACK(BE)N(C)H on Norvig's board (WWF)
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    p = play(WWF, "D8", False, "BACK__N_H")
    assert p.notation(board) == "8D BACK(BE)N(C)H"
    assert parse_play("8D BACK(BE)N(C)H", board) == p
    # the word's letters on the board first and last
    board = retains_board()
    p = play(ENGLISH, "D4", True, "SHEA_")
    assert p.notation(board) == "D4 SHEA(R)"
    assert parse_play("D4 SHEA(R)", board) == p
    p = play(ENGLISH, "D8", True, "_E")
    assert p.notation(board) == "D8 (R)E"


def test_notation_board_blank_in_parentheses_is_lower_case():
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    p = play(WWF, "G9", True, "A_")  # an A on G9 over the blank e on G10
    assert p.notation(board) == "G9 A(e)"
    assert parse_play("G9 A(e)", board) == p
    assert parse_play("G9 A(E)", board) == p  # the board's letter, whatever case it is written in


def test_gcg_dots_accepted_on_input():
    board = lay(Board.empty(ENGLISH), "G8", True, "EF")
    assert parse_play("G7 R..", board) == parse_play("G7 R(EF)", board) == play(ENGLISH, "G7", True, "R__")
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    p = parse_play("8D BACK..N.H", board)
    assert p == play(WWF, "D8", False, "BACK__N_H")
    assert p.notation(board) == "8D BACK(BE)N(C)H"


def test_board_letters_spelled_out_are_played_through():
    board = lay(Board.empty(ENGLISH), "G8", True, "EF")
    assert parse_play("G7 REF", board) == parse_play("G7 Ref", board) == play(ENGLISH, "G7", True, "R__")
    assert parse_play("G7 R(EF)", board) == parse_play("G7 R..", board) == play(ENGLISH, "G7", True, "R__")
    with pytest.raises(PlayError, match="G9 holds F, not X"):
        parse_play("G7 REX", board)


def test_spanish_notation():
    empty = Board.empty(SPANISH)
    p = play(SPANISH, "H8", False, "[CH]E")
    assert p.notation(empty) == "8H [CH]E"
    assert parse_play("8H [CH]E", empty) == p
    assert parse_play("8H CHE", empty) == p  # longest match: CH is one tile
    assert parse_play("8H [ch]E", empty) == play(SPANISH, "H8", False, "[ch]E")
    assert play(SPANISH, "H8", False, "[ch]E").notation(empty) == "8H [ch]E"
    board = lay(empty, "H8", False, "[CH]E")
    p = play(SPANISH, "H7", True, "O_")
    assert p.notation(board) == "H7 O([CH])"
    assert parse_play("H7 O([CH])", board) == p


@pytest.mark.parametrize("text, message", [
    ("8H", "not a play"),
    ("RETAINS 8H", "not a play"),
    ("H RETAINS", "not a play"),
    ("88 RETAINS", "not a play"),
    ("8H8 RETAINS", "not a play"),
    ("8H RE TAINS", "not a play"),
    ("0H AT", "off the board"),
    ("16A AT", "off the board"),
    ("8P AT", "off the board"),
    ("P8 AT", "off the board"),
    ("Z1 AT", "off the board"),
    ("8L RETAINS", "off the board"),
    ("L10 RETAINS", "off the board"),
    ("8O AT", "off the board"),
    ("8H A1", "not a letter"),
    ("8H A?", "not a letter"),
    ("8H [XY]", "not a tile"),
    ("8H AT)", r"'\)' without '\('"),
    ("8H [AT", r"'\[' without '\]'"),
])
def test_unreadable_or_off_board_notation(text, message):
    with pytest.raises(PlayError, match=message):
        parse_play(text, Board.empty(ENGLISH))


@pytest.mark.parametrize("text, message", [
    ("8H (AT", r"'\(' without '\)'"),
    ("8H (A)T)", r"'\)' without '\('"),
    ("8H ((AT))", "nested"),
])
def test_unbalanced_parentheses(text, message):
    board = lay(Board.empty(ENGLISH), "H8", False, "AT")
    with pytest.raises(PlayError, match=message):
        parse_play(text, board)


@pytest.mark.parametrize("text", ["8H ß", "8H ßA", "8H Aﬁ"])
def test_characters_that_change_length_when_upper_cased_are_not_letters(text):
    # "8H ßA" is read as a blank s and a natural S (the A is lost); "8H Aﬁ" as A and a blank f
    with pytest.raises(PlayError, match="not a letter"):
        parse_play(text, Board.empty(ENGLISH))


def test_notation_checked_against_the_board():
    board = retains_board()
    with pytest.raises(PlayError, match="D8 holds R, not S"):
        parse_play("D4 SHEA(S)", board)
    with pytest.raises(PlayError, match="D9 is empty"):
        parse_play("D7 A(RE)", board)
    with pytest.raises(PlayError, match="D9 is empty"):
        parse_play("D7 A..", board)
    with pytest.raises(PlayError, match="H9 is empty"):
        parse_play("9H .O", board)
    with pytest.raises(PlayError, match="empty"):
        parse_play("8A (RETAINS)", board)


# --- scoring -----------------------------------------------------------------------------

def test_premium_layout_facts_used_below():
    """The squares the hand computations rely on (read off the TOML layouts)."""
    e, w, t = ENGLISH.premiums, WWF.premiums, TINY.premiums
    assert e[7][3] == DL and e[7][7] == DW and e[3][3] == DW and e[8][8] == DL and e[8][7] == NONE
    assert e[0][0] == TW and e[0][3] == DL and e[0][2] == NONE
    assert w[7][3] == DW and w[7][11] == DW and w[7][7] == NONE and w[3][0] == TW and w[3][3] == TL
    assert t[3][3] == DW and t[0][0] == TW and t[0][6] == TW and t[0][2] == DL and t[0][4] == DL
    n = 15
    assert all(w[r][c] == w[c][r] for r in range(n) for c in range(n))  # WWF symmetric on the diagonal


def test_norvig_backbench_scores_116_on_wwf():
    """Norvig: 'The sum of the letter point values is 3+1+3+5+3+1+1+3+4 = 24, and
    24x2x2 = 96. The cross word AMUSES scores 8, and THE is on a double word bonus, so it
    scores 6x2 = 12 ... a total score of 96 + 8 + 12 = 116.' (His Play(start=140, dir=1,
    letters='BACKBENCH'): square 140 is row 8, column D.)"""
    board = Board.from_picture(NORVIG_PICTURE, WWF)
    p = play(WWF, "D8", False, "BACK__N_H")
    assert score(board, p) == 116
    a = WWF.alphabet
    formed = words_formed(board, p)
    assert [a.decode(w.codes) for w in formed] == ["BACKBENCH", "AMUSES", "THE"]
    assert formed[0] == FormedWord(7, 3, False, a.encode("BACKBENCH"),
                                   (True, True, True, True, False, False, True, False, True))
    assert formed[1] == FormedWord(7, 4, True, a.encode("AMUSES"), (True, False, False, False, False, False))
    assert formed[2] == FormedWord(6, 11, True, a.encode("THE"), (False, True, False))
    # the same play down on the transposed board scores the same
    t = board.transposed()
    assert score(t, Play(3, 7, True, p.tiles)) == 116


@pytest.mark.parametrize("picture_plays, start, down, text, expected", [
    # first play 8D RETAINS: R on D8 (DL) 1x2 = 2, E T A I N S = 6, I on H8 (DW start):
    # (2 + 6) x 2 = 16, 7 tiles: + 50 = 66
    ([], "D8", False, "RETAINS", 66),
    # the same with the R a blank: 0 + 6 = 6, x2 = 12, + 50 = 62
    ([], "D8", False, "rETAINS", 62),
    # two blanks: r (D8) 0, E T A 3, i (H8) 0, N S 2: 5 x 2 = 10, + 50 = 60
    ([], "D8", False, "rETAiNS", 60),
    # a blank on the DW start still doubles the word: 8H Qi: (10 + 0) x 2 = 20
    ([], "H8", False, "Qi", 20),
    # all blanks: 0
    ([], "H8", False, "qi", 0),
    # D4 SHEA(R): S on D4 (DW) 1, H 4, E 1, A 1 (D5-D7 plain), R old on D8 (its DL does not
    # count) 1: 8 x 2 = 16
    ([("D8", False, "RETAINS")], "D4", True, "SHEA_", 16),
    # H6 AL(I)EN through the I on the DW start H8: 1+1+1+1+1 = 5, no doubling
    ([("D8", False, "RETAINS")], "H6", True, "AL_EN", 5),
    # 9H NO under RETAINS: NO = N (H9 plain) 1 + O (I9 DL) 2 = 3; cross IN = I (old, on H8
    # whose DW no longer counts) 1 + N 1 = 2; cross NO = N (old) 1 + O (DL) 2 = 3: 8
    ([("D8", False, "RETAINS")], "H9", False, "NO", 8),
    # the same one tile at a time: H at J9 under S: SH = 1 + 4 = 5 (J9 plain)
    ([("D8", False, "RETAINS")], "J8", True, "_H", 5),
    # 1A QU(I)Z on the TW A1 and the DL D1, the I on C1 already there (part of C1 IT):
    # (10 + 1 + 1 + 10x2) x 3 = 96
    ([("C1", True, "IT")], "A1", False, "QU_Z", 96),
    # two word premiums multiply: D4 ABCD(R)EFGH on D4..D12 with the R of RETAINS on D8:
    # A on D4 (DW), B C D on D5-D7 (plain), R old, E F G on D9-D11 (plain), H on D12 (DW):
    # 1+3+3+2+1+1+4+2+4 = 21, x2 x2 = 84; 8 tiles placed is not a 7-tile rack: no bingo
    ([("D8", False, "RETAINS")], "D4", True, "ABCD_EFGH", 84),
])
def test_english_scores(picture_plays, start, down, text, expected):
    board = Board.empty(ENGLISH)
    for s, d, t in picture_plays:
        board = lay(board, s, d, t)
    assert score(board, play(ENGLISH, start, down, text)) == expected


def test_english_premium_facts_for_the_double_double():
    e = ENGLISH.premiums
    assert e[3][3] == DW and e[11][3] == DW
    assert all(e[r][3] == NONE for r in (4, 5, 6, 8, 9, 10))


def test_one_tile_forming_two_words_counts_its_premium_in_both():
    # board RETAINS + N on H9; an O on I9 (DL) forms NO across (N old 1 + O 1x2 = 3) and NO
    # down (N of RETAINS 1 + O 1x2 = 3): 6
    board = lay(retains_board(), "H9", False, "N")
    assert score(board, play(ENGLISH, "H9", False, "_O")) == 6
    assert score(board, play(ENGLISH, "I8", True, "_O")) == 6  # same tile, written down


def test_scoring_ignores_lexicon_and_counts_cross_words_in_full():
    # an S on K8 extends RETAINS to RETAINSS (not a word: scoring does not care): the old
    # letters count in full without their premiums (R on the DL D8, I on the DW H8):
    # R E T A I N S 7 + S on K8 (plain) 1 = 8
    assert ENGLISH.premiums[7][10] == NONE
    assert score(retains_board(), play(ENGLISH, "D8", False, "_______S")) == 8


def test_wwf_scores():
    empty = Board.empty(WWF)
    # first play 8D RETAINS on WWF: D8 is DW, the start H8 has no premium: 7 x 2 = 14,
    # bingo 35: 49
    assert score(empty, play(WWF, "D8", False, "RETAINS")) == 49
    # 8H AT: the start square is plain on WWF: 1 + 1 = 2
    assert score(empty, play(WWF, "H8", False, "AT")) == 2
    # 4A QUIZ: Q on A4 (TW), Z on D4 (TL): (10 + 1 + 1 + 10x3) x 3 = 126
    assert score(empty, play(WWF, "A4", False, "QUIZ")) == 126


def test_tiny_scores():
    empty = Board.empty(TINY)
    # 4B CAT: C 3, A 1, T on D4 (DW start) 1: 5 x 2 = 10
    assert score(empty, play(TINY, "B4", False, "CAT")) == 10
    # 4B CRATE: 3+1+1+1+1 = 7, A on D4 DW: 14, five tiles = the tiny rack: + 20 = 34
    assert score(empty, play(TINY, "B4", False, "CRATE")) == 34
    # 1A PL(A)Y(E)RS: P on A1 (TW) 3, L 1, A old on C1 (DL not counted) 1, Y 4, E old on E1
    # (DL not counted) 1, R 1, S on G1 (TW) 1: 12 x 3 x 3 = 108, five tiles: + 20 = 128
    board = lay(lay(empty, "C1", True, "AT"), "E1", True, "EH")
    assert score(board, play(TINY, "A1", False, "PL_Y_RS")) == 128
    # the same word with the P a blank: 9 x 9 = 81 + 20 = 101
    assert score(board, play(TINY, "A1", False, "pL_Y_RS")) == 101


def test_spanish_scores():
    empty = Board.empty(SPANISH)
    # 8H [CH]E: CH (5) on H8 (DW start), E 1: 6 x 2 = 12
    assert score(empty, play(SPANISH, "H8", False, "[CH]E")) == 12
    # with a blank CH: (0 + 1) x 2 = 2
    assert score(empty, play(SPANISH, "H8", False, "[ch]E")) == 2


def test_words_formed_lists_the_main_word_even_when_one_letter():
    board = retains_board()
    formed = words_formed(board, play(ENGLISH, "J9", False, "H"))  # the H under S, written across
    a = ENGLISH.alphabet
    assert [a.decode(w.codes) for w in formed] == ["H", "SH"]
    assert formed[1] == FormedWord(7, 9, True, a.encode("SH"), (False, True))
    # written down, SH is the main word and there is no cross word
    formed = words_formed(board, play(ENGLISH, "J8", True, "_H"))
    assert [a.decode(w.codes) for w in formed] == ["SH"]
    # blanks keep their flag in formed words
    formed = words_formed(Board.empty(ENGLISH), play(ENGLISH, "H8", False, "Qi"))
    assert formed[0].codes == codes(ENGLISH, "Qi")


def reference_score(board: Board, placed: dict) -> int:
    """An independent scorer straight from the rules: every maximal run of two or more
    tiles (across or down) through a newly placed tile scores its letters (blanks 0), the
    letter premiums under new tiles, times the word premiums under new tiles; + the bingo
    bonus for a whole rack."""
    ruleset, n = board.ruleset, board.size
    grid = [[placed.get((r, c)) or board.at(r, c) for c in range(n)] for r in range(n)]
    seen, total = set(), 0
    for r0, c0 in placed:
        for dr, dc in ((0, 1), (1, 0)):
            r, c = r0, c0
            while r - dr >= 0 and c - dc >= 0 and grid[r - dr][c - dc]:
                r, c = r - dr, c - dc
            run = []
            while r < n and c < n and grid[r][c]:
                run.append((r, c))
                r, c = r + dr, c + dc
            if len(run) < 2 or (run[0], dr) in seen:
                continue
            seen.add((run[0], dr))
            points, factor = 0, 1
            for r, c in run:
                tile = grid[r][c]
                value = 0 if tile & BLANK_FLAG else ruleset.tiles[tile - 1].value
                if (r, c) in placed:
                    letter, word = ruleset.premiums[r][c]
                    value *= letter
                    factor *= word
                points += value
            total += points * factor
    if len(placed) == ruleset.rack_size:
        total += ruleset.bingo_bonus
    return total


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_score_matches_a_reference_scorer(data):
    board = data.draw(boards())
    ruleset, n = board.ruleset, board.size
    down = data.draw(st.booleans())
    line = data.draw(st.integers(0, n - 1))
    start = data.draw(st.integers(0, n - 1))
    length = data.draw(st.integers(1, n - start))
    squares = [(start + i, line) if down else (line, start + i) for i in range(length)]
    empties = [s for s in squares if not board.at(*s)]
    if not empties:
        return
    letters = data.draw(st.lists(st.integers(1, len(ruleset.alphabet)), min_size=len(empties), max_size=len(empties)))
    blanks = data.draw(st.lists(st.booleans(), min_size=len(empties), max_size=len(empties)))
    placed = {s: code | (BLANK_FLAG if blank else 0) for s, code, blank in zip(empties, letters, blanks, strict=True)}
    p = Play(squares[0][0], squares[0][1], down, bytes(placed.get(s, THROUGH) for s in squares))
    assert score(board, p) == reference_score(board, placed)
    # the premium layouts are symmetric on the diagonal: the transposed play scores the same
    t = Play(p.col, p.row, not p.down, p.tiles)
    assert score(board.transposed(), t) == score(board, p)


def test_cgp_racks_are_read_as_racks_with_bracketed_tiles():
    empty = "/".join(["15"] * 15)
    assert parse_cgp(f"{empty} [CH]A[LL]?/ 0/0 0", SPANISH).rack == "[CH]A[LL]?"
    with pytest.raises(PositionError, match="CHX"):
        parse_cgp(f"{empty} [CHX]/ 0/0 0", SPANISH)  # one bracketed tile, not CH then X


# -- what the referee remembers and looks up at once -----------------------------------------

def test_a_board_remembers_each_lane_scoring_as_computed():
    """``lane_scoring`` keeps a board's lanes (a board never changes): the kept one is the one
    computed afresh, for every lane of a position, and a ruleset other than the board's is
    computed, never taken from the board."""
    from lexc.board.scoring import _lane_scoring, lane_scoring

    board = parse_cgp("ZAX12/14Q/15/15/15/15/15/6CAT6/15/15/15/15/15/14A/JO13", ENGLISH).board
    for down in (False, True):
        for index in range(board.size):
            kept = lane_scoring(board, index, down)
            assert kept is lane_scoring(board, index, down)
            assert kept == _lane_scoring(board, index, down, board.ruleset)
    other = WWF
    assert (lane_scoring(board, 7, False, other) == _lane_scoring(board, 7, False, other)
            != lane_scoring(board, 7, False))


@pytest.mark.parametrize("name", ["english", "spanish", "catalan", "polish", "wwf", "tiny"])
def test_char_codes_read_each_character_as_the_alphabet_does(name):
    """The one-character table notation reads tiles with is what the alphabet's longest
    match and its case rule give; an alphabet with a multi-character tile has none."""
    from lexc.alphabet import fold

    alphabet = load_ruleset(name).alphabet
    table = alphabet.char_codes()
    assert (table is None) == (not alphabet.single_char)
    for ch, code in (table or {}).items():
        assert alphabet.split(fold(ch)) == [fold(ch)]
        assert code & ~BLANK_FLAG == alphabet.code(ch) and bool(code & BLANK_FLAG) == (ch != fold(ch))
    if table:
        assert {alphabet.label(c) for c in table.values()} == set(table)  # each label, upper and lower case
