"""Tests for the ``lexc`` command line: output through click's CliRunner, exit statuses and
stderr through ``lexc.cli.main`` in-process and ``python -m lexc`` in a subprocess.

Exit status: 0 success, 1 a negative answer, 2 bad input with one line ``lexc: error: ...``
on stderr and never a traceback. Expected answers are computed by brute force over the word
lists, never copied from lexc.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner

import lexc
from lexc import formats, native
from lexc.cli import cli, main
from lexc.formats import FormatError, LexiconBase

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "wordlists" / "tiny.txt"
SPANISH = ROOT / "wordlists" / "spanish-sample.txt"
LEXC_PARENT = str(Path(lexc.__file__).resolve().parent.parent)  # the lexc under test, for subprocesses


def list_words(path: Path) -> list[str]:
    """The words of a hand-made list, read independently of lexc."""
    lines = (line.strip() for line in path.read_text("utf-8").splitlines())
    return sorted({line.upper() for line in lines if line and not line.startswith("#")})


TINY_WORDS = list_words(TINY)
TINY_SET = set(TINY_WORDS)


# --- fixtures and runners --------------------------------------------------------------------

@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """An empty LEXC_CACHE shared by the whole session, so ENABLE is compiled at most once."""
    return tmp_path_factory.mktemp("lexc-cache")


@pytest.fixture(scope="session")
def first_cache(tmp_path_factory) -> Path:
    """A LEXC_CACHE of its own for ``enable_retains``: no other test can have filled it first
    (the shared ``cache_dir`` may already hold ENABLE, compiled by whichever test ran before)."""
    return tmp_path_factory.mktemp("lexc-first-cache")


@pytest.fixture(scope="session")
def enable_retains(first_cache, cache_dir):
    """``lexc anagram RETAINS --json`` with no FILE and an empty cache: compiles and caches the
    bundled ENABLE (then copied to the shared cache, so the other tests need not compile it)."""
    before = sorted(p.name for p in first_cache.glob("*.lexc"))
    result = CliRunner().invoke(cli, ["anagram", "RETAINS", "--json"], env={"LEXC_CACHE": str(first_cache)})
    after = sorted(p.name for p in first_cache.glob("*.lexc"))
    for name in after:
        if not (cache_dir / name).exists():
            shutil.copyfile(first_cache / name, cache_dir / f".{name}.part")
            (cache_dir / f".{name}.part").replace(cache_dir / name)
    return before, result, after


@pytest.fixture(autouse=True)
def _cache_env(cache_dir, monkeypatch):
    monkeypatch.setenv("LEXC_CACHE", str(cache_dir))


def invoke(*args: str):
    """Run the click group in-process; the result has stdout, stderr, exit_code."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def ok(*args: str):
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """``lexc.cli.main`` in-process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    code = info.value.code
    return (0 if code is None else code), out, err


def run_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m lexc ...`` with LEXC_CACHE set (by the autouse fixture) and the lexc under test."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (LEXC_PARENT, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "lexc", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def assert_one_error_line(err: str, *fragments: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("lexc: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], err
    return lines[0]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- build -----------------------------------------------------------------------------------

SMALL = "# a list\ncat\nCAT\ndog\nact\ndogs\n a \nd$g\ncats\n"  # 5 words, 1 duplicate, 1 short, 1 invalid


def test_build_prints_the_report_and_writes_the_file(tmp_path):
    src = write(tmp_path / "small.txt", SMALL)
    out = tmp_path / "small.dawg"
    result = ok("build", src, "-o", out, "--skip-invalid")
    assert out.is_file()
    lex = formats.load(out)
    assert list(lex) == ["ACT", "CAT", "CATS", "DOG", "DOGS"]
    text = result.stdout
    assert re.search(r"\b5 words\b", text)
    assert re.search(r"\b1 duplicates?\b", text)
    assert re.search(r"\b1 rejected\b", text)
    assert re.search(r"\b1 too short\b", text)
    stats = lex.stats()
    assert re.search(rf"nodes {stats['nodes']}\b", text)
    assert re.search(rf"edges {stats['edges']}\b", text)
    assert re.search(rf"bytes {out.stat().st_size:,}\b", text)
    assert re.search(r"seconds \d+\.\d+", text)


def test_build_json_report(tmp_path):
    src = write(tmp_path / "small.txt", SMALL)
    out = tmp_path / "small.dawg"
    report = json.loads(ok("build", src, "-o", out, "--skip-invalid", "--json").stdout)
    for key in ("words", "duplicates", "rejected", "nodes", "edges", "bytes", "seconds"):
        assert key in report, key
    assert report["words"] == 5
    assert report["duplicates"] == 1
    assert report["rejected"] == 1
    assert report["too_short"] == 1
    stats = formats.load(out).stats()
    assert (report["nodes"], report["edges"]) == (stats["nodes"], stats["edges"])
    assert report["file_bytes"] == out.stat().st_size
    assert isinstance(report["seconds"], (int, float)) and report["seconds"] >= 0
    assert Path(report["output"]) == out


def test_build_default_output_name(tmp_path, monkeypatch):
    src = write(tmp_path / "mywords.txt", "cat\ndog\n")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    ok("build", src)
    assert (work / "mywords.dawg").is_file()
    assert list(formats.load(work / "mywords.dawg")) == ["CAT", "DOG"]


def test_build_of_tiny_list_holds_exactly_its_words(tmp_path):
    out = tmp_path / "tiny.dawg"
    report = json.loads(ok("build", TINY, "-o", out, "--json").stdout)
    assert report["words"] == len(TINY_WORDS)
    assert list(formats.load(out)) == TINY_WORDS


def test_build_min_and_max_len(tmp_path):
    src = write(tmp_path / "w.txt", "at\ncat\ncats\nscats\n")
    out = tmp_path / "w.dawg"
    report = json.loads(ok("build", src, "-o", out, "--min-len", "3", "--max-len", "4", "--json").stdout)
    assert list(formats.load(out)) == ["CAT", "CATS"]
    assert (report["too_short"], report["too_long"]) == (1, 1)


def test_build_u64_layout(tmp_path):
    out32, out64 = tmp_path / "a.dawg", tmp_path / "b.dawg"
    ok("build", TINY, "-o", out32)
    ok("build", TINY, "-o", out64, "--layout", "u64")
    info = json.loads(ok("info", out64, "--json").stdout)
    assert info["meta"]["layout"] == "u64"
    assert json.loads(ok("anagram", out64, "RETAINS", "--json").stdout) == \
        json.loads(ok("anagram", out32, "RETAINS", "--json").stdout)


def test_build_rebuild_is_byte_identical(tmp_path):
    a, b = tmp_path / "a.dawg", tmp_path / "b.dawg"
    ok("build", TINY, "-o", a)
    ok("build", TINY, "-o", b)
    assert a.read_bytes() == b.read_bytes()


def test_build_bad_list_exits_2_with_one_line_and_no_file(tmp_path, capsys):
    src = write(tmp_path / "bad.txt", "cat\ndog\nd$g\nemu\n")
    out = tmp_path / "bad.dawg"
    code, _stdout, err = run_main(capsys, "build", src, "-o", out)
    assert code == 2
    assert_one_error_line(err, f"{src}:3", "$")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]


def test_build_bad_list_in_a_subprocess(tmp_path):
    src = write(tmp_path / "bad.txt", "cat\ncafé\n")
    done = run_process("build", src, "-o", tmp_path / "bad.dawg")
    assert done.returncode == 2
    assert_one_error_line(done.stderr, f"{src}:2")
    assert not (tmp_path / "bad.dawg").exists()
    assert done.stdout == ""


def test_build_utf16_list_exits_2(tmp_path, capsys):
    src = tmp_path / "u16.txt"
    src.write_bytes("cat\ndog\n".encode("utf-16"))
    code, _, err = run_main(capsys, "build", src, "-o", tmp_path / "u16.dawg")
    assert code == 2
    assert_one_error_line(err, "UTF-16")


def test_build_skip_invalid_verbose_lists_rejects(tmp_path):
    src = write(tmp_path / "w.txt", "cat\nd$g\ndog\nca#t\nemu\n")
    out = tmp_path / "w.dawg"
    text = ok("build", src, "-o", out, "--skip-invalid", "--verbose").stdout
    assert re.search(r"\b2 rejected\b", text)
    reject_lines = [line for line in text.splitlines() if "D$G" in line or "CA#T" in line]
    assert len(reject_lines) == 2
    assert re.search(r"\b2\b", reject_lines[0]) and "D$G" in reject_lines[0]
    assert re.search(r"\b4\b", reject_lines[1]) and "CA#T" in reject_lines[1]
    assert list(formats.load(out)) == ["CAT", "DOG", "EMU"]
    quiet = ok("build", src, "-o", out, "--skip-invalid").stdout
    assert "D$G" not in quiet


def test_build_json_lists_rejects(tmp_path):
    src = write(tmp_path / "w.txt", "cat\nd$g\ndog\n")
    report = json.loads(ok("build", src, "-o", tmp_path / "w.dawg", "--skip-invalid", "--json").stdout)
    assert [(r["line"], r["text"]) for r in report["rejected_words"]] == [(2, "D$G")]


def test_build_spanish(tmp_path):
    out = tmp_path / "es.dawg"
    report = json.loads(ok("build", SPANISH, "-r", "spanish", "-o", out, "--json").stdout)
    assert report["words"] == len(list_words(SPANISH))
    lex = formats.load(out)
    assert "CHURRO" in lex and "NIÑO" in lex and "LLAMA" in lex
    assert lex.alphabet.labels[:4] == ("A", "B", "C", "CH")


def test_build_spanish_list_with_english_alphabet_fails(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", SPANISH, "-o", tmp_path / "x.dawg")
    assert code == 2
    assert_one_error_line(err, str(SPANISH), "Ñ")


# --- build -f all ----------------------------------------------------------------------------

FORMAT_NAMES = list(formats.FORMATS)  # registry order, as -f all builds them


class Flat(LexiconBase):
    """A test-only format with no options: the encoded words, each behind its length byte."""

    name = "flat-test"
    description = "test only: length-prefixed words"

    def __init__(self, words, alphabet):
        self.codes = list(words)
        self.alphabet = alphabet
        self.word_count = len(self.codes)
        self.build_options = {}

    @classmethod
    def build(cls, words, alphabet, **options):
        return cls(words, alphabet)

    def payload(self):
        return b"".join(bytes((len(w),)) + w for w in self.codes)

    @classmethod
    def from_payload(cls, payload, header, alphabet, backend=None):
        words, i = [], 0
        while i < len(payload):
            words.append(bytes(payload[i + 1:i + 1 + payload[i]]))
            i += 1 + payload[i]
        return cls(words, alphabet)

    def iter_codes(self, prefix=b""):
        return (w for w in self.codes if w.startswith(prefix))


class Broken(Flat):
    """A test-only format whose build always fails."""

    name = "broken-test"

    @classmethod
    def build(cls, words, alphabet, **options):
        raise FormatError("cannot hold these words")


class Lossy(Flat):
    """A test-only format that silently drops the first word."""

    name = "lossy-test"

    @classmethod
    def build(cls, words, alphabet, **options):
        return cls(list(words)[1:], alphabet)


@pytest.fixture
def register(monkeypatch):
    """Register test-only formats for one test (appended to the registry, so built last)."""
    def add(*classes):
        for cls in classes:
            monkeypatch.setitem(formats.FORMATS, cls.name, cls)
    return add


def assert_verifies(path: Path, against: Path = TINY, *extra: str) -> None:
    result = invoke("verify", path, "--against", against, *extra)
    assert result.exit_code == 0, (path, result.output)


def test_build_all_writes_one_verified_file_per_format(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    head, counted, *lines = ok("build", TINY, "-f", "all").stdout.splitlines()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"tiny.{name}" for name in FORMAT_NAMES)
    assert head.startswith(f"{TINY}: {len(TINY_WORDS)} words (0 duplicates dropped, 0 rejected")  # the list, once
    assert counted.strip().endswith("words are longer than the english board")
    assert len(lines) == len(FORMAT_NAMES)
    for name, line in zip(FORMAT_NAMES, lines, strict=True):
        path = tmp_path / f"tiny.{name}"
        lex = formats.load(path)
        assert lex.name == name and list(lex) == TINY_WORDS
        assert_verifies(path)
        stats = lex.stats()
        assert line.startswith(f"tiny.{name}: {name}, {len(TINY_WORDS)} words"), line
        assert re.search(rf"nodes {stats['nodes']:,}\b", line) and re.search(rf"edges {stats['edges']:,}\b", line)
        assert re.search(rf"bytes {path.stat().st_size:,}\b", line) and re.search(r"seconds \d+\.\d+$", line)


def test_build_all_into_a_directory_created_if_missing(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    ok("build", TINY, "-f", "all", "-o", tmp_path / "new" / "dir")
    assert list(work.iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "new" / "dir").iterdir()) == sorted(f"tiny.{n}" for n in FORMAT_NAMES)
    ok("build", TINY, "-f", "all", "-o", tmp_path / "new" / "dir")  # an existing directory is fine too


def test_build_all_matches_single_builds_byte_for_byte(tmp_path):
    ok("build", TINY, "-f", "all", "-o", tmp_path / "all", "--layout", "u64")
    for name in FORMAT_NAMES:
        single = tmp_path / f"single.{name}"
        ok("build", TINY, "-f", name, "-o", single, "--layout", "u64")
        assert (tmp_path / "all" / f"tiny.{name}").read_bytes() == single.read_bytes(), name


def test_build_all_json_is_a_list_of_single_reports(tmp_path):
    reports = json.loads(ok("build", TINY, "-f", "all", "-o", tmp_path / "all", "--json").stdout)
    assert isinstance(reports, list)
    assert [r["format"] for r in reports] == FORMAT_NAMES
    for r in reports:
        single = json.loads(ok("build", TINY, "-f", r["format"], "-o", tmp_path / "one", "--json").stdout)
        assert set(r) == set(single)
        assert {k: v for k, v in r.items() if "seconds" not in k and k != "output"} == \
            {k: v for k, v in single.items() if "seconds" not in k and k != "output"}
        path = Path(r["output"])
        assert path == tmp_path / "all" / f"tiny.{r['format']}"
        assert r["file_bytes"] == path.stat().st_size and r["words"] == len(TINY_WORDS)
        assert r["seconds"] >= 0 and r["read_seconds"] >= 0


def test_build_all_includes_formats_registered_later_and_passes_layout_only_where_known(tmp_path, register):
    register(Flat)  # no layout option: passing --layout to it would be an error
    reports = json.loads(ok("build", TINY, "-f", "all", "-o", tmp_path, "--layout", "u64", "--json").stdout)
    assert [r["format"] for r in reports] == [*FORMAT_NAMES, "flat-test"]
    assert list(formats.load(tmp_path / "tiny.flat-test")) == TINY_WORDS
    assert formats.load(tmp_path / "tiny.dawg").header["meta"]["layout"] == "u64"
    assert_verifies(tmp_path / "tiny.flat-test")


def test_build_all_failure_is_one_line_and_keeps_the_files_written(tmp_path, register, capsys):
    register(Broken)
    code, out, err = run_main(capsys, "build", TINY, "-f", "all", "-o", tmp_path / "out")
    assert code == 2 and out == ""
    assert_one_error_line(err, "broken-test", "cannot hold these words", "tiny.dawg")
    for name in FORMAT_NAMES:
        assert_verifies(tmp_path / "out" / f"tiny.{name}")
    assert not any(p.name.startswith(".") or "broken" in p.name for p in (tmp_path / "out").iterdir())


def test_build_all_bad_list_writes_nothing(tmp_path, capsys):
    src = write(tmp_path / "bad.txt", "cat\nd$g\n")
    code, _, err = run_main(capsys, "build", src, "-f", "all", "-o", tmp_path / "out")
    assert code == 2
    assert_one_error_line(err, f"{src}:2")
    assert not (tmp_path / "out").exists()


def test_build_all_out_is_a_file_exits_2(tmp_path, capsys):
    blocker = write(tmp_path / "file", "")
    code, _, err = run_main(capsys, "build", TINY, "-f", "all", "-o", blocker)
    assert code == 2
    assert_one_error_line(err, str(blocker), "not a directory")


def test_build_single_format_out_is_a_directory_exits_2(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", TINY, "-o", tmp_path)
    assert code == 2
    assert_one_error_line(err, str(tmp_path), "-f all")


class RecordingBar:
    """Stands in for click.progressbar: records length, labels and updates."""

    made: ClassVar[list[RecordingBar]] = []

    def __init__(self, length, label, file, show_eta=False):
        self.length, self.labels, self.done, self.show_eta = length, [label], 0, show_eta
        RecordingBar.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @property
    def label(self):
        return self.labels[-1]

    @label.setter
    def label(self, value):
        self.labels.append(value)

    @property
    def pos(self):
        return self.done

    def update(self, n):
        self.done += n


def test_build_all_shows_one_progress_bar_on_a_terminal(tmp_path, monkeypatch):
    import click

    from lexc.cli import common

    RecordingBar.made = []
    monkeypatch.setattr(click, "progressbar", RecordingBar)
    monkeypatch.setattr(common, "on_terminal", lambda: True)
    ok("build", TINY, "-f", "all", "-o", tmp_path)
    [bar] = RecordingBar.made
    stages = ["reading"] + [f"{step} {name}" for name in FORMAT_NAMES for step in ("building", "writing")]
    assert bar.labels[1:] == stages
    assert bar.length == bar.done == 100 * len(stages) and bar.show_eta  # 100 steps a stage, with an ETA


def test_build_all_shows_no_progress_bar_off_a_terminal(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", TINY, "-f", "all", "-o", tmp_path)
    assert (code, err) == (0, "")


def test_build_help_mentions_all_and_the_directory():
    text = " ".join(ok("build", "--help").stdout.split())
    assert "all" in text and "directory" in text and "Example: lexc build" in text


# --- convert ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_in(tmp_path_factory):
    """tiny.txt compiled by the library into each registered format: format name -> path."""
    from lexc.lexicons.compile import compile_file

    where = tmp_path_factory.mktemp("tiny-formats")
    return {name: Path(compile_file(TINY, name, out=where / f"tiny.{name}")["output"]) for name in FORMAT_NAMES}


def tiny_sha256() -> str:
    """The SHA-256 of tiny.txt's words, computed without lexc (sorted, upper case, one a line)."""
    return hashlib.sha256(("\n".join(TINY_WORDS) + "\n").encode()).hexdigest()


@pytest.mark.parametrize("source, target", [(a, b) for a in FORMAT_NAMES for b in FORMAT_NAMES])
def test_convert_keeps_the_words(tiny_in, tmp_path, source, target):
    out = tmp_path / f"converted.{target}"
    ok("convert", tiny_in[source], "-f", target, "-o", out)
    assert_verifies(out)
    lex = formats.load(out)
    assert lex.name == target and list(lex) == TINY_WORDS
    assert lex.wordlist_sha256 == formats.load(tiny_in[source]).wordlist_sha256 == tiny_sha256()


@pytest.mark.parametrize("middle", FORMAT_NAMES)
def test_convert_round_trip_gives_the_directly_built_dawg(tmp_path, middle):
    """dawg -> X -> dawg is byte-identical to building the dawg from the list: the header
    holds the words' SHA-256, the ruleset and the options, and all of them are carried."""
    direct = tmp_path / "direct.dawg"
    ok("build", TINY, "-o", direct)
    ok("convert", direct, "-f", middle, "-o", tmp_path / f"mid.{middle}")
    ok("convert", tmp_path / f"mid.{middle}", "-f", "dawg", "-o", tmp_path / "back.dawg")
    assert (tmp_path / "back.dawg").read_bytes() == direct.read_bytes()


def test_convert_to_the_same_format_is_byte_identical(tiny_in, tmp_path):
    for name, path in tiny_in.items():
        out = tmp_path / f"same.{name}"
        ok("convert", path, "-f", name, "-o", out)
        assert out.read_bytes() == path.read_bytes(), name


def test_convert_carries_a_format_option_only_to_formats_that_have_it(tmp_path, register):
    """A u64 dawg converted to dawg stays u64; through a format without a layout option the
    layout is lost (that format never knew it), so the dawg made from it has the default
    layout and equals the directly built default dawg, not the u64 one."""
    from lexc.lexicons.edit import convert_file

    register(Flat)
    u64, default = tmp_path / "u64.dawg", tmp_path / "default.dawg"
    ok("build", TINY, "-o", u64, "--layout", "u64")
    ok("build", TINY, "-o", default)
    ok("convert", u64, "-f", "dawg", "-o", tmp_path / "same.dawg")
    assert (tmp_path / "same.dawg").read_bytes() == u64.read_bytes()
    convert_file(u64, "flat-test", tmp_path / "mid.flat")
    assert "layout" not in formats.load(tmp_path / "mid.flat").build_options
    ok("convert", tmp_path / "mid.flat", "-f", "dawg", "-o", tmp_path / "back.dawg")
    assert (tmp_path / "back.dawg").read_bytes() == default.read_bytes() != u64.read_bytes()


@pytest.mark.parametrize("target", FORMAT_NAMES)
def test_convert_carries_the_word_list_options(tmp_path, target):
    src = write(tmp_path / "w.txt", "at\ncat\nd$g\ndog\ncats\nscats\n")
    built = tmp_path / "w.dawg"
    ok("build", src, "-o", built, "--min-len", "3", "--max-len", "4", "--skip-invalid")
    out = tmp_path / f"w2.{target}"
    ok("convert", built, "-f", target, "-o", out)
    options = json.loads(ok("info", out, "--json").stdout)["options"]
    assert (options["min_len"], options["max_len"], options["skip_invalid"]) == (3, 4, True)
    assert list(formats.load(out)) == ["CAT", "CATS", "DOG"]
    assert_verifies(out, src)


@pytest.mark.parametrize("target", FORMAT_NAMES)
def test_convert_spanish_keeps_the_alphabet_and_ruleset(tmp_path, target):
    built, out = tmp_path / "es.dawg", tmp_path / f"es.{target}"
    ok("build", SPANISH, "-r", "spanish", "-o", built)
    ok("convert", built, "-f", target, "-o", out)
    lex = formats.load(out)
    assert lex.ruleset == "spanish" and lex.alphabet.labels == formats.load(built).alphabet.labels
    assert "CHURRO" in lex and "NIÑO" in lex
    assert_verifies(out, SPANISH)


def test_convert_json_report(tiny_in, tmp_path):
    out = tmp_path / "x.dawg"
    report = json.loads(ok("convert", tiny_in["dawg"], "-f", "dawg", "-o", out, "--json").stdout)
    stats = formats.load(out).stats()
    assert report["output"] == str(out) and report["format"] == "dawg"
    assert report["source"] == str(tiny_in["dawg"]) and report["source_format"] == "dawg"
    assert report["words"] == len(TINY_WORDS) and report["wordlist_sha256"] == tiny_sha256()
    assert (report["nodes"], report["edges"], report["bytes"]) == (stats["nodes"], stats["edges"], stats["bytes"])
    assert report["file_bytes"] == out.stat().st_size
    assert report["ruleset"] == "english" and report["seconds"] >= 0


def test_convert_text_report(tiny_in, tmp_path):
    out = tmp_path / "x.dawg"
    [line] = ok("convert", tiny_in["dawg"], "-f", "dawg", "-o", out).stdout.splitlines()
    assert line.startswith(f"{out}: dawg from {tiny_in['dawg']} (dawg), {len(TINY_WORDS)} words")
    assert re.search(rf"bytes {out.stat().st_size:,}\b", line)


def test_convert_default_output_name(tiny_in, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ok("convert", tiny_in["dawg"], "-f", "dawg")
    assert list(formats.load(tmp_path / "tiny.dawg")) == TINY_WORDS


def test_convert_a_plain_word_list_says_to_use_build(tmp_path, capsys):
    code, out, err = run_main(capsys, "convert", TINY, "-f", "dawg", "-o", tmp_path / "x.dawg")
    assert code == 2 and out == ""
    assert_one_error_line(err, str(TINY), "lexc build")
    assert list(tmp_path.iterdir()) == []


def test_convert_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run_main(capsys, "convert", tmp_path / "absent.dawg", "-f", "dawg")
    assert code == 2
    assert_one_error_line(err, str(tmp_path / "absent.dawg"))


def test_convert_unknown_format_exits_2(tiny_in, capsys):
    code, _, err = run_main(capsys, "convert", tiny_in["dawg"], "-f", "nosuchformat")
    assert code == 2
    assert_one_error_line(err, "nosuchformat")
    code, _, err = run_main(capsys, "convert", tiny_in["dawg"])
    assert code == 2
    assert_one_error_line(err, "--format")


def test_convert_corrupt_file_exits_2(tiny_in, tmp_path, capsys):
    bad = tmp_path / "bad.dawg"
    blob = bytearray(tiny_in["dawg"].read_bytes())
    blob[-5] ^= 0x01
    bad.write_bytes(bytes(blob))
    code, _, err = run_main(capsys, "convert", bad, "-f", "dawg", "-o", tmp_path / "out.dawg")
    assert code == 2
    assert_one_error_line(err, str(bad))
    assert not (tmp_path / "out.dawg").exists()


def test_convert_refuses_a_source_whose_words_do_not_match_its_sha256(tmp_path, capsys):
    from lexc.lexicons.source import compile_list

    _, lex = compile_list(TINY)
    lex.wordlist_sha256 = "0" * 64
    src = tmp_path / "lying.dawg"
    formats.save(lex, src)
    code, _, err = run_main(capsys, "convert", src, "-f", "dawg", "-o", tmp_path / "out.dawg")
    assert code == 2
    assert_one_error_line(err, str(src), "SHA-256")
    assert not (tmp_path / "out.dawg").exists()


def test_convert_refuses_a_target_that_loses_words(tiny_in, tmp_path, register):
    from lexc.lexicons.edit import convert_file

    register(Lossy)
    with pytest.raises(FormatError, match=r"lossy-test.*nothing written"):
        convert_file(tiny_in["dawg"], "lossy-test", tmp_path / "out.lossy")
    assert list(tmp_path.iterdir()) == []


def test_convert_help_has_an_example():
    text = ok("convert", "--help").stdout
    assert "Example: lexc convert" in text and "--format" in text


# --- info, verify, dump ----------------------------------------------------------------------

def test_info_json(tiny_dawg):
    data = json.loads(ok("info", tiny_dawg, "--json").stdout)
    for key in ("format", "words", "nodes", "edges", "bytes"):
        assert key in data, key
    assert data["format"] == "dawg"
    assert data["words"] == len(TINY_WORDS)
    assert data["bytes"] == tiny_dawg.stat().st_size
    stats = formats.load(tiny_dawg).stats()
    assert (data["nodes"], data["edges"]) == (stats["nodes"], stats["edges"])


def test_info_text(tiny_dawg):
    text = ok("info", tiny_dawg).stdout
    assert re.search(rf"words: {len(TINY_WORDS)}\b", text)
    assert re.search(rf"bytes: {tiny_dawg.stat().st_size}\b", text)
    assert "dawg" in text


def test_verify_good_file(tiny_dawg, capsys):
    result = ok("verify", tiny_dawg)
    assert "OK" in result.stdout
    code, _out, err = run_main(capsys, "verify", tiny_dawg, "--against", TINY)
    assert code == 0 and err == ""
    data = json.loads(ok("verify", tiny_dawg, "--json").stdout)
    assert data["ok"] is True and data["words"] == len(TINY_WORDS) and data["problems"] == []


def test_verify_against_a_different_list_exits_1(tiny_dawg, tmp_path, capsys):
    other = write(tmp_path / "other.txt", "\n".join([*TINY_WORDS[1:], "ZYMURGY"]) + "\n")
    code, out, err = run_main(capsys, "verify", tiny_dawg, "--against", other, "--json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False
    assert data["only_in_file"] == [TINY_WORDS[0]]
    assert data["only_in_list"] == ["ZYMURGY"]
    assert "Traceback" not in err


def test_verify_against_the_list_it_was_built_from_with_skip_invalid(tmp_path, capsys):
    """A file built with --skip-invalid verifies against its own source list (the build
    options recorded in the file, as min/max length are, must be used to read --against)."""
    src = write(tmp_path / "w.txt", "cat\nd$g\ndog\n")
    out = tmp_path / "w.dawg"
    ok("build", src, "-o", out, "--skip-invalid")
    code, _stdout, err = run_main(capsys, "verify", out, "--against", src)
    assert (code, err) == (0, ""), err


def test_verify_against_uses_recorded_min_len(tmp_path, capsys):
    src = write(tmp_path / "w.txt", "at\ncat\ndog\n")
    out = tmp_path / "w.dawg"
    ok("build", src, "-o", out, "--min-len", "3")
    code, _, err = run_main(capsys, "verify", out, "--against", src)
    assert (code, err) == (0, "")


def test_verify_finds_a_corrupt_file_exit_1(tiny_dawg, tmp_path, capsys):
    """Finding damage is verify's job: a finding, exit 1, the reason on stdout in one line
    (every other command refuses the same file with exit 2)."""
    bad = tmp_path / "bad.dawg"
    blob = bytearray(tiny_dawg.read_bytes())
    blob[-5] ^= 0x01  # in the payload
    bad.write_bytes(bytes(blob))
    code, out, err = run_main(capsys, "verify", bad)
    assert code == 1 and err == ""
    assert out.startswith("FAILED: ") and str(bad) in out and len(out.splitlines()) == 1
    code, _, err = run_main(capsys, "info", bad)
    assert code == 2
    assert_one_error_line(err, str(bad))
    truncated = tmp_path / "short.dawg"
    truncated.write_bytes(tiny_dawg.read_bytes()[:100])
    done = run_process("verify", truncated)
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout.startswith("FAILED: ") and "truncated" in done.stdout


def test_dump_shows_edge_rows(tiny_dawg):
    lex = formats.load(tiny_dawg)
    n_edges = lex.stats()["edges"] + 1  # with the root pointer
    rows = json.loads(ok("dump", tiny_dawg, "--json").stdout)
    assert len(rows) == n_edges
    assert [r["index"] for r in rows] == list(range(n_edges))
    assert rows[0]["note"] == "root pointer"
    assert {r["letter"] for r in rows[1:]} <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert sum(1 for r in rows if r["terminal"]) >= 1
    assert all(0 <= r["child"] < n_edges for r in rows)
    text = ok("dump", tiny_dawg).stdout.splitlines()
    assert "letter" in text[0]
    assert len(text) == n_edges + 1
    assert "root pointer" in text[1]
    assert len(ok("dump", tiny_dawg, "-n", "3").stdout.splitlines()) == 4


# --- queries ---------------------------------------------------------------------------------

def test_check_valid_words_exit_0(tiny_dawg, capsys):
    result = ok("check", tiny_dawg, "cat", "CARES", "Xu")
    assert result.stdout.splitlines() == ["CAT: valid", "CARES: valid", "XU: valid"]
    code, _, err = run_main(capsys, "check", tiny_dawg, "CAT", "ACRE")
    assert (code, err) == (0, "")


def test_check_invalid_word_exit_1(tiny_dawg, capsys):
    code, out, err = run_main(capsys, "check", tiny_dawg, "CAT", "CATX", "--json")
    assert code == 1 and err == ""
    assert json.loads(out) == [{"word": "CAT", "valid": True}, {"word": "CATX", "valid": False}]
    code, _, _ = run_main(capsys, "check", tiny_dawg, "ZZZ")
    assert code == 1


@pytest.mark.parametrize("word", ["C4T", "CA T", "É"])
def test_check_word_outside_the_alphabet_is_bad_input(tiny_dawg, capsys, word):
    """Not a word of the alphabet: bad input, named in one line (as hooks and anagram say
    it), never a negative answer (issue 35)."""
    code, out, err = run_main(capsys, "check", tiny_dawg, word, "CAT", "--json")
    assert (code, out) == (2, "")
    assert_one_error_line(err, f"{word}: not a word of the english alphabet", "is no tile of it")


def test_check_exit_codes_in_a_subprocess(tiny_dawg):
    assert run_process("check", tiny_dawg, "CAT", "DOG").returncode == 1
    done = run_process("check", tiny_dawg, "CAT", "SCAT")
    assert done.returncode == 0 and done.stderr == ""


def test_words_prefix(tiny_dawg):
    expected = [w for w in TINY_WORDS if w.startswith("CA")]
    assert ok("words", tiny_dawg, "--prefix", "ca").stdout.splitlines() == expected
    assert json.loads(ok("words", tiny_dawg, "--prefix", "CA", "--json").stdout) == expected
    assert json.loads(ok("words", tiny_dawg, "--json").stdout) == TINY_WORDS


@pytest.mark.parametrize("pattern, regex", [
    ("?A?", r"[A-Z]A[A-Z]"),
    ("*S", r"[A-Z]*S"),
    ("C*", r"C[A-Z]*"),
    ("[RC]A*", r"[RC]A[A-Z]*"),
    ("[^AE]?", r"[B-DF-Z][A-Z]"),
    ("T??IN*", r"T[A-Z][A-Z]IN[A-Z]*"),
])
def test_words_pattern(tiny_dawg, pattern, regex):
    expected = [w for w in TINY_WORDS if re.fullmatch(regex, w)]
    assert expected
    assert json.loads(ok("words", tiny_dawg, "--pattern", pattern, "--json").stdout) == expected


def test_words_with_no_match_exit_1(tiny_dawg, capsys):
    code, out, _ = run_main(capsys, "words", tiny_dawg, "--prefix", "QQ", "--json")
    assert code == 1 and json.loads(out) == []
    code, _, _ = run_main(capsys, "words", tiny_dawg, "--pattern", "Z????????")
    assert code == 1


def test_words_bad_pattern_exit_2(tiny_dawg, capsys):
    code, _, err = run_main(capsys, "words", tiny_dawg, "--pattern", "[AB")
    assert code == 2
    assert_one_error_line(err)


def brute_anagrams(rack: str, sub: bool = False) -> set[str]:
    """Words of tiny.txt makeable from the rack ('?' blanks), as upper-case text."""
    have = Counter(rack.upper().replace("?", ""))
    blanks = rack.count("?")
    found = set()
    for w in TINY_WORDS:
        if not sub and len(w) != len(rack):
            continue
        missing = sum((Counter(w) - have).values())
        if missing <= blanks and len(w) <= len(rack):
            found.add(w)
    return found


@pytest.mark.parametrize("rack", ["RETAINS", "CATS", "TEA", "ACRES"])
def test_anagram_json(tiny_dawg, rack):
    found = json.loads(ok("anagram", tiny_dawg, rack, "--json").stdout)
    assert isinstance(found, list) and all(isinstance(w, str) for w in found)
    assert sorted(found) == sorted(brute_anagrams(rack))
    assert len(found) == len(set(found))


def test_anagram_sub(tiny_dawg):
    found = json.loads(ok("anagram", tiny_dawg, "CATS", "--sub", "--json").stdout)
    assert set(found) == brute_anagrams("CATS", sub=True)
    assert {"AT", "ACT", "CAT", "SCAT", "ACTS"} <= set(found)
    lengths = [len(w) for w in found]
    assert lengths == sorted(lengths, reverse=True)  # longest first


def test_anagram_blank_gives_lowercase_letters(tiny_dawg):
    found = json.loads(ok("anagram", tiny_dawg, "CA?", "--json").stdout)
    assert {w.upper() for w in found} == brute_anagrams("CA?")
    for w in found:
        lower = [ch for ch in w if ch.islower()]
        assert len(lower) == 1, w
        assert Counter(w.upper()) - Counter(lower[0].upper()) == Counter("CA"), w
    assert "CAt" in found


def test_anagram_sub_with_blanks(tiny_dawg):
    found = json.loads(ok("anagram", tiny_dawg, "Q??", "--sub", "--json").stdout)
    assert {w.upper() for w in found} == brute_anagrams("Q??", sub=True)
    assert all(sum(ch.islower() for ch in w) <= 2 for w in found)


def test_anagram_none_exit_1(tiny_dawg, capsys):
    code, out, err = run_main(capsys, "anagram", tiny_dawg, "QQQ", "--json")
    assert code == 1 and json.loads(out) == [] and err == "lexc: no words\n"


def test_anagram_bad_rack_exit_2(tiny_dawg, capsys):
    code, _, err = run_main(capsys, "anagram", tiny_dawg, "C$T")
    assert code == 2
    assert_one_error_line(err, "$")


def test_hooks_json(tiny_dawg):
    data = json.loads(ok("hooks", tiny_dawg, "CAT", "ACRE", "CAR", "--json").stdout)
    assert isinstance(data, list) and len(data) == 3
    for item, word in zip(data, ["CAT", "ACRE", "CAR"], strict=True):
        assert set(item) >= {"word", "valid", "front", "back"}
        assert item["word"] == word
        assert item["valid"] is (word in TINY_SET)
        assert isinstance(item["front"], str) and isinstance(item["back"], str)
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        assert item["front"] == "".join(letter for letter in letters if letter + word in TINY_SET)
        assert item["back"] == "".join(letter for letter in letters if word + letter in TINY_SET)
    assert data[0]["front"] == "S" and data[0]["back"] == "S"


def test_hooks_text(tiny_dawg):
    lines = ok("hooks", tiny_dawg, "ETA", "CAR").stdout.splitlines()
    assert len(lines) == 2
    assert "ETA" in lines[0] and "S" in lines[0]
    assert "CAR" in lines[1] and "not a word" in lines[1]


def test_formats_lists_dawg():
    assert "dawg" in ok("formats").stdout
    data = json.loads(ok("formats", "--json").stdout)
    assert "dawg" in [d["name"] for d in data]


def test_rulesets_lists_the_bundled_ones():
    text = ok("rulesets").stdout
    bundled = {"english", "wwf", "spanish", "tiny", "catalan", "polish", "norwegian", "swedish"}
    for name in bundled:
        assert re.search(rf"^{name}\b", text, re.M), name
    data = json.loads(ok("rulesets", "--json").stdout)
    assert {d["name"] for d in data} == bundled
    sizes = {d["name"]: d["board_size"] for d in data}
    assert sizes["tiny"] == 7 and sizes["english"] == 15


# --- a plain word list as FILE ---------------------------------------------------------------

def test_plain_word_list_is_compiled_in_memory(tmp_path, capsys):
    before = sorted(p.name for p in TINY.parent.iterdir())
    assert json.loads(ok("anagram", TINY, "TEA", "--json").stdout) == sorted(brute_anagrams("TEA"))
    code, _, _ = run_main(capsys, "check", TINY, "CAT", "SCAT")
    assert code == 0
    code, _, _ = run_main(capsys, "check", TINY, "CATTY")
    assert code == 1
    assert json.loads(ok("words", TINY, "--prefix", "RE", "--json").stdout) == \
        [w for w in TINY_WORDS if w.startswith("RE")]
    assert sorted(p.name for p in TINY.parent.iterdir()) == before  # nothing written
    info = json.loads(ok("info", TINY, "--json").stdout)
    assert info["words"] == len(TINY_WORDS)


def test_plain_spanish_word_list_with_ruleset():
    found = json.loads(ok("anagram", SPANISH, "ORRAC", "-r", "spanish", "--json").stdout)
    assert found == ["CARRO"]
    data = json.loads(ok("check", SPANISH, "churro", "niño", "-r", "spanish", "--json").stdout)
    assert [d["valid"] for d in data] == [True, True]


def test_missing_file_exits_2(tmp_path, capsys):
    absent = tmp_path / "absent.dawg"
    for args in (["check", absent, "CAT"], ["info", absent], ["verify", absent], ["dump", absent],
                 ["anagram", absent, "CAT"]):
        code, _, err = run_main(capsys, *args)
        assert code == 2, args
        assert_one_error_line(err, str(absent))


def test_directory_as_file_exits_2(tmp_path, capsys):
    code, _, err = run_main(capsys, "info", tmp_path)
    assert code == 2
    assert_one_error_line(err)


def test_unknown_ruleset_exits_2(capsys):
    code, _, err = run_main(capsys, "check", TINY, "CAT", "-r", "klingon")
    assert code == 2
    assert_one_error_line(err, "klingon")


def test_output_into_a_missing_directory_exits_2(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", TINY, "-o", tmp_path / "no" / "such" / "dir.dawg")
    assert code == 2
    assert_one_error_line(err)


# --- the bundled ENABLE list -----------------------------------------------------------------

def test_no_file_uses_bundled_enable(enable_retains, first_cache):
    before, result, after = enable_retains
    assert before == []
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert len(found) == 9
    for word in ("RETINAS", "STAINER", "NASTIER", "RETSINA", "ANESTRI"):
        assert word in found
    assert all(sorted(w) == sorted("RETAINS") for w in found)
    assert len(after) == 1 and after[0].endswith(".lexc")
    assert formats.load(first_cache / after[0]).word_count == 172820


def test_bundled_enable_from_the_cache(enable_retains, first_cache, capsys, monkeypatch):
    monkeypatch.setenv("LEXC_CACHE", str(first_cache))
    cached = list(first_cache.iterdir())
    stamps = {p: p.stat().st_mtime_ns for p in cached}
    code, out, _err = run_main(capsys, "check", "QUIXOTIC", "CARE", "--json")
    assert code == 0
    assert [d["valid"] for d in json.loads(out)] == [True, True]
    code, _, _ = run_main(capsys, "check", "ZA")  # not in ENABLE
    assert code == 1
    assert {p: p.stat().st_mtime_ns for p in first_cache.iterdir()} == stamps  # reused, not rebuilt


def test_bundled_enable_in_a_subprocess(enable_retains, tmp_path):
    done = run_process("anagram", "RETAINS", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "STAINER" in done.stdout.split()
    assert "Traceback" not in done.stderr


# --- help and errors -------------------------------------------------------------------------

@pytest.mark.parametrize("command", sorted(cli.commands))
def test_help_for_every_command(command):
    result = ok(command, "--help")
    assert "Usage:" in result.stdout and command in result.stdout


def test_top_level_help_lists_commands():
    text = ok("--help").stdout
    for command in ("build", "convert", "info", "verify", "dump", "check", "words", "anagram", "hooks", "formats",
                    "rulesets"):
        assert command in text


def test_help_and_version_in_a_subprocess():
    done = run_process("--help")
    assert done.returncode == 0 and "build" in done.stdout
    done = run_process("--version")
    assert done.returncode == 0 and lexc.__version__ in done.stdout


def test_usage_error_exits_2_without_traceback(capsys):
    code, _, err = run_main(capsys, "build", "--no-such-option")
    assert code == 2
    assert "Traceback" not in err and "no-such-option" in err
    code, _, err = run_main(capsys, "no-such-command")
    assert code == 2 and "Traceback" not in err


def test_errors_never_print_a_traceback(tmp_path, tiny_dawg):
    garbage = tmp_path / "garbage.lexc"
    garbage.write_bytes(b"\x89LXC\r\n\x1a\n" + b"\xff" * 40)
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café\n".encode("latin-1"))
    done = run_process("verify", garbage)  # a finding: exit 1, the reason in one line on stdout
    assert done.returncode == 1 and done.stderr == "" and "Traceback" not in done.stdout
    assert done.stdout.startswith("FAILED: ") and len(done.stdout.splitlines()) == 1
    cases = [
        ["info", garbage],
        ["build", latin1, "-o", tmp_path / "l.dawg"],
        ["words", tiny_dawg, "--pattern", "]"],
        ["hooks", tiny_dawg, "C@T"],
    ]
    for args in cases:
        done = run_process(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert_one_error_line(done.stderr)


# --- review fixes ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(formats.FORMATS))
def test_a_missing_file_with_a_format_extension_is_named(name, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lexc", "check", f"missing.{name}", "CAT"], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": LEXC_PARENT})
    assert proc.returncode == 2 and proc.stderr.strip() == f"lexc: error: missing.{name}: no such file"


def test_all_formats_check_options_before_writing(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lexc", "build", str(TINY), "-f", "all", "--order", "XYZ",
                           "-o", str(tmp_path / "out")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": LEXC_PARENT})
    assert proc.returncode == 2 and "order 'XYZ'" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_writing_through_a_symlink_keeps_the_link(tmp_path):
    target, link = tmp_path / "real.dawg", tmp_path / "link.dawg"
    link.symlink_to(target.name)
    formats.save(formats.build(lexc.read_wordlist(TINY, lexc.load_ruleset("english").alphabet), "dawg"), link)
    assert link.is_symlink() and target.is_file() and formats.load(link).word_count == len(TINY_WORDS)


def test_a_missing_output_directory_is_named(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lexc", "build", str(TINY), "-o", str(tmp_path / "no" / "x.dawg")],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": LEXC_PARENT})
    assert proc.returncode == 2 and proc.stderr.strip() == f"lexc: error: {tmp_path / 'no'}: no such directory"


def test_verify_reports_a_crafted_file_without_a_traceback(tmp_path):
    """A file whose checksums hold but whose edges point outside the array: the loader's
    structure check refuses it, so verify reports it in one line: a finding, exit 1."""
    from lexc.formats import container

    lex = formats.build(lexc.read_wordlist(TINY, lexc.load_ruleset("english").alphabet), "dawg")
    data = bytearray(formats.dumps(lex))
    header, payload = container.unpack(bytes(data))
    edges = bytearray(payload)
    edges[4:7] = b"\xff\xff\x3f"  # the first node's first edge: child index far outside the array
    path = tmp_path / "crafted.dawg"
    path.write_bytes(container.pack({k: v for k, v in header.items() if k not in ("payload_bytes", "payload_sha256")},
                                    bytes(edges)))
    proc = subprocess.run([sys.executable, "-m", "lexc", "verify", str(path)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": LEXC_PARENT})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout and proc.stderr == ""
    assert len(proc.stdout.strip().splitlines()) == 1 and "child index" in proc.stdout


def test_words_prefix_with_a_pattern_compares_tiles(tmp_path):
    spanish = tmp_path / "es.txt"
    spanish.write_text("CHICO\nCASA\nCOSA\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["words", str(spanish), "-r", "spanish", "--prefix", "C", "--pattern", "*",
                                      "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == ["CASA", "COSA"]
    alone = CliRunner().invoke(cli, ["words", str(spanish), "-r", "spanish", "--prefix", "C", "--json"])
    assert json.loads(alone.output) == ["CASA", "COSA"]


def test_a_negative_limit_is_refused():
    result = CliRunner().invoke(cli, ["words", str(TINY), "-n", "-1"])
    assert result.exit_code == 2


# --- moves and judge ---------------------------------------------------------------------------

EMPTY_CGP = "/".join(["15"] * 15)


def test_moves_on_the_empty_board(tiny_dawg):
    data = json.loads(ok("moves", tiny_dawg, "--cgp", f"{EMPTY_CGP} CARETS?/ 0/0 0", "--json").output)
    assert data == sorted(data, key=lambda m: (-m["score"], m["move"]))
    # every tiny word makeable from CARETS? appears, across and down, through H8
    makeable = {w for w in TINY_SET if sum((Counter(w) - Counter("CARETS")).values()) <= 1 and len(w) > 1}
    played = {re.sub(r"[^A-Za-z]", "", m["move"].split()[1]).upper() for m in data}
    assert played == makeable
    assert any(m["move"].startswith("H") for m in data) and any(m["move"].startswith("8") for m in data)
    top = json.loads(ok("moves", tiny_dawg, "--cgp", f"{EMPTY_CGP} CARETS?/ 0/0 0", "--json", "-n", "2").output)
    assert top == data[:2]


def test_moves_board_file_and_batch(tiny_dawg, tmp_path):
    picture = tmp_path / "board.txt"
    picture.write_text("\n".join("." * 15 if r != 7 else "......CAT......" for r in range(15)) + "\n")
    text = ok("moves", tiny_dawg, "--board", picture, "--rack", "S").output
    assert "8G (CAT)S" in text
    batch = tmp_path / "positions.jsonl"
    batch.write_text(json.dumps({"cgp": f"{EMPTY_CGP} AT/ 0/0 0"}) + "\n\n"
                     + json.dumps({"cgp": "/".join(["15"] * 7 + ["6CAT6"] + ["15"] * 7), "rack": "S"}) + "\n")
    lines = [json.loads(line) for line in ok("moves", tiny_dawg, "--batch", batch).output.splitlines()]
    from_at = [w for w in TINY_SET if sorted(w) in (["A", "T"],)]  # each: both ways, each square on H8
    assert len(lines) == 2 and lines[0]["count"] == len(lines[0]["moves"]) == sum(2 * len(w) for w in from_at) > 0
    assert {"move": "8G (CAT)S", "score": 6} in lines[1]["moves"]


def test_judge(tiny_dawg, capsys):
    cgp = f"{EMPTY_CGP} CARETS?/ 0/0 0"
    data = json.loads(ok("judge", tiny_dawg, "--cgp", cgp, "H4 CARES", "--json").output)
    assert data["legal"] and data["words"] == [{"word": "CARES", "valid": True}] and data["leave"] == "T?"
    code, out, err = run_main(capsys, "judge", tiny_dawg, "--cgp", cgp, "8A CARETS")
    assert code == 1 and "start square" in out and err == ""
    code, out, _ = run_main(capsys, "judge", tiny_dawg, "--cgp", cgp, "8H CARTS")
    assert code == 1 and "invalid word: CARTS" in out


def crowded_cgp(count: int, opponent: int) -> tuple[str, str]:
    """A CGP whose board holds the first ``count`` tiles of the English bag (not a legal
    position: only a bag count), the player to move holding the next 7 tiles and the
    opponent the ``opponent`` after those; and the rack to move."""
    from lexc.alphabet import BLANK_FLAG
    from lexc.board.board import Board, Position
    from lexc.ruleset import load_ruleset

    rules = load_ruleset("english")
    codes, alphabet = rules.bag_tiles(), rules.alphabet
    e = alphabet.code("E")
    board = Board.empty(rules).with_tiles([(i // 15, i % 15, c or (e | BLANK_FLAG))
                                           for i, c in enumerate(codes[:count])])
    rack = alphabet.rack_text(codes[count:count + 7], 0)
    other = alphabet.rack_text(codes[count + 7:count + 7 + opponent], 0)
    return Position(board, (rack, other)).cgp(), rack


def test_judge_lexicon_is_optional(tiny_dawg, capsys):
    cgp = f"{EMPTY_CGP} AEINRST/ 0/0 0"
    for args in (["8D RETAINS", "--cgp", cgp], ["--cgp", cgp, "8D RETAINS"], ["--cgp", cgp, "--json", "8D RETAINS"]):
        result = ok("judge", *args)  # the bundled ENABLE
        assert "RETAINS" in result.stdout and "66" in result.stdout
    code, out, err = run_main(capsys, "judge", "--cgp", cgp, "8D RETAINS")
    assert code == 0 and out == "legal: 8D RETAINS scores 66 (RETAINS); leave -\n" and err == ""
    # a lexicon file first still works, and the file decides: RETAINS is not in tiny.txt
    code, out, _ = run_main(capsys, "judge", tiny_dawg, "8D RETAINS", "--cgp", cgp)
    assert ("RETAINS" in TINY_SET) == (code == 0)
    code, out, _ = run_main(capsys, "judge", tiny_dawg, "--cgp", f"{EMPTY_CGP} CARETS?/ 0/0 0", "H4 CARES")
    assert code == 0 and out.startswith("legal: H4 CARES")
    code, _, err = run_main(capsys, "judge", "nope/missing.dawg", "8D RETAINS", "--cgp", cgp)
    assert code == 2 and assert_one_error_line(err, "missing.dawg")


def test_judge_strict_notation(capsys):
    cgp = "15/15/15/15/15/15/15/5ION7/15/15/15/15/15/15/15 AIINOTZ/ 0/0 0 lex ENABLE;"
    code, out, err = run_main(capsys, "judge", "--cgp", cgp, "8I IZATION")
    assert code == 1 and err == ""
    assert out == "illegal: 8I IZATION: the word starts at 8F, not 8I: write 8F (ION)IZATION\n"
    for notation in ("8F (ION)IZATION", "8F IONIZATION", "8F ...IZATION"):
        code, out, _ = run_main(capsys, "judge", "--cgp", cgp, notation)
        assert code == 0 and out.startswith("legal: 8F (ION)IZATION scores "), notation
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "--rack", "AOW", "H9 OW")
    assert code == 1 and "the word starts at H8, not H9: write H8 (N)OW" in out


def test_judge_empty_rack_is_a_ruling(capsys):
    cgp = f"{EMPTY_CGP} AEINRST/ 0/0 0"
    code, out, err = run_main(capsys, "judge", "--cgp", cgp, "--rack", "", "8D RETAINS")
    assert code == 1 and err == "" and out.startswith("illegal: tile not on the rack: R (the rack is empty)")
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "--rack", "", "-")
    assert code == 0 and out == "legal: - (a pass) scores 0; leave -\n"
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "--rack", "", "-A")
    assert code == 1 and "not on the rack" in out
    # an empty rack field in the CGP is an empty rack, as MAGPIE reads it (issue 35): only a pass
    code, out, err = run_main(capsys, "judge", "--cgp", f"{EMPTY_CGP} /AEINRST 0/0 0", "-")
    assert code == 0 and err == "" and out == "legal: - (a pass) scores 0; leave -\n"
    code, out, err = run_main(capsys, "judge", "--cgp", f"{EMPTY_CGP} /AEINRST 0/0 0", "8D RETAINS")
    assert code == 1 and err == "" and out.startswith("illegal: tile not on the rack: R (the rack is empty)")
    # no --rack and no rack field in the CGP at all: a usage error
    code, _, err = run_main(capsys, "judge", "--cgp", EMPTY_CGP, "8D RETAINS")
    assert code == 2 and assert_one_error_line(err, "no rack")


def test_judge_exchange_and_pass(capsys):
    cgp = f"{EMPTY_CGP} AEINRST/ 0/0 0"
    code, out, err = run_main(capsys, "judge", "--cgp", cgp, "-AEI")
    assert code == 0 and err == "" and out == "legal: -AEI exchanges 3 tiles, scores 0; leave NRST\n"
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "--", "-tsr")  # '--' before a lower-case exchange
    assert code == 0 and out.startswith("legal: -RST exchanges 3 tiles")
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "-Q")
    assert code == 1 and out == "illegal: tile not on the rack: Q (rack AEINRST)\n"
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "-")
    assert code == 0 and out == "legal: - (a pass) scores 0; leave AEINRST\n"
    data = json.loads(ok("judge", "--cgp", cgp, "-AEI", "--json").stdout)
    play = json.loads(ok("judge", "--cgp", cgp, "8D RETAINS", "--json").stdout)
    assert data.keys() == play.keys()
    assert data == {"legal": True, "reason": None, "play": "-AEI", "words": [], "invalid_words": [], "score": 0,
                    "tiles_played": 3, "leave": "NRST"}
    data = json.loads(invoke("judge", "--cgp", cgp, "-", "--json").stdout)
    assert data["legal"] and data["score"] == 0 and data["tiles_played"] == 0 and data["leave"] == "AEINRST"


def test_judge_exchange_needs_seven_tiles_in_the_bag(capsys):
    # 80 tiles on the board, 7 on the rack, 6 on the opponent's: 7 in the bag
    cgp, rack = crowded_cgp(80, 6)
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, f"-{rack[:3]}")
    assert code == 0 and out.startswith("legal: -"), out
    # the opponent's rack not in the CGP: a full rack is assumed, so the bag holds 6
    cgp, rack = crowded_cgp(80, 0)
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, f"-{rack[:3]}")
    assert code == 1 and out == "illegal: no exchange with 6 tiles in the bag (it takes at least 7)\n"
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, "-")  # a pass is always legal
    assert code == 0
    cgp, rack = crowded_cgp(81, 7)
    code, out, _ = run_main(capsys, "judge", "--cgp", cgp, f"-{rack[:1]}", "--json")
    data = json.loads(out)
    assert code == 1 and not data["legal"] and "5 tiles in the bag" in data["reason"] and data["score"] is None


def test_judge_warns_when_the_cgp_names_another_lexicon(tiny_dawg, capsys):
    base = f"{EMPTY_CGP} AEINRST/ 0/0 0"
    code, out, err = run_main(capsys, "judge", "--cgp", f"{base} lex CSW21;", "8D RETAINS")
    assert code == 0 and out.startswith("legal: 8D RETAINS")
    assert err == "lexc judge: warning: the position names lexicon CSW21; judging with ENABLE\n"
    for named in ("ENABLE", "enable", "Enable"):  # case-insensitive; the bundled list is ENABLE
        code, _, err = run_main(capsys, "judge", "--cgp", f"{base} lex {named};", "8D RETAINS")
        assert code == 0 and err == "", named
    code, _, err = run_main(capsys, "judge", tiny_dawg, "--cgp", f"{base} lex ENABLE;", "8D RETAINS")
    assert err == "lexc judge: warning: the position names lexicon ENABLE; judging with tiny\n"
    code, _, err = run_main(capsys, "judge", tiny_dawg, "--cgp", f"{base} lex TINY;", "8D RETAINS")
    assert err == ""


@pytest.mark.parametrize("args, fragment", [
    (["moves", "--cgp", "15/15", "--rack", "AB"], "CGP board has 2 rows"),
    (["moves", "--cgp", EMPTY_CGP, "--rack", "AB1"], "not in the alphabet"),
    (["moves", "--cgp", EMPTY_CGP, "--rack", "ABCDEFGH"], "rack holds 7"),
    (["moves", "--cgp", EMPTY_CGP], "no rack"),
    (["moves", "--cgp", EMPTY_CGP, "--rack", "AB", "-r", "nope"], "nope"),
    (["moves", "--cgp", EMPTY_CGP, "--rack", "AB", "--strategy", "gordon-x"], "unknown strategy"),
    (["judge", "--cgp", EMPTY_CGP, "--rack", "AB", "HH AB"], "not a play"),
    (["judge", "--cgp", EMPTY_CGP, "--rack", "AB", "8H AB", "extra"], "expected [LEXFILE] PLAY"),
    (["judge", "--cgp", EMPTY_CGP, "--rack", "AB", "--jsn", "8H AB"], "No such option '--jsn'. Did you mean '--json'?"),
    (["judge", "--cgp", EMPTY_CGP, "--rack", "KOI", "-K.OI"], "exchange '-K.OI'"),
    (["judge", "--cgp", EMPTY_CGP, "--rack", "AB", "--", "--"], "not a move"),
])
def test_moves_and_judge_bad_input(tiny_dawg, capsys, args, fragment):
    command, *rest = args
    code, _, err = run_main(capsys, command, tiny_dawg, *rest)
    assert code == 2
    assert_one_error_line(err, fragment)


# --- replay ------------------------------------------------------------------------------------

GAMES = ROOT / "tests" / "games"


def test_replay(capsys, tiny_dawg):
    code, out, err = run_main(capsys, "replay", GAMES / "MAGPIE__standard.gcg", "-L", tiny_dawg, "--json")
    data = json.loads(out)
    assert code == 0 and err == "" and data["ok"] and data["mismatches"] == 0
    assert data["unknown_words"]  # the tiny list lacks the game's words: reported, not fatal
    code, out, _ = run_main(capsys, "replay", GAMES / "negative" / "MAGPIE__standard_cumulative_scoring_error.gcg",
                            "-L", tiny_dawg)
    assert code == 1 and "mismatch" in out
    code, _, err = run_main(capsys, "replay", GAMES / "negative" / "MAGPIE__duplicate_nicknames.gcg", "-L", tiny_dawg)
    assert code == 2
    assert_one_error_line(err, "nickname")


def test_every_subpackage_is_installed():
    """pyproject lists its packages by hand: a new subpackage must be added there, or the
    installed lexc (what `make test` runs) lacks it."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT / "src").parts) for p in (ROOT / "src" / "lexc").rglob("__init__.py")}
    assert found <= listed, found - listed


# --- selfplay and the move-generation bench ----------------------------------------------------

def test_selfplay_writes_games_that_replay_and_repeats_from_the_seed(tmp_path, capsys):
    out_a, out_b = tmp_path / "a", tmp_path / "b"
    code, out, err = run_main(capsys, "selfplay", TINY, "--games", "2", "--seed", "3", "-o", out_a,
                              "--positions", tmp_path / "a.jsonl", "--json")
    assert code == 0, err
    games = json.loads(out)
    assert [g["seed"] for g in games] == [3, 4] and all(g["replay_ok"] for g in games)
    for g in games:
        assert Path(g["gcg"]).is_file()
        code, replayed, _ = run_main(capsys, "replay", g["gcg"], "-L", TINY, "--json")
        report = json.loads(replayed)
        assert code == 0 and report["ok"] and report["final_computed"] == g["scores"]
    positions = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert positions and {p["game"] for p in positions} <= {3, 4} and all(p["cgp"] and p["rack"] for p in positions)
    code, _, _ = run_main(capsys, "selfplay", TINY, "--games", "2", "--seed", "3", "-o", out_b,
                          "--positions", tmp_path / "b.jsonl", "--strategy", "naive")
    assert code == 0
    for name in ("selfplay-3.gcg", "selfplay-4.gcg"):  # the same games whatever the strategy
        a, b = ((d / name).read_text().splitlines() for d in (out_a, out_b))
        assert [x for x in a if not x.startswith("#description")] == [x for x in b if not x.startswith("#description")]
        assert any("strategy naive" in x for x in b)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.mark.parametrize("args, fragment", [
    (["-r", "nope"], "nope"),
    (["--strategy", "gordon"], "does not apply"),
    (["--games", "0"], "--games"),
])
def test_selfplay_bad_input(tiny_dawg, capsys, args, fragment):
    code, _, err = run_main(capsys, "selfplay", tiny_dawg, *args)
    assert code == 2
    assert_one_error_line(err, fragment)


@pytest.mark.slow
def test_bench_movegen_on_a_small_set(tmp_path, capsys):
    positions = tmp_path / "p.jsonl"
    code, _, err = run_main(capsys, "selfplay", TINY, "--games", "1", "--seed", "1", "--positions", positions)
    assert code == 0, err
    code, out, err = run_main(capsys, "bench", TINY, "--positions", positions, "--repeat", "1", "--full",
                              "--formats", "dawg,gaddag,anatrie", "--no-papers", "--json")
    assert code == 0, err
    data = json.loads(out)
    count = len(positions.read_text().splitlines())
    assert data["agree"] == {"queries": True, "moves": True} and data["positions"]["count"] == count
    assert "papers" not in data
    expected = {"dawg": {"naive", "appel-jacobson"}, "gaddag": {"naive", "appel-jacobson", "gordon"},
                "anatrie": {"naive", "shapiro-smith"}}
    if native.available():  # each word graph's pure-path row, with the strategies the compiled core runs
        expected |= {"dawg (pure)": {"appel-jacobson"}, "gaddag (pure)": {"appel-jacobson", "gordon"},
                     "anatrie (pure)": {"shapiro-smith"}}
    movegen = {f: figures["movegen"] for f, figures in data["formats"].items() if "movegen" in figures}
    assert {f: set(s) for f, s in movegen.items()} == expected
    for strategies in movegen.values():
        for figures in strategies.values():
            assert figures["positions"] == count and figures["positions_per_s"]["median"] > 0
            assert figures["compact_positions_per_s"]["median"] > 0 and figures["json_positions_per_s"]["median"] > 0
            if figures["engine"] != "compiled core (C)":
                assert figures["search_share"] > 0 and all(v > 0 for v in figures["search_ms_per_position"].values())
                assert "command_positions_per_s" not in figures
            else:  # one C call a position: the search is not timed apart, its edges are counted
                assert figures["search_share"] is None and figures["search_edges_per_position"] > 0
                # and lexc moves --batch --json itself, end to end (a process a run)
                assert figures["command_positions_per_s"]["median"] > 0 and figures["command_start_s"] > 0
            assert figures["plays"] == movegen["dawg"]["appel-jacobson"]["plays"]
    code, _, err = run_main(capsys, "bench", TINY, "--movegen", "--formats", "nope")
    assert code == 2
    assert_one_error_line(err, "unknown format")


def test_bench_movegen_by_default_leaves_the_slow_passes_to_full(tmp_path, capsys):
    """A default run: no naive, the DAWG's pure-path row alone (its leading positions), lexc
    moves timed for the strategy auto picks, no JSON rate or search share for a Python search."""
    from lexc.bench.moves import bundled_positions
    from lexc.bench.plan import TWIN_POSITIONS
    from lexc.lexicons.source import read_list
    from lexc.movegen import choose

    positions = tmp_path / "p.jsonl"
    lines = bundled_positions().read_text(encoding="utf-8").splitlines(True)
    positions.write_text("".join(lines[: TWIN_POSITIONS + 2]), encoding="utf-8")
    code, out, err = run_main(capsys, "bench", TINY, "--positions", positions, "--repeat", "1",
                              "--formats", "dawg,gaddag,anatrie", "--no-papers", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["full"] is False and data["full_only"] and data["wall_s"] > 0
    assert [job["wall_s"] > 0 for job in data["jobs"]] == [True] * len(data["jobs"])
    movegen = {f: figures["movegen"] for f, figures in data["formats"].items() if "movegen" in figures}
    expected = {"dawg": {"appel-jacobson"}, "gaddag": {"appel-jacobson", "gordon"}, "anatrie": {"shapiro-smith"}}
    if native.available():
        expected["dawg (pure)"] = {"appel-jacobson"}
    assert {f: set(s) for f, s in movegen.items()} == expected
    for fmt, strategies in movegen.items():
        for figures in strategies.values():
            assert figures["of"] == TWIN_POSITIONS + 2
            assert figures["positions"] == (TWIN_POSITIONS if fmt.endswith("(pure)") else TWIN_POSITIONS + 2)
            core = figures["engine"] == "compiled core (C)"
            assert ("json_positions_per_s" in figures) == core and figures["search_share"] is None
        timed = [s for s, figures in strategies.items() if "command_positions_per_s" in figures]
        compiled = native.available() and not fmt.endswith("(pure)") and fmt != "anatrie"
        on_core = formats.build(read_list(TINY), fmt, backend=native.COMPILED) if compiled else None  # (as the bench)
        assert timed == ([choose(on_core, "auto").NAME] if compiled else []), fmt
    code, _, err = run_main(capsys, "bench", TINY, "--movegen", "--formats", "nope")
    assert code == 2
    assert_one_error_line(err, "unknown format")
