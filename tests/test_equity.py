"""Static equity (``lexc.equity``): MAGPIE's own evaluation of every move of the 100 built-in
positions, the rule on generated cases, the equity player and ``lexc moves --leaves``.

The golden: ``../shared/interop/magpie/equity-enable-twl06.jsonl`` (and ``-bag0.jsonl``, the 16
positions with at most 7 unseen tiles rerun with the opponent's rack given, so the bag is
empty), MAGPIE@183bebc4's ``gen`` of every move with its KWG of ENABLE (``TWL_ENABLE.kwg``: the
words of up to 15 letters) and MAGPIE-DATA's ``TWL06.klv2``, read where they are
(``tests/interop.py``). lexc, reading the same two files, must list the same moves, and give
each the score, leave value and equity MAGPIE gives it. What MAGPIE lists differently, and
how the comparison allows for it (``docs/equity.md`` states it too):

- On the empty board MAGPIE lists each play once, across: lexc lists both directions, so the
  golden is compared with lexc's list across only (``mirror=False``), and the down plays are
  checked to be the across plays mirrored, with their score, leave value and equity.
- MAGPIE never values the pass: it prints -1000.00 for it, a display sentinel, and ranks it
  last. lexc's pass has no equity (None) and ranks last; its score and leave value (the whole
  rack's, as the golden records it) are compared.
- MAGPIE prints an equity to 1/100 point: lexc's equity, in milli-points, must print the same
  (``%.2f``), and its leave value must equal the golden's to 1/1000 (MAGPIE's own unit).
- Exchanges only while the bag and the opponent's rack hold 14 tiles: the same rule in lexc, so
  the sets of moves are compared whole.
"""

from __future__ import annotations

import json
import struct
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rulegen
from interop import engine_file, engine_lines
from lexc import formats, native
from lexc.alphabet import BLANK_FLAG
from lexc.board.board import Board, parse_cgp
from lexc.board.notation import THROUGH, parse_play
from lexc.equity import (
    MAGPIE,
    EquityError,
    EquityRule,
    Situation,
    SubRacks,
    candidates,
    check_table,
    milli,
)
from lexc.formats.foreign import read_foreign, recognise
from lexc.formats.leaves import EXACT, LeaveTable, read_leaves
from lexc.formats.magpie import is_vowel
from lexc.game.manager import GameManager, check_replay
from lexc.game.players import Action, ProgramPlayer, TurnView, action_of
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from test_cli import assert_one_error_line, run_main

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = load_ruleset("english")
EXAMPLE_LEAVES = ROOT / "docs" / "examples" / "leaves.csv"
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


# -- the engines' files ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def twl06() -> LeaveTable:
    """MAGPIE-DATA's TWL06.klv2, read where it is."""
    return read_leaves(engine_file("magpie", "magpie-data", "TWL06.klv2"), ENGLISH)


def magpie_enable(backend: native.Backend):
    """MAGPIE's KWG of ENABLE, read by lexc on a backend."""
    path = engine_file("magpie", "TWL_ENABLE.kwg")
    return read_foreign(path, recognise(path), ENGLISH, backend)


def lexc_notation(move: str) -> str:
    """MAGPIE's notation as lexc writes it: a placement is the same (``8G VORTEX`` across,
    ``G8 ...`` down, ``(X)`` a tile on the board, lower case a blank); ``(exch ?AB)`` is
    ``-AB?`` (GCG: the letters in order, then the blanks); ``pass`` is ``-``."""
    if move == "pass":
        return "-"
    if move.startswith("(exch ") and move.endswith(")"):
        tiles = move[len("(exch "):-1]
        return "-" + "".join(sorted(tiles.replace("?", ""))) + "?" * tiles.count("?")
    return move


def printed(milli_points: int) -> str:
    """An equity as MAGPIE prints it (``%.2f`` of the milli-points as a double)."""
    return f"{milli_points / 1000:.2f}"


def compare_position(item: dict, lexicon, table: LeaveTable) -> int:
    """Compare one golden position with lexc's candidates; the number of moves compared."""
    position = parse_cgp(item["cgp"], ENGLISH)
    opponent = position.racks[1] or None
    listed = candidates(position.board, item["rack"], lexicon, table, opponent=opponent, mirror=False)
    ours = listed.ranked()
    where = f"game {item['game']} turn {item['turn']} ({item['cgp']} rack {item['rack']})"
    by_notation = {c.notation: c for c in ours}
    assert len(by_notation) == len(ours) == len(listed), f"{where}: a candidate listed twice"
    theirs = {lexc_notation(m["move"]): m for m in item["moves"]}
    assert set(by_notation) == set(theirs), (
        f"{where}: lexc lacks {sorted(set(theirs) - set(by_notation))[:8]}, "
        f"MAGPIE lacks {sorted(set(by_notation) - set(theirs))[:8]}")
    assert Situation.of(position.board, item["rack"], opponent).bag == item["bag"], where
    for notation, move in theirs.items():
        ours_ = by_notation[notation]
        leave = move["leave"]
        assert ours_.score == move["score"], f"{where}: {notation} scores {ours_.score}, MAGPIE {move['score']}"
        assert (ours_.leave_milli is None) == (leave is None), f"{where}: {notation}: leave {ours_.leave_value}"
        if leave is not None:
            assert ours_.leave_milli == round(leave * 1000), f"{where}: {notation}: leave {ours_.leave_value} {leave}"
        if notation == "-":  # the pass: not valued (MAGPIE's -1000.00 is a display sentinel)
            assert ours_.equity_milli is None and move["equity"] == -1000.0, where
            continue
        assert ours_.equity_milli is not None
        assert printed(ours_.equity_milli) == f"{move['equity']:.2f}", (
            f"{where}: {notation}: equity {ours_.equity}, MAGPIE {move['equity']}")
        assert abs(ours_.equity_milli / 1000 - move["equity"]) <= 0.005 + 1e-9
    # the same ranking: MAGPIE's printed equities in its order are lexc's in its order; the pass last
    assert [printed(c.equity_milli) for c in ours[:-1] if c.equity_milli is not None] == \
        [f"{m['equity']:.2f}" for m in item["moves"][:-1]], where
    assert ours[-1].notation == "-" and item["moves"][-1]["move"] == "pass", where
    if position.board.is_empty():
        check_mirror(position, item["rack"], lexicon, table, ours)
    return len(theirs)


def check_mirror(position, rack: str, lexicon, table: LeaveTable, across: list) -> None:
    """On the empty board lexc also lists the plays down: each the mirror image of a play
    across (the standard board is symmetric about its diagonal), with its score, leave,
    leave value and equity."""
    both = candidates(position.board, rack, lexicon, table).ranked()
    placed = {c.notation: c for c in across if c.play is not None}
    down = [c for c in both if c.play is not None and c.play.down]
    assert len(down) == len(placed) and len(both) == len(across) + len(down)
    for c in down:
        twin = placed[f"{c.play.col + 1}{chr(ord('A') + c.play.row)} {c.notation.split()[1]}"]
        assert (twin.score, twin.leave, twin.leave_milli, twin.equity_milli) == \
            (c.score, c.leave, c.leave_milli, c.equity_milli), c.notation


GOLDEN = [("equity-enable-twl06.jsonl", 100, 155_472), ("equity-enable-twl06-bag0.jsonl", 16, None)]


@pytest.mark.parametrize("backend", ["compiled", pytest.param("pure", marks=pytest.mark.slow)])
def test_every_move_of_magpie_s_golden_has_magpie_s_score_leave_and_equity(backend, twl06):
    """The 100 built-in positions and the 16 with the bag empty: the same moves as MAGPIE's
    (openings across only; see the module's notes), each with MAGPIE's score, leave value
    (to 1/1000) and equity (as MAGPIE prints it), ranked alike; on both backends."""
    if backend == "compiled" and not native.available():
        pytest.skip("the compiled core is not built")
    lexicon = magpie_enable(native.COMPILED if backend == "compiled" else native.PURE)
    assert lexicon.backend.compiled == (backend == "compiled")
    for name, positions, moves in GOLDEN:
        items = [json.loads(line) for line in engine_lines("magpie", name)]
        assert len(items) == positions
        compared = sum(compare_position(item, lexicon, twl06) for item in items)
        assert compared == sum(item["nmoves"] for item in items) and (moves is None or compared == moves)


def test_the_golden_covers_every_kind_of_term():
    """The golden has exchanges, openings with their vowel penalty, and bag-0 positions with
    both endgame terms: the comparison above exercises every part of the rule."""
    items = [json.loads(line) for line in engine_lines("magpie", GOLDEN[0][0])]
    kinds = Counter("exch" if m["move"].startswith("(exch") else "pass" if m["move"] == "pass" else "play"
                    for item in items for m in item["moves"])
    assert kinds == {"exch": 7_170, "pass": 100, "play": 148_202}
    openings = [item for item in items if item["cgp"].startswith(EMPTY + " ")]
    assert len(openings) == 5
    assert any(round(m["score"] + m["leave"] - m["equity"], 2) == 0.7 for item in openings for m in item["moves"])
    ended = [json.loads(line) for line in engine_lines("magpie", GOLDEN[1][0])]
    assert any(m["equity"] > m["score"] for item in ended for m in item["moves"] if m["move"] != "pass")  # out
    assert any(m["equity"] < m["score"] - 10 for item in ended for m in item["moves"] if m["move"] != "pass")


# -- the rule --------------------------------------------------------------------------------

def test_leave_values_round_to_milli_points_as_magpie_does():
    """MAGPIE's double_to_equity: round(x * 1000), halves away from zero, of the double."""
    assert [milli(v) for v in (0.0, 0.0005, -0.0005, 1.2345, -1.2345, 25.5, -4.836, 0.0004999)] == \
        [0, 1, -1, 1235, -1235, 25500, -4836, 0]
    for value in (0.1, 2.675, -7.9995, 3.14159, 1e-7):  # the double's product, not the decimal's
        assert milli(value) == int(Decimal(value * 1000).to_integral_value(ROUND_HALF_UP))


def test_standard_opening_penalties_are_the_dl_squares_beside_the_start_row():
    """On the standard board a vowel on C8, G8, I8 or M8 (a DL above and below) costs 0.7."""
    across, down = MAGPIE.opening_penalties(ENGLISH)
    assert across == down
    assert {i: p for i, p in enumerate(across) if p} == {2: -700, 6: -700, 8: -700, 12: -700}


def brute_penalty(ruleset, row: int, col: int, down: bool, half: int) -> int:
    """The penalty of a vowel placed at (row, col) on the opening, by the rule's words: each
    square beside it across the play (above and below for a play across) with premiums costs
    half a hotspot penalty a premium step."""
    total = 0
    for r, c in ([(row, col - 1), (row, col + 1)] if down else [(row - 1, col), (row + 1, col)]):
        if 0 <= r < ruleset.board_size and 0 <= c < ruleset.board_size:
            letter, word = ruleset.premiums[r][c]
            total += half * (word - 1) + half * (letter - 1)
    return total


PHASES = (Phase.explicit, Phase.generate)
SETTINGS = settings(deadline=None, derandomize=True, database=None, print_blob=False, phases=PHASES,
                    suppress_health_check=list(HealthCheck))


def test_opening_penalties_follow_any_board(tmp_path_factory):
    """On generated boards (any side, premiums and start square) each square's penalty is
    the brute force's, for MAGPIE's penalty and others (odd ones halve as C does)."""
    directory = tmp_path_factory.mktemp("rulesets")

    @settings(SETTINGS, max_examples=60)
    @given(spec=rulegen.rulesets(), penalty=st.sampled_from([-700, -701, 0, 350]))
    def check(spec, penalty):
        _, ruleset = rulegen.load(spec, directory)
        rule = EquityRule(opening_hotspot_penalty=penalty)
        half = int(penalty / 2)
        across, down = rule.opening_penalties(ruleset)
        row, col = ruleset.start
        assert list(across) == [brute_penalty(ruleset, row, c, False, half) for c in range(ruleset.board_size)]
        assert list(down) == [brute_penalty(ruleset, r, col, True, half) for r in range(ruleset.board_size)]

    check()


def test_the_endgame_terms():
    """With the bag empty: keeping tiles costs twice their face value and 10; going out earns
    twice the opponent's rack; the leave table is not used."""
    situation = Situation(bag=0, opponent_tiles=3, opponent_points=12)
    terms = MAGPIE.keep_terms([None, None, None], [0, 5, 11], [0, 1, 3], 7, situation, 7)
    assert terms == [24_000, -20_000, -32_000]
    bag = Situation(bag=3, opponent_tiles=7)
    assert MAGPIE.keep_terms([0, 1_500, -2_250], [0, 5, 11], [0, 1, 3], 7, bag, 7) == [0, 1_500, -2_250]
    peg = EquityRule(peg_adjust=(0, -8000, 0, -500) + (0,) * 9)  # Quackle's values, by bag - played + rack
    assert peg.keep_terms([100, 100], [0, 0], [0, 6], 7, Situation(bag=1), 7) == [100 - 8000, 100]


@pytest.mark.parametrize("bag, opponent, allowed", [(13, 0, False), (14, 0, True), (7, 7, True), (6, 7, False),
                                                   (8, 6, True), (7, 6, False)])
def test_exchanges_while_two_racks_are_unseen(bag, opponent, allowed):
    """MAGPIE lists exchanges while the bag and the opponent's rack hold two racks' worth."""
    assert MAGPIE.exchanges_allowed(Situation(bag, opponent), 7) == allowed
    assert EquityRule(exchange_unseen_racks=1).exchanges_allowed(Situation(bag, opponent), 7)


def test_the_bag_is_counted_as_magpie_counts_it():
    """No opponent's rack in the CGP: every unseen tile is in the bag; given: the bag is what
    is left; more tiles than the set has is an EquityError."""
    position = parse_cgp(f"{EMPTY} AEINRST/ 0/0 0", ENGLISH)
    assert Situation.of(position.board, "AEINRST") == Situation(93, 0, 0, True)
    assert Situation.of(position.board, "AEINRST", "QZX") == Situation(90, 3, 28, True)
    with pytest.raises(EquityError, match="more tiles than"):
        Situation.of(position.board, "ZZ", "")


def test_exchange_thresholds_on_a_position(twl06):
    """Exchanges are candidates with 14 unseen tiles, not with 13 (the bag counted as MAGPIE
    counts it), and every distinct sub-rack is one, the whole rack and the blank included."""
    lexicon = magpie_enable(native.select())
    board = Board.empty(ENGLISH)
    for unseen, expected in ((14, 3 * 2 * 3 - 1), (13, 0)):
        filled = fill(board, 100 - 5 - unseen)
        assert Situation.of(filled, "AAB??").bag == unseen
        listed = candidates(filled, "AAB??", lexicon, twl06)
        thrown = [c for c in listed.ranked() if c.kind == "exchange"]
        assert len(thrown) == expected, unseen
        if expected:
            assert {c.notation for c in thrown} >= {"-AAB??", "-?", "-A", "-AA?"}
            assert all(c.equity_milli == c.leave_milli for c in thrown)


def fill(board: Board, tiles: int) -> Board:
    """The board with ``tiles`` tiles put on its squares row by row (what they spell does not
    matter to the bag), taken from the bag in code order past the rack AAB??."""
    bag = Counter(ENGLISH.bag_tiles())
    bag.subtract({1: 2, 2: 1, 0: 2})
    codes = [code for code in sorted(bag.elements()) if code]
    placed = [(i // 15, i % 15, codes[i]) for i in range(tiles)]
    return board.with_tiles(placed)


def test_a_leave_table_must_fit_the_ruleset():
    """A table of another alphabet, or with a leave longer than the rack, is refused in one
    line (the readers refuse them too: ``lexc moves --leaves`` below)."""
    spanish = load_ruleset("spanish")
    table = LeaveTable({bytes([1]): 1.0}, spanish, EXACT, "leaves-csv", "es.csv")
    with pytest.raises(EquityError, match="spanish alphabet"):
        check_table(table, ENGLISH)
    long = LeaveTable({bytes([1] * 6): 1.0}, ENGLISH, EXACT, "leaves-csv", "long.csv")
    check_table(long, ENGLISH)
    with pytest.raises(EquityError, match="6 tiles, longer than the tiny rack's 5"):
        check_table(long, load_ruleset("tiny"))


def test_sub_racks_are_numbered_once_each():
    """Every distinct sub-rack of a rack has one number, the sum of its tiles' place values;
    the rack's number less a sub-rack's numbers the rest."""
    sub = SubRacks([1, 1, 5, 9, 9, 9], 2)
    assert sub.size == 3 * 2 * 4 * 3 and len(set(sub.racks)) == sub.size
    weights = sub.weights(ENGLISH.alphabet.codes)
    for number, rack in enumerate(sub.racks):
        assert list(rack) == sorted(rack) and sum(weights[c or 5 | BLANK_FLAG] for c in rack) == number  # (? as E)
        rest = Counter(sub.racks[sub.full]) - Counter(rack)
        assert sub.racks[sub.full - number] == bytes(sorted(rest.elements()))
    assert weights[0] == 0 and weights[5 | BLANK_FLAG] == weights[9 | BLANK_FLAG] == 1  # played through; a blank
    assert weights[2] == sub.size  # B is not on the rack: past every number


@pytest.mark.skipif(not native.available(), reason="the compiled core is not built")
def test_the_core_s_equities_refuse_what_they_cannot_sum():
    """``equities`` (src/lexc/native/equity.c) sums a record's terms; it refuses bad
    arguments, a record off the board and tiles past the terms, and leaves to Python (None)
    a score it could not multiply within its bounds."""
    from array import array

    core = native.COMPILED.core
    record = struct.pack("<qBBBB28s", 10, 7, 6, 0, 2, bytes([1, 2]))
    place = array("i", [0] * 256)
    place[1], place[2] = 1, 2
    terms = array("q", [0, 100, 200, 300]).tobytes()
    blob, best, places = core.equities(record, 1, place.tobytes(), terms, 1000, b"", b"", 15)
    assert struct.unpack("<q", blob) == (10_300,) and best == 10_300 and struct.unpack("<q", places) == (0,)
    vowel, penalties = bytes([0, 1] + [0] * 254), array("q", [-350] * 30).tobytes()
    blob, _, _ = core.equities(record, 1, place.tobytes(), terms, 1000, vowel, penalties, 15)
    assert struct.unpack("<q", blob) == (10_300 - 350,)  # the A on G8
    assert core.equities(b"", 0, place.tobytes(), terms, 1000, b"", b"", 15) == (b"", None, b"")
    bad = [(record, 2, place.tobytes(), terms, 1000, b"", b"", 15),  # more records than the buffer
           (record, 1, place.tobytes()[:-4], terms, 1000, b"", b"", 15),  # 255 weights
           (record, 1, array("i", [9] * 256).tobytes(), terms, 1000, b"", b"", 15),  # a weight past the terms
           (record, 1, place.tobytes(), terms[:24], 1000, b"", b"", 15),  # tiles numbered past the terms
           (record, 1, place.tobytes(), terms, 1000, vowel, penalties[:8], 15),  # penalties of another board
           (struct.pack("<qBBBB28s", 10, 7, 14, 0, 2, bytes([1, 2])), 1, place.tobytes(), terms, 1000, b"", b"",
            15),  # off the board
           (record, 1, place.tobytes(), terms, 0, b"", b"", 15)]
    for args in bad:
        with pytest.raises(ValueError):
            core.equities(*args)
    huge = struct.pack("<qBBBB28s", 2**60, 7, 6, 0, 2, bytes([1, 2]))
    assert core.equities(huge, 1, place.tobytes(), terms, 1000, b"", b"", 15) is None


# -- generated cases: both backends and a brute force -------------------------------------------

def expected_equity(board, notation: str, points: int, rack: list[int], table: dict, situation: Situation,
                    ruleset) -> int:
    """A placement's equity in milli-points by the rule's words, sharing nothing with
    ``lexc.equity`` but the vowel column: the score; the leave's value (its tiles sorted, the
    table's value rounded as MAGPIE rounds a double) while the bag holds a tile, else the
    endgame term; on the empty board each vowel's neighbours' penalty."""
    play = parse_play(notation, board)
    used = [0 if t & BLANK_FLAG else t for t in play.tiles if t != THROUGH]
    leave = sorted((Counter(rack) - Counter(used)).elements())
    if situation.bag > 0:
        term = int(Decimal(table.get(bytes(leave), 0.0) * 1000).to_integral_value(ROUND_HALF_UP))
    elif leave:
        term = -2000 * sum(ruleset.value(c) for c in leave) - 10_000
    else:
        term = 2000 * situation.opponent_points
    if board.is_empty():
        for r, c, code in play.placed():
            if is_vowel(ruleset.alphabet.label(code & ~BLANK_FLAG)):
                term += brute_penalty(ruleset, r, c, play.down, -350)
    return points * 1000 + term


@pytest.mark.parametrize("regime", ["small", "tiny", "huge"])
def test_equities_agree_with_a_brute_force_on_generated_rulesets(regime, tmp_path_factory):
    """Generated rulesets, words, positions, leave tables and game situations: on the
    compiled core and the pure path, every placement's equity is the brute force's, every
    exchange's is its leave's value (listed exactly while two racks are unseen), the pass
    is not valued and keeps the rack; the huge regime's scores (past 2**53 / 1000) leave the
    core for the reference."""
    from test_generated import draw_board, draw_rack

    directory = tmp_path_factory.mktemp("rulesets")
    seen = Counter()

    @settings(SETTINGS, max_examples={"small": 25, "tiny": 8, "huge": 8}[regime])
    @given(spec=rulegen.rulesets(regime), data=st.data())
    def check(spec, data):
        path, ruleset = rulegen.load(spec, directory)
        wordlist = from_words(data.draw(rulegen.word_texts(spec), label="words"), ruleset.alphabet, min_len=1)
        words = set(wordlist.words)
        pure = formats.build(wordlist, "dawg", ruleset=str(path), backend=native.PURE)
        lexicons = [pure]
        if native.available():
            lexicons.append(formats.loads(formats.dumps(pure), backend=native.COMPILED))
        for _ in range(3):
            board = draw_board(data, ruleset, pure, words)
            letters, blanks = draw_rack(data, ruleset, words)
            rack = ruleset.alphabet.rack_text(letters, blanks)
            codes = letters + [0] * blanks
            values = {}
            for _ in range(data.draw(st.integers(0, 12), label="leaves")):
                kept = data.draw(st.lists(st.sampled_from(codes), max_size=len(codes)), label="leave") if codes else []
                if kept and len(kept) <= ruleset.rack_size:
                    values[bytes(sorted(kept))] = data.draw(st.sampled_from([1.5, -4.836, 0.0005, 12.25, -0.0015]))
            table = LeaveTable(values, ruleset, EXACT, "leaves-csv", "generated")
            situation = Situation(data.draw(st.sampled_from([5, 0, 1, 30]), label="bag"),
                                  data.draw(st.integers(0, ruleset.rack_size), label="opponent tiles"),
                                  data.draw(st.integers(0, 40), label="opponent points"), board.is_empty())
            expected = {notation: expected_equity(board, notation, points, codes, values, situation, ruleset)
                        for notation, points in rulegen.brute_plays(board, letters, blanks, words)}
            for lexicon in lexicons:
                listed = candidates(board, rack, lexicon, table, situation=situation).ranked()
                got = {c.notation: c.equity_milli for c in listed if c.kind == "play"}
                assert got == expected, f"{lexicon.backend}: {rack} on\n{board.picture()}"
                thrown = [c for c in listed if c.kind == "exchange"]
                allowed = situation.unseen >= 2 * ruleset.rack_size
                assert len(thrown) == (SubRacks(letters, blanks).full if allowed else 0)
                for c in thrown:
                    assert c.equity_milli == (c.leave_milli or 0)
                assert listed[-1].kind == "pass" and listed[-1].equity_milli is None
                assert listed[-1].leave == rack
                keys = [(-c.equity_milli, c.notation) for c in listed[:-1]]
                assert keys == sorted(keys)
            seen["plays"] += len(expected)
            seen["opening"] += board.is_empty()

    check()
    assert seen["plays"] > 0 and seen["opening"] > 0


# -- the equity player -----------------------------------------------------------------------

@dataclass
class Watched:
    """A program player whose turns are kept: (the view, the action, the opponent's rack's
    face value as the manager holds it)."""

    inner: ProgramPlayer
    manager: GameManager | None = None
    turns: list = field(default_factory=list)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def choose(self, view: TurnView) -> Action:
        action = self.inner.choose(view)
        manager = self.manager
        assert manager is not None
        self.turns.append((view, action, manager._value(1 - manager.on_turn)))
        return action


def test_the_equity_player_makes_the_best_candidate_and_its_games_replay(twl06):
    """Equity players: each move made is the best candidate of the position as the player
    sees it (with the bag empty, the opponent's rack valued as the manager holds it); they
    exchange where that is best; the games end and replay through the referee."""
    lexicon = magpie_enable(native.select())
    kinds = Counter()
    for seed in (3, 4):
        watched = Watched(ProgramPlayer(lexicon, nick="equity1", level="equity", leaves=twl06))
        other = ProgramPlayer(lexicon, nick="equity2", level="equity", leaves=twl06)
        manager = GameManager(ENGLISH, [watched, other], lexicon, seed, lexicon_name="ENABLE")
        watched.manager = manager
        result = manager.run()
        assert result.agrees_with(check_replay(result, lexicon))
        for view, action, opponent_points in watched.turns:
            situation = view.situation()
            assert situation.bag == view.bag and situation.opponent_tiles == view.opponent_tiles
            if not view.bag:
                assert situation.opponent_points == opponent_points
            best = candidates(view.board, view.rack, lexicon, twl06, situation=situation).best()
            assert action == action_of(best)
            kinds[best.kind] += 1
    assert kinds["play"] > 20


def test_the_equity_player_exchanges_and_passes_as_the_rule_says(twl06):
    """A rack no placement helps: the player exchanges (bag full) or, with too few unseen
    tiles, plays or passes; never exchanges when the rule does not allow it."""
    lexicon = magpie_enable(native.select())
    player = ProgramPlayer(lexicon, nick="eq", level="equity", leaves=twl06)
    board = parse_cgp(f"{EMPTY} UUUVVWW/ 0/0 0", ENGLISH).board
    view = TurnView(board, "UUUVVWW", (0, 0), 86, 7, 0, 1)
    best = candidates(board, "UUUVVWW", lexicon, twl06, situation=view.situation()).best()
    assert best.kind == "exchange" and player.choose(view) == action_of(best)
    late = TurnView(board, "UUUVVWW", (0, 0), 3, 7, 0, 30)
    assert player.choose(late).kind != "exchange"
    with pytest.raises(ValueError, match="leave table"):
        ProgramPlayer(lexicon, level="equity")


# -- the command line -------------------------------------------------------------------------

def one_error_line(err: str, *fragments: str) -> None:
    assert_one_error_line(err, *fragments)


def test_moves_with_leaves_lists_equity_columns_ranked(capsys):
    kwg = engine_file("magpie", "TWL_ENABLE.kwg")
    code, out, _ = run_main(capsys, "moves", kwg, "--rack", "AEQSUZ?", "--leaves", EXAMPLE_LEAVES, "-n", "3")
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    assert len(rows) == 3 and all(len(row) == 6 for row in rows)  # equity, score, value, leave, coordinate, word
    assert [float(r[0]) for r in rows] == sorted((float(r[0]) for r in rows), reverse=True)
    code, out, _ = run_main(capsys, "moves", kwg, "--rack", "AEQSUZ?", "--leaves", EXAMPLE_LEAVES, "--json")
    listed = json.loads(out)
    assert set(listed[0]) == {"move", "score", "leave", "leave_value", "equity", "adjustment"}
    assert listed[-1] == {"move": "-", "score": 0, "leave": "AEQSUZ?", "leave_value": 0.0, "equity": None,
                          "adjustment": None}
    exchanges = [m for m in listed if m["move"].startswith("-") and m["move"] != "-"]
    assert len(exchanges) == 2 ** 7 - 1
    assert {"move": "-AEQUZ", "score": 0, "leave": "S?", "leave_value": 0.0, "equity": 0.0,
            "adjustment": 0.0} in exchanges  # (S? is not in the table: 0)
    keep = next(m for m in exchanges if m["move"] == "-AEQSUZ")
    assert keep["leave"] == "?" and keep["equity"] == 25.5
    code, plain, _ = run_main(capsys, "moves", kwg, "--rack", "AEQSUZ?", "-n", "3")
    assert code == 0 and all(len(line.split()) == 3 for line in plain.splitlines())  # unchanged without --leaves


def test_moves_with_leaves_reads_the_bag_from_the_cgp(capsys, tmp_path):
    """A CGP with the opponent's rack and the bag empty: the endgame terms, no leave value."""
    kwg = engine_file("magpie", "TWL_ENABLE.kwg")
    item = json.loads(engine_lines("magpie", GOLDEN[1][0])[0])
    cgp = item["cgp"]
    code, out, _ = run_main(capsys, "moves", kwg, "--cgp", cgp, "--leaves",
                            engine_file("magpie", "magpie-data", "TWL06.klv2"), "--json")
    assert code == 0
    listed = json.loads(out)
    assert [(m["move"], m["equity"]) for m in listed] == [("8A (L)I", -28.0), ("-", None)]
    assert listed[0]["leave"] == "Q" and listed[0]["leave_value"] is None and listed[0]["adjustment"] == -30.0
    batch = tmp_path / "positions.jsonl"
    batch.write_text(json.dumps({"cgp": cgp, "rack": item["rack"]}) + "\n", encoding="utf-8")
    code, out, _ = run_main(capsys, "moves", kwg, "--batch", batch, "--leaves", EXAMPLE_LEAVES, "-n", "1")
    assert code == 0 and json.loads(out) == {"count": 1, "moves": [listed[0]]}


def test_moves_with_leaves_refuses_bad_input_in_one_line(capsys, tmp_path):
    kwg = engine_file("magpie", "TWL_ENABLE.kwg")
    other = tmp_path / "spanish.csv"
    other.write_text("Ñ,1.5\n", encoding="utf-8")
    code, _, err = run_main(capsys, "moves", kwg, "--rack", "AEINRST", "--leaves", other)
    assert code == 2
    one_error_line(err, "spanish.csv:1", "Ñ")
    long = tmp_path / "long.csv"
    long.write_text("ABCDEF,1.0\n", encoding="utf-8")
    code, _, err = run_main(capsys, "moves", ROOT / "wordlists" / "tiny.txt", "-r", "tiny", "--rack", "CAT",
                            "--leaves", long)
    assert code == 2
    one_error_line(err, "long.csv:1", "6 tiles", "tiny rack's 5")
    words = tmp_path / "words.txt"
    words.write_text("CAT\nDOG\n", encoding="utf-8")
    code, _, err = run_main(capsys, "moves", kwg, "--rack", "AEINRST", "--leaves", words)
    assert code == 2
    one_error_line(err, "words.txt")
    code, _, err = run_main(capsys, "moves", ROOT / "wordlists" / "tiny.txt", "-r", "tiny", "--rack", "CAT",
                            "--leaves", engine_file("magpie", "magpie-data", "TWL06.klv2"))  # leaves of 6 tiles
    assert code == 2
    one_error_line(err, "TWL06.klv2", "6 tiles", "tiny rack's 5")
    code, _, err = run_main(capsys, "moves", kwg, "--rack", "AEINRST", "--leaves-format", "klv2")
    assert code == 2 and "--leaves" in err and "Traceback" not in err
    code, _, err = run_main(capsys, "moves", kwg, "--rack", "AEINRST", "--leaves", tmp_path / "none.csv")
    assert code == 2
    one_error_line(err, "none.csv")


def test_selfplay_and_play_take_the_equity_player(capsys, tmp_path):
    kwg = engine_file("magpie", "TWL_ENABLE.kwg")
    code, out, err = run_main(capsys, "selfplay", kwg, "--player", "equity", "--player", "greedy", "--leaves",
                              EXAMPLE_LEAVES, "--seed", "2", "--json")
    assert code == 0, err
    game = json.loads(out)[0]
    assert sorted(game["players"]) == ["equity1", "greedy2"] and game["replay_ok"]
    code, _, err = run_main(capsys, "selfplay", kwg, "--player", "greedy", "--leaves", EXAMPLE_LEAVES)
    assert code == 2 and "--player equity" in err
    code, _, err = run_main(capsys, "play", kwg, "--player", "greedy", "--leaves", EXAMPLE_LEAVES, "--watch")
    assert code == 2 and "--player equity" in err
    # --leaves alone: the default player, equity, with these leaves (not the bundled ones)
    code, out, err = run_main(capsys, "selfplay", kwg, "--leaves", EXAMPLE_LEAVES, "--seed", "2", "--json")
    assert code == 0, err
    assert sorted(json.loads(out)[0]["players"]) == ["equity1", "equity2"]
