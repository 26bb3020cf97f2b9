"""The manual holds together: the command reference is what the commands say, every link
resolves inside the repository, and every page can be found.

- ``docs/commands.md`` is written by ``lexc.cli.reference`` from the click commands; the
  test writes it again in memory and requires the committed file to be the same, so it can
  never drift from ``--help`` (``make docs-reference`` rewrites it).
- Every relative link of the README, the manual (``docs/``), the format specs (``formats/``),
  the compiled core's contract and the changelog names a file of the repository, never a
  path outside it, and its ``#anchor`` names a heading of the target (as a code host and
  MkDocs both spell it).
- Every page of the manual is linked from its index and listed in ``mkdocs.yml``.

The examples of the pages are run by ``test_readme.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from lexc.cli import cli
from lexc.cli.reference import reference

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
COMMANDS = DOCS / "commands.md"
# the Markdown whose links are checked (docs/bench/ too: make bench writes it, its links must still hold)
PAGES = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "src" / "lexc" / "native" / "README.md",
                *DOCS.rglob("*.md"), *(ROOT / "formats").glob("*.md")])
EXTERNAL = {  # the few links out of the repository, to the specifications lexc follows
    "https://keepachangelog.com/en/1.1.0/",
    "https://github.com/msgpack/msgpack/blob/master/spec.md",
}
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)\)")
REGENERATE = "docs/commands.md is not what the click commands give: run `make docs-reference` and commit it"


def test_the_command_reference_is_what_the_commands_give():
    assert COMMANDS.read_text(encoding="utf-8") == reference(), REGENERATE


def test_the_reference_names_every_command_option_and_argument():
    text = reference()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    by_name = {section.split("\n", 1)[0].removeprefix("lexc "): section for section in sections}
    assert sorted(by_name) == sorted(["lexc", *cli.commands])  # (the group, then every command)
    for name, command in cli.commands.items():
        section = by_name[name]
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert all(f"{opt}" in section for opt in param.opts), (name, param.opts)
                if param.help:
                    assert " ".join(param.help.split())[:30].replace("*", "\\*") in section, (name, param.opts)
            elif isinstance(param, click.Argument):
                assert (param.metavar or (param.name or "").upper()) in section, (name, param.name)
        assert command.epilog and command.epilog in section.replace("\n", " ")


def test_the_reference_depends_on_nothing_but_the_commands(monkeypatch):
    """Deterministic: the same text whatever the terminal's width, and no path of this machine."""
    text = reference()
    for columns in ("40", "250"):
        monkeypatch.setenv("COLUMNS", columns)
        assert reference() == text
    assert str(ROOT) not in text and "/home/" not in text and "/tmp/" not in text


def markdown_lines(page: Path) -> list[tuple[int, str]]:
    """A page's lines outside fenced code blocks: (line number, text)."""
    found, fenced = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            found.append((number, line))
    return found


def slugs(page: Path) -> set[str]:
    """Every heading's anchor, as GitHub spells it and as MkDocs (Python-Markdown's toc) does:
    a link's anchor must be in both."""
    github, mkdocs = set(), set()
    seen: dict[str, int] = {}
    for _, line in markdown_lines(page):
        heading = re.match(r"#{1,6} +(.*?)(?: +#+)? *$", line)
        if not heading:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).replace("`", "")  # a link: its text
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        github.add(slug if count == 0 else f"{slug}-{count}")
        mkdocs.add(re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower()))
    return github & mkdocs


def links() -> list[tuple[Path, int, str]]:
    """Every link of every checked page: (page, line, target)."""
    return [(page, number, match.group(1)) for page in PAGES for number, line in markdown_lines(page)
            for match in LINK.finditer(re.sub(r"`+[^`]*`+", "``", line))]  # (not in code spans)


def test_every_link_resolves_inside_the_repository():
    problems = []
    for page, number, target in links():
        where = f"{page.relative_to(ROOT)}:{number}: {target}"
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            if target not in EXTERNAL:
                problems.append(f"{where}: a link out of the repository (add it to EXTERNAL only if it must be)")
            continue
        path, _, anchor = target.partition("#")
        named = (page.parent / path).resolve() if path else page
        if path.startswith("/") or not named.is_relative_to(ROOT):
            problems.append(f"{where}: leaves the repository")
        elif not named.is_file():
            problems.append(f"{where}: no such file")
        elif anchor and named.suffix == ".md" and anchor not in slugs(named):
            problems.append(f"{where}: no heading #{anchor} in {named.relative_to(ROOT)}")
    assert not problems, "\n".join(problems)
    assert len(links()) > 150  # (the check sees the links)


def test_the_heading_anchors_are_spelled_as_the_hosts_spell_them(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n## `make bench` and `lexc bench`\n\n## Backends: the core & the twin\n\n"
                    "```\n# not a heading\n```\n## A page\n", encoding="utf-8")
    assert slugs(page) >= {"a-page", "make-bench-and-lexc-bench"}
    assert "not-a-heading" not in slugs(page) and "a-page-1" not in slugs(page)  # (MkDocs spells it a-page_1)


def test_every_page_of_the_manual_can_be_found():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    nav = set(re.findall(r":\s+(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M))
    for page in DOCS.glob("*.md"):
        if page.name != "index.md":
            assert f"]({page.name})" in index, f"docs/index.md does not link {page.name}"
        assert page.name in nav, f"mkdocs.yml's nav does not list {page.name}"
    for page in (DOCS / "bench").rglob("*.md"):
        assert page.relative_to(DOCS).as_posix() in nav, f"mkdocs.yml's nav does not list {page}"


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted(set(DOCS.glob("*.md")) - {COMMANDS})],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_pages_stay_short(page):
    """The README is the tour (the manual holds the rest); a page of the manual is one task."""
    lines = len(page.read_text(encoding="utf-8").splitlines())
    limit = 250 if page.name == "README.md" else 300
    assert lines <= limit, f"{page.relative_to(ROOT)}: {lines} lines (at most {limit}): split or move it"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_code_block_is_closed(page):
    fences = [line for line in page.read_text(encoding="utf-8").splitlines() if line.lstrip().startswith("```")]
    assert len(fences) % 2 == 0, f"{page.relative_to(ROOT)}: a code block is not closed"


def test_the_readme_shows_the_headline_table_of_the_committed_bench_run():
    """make bench writes docs/bench/ and copies one summary table into the README (the whole
    report stays in docs/bench/): the README's copy is that of the committed run."""
    import json

    from lexc.bench.report import BEGIN, END, summary

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    result = json.loads((DOCS / "bench" / "bench.json").read_text(encoding="utf-8"))
    assert block == "\n" + summary(result, "docs/bench/"), "run python -m lexc.bench.report docs/bench README.md"


def test_the_site_builds_with_every_link_resolved(tmp_path):
    """make docs: MkDocs builds the manual with --strict (a link or an anchor it cannot resolve
    fails the build), the files outside docs/ brought in by tools/mkdocs_hooks.py. (MkDocs is in
    the test extra; skipped only where a bare pytest runs without it.)"""
    pytest.importorskip("mkdocs")
    import subprocess
    import sys

    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    library = (site / "library.html").read_text(encoding="utf-8")
    assert 'href="_repo/formats/gaddag.html"' in library  # a link out of docs/, pointed at the copy on the site
    readme = (site / "_repo" / "index.html").read_text(encoding="utf-8")
    assert 'href="../compiling.html"' in readme  # the README's links into docs/, from its place on the site
