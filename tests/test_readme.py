"""The README and the manual run as written: every console example (a ``$ lexc ...`` line in a
```console block) of README.md and of every page under docs/ prints what the page shows, and
the ```python blocks of the manual run without an error.

How a page is run: each page gets its own scratch root, a copy of the repository's root as
``make demo`` leaves it (``wordlists/``, ``tests/``, ``formats/``, ``docs/`` linked read-only,
and ``build/demo/`` holding the demo's build: ENABLE in every format, hard links to one build),
and its examples run there in the page's order. So a page may use what an earlier example *of the same page* wrote,
never what another page wrote: a reader can open any page after ``make demo`` and paste its
examples in order. The demo's build itself (``lexc build wordlists/enable1.txt -f all -o
build/demo/``, read from the Makefile) runs once per test run, shared by the workers under a
lock (as ``lexicons.shared_build`` shares ENABLE); the page test of a page that shows it
compares that run's output with the page instead of building again. The pages are separate
tests, so the workers run them side by side: about 30 s of work in all, most of it the demo's
build (the old single README test took about as long, on one worker).

The comparison: the page's lines must be the command's lines (stdout, then stderr, as a
terminal shows them), where a line ``...``, or a note in parentheses alone on its line
(``(the board again)``), stands for any number of lines, and a time in seconds
(``seconds 0.62``) for any time; an example with no output shown is only run. Every example
exits 0 or 1 (never 2: bad input). An interactive example (``lexc play``) gets the lines typed
after its prompts (``you> WORD``, ``[y/N] y``) as its input. A few examples are not run, each
for the reason in ``NOT_RUN`` (the test fails if the pages lose or gain one).
"""

from __future__ import annotations

import fcntl
import io
import os
import re
import shlex
import shutil
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
# Every page whose examples run: the README, then the manual (every Markdown file under docs/).
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
NOT_RUN = {
    "lexc bench --out build/demo/bench": "minutes on ENABLE (make bench runs it, --full; test_bench runs the command)",
    "lexc bench wordlists/tiny.txt --formats dawg,gaddag --no-movegen --repeat 3 --json > build/demo/figures.json":
        "a bench's fresh processes take seconds even on a tiny list (test_bench runs the command)",
}
PROMPTS = ("you> ", "End the game here? [y/N] ")
LINKED = ("wordlists", "tests", "formats", "docs")  # the repository's folders a scratch root sees, read only (not
# src/: the lexc under test is the one imported, installed or not)


@dataclass
class Example:
    """One ``$ `` line of a page, the lines shown under it and the lines typed into it."""

    line: int
    command: str
    shown: list[str] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)


def blocks(page: Path, language: str) -> list[tuple[int, list[str]]]:
    """Every fenced block of ``language`` in a page: (the line of its first line, its lines)."""
    found: list[tuple[int, list[str]]] = []
    inside = False
    for number, text in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if text.startswith("```"):
            inside = text.strip() == f"```{language}"
            if inside:
                found.append((number + 1, []))
        elif inside:
            found[-1][1].append(text)
    return found


def examples(page: Path = README) -> list[Example]:
    """Every console example of a page, in order."""
    found: list[Example] = []
    for first, lines in blocks(page, "console"):
        for number, text in enumerate(lines, first):
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


def demo_command() -> list[str]:
    """``make demo``'s build, as the Makefile gives it: ``lexc build ... -o build/demo/``."""
    found = re.search(r"^\t\$\(BIN\)/lexc (build wordlists/enable1.txt -f all -o \$\(DEMO\))$",
                      (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert found, "make demo builds every format into build/demo"
    return ["lexc", *found.group(1).replace("$(DEMO)", "build/demo/").split()]


def scratch_root(path: Path) -> Path:
    """A root as the repository's looks to a reader: its folders linked, an empty build/demo/."""
    path.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        (path / name).symlink_to(ROOT / name, target_is_directory=True)
    (path / "build" / "demo").mkdir(parents=True)  # (make demo's mkdir)
    return path


def the_demo(tmp_path_factory, capsys, monkeypatch) -> tuple[Path, str]:
    """make demo's build, run once per test run (the first worker to ask runs it, under a lock,
    in the run's shared directory): (its build/demo/ folder, what it printed)."""
    shared = os.environ.get("LEXC_TEST_SHARED")
    base = Path(shared) if shared else tmp_path_factory.mktemp("demo")
    root, printed = base / "demo-root", base / "demo-output.txt"
    with open(base / "demo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not printed.exists():
            scratch_root(root)
            with monkeypatch.context() as m:
                m.chdir(root)
                code, out, err = run(capsys, m, demo_command()[1:])
            assert code == 0, out + err
            printed.write_text(out + err, encoding="utf-8")
    return root / "build" / "demo", printed.read_text(encoding="utf-8")


def test_every_page_with_examples_is_run_and_the_exceptions_are_current():
    every = [e for page in PAGES for e in examples(page)]
    assert len(every) > 60
    assert {e.command.split("  #")[0].strip() for e in every} >= set(NOT_RUN), "an example NOT_RUN names is gone"
    assert any(shlex.split(e.command, comments=True) == demo_command() for e in every), \
        "a page shows make demo's build (the test compares its output)"
    assert all(page.name != "commands.md" or not examples(page) for page in PAGES)  # (generated: no examples)


@pytest.mark.slow  # make demo's build: ENABLE's GADDAG
@pytest.mark.parametrize("page", [p for p in PAGES if examples(p) or blocks(p, "python")],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_examples_run_as_written(page, tmp_path, tmp_path_factory, monkeypatch, capsys):
    demo, demo_output = the_demo(tmp_path_factory, capsys, monkeypatch)
    root = scratch_root(tmp_path / "root")
    for built in demo.iterdir():  # the demo's files as hard links (a copy across file systems): an example
        # that writes one renames a new file into this root's build/demo/, the shared one stays as it is
        try:
            os.link(built, root / "build" / "demo" / built.name)
        except OSError:
            shutil.copyfile(built, root / "build" / "demo" / built.name)
    monkeypatch.chdir(root)
    where = page.relative_to(ROOT).as_posix()
    failures = []
    for example in examples(page):
        words = shlex.split(example.command, comments=True)
        if " ".join(words) in NOT_RUN:
            continue
        if words == demo_command():
            code, printed = 0, demo_output
        else:
            code, printed = run_example(words, example, capsys, monkeypatch)
        if code not in (0, 1):
            failures.append(f"{where} line {example.line}: {example.command}: exit status {code}\n{printed}")
        elif example.shown and not matches(example.shown, printed.splitlines()):
            failures.append(f"{where} line {example.line}: {example.command}: printed\n{printed}")
    namespace: dict[str, object] = {"__name__": "__docs__"}  # one per page: its blocks are one session
    for first, lines in blocks(page, "python"):
        try:
            exec(compile("\n".join(lines), f"{where}:{first}", "exec"), namespace)
        except Exception as exc:
            failures.append(f"{where} line {first}: the python block raised {exc!r}")
    assert not failures, "\n\n".join(failures)


def run_example(words: list[str], example: Example, capsys, monkeypatch) -> tuple[int, str]:
    """One console example: (exit status, what it printed; nothing when its stdout went to a file)."""
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
        code, out, err = done.returncode, done.stdout, done.stderr
    else:
        code, out, err = run(capsys, monkeypatch, words[1:], "\n".join(example.typed) + "\n")
    if out_file:  # the file gets stdout; the page shows what is left (nothing, unless on stderr)
        Path(out_file).write_text(out, encoding="utf-8")
        out = ""
    printed = out + err  # what the terminal shows (notes on stderr come last)
    for prompt in PROMPTS:
        printed = printed.replace(prompt, "")
    return code, printed


def run(capsys, monkeypatch, args: list[str], typed: str = "") -> tuple[int, str, str]:
    """``lexc ARGS`` in this process: (exit status, its stdout, its stderr); ``typed`` is
    standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(args)
    code = done.value.code
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err
