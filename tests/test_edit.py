"""Tests for ``lexc edit`` and ``manager.edit_file``: the lexicon manager's insert and delete
on a compiled file of every registered format.

The oracle is ``lexc build`` of the edited word list, written by the test itself: the edited
file must be byte-identical to it (same format, format options, ruleset and word-list options,
and a header recording the edited list's SHA-256).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lexc import formats
from lexc.cli import cli, main
from lexc.formats import FORMATS, FormatError
from lexc.formats.dawg import Dawg
from lexc.lexicons.edit import edit_file
from lexc.wordlist import WordListError

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "wordlists" / "tiny.txt"
FORMAT_NAMES = list(FORMATS)


def list_words(path: Path) -> list[str]:
    """The words of a hand-made list, read independently of lexc."""
    lines = (line.strip() for line in path.read_text("utf-8").splitlines())
    return sorted({line.upper() for line in lines if line and not line.startswith("#")})


TINY_WORDS = list_words(TINY)
ADD, ALREADY = ["QUIZ", "JINX"], ["ZOA"]
REMOVE, ABSENT = ["CAT", "TEAS"], ["ZZZ"]
EDITED = sorted((set(TINY_WORDS) - set(REMOVE)) | set(ADD))
EDIT_ARGS = ["--add", "quiz", "--add", "Jinx,zoa", "--remove", "cat", "--remove", "TEAS", "--remove", "zzz"]


# --- helpers ---------------------------------------------------------------------------------

def invoke(*args):
    """Run the click group in-process; the result has stdout, exit_code."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def ok(*args):
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def run_main(capsys, *args) -> tuple[int, str, str]:
    """``lexc.cli.main`` in-process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    return (0 if info.value.code is None else info.value.code), out, err


def assert_one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lexc: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], err


def write_list(path: Path, words: list[str]) -> Path:
    path.write_text("".join(w + "\n" for w in words), encoding="utf-8")
    return path


def sha256_of(words: list[str]) -> str:
    """The word-list SHA-256 of sorted A-Z words, computed without lexc."""
    return hashlib.sha256("".join(w + "\n" for w in sorted(words)).encode()).hexdigest()


@pytest.fixture(autouse=True)
def _cache_env(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("LEXC_CACHE", str(tmp_path_factory.getbasetemp() / "lexc-cache"))


@pytest.fixture(params=FORMAT_NAMES)
def tiny_built(request, tmp_path) -> Path:
    """tiny.txt built by ``lexc build`` in each registered format, in a fresh directory."""
    path = tmp_path / "src" / f"tiny.{request.param}"
    path.parent.mkdir()
    ok("build", TINY, "-f", request.param, "-o", path)
    return path


def built_from(tmp_path: Path, words: list[str], format: str, *options: str) -> bytes:
    """The bytes ``lexc build`` makes of a word list (the oracle)."""
    src = write_list(tmp_path / "oracle.txt", words)
    out = tmp_path / f"oracle.{format}"
    ok("build", src, "-f", format, "-o", out, *options)
    return out.read_bytes()


# --- the edit equals a build of the edited list, for every format ---------------------------

def test_add_and_remove_equal_building_the_edited_list(tiny_built, tmp_path):
    fmt = tiny_built.suffix[1:]
    out = tmp_path / f"edited.{fmt}"
    ok("edit", tiny_built, *EDIT_ARGS, "-o", out)
    assert out.read_bytes() == built_from(tmp_path, EDITED, fmt)
    lex = formats.load(out)
    assert lex.name == fmt and list(lex) == EDITED
    assert lex.wordlist_sha256 == sha256_of(EDITED) != formats.load(tiny_built).wordlist_sha256


def test_the_edited_file_verifies_against_the_edited_list(tiny_built, tmp_path):
    out = tmp_path / "edited.lexc"
    ok("edit", tiny_built, *EDIT_ARGS, "-o", out)
    result = invoke("verify", out, "--against", write_list(tmp_path / "edited.txt", EDITED))
    assert result.exit_code == 0, result.output
    assert invoke("verify", out, "--against", TINY).exit_code == 1


def test_check_finds_the_added_words_and_not_the_removed(tiny_built, tmp_path):
    out = tmp_path / "edited.lexc"
    ok("edit", tiny_built, *EDIT_ARGS, "-o", out)
    assert invoke("check", out, *ADD, *ALREADY).exit_code == 0
    for word in REMOVE:
        result = invoke("check", out, word)
        assert result.exit_code == 1 and "NOT valid" in result.stdout


def test_in_place_by_default(tiny_built, tmp_path):
    fmt = tiny_built.suffix[1:]
    report = json.loads(ok("edit", tiny_built, *EDIT_ARGS, "--json").stdout)
    assert report["output"] == str(tiny_built) and report["written"] is True
    assert tiny_built.read_bytes() == built_from(tmp_path, EDITED, fmt)
    assert [p.name for p in tiny_built.parent.iterdir()] == [tiny_built.name]  # no temporary left


def test_dash_o_leaves_the_source_alone(tiny_built, tmp_path):
    before = tiny_built.read_bytes()
    ok("edit", tiny_built, *EDIT_ARGS, "-o", tmp_path / "out.lexc")
    assert tiny_built.read_bytes() == before
    assert list(formats.load(tmp_path / "out.lexc")) == EDITED


def test_remove_every_word_gives_an_empty_lexicon_or_one_line(tiny_built, tmp_path, capsys):
    """Every format registered so far holds an empty lexicon; one that cannot must say so."""
    before = tiny_built.read_bytes()
    code, _, err = run_main(capsys, "edit", tiny_built, "--remove-file", TINY)
    if code == 0:
        lex = formats.load(tiny_built)
        assert list(lex) == [] and len(lex) == 0 and "CAT" not in lex and lex.anagrams("CAT") == []
        assert lex.wordlist_sha256 == hashlib.sha256(b"").hexdigest()
        assert invoke("verify", tiny_built).exit_code == 0
        ok("edit", tiny_built, "--add-file", TINY)
        assert tiny_built.read_bytes() == before
    else:
        assert code == 2 and tiny_built.read_bytes() == before
        assert_one_error_line(err, "empty lexicon")


# --- the report --------------------------------------------------------------------------------

def test_json_report(tmp_path):
    src, out = tmp_path / "tiny.dawg", tmp_path / "out.dawg"
    ok("build", TINY, "-o", src)
    report = json.loads(ok("edit", src, *EDIT_ARGS, "-o", out, "--json").stdout)
    assert report["added"] == ADD and report["already_present"] == ALREADY
    assert report["removed"] == REMOVE and report["not_present"] == ABSENT
    assert (report["words_before"], report["words_after"]) == (len(TINY_WORDS), len(EDITED))
    assert report["output"] == str(out) and report["source"] == str(src) and report["written"] is True
    assert report["file_bytes"] == out.stat().st_size and report["format"] == "dawg"
    assert report["wordlist_sha256"] == sha256_of(EDITED) and report["ruleset"] == "english"


def test_text_report(tmp_path):
    src, out = tmp_path / "tiny.dawg", tmp_path / "out.dawg"
    ok("build", TINY, "-o", src)
    lines = ok("edit", src, *EDIT_ARGS, "-o", out).stdout.splitlines()
    assert lines[0] == (f"{out}: dawg, {len(TINY_WORDS)} -> {len(EDITED)} words "
                        "(2 added, 1 already present, 2 removed, 1 not present)")
    assert lines[1:5] == ["  added: QUIZ JINX", "  already present: ZOA", "  removed: CAT TEAS", "  not present: ZZZ"]
    assert f"bytes {out.stat().st_size:,}" in lines[5]


def test_present_and_absent_words_only_are_not_an_error_and_leave_the_file_alone(tmp_path):
    src = tmp_path / "tiny.dawg"
    ok("build", TINY, "-o", src)
    stamp = src.stat().st_mtime_ns, src.read_bytes()
    report = json.loads(ok("edit", src, "--add", "CAT", "--remove", "ZZZ", "--json").stdout)
    assert report["written"] is False and report["already_present"] == ["CAT"] and report["not_present"] == ["ZZZ"]
    assert (src.stat().st_mtime_ns, src.read_bytes()) == stamp
    assert "unchanged, not rewritten" in ok("edit", src).stdout


def test_nothing_to_do_with_dash_o_writes_an_identical_copy(tmp_path):
    src, out = tmp_path / "tiny.dawg", tmp_path / "copy.dawg"
    ok("build", TINY, "-o", src)
    report = json.loads(ok("edit", src, "--add", "CAT", "-o", out, "--json").stdout)
    assert report["written"] is True and out.read_bytes() == src.read_bytes()


def test_words_from_files_and_repeats(tmp_path):
    src, out = tmp_path / "tiny.dawg", tmp_path / "out.dawg"
    ok("build", TINY, "-o", src)
    adds = tmp_path / "adds.txt"
    adds.write_text("# more words\nquiz\n\n  jinx  \nQUIZ\n", encoding="utf-8")
    report = json.loads(ok("edit", src, "--add-file", adds, "--add", "quiz", "--remove", "cat, teas",
                           "-o", out, "--json").stdout)
    assert report["added"] == ADD and report["removed"] == REMOVE
    assert list(formats.load(out)) == EDITED


# --- options are carried -------------------------------------------------------------------------

def test_word_list_and_format_options_are_kept(tmp_path):
    src = write_list(tmp_path / "w.txt", ["at", "cat", "dog", "cats", "scats"])
    built, out = tmp_path / "w.dawg", tmp_path / "out.dawg"
    options = ["--min-len", "3", "--max-len", "5", "--skip-invalid", "--layout", "u64"]
    ok("build", src, "-o", built, *options)
    ok("edit", built, "--add", "DOGS", "--remove", "CAT", "-o", out)
    assert out.read_bytes() == built_from(tmp_path, ["CATS", "DOG", "DOGS", "SCATS"], "dawg", *options)
    assert formats.load(out).build_options["layout"] == "u64"


@pytest.mark.parametrize("word, fragment", [("QI", "--min-len 3"), ("QUIZZES", "--max-len 5")])
def test_an_added_word_outside_the_recorded_lengths_is_refused(tmp_path, capsys, word, fragment):
    src = write_list(tmp_path / "w.txt", ["cat", "dog", "cats"])
    built = tmp_path / "w.dawg"
    ok("build", src, "-o", built, "--min-len", "3", "--max-len", "5")
    before = built.read_bytes()
    code, out, err = run_main(capsys, "edit", built, "--add", word)
    assert code == 2 and out == "" and built.read_bytes() == before
    assert_one_error_line(err, str(built), word, fragment, "nothing written")


# --- multi-character tiles -----------------------------------------------------------------------

SPANISH_WORDS = ["agua", "año", "calle", "chico", "perro"]


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_spanish_multi_character_tiles(tmp_path, fmt):
    built, out = tmp_path / f"es.{fmt}", tmp_path / f"out.{fmt}"
    ok("build", write_list(tmp_path / "es.txt", SPANISH_WORDS), "-r", "spanish", "-f", fmt, "-o", built)
    report = json.loads(ok("edit", built, "--add", "churro", "--add", "NIÑO", "--remove", "calle",
                           "-o", out, "--json").stdout)
    assert report["added"] == ["CHURRO", "NIÑO"] and report["removed"] == ["CALLE"]
    edited = ["agua", "año", "chico", "churro", "niño", "perro"]
    assert out.read_bytes() == built_from(tmp_path, edited, fmt, "-r", "spanish")
    lex = formats.load(out)
    assert "CHURRO" in lex and "CALLE" not in lex
    assert [len(w) for w in lex.iter_codes() if lex.alphabet.decode(w) == "CHURRO"] == [4]  # CH U RR O


def test_spanish_lengths_count_tiles_not_characters(tmp_path, capsys):
    """CHURRO is 6 characters but 4 tiles: refused by --min-len 5 though longer than 5."""
    built = tmp_path / "es.dawg"
    ok("build", write_list(tmp_path / "es.txt", ["casas", "cosas"]), "-r", "spanish", "--min-len", "5",
       "-o", built)
    code, _, err = run_main(capsys, "edit", built, "--add", "churro")
    assert code == 2
    assert_one_error_line(err, "'churro'", "4 tiles", "--min-len 5")


# --- refusals: one line, exit 2, nothing written -------------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    (["--add", "D$G"], ["'D$G'", "'$'", "not in the alphabet"]),
    (["--add", "quiz", "--add", "A"], ["'A'", "1 tile", "--min-len 2"]),
    (["--remove", "É"], ["'É'", "not in the alphabet"]),
    (["--add", "quiz", "--remove", "QUIZ"], ["QUIZ", "both added and removed"]),
])
def test_bad_words_exit_2_and_leave_the_file_unchanged(tmp_path, capsys, args, fragments):
    src = tmp_path / "tiny.dawg"
    ok("build", TINY, "-o", src)
    before = src.read_bytes()
    code, out, err = run_main(capsys, "edit", src, *args)
    assert code == 2 and out == ""
    assert_one_error_line(err, str(src), *fragments)
    assert src.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["tiny.dawg"]


def test_a_plain_word_list_is_refused(tmp_path, capsys):
    listed = write_list(tmp_path / "w.txt", ["cat", "dog"])
    code, _, err = run_main(capsys, "edit", listed, "--add", "cats")
    assert code == 2 and listed.read_text() == "cat\ndog\n"
    assert_one_error_line(err, str(listed), "not a compiled lexicon", "lexc build")


def test_a_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run_main(capsys, "edit", tmp_path / "absent.dawg", "--add", "cat")
    assert code == 2
    assert_one_error_line(err, "absent.dawg", "no such file")


def test_a_missing_add_file_exits_2(tmp_path, capsys):
    src = tmp_path / "tiny.dawg"
    ok("build", TINY, "-o", src)
    code, _, err = run_main(capsys, "edit", src, "--add-file", tmp_path / "none.txt")
    assert code == 2
    assert_one_error_line(err, "none.txt")


class NoEmpty(Dawg):
    """A test-only DAWG that cannot be built from no words."""

    name = "noempty-test"

    @classmethod
    def build(cls, words, alphabet, **options):
        if not words:
            raise ValueError("no root without words")
        return super().build(words, alphabet, **options)


def test_a_format_without_an_empty_lexicon_says_so(tmp_path, monkeypatch):
    from lexc.lexicons.source import read_list

    monkeypatch.setitem(FORMATS, NoEmpty.name, NoEmpty)
    src = tmp_path / "two.noempty"
    formats.save(formats.build(read_list(write_list(tmp_path / "w.txt", ["cat", "dog"])), NoEmpty.name), src)
    before = src.read_bytes()
    with pytest.raises(FormatError, match=r"noempty-test format cannot hold an empty lexicon.*nothing written"):
        edit_file(src, remove=["CAT", "DOG"])
    assert src.read_bytes() == before
    assert list(formats.load(edit_file(src, remove=["CAT"], out=tmp_path / "one.noempty")["output"])) == ["DOG"]


def test_library_errors_are_word_list_errors(tmp_path):
    src = tmp_path / "tiny.dawg"
    ok("build", TINY, "-o", src)
    with pytest.raises(WordListError, match="not in the alphabet"):
        edit_file(src, add=["C4T"])


def test_help_has_an_example():
    text = ok("edit", "--help").stdout
    assert "Example: lexc edit" in text and "--add" in text and "--remove" in text
