"""The command reference is what the commands say: ``docs/commands.md`` is written by
``lexc.cli.reference`` from the click commands; the test writes it again in memory and
requires the committed file to be the same, so it can never drift from ``--help`` (``make
docs-reference`` rewrites it).
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from lexc.cli import cli
from lexc.cli.reference import reference

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
COMMANDS = DOCS / "commands.md"
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
