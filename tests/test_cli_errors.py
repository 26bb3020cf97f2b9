"""The command line's general rules for bad input (issue 34), each case a command line an
attacker would try: one line ``lexc: error: ...`` on stderr, exit status 2, no traceback and
no hang.

- every integer option is a ``Bounded`` range (``lexc.limits``) stated in its --help: huge,
  negative or zero values are refused by name before the library sees them;
- every text file (word lists, boards, JSONL positions) is decoded by ``lexc.textfile``: a
  byte that is not UTF-8 is one line naming the file and line;
- every argument is UTF-8 text without NUL;
- every listing command (``search`` too) refuses a lexicon past ``--max-words``;
- an output that is a special file is written into, never renamed over.
"""

from __future__ import annotations

import io
import os
import stat
import threading
import time

import click
import pytest
from click.testing import CliRunner

from lexc.cli import cli
from lexc.cli.common import Bounded, BoundedFloat
from lexc.cli.game import typed_line
from lexc.limits import MAX_COUNT, MAX_SEED, MAX_WORD_TILES
from test_cli import assert_one_error_line, run_main
from test_hostile import dawg_file, exponential

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
HUGE = "99999999999999999999999"  # past sys.maxsize, a C ssize_t and a float's exact integers


def numeric_options() -> list[tuple[str, click.Parameter]]:
    """(command, option) for every option of every command whose value is a number."""
    return [(name, param) for name, command in sorted(cli.commands.items()) for param in command.params
            if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))]


NUMERIC = numeric_options()


def long_name(param: click.Parameter) -> str:
    return max(param.opts, key=len)


# -- one bounded type for every integer option --------------------------------------------

def test_every_numeric_option_is_bounded_both_ways_and_says_so_in_its_help():
    assert len(NUMERIC) >= 20  # the counts, limits, lengths, seeds, repeats of every command
    for name, param in NUMERIC:
        assert isinstance(param.type, (Bounded, BoundedFloat)), f"lexc {name} {long_name(param)}: {param.type!r}"
        assert param.type.min is not None and param.type.max is not None, f"lexc {name} {long_name(param)}"
        with click.Context(cli.commands[name], info_name=name) as ctx:
            help_text = " ".join(cli.commands[name].get_help(ctx).split())
        shown = (f"{param.type.min:,}<=x<={param.type.max:,}" if isinstance(param.type, Bounded)
                 else f"{param.type.min:g}<=x<={param.type.max:g}")
        assert shown in help_text, f"lexc {name} --help does not state the range of {long_name(param)}"


@pytest.mark.parametrize("name, param", NUMERIC, ids=[f"{n}{long_name(p)}" for n, p in NUMERIC])
def test_a_value_past_either_end_of_a_range_is_one_line_naming_the_option(capsys, name, param):
    """Refused while the options are read, before any file is opened or work begins (so no
    lexicon or word list is needed here): the error names the option and the range."""
    above = param.type.max + 1 if isinstance(param.type, Bounded) else param.type.max * 2
    for value in (str(above), HUGE, str(param.type.min - 1), "-" + HUGE):
        code, out, err = run_main(capsys, name, long_name(param), value)
        assert code == 2 and out == "", (name, value, err)
        assert_one_error_line(err, long_name(param), "is not in the range")


def test_the_ranges_are_the_documented_limits():
    ranges = {(name, long_name(p)): (p.type.min, p.type.max) for name, p in NUMERIC}
    assert ranges[("words", "--limit")] == (1, MAX_COUNT)
    assert ranges[("dump", "--limit")] == (0, MAX_COUNT)
    assert ranges[("search", "--max-words")] == (1, MAX_COUNT)
    assert ranges[("build", "--max-len")] == (1, MAX_WORD_TILES)
    assert ranges[("synth", "--order")] == (1, MAX_WORD_TILES)
    assert ranges[("play", "--seed")] == ranges[("selfplay", "--seed")] == (0, MAX_SEED)


@pytest.mark.parametrize("args", [
    ["words", "{dawg}", "--limit", HUGE],  # was: ValueError from islice
    ["words", "{dawg}", "--limit", "18446744073709551616"],
    ["moves", "{dawg}", "--rack", "AEINST", "-n", "9223372036854775808"],  # was: OverflowError in the core
    ["dump", "{dawg}", "-n", HUGE],
    ["diff", "{dawg}", "{dawg}", "--limit", HUGE],
    ["build", "{list}", "-o", "{out}", "--max-len", HUGE],  # was: OverflowError
    ["synth", "-n", "10", "--order", "2147483648", "--train", "{list}", "-o", "{out}"],  # was: a hang
    ["selfplay", "{dawg}", "--games", "2147483648"],  # was: a hang, game after game
    ["search", "{dawg}", "-n", HUGE],
])
def test_the_counts_that_overflowed_or_hung_are_refused_at_once(tmp_path, tiny_dawg, capsys, args):
    from test_cli import TINY

    values = {"{dawg}": str(tiny_dawg), "{list}": str(TINY), "{out}": str(tmp_path / "out")}
    started = time.monotonic()
    code, _, err = run_main(capsys, *[values.get(a, a) for a in args])
    assert code == 2
    assert_one_error_line(err, "is not in the range")
    assert time.monotonic() - started < 5
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
def test_a_number_of_seconds_is_a_finite_number_in_range(capsys, value):
    code, _, err = run_main(capsys, "bench", "--budget", value)
    assert code == 2
    assert_one_error_line(err, "--budget")


@pytest.mark.parametrize("option, value, message", [
    ("--length", "18446744073709551616", "at most 64"),  # was: OverflowError
    ("--length", "2147483648", "at most 64"),  # was: a hang building a pattern of 2**31 tokens
    ("--length", "2-70", "at most 64"),
    ("--anagrams", "2-" + HUGE, "at most 1,000,000,000"),
    ("--probability", HUGE + "-", "at most 1,000,000,000"),
    ("--not", "length=" + HUGE, "at most 64"),
    ("--length", "9" * 5000, "expected N, N-M or N-"),  # past Python's 4,300 digits: still one short line
])
def test_search_ranges_are_bounded(tiny_dawg, capsys, option, value, message):
    started = time.monotonic()
    code, _, err = run_main(capsys, "search", tiny_dawg, option, value)
    assert code == 2
    line = assert_one_error_line(err, message)
    assert len(line) < 200 and time.monotonic() - started < 5


def test_search_help_states_its_ranges():
    text = " ".join(CliRunner().invoke(cli, ["search", "--help"]).output.split())
    assert f"N, M from 0 to {MAX_WORD_TILES}" in text and "N, M from 0 to 1,000,000,000" in text
    assert "--max-words N" in text


# -- search: --max-words like every listing command ----------------------------------------

def test_search_refuses_a_small_graph_spelling_millions_of_words_at_once(tmp_path, capsys):
    path = tmp_path / "every5.dawg"
    path.write_bytes(dawg_file(exponential(5), 26 ** 5))  # 130 edges: every 5-letter string
    started = time.monotonic()
    code, out, err = run_main(capsys, "search", path, "--length", "5")
    assert code == 2 and out == ""
    assert_one_error_line(err, "11,881,376 words, more than the 10,000,000", "--max-words")
    assert time.monotonic() - started < 10  # (it ran past 60 s, listing and tabulating them all)


def test_search_max_words_is_the_limit_it_checks(tiny_dawg, capsys):
    code, _, err = run_main(capsys, "search", tiny_dawg, "--max-words", "3")
    assert code == 2
    assert_one_error_line(err, "more than the 3 lexc lists at once", "--max-words")
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--max-words", "1000", "--length", "3", "--json")
    assert code == 0 and out.startswith("[")


# -- text files: one decoder -----------------------------------------------------------------

def test_a_batch_file_with_a_byte_that_is_not_utf8_is_named_by_line(tmp_path, tiny_dawg, capsys):
    batch = tmp_path / "b.jsonl"
    good = f'{{"cgp": "{EMPTY} AEINST/ 0/0 0"}}\n'.encode()
    batch.write_bytes(good + b'{"cgp": "\xff"}\n')  # was: UnicodeDecodeError
    code, out, err = run_main(capsys, "moves", tiny_dawg, "--batch", batch)
    assert code == 2 and len(out.splitlines()) == 1  # the first line's answer came out as it was read
    assert_one_error_line(err, f"{batch}:2: not UTF-8 (byte 0xff)")


@pytest.mark.parametrize("data, message", [
    (b"\xff", ":1: not UTF-8 (byte 0xff)"),
    (b"\xff\xfe{\x00}\x00", "looks like UTF-16"),
    (b'{"cgp": "x"}\x00\n', ":1: NUL byte"),
    (b"[" * 100_000 + b"\n", ":1: JSON nested too deeply"),
    (b'{"cgp": ' + b"9" * 5000 + b"}\n", ":1: not JSON (Exceeds the limit (4300 digits)"),  # was: ValueError
    (f'{{"cgp": "{EMPTY} A/ 0/0 0", "rack": {{"a": 1}}}}\n'.encode(), '"rack" must be a string'),  # was: AttributeError
    (f'{{"cgp": "{EMPTY} A/ 0/0 0", "rack": 5}}\n'.encode(), '"rack" must be a string'),
])
@pytest.mark.parametrize("command", ["moves", "bench"])
def test_position_files_are_read_one_way(tmp_path, tiny_dawg, capsys, data, message, command):
    path = tmp_path / "p.jsonl"
    path.write_bytes(data)
    args = (["moves", tiny_dawg, "--batch", path] if command == "moves" else
            ["bench", "--positions", path, "--formats", "dawg", "--no-papers", "--repeat", "1"])
    code, _, err = run_main(capsys, *args)
    assert code == 2
    assert_one_error_line(err, message)


def test_a_position_line_past_the_line_limit_is_refused_without_reading_it_all(tmp_path):
    from lexc.textfile import TextFileError, text_lines

    path = tmp_path / "long.jsonl"
    path.write_bytes(b'"' + b"x" * 5000 + b'"\n')
    with pytest.raises(TextFileError, match=r"long.jsonl:1: a line longer than 1,000 bytes"):
        list(text_lines(path, max_line=1000))
    with pytest.raises(TextFileError, match="is a directory"):
        list(text_lines(tmp_path))


def test_a_board_file_with_a_bad_byte_names_its_line(tmp_path, tiny_dawg, capsys):
    board = tmp_path / "board.txt"
    board.write_bytes(b".......\n...\xe9...\n")
    code, _, err = run_main(capsys, "moves", tiny_dawg, "--board", board, "--rack", "CAT")
    assert code == 2
    assert_one_error_line(err, f"{board}:2: not UTF-8 (byte 0xe9)")


def test_the_text_file_errors_keep_the_callers_classes(tmp_path):
    from lexc.board.board import PositionError
    from lexc.textfile import TextFileError, decode_text, read_text
    from lexc.wordlist import WordListError, decode_bytes

    with pytest.raises(WordListError, match=r"w\.txt:3: not UTF-8"):
        decode_bytes(b"CAT\nDOG\nCAF\xe9\n", "w.txt")
    with pytest.raises(PositionError, match="is a directory"):
        read_text(tmp_path, 100, "board", PositionError)
    with pytest.raises(TextFileError, match="no such file"):
        read_text(tmp_path / "absent", 100)
    assert decode_text(b"\xef\xbb\xbfCAT\n", "w.txt") == "CAT\n"  # a BOM is dropped


# -- synth: a chain that has run dry says so in about a second, whatever the count ------------

def test_a_dry_chain_gives_up_after_a_bounded_number_of_draws(monkeypatch):
    from lexc.formats import FormatError
    from lexc.lexicons import synth

    monkeypatch.setattr(synth, "MAX_PATIENCE", 20_000)  # (the cap: a million draws by default)
    started = time.monotonic()
    with pytest.raises(FormatError, match=r"no more new words after 2 \(asked for 40,000,000"):
        synth.generate(40_000_000, order=1, min_len=2, max_len=2, training=["AB", "CD"])  # was: 800 million draws
    assert time.monotonic() - started < 5


# -- arguments -----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, number", [
    (["check", "{dawg}", "C\udcffT"], 3),  # a byte that is not UTF-8, as Python hands it over; was: UnicodeEncodeError
    (["hooks", "{dawg}", "\udcc3"], 3),
    (["check", "\udcff.dawg", "CAT"], 2),
    (["play", "{dawg}", "--name", "x\udcffy"], 4),
    (["words", "{dawg}", "--prefix", "A\x00B"], 4),
])
def test_an_argument_that_is_not_utf8_text_is_one_line(tiny_dawg, capsys, args, number):
    code, out, err = run_main(capsys, *[str(tiny_dawg) if a == "{dawg}" else a for a in args])
    assert code == 2 and out == ""
    line = assert_one_error_line(err, f"argument {number} (")
    assert "is not UTF-8 text" in line or "holds a NUL character" in line
    assert "\\x" in line and line.isprintable()  # the bad byte shown escaped (\\xff), never raw


@pytest.mark.parametrize("value", ["", ",", " , "])
def test_bench_formats_naming_no_format_is_refused_not_taken_for_all(capsys, value):
    started = time.monotonic()
    code, _, err = run_main(capsys, "bench", "--formats", value, "--no-movegen", "--no-papers")  # was: every format
    assert code == 2
    assert_one_error_line(err, "--formats", "at least one format")
    assert time.monotonic() - started < 5


def test_a_line_typed_to_play_that_is_not_utf8_is_refused_and_the_game_goes_on(tmp_path, tiny_dawg):
    saved = tmp_path / "g.gcg"
    result = CliRunner().invoke(cli, ["play", str(tiny_dawg), "--seed", "3", "--save", str(saved), "--no-color"],
                                input=b"\xff\xfe\nquit\ny\n")  # was: UnicodeDecodeError on reading stdin
    assert result.exit_code == 0, (result.output, result.exception)
    assert "\ufffd" in result.output and saved.exists()


def test_typed_lines_are_bounded_and_decoded():
    from lexc.limits import MAX_LINE_BYTES

    stream = io.BytesIO(b"A" * (MAX_LINE_BYTES + 10) + b"\npass\n\xc3\xa9t\xe9\n")
    assert len(typed_line(stream)) == MAX_LINE_BYTES  # the rest of the long line is skipped...
    assert typed_line(stream) == "pass"  # ...and the next line is the next command
    assert typed_line(stream) == "\u00e9t\ufffd"
    assert typed_line(stream) is None
    assert typed_line(io.StringIO("quit\r\n")) == "quit"


# -- outputs -----------------------------------------------------------------------------------

def test_an_output_that_is_a_special_file_is_written_into_not_replaced(tmp_path, capsys):
    from test_cli import TINY

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = run_main(capsys, "build", TINY, "-o", fifo)  # was: renamed over (root: -o /dev/null replaced)
    reader.join(10)
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received and received[0].startswith(b"\x89LXC")


def test_an_output_that_is_a_directory_is_still_refused(tmp_path):
    from lexc.formats.container import write_atomic

    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, b"data")
