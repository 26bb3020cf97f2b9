"""The replay keeps the bag (issue 17, item 4): how many tiles it holds after every event, and
the rules that depend on it. An exchange needs a rack's worth of tiles in the bag; nothing
takes a turn once a player has gone out or after six scoreless turns; end-rack points only
for a player who has gone out with the bag empty; end racks the set can hold, and the whole
of what is left once a player is out.

The real games must still replay clean (also in test_gcg.py); each rule has a negative file
in tests/games/negative (``lexc__*.gcg``, one defect each, said in the file's opening #note) and
the game manager, which holds the real bag, is the oracle for the count.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lexc.formats import build
from lexc.game.gcg import END_PENALTY, END_POINTS, TURNS, read_gcg, write_gcg
from lexc.game.manager import OUT, SCORELESS, GameManager, ProgramPlayer
from lexc.game.replay import replay
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from test_gcg import FILES, HEAD, OPENING, ROWS, english_variant, line_of
from test_gcg import OUT as OUT_GAME

GAMES = Path(__file__).resolve().parent / "games"
TINY = load_ruleset("tiny")


@pytest.fixture(scope="module")
def eight(tmp_path_factory):
    """The English board and values with eight tiles, ABCDEQST, and racks of four."""
    return english_variant(tmp_path_factory.mktemp("rulesets"), dict.fromkeys("ABCDEQST", 1), rack_size=4)


# -- the negative files: exactly one error, on the defective line, and nothing else ----------

BAG_NEGATIVE = {  # file: (text of the defective line, the whole reason)
    "lexc__exchange_with_a_short_bag.gcg":
        ("?AABEOS -AA", "no exchange with 3 tiles in the bag (it takes at least 7)"),
    "lexc__pass_after_six_scoreless_turns.gcg":
        ("?AEEOTT - +0", "pass after the game ended: 6 scoreless turns in a row, the last at line 15"),
    "lexc__going_out_with_tiles_in_the_bag.gcg":
        ("(?AABEOS) +16", "end-rack points, but Josh has not gone out: the bag still holds 3 tiles"),
    "lexc__end_rack_not_in_the_set.gcg":
        ("(OSZ) +24", "end rack OSZ is not in the bag: the board and the end rack hold Z more than the set has"),
    "lexc__end_rack_short.gcg":
        ("(O) +2", "end rack O is short: with the bag empty, Josh holds every tile not on the board, S too"),
}


@pytest.mark.parametrize("name", sorted(BAG_NEGATIVE))
def test_bag_negative_file_has_exactly_its_defect(name):
    path = GAMES / "negative" / name
    defect, reason = BAG_NEGATIVE[name]
    line = line_of(path, defect)
    report = replay(path)
    assert not report.ok and report.mismatches == 0 and not report.anomalies
    assert report.errors == [f"line {line}: {reason}"]
    data = json.loads(json.dumps(report.as_dict()))
    assert data["ok"] is False and data["errors"] == report.errors
    flagged = [e for e in data["events"] if e["error"]]
    assert [(e["line"], e["error"]) for e in flagged] == [(line, reason)]
    assert all(isinstance(e["bag"], int) and e["bag"] >= 0 for e in data["events"])
    notes = read_gcg(path).notes  # the #note lines before the first event: the base game and the defect
    assert notes.startswith(("MAGPIE__", "liwords__")) and "one defect" in notes


def test_the_cli_exits_1_on_a_bag_error(capsys):
    from lexc.cli import main

    path = GAMES / "negative" / "lexc__exchange_with_a_short_bag.gcg"
    tiny = Path(__file__).resolve().parents[1] / "wordlists" / "tiny.txt"
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(path), "-L", str(tiny), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert exit_.value.code == 1 and data["mismatches"] == 0 and data["errors"] == [
        f"line {line_of(path, '?AABEOS -AA')}: no exchange with 3 tiles in the bag (it takes at least 7)"]


# -- the real games: clean, and the bag as the record implies ---------------------------------

@pytest.mark.parametrize("name", FILES)
def test_real_game_bag_and_end(name):
    report = replay(GAMES / name)
    assert report.ok and not report.errors, report.lines()
    kinds = [e.kind for e in report.events]
    bags = [86] + [e.bag for e in report.events]  # 100 tiles less two racks of 7 before the first event
    # only a withdrawal refills
    assert all(b <= a for a, b, k in zip(bags, bags[1:], kinds, strict=False) if k != "phony-returned")
    if "ER" in ROWS[name]["features"]:  # someone went out: the bag was empty, and stays so
        assert report.end == OUT
        out = next(e for e in report.events if e.line == report.end_line)
        assert out.kind == "play" and out.bag == 0
        assert all(e.bag == 0 for e in report.events[kinds.index("end-rack-points"):])
    else:
        assert report.end == SCORELESS and kinds[-1] == "end-rack-penalty"
    assert all(e.kind not in TURNS for e in report.events if e.line > report.end_line)


@pytest.mark.parametrize("name", FILES)
def test_untyped_racks_are_not_fewer_tiles(name):
    """Annotators often type only the tiles played, or no rack at all: the bag counts full
    racks all the same, so the game with every turn's rack erased replays the same."""
    game = read_gcg(GAMES / name)
    report = replay(game)
    for e in game.events:
        if e.kind not in (END_POINTS, END_PENALTY):
            e.rack = ""
    bare = replay(write_gcg(game))
    assert bare.ok, bare.lines()
    assert [e.bag for e in bare.events] == [e.bag for e in report.events]
    at = [[e.line for e in r.events].index(r.end_line) for r in (bare, report)]  # (the lines moved)
    assert bare.end == report.end and at[0] == at[1]


# -- the game manager holds the real bag: the replay must count the same -----------------------

@pytest.fixture(scope="module")
def short(enable_list):
    """ENABLE's words of two to seven letters, as a DAWG for the tiny ruleset."""
    words = [w for w in enable_list.texts() if len(w) <= 7]
    return build(from_words(words, TINY.alphabet), "dawg", ruleset="tiny")


@pytest.fixture(scope="module")
def easy(tmp_path_factory):
    """The tiny ruleset without QJXZVKW: games that often end with a player out."""
    text = (Path(__file__).resolve().parents[1] / "src" / "lexc" / "rulesets" / "tiny.toml").read_text(encoding="utf-8")
    text = re.sub(r"^([QJXZVKW]) = \[\d+, (\d+)\]", r"\1 = [0, \2]", text, flags=re.M)
    total = sum(int(n) for n in re.findall(r'^"?[A-Z?]"? = \[(\d+), \d+\]', text, flags=re.M))
    path = tmp_path_factory.mktemp("rulesets") / "easy.toml"
    path.write_text(re.sub(r"tile_total = \d+", f"tile_total = {total}", text), encoding="utf-8")
    return load_ruleset(str(path))


def managed_game(ruleset, lexicon, seed, end_rule="doubling"):
    """A greedy game played by the manager: its result and the bag's size after every turn."""
    players = [ProgramPlayer(lexicon, "auto", f"greedy{i}", f"greedy {i}") for i in (1, 2)]
    manager, bags = GameManager(ruleset, players, lexicon, seed, end_rule), []
    while not manager.over:
        manager.step()
        bags.append(len(manager.bag))
    return manager.result(), bags


def no_words():
    """A lexicon no rack can use: the greedy player exchanges (or passes, the bag short)."""
    return build(from_words(["Z" * (TINY.rack_size + 1)], TINY.alphabet), "dawg", ruleset="tiny")


@pytest.mark.parametrize("end_rule", ["doubling", "add-and-subtract"])
def test_the_bag_is_the_game_managers(short, easy, end_rule):
    ends = set()
    games = [(ruleset, short, seed) for ruleset in (TINY, easy) for seed in range(6)] + [(TINY, no_words(), 0)]
    for ruleset, lexicon, seed in games:
        result, bags = managed_game(ruleset, lexicon, seed, end_rule)
        report = replay(result.gcg, lexicon, ruleset)
        assert report.ok, report.lines()
        turns = [e for e in report.events if e.kind in TURNS]
        assert [e.bag for e in turns] == bags
        assert (report.end, report.end_line) == (result.end, turns[-1].line)
        ends.add(result.end)
    assert ends == {OUT, SCORELESS}


# -- small games by hand: the eight-tile set (test_gcg's OUT: Al goes out with CATS) ------------

def test_a_turn_after_going_out(eight):
    report = replay(HEAD + OUT_GAME + ">Bo: EQ - +0 6\n>Al: (EQ) +22 38\n", None, eight)
    assert report.errors == ["line 6: pass after the game ended: Al went out at line 5"]


def test_a_challenge_of_the_last_play_may_follow_the_end(eight):
    report = replay(HEAD + OUT_GAME + ">Al: S (challenge) +5 21\n>Al: (EQ) +22 43\n", None, eight)
    assert report.ok, report.lines()
    assert (report.end, report.end_line) == (OUT, 5)


def test_withdrawing_the_play_that_went_out_takes_the_game_back(eight):
    text = HEAD + OUT_GAME + ">Al: S -- -6 10\n>Bo: EQ - +0 6\n>Al: S 8G ...S +6 16\n>Al: (EQ) +22 38\n"
    report = replay(text, None, eight)
    assert report.ok, report.lines()
    assert (report.end, report.end_line) == (OUT, 8)
    assert [e.bag for e in report.events] == [0] * 7


def test_more_tiles_played_than_held(tmp_path):
    """Nine tiles, racks of four: Al draws the last tile after CAT; Bo, left with EQ, cannot
    put down three."""
    nine = english_variant(tmp_path, dict.fromkeys("ABCDEQSTX", 1), rack_size=4)
    probe = replay(HEAD + OUT_GAME + ">Bo: EQX 9H .EQX +0 6\n", None, nine)
    score = probe.events[-1].computed
    report = replay(HEAD + OUT_GAME + f">Bo: EQX 9H .EQX +{score} {6 + score}\n", None, nine)
    assert [e.bag for e in report.events] == [0, 0, 0, 0]
    assert report.errors == ["line 6: 3 tiles played, but with the bag empty Bo holds only 2"]


def test_an_unnamed_exchange_counts_the_whole_rack(tmp_path):
    """Twenty tiles, racks of seven: six in the bag after the deal. ``-2`` with no rack typed
    is still an exchange from a full rack, with six in the bag: too few."""
    twenty = english_variant(tmp_path, {"A": 6, "E": 6, "T": 4, "S": 4}, rack_size=7)
    report = replay(HEAD + ">Al: -2 +0 0\n", None, twenty)
    assert report.errors == ["line 3: no exchange with 6 tiles in the bag (it takes at least 7)"]
    enough = english_variant(tmp_path, {"A": 6, "E": 6, "T": 5, "S": 4}, rack_size=7)
    assert replay(HEAD + ">Al: -2 +0 0\n>Bo: AE -AE +0 0\n", None, enough).ok


def test_the_bag_in_the_english_opening(enable):
    report = replay(HEAD + OPENING, enable)
    assert [e.bag for e in report.events] == [83, 81, 80] and report.end is None
    text = "\n".join(report.lines(every_event=True))
    assert "(computed +10 10; bag 83)" in text and "ended: not over by the rules" in text


def test_end_racks_of_six_scoreless_turns_must_be_in_the_set():
    """Both penalty racks and the board: two Q in a one-Q set is flagged on the second rack."""
    text = HEAD + (">Al: ACT 8G CAT +10 10\n>Bo: QZ - +0 0\n>Al: EIR - +0 10\n>Bo: AQZ -A +0 0\n"
                   ">Al: EIR - +0 10\n>Bo: QZ - +0 0\n>Al: EIR - +0 10\n"
                   ">Al: EIQ (EIQ) -12 -2\n>Bo: QZ (QZ) -20 -20\n")
    report = replay(text)
    assert (report.end, report.end_line) == (SCORELESS, 9)
    assert report.errors == ["line 11: end rack QZ is not in the bag: the board and the end racks hold Q more than "
                             "the set has"]


@pytest.fixture(scope="module")
def enable(enable_list):
    from lexicons import enable_built

    return enable_built(enable_list, "dawg")
