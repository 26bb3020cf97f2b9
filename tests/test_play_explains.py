"""lexc play explains itself (issue 35, item 7): a suggestion it offers after a refused play
is itself legal, a play that needs the blank says how to write it, an unknown command points
at help, a word added with ``add`` is a ``#note`` of the saved game, and a game is written
only where the person asked or where the message says."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

from lexc.board.board import Board
from lexc.board.referee import judge
from lexc.cli import cli
from lexc.formats import save
from lexc.game.advice import explain_refusal
from lexc.game.gcg import ADDED_WORDS, added_words, parse_gcg, write_gcg
from lexc.game.manager import GameManager
from lexc.game.players import Action, ProgramPlayer
from lexc.game.replay import replay
from lexicons import enable_built
from test_play import ENGLISH, TINY, Scripted, person_first_seed


@pytest.fixture(scope="module")
def enable_file(enable_list, tmp_path_factory):
    """ENABLE as a DAWG file, and the lexicon itself."""
    lexicon = enable_built(enable_list, "dawg")
    path = tmp_path_factory.mktemp("explains") / "enable.dawg"
    save(lexicon, path, {"min_len": 2, "max_len": None, "skip_invalid": False})
    return path, lexicon


# seed 1 with ENABLE (the README's game): 8D HAULS, lexc F6 YA(U)TIA, then the rack ELMNOR?
SEED1 = ["8D HAULS"]


def play(*args, input=""):
    return CliRunner().invoke(cli, ["play", *map(str, args)], input=input)


def refusals(output: str) -> list[str]:
    return re.findall(r"^you> illegal: (.*)$", output, re.M)


def board_after_hauls(lexicon) -> tuple[Board, str]:
    """The position of the seed-1 game at the person's second turn, and their rack."""
    human = Scripted(lexicon)
    manager = GameManager(ENGLISH, [human, ProgramPlayer(lexicon, "auto", "lexc", "x")], lexicon, 1, "doubling")
    assert manager.players[0].nick == "you"
    manager.submit(Action.place("8D HAULS"))
    manager.step()
    return manager.board, manager.rack(0)


def test_the_whole_word_suggestion_is_offered_only_when_it_is_legal(enable_file, tmp_path):
    """H9 ON: H8 (S)ON is legal, offered; H9 OE: H8 (S)OE forms SOE, no word, so it is not
    offered and the person is told why; H9 ZZZ with no Z and one blank: no suggestion."""
    path, lexicon = enable_file
    typed = ["H9 ON", "H9 OE", "H9 ZZZ"]
    result = play(path, "--seed", 1, "--save", tmp_path / "g.gcg", "--no-color",
                  input="\n".join([*SEED1, *typed, "H8 (S)ON", "quit", "y"]) + "\n")
    assert result.exit_code == 0, result.output
    said = refusals(result.output)
    assert said == [
        "H9 ON: the word starts at H8, not H9: write H8 (S)ON",
        "H9 OE: the word starts at H8, not H9, and the play would still be illegal: invalid word: SOE",
        "H9 ZZZ: the word starts at H8, not H9, and the play would still be illegal: "
        "tile not on the rack: Z (rack ELMNOR?)"]
    assert "you: H8 (S)ON for " in result.output  # the suggestion, typed, is accepted
    board, rack = board_after_hauls(lexicon)
    for line in said:  # every play offered is one the referee accepts on that position with that rack
        for offered in re.findall(r"write (\S+ \S+)$|: (\S+ \S+)$", line):
            notation = offered[0] or offered[1]
            if re.match(r"[0-9A-O]", notation):
                assert judge(board, rack, notation, lexicon).legal, notation


def test_a_play_that_needs_the_blank_says_how_to_write_it(enable_file, tmp_path):
    """Turn 1 of seed 1, rack AHLNSU?: 8F HULLS (one L) is told to write the blank in lower
    case, with the best legal way; 8G HAULZ (no Z, and HAULZ no word) is told both; 8D HAULS
    is untouched. Then, rack ELMNOR?: H9 OX, misplaced and without an X, gets H8 (S)Ox."""
    path, lexicon = enable_file
    script = ["8F HULLS", "8G HAULZ", "8D HAULS", "H9 OX", "H8 (S)Ox", "quit", "y"]
    result = play(path, "--seed", 1, "--save", tmp_path / "b.gcg", "--no-color", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert refusals(result.output) == [
        "you have only 1 L: to play the blank as L, write it in lower case: 8F HUlLS",
        "you have no Z (to play the blank as Z, write it in lower case), and with the blank the play is still "
        "illegal: invalid word: HAULz",
        "H9 OX: the word starts at H8, not H9, and you have no X: to play the blank as X, write it in lower case: "
        "H8 (S)Ox"]
    assert "you: H8 (S)Ox for " in result.output
    assert replay((tmp_path / "b.gcg").read_text(encoding="utf-8"), lexicon).ok


def test_blank_advice_needs_a_blank_and_is_judged(enable_file):
    """No blank on the rack, or more letters lacking than blanks: the referee's reason alone.
    With the blank: the best-scoring legal place for it, and every play offered is legal."""
    _, lexicon = enable_file
    empty = Board.empty(ENGLISH)
    reason = judge(empty, "AEILRST", "8H ZAX", lexicon).reason
    assert explain_refusal(empty, "AEILRST", "8H ZAX", reason, lexicon) == reason
    reason = judge(empty, "AE?", "8H QUIZ", lexicon).reason
    assert explain_refusal(empty, "AE?", "8H QUIZ", reason, lexicon) == reason
    told = explain_refusal(empty, "AEX?", "8H ZAX", judge(empty, "AEX?", "8H ZAX", lexicon).reason, lexicon)
    assert told == "you have no Z: to play the blank as Z, write it in lower case: 8H zAX"
    assert judge(empty, "AEX?", "8H zAX", lexicon).legal
    told = explain_refusal(empty, "AES??", "8G ZAXES", "", lexicon)  # two blanks for two letters
    assert told.startswith("you have no X and no Z: to play blanks as X and Z, write them in lower case: ")
    assert judge(empty, "AES??", told.rsplit(": ", 1)[1], lexicon).legal
    notation_error = explain_refusal(empty, "AEX?", "8H Z!X", "the reason", lexicon)
    assert notation_error == "the reason"  # notation that cannot be read: the referee's word stands


def test_an_unknown_command_points_at_help(tmp_path):
    """A first word that is no command and no coordinate is an unknown command; one that
    looks like a coordinate goes to the referee."""
    result = play(TINY, "--seed", 0, "--save", tmp_path / "u.gcg", "--no-color",
                  input="foo\nfrobnicate the board\nh8word\nZ99 CAT\nquit\ny\n")
    assert result.exit_code == 0, result.output
    told = result.output
    assert "unknown command 'foo': type help for the commands" in told
    assert "unknown command 'frobnicate': type help for the commands" in told
    assert "illegal: 'h8word' is not a play" in told and "illegal: Z99: off the board" in told


def test_an_added_word_is_a_note_of_the_saved_game(tmp_path):
    """add WORD writes '#note NICK added to this game's lexicon: WORD' (GCG: a note on the
    event before it, or on the game before any event); the saved game reads back, replays
    (its words judged by the list given, the added one reported unknown) and names the word."""
    from lexc.lexicons.source import open_lexicon

    lexicon = open_lexicon(str(TINY))
    seed = person_first_seed(lexicon)
    script = ["add QI", "y", "pass", "add ZA QI", "y", "quit", "y"]
    saved = tmp_path / "add.gcg"
    result = play(TINY, "--seed", seed, "--save", saved, "--no-color", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    text = saved.read_text(encoding="utf-8")
    assert f"#note you {ADDED_WORDS} QI\n" in text  # before any event: a note of the game
    lines = text.splitlines()
    second = lines.index("#note you added to this game's lexicon: ZA")
    assert lines[second - 1].startswith(">lexc: ")  # after the event before it (the program's reply to the pass)
    game = parse_gcg(text)
    assert added_words(game) == ["QI", "ZA"]
    assert parse_gcg(write_gcg(game)).events[-1].note == game.events[-1].note
    report = replay(text, lexicon)
    assert report.ok
    runner = CliRunner().invoke(cli, ["replay", str(saved), "-L", str(TINY)])
    assert runner.exit_code == 0, runner.output


def test_watch_saves_only_where_asked(enable_file, tmp_path, monkeypatch):
    """--watch without --save writes nothing (the seed plays the game again) and says so;
    with --save it writes there and says where."""
    path, _ = enable_file
    monkeypatch.chdir(tmp_path)
    result = play(path, "--watch", "--seed", 3, "--no-color", "--json")
    assert result.exit_code == 0, result.output
    assert os.listdir(tmp_path) == []
    assert "not saved (--save FILE.gcg saves a game; lexc play --watch --seed 3 plays this one again)" \
        in result.stderr
    assert json.loads(result.stdout)["gcg"] is None
    saved = tmp_path / "sub" / "w.gcg"
    saved.parent.mkdir()
    result = play(path, "--watch", "--seed", 3, "--no-color", "--save", saved)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"saved to {saved} (lexc replay {saved})"
    assert os.listdir(tmp_path) == ["sub"] and saved.is_file()


def test_a_game_played_without_save_says_where_and_never_overwrites(tmp_path, monkeypatch):
    """Your game without --save goes to lexc-game-SEED.gcg in the current folder, named by its
    absolute path; a second one of the same seed to lexc-game-SEED-2.gcg, the first kept."""
    monkeypatch.chdir(tmp_path)
    first = play(TINY, "--seed", 4, "--no-color", input="pass\nquit\ny\n")
    assert first.exit_code == 0, first.output
    where = tmp_path / "lexc-game-4.gcg"
    assert first.output.splitlines()[-1] == f"saved to {where} (lexc replay {where})"
    before = where.read_bytes()
    second = play(TINY, "--seed", 4, "--no-color", input="quit\ny\n")
    again = tmp_path / "lexc-game-4-2.gcg"
    assert second.output.splitlines()[-1] == f"saved to {again} (lexc replay {again})"
    assert where.read_bytes() == before and again.is_file()


@pytest.mark.parametrize("where, fragment", [
    ("no/such/folder/g.gcg", "no folder"),
    (".", "is a directory"),
])
def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(capsys, tmp_path, where, fragment):
    from lexc.cli import main

    target = str(tmp_path / where) if where != "." else str(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(["play", str(TINY), "--save", target])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and fragment in captured.err and target in captured.err
    assert "you> " not in captured.out
