"""The command reference (``docs/commands.md``), written from the click commands themselves.

``reference()`` walks the ``lexc`` group: every command (sorted by name) with its usage, its
help, its arguments, every option with its type or range, default and help, and its epilog
(the code it runs). It reads the parameters, never the formatted ``--help``, so the text does
not depend on the terminal's width, and it holds no absolute path: the same code always gives
the same bytes. ``python -m lexc.cli.reference docs/commands.md`` (``make docs-reference``)
rewrites the file; ``tests/test_docs.py`` requires the committed one to be what this writes.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

import click

from . import cli

COMMAND = "make docs-reference"  # (python -m lexc.cli.reference docs/commands.md)
PREAMBLE = f"""\
# Command reference

<!-- Written by `{COMMAND}` (python -m lexc.cli.reference docs/commands.md) from the click
commands themselves: do not edit by hand. -->

Every `lexc` command, its arguments and its options, as `lexc COMMAND --help` gives them
(generated from the same definitions). What the commands are for, with worked examples, is
in the [manual](index.md); the rules every command shares (the lexicon `FILE`, exit status,
limits) are in [the command line](command-line.md). Every command also takes `-h, --help`.
"""


def _escape(text: str) -> str:
    """Plain text for Markdown: the characters that would start emphasis or HTML escaped."""
    return re.sub(r"([\\*<])", r"\\\1", text)


def _code(text: str) -> str:
    """Inline code, with a fence longer than any run of backticks inside."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _paragraphs(help_text: str) -> list[str]:
    """A command's help as Markdown paragraphs: each reflowed onto one line; an example (the
    text after ``Example:``) as inline code; other text escaped, its `code` spans kept."""
    out = []
    for block in re.split(r"\n\s*\n", inspect.cleandoc(help_text).strip()):
        text = " ".join(block.split())
        example = re.search(r"\bExamples?: ", text)
        head, tail = (text[: example.end()], text[example.end():]) if example else (text, "")
        parts = re.split(r"(`[^`]+`)", head)
        head = "".join(p if p.startswith("`") else _escape(p) for p in parts)
        out.append(head + (_code(tail) if tail else ""))
    return out


def _kind(param: click.Parameter) -> str:
    """What a parameter's value is: its type, range or choices."""
    kind = param.type
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    if isinstance(kind, click.Choice):
        return "one of " + ", ".join(_code(str(c)) for c in kind.choices)
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        number = "integer" if isinstance(kind, click.IntRange) else "number"
        return f"{number}, {_code(kind._describe_range())}"
    if isinstance(kind, click.Path):
        what = "file" if not kind.dir_okay else "directory" if not kind.file_okay else "path"
        return f"{what}{' that exists' if kind.exists else ''}"
    return {"integer": "integer", "float": "number"}.get(kind.name, "text")


def _metavar(param: click.Parameter) -> str:
    """The placeholder after an option's names (none for a flag)."""
    if isinstance(param, click.Option) and param.is_flag:
        return ""
    if param.metavar:
        return param.metavar
    kind = param.type
    if isinstance(kind, click.Choice):  # the longest name: --format FORMAT
        return max(param.opts, key=len).lstrip("-").upper()
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        return "INTEGER" if isinstance(kind, click.IntRange) else "FLOAT"
    return {"path": "PATH", "integer": "INTEGER", "float": "FLOAT"}.get(kind.name, "TEXT")


def _default(option: click.Option) -> str | None:
    """An option's default as it is typed, or None when there is none to show (no value, a
    flag that is off, a default the help text already states)."""
    value: Any = option.default
    if type(value).__name__ == "Sentinel":  # (click 8.3 and later: no default given)
        return None
    if value is None or value == "" or value == () or callable(value) or "[default:" in (option.help or ""):
        return None
    if option.is_flag and not option.secondary_opts:
        return None
    if option.is_flag:  # --movegen/--no-movegen
        return option.opts[0] if value else option.secondary_opts[0]
    return str(value)


def _option(option: click.Option) -> str:
    """One option as a list item: names and placeholder, help, type, default."""
    names = ", ".join(option.opts)
    if option.secondary_opts:
        names += " / " + ", ".join(option.secondary_opts)
    metavar = _metavar(option)
    line = f"- {_code(names + (' ' + metavar if metavar else ''))}"
    help_text = " ".join((option.help or "").split())
    facts = [_kind(option)]
    if option.multiple:
        facts.append("repeatable")
    if option.required:
        facts.append("required")
    if option._flag_needs_value:
        facts.append("the value may be left out")
    default = _default(option)
    if default is not None:
        facts.append(f"default {_code(default)}")
    return f"{line}: {_escape(help_text)} ({'; '.join(facts)})" if help_text else f"{line} ({'; '.join(facts)})"


def _argument(argument: click.Argument) -> str:
    """One argument as a list item: its placeholder, type, whether it is required or repeats."""
    facts = [_kind(argument)]
    if argument.nargs == -1:
        facts.append("any number")
    facts.append("required" if argument.required else "optional")
    return f"- {_code(argument.metavar or (argument.name or '').upper())} ({'; '.join(facts)})"


def command_section(name: str, command: click.Command, parent: click.Context) -> list[str]:
    """The reference of one command: heading, usage, help, arguments, options, epilog."""
    ctx = click.Context(command, info_name=name, parent=parent)
    usage = " ".join(["lexc", name, *command.collect_usage_pieces(ctx)])
    lines = [f"## lexc {name}", "", "```text", usage, "```", ""]
    for paragraph in _paragraphs(command.help or ""):
        lines += [paragraph, ""]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    options = [p for p in command.params if isinstance(p, click.Option) and not p.hidden and p.name != "help"]
    if arguments:
        lines += ["Arguments:", "", *(_argument(a) for a in arguments), ""]
    if options:
        lines += ["Options:", "", *(_option(o) for o in options), ""]
    if command.epilog:
        lines += [_escape(" ".join(command.epilog.split())), ""]
    return lines


def _group_section(group: click.Group, ctx: click.Context) -> list[str]:
    """The group itself: its usage, help and options (``--version``)."""
    usage = " ".join(["lexc", *group.collect_usage_pieces(ctx)])
    lines = ["## lexc", "", "```text", usage, "```", ""]
    for paragraph in _paragraphs(group.help or ""):
        lines += [paragraph, ""]
    options = [p for p in group.params if isinstance(p, click.Option) and not p.hidden and p.name != "help"]
    if options:
        lines += ["Options:", "", *(_option(o) for o in options), ""]
    return lines


def reference(group: click.Group = cli) -> str:
    """The whole command reference as Markdown: a table of the commands, then one section each."""
    root = click.Context(group, info_name="lexc")
    names = sorted(group.list_commands(root))
    commands = {name: group.get_command(root, name) for name in names}
    lines = [PREAMBLE, "| command | what it is for |", "|---|---|"]
    for name, command in commands.items():
        assert command is not None  # (listed by the group)
        summary = command.get_short_help_str(limit=200)
        lines.append(f"| [`{name}`](#lexc-{name}) | {_escape(summary).replace('|', '&#124;')} |")
    lines.append("")
    lines += _group_section(group, root)
    for name, command in commands.items():
        assert command is not None
        lines += command_section(name, command, root)
    return "\n".join(lines).rstrip("\n") + "\n"


def write(path: str | Path) -> bool:
    """Write the reference to ``path``; whether the file changed."""
    target = Path(path)
    text = reference()
    if target.exists() and target.read_text(encoding="utf-8") == text:
        return False
    target.write_text(text, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> None:
    """``python -m lexc.cli.reference PATH``: write the command reference to PATH."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.exit("usage: python -m lexc.cli.reference docs/commands.md")
    print(f"{args[0]}: {'rewritten' if write(args[0]) else 'unchanged'}")


if __name__ == "__main__":
    main()
