"""Tests for the small pieces the pure-Python move generators and the referee are built from:
notation written from a lane (``coordinate``, ``spelled``, ``tile_texts``), the rack's
remembered mappings (``Rack.remembered``, ``Remembered``) and each trie format's
``children_among``. Each is held to the slower, plainer code it stands in for."""

from __future__ import annotations

import random

import pytest

from lexc.alphabet import BLANK_FLAG
from lexc.board.board import Board, square_name, tile_text
from lexc.board.notation import THROUGH, Play, coordinate, spelled, tile_texts
from lexc.formats import FORMATS
from lexc.formats.base import Capability
from lexc.movegen.rack import Rack, Remembered
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from lexicons import LEXICON_KINDS, SMALL, build_kind, format_of

RULESETS = ("english", "spanish", "catalan")


def random_board(ruleset, rng: random.Random) -> Board:
    """A board with tiles (natural and blank) on about a third of its squares."""
    codes = list(ruleset.alphabet.codes)
    n = ruleset.board_size
    rows = [bytes(rng.choice(codes) | (BLANK_FLAG if rng.random() < 0.1 else 0) if rng.random() < 0.35 else 0
                  for _ in range(n)) for _ in range(n)]
    return Board(ruleset, tuple(rows))


@pytest.mark.parametrize("name", RULESETS)
def test_spelled_and_coordinate_write_what_play_notation_did(name):
    """``coordinate`` + ``spelled`` over a line give the notation written square by square
    (each tile's ``tile_text``, board runs in parentheses), for plays across and down."""
    ruleset = load_ruleset(name)
    rng = random.Random(name)
    alphabet = ruleset.alphabet
    texts = tile_texts(alphabet)
    for _ in range(200):
        board = random_board(ruleset, rng)
        n = board.size
        down = rng.random() < 0.5
        index, start = rng.randrange(n), rng.randrange(n)
        line = board.line(index, down)
        length = rng.randint(1, n - start)
        tiles = bytes(THROUGH if line[i] else rng.choice(list(alphabet.codes)) | (BLANK_FLAG if rng.random() < 0.2
                                                                                    else 0)
                      for i in range(start, start + length))
        row, col = (start, index) if down else (index, start)
        written, inside = "", False
        for i, code in enumerate(tiles, start):
            if (code == THROUGH) != inside:
                written += "(" if not inside else ")"
                inside = not inside
            written += tile_text(alphabet, code or line[i])
        written += ")" if inside else ""
        name_ = square_name(row, col)
        expected = f"{name_ if down else f'{row + 1}{name_[0]}'} {written}"
        assert f"{coordinate(row, col, down)} {spelled(texts, line, start, tiles)}" == expected
        assert Play(row, col, down, tiles).notation(board) == expected


def test_tile_texts_by_code():
    """Upper case for a tile, lower case for a blank, brackets around a multi-character
    label; codes outside the alphabet as ``decode`` writes them."""
    alphabet = load_ruleset("spanish").alphabet
    texts = tile_texts(alphabet)
    assert len(texts) == 256
    for code in alphabet.codes:
        assert texts[code] == tile_text(alphabet, code)
        assert texts[code | BLANK_FLAG] == tile_text(alphabet, code | BLANK_FLAG)
    assert any(text.startswith("[") for text in texts)  # Spanish has CH, LL, RR
    assert texts[0] == alphabet.decode(b"\x00")
    assert tile_texts(alphabet) is texts  # remembered


def test_remembered_computes_each_key_once():
    calls = []
    mapping = Remembered(lambda key: calls.append(key) or key * 2)
    assert mapping[3] == 6 and mapping[3] == 6 and mapping[4] == 8
    assert calls == [3, 4]
    rack = Rack(load_ruleset("english").alphabet, [1, 2], 0)
    first = rack.remembered("double", lambda key: key * 2)
    assert rack.remembered("double", lambda key: key * 3) is first  # one mapping per name and position
    assert first[5] == 10


@pytest.mark.parametrize("kind", [k for k in LEXICON_KINDS if Capability.TRIE in FORMATS[format_of(k)].capabilities])
def test_children_among_is_children_filtered(kind):
    """Every trie format's ``children_among`` is ``children`` kept to the letters of the
    mask, in the same order, from the root and from nodes below it."""
    english = load_ruleset("english")
    lexicon = build_kind(from_words(SMALL["paper"] + SMALL["nest"], english.alphabet, min_len=1), kind)
    rng = random.Random(kind)
    nodes = [lexicon.root()]
    for node in nodes[:40]:
        nodes += [sub for _, sub in lexicon.children(node)]
    masks = [-1, 0, sum(1 << c for c in english.alphabet.codes)] + [rng.getrandbits(28) for _ in range(20)]
    for node in nodes:
        children = list(lexicon.children(node))
        for mask in masks:
            assert lexicon.children_among(node, mask) == [(c, sub) for c, sub in children if mask >> c & 1]
