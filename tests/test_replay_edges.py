"""Rough edges of ``lexc replay`` a new user meets (issue 35): the position after an event
(``--until N --board/--cgp``), the game's ``#lexicon``, a file that is not a game record, a
CGP with empty racks, and mismatches counted over the moves, the end of the game apart.

The oracles are not the code under test: the game manager, which holds the real racks and bag,
records the position before each of its players' turns; a replay of the file cut after line N
must reach the position a replay stopped at line N reaches; the next recorded play must be
legal, and score as recorded, from the CGP the replay writes; the racks and boards below are
read off the game files by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from lexc.board.board import Position, parse_cgp
from lexc.board.referee import judge
from lexc.game.gcg import ENDINGS, PLAY, TURNS, GCGError, parse_gcg, read_gcg
from lexc.game.interactive import render_board
from lexc.game.manager import selfplay
from lexc.game.position import position_after
from lexc.game.replay import ReplayError, replay
from lexc.ruleset import load_ruleset
from test_cli import _cache_env, assert_one_error_line, cache_dir, run_main  # noqa: F401 (ENABLE compiled once)
from test_game import short  # noqa: F401 (ENABLE's short words on the tiny board)
from test_gcg import _bump

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "games"
STANDARD = GAMES / "MAGPIE__standard.gcg"  # Josh vs Matt, no #lexicon, Matt goes out; events on lines 4-24
HASTY = GAMES / "MAGPIE__success_standard.gcg"  # #lexicon CSW21; a pass, an exchange, a withdrawn phony
TINY = ROOT / "wordlists" / "tiny.txt"
EMPTY = "/".join(["15"] * 15)
ANYWORD = SimpleNamespace(contains_codes=lambda codes: True)


def event_lines(path: Path) -> list[int]:
    """The numbers of a file's ``>`` lines, read without lexc."""
    text = path.read_bytes().decode("utf-8")
    return [n for n, line in enumerate(re.split(r"\r\n|\n", text), 1) if line.startswith(">")]


# -- 3. the position after event N --------------------------------------------------------------

def test_until_stops_at_the_event_on_that_line():
    report = replay(STANDARD, until=12)
    assert [e.line for e in report.events] == list(range(4, 13))
    assert report.final_recorded == (285, 163) and report.until == 12 and report.ok
    assert "after line 12: Josh 285 - Matt 163" in "\n".join(report.lines())


@pytest.mark.parametrize("name", ["MAGPIE__standard.gcg", "MAGPIE__success_standard.gcg",
                                  "liwords__combined_low_scoring.gcg", "quackle__fivepoint.gcg",
                                  "liwords__many_challenges.gcg"])
def test_until_reaches_the_position_of_the_file_cut_there(name):
    """Stopping at line N is replaying the file's first N lines: same board, totals, tiles
    held, scoreless turns, end. (Not the totals at an end-rack line: which convention it
    follows shows only in the lines after it, which the cut file lacks.)"""
    path = GAMES / name
    lines = path.read_bytes().decode("utf-8").replace("\r\n", "\n").split("\n")
    kinds = {e.line: e.kind for e in read_gcg(path).events}
    for n in event_lines(path):
        stopped, cut = replay(path, until=n), replay("\n".join(lines[:n]) + "\n")
        assert stopped.board == cut.board, n
        assert (stopped.held, stopped.scoreless_turns, stopped.end) == (cut.held, cut.scoreless_turns, cut.end), n
        if kinds[n] not in ENDINGS:
            assert (stopped.final_recorded, stopped.final_computed) == (cut.final_recorded, cut.final_computed), n


def test_the_position_by_hand():
    """MAGPIE__standard after line 12 (Josh's .IVINELY): Matt to move with AACDKRT (line 13's
    rack), Josh holding DIIIOTT (line 14's), 60 tiles on the board and 14 on the racks."""
    position = position_after(replay(STANDARD, until=12))
    assert position.seats[position.to_move].nickname == "Matt"
    assert [(s.nickname, s.score, s.rack, s.tiles) for s in position.seats] == [
        ("Josh", 285, "DIIIOTT", 7), ("Matt", 163, "AACDKRT", 7)]
    assert position.bag == 100 - position.board.tile_count() - 14 == 40
    assert position.turn == 10 and position.number == 9 and position.events == 21
    assert position.board.picture().splitlines()[14] == ".......DIVINELY"
    cgp = position.cgp()
    assert cgp.endswith(" AACDKRT/DIIIOTT 163/285 0")
    back = parse_cgp(cgp, load_ruleset("english"))
    assert back.board == position.board and back.racks == ("AACDKRT", "DIIIOTT") and back.scores == (163, 285)


def test_the_racks_around_a_withdrawn_phony():
    """HastyBot vs RightBehindYou: line 21 plays the phony VOKDA, line 22 takes it back. Between
    them RightBehindYou's rack is not written (the one line 22 shows is the rack before VOKDA)."""
    after = {n: position_after(replay(HASTY, until=n)) for n in (20, 21, 22)}
    racks = {n: {s.nickname: s.rack for s in p.seats} for n, p in after.items()}
    assert racks[20] == {"HastyBot": "ADEEIRT", "RightBehindYou": "ADGKOSV"}
    assert racks[21] == {"HastyBot": "ADEEIRT", "RightBehindYou": None}
    assert racks[22] == {"HastyBot": "ADEEIRT", "RightBehindYou": "ADGKOSV"}
    assert "VOKDA" not in after[22].board.picture().replace("\n", "")
    assert after[21].board.tile_count() == after[22].board.tile_count() + 5
    assert after[21].cgp().split()[1] == "ADEEIRT/"  # the unknown rack is left empty
    assert after[20].cgp().endswith(" lex CSW21;")  # the game's #lexicon


def test_the_end_of_a_game_and_of_an_unfinished_one():
    end = position_after(replay(STANDARD))
    assert end.end == "out" and {s.nickname: s.rack for s in end.seats} == {"Josh": "OS", "Matt": ""}
    assert "game over: Matt went out at line 23; Matt's rack: -" in end.status()
    unfinished = position_after(replay(GAMES / "incomplete" / "quackle__logan_we.gcg"))
    mover = unfinished.seats[unfinished.to_move]
    assert (mover.nickname, mover.rack) == ("Maven", "?AHRTTW")  # the file's #rack1 line


def test_the_next_play_is_legal_from_the_cgp_and_scores_as_recorded():
    """For every play of MAGPIE__standard, judge it on the CGP written after the event before
    it, with that CGP's rack to move: legal, and the recorded score."""
    english, game = load_ruleset("english"), read_gcg(STANDARD)
    for before, play in zip(game.events, game.events[1:], strict=False):
        if play.kind != PLAY:
            continue
        position = parse_cgp(position_after(replay(STANDARD, until=before.line)).cgp(), english)
        ruling = judge(position.board, position.rack, f"{play.position} {play.word}", ANYWORD)
        assert ruling.legal and ruling.score == play.score, (play.line, ruling.reason)


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_the_position_is_the_one_the_game_manager_held(short, seed):  # noqa: F811 (the fixture)
    """Self-play records the position before each turn (the manager's own board, racks,
    scores and scoreless turns): the replay stopped at the turn before must give the same.
    (Seed 4 ends in six scoreless turns.)"""
    result = selfplay(short, "tiny", seed)
    turns = [e for e in read_gcg(result.gcg.encode("utf-8")).events if e.kind in TURNS]
    assert len(result.positions) == len(turns) > 3
    for recorded in result.positions[1:]:
        line = turns[recorded["turn"] - 2].line  # the turn before this one
        ours, theirs = position_after(replay(result.gcg, short, until=line)), parse_cgp(recorded["cgp"], result.ruleset)
        mine = ours.position()
        assert (mine.board, mine.scores, mine.scoreless_turns) == (theirs.board, theirs.scores, theirs.scoreless_turns)
        assert sorted(mine.racks[0]) == sorted(recorded["rack"]) and ours.turn == recorded["turn"], line


def test_the_cli_board_is_lexc_plays_rendering(capsys):
    code, out, err = run_main(capsys, "replay", STANDARD, "-L", TINY, "--until", "12", "--board", "--no-color")
    board = replay(STANDARD, until=12).board
    assert code == 0 and err == ""
    assert out == ("after line 12 (event 9 of 21): Josh 15H .IVINELY +98 285\n" + render_board(board) + "\n"
                   "rack AACDKRT   Matt 163 - Josh 285   bag 40   turn 10\nMatt to move; Josh's rack: DIIIOTT\n")


def test_the_cli_cgp_and_json(capsys):
    code, out, err = run_main(capsys, "replay", STANDARD, "-L", TINY, "--until", "12", "--cgp")
    assert code == 0 and err == "" and out.count("\n") == 1
    assert out.strip() == position_after(replay(STANDARD, until=12)).cgp()
    code, out, _ = run_main(capsys, "replay", STANDARD, "-L", TINY, "--until", "12", "--json")
    data = json.loads(out)
    assert code == 0 and data["until"] == 12 and data["events"][-1]["line"] == 12
    assert data["position"]["cgp"] == out_cgp(capsys, STANDARD, "12")
    assert data["position"]["to_move"] == "Matt" and data["position"]["after_line"] == 12
    assert [p["rack"] for p in data["position"]["players"]] == ["DIIIOTT", "AACDKRT"]
    code, out, _ = run_main(capsys, "replay", STANDARD, "-L", TINY, "--board", "--json")  # no --until: the end
    assert code == 0 and json.loads(out)["position"]["after_line"] == 24
    code, out, _ = run_main(capsys, "replay", STANDARD, "-L", TINY)  # without the options: no position
    assert "position" not in out


def out_cgp(capsys, path: Path, until: str) -> str:
    return run_main(capsys, "replay", path, "-L", TINY, "--until", until, "--cgp")[1].strip()


def test_the_cgp_notes_a_rack_the_record_does_not_give(capsys, tmp_path):
    code, out, err = run_main(capsys, "replay", HASTY, "-L", TINY, "--until", "21", "--cgp")
    assert code == 0 and out.split()[1] == "ADEEIRT/"
    assert "the record does not give" not in err  # HastyBot, to move, is known
    text = HASTY.read_text(encoding="utf-8").replace(">HastyBot: ADEEIRT M2 ED", ">HastyBot: ADE M2 ED")  # partial
    partial = write(tmp_path / "partial.gcg", text)
    code, out, err = run_main(capsys, "replay", partial, "-L", TINY, "--until", "22", "--cgp")
    assert code == 0 and out.split()[1] == "/ADGKOSV"
    assert "the record does not give HastyBot's rack in full" in err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_replay_with_problems_still_shows_the_position_and_exits_1(capsys):
    path = GAMES / "negative" / "MAGPIE__standard_cumulative_scoring_error.gcg"
    code, out, err = run_main(capsys, "replay", path, "-L", TINY, "--until", "16", "--board")
    assert code == 1 and "after line 16" in out
    assert "up to line 16 finds problems (1 mismatch in the moves, 0 errors)" in err


@pytest.mark.parametrize("until, says", [
    ("0", "0 is not in the range 1<=x<=1,000,000,000"),
    ("-3", "-3 is not in the range"),
    ("99999999999999999999", "is not in the range"),
    ("12x", "is not a valid integer"),
    ("3", "line 3 is before the first event: the events are on lines 4 to 24"),
    ("25", "line 25 is after the last event: the events are on lines 4 to 24"),
    ("1000000", "line 1000000 is after the last event"),
])
def test_an_until_out_of_range_is_one_line(capsys, until, says):
    code, out, err = run_main(capsys, "replay", STANDARD, "-L", TINY, "--until", until, "--board")
    assert code == 2 and out == ""
    assert_one_error_line(err, "'--until'", says)


def test_an_until_between_events_names_the_nearest(capsys):
    note = HASTY.read_text(encoding="utf-8").split("\n").index("#note this") + 1  # line 29, between 28 and 34
    code, _, err = run_main(capsys, "replay", HASTY, "-L", TINY, "--until", str(note))
    assert code == 2
    assert_one_error_line(err, f"line {note} holds no event (the events nearest it are on lines 28 and 34)")
    with pytest.raises(ReplayError, match="no events"):
        replay("#player1 a a\n#player2 b b\n", until=1)


def test_the_help_says_what_n_counts(capsys):
    code, out, _ = run_main(capsys, "replay", "--help")
    assert code == 0 and "line number" in out and "--until N" in out and "--board" in out and "--cgp" in out


# -- 4. the game's #lexicon ---------------------------------------------------------------------

def test_a_game_naming_another_lexicon_gets_a_warning(capsys):
    code, out, err = run_main(capsys, "replay", HASTY, "-L", TINY, "--json")
    data = json.loads(out)
    assert code == 0 and err == "lexc replay: warning: the game names lexicon CSW21; judging with tiny\n"
    assert data["lexicon"] == "tiny" and data["game_lexicon"] == "CSW21"
    code, out, err = run_main(capsys, "replay", STANDARD, "-L", TINY, "--json")  # no #lexicon: no warning
    assert code == 0 and err == "" and json.loads(out)["game_lexicon"] is None


def test_a_game_naming_the_lexicon_in_use_gets_none(capsys, tmp_path):
    text = STANDARD.read_text(encoding="utf-8").replace("#player1", "#lexicon TINY\n#player1")
    code, out, err = run_main(capsys, "replay", write(tmp_path / "g.gcg", text), "-L", TINY, "--json")
    assert code == 0 and err == "" and json.loads(out)["game_lexicon"] == "TINY"


def test_the_bundled_lexicon_is_enable(capsys, tmp_path):
    text = STANDARD.read_text(encoding="utf-8").replace("#player1", "#lexicon enable\n#player1")
    code, out, err = run_main(capsys, "replay", write(tmp_path / "g.gcg", text), "--json")
    assert code == 0 and err == "" and json.loads(out)["lexicon"] == "ENABLE"
    code, out, err = run_main(capsys, "replay", HASTY)
    assert code == 0 and err == "lexc replay: warning: the game names lexicon CSW21; judging with ENABLE\n"


def test_the_library_names_both():
    report = replay(HASTY, lexicon_name="NWL20")
    assert (report.lexicon, report.game_lexicon) == ("NWL20", "CSW21")
    assert report.as_dict()["lexicon"] == "NWL20" and report.as_dict()["game_lexicon"] == "CSW21"


# -- 6. a file that is not a game record --------------------------------------------------------

def test_files_that_are_not_game_records_are_named(capsys, tmp_path):
    empty = write(tmp_path / "empty.gcg", "")
    binary = tmp_path / "a.out"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    utf16 = tmp_path / "u16.gcg"
    utf16.write_bytes("#player1 a a\n".encode("utf-16"))
    cases = [
        (ROOT / "README.md", "README.md: line ", "not a GCG game record"),
        (empty, "empty.gcg: ", "not a GCG game record"),
        (binary, "a.out: line 1: ", "a binary file, not a GCG game record"),
        (utf16, "u16.gcg: line 1: ", "UTF-16"),
        (tmp_path / "missing.gcg", "missing.gcg", ""),
        (tmp_path, str(tmp_path), "directory"),
    ]
    for path, *says in cases:
        code, out, err = run_main(capsys, "replay", path, "-L", TINY)
        assert code == 2 and out == "", path
        assert_one_error_line(err, *says)
        code, _, err = run_main(capsys, "replay", path, "-L", TINY, "--until", "5", "--board")
        assert code == 2
        assert_one_error_line(err, *says)


def test_the_reader_says_binary_and_not_a_record():
    with pytest.raises(GCGError, match=r"^line 2: a NUL byte: a binary file"):
        read_gcg(b"#player1 a a\n\0\0\0")
    with pytest.raises(GCGError, match=r"^line 3: not a pragma .*not a GCG game record\?"):
        parse_gcg("# Title\n\nSome prose.\n")
    with pytest.raises(GCGError, match=r"continuation$"):  # a game record with a bad line: no such hint
        parse_gcg("#player1 a a\n#player2 b b\nprose\n")


# -- 9. a CGP with empty racks; mismatches counted over the moves ------------------------------

def test_an_empty_rack_field_is_two_empty_racks():
    english = load_ruleset("english")
    position = parse_cgp(f"{EMPTY} / 0/0 0", english)
    assert position.racks == ("", "") and position.racks_given
    assert not parse_cgp(EMPTY, english).racks_given  # no rack field at all
    assert parse_cgp(position.cgp(), english) == position == Position(position.board)


@pytest.mark.parametrize("cgp", [f"{EMPTY} / 0/0 0", f"{EMPTY} /AEINRST 0/0 0",
                                 "/".join(["15"] * 7 + ["7CAT5"] + ["15"] * 7) + " / 10/0 0"])
def test_moves_with_an_empty_rack_to_move_has_no_play(capsys, cgp):
    code, out, err = run_main(capsys, "moves", TINY, "--cgp", cgp)
    assert (code, out, err) == (1, "", "lexc: no play\n")
    code, out, err = run_main(capsys, "moves", TINY, "--cgp", cgp, "--json")
    assert code == 1 and json.loads(out) == []


def test_judge_with_an_empty_rack_to_move_passes_only(capsys):
    code, out, err = run_main(capsys, "judge", TINY, "--cgp", f"{EMPTY} / 0/0 0", "-")
    assert code == 0 and err == "" and out.startswith("legal: - (a pass)")
    code, out, err = run_main(capsys, "judge", TINY, "--cgp", f"{EMPTY} / 0/0 0", "8H CAT")
    assert code == 1 and err == "" and "the rack is empty" in out


def test_moves_batch_with_empty_racks(capsys, tmp_path):
    batch = write(tmp_path / "p.jsonl", json.dumps({"cgp": f"{EMPTY} / 0/0 0"}) + "\n")
    code, out, err = run_main(capsys, "moves", TINY, "--batch", batch)
    assert code == 0 and err == "" and json.loads(out) == {"count": 0, "moves": []}


def test_no_rack_field_and_no_rack_is_still_a_usage_error(capsys, tmp_path):
    code, _, err = run_main(capsys, "moves", TINY, "--cgp", EMPTY)
    assert code == 2
    assert_one_error_line(err, "no rack")
    picture = write(tmp_path / "board.txt", "\n".join(["." * 15] * 15) + "\n")
    code, _, err = run_main(capsys, "moves", TINY, "--board", picture)
    assert code == 2
    assert_one_error_line(err, "no rack")


def test_a_wrong_end_of_game_line_is_counted_apart():
    """MAGPIE's end_rack_points_incorrect: every move scores as recorded; the end-rack points
    (+14 for twice RELATCH's 12) do not, and so the final scores differ."""
    report = replay(GAMES / "negative" / "MAGPIE__end_rack_points_incorrect.gcg")
    assert (report.mismatches, report.end_mismatches, report.final_mismatch) == (0, 1, True)
    assert not report.ok
    final, moves = next((a, b) for a, b in zip(report.lines(), report.lines()[1:], strict=False)
                        if a.startswith("final: "))
    assert final.endswith("recorded, 393 - 539 computed (they differ); end-of-game lines: 1 mismatch")
    assert moves.startswith("0 mismatches in the moves, ")
    data = report.as_dict()
    assert (data["mismatches"], data["end_mismatches"], data["final_mismatch"], data["ok"]) == (0, 1, True, False)


def test_one_wrong_play_is_one_mismatch():
    """A play recorded one point high (and the totals after it): one mismatch, not two (the
    final scores that differ because of it are reported apart)."""
    report = replay(_bump(STANDARD.read_text(encoding="utf-8"), 10))  # line 10: Josh's 12K AFTER
    assert report.mismatches == 1 and report.end_mismatches == 0 and report.final_mismatch
    assert [e.line for e in report.events if e.mismatch] == [10] and not report.ok


def test_a_game_naming_no_tile_set_is_replayed_with_the_lexicons_ruleset(short):  # noqa: F811 (the fixture)
    """The game's own #tile-distribution decides; without one, the ruleset the lexicon was
    built with (a lexicon keeps its ruleset), not english."""
    result = selfplay(short, "tiny", 2)
    assert "#tile-distribution tiny" in result.gcg and replay(result.gcg, short).ok
    bare = "\n".join(line for line in result.gcg.splitlines() if not line.startswith("#tile-distribution"))
    report = replay(bare, short)
    assert report.ruleset == "tiny" and report.ok
    assert replay(bare, short, "english").ruleset == "english"  # a ruleset given is the one used
