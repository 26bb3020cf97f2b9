"""The README runs as written: every console example (a ``$ lexc ...`` line in a ```console
block), in the README's order, from the repository's root after ``make demo`` (whose build is
one of the examples, so the examples are run on a fresh copy without it), exits 0 or 1
(never 2: bad input) and prints what the README shows under it.

The comparison: the README's lines must be the command's lines (stdout, then stderr, as a
terminal shows them), where a line ``...``, or a note in parentheses alone on its line
(``(the board again)``), stands for any number of lines, and a time in seconds
(``seconds 0.62``) for any time; an example with no output shown is only run. An interactive
example (``lexc play``) gets the lines typed after its prompts (``you> WORD``, ``[y/N] y``) as
its input. A few examples are not run, each for the reason in ``NOT_RUN`` (the test fails if
the README loses or gains one).
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import lexc
from lexc.cli import main
from test_cli import _cache_env, cache_dir  # noqa: F401 (the bundled ENABLE compiled once per session)

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
NOT_RUN = {
    "lexc bench --out build/demo/bench": "25 minutes on ENABLE (make bench runs it; test_bench runs the command)",
    "lexc bench wordlists/tiny.txt --formats dawg,gaddag --no-movegen --repeat 3 --json > build/demo/figures.json":
        "a bench's fresh processes take seconds even on a tiny list (test_bench runs the command)",
}
PROMPTS = ("you> ", "End the game here? [y/N] ")


@dataclass
class Example:
    """One ``$ `` line of the README, the lines shown under it and the lines typed into it."""

    line: int
    command: str
    shown: list[str] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)


def examples() -> list[Example]:
    """Every console example of the README, in order."""
    found: list[Example] = []
    inside = False
    for number, text in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if text.startswith("```"):
            inside = text.startswith("```console")
            continue
        if not inside:
            continue
        if text.startswith("$ "):
            found.append(Example(number, text[2:]))
        elif found:
            typed = next((text[len(p):] for p in PROMPTS if text.startswith(p)), None)
            if typed is not None:  # what the person types after a prompt is input, not output
                found[-1].typed.append(typed.strip() if text.startswith(PROMPTS[0]) else typed.strip()[-1:])
            else:
                found[-1].shown.append(text)
    return found


def normalized(line: str) -> str:
    """A line with its run time made any time."""
    return re.sub(r"seconds \d+\.\d+", "seconds N", line.rstrip())


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, ``...`` standing for any lines."""
    segments: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == "..." or re.fullmatch(r"\s*\([^()]*\)", line):  # ... or a note: (the board again)
            segments.append([])
        else:
            segments[-1].append(normalized(line))
    printed = [normalized(line) for line in printed]
    if len(segments) == 1:
        return printed == segments[0]
    first, *middle, last = segments
    position, end = len(first), len(printed) - len(last)
    if printed[:position] != first or end < position or printed[end:] != last:
        return False
    for segment in middle:  # each in order, between the first and the last
        found = next((k for k in range(position, end - len(segment) + 1)
                      if printed[k:k + len(segment)] == segment), None)
        if found is None:
            return False
        position = found + len(segment)
    return True


def test_the_matching_rule():
    assert matches(["a", "b"], ["a", "b"]) and not matches(["a", "b"], ["a", "b", "c"])
    assert matches(["a", "..."], ["a", "b", "c"]) and not matches(["b", "..."], ["a", "b"])
    assert matches(["...", "c"], ["a", "b", "c"]) and matches(["a", "...", "c"], ["a", "x", "c"])
    assert matches(["x: seconds 0.62"], ["x: seconds 12.01"]) and not matches(["a", "...", "c"], ["a", "c", "x"])
    assert matches(["a", "  (the board again)", "c"], ["a", "b", "b", "c"]) and not matches(["a"], ["a", "b"])


@pytest.mark.slow  # its -f all example builds ENABLE's GADDAG
def test_the_readme_examples_run_as_written(tmp_path, monkeypatch, capsys):
    scratch = tmp_path / "root"
    scratch.mkdir()
    for name in ("wordlists", "tests", "formats", "docs"):  # the repository's files, read only (not lexc/: the
        # lexc under test is the one imported, installed or not)
        (scratch / name).symlink_to(ROOT / name, target_is_directory=True)
    (scratch / "build" / "demo").mkdir(parents=True)  # (make demo's mkdir)
    monkeypatch.chdir(scratch)
    demo = re.search(r"^\t\$\(BIN\)/lexc (build wordlists/enable1.txt -f all -o \$\(DEMO\))$",
                     (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert demo, "make demo builds every format into build/demo"
    every = examples()  # (the README's own -f all example is make demo's build: it makes what the others use)
    assert any(e.command.split("#")[0].split() == ["lexc", *demo.group(1).replace("$(DEMO)", "build/demo/").split()]
               for e in every)
    assert len(every) > 40
    assert {e.command.split("  #")[0].strip() for e in every} >= set(NOT_RUN), "an example NOT_RUN names is gone"
    failures = []
    for example in every:
        words = shlex.split(example.command, comments=True)
        if " ".join(words) in NOT_RUN:
            continue
        env = {}
        while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
            key, value = words.pop(0).split("=", 1)
            env[key] = value
        out_file = None
        if ">" in words:
            at = words.index(">")
            out_file, words = words[at + 1], words[:at]
        assert words[0] == "lexc", example
        if env:  # the environment decides what a fresh process imports: run one
            done = subprocess.run([sys.executable, "-P", "-m", "lexc", *words[1:]], capture_output=True, text=True,
                                  env={**os.environ, **env, "PYTHONPATH": str(Path(lexc.__file__).parent.parent)},
                                  timeout=120)
            code, printed = done.returncode, done.stdout + done.stderr
        else:
            code, printed = run(capsys, monkeypatch, words[1:], "\n".join(example.typed) + "\n")
        if out_file:  # (the file gets stdout alone: run again for it, the example is deterministic)
            Path(out_file).write_text(run(capsys, monkeypatch, words[1:], stdout_only=True)[1], encoding="utf-8")
            printed = ""
        for prompt in PROMPTS:
            printed = printed.replace(prompt, "")
        if code not in (0, 1):
            failures.append(f"README line {example.line}: {example.command}: exit status {code}")
        elif example.shown and not matches(example.shown, printed.splitlines()):
            failures.append(f"README line {example.line}: {example.command}: printed\n{printed}")
    assert not failures, "\n\n".join(failures)


def run(capsys, monkeypatch, args: list[str], typed: str = "", stdout_only: bool = False) -> tuple[int, str]:
    """``lexc ARGS`` in this process: (exit status, its stdout then its stderr); ``typed`` is
    standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(args)
    code = done.value.code
    out, err = capsys.readouterr()
    # what the terminal shows (notes on stderr come last)
    return (0 if code is None else code), out if stdout_only else out + err
