"""The command line's rules for a new user (issue 21): bare ``lexc``, verify's exit status, the
leading FILE argument, ``-L`` on every command, empty answers, ``-n 0``, pattern sets and
ranges, errors that name the user's path, a closed pipe, ``moves --rack`` alone."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from lexc import formats
from lexc.pattern import PatternError, parse_pattern
from lexc.ruleset import load_ruleset
from test_cli import (  # noqa: F401
    GAMES,
    LEXC_PARENT,
    TINY,
    TINY_WORDS,
    _cache_env,
    assert_one_error_line,
    cache_dir,
    run_main,
    write,
)

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def test_bare_lexc_prints_the_help_and_exits_0(capsys):
    code, out, err = run_main(capsys)
    assert code == 0 and err == ""
    assert out.startswith("Usage: lexc") and "-h, --help" in out and "Commands:" in out


# -- verify: every finding is exit 1 ---------------------------------------------------------

def test_verify_exits_1_for_a_damaged_file_and_says_why(tmp_path, tiny_dawg, capsys):
    damaged = tmp_path / "damaged.dawg"
    data = bytearray(tiny_dawg.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    code, out, err = run_main(capsys, "verify", damaged)
    assert code == 1 and err == "" and out.startswith("FAILED: ") and "checksum" in out
    code, out, _ = run_main(capsys, "verify", damaged, "--json")
    result = json.loads(out)
    assert code == 1 and result["ok"] is False and result["problems"]
    truncated = write(tmp_path / "truncated.dawg", "")
    truncated.write_bytes(tiny_dawg.read_bytes()[:40])
    assert run_main(capsys, "verify", truncated)[0] == 1
    code, _, err = run_main(capsys, "verify", tmp_path / "missing.dawg")  # nothing to verify: bad usage
    assert code == 2
    assert_one_error_line(err, "missing.dawg")
    assert "Exit status 1 for every finding" in " ".join(run_main(capsys, "verify", "--help")[1].split())


def test_verify_against_names_the_first_differing_words_in_text(tmp_path, tiny_dawg, capsys):
    words = [w for w in TINY_WORDS if w != TINY_WORDS[0]] + ["ZZZZ"]
    other = write(tmp_path / "other.txt", "\n".join(words) + "\n")
    code, out, _ = run_main(capsys, "verify", tiny_dawg, "--against", other)
    assert code == 1
    assert f"only in the file: {TINY_WORDS[0]}" in out and "only in the list: ZZZZ" in out


# -- the leading FILE argument and -L ---------------------------------------------------------

def test_a_leading_word_naming_a_file_is_a_word_and_the_note_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "CAT", "dog\n")  # a file whose name is also a word
    code, out, err = run_main(capsys, "check", "CAT", "DOG", "--json")
    assert code == 0 and [r["word"] for r in json.loads(out)] == ["CAT", "DOG"]  # both words, bundled ENABLE
    assert "CAT is read as a word" in err and "./CAT" in err and "-L CAT" in err
    code, out, _ = run_main(capsys, "check", "./CAT", "DOG", "CAT", "--json")  # written as a path: the file
    assert code == 1 and json.loads(out) == [{"word": "DOG", "valid": True}, {"word": "CAT", "valid": False}]
    code, out, _ = run_main(capsys, "check", "-L", "CAT", "DOG", "--json")
    assert code == 0 and json.loads(out) == [{"word": "DOG", "valid": True}]


def test_a_leading_file_needs_words_after_it(tiny_dawg, capsys):
    code, _, err = run_main(capsys, "check", tiny_dawg)
    assert code == 2
    assert_one_error_line(err, "is a file")
    code, _, err = run_main(capsys, "words", tiny_dawg, "CAT")
    assert code == 2
    assert_one_error_line(err, "unexpected argument")
    code, _, err = run_main(capsys, "words", "NOSUCHFILE")
    assert code == 2
    assert_one_error_line(err, "NOSUCHFILE: no such file")


def test_every_command_using_a_lexicon_takes_dash_L(tiny_dawg, capsys):
    game = GAMES / "MAGPIE__standard.gcg"
    code, out, _ = run_main(capsys, "replay", game, "-L", tiny_dawg, "--json")
    assert code in (0, 1) and json.loads(out)["events"]
    code, _, err = run_main(capsys, "replay", game, "-l", tiny_dawg)
    assert code == 2 and "-l" in err
    code, out, _ = run_main(capsys, "moves", "-L", tiny_dawg, "--rack", "CATS", "--json")
    assert code == 0 and json.loads(out)
    code, out, _ = run_main(capsys, "judge", "-L", tiny_dawg, "--cgp", EMPTY + " CATS/ 0/0 0", "8H CAT", "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, out, _ = run_main(capsys, "selfplay", "-L", tiny_dawg, "--games", "1", "--json")
    assert code == 0 and json.loads(out)[0]["replay_ok"]
    for command in (["moves", tiny_dawg, "--rack", "CATS"], ["selfplay", tiny_dawg], ["play", tiny_dawg],
                    ["judge", tiny_dawg, "8H CAT", "--cgp", EMPTY + " CATS/ 0/0 0"]):
        code, _, err = run_main(capsys, *command, "-L", tiny_dawg)
        assert code == 2, command
        assert_one_error_line(err, "two lexicons")


# -- empty answers and counts -----------------------------------------------------------------

def test_an_empty_answer_says_so_on_stderr_with_exit_1(tiny_dawg, capsys):
    for command, message in ((["words", tiny_dawg, "--prefix", "QQ"], "no words"),
                             (["words", tiny_dawg, "--pattern", "Z????????"], "no words"),
                             (["anagram", tiny_dawg, "QQQ"], "no words"),
                             (["moves", tiny_dawg, "--rack", "QQQ"], "no play")):
        code, out, err = run_main(capsys, *command)
        assert (code, out, err) == (1, "", f"lexc: {message}\n"), command
        code, out, _ = run_main(capsys, *command, "--json")
        assert code == 1 and json.loads(out) == [], command


@pytest.mark.parametrize("command", [["moves", "--rack", "CAT"], ["words"]])
def test_a_count_of_zero_is_refused(tiny_dawg, capsys, command):
    code, _, err = run_main(capsys, command[0], tiny_dawg, *command[1:], "-n", "0")
    assert code == 2
    assert_one_error_line(err, "0 is not in the range")


def test_moves_with_a_rack_alone_is_on_the_empty_board(tiny_dawg, capsys):
    code, alone, _ = run_main(capsys, "moves", tiny_dawg, "--rack", "CATS", "--json")
    code2, with_cgp, _ = run_main(capsys, "moves", tiny_dawg, "--cgp", EMPTY + " CATS/ 0/0 0", "--json")
    assert code == code2 == 0 and json.loads(alone) == json.loads(with_cgp) and json.loads(alone)
    code, _, err = run_main(capsys, "moves", tiny_dawg)
    assert code == 2
    assert_one_error_line(err, "--rack alone for the empty board")


def test_edit_refuses_a_word_with_a_space_naming_it(tmp_path, tiny_dawg, capsys):
    target = tmp_path / "t.dawg"
    code, _, err = run_main(capsys, "edit", tiny_dawg, "--add", "hello world", "-o", target)
    assert code == 2 and not target.exists()
    assert_one_error_line(err, "'hello world'")
    code, _, _ = run_main(capsys, "edit", tiny_dawg, "--add", "dog, cow", "-o", target)
    assert code == 0 and {"DOG", "COW"} <= set(formats.load(target))


# -- patterns ---------------------------------------------------------------------------------

@pytest.mark.parametrize("pattern, message", [
    ("[^]", "[^] names no letter"), ("[]", "[] names no letter"), ("[A-]", "a range needs a letter on each side"),
    ("[-A]", "a range needs a letter on each side"), ("[E-A]", "the range E-A runs backwards"),
    ("[A-E", "unclosed '['"), ("A]", "unmatched ']'"), ("[A1]", "'1' is not in the alphabet"),
])
def test_malformed_patterns_are_one_line_errors(tiny_dawg, capsys, pattern, message):
    code, _, err = run_main(capsys, "words", tiny_dawg, "--pattern", pattern)
    assert code == 2
    assert_one_error_line(err, message)


def test_letter_ranges_in_patterns():
    english, spanish = load_ruleset("english").alphabet, load_ruleset("spanish").alphabet
    assert parse_pattern("[A-E]", english) == parse_pattern("[ABCDE]", english)
    assert parse_pattern("[^B-Y]", english) == parse_pattern("[AZ]", english)
    assert parse_pattern("[A-C,X-Z]", english) == parse_pattern("[ABCXYZ]", english)
    assert parse_pattern("[C-D]", spanish) == parse_pattern("[C[CH]D]".replace("[CH]", "CH"), spanish)  # CH between
    with pytest.raises(PatternError):
        parse_pattern("[A-CH-B]", spanish)


@pytest.mark.parametrize("pattern, regex", [("[A-D]*", r"[A-D][A-Z]*"), ("?[^A-M]*", r"[A-Z][N-Z][A-Z]*")])
def test_ranges_list_what_a_regex_lists(tiny_dawg, capsys, pattern, regex):
    expected = [w for w in TINY_WORDS if re.fullmatch(regex, w)]
    code, out, _ = run_main(capsys, "words", tiny_dawg, "--pattern", pattern, "--json")
    assert expected and code == 0 and json.loads(out) == expected


# -- errors and pipes -------------------------------------------------------------------------

def test_a_failed_write_names_the_users_file_not_the_temporary_one(tmp_path, monkeypatch, capsys):
    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(src), str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    out = tmp_path / "words.dawg"
    code, _, err = run_main(capsys, "build", TINY, "-o", out)
    assert code == 2 and ".part" not in err
    assert_one_error_line(err, f"{out}: Permission denied")
    assert not list(tmp_path.iterdir())  # and nothing is left behind


def test_a_closed_pipe_ends_the_command_quietly(tiny_dawg):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (LEXC_PARENT, env.get("PYTHONPATH")) if p)
    for args in (["dump", tiny_dawg], ["words", "--json"], ["words"]):
        proc = subprocess.Popen([sys.executable, "-m", "lexc", *map(str, args)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env)
        proc.stdout.read(10)
        proc.stdout.close()  # the reader goes away, as head does
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) in (0, 1), (args, err)
        assert err == "", (args, err)


# -- progress of a long build -----------------------------------------------------------------

def test_a_gaddag_build_reports_its_progress_without_changing_the_file():
    from lexc.lexicons.synth import generate
    from lexc.wordlist import from_words

    words = from_words(generate(6000, seed=3), load_ruleset("english").alphabet)
    for name in ("gaddag", "gaddawg"):
        told = []
        lexicon = formats.build(words, name, progress=told.append)
        assert len(told) >= 20 and told == sorted(told) and told[0] < 0.05 and told[-1] >= 0.95, name
        assert "progress" not in lexicon.build_options
        assert formats.dumps(lexicon) == formats.dumps(formats.build(words, name)), name


def test_a_single_build_moves_its_bar_within_the_build_with_an_eta(tmp_path, monkeypatch, capsys):
    """On a terminal, ``lexc build -f gaddawg`` shows one bar whose position moves while the
    GADDAG is built (not only between the stages), with an ETA."""
    import click

    from lexc.cli import common
    from lexc.lexicons.synth import generate

    seen = []

    class Bar:
        def __init__(self, length, label, file, show_eta):
            self.length, self.label, self.pos, self.show_eta = length, label, 0, show_eta

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, steps):
            self.pos += steps
            seen.append((self.label, self.pos, self.length, self.show_eta))

    monkeypatch.setattr(common, "on_terminal", lambda: True)
    monkeypatch.setattr(click, "progressbar", Bar)
    source = write(tmp_path / "synth.txt", "\n".join(generate(6000, seed=4)) + "\n")
    code, _, err = run_main(capsys, "build", source, "-f", "gaddawg", "-o", tmp_path / "s.gaddawg")
    assert code == 0, err
    building = [pos for label, pos, _, _ in seen if label == "building gaddawg"]
    assert len(set(building)) >= 10  # it moved within the build
    assert [pos for _, pos, _, _ in seen] == sorted(pos for _, pos, _, _ in seen)
    assert seen[-1][1] == seen[-1][2] and all(eta for *_, eta in seen)


def test_build_all_reports_what_the_list_held_like_a_single_build(tmp_path, capsys):
    source = write(tmp_path / "dup.txt", "cat\nCAT\ndog\nd$g\na\n")
    code, single, _ = run_main(capsys, "build", source, "-o", tmp_path / "one.dawg", "--skip-invalid")
    code2, every, _ = run_main(capsys, "build", source, "-f", "all", "-o", tmp_path / "all", "--skip-invalid",
                               "--verbose")
    assert code == code2 == 0
    counts = "2 words (1 duplicate dropped, 1 rejected, 1 too short, 0 too long)"
    assert counts in single.splitlines()[0] and every.splitlines()[0] == f"{source}: {counts}"
    assert every.splitlines()[-1] == "  rejected 4: D$G ('$' not in the alphabet)"


# -- start-up: a command imports what it needs ------------------------------------------------

LOADED = """
import sys
from lexc.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""


def loaded_by(*args: str) -> set[str]:
    """The modules a fresh interpreter has imported once ``lexc ARGS`` is done."""
    env = {**os.environ, "PYTHONPATH": LEXC_PARENT}
    done = subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True, text=True, env=env, timeout=120)
    return set(done.stdout.split("\n")[-2].split())


@pytest.mark.usefixtures("cache_dir")
def test_start_up_imports_only_what_the_command_needs():
    help_only = loaded_by("--help")
    assert not {m for m in help_only if m.startswith(("lexc.lexicons", "lexc.board", "lexc.movegen", "lexc.game",
                                                        "lexc.bench.", "lexc.wordlist", "lexc.ruleset"))}
    loaded_by("check", "CAT")  # (the first compiles the bundled list into the cache)
    check = loaded_by("check", "CAT")
    assert "lexc.formats.dawg" in check  # it did open the cached lexicon
    heavy = {"lexc.wordlist", "lexc.formats.kwg", "lexc.movegen", "lexc.board.board", "tomllib", "tempfile", "shutil",
             "importlib.resources"}
    assert not check & heavy, check & heavy


# -- review mends -----------------------------------------------------------------------------

def test_a_file_named_alone_that_does_not_exist_is_named(capsys):
    code, _, err = run_main(capsys, "check", "missing.dawg")
    assert code == 2
    assert_one_error_line(err, "missing.dawg: no such file")
    code, _, err = run_main(capsys, "words", "QU")
    assert code == 2
    assert_one_error_line(err, "QU: no such file", "--prefix QU")


def test_shell_completion_still_reaches_click():
    env = {**os.environ, "PYTHONPATH": LEXC_PARENT, "_LEXC_COMPLETE": "bash_source"}
    done = subprocess.run([sys.executable, "-c", "from lexc.cli import main; main()"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert "complete" in done.stdout and "Usage:" not in done.stdout


def test_a_progress_callback_of_one_argument_still_works(tmp_path):
    from lexc.lexicons.compile import compile_file

    stages = []
    compile_file(TINY, "gaddawg", "english", tmp_path / "t.gaddawg", progress=stages.append)
    assert stages == ["reading", "building gaddawg", "writing gaddawg"]
