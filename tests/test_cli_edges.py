"""The command line's rough edges (issue 35), each a rule that holds on every command:

- a count is printed with its noun in the singular for one (``1 row``), by one helper;
- a missing file is ``FILE: no such file`` whichever command or option named it, and a usage
  error points at the command's own ``--help``;
- a WORD argument that is not a word of the lexicon's alphabet is bad input (exit 2, one line
  naming it) on every command that takes words, never a negative answer;
- ``search`` names its columns one way in the text table, CSV and JSON;
- hooks of multi-character tiles are written as the move notation writes them (``[CH]``);
- a lexicon keeps the ruleset it was built with, and every command uses it unless ``-r`` says
  otherwise;
- ``lexc moves`` says how it counts, and ``--count-like`` counts as wolges and MAGPIE do.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import click
import pytest

from lexc.plural import is_are, plural
from test_cli import _cache_env, assert_one_error_line, cache_dir, run_main  # noqa: F401 (ENABLE compiled once)

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "wordlists" / "tiny.txt"
SPANISH = ROOT / "wordlists" / "spanish-sample.txt"
EMPTY = "/".join(["15"] * 15)


# -- one helper for a count and its noun ------------------------------------------------------

def test_plural_is_singular_for_one_only():
    assert [plural(n, "row") for n in (0, 1, 2, 1234)] == ["0 rows", "1 row", "2 rows", "1,234 rows"]
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "entry", "entries") == "3 entries"
    assert (is_are(1), is_are(0), is_are(2)) == ("is", "are", "are")


def test_a_board_picture_of_one_row_says_1_row(tmp_path, tiny_dawg, capsys):
    picture = tmp_path / "board.txt"
    picture.write_text("." * 15 + "\n", encoding="utf-8")
    code, out, err = run_main(capsys, "moves", tiny_dawg, "--board", picture, "--rack", "CAT")
    assert code == 2 and out == ""
    assert_one_error_line(err, "the picture has 1 row;")


def test_a_build_report_counts_one_of_each_in_the_singular(tmp_path, capsys):
    source = tmp_path / "one.txt"
    source.write_text("cat\nCAT\nabcdefghijklmnop\n", encoding="utf-8")
    code, out, _ = run_main(capsys, "build", source, "-o", tmp_path / "one.dawg")
    assert code == 0
    first, second = out.splitlines()[:2]
    assert ": dawg, 2 words (1 duplicate dropped," in first
    assert second.strip() == "1 word is longer than the english board"


def test_a_verify_of_a_one_word_lexicon_says_1_word(tmp_path, capsys):
    source = tmp_path / "one.txt"
    source.write_text("cat\n", encoding="utf-8")
    assert run_main(capsys, "build", source, "-o", tmp_path / "one.dawg")[0] == 0
    code, out, _ = run_main(capsys, "verify", tmp_path / "one.dawg")
    assert (code, out) == (0, "OK: 1 word, invariants hold\n")
    code, out, _ = run_main(capsys, "stats", tmp_path / "one.dawg")
    assert code == 0 and out.startswith("1 word, 3 tiles,")


# -- one wording for one problem: a missing file, a usage error --------------------------------

def missing_file_cases(tmp_path: Path, tiny_dawg: Path) -> list[list[str]]:
    """A missing file named by every command and every option that reads one."""
    gone = str(tmp_path / "gone.txt")
    tiny, gcg = str(tiny_dawg), str(ROOT / "tests" / "games" / "MAGPIE__standard.gcg")
    return [
        ["check", gone, "CAT"], ["check", "-L", gone, "CAT"], ["words", gone], ["anagram", "-L", gone, "CAT"],
        ["hooks", gone, "CAT"], ["search", gone], ["search", tiny, "--in", gone], ["info", gone], ["verify", gone],
        ["verify", tiny, "--against", gone], ["dump", gone], ["stats", gone], ["diff", gone, tiny],
        ["diff", tiny, gone], ["build", gone], ["convert", gone, "-f", "dawg"], ["edit", gone, "--add", "CAT"],
        ["edit", tiny, "--add-file", gone], ["export", gone, "--to", "kwg", "-o", str(tmp_path / "x.kwg")],
        ["synth", "-n", "5", "--train", gone, "-o", str(tmp_path / "s.txt")], ["moves", gone, "--rack", "CAT"],
        ["moves", tiny, "--board", gone, "--rack", "CAT"], ["moves", tiny, "--batch", gone],
        ["judge", gone, "8H CAT", "--rack", "CAT"], ["judge", tiny, "--board", gone, "8H CAT", "--rack", "CAT"],
        ["replay", gone], ["replay", gcg, "-L", gone], ["selfplay", gone], ["play", gone], ["bench", gone],
        ["bench", TINY.as_posix(), "--positions", gone],
    ]


def test_a_missing_file_is_the_same_line_on_every_command(tmp_path, tiny_dawg, capsys):
    gone = str(tmp_path / "gone.txt")
    for args in missing_file_cases(tmp_path, tiny_dawg):
        code, out, err = run_main(capsys, *args)
        assert (code, out) == (2, ""), args
        assert err == f"lexc: error: {gone}: no such file\n", args


def test_a_directory_given_as_a_file_is_the_same_line_on_every_command(tmp_path, tiny_dawg, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    for args in (["stats", folder], ["diff", folder, tiny_dawg], ["info", folder], ["build", folder],
                 ["moves", tiny_dawg, "--board", folder, "--rack", "CAT"], ["replay", folder],
                 ["export", folder, "--to", "kwg", "-o", tmp_path / "x.kwg"]):
        code, out, err = run_main(capsys, *args)
        assert (code, out, err) == (2, "", f"lexc: error: {folder}: is a directory\n"), args


def test_a_missing_output_folder_keeps_its_own_words(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", TINY, "-o", tmp_path / "no" / "out.dawg")
    assert code == 2 and err == f"lexc: error: {tmp_path / 'no'}: no such directory\n"


def commands() -> list[str]:
    from lexc.cli import cli

    return sorted(cli.commands)


@pytest.mark.parametrize("command", commands())
def test_a_usage_error_points_at_the_commands_own_help(command, capsys):
    code, out, err = run_main(capsys, command, "--bogus")
    assert (code, out) == (2, "")
    line = assert_one_error_line(err, "No such option '--bogus'.")
    assert line.endswith(f"(see 'lexc {command} --help')")


def options_taking_a_value() -> list[tuple[str, str]]:
    """(command, option) for every option of every command that takes a value."""
    from lexc.cli import cli

    return [(name, max(param.opts, key=len)) for name, command in sorted(cli.commands.items())
            for param in command.params
            if isinstance(param, click.Option) and not param.is_flag and not param._flag_needs_value]  # (a value
    # that may be left out, --front-hook [L], is not missing)


@pytest.mark.parametrize("command, option", options_taking_a_value())
def test_an_option_missing_its_value_points_at_the_commands_own_help(command, option, capsys):
    """click's parser raises this one without the command's context: main finds the command."""
    code, out, err = run_main(capsys, command, option)
    assert (code, out) == (2, "")
    line = assert_one_error_line(err, "requires an argument")
    assert line.endswith(f"(see 'lexc {command} --help')")


def test_a_mistyped_option_of_judge_is_worded_as_everywhere(capsys):
    for command in ("judge", "moves"):
        code, _, err = run_main(capsys, command, "--rak", "AB", "8H AB")
        assert code == 2
        assert_one_error_line(err, "No such option '--rak'. Did you mean '--rack'?", f"(see 'lexc {command} --help')")


# -- words are words ----------------------------------------------------------------------------

def test_check_takes_a_leading_word_naming_a_file_as_a_word_of_the_alphabet(tmp_path, monkeypatch, capsys):
    """``check README.md QI``: README.md is read as a word (the note says how to name the file),
    and a word that is no word of the alphabet is bad input, as hooks and anagram say."""
    monkeypatch.chdir(ROOT)
    for command in ("check", "hooks"):
        code, out, err = run_main(capsys, command, "README.md", "QI")
        note, error = err.splitlines()
        assert (code, out) == (2, "")
        assert note.startswith("lexc: note: README.md is read as a word, not as the file of that name")
        assert error == ("lexc: error: README.md: not a word of the english alphabet ('.' at position 7 is no tile "
                         "of it)")


FOUR = "('4' at position 2 is no tile of it)"


@pytest.mark.parametrize("args, line", [
    (["check", "CAT", "C4T"], f"C4T: not a word of the english alphabet {FOUR}"),
    (["hooks", "CAT", "C4T"], f"C4T: not a word of the english alphabet {FOUR}"),
    (["anagram", "C4T"], f"rack C4T: not tiles of the english alphabet {FOUR}"),
    (["words", "--prefix", "C4"], f"--prefix C4: not tiles of the english alphabet {FOUR}"),
])
def test_every_command_taking_words_names_the_one_outside_the_alphabet(tiny_dawg, capsys, args, line):
    command, *rest = args
    code, out, err = run_main(capsys, command, tiny_dawg, *rest)
    assert (code, out, err) == (2, "", f"lexc: error: {line}\n")


def test_a_word_outside_a_spanish_alphabet_names_that_alphabet(capsys):
    code, out, err = run_main(capsys, "check", SPANISH, "CHURRO", "WIKI", "-r", "spanish")
    assert (code, out) == (2, "")
    assert_one_error_line(err, "WIKI: not a word of the spanish alphabet ('W' at position 1 is no tile of it)")
    code, out, _ = run_main(capsys, "check", SPANISH, "CHURRO", "CARRO", "-r", "spanish")
    assert (code, out) == (0, "CHURRO: valid\nCARRO: valid\n")


# -- hooks of multi-character tiles, written as the notation writes them -----------------------

@pytest.fixture
def spanish_hooks(tmp_path) -> Path:
    """AS takes the front hooks C, CH and H: joined, 'CCHH' could be read as CH, CH."""
    path = tmp_path / "hooks.txt"
    path.write_text("as\ncas\nchas\nhas\nasc\n", encoding="utf-8")
    return path


def test_hooks_write_a_multi_character_tile_in_brackets(spanish_hooks, capsys):
    code, out, _ = run_main(capsys, "hooks", spanish_hooks, "AS", "-r", "spanish")
    assert (code, out) == (0, "  C[CH]H AS C\n")
    code, out, _ = run_main(capsys, "hooks", spanish_hooks, "AS", "-r", "spanish", "--json")
    assert json.loads(out) == [{"word": "AS", "valid": True, "front": "C[CH]H", "back": "C"}]


def test_the_search_table_writes_hooks_and_alphagrams_as_the_notation_does(spanish_hooks, capsys):
    code, out, _ = run_main(capsys, "search", spanish_hooks, "-r", "spanish", "--length", "2-4", "--json")
    rows = {row["word"]: row for row in json.loads(out)}
    assert code == 0 and rows["AS"]["front"] == "C[CH]H" and rows["CHAS"]["alphagram"] == "A[CH]S"
    code, out, _ = run_main(capsys, "search", spanish_hooks, "-r", "spanish", "--length", "2", "--csv")
    assert code == 0 and next(csv.DictReader(io.StringIO(out)))["front"] == "C[CH]H"
    code, out, _ = run_main(capsys, "search", spanish_hooks, "-r", "spanish", "--length", "2")
    assert code == 0 and out.splitlines()[1].split()[:3] == ["C[CH]H", "AS", "C"]


def test_the_written_tiles_read_back_as_the_same_tiles_as_cgp_reads_them():
    """The engines' convention, which CGP follows: one character a tile, a multi-character tile
    in brackets; so the tiles C and H (no CH) are 'CH', and the tile CH is '[CH]'."""
    import re

    from lexc.alphabet import written_tiles

    for labels in (["C", "CH", "H"], ["C", "H"], ["LL", "L"], ["RR", "R", "Ñ"], ["L·L", "L"]):
        text = written_tiles(labels)
        assert [token.strip("[]") for token in re.findall(r"\[[^\]]*\]|.", text)] == labels, text


# -- search names its columns one way --------------------------------------------------------

def test_search_names_each_column_alike_in_the_text_table_the_csv_and_the_json(tiny_dawg, capsys):
    from lexc.lexicons.search import COLUMNS, TABLE_COLUMNS

    code, text, _ = run_main(capsys, "search", tiny_dawg, "--length", "3")
    assert code == 0 and text.splitlines()[0].split() == list(TABLE_COLUMNS)
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "3", "--csv")
    header = out.splitlines()[0].split(",")
    code2, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "3", "--json")
    rows = json.loads(out)
    assert code == code2 == 0 and header == list(rows[0]) == list(COLUMNS)
    assert list(COLUMNS[: len(TABLE_COLUMNS)]) == list(TABLE_COLUMNS)  # the text table's, first and in its order
    assert "probability" not in COLUMNS  # (the CSV and JSON once called the text table's rank so)


def test_search_sorted_by_score_shows_the_score(tiny_dawg, capsys):
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "2-3", "--sort", "score")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[-1] == "score"
    code, data, _ = run_main(capsys, "search", tiny_dawg, "--length", "2-3", "--sort", "score", "--json")
    scores = [row["score"] for row in json.loads(data)]
    assert scores == sorted(scores, reverse=True)
    assert [int(line.split()[-1]) for line in lines[1:]] == scores
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "2-3", "--sort", "alpha")
    assert "score" not in out.splitlines()[0].split()


# -- a lexicon keeps its ruleset --------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_rules(tmp_path_factory) -> Path:
    """wordlists/tiny.txt built for the tiny ruleset (a 7x7 board, a rack of 5)."""
    from lexc.lexicons.compile import compile_file

    out = tmp_path_factory.mktemp("tiny-rules") / "tiny.dawg"
    compile_file(TINY, ruleset="tiny", out=out)
    return out


def test_the_header_records_the_ruleset_the_lexicon_was_built_with(tiny_rules, capsys):
    code, out, _ = run_main(capsys, "info", tiny_rules, "--json")
    assert code == 0 and json.loads(out)["ruleset"] == "tiny"


def test_moves_and_judge_use_the_lexicons_ruleset_without_r(tiny_rules, capsys):
    code, out, err = run_main(capsys, "moves", tiny_rules, "--rack", "CATSE", "--json")
    plays = json.loads(out)
    starts = {f"4{col}" for col in "ABCD"} | {f"D{row}" for row in "1234"}  # through D4, the 7x7 board's middle
    assert (code, err) == (0, "") and plays and {play["move"].split()[0] for play in plays} <= starts
    code, _, err = run_main(capsys, "moves", tiny_rules, "--rack", "CATSEX")
    assert code == 2
    assert_one_error_line(err, "the tiny rack holds 5")  # (not 'the english rack holds 7')
    code, out, err = run_main(capsys, "judge", tiny_rules, "--rack", "CATS", "4B CAT")
    assert (code, err) == (0, "") and out.startswith("legal: 4B CAT scores")


def test_search_selfplay_and_play_use_the_lexicons_ruleset_without_r(tiny_rules, tmp_path, capsys, monkeypatch):
    code, own, err = run_main(capsys, "search", tiny_rules, "--length", "3", "--json")
    code2, given, _ = run_main(capsys, "search", TINY, "-r", "tiny", "--length", "3", "--json")
    assert (code, code2, err) == (0, 0, "") and own == given  # the tiny bag's ranks
    code, out, err = run_main(capsys, "selfplay", tiny_rules, "-o", tmp_path / "games")
    assert (code, err) == (0, "")
    record = next((tmp_path / "games").glob("*.gcg")).read_text(encoding="utf-8")
    assert "#tile-distribution tiny" in record
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # (a watched game reads nothing)
    code, out, _ = run_main(capsys, "play", tiny_rules, "--watch", "--seed", "3", "--save", tmp_path / "w.gcg")
    assert code == 0 and "tiny rules" in out.splitlines()[0]


def test_a_ruleset_of_its_own_is_stored_in_the_lexicon_and_used(tmp_path, capsys):
    rules = tmp_path / "tinier.toml"
    text = (ROOT / "src" / "lexc" / "rulesets" / "tiny.toml").read_text(encoding="utf-8")
    rules.write_text(text.replace('name = "tiny"', 'name = "tinier"').replace("rack_size = 5", "rack_size = 4"),
                     encoding="utf-8")
    assert run_main(capsys, "build", TINY, "-r", rules, "-o", tmp_path / "tinier.dawg")[0] == 0
    rules.unlink()  # the file holds the ruleset itself, not a path to it
    code, _, err = run_main(capsys, "moves", tmp_path / "tinier.dawg", "--rack", "CATSE")
    assert code == 2
    assert_one_error_line(err, "the tinier rack holds 4")


def test_an_r_other_than_the_lexicons_own_is_warned_about_or_refused(tiny_rules, capsys):
    """The same alphabet: the ruleset given is used (the same words on another board is a
    choice), with a warning; another alphabet: refused, for the lexicon's tiles are not its."""
    code, out, err = run_main(capsys, "moves", tiny_rules, "--rack", "CATSEXY", "-n", "1", "-r", "english")
    assert code == 0 and out.split()[1][0] in "8H"  # through H8, the english board's middle (no 7x7 square)
    assert err == (f"lexc moves: warning: {tiny_rules} was built with the tiny ruleset; using -r english as "
                   "given\n")
    for command in (["moves", tiny_rules, "--rack", "CAT"], ["judge", tiny_rules, "8H CAT", "--rack", "CAT"],
                    ["search", tiny_rules], ["check", tiny_rules, "CAT"], ["selfplay", tiny_rules],
                    ["stats", tiny_rules]):
        code, out, err = run_main(capsys, *command, "-r", "spanish")
        assert (code, out) == (2, ""), command
        assert err == (f"lexc: error: {tiny_rules} was built with the tiny ruleset; -r spanish has another alphabet "
                       "(leave out -r to use tiny)\n"), command
    code, out, err = run_main(capsys, "moves", tiny_rules, "--rack", "CATS", "-n", "1", "-r", "tiny")
    assert (code, err) == (0, "")


# -- move counts that compare -------------------------------------------------------------------

def exchange_count(rack: str) -> int:
    """The distinct non-empty sub-multisets of a rack: every exchange the engines list."""
    from collections import Counter
    from math import prod

    return prod(n + 1 for n in Counter(rack).values()) - 1


def test_moves_says_how_it_counts_on_a_terminal(tiny_dawg, capsys, monkeypatch):
    from lexc.cli import common

    monkeypatch.setattr(common, "on_terminal", lambda: True)
    code, out, err = run_main(capsys, "moves", tiny_dawg, "--rack", "CARETS", "-n", "2")
    count = len(json.loads(run_main(capsys, "moves", tiny_dawg, "--rack", "CARETS", "--json")[1]))
    assert code == 0 and len(out.splitlines()) >= 2
    assert err.splitlines()[-1] == (f"lexc: {count:,} plays, the best {len(out.splitlines())} shown (lexc's count: "
                                    "every tile placement, across and down on the empty board; no exchange, no pass)")
    code, _, err = run_main(capsys, "moves", tiny_dawg, "--rack", "CARETS", "-n", "1", "--count-like", "wolges")
    assert err.splitlines()[-1].endswith("(wolges's count: every tile placement, across only on an empty board "
                                         "symmetric about its diagonal; every distinct exchange (when the bag holds "
                                         "a rack's worth) and the pass)")


def test_moves_counts_like_wolges_and_magpie_on_the_empty_board(tiny_dawg, capsys):
    """Both engines list an empty symmetric board's placements once (across: the down ones are
    their mirror images), and every distinct exchange and the pass besides."""
    rack = "CARETSS"
    code, out, _ = run_main(capsys, "moves", tiny_dawg, "--rack", rack, "--json")
    ours = json.loads(out)
    across = [m for m in ours if m["move"][0].isdigit()]
    assert code == 0 and len(ours) == 2 * len(across)  # the empty board: each placement both ways
    for engine in ("wolges", "magpie"):
        code, out, _ = run_main(capsys, "moves", tiny_dawg, "--rack", rack, "--json", "--count-like", engine)
        theirs = json.loads(out)
        placed = [m for m in theirs if not m["move"].startswith("-")]
        others = sorted(m["move"] for m in theirs if m["move"].startswith("-"))
        assert code == 0 and sorted(placed, key=str) == sorted(across, key=str)
        assert len(others) == exchange_count(rack) + 1 and others[0] == "-" and "-ACERSST" in others
        assert all(m["score"] == 0 for m in theirs if m["move"].startswith("-"))
        assert theirs == sorted(theirs, key=lambda m: (-m["score"], m["move"]))
    code, out, _ = run_main(capsys, "moves", tiny_dawg, "--rack", rack, "-n", "3", "--count-like", "magpie")
    assert out == run_main(capsys, "moves", tiny_dawg, "--rack", rack, "-n", "3")[1]  # the best plays: the same


def test_counting_like_the_engines_keeps_both_directions_where_they_differ(tiny_dawg):
    """A board with a tile on it has down plays no across play mirrors: the engines list them
    too. A bag short of a rack's worth: no exchange, the pass only."""
    from lexc.board.board import Board, read_position
    from lexc.formats import load
    from lexc.movegen import COUNTINGS, counted_plays, exchanges, generate_plays, symmetric
    from lexc.ruleset import load_ruleset

    lexicon, english, tiny = load(tiny_dawg), load_ruleset("english"), load_ruleset("tiny")
    assert symmetric(Board.empty(english)) and symmetric(Board.empty(tiny))
    assert COUNTINGS["wolges"].exchanges_and_pass == COUNTINGS["magpie"].exchanges_and_pass is True
    position = read_position(english, "/".join(["15"] * 7 + ["6CAT6"] + ["15"] * 7) + " ARTS/ 0/0 0")
    ours = generate_plays(position.board, "ARTS", lexicon)
    theirs = counted_plays(position.board, "ARTS", lexicon, like="wolges")
    assert len(ours) > 0 and len(theirs) == len(ours) + exchange_count("ARTS") + 1
    # the tiny set has 40 tiles: 26 on the board and two racks of 5 leave 4 in the bag
    board = Board.empty(tiny).with_tiles([(row, col, 1) for row in range(0, 7, 2) for col in range(7)]
                                         [:26])
    assert exchanges(board, "CATSE", "DOGER") == [] and len(exchanges(Board.empty(tiny), "CATS")) == 15
    plays = counted_plays(board, "CATSE", lexicon, like="magpie", opponent="DOGER")
    assert [notation for notation, _ in plays.pairs() if notation.startswith("-")] == ["-"]


def test_an_asymmetric_board_keeps_its_down_plays_when_counting_like_the_engines(tmp_path, capsys):
    rules = tmp_path / "offset.toml"
    text = (ROOT / "src" / "lexc" / "rulesets" / "tiny.toml").read_text(encoding="utf-8")
    rows = text[text.index("rows = ["):]
    moved = rows.replace('". . . * . . .",', '". . . . * . .",', 1)  # the start off the diagonal
    rules.write_text(text.replace(rows, moved).replace('name = "tiny"', 'name = "offset"'), encoding="utf-8")
    code, out, _ = run_main(capsys, "moves", TINY, "-r", rules, "--rack", "CATS", "--json")
    code2, out2, _ = run_main(capsys, "moves", TINY, "-r", rules, "--rack", "CATS", "--json", "--count-like", "wolges")
    ours, theirs = json.loads(out), json.loads(out2)
    assert code == code2 == 0 and len(theirs) == len(ours) + exchange_count("CATS") + 1


def test_the_best_n_counted_like_the_engines_are_the_first_n_of_the_whole_list(tiny_dawg, capsys):
    whole = json.loads(run_main(capsys, "moves", tiny_dawg, "--rack", "QZ", "--json", "--count-like", "wolges")[1])
    for top in (1, 2, 3):
        best = json.loads(run_main(capsys, "moves", tiny_dawg, "--rack", "QZ", "--json", "--count-like", "wolges",
                                   "-n", str(top))[1])
        assert best == whole[:top]
    assert [m["move"] for m in whole] == ["-", "-Q", "-QZ", "-Z"]  # no word: the exchanges and the pass
