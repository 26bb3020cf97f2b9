"""Tests for lexc.ruleset: the bundled rulesets and validation of ruleset files."""

from __future__ import annotations

from importlib.resources import files

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexc.alphabet import BLANK_FLAG
from lexc.ruleset import PREMIUMS, Ruleset, RulesetError, Tile, available, load_ruleset

NONE, DL, TL, DW, TW = (1, 1), (2, 1), (3, 1), (1, 2), (1, 3)


def square(ruleset: Ruleset, name: str) -> tuple[int, int]:
    """The premium of a square named column letter + row number, e.g. "H8"."""
    col, row = ord(name[0]) - ord("A"), int(name[1:]) - 1
    return ruleset.premiums[row][col]


# --- the bundled rulesets ------------------------------------------------------------------

def test_available_lists_the_bundled_files():
    assert available() == ["catalan", "english", "norwegian", "polish", "spanish", "swedish", "tiny", "wwf"]


@pytest.mark.parametrize(
    "name, total, size, start, bingo, rack, letters",
    [
        ("english", 100, 15, (7, 7), 50, 7, 26),
        ("wwf", 104, 15, (7, 7), 35, 7, 26),
        ("spanish", 100, 15, (7, 7), 50, 7, 28),
        ("norwegian", 100, 15, (7, 7), 50, 7, 32),
        ("swedish", 100, 15, (7, 7), 50, 7, 31),
        ("tiny", 40, 7, (3, 3), 20, 5, 26),
    ],
)
def test_bundled_ruleset_facts(name, total, size, start, bingo, rack, letters):
    r = load_ruleset(name)
    assert r.name == name
    assert r.tile_total == total == sum(t.count for t in r.tiles) + r.blanks
    assert r.board_size == size == len(r.premiums) == len(r.board_rows)
    assert all(len(row) == size for row in r.premiums)
    assert r.start == start
    assert r.bingo_bonus == bingo and r.rack_size == rack
    assert len(r.alphabet) == letters == len(r.tiles)
    assert [t.code for t in r.tiles] == list(r.alphabet.codes)
    assert [t.label for t in r.tiles] == list(r.alphabet.labels)
    assert r.blank_value == 0 and r.count(0) == r.blanks
    assert r.source.endswith(f"{name}.toml")


def test_summary_is_json_friendly():
    import json

    s = load_ruleset("english").summary()
    assert json.loads(json.dumps(s)) == s
    assert s["start"] == "8H" and s["tile_total"] == 100 and s["blanks"] == 2
    assert s["letters"][:3] == ["A", "B", "C"]
    assert s["tiles"][16] == {"label": "Q", "count": 1, "value": 10}
    assert load_ruleset("tiny").summary()["start"] == "4D"


def test_load_is_cached_and_path_loads_equal_bundled():
    assert load_ruleset("english") is load_ruleset("english")
    path = str(files("lexc") / "rulesets" / "english.toml")
    by_path = load_ruleset(path)
    assert by_path.premiums == load_ruleset("english").premiums
    assert by_path.tiles == load_ruleset("english").tiles


def test_english_premium_squares():
    r = load_ruleset("english")
    assert square(r, "A1") == TW and square(r, "H1") == TW and square(r, "O15") == TW
    assert square(r, "H8") == DW  # the start square
    assert square(r, "B2") == DW and square(r, "N14") == DW
    assert square(r, "F2") == TL and square(r, "F6") == TL
    assert square(r, "D1") == DL and square(r, "G7") == DL
    assert square(r, "A2") == NONE
    flat = [p for row in r.premiums for p in row]
    assert (flat.count(TW), flat.count(DW), flat.count(TL), flat.count(DL)) == (8, 17, 12, 24)
    # the standard board has the symmetries of the square
    grid = r.premiums
    assert all(grid[i][j] == grid[j][i] == grid[14 - i][j] == grid[i][14 - j] for i in range(15) for j in range(15))
    assert load_ruleset("spanish").premiums == grid


# Norvig's WWF picture, copied from the seed notebook (inside its '#' border).
WWF_SEED = """
. . . = . . ; . ; . . = . . .
. . : . . - . . . - . . : . .
. : . . : . . . . . : . . : .
= . . ; . . . - . . . ; . . =
. . : . . . : . : . . . : . .
. - . . . ; . . . ; . . . - .
; . . . : . . . . . : . . . ;
. . . - . . . * . . . - . . .
; . . . : . . . . . : . . . ;
. - . . . ; . . . ; . . . - .
. . : . . . : . : . . . : . .
= . . ; . . . - . . . ; . . =
. : . . : . . . . . : . . : .
. . : . . - . . . - . . : . .
. . . = . . ; . ; . . = . . .
"""


def test_wwf_board_matches_the_seed_picture():
    r = load_ruleset("wwf")
    seed = {".": NONE, ":": DL, ";": TL, "-": DW, "=": TW, "*": NONE}
    expected = tuple(tuple(seed[c] for c in line.split()) for line in WWF_SEED.strip().splitlines())
    assert r.premiums == expected
    assert square(r, "A1") == NONE  # WWF corners are not TW
    assert square(r, "D1") == TW and square(r, "A4") == TW
    assert square(r, "G1") == TL and square(r, "C2") == DL and square(r, "F2") == DW
    assert square(r, "H8") == NONE  # the WWF star gives no bonus


def test_tile_values_and_counts():
    r = load_ruleset("english")
    code = r.alphabet.code
    assert r.value(code("Q")) == 10 and r.value(code("Z")) == 10 and r.value(code("E")) == 1
    assert r.count(code("E")) == 12 and r.count(code("Z")) == 1
    assert r.value(0) == 0
    assert r.value(code("Q") | BLANK_FLAG) == 0  # a blank standing for Q scores nothing
    assert r.tiles[code("Q") - 1] == Tile("Q", code("Q"), 1, 10)
    wwf = load_ruleset("wwf")
    assert wwf.count(wwf.alphabet.code("E")) == 13 and wwf.count(0) == 2


def test_spanish_multi_character_tiles():
    r = load_ruleset("spanish")
    labels = r.alphabet.labels
    assert len(labels) == 28
    assert {"CH", "LL", "RR", "Ñ"} <= set(labels)
    assert labels.index("CH") == labels.index("C") + 1 and labels.index("Ñ") == labels.index("N") + 1
    code = r.alphabet.code
    assert list(r.alphabet.encode("CHURRO")) == [code("CH"), code("U"), code("RR"), code("O")]
    assert r.value(code("Ñ")) == 8 and r.value(code("Ñ") | BLANK_FLAG) == 0


# --- validation ------------------------------------------------------------------------------

GOOD = """
name = "mini"
description = "a 3x3 test"
rack_size = 2
bingo_bonus = 10
tile_total = 5
[tiles]
A = [2, 1]
B = [2, 3]
"?" = [1, 0]
[board]
legend = { "." = "none", "-" = "DW", "*" = "DL" }
start = "*"
rows = [
    "- . -",
    ". * .",
    "- . -",
]
"""


def write(tmp_path, text: str, name: str = "bad.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_good_base_file_loads(tmp_path):
    r = load_ruleset(write(tmp_path, GOOD, "good.toml"))
    assert r.name == "mini" and r.board_size == 3 and r.start == (1, 1)
    assert r.premiums[1][1] == DL and r.premiums[0][0] == DW and r.tile_total == 5


BAD = {
    "non-square board": (GOOD.replace('". * .",', '". * . .",'), "must be square"),
    "unknown premium character": (GOOD.replace('"- . -",\n]', '"- x -",\n]'), "'x' is not in board.legend"),
    "unknown premium name": (GOOD.replace('"DW"', '"DDW"'), "unknown premium 'DDW'"),
    "two start squares": (GOOD.replace('"- . -",\n]', '"- * -",\n]'), "exactly one start square"),
    "no start square": (GOOD.replace('". * .",', '". . .",'), "exactly one start square"),
    "start not in legend": (GOOD.replace('start = "*"', 'start = "@"'), "board.start"),
    "wrong tile_total": (GOOD.replace("tile_total = 5", "tile_total = 6"), "tile_total is 6"),
    "unknown key": (GOOD.replace("bingo_bonus", "bingo_bonsu"), "unknown key 'bingo_bonsu'"),
    "unknown board key": (GOOD.replace('start = "*"', 'start = "*"\nsize = 3'), "unknown key 'board.size'"),
    "missing key": (GOOD.replace('description = "a 3x3 test"\n', ""), "missing key description"),
    "wrong type": (GOOD.replace("rack_size = 2", 'rack_size = "2"'), "rack_size must be an integer"),
    "boolean is not an integer": (GOOD.replace("rack_size = 2", "rack_size = true"), "rack_size"),
    "syntax error": (GOOD.replace("rack_size = 2", "rack_size = = 2"), "TOML syntax error"),
    "negative count": (GOOD.replace("A = [2, 1]", "A = [-2, 1]"), "non-negative"),
    "bad tile entry": (GOOD.replace("A = [2, 1]", "A = 2"), "[count, value]"),
    "no blank entry": (GOOD.replace('"?" = [1, 0]\n', "").replace("tile_total = 5", "tile_total = 4"), "no blank"),
    "rack larger than the bag": (GOOD.replace("rack_size = 2", "rack_size = 6"), "rack_size"),
    "bad label": (GOOD.replace("B = [2, 3]", '"B*" = [2, 3]'), "bad tiles"),
    "duplicate label after folding": (GOOD.replace("B = [2, 3]", "a = [2, 3]"), "distinct"),
    "vowels not an array": (GOOD.replace("tile_total = 5", 'tile_total = 5\nvowels = "A"'), "vowels must be an array"),
    "vowel outside the alphabet": (GOOD.replace("tile_total = 5", 'tile_total = 5\nvowels = ["E"]'),
                                   "'E' is not a label"),
    "the blank as a vowel": (GOOD.replace("tile_total = 5", 'tile_total = 5\nvowels = ["?"]'), "the blank is neither"),
    "a vowel twice": (GOOD.replace("tile_total = 5", 'tile_total = 5\nvowels = ["A", "a"]'), "twice"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_ruleset_raises_one_line_error(tmp_path, case):
    text, fragment = BAD[case]
    assert text != GOOD, "the mutation did not apply"
    path = write(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(path + ": ")
    assert fragment in message


def test_vowels_listed_or_by_default(tmp_path):
    """A ruleset's vowels: the labels its ``vowels`` lists, else A, E, I, O, U with any accent;
    the blank is neither vowel nor consonant."""
    plain = load_ruleset(write(tmp_path, GOOD, "plain.toml"))
    assert [plain.alphabet.label(c) for c in plain.vowels] == ["A"]
    assert not plain.is_vowel(0) and not plain.is_vowel(plain.alphabet.code("B"))
    listed = load_ruleset(write(tmp_path, GOOD.replace("tile_total = 5", 'tile_total = 5\nvowels = ["B"]'), "b.toml"))
    assert [listed.alphabet.label(c) for c in listed.vowels] == ["B"] and not listed.is_vowel(1)
    none = load_ruleset(write(tmp_path, GOOD.replace("tile_total = 5", "tile_total = 5\nvowels = []"), "n.toml"))
    assert none.vowels == ()
    assert load_ruleset("english").summary()["vowels"] == ["A", "E", "I", "O", "U"]
    polish = load_ruleset("polish")
    assert {polish.alphabet.label(c) for c in polish.vowels} == set("AĄEĘIOÓUY")  # (Y is a Polish vowel)
    for name in available():  # every bundled ruleset lists its vowels (a letter may have no tile: Ü)
        ruleset = load_ruleset(name)
        assert "\nvowels = [" in ruleset.text and ruleset.vowels
        assert any(ruleset.count(code) for code in ruleset.vowels)


def test_unknown_name_and_missing_file(tmp_path):
    with pytest.raises(RulesetError, match=r"no such ruleset.*english"):
        load_ruleset("klingon")
    with pytest.raises(RulesetError, match="cannot read"):
        load_ruleset(str(tmp_path / "missing.toml"))


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(GOOD.replace('"a 3x3 test"', '"Ñ"').encode("latin-1"))
    with pytest.raises(RulesetError, match="UTF-8"):
        load_ruleset(str(path))


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_any_square_board_round_trips(tmp_path_factory, data):
    size = data.draw(st.integers(1, 9))
    chars = dict(zip(".:;-=", ["none", "DL", "TL", "DW", "TW"], strict=True))
    grid = [[data.draw(st.sampled_from(sorted(chars))) for _ in range(size)] for _ in range(size)]
    row, col = data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1))
    grid[row][col] = "*"
    rows = ",\n".join('"' + " ".join(line) + '"' for line in grid)
    text = GOOD.split("[board]")[0].replace("rack_size = 2", "rack_size = 1")
    text += '[board]\nlegend = { "." = "none", ":" = "DL", ";" = "TL", "-" = "DW", "=" = "TW", "*" = "QW" }\n'
    text += f'start = "*"\nrows = [\n{rows}\n]\n'
    path = tmp_path_factory.mktemp("board") / "r.toml"
    path.write_text(text, encoding="utf-8")
    r = load_ruleset(str(path))
    assert r.start == (row, col) and r.board_size == size
    expected = [[PREMIUMS[chars[c]] if c != "*" else PREMIUMS["QW"] for c in line] for line in grid]
    assert [list(line) for line in r.premiums] == expected
