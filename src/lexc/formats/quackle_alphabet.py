"""Quackle's alphabet file (``alphabets/NAME.quackle_alphabet``, ``formats/folders.md``):
the letters Quackle numbers from 5, in the order its ``.dawg`` numbers them, with their
scores and counts, written from a ruleset.

Quackle reads it line by line (``FlexibleAlphabetParameters::load``): a line starting with
``#`` is a comment; the others are split on white space. A letter's line is its text, the
text it shows for the letter played as a blank, its score, its count and 1 for a vowel
(``A a 1 9 1``), and the n-th letter's line gives Quackle's letter 5 + n - 1; the blank's line
is ``blank``, its score and its count (``blank 0 2``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import FormatError
from .magpie import is_vowel

if TYPE_CHECKING:
    from ..ruleset import Ruleset

ENGINE = "quackle"
EXTENSION = ".quackle_alphabet"


@dataclass(frozen=True)
class QuackleLetter:
    """One letter's line: its text, its text as a blank, score, count, vowel."""

    text: str
    blank_text: str
    score: int
    count: int
    vowel: bool


@dataclass(frozen=True)
class QuackleAlphabet:
    """What a Quackle alphabet file says: its letters in Quackle's order, the blank's score
    and count (None without a blank line)."""

    letters: tuple[QuackleLetter, ...]
    blank: tuple[int, int] | None

    @property
    def labels(self) -> tuple[str, ...]:
        """The letters' texts in Quackle's order (its letter 5 first)."""
        return tuple(letter.text for letter in self.letters)


def _check_label(label: str) -> None:
    """A FormatError for a letter Quackle would read as something else: a text with white
    space, a ``#`` (a comment) or ``blank`` (the blank's line) at its start."""
    if not label or any(c.isspace() for c in label):
        raise FormatError(f"the letter {label!r} holds white space, which a Quackle alphabet file cannot say")
    if label.startswith("#") or label.lower().startswith("blank"):
        raise FormatError(f"a Quackle alphabet file reads the letter {label!r} as "
                          f"{'a comment' if label.startswith('#') else 'the blank'}")


def alphabet_file(ruleset: Ruleset) -> bytes:
    """The ruleset as a Quackle alphabet file: a comment naming it, then a tab-separated line
    a letter in Quackle's order (``engine_orders.quackle``, the order lexc's ``.dawg`` header
    stores): text, lower-case text, score, count, 1 for a vowel (A, E, I, O, U, with any
    accent); then ``blank``, its score and its count. UTF-8, LF after every line."""
    alphabet = ruleset.alphabet
    lines = [f"# {ruleset.name}: {ruleset.description} (written by lexc from its ruleset)"]
    for label in ruleset.engine_order(ENGINE):
        _check_label(label)
        code = alphabet.code(label)
        lines.append(f"{label}\t{label.lower()}\t{ruleset.value(code)}\t{ruleset.count(code)}\t"
                     f"{int(is_vowel(label))}")
    lines.append(f"blank\t{ruleset.blank_value}\t{ruleset.blanks}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def read_alphabet(data: bytes, name: str) -> QuackleAlphabet:
    """A Quackle alphabet file's letters and blank, read as Quackle reads them (comments and
    empty lines skipped, fields split on white space); a one-line FormatError for a line
    Quackle would skip with an error (too few fields, a number it cannot parse)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FormatError(f"{name}: not a Quackle alphabet file (not UTF-8 text)") from None
    letters: list[QuackleLetter] = []
    blank: tuple[int, int] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        try:
            if fields[0].lower().startswith("blank"):
                blank = (int(fields[1]), int(fields[2]))
            else:
                letters.append(QuackleLetter(fields[0], fields[1], int(fields[2]), int(fields[3]),
                                             bool(int(fields[4]))))
        except (IndexError, ValueError):
            raise FormatError(f"{name}: line {number}: not a Quackle alphabet line (a letter: text, blank text, "
                              "score, count, vowel; the blank: blank, score, count)") from None
    return QuackleAlphabet(tuple(letters), blank)


__all__ = ["EXTENSION", "QuackleAlphabet", "QuackleLetter", "alphabet_file", "read_alphabet"]
