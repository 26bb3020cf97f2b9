"""Tests for the game manager (lexc.game.manager) and the GCG writer (lexc.game.gcg.write_gcg).

Most games are played on the 7x7 ``tiny`` board with ENABLE's words of up to seven letters
(a game takes a few hundredths of a second); variants of ``tiny`` written to a temporary file
change the bag to force an ending. One full English game is played on ENABLE.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from lexc.alphabet import BLANK_FLAG
from lexc.board.board import parse_cgp
from lexc.formats import build
from lexc.game.gcg import (
    END_PENALTY,
    END_POINTS,
    EXCHANGE,
    PASS,
    PLAY,
    TURNS,
    Event,
    Game,
    GCGError,
    parse_gcg,
    read_gcg,
    write_gcg,
)
from lexc.game.manager import (
    ADD_AND_SUBTRACT,
    OUT,
    SCORELESS,
    Action,
    Bag,
    GameManager,
    IllegalAction,
    ProgramPlayer,
    TurnView,
    check_replay,
    draw_for_first,
    selfplay,
)
from lexc.game.replay import replay
from lexc.movegen import generate
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words, read_wordlist
from lexicons import ROOT, enable_built

TINY = load_ruleset("tiny")
GAMES = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def short(enable_list):
    """ENABLE's words of two to seven letters, as a DAWG for the tiny ruleset."""
    words = [w for w in enable_list.texts() if len(w) <= 7]
    return build(from_words(words, TINY.alphabet), "dawg", ruleset="tiny")


def variant(tmp_path: Path, counts: dict[str, int]) -> object:
    """The tiny ruleset with some tile counts changed (tile_total recomputed), loaded from a file."""
    text = (ROOT / "src" / "lexc" / "rulesets" / "tiny.toml").read_text(encoding="utf-8")
    for label, n in counts.items():
        text, k = re.subn(rf'^("?{re.escape(label)}"?) = \[\d+, (\d+)\]', rf"\g<1> = [{n}, \2]", text, flags=re.M)
        assert k == 1, label
    total = sum(int(n) for n in re.findall(r'^"?[A-Z?]"? = \[(\d+), \d+\]', text, flags=re.M))
    path = tmp_path / "variant.toml"
    path.write_text(re.sub(r"tile_total = \d+", f"tile_total = {total}", text), encoding="utf-8")
    return load_ruleset(str(path))


def no_words(ruleset):
    """A lexicon of one word no rack can make (longer than the rack): no play is ever legal."""
    return build(from_words(["Z" * (ruleset.rack_size + 1)], ruleset.alphabet), "dawg", ruleset="tiny")


def values(ruleset, rack: str) -> int:
    letters, _ = ruleset.alphabet.parse_rack(rack)
    return sum(ruleset.value(c) for c in letters)


def turn_events(result):
    return [e for e in result.record.events if e.kind in TURNS]


# -- the bag and the draw for first ------------------------------------------------------------

@pytest.mark.parametrize("name", ["tiny", "english", "spanish"])
def test_bag_holds_the_distribution(name):
    ruleset = load_ruleset(name)
    bag = Bag(ruleset, random.Random(1))
    expected = Counter({t.code: t.count for t in ruleset.tiles if t.count}) + Counter({0: ruleset.blanks})
    assert len(bag) == ruleset.tile_total
    assert Counter(bag.tiles) == expected
    drawn = bag.draw(7) + bag.draw(ruleset.tile_total)  # more than is left: what is left
    assert len(bag) == 0 and bag.draw(3) == [] and Counter(drawn) == expected
    bag.put_back(drawn[:5])
    assert Counter(bag.tiles) == Counter(drawn[:5])


def test_the_bag_is_shuffled_by_the_seed():
    orders = [Bag(TINY, random.Random(seed)).tiles for seed in (1, 1, 2)]
    assert orders[0] == orders[1] != orders[2]


class RiggedBag:
    """A bag whose draws come from a script; it counts the tiles put back."""

    def __init__(self, draws):
        self.draws, self.tiles, self.back = list(draws), [1, 2, 3], []

    def draw(self, n):
        return [self.draws.pop(0)]

    def put_back(self, tiles):
        self.back += tiles


@pytest.mark.parametrize("draws, first, rounds", [
    ([5, 1], 1, 1),           # E against A: the second player goes first
    ([1, 5], 0, 1),
    ([0, 1], 0, 1),           # a blank beats an A
    ([26, 0], 1, 1),          # ... and anything
    ([3, 3, 4, 2], 1, 2),     # a tie draws again
    ([0, 0, 7, 7, 2, 9], 0, 3),
])
def test_draw_for_first(draws, first, rounds):
    bag = RiggedBag(draws)
    who, seen = draw_for_first(bag)
    assert who == first and len(seen) == rounds
    assert sorted(bag.back) == sorted(draws)  # every tile drawn went back


def test_the_first_mover_is_player1_and_drew_the_lower_tile(short):
    for seed in range(8):
        result = selfplay(short, TINY, seed)
        note = result.record.notes
        last = re.findall(r"(greedy\d) (\S+), (greedy\d) (\S+)$", note)[0]
        drawn = {last[0]: last[1], last[2]: last[3]}
        a, b = drawn[result.players[0]], drawn[result.players[1]]
        assert a == "?" or (b != "?" and a < b), note
        assert result.record.events[0].player == 0


# -- self-play: reproducible, sound, replayable --------------------------------------------

def test_a_game_is_reproducible_from_its_seed(short):
    one, two = selfplay(short, TINY, 7), selfplay(short, TINY, 7)
    assert one.gcg == two.gcg and one.positions == two.positions and one.scores == two.scores


def test_different_seeds_give_different_games(short):
    texts = {selfplay(short, TINY, seed).gcg for seed in range(6)}
    assert len(texts) == 6


@pytest.mark.parametrize("end_rule", ["doubling", ADD_AND_SUBTRACT])
def test_every_game_replays_without_a_mismatch(short, tmp_path, end_rule):
    easy = variant(tmp_path, dict.fromkeys("QJXZVKW", 0))  # games that often end with a player out
    ends = Counter()
    for ruleset in (TINY, easy):
        for seed in range(12):
            result = selfplay(short, ruleset, seed, end_rule=end_rule, lexicon_name="ENABLE7")
            report = check_replay(result, short)
            assert report.ok and report.mismatches == 0 and not report.errors, report.lines()
            assert report.final_recorded == report.final_computed == result.scores
            assert result.agrees_with(report)
            assert report.end_rule == (end_rule if result.end == OUT else None)
            ends[result.end] += 1
    assert ends[OUT] and ends[SCORELESS]  # both endings were tried


def test_the_manager_keeps_its_totals_in_the_gcg(short):
    result = selfplay(short, TINY, 3)
    game = parse_gcg(result.gcg)
    totals = [0, 0]
    for e in game.events:
        totals[e.player] += e.score
        assert e.total == totals[e.player]
    assert tuple(totals) == result.scores
    assert result.gcg.startswith("#character-encoding UTF-8\n#player1 greedy")
    assert game.pragma("tile-distribution") == "tiny"
    assert replay(result.gcg, short).ok  # the ruleset comes from #tile-distribution


class Watcher:
    """A player that records what it sees and lets a greedy player choose."""

    def __init__(self, lexicon, nick):
        self.inner, self.nick, self.name, self.program, self.views = ProgramPlayer(lexicon), nick, nick, False, []

    def choose(self, view: TurnView) -> Action:
        self.views.append(view)
        return self.inner.choose(view)


def test_racks_are_refilled_and_no_tile_is_lost(short):
    players = [Watcher(short, "a"), Watcher(short, "b")]
    manager = GameManager(TINY, players, short, seed=11)
    result = manager.run()
    views = players[0].views + players[1].views
    assert len(views) == result.turns and not result.positions  # (no program player)
    for view in views:
        on_rack = len(TINY.alphabet.parse_rack(view.rack)[0]) + view.rack.count("?")
        assert on_rack == TINY.rack_size or view.bag == 0
        assert view.board.tile_count() + on_rack + view.opponent_tiles + view.bag == TINY.tile_total


def test_positions_met_are_the_program_players_turns(short):
    result = selfplay(short, TINY, 5, lexicon_name="ENABLE7")
    turns = turn_events(result)
    assert [p["turn"] for p in result.positions] == list(range(1, len(turns) + 1))
    for item, event in zip(result.positions, turns, strict=True):
        json.dumps(item)
        position = parse_cgp(item["cgp"], TINY)
        assert position.rack == item["rack"] == event.rack
        assert position.op("lex") == "ENABLE7"
        theirs = [e.total for e in result.record.events[:turns.index(event)] if e.player != event.player]
        assert position.scores[1] == (theirs[-1] if theirs else 0)
        moves = generate(position.board, item["rack"], short)
        if event.kind == PLAY:  # the greedy choice: the best play of that position
            assert moves and moves[0].play.coordinate() == event.position and moves[0].score == event.score
        else:
            assert not moves


def test_one_english_game_on_enable(enable_list):
    enable = enable_built(enable_list, "dawg")
    result = selfplay(enable, "english", 2, lexicon_name="ENABLE")
    report = check_replay(result, enable)
    assert result.agrees_with(report), report.lines()
    assert report.ruleset == "english" and result.end == OUT and report.end_rule == "doubling"
    plays = [e for e in turn_events(result) if e.kind == PLAY]
    bingos = [e for e in plays if len(e.word.replace(".", "")) == 7]  # all seven tiles played
    assert bingos and all(e.score >= 50 for e in bingos)
    assert result.scores[0] + result.scores[1] == sum(e.score for e in result.record.events)


def test_multi_character_tiles_are_bracketed(tmp_path):
    spanish = load_ruleset("spanish")
    words = read_wordlist(ROOT / "wordlists" / "spanish-sample.txt", spanish.alphabet)
    lexicon = build(words, "dawg", ruleset="spanish")
    seen = ""
    for seed in range(6):
        result = selfplay(lexicon, spanish, seed)
        assert result.agrees_with(check_replay(result, lexicon))
        seen += result.gcg
        for item in result.positions:
            position = parse_cgp(item["cgp"], spanish)
            assert position.rack == item["rack"]
            assert spanish.alphabet.rack_text(*spanish.alphabet.parse_rack(item["rack"])) == item["rack"]
    assert re.search(r"\[(CH|LL|RR)\]", seen) and "Ñ" in seen


# -- the end of the game --------------------------------------------------------------------

def out_game(short, tmp_path, end_rule):
    easy = variant(tmp_path, dict.fromkeys("QJXZVKW", 0))
    return next(r for r in (selfplay(short, easy, s, end_rule=end_rule) for s in range(20)) if r.end == OUT)


def test_going_out_doubles_the_opponents_rack(short, tmp_path):
    result = out_game(short, tmp_path, "doubling")
    *turns, last = result.record.events
    went_out = turns[-1].player
    assert turns[-1].kind == PLAY and last.kind == END_POINTS and last.player == went_out and not last.rack
    ruleset = result.ruleset
    every = Counter({t.code: t.count for t in ruleset.tiles}) + Counter({0: ruleset.blanks})
    on_board = Counter(0 if c & BLANK_FLAG else c for row in result.board.rows for c in row if c)
    letters, blanks = ruleset.alphabet.parse_rack(last.tiles)
    assert Counter(letters + [0] * blanks) == every - on_board  # the opponent holds every tile not on the board
    left = last.tiles
    assert last.score == 2 * values(ruleset, left) > 0
    assert result.gcg.endswith(f": ({left}) +{last.score} {last.total}\n")


def test_add_and_subtract_gives_and_takes_the_rack_once(short, tmp_path):
    doubled = out_game(short, tmp_path, "doubling")
    result = selfplay(short, doubled.ruleset, doubled.seed, end_rule=ADD_AND_SUBTRACT)
    assert [e.move() for e in turn_events(result)] == [e.move() for e in turn_events(doubled)]  # the same game
    points, penalty = result.record.events[-2:]
    value = points.score
    assert points.kind == END_POINTS and penalty.kind == END_PENALTY and penalty.player != points.player
    assert penalty.rack == penalty.tiles == points.tiles and penalty.score == -value
    out, other = points.player, penalty.player
    assert result.scores[out] == doubled.scores[out] - value and result.scores[other] == doubled.scores[other] - value
    assert check_replay(result, short).end_rule == ADD_AND_SUBTRACT


def test_no_play_and_a_full_bag_exchanges_the_whole_rack(short, tmp_path):
    lexicon = no_words(TINY)
    result = selfplay(lexicon, TINY, 4)
    turns = turn_events(result)
    assert [e.kind for e in turns] == [EXCHANGE] * 6 and result.end == SCORELESS
    assert all(e.tiles == e.rack and len(e.rack) == TINY.rack_size for e in turns)
    assert result.agrees_with(check_replay(result, lexicon))


def test_no_play_and_a_short_bag_passes_until_six_scoreless_turns(tmp_path):
    few = variant(tmp_path, {**{chr(c): 0 for c in range(ord("A"), ord("Z") + 1)}, "A": 4, "E": 4, "K": 3, "?": 1})
    lexicon = no_words(few)  # 12 tiles: two racks of 5 and 2 in the bag, too few to exchange
    result = selfplay(lexicon, few, 0)
    turns, endings = turn_events(result), result.record.events[6:]
    assert [e.kind for e in turns] == [PASS] * 6 and result.end == SCORELESS
    assert [(e.kind, e.player) for e in endings] == [(END_PENALTY, 0), (END_PENALTY, 1)]
    for e in endings:
        assert e.rack == e.tiles and e.score == -values(few, e.rack) == e.total
    assert result.scores == (endings[0].score, endings[1].score) and sum(result.scores) < 0
    assert re.search(r">greedy\d: (\S+) \(\1\) -\d+ -\d+\n>greedy\d: (\S+) \(\2\) -\d+ -\d+\n$", result.gcg)
    report = check_replay(result, lexicon)
    assert result.agrees_with(report) and report.end_rule is None


def test_a_play_resets_the_scoreless_count(short):
    result = selfplay(short, TINY, 0)
    run = 0
    for e in turn_events(result):
        run = 0 if e.kind == PLAY else run + 1
        assert run <= 6
    assert run == 6 and result.end == SCORELESS


# -- a player that submits plays in notation (the interactive game's path) ------------------

class Scripted:
    """A human stand-in: choose is never called; the test submits actions itself."""

    program = False

    def __init__(self, nick):
        self.nick, self.name = nick, nick

    def choose(self, view):
        raise AssertionError("not asked")


def test_illegal_actions_are_refused_with_the_referees_reason(short):
    manager = GameManager(TINY, [Scripted("ann"), Scripted("bob")], short, seed=3)
    view = manager.view()
    best = generate(view.board, view.rack, short)[0]
    before = (manager.rack(0), manager.rack(1), len(manager.bag), list(manager.scores), manager.on_turn)
    shifted = best.notation.replace(best.play.coordinate(), "1A" if not best.play.down else "A1")
    refused = {
        shifted: "start square",
        "4C ZZZ": "tile not on the rack",
        "8H A": "off the board",
        "4D": "is not a play",
    }
    for notation, says in refused.items():
        with pytest.raises(IllegalAction) as info:
            manager.submit(Action.place(notation))
        assert says in info.value.reason and info.value.ruling.legal is False
    letters = manager.rack(0)
    with pytest.raises(IllegalAction, match="not all on the rack"):
        manager.submit(Action.exchange("Q" if "Q" not in letters else "J"))
    assert (manager.rack(0), manager.rack(1), len(manager.bag), manager.scores, manager.on_turn) == before
    assert not manager.record.events
    event = manager.submit(Action.place(best.notation))  # notation as a person writes it
    assert (event.kind, event.score, event.position) == (PLAY, best.score, best.play.coordinate())
    assert manager.on_turn == 1 and manager.scores == [best.score, 0]


def test_a_phony_is_refused_with_its_invalid_words(short):
    manager = GameManager(TINY, [Scripted("ann"), Scripted("bob")], short, seed=3)
    rack = manager.rack(0)
    phony = rack[:3] if rack[:3].isalpha() else "".join(c for c in rack if c != "?")[:2]
    assert phony not in short
    with pytest.raises(IllegalAction) as info:
        manager.submit(Action.place(f"4D {phony}"))
    assert info.value.ruling.invalid_words == (phony,) and "invalid word" in info.value.reason


def test_exchange_needs_a_full_bag_and_counts_as_scoreless(short, tmp_path):
    manager = GameManager(TINY, [Scripted("ann"), Scripted("bob")], short, seed=1)
    rack = manager.rack(0)
    event = manager.submit(Action.exchange(rack[:2]))
    assert event.kind == EXCHANGE and event.tiles == rack[:2] and len(manager.bag) == TINY.tile_total - 10
    assert manager.scoreless == 1 and manager.on_turn == 1
    manager.submit(Action.pass_turn())
    assert manager.scoreless == 2
    few = variant(tmp_path, {"A": 0, "E": 0, "I": 0, "O": 0, "U": 0, "D": 0, "L": 0, "N": 0, "R": 0, "S": 0, "T": 0})
    short_bag = GameManager(few, [Scripted("ann"), Scripted("bob")], short, seed=1)
    short_bag.bag.draw(len(short_bag.bag) - (few.rack_size - 1))
    with pytest.raises(IllegalAction, match="no exchange with 4 tiles in the bag"):
        short_bag.submit(Action.exchange(short_bag.rack(0)[:1]))
    for _ in range(6):
        short_bag.submit(Action.pass_turn())
    assert short_bag.over
    with pytest.raises(IllegalAction, match="over"):
        short_bag.submit(Action.pass_turn())


def test_bad_settings_are_refused(short):
    with pytest.raises(ValueError, match="end rule"):
        GameManager(TINY, [Scripted("a"), Scripted("b")], short, end_rule="sudden-death")
    with pytest.raises(ValueError, match="distinct nicknames"):
        GameManager(TINY, [Scripted("a"), Scripted("a")], short)
    with pytest.raises(ValueError, match="not over"):
        GameManager(TINY, [Scripted("a"), Scripted("b")], short).result()


# -- the GCG writer ------------------------------------------------------------------------

def without_lines(game: Game):
    return game.players, game.pragmas, game.notes, [dataclasses.replace(e, line=0) for e in game.events]


def readable_games():
    for path in sorted(GAMES.rglob("*.gcg")):
        try:
            read_gcg(path)
        except GCGError:
            continue
        yield path


@pytest.mark.parametrize("path", list(readable_games()), ids=lambda p: p.name)
def test_write_then_parse_gives_the_game_back(path):
    game = read_gcg(path)
    text = write_gcg(game)
    again = parse_gcg(text)
    assert without_lines(again) == without_lines(game)
    assert write_gcg(again) == text
    if path.parent == GAMES:
        assert replay(text).final_computed == replay(path).final_computed


def test_a_self_played_gcg_is_a_fixed_point_of_parse_and_write(short):
    result = selfplay(short, TINY, 9, lexicon_name="ENABLE7")
    assert write_gcg(parse_gcg(result.gcg)) == result.gcg == write_gcg(result.record)
    assert without_lines(parse_gcg(result.gcg)) == without_lines(result.record)


def test_write_gcg_forms():
    game = Game(players=[("Al", "Alice Smith"), ("Bo", "Bo")], pragmas=[("lexicon", "NWL20")], notes="first\nsecond")
    game.events = [Event(0, 0, PLAY, "ACT", 10, 10, position="8G", word="CAT", note="a note"),
                   Event(0, 1, EXCHANGE, "BDEIQ", 0, 0, tiles="Q"),
                   Event(0, 0, PASS, "S", 0, 10),
                   Event(0, 1, END_PENALTY, "BDEI", -7, -7, tiles="BDEI"),
                   Event(0, 0, END_POINTS, "", 14, 24, tiles="BDEI")]
    assert write_gcg(game) == ("#character-encoding UTF-8\n#player1 Al Alice Smith\n#player2 Bo Bo\n#lexicon NWL20\n"
                               "#note first\n#note second\n>Al: ACT 8G CAT +10 10\n#note a note\n>Bo: BDEIQ -Q +0 0\n"
                               ">Al: S - +0 10\n>Bo: BDEI (BDEI) -7 -7\n>Al: (BDEI) +14 24\n")
    assert without_lines(parse_gcg(write_gcg(game))) == without_lines(game)
