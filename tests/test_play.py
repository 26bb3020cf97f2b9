"""lexc play: whole games driven through the command's input, checked against the same game
played by the game manager directly (an oracle), and the saved GCG replayed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from lexc.board.board import Board, parse_cgp
from lexc.cli import cli
from lexc.equity.bundled import bundled_leaves
from lexc.formats import save
from lexc.game.gcg import EXCHANGE, PASS, PLAY, parse_gcg
from lexc.game.interactive import premium_mark, render_board
from lexc.game.manager import GameManager
from lexc.game.players import Action, ProgramPlayer
from lexc.game.replay import replay
from lexc.ruleset import load_ruleset
from lexicons import enable_built

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "wordlists" / "tiny.txt"
ENGLISH = load_ruleset("english")


@pytest.fixture(scope="module")
def enable_file(enable_list, tmp_path_factory):
    """ENABLE as a DAWG file, and the lexicon itself."""
    lexicon = enable_built(enable_list, "dawg")
    path = tmp_path_factory.mktemp("play") / "enable.dawg"
    save(lexicon, path, {"min_len": 2, "max_len": None, "skip_invalid": False})
    return path, lexicon


class Scripted:
    """The oracle's stand-in for the person: exchange on the first turn, pass on the second,
    then the best play (or a pass); records what a person would type for each turn."""

    def __init__(self, lexicon, nick="you"):
        self.greedy = ProgramPlayer(lexicon, nick=nick)
        self.nick, self.name, self.program = nick, "human player", False
        self.typed: list[str] = []

    def choose(self, view):
        turn = len(self.typed)
        if turn == 0 and view.can_exchange:
            action, text = Action.exchange(view.rack[:3]), f"exchange {view.rack[:3]}"
        elif turn == 1:
            action, text = Action.pass_turn(), "pass"
        else:
            action = self.greedy.choose(view)
            text = {PLAY: lambda: action.play.notation(view.board), EXCHANGE: lambda: f"exchange {action.tiles}",
                    PASS: lambda: "pass"}[action.kind]()
        self.typed.append(text)
        return action


def oracle(lexicon, seed, description):
    """The game ``lexc play --seed SEED`` gives when the person types what Scripted types."""
    human = Scripted(lexicon)
    program = ProgramPlayer(lexicon, "auto", "lexc", "lexc equity player", level="equity",
                            leaves=bundled_leaves(ENGLISH))  # lexc play's default player
    manager = GameManager(ENGLISH, [human, program], lexicon,
                          seed, "doubling", "enable", description)
    manager.run()
    return manager, human.typed


def play(*args, input=""):
    return CliRunner().invoke(cli, ["play", *map(str, args)], input=input)


def without_description(gcg: str) -> list[str]:
    return [line for line in gcg.splitlines() if not line.startswith("#description")]


def test_a_whole_game_through_the_keyboard(enable_file, tmp_path):
    path, lexicon = enable_file
    seed = 11
    manager, typed = oracle(lexicon, seed, None)
    # between the turns: every command that does not take the turn, and refused plays
    chatter = ["help", "board", "score", "check CAT QXZ", "anagram", "anagram RETAIN?", "hooks CARE", "",
               "frobnicate", "8A ZZZZZZZ", "Z99 CAT", "exchange", "quit", "n"]
    script = []
    for i, text in enumerate(typed):
        script += chatter if i == 2 else ["8A QQQQ"] if i % 3 == 0 else []
        script.append(text)
    saved = tmp_path / "game.gcg"
    result = play(path, "--seed", seed, "--save", saved, "--no-color", "--json", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["scores"] == list(manager.scores) and summary["end"] == manager.end and summary["seed"] == seed
    text = saved.read_text(encoding="utf-8")
    assert without_description(text) == without_description(manager.result().gcg)
    report = replay(text, lexicon)
    assert report.ok and report.final_computed == tuple(manager.scores)
    told = result.stderr
    assert "illegal: tile not on the rack" in told  # 8A QQQQ
    assert "unknown command" in told or "is not a play" in told  # frobnicate
    assert "off the board" in told or "not a play" in told  # Z99 CAT
    assert "QXZ: not in the lexicon" in told and "CAT: valid" in told
    assert re.search(r"^lexc: \S+ \S+ for \d+ \(leave ", told, re.M)  # the program's play, score, leave
    assert "commands:" in told and "triple word" in told and "final: " in told
    events = parse_gcg(text).events
    assert events[0].kind == EXCHANGE or parse_gcg(text).players[0][0] == "lexc"


def test_quit_asks_first_and_saves_the_game_so_far(enable_file, tmp_path):
    path, lexicon = enable_file
    saved = tmp_path / "quit.gcg"
    result = play(path, "--seed", 5, "--save", saved, "--no-color", input="quit\nno\npass\nquit\ny\n")
    assert result.exit_code == 0, result.output
    assert "game ended by the player" in result.output and f"saved to {saved}" in result.output
    game = parse_gcg(saved.read_text(encoding="utf-8"))
    mine = [e for e in game.events if game.players[e.player][0] == "you"]
    assert [e.kind for e in mine] == [PASS]  # the first quit was answered no; the pass counted
    assert replay(saved.read_text(encoding="utf-8"), lexicon).ok


def test_end_of_input_ends_the_game_and_saves_it(enable_file, tmp_path):
    path, _ = enable_file
    saved = tmp_path / "eof.gcg"
    result = play(path, "--seed", 5, "--save", saved, "--no-color", input="")
    assert result.exit_code == 0 and saved.is_file()


def test_add_a_word_then_play_it(tmp_path):
    """The lexicon manager: a word the lexicon lacks is refused, then added after a
    confirmation (a 'no' adds nothing) and played."""
    from lexc.lexicons.source import open_lexicon

    lexicon = open_lexicon(str(TINY))
    for seed in range(100):  # a deal where the person moves first, so the word goes on H8
        manager = GameManager(ENGLISH, [Scripted(lexicon), ProgramPlayer(lexicon, nick="lexc")], lexicon, seed)
        if manager.players[0].nick == "you":
            break
    else:
        raise AssertionError("no deal in 100 seeds lets the person move first")
    rack = manager.rack(0)
    word = next(a + b for a in rack for b in rack if a != "?" and b != "?" and a + b not in lexicon
                and (a != b or rack.count(a) > 1))
    at = "8H"
    script = [f"{at} {word}", f"add {word}", "n", f"add {word}", "y", f"{at} {word}", "quit", "y"]
    saved = tmp_path / "add.gcg"
    result = play(TINY, "--seed", seed, "--save", saved, "--no-color", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert f"illegal: invalid word: {word}" in result.output
    assert "nothing added" in result.output and f"added for this game: {word}" in result.output
    assert f"rebuilding the dawg lexicon with {word}" in result.output  # said before the rebuild, not after
    game = parse_gcg(saved.read_text(encoding="utf-8"))
    first = next(e for e in game.events if game.players[e.player][0] == "you")
    assert first.kind == PLAY and first.word == word
    report = replay(saved.read_text(encoding="utf-8"), lexicon)
    assert report.ok and word not in report.unknown_words  # the replay learns the word from the game's note
    assert report.added_words == (word,) and report.as_dict()["added_words"] == [word]
    assert any(line == f"added to the lexicon by the game's notes: {word}" for line in report.lines())
    cut = "\n".join(line for line in saved.read_text(encoding="utf-8").splitlines() if "added to" not in line)
    plain = replay(cut, lexicon)  # without the note, the word is one the lexicon lacks, reported as such
    assert word in plain.unknown_words and plain.added_words == ()


def test_board_letters_spelled_out_and_the_whole_word_rule(enable_file, tmp_path):
    """The README's game (seed 1): after 8D HAULS, a letter other than the board's is refused
    naming the square, a word not written from its first square is refused naming where it
    starts and how to write it (a legal play: test_play_explains has the illegal ones), and
    H7 OSE (the S spelled out) is H7 O(S)E; the saved game replays."""
    path, lexicon = enable_file
    saved = tmp_path / "ose.gcg"
    script = ["8D HAULS", "8D UNLASH", "H9 ON", "H7 OTE", "H7 OSE", "quit", "y"]
    result = play(path, "--seed", 1, "--save", saved, "--no-color", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    told = result.output
    assert "rack AHLNSU?" in told and "you: 8D HAULS for 24" in told
    assert "illegal: 8D UNLASH: D8 holds H, not U" in told
    assert "illegal: H9 ON: the word starts at H8, not H9: write H8 (S)ON" in told  # (a legal play: SON)
    assert "illegal: H7 OTE: H8 holds S, not T" in told
    assert "you: H7 O(S)E for 3 (leave LMNR?; total 27)" in told
    text = saved.read_text(encoding="utf-8")
    assert ">you: ELMNOR? H7 O.E +3 27" in text
    assert replay(text, lexicon).ok


def test_replay_applies_the_whole_word_rule(enable_file):
    """GCG plays go through the same reading: board letters as '.' or spelled out, and a
    coordinate that is not the word's first square is an error naming the square."""
    _, lexicon = enable_file
    head = "#character-encoding UTF-8\n#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n"
    for written in ("J8 .H", "J8 SH", "J8 (S)H"):
        report = replay(head + f">b: HOX {written} +5 5\n", lexicon)
        assert report.ok, (written, report.errors)
    report = replay(head + ">b: HOX J9 H +5 5\n", lexicon)
    assert not report.ok
    assert report.errors == ["line 5: J9 H: the word starts at J8, not J9: write J8 (S)H"]
    report = replay(head + ">b: HOX J8 XH +5 5\n", lexicon)
    assert report.errors == ["line 5: J8 XH: J8 holds S, not X"]


def test_two_programs_play_through_the_same_loop(enable_file, tmp_path):
    path, lexicon = enable_file
    saved = tmp_path / "watch.gcg"
    result = play(path, "--watch", "--seed", 3, "--save", saved, "--no-color", "--json")
    assert result.exit_code == 0, result.output
    leaves = bundled_leaves(ENGLISH)  # the default player: equity, with the bundled leaves
    players = [ProgramPlayer(lexicon, "auto", "lexc2", "x", level="equity", leaves=leaves),
               ProgramPlayer(lexicon, "auto", "lexc", "y", level="equity", leaves=leaves)]
    expected = GameManager(ENGLISH, players, lexicon, 3, "doubling", "enable").run()
    text = saved.read_text(encoding="utf-8")
    assert [e.move() for e in parse_gcg(text).events] == [e.move() for e in expected.record.events]
    assert json.loads(result.stdout)["scores"] == list(expected.scores)
    assert replay(text, lexicon).ok


def test_the_beginner_level_plays_the_middle_of_the_ranking(enable_file):
    _, lexicon = enable_file
    board = parse_cgp("/".join(["15"] * 15), ENGLISH).board
    from lexc.game.players import TurnView
    from lexc.movegen import generate

    view = TurnView(board, "AEINRST", (0, 0), 86, 7, 0, 1)
    moves = generate(board, "AEINRST", lexicon)
    assert ProgramPlayer(lexicon, level="beginner").choose(view).play == moves[len(moves) // 2].play
    assert ProgramPlayer(lexicon).choose(view).play == moves[0].play
    with pytest.raises(ValueError, match="level"):
        ProgramPlayer(lexicon, level="grandmaster")


def test_board_rendering():
    board = Board.empty(ENGLISH)
    plain = render_board(board)
    rows = plain.splitlines()
    assert rows[0].split() == [chr(ord("A") + i) for i in range(15)]
    assert rows[1].split()[1] == "=" and rows[8].split()[8] == "*" and rows[2].split()[2] == "-"
    assert premium_mark(board, 1, 5) == ";" and premium_mark(board, 0, 3) == ":"
    assert "\x1b[" not in plain
    played = board.with_tiles([(7, 7, 3), (7, 8, 1 | 0x80), (7, 9, 20)])
    row8 = render_board(played).splitlines()[8].split()
    assert row8[8:11] == ["C", "a", "T"]
    colored = render_board(played, color=True)
    assert "\x1b[" in colored and click_unstyle(colored) == render_board(played)


def click_unstyle(text: str) -> str:
    import click

    return click.unstyle(text)


@pytest.mark.parametrize("args, fragment", [
    (["--name", "two words"], "nickname"),
    (["-r", "nope"], "nope"),
    (["--level", "grandmaster"], "grandmaster"),
])
def test_bad_options(capsys, args, fragment):
    from lexc.cli import main

    with pytest.raises(SystemExit) as info:
        main(["play", str(TINY), *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err


def person_first_seed(lexicon) -> int:
    """A seed whose deal lets the person move first (on the empty board)."""
    for seed in range(100):
        manager = GameManager(ENGLISH, [Scripted(lexicon), ProgramPlayer(lexicon, nick="lexc")], lexicon, seed)
        if manager.players[0].nick == "you":
            return seed
    raise AssertionError("no deal in 100 seeds lets the person move first")


def test_hint_lists_the_best_plays_for_the_rack(tmp_path):
    from lexc.lexicons.source import open_lexicon
    from lexc.movegen import generate_plays

    lexicon = open_lexicon(str(TINY))
    seed = person_first_seed(lexicon)
    rack = GameManager(ENGLISH, [Scripted(lexicon), ProgramPlayer(lexicon, nick="lexc")], lexicon, seed).rack(0)
    best = generate_plays(Board.empty(ENGLISH), rack, lexicon).pairs()
    result = play(TINY, "--seed", seed, "--save", tmp_path / "h.gcg", "--no-color",
                  input="hint\nhint 2\nhint many\nhint \u00b2\nquit\ny\n")
    assert result.exit_code == 0, result.output
    lines = [f"{score:>4}  {notation}" for notation, score in best]
    told = result.output
    assert "\n".join(lines[:5]) in told and "\n".join(lines[:2]) + "\nyou> " in told
    assert told.count("hint how many?") == 2
    assert "hint [N]" in play(TINY, "--seed", seed, "--save", tmp_path / "help.gcg", input="help\n").output


def default_sigint() -> None:
    """In the child before it runs: Ctrl-C's default action back, so Python turns SIGINT into
    KeyboardInterrupt even when the tests were started with SIGINT ignored (a shell's
    background job, nohup)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def read_within(fd: int, deadline: float) -> bytes:
    """What the pipe holds next, b"" at its end or once ``deadline`` (monotonic) passes."""
    import os
    import select
    import time

    ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
    return os.read(fd, 4096) if ready else b""


def test_ctrl_c_ends_and_saves_the_game_like_quit(tmp_path):
    """A real Ctrl-C (SIGINT) at the prompt of the person's second turn: the game so far is
    saved, as quit saves it, and replays."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import lexc
    from lexc.lexicons.source import open_lexicon

    lexicon = open_lexicon(str(TINY))
    seed = person_first_seed(lexicon)
    saved = tmp_path / "interrupted.gcg"
    env = {**os.environ, "PYTHONPATH": str(Path(lexc.__file__).resolve().parent.parent), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "lexc", "play", str(TINY), "--seed", str(seed), "--save",
                             str(saved), "--no-color"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, preexec_fn=default_sigint)
    told, prompts, deadline = b"", 0, time.monotonic() + 60
    proc.stdin.write(b"pass\n")
    proc.stdin.flush()
    while prompts < 2:  # the second prompt: after the pass and lexc's reply
        chunk = read_within(proc.stdout.fileno(), deadline)
        if not chunk:
            break
        told += chunk
        prompts = told.count(b"you> ")
    assert prompts == 2, told.decode()
    proc.send_signal(signal.SIGINT)
    deadline = time.monotonic() + 60  # read to the end with stdin still open: an end of input reaching the
    while True:  # prompt before the signal would end the game as quit does, a race
        chunk = read_within(proc.stdout.fileno(), deadline)
        if not chunk:
            break
        told += chunk
    proc.stdin.close()
    proc.wait(timeout=60)
    proc.stdout.close()
    told = told.decode()
    assert proc.returncode == 0, told
    assert "interrupted: game ended by the player" in told and f"saved to {saved}" in told
    game = parse_gcg(saved.read_text(encoding="utf-8"))
    assert [e.kind for e in game.events if game.players[e.player][0] == "you"] == [PASS]
    assert replay(saved.read_text(encoding="utf-8"), lexicon).ok


def test_hint_ranks_by_equity_with_a_leave_file(tmp_path):
    """With --level equity --leaves FILE, hint lists the best moves by equity (lexc.equity's own
    ranking of the person's position), each with its score, leave and the leave's value."""
    from lexc.equity import candidates
    from lexc.formats.leaves import read_leaves
    from lexc.lexicons.source import open_lexicon

    leaves = tmp_path / "leaves.csv"
    leaves.write_text("?,25.0\nS,8.0\nE,1.5\nQ,-7.0\nES,9.0\n")
    lexicon = open_lexicon(str(TINY))
    seed = person_first_seed(lexicon)
    rack = GameManager(ENGLISH, [Scripted(lexicon), ProgramPlayer(lexicon, nick="lexc")], lexicon, seed).rack(0)
    ranked = candidates(Board.empty(ENGLISH), rack, lexicon, read_leaves(leaves, ENGLISH)).ranked(3)
    result = play(TINY, "--seed", seed, "--save", tmp_path / "h.gcg", "--no-color", "--level", "equity",
                  "--leaves", leaves, input="hint 3\nquit\ny\n")
    assert result.exit_code == 0, result.output
    told = result.output.splitlines()
    start = told.index(next(line for line in told if line.endswith("equity score  leave value  move")))
    shown = told[start + 1: start + 4]
    assert [line.split()[-1] for line in shown] == [c.notation.split()[-1] for c in ranked]
    assert [float(line.split()[0]) for line in shown] == [round(c.equity, 2) for c in ranked]
