"""Rulesets: the alphabet, tile bag and board of a crossword game, loaded from TOML.

Rulesets are data. The bundled ones live in ``src/lexc/rulesets/*.toml`` (the schema is written
down at the top of ``english.toml``); any other file with the same schema loads by path.
Everything is checked on load: each problem raises :class:`RulesetError` with a one-line
message naming the file and what is wrong.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .alphabet import BLANK_CHAR, BLANK_FLAG, MAX_WORD_TILES, Alphabet
from .errors import LexcError
from .plural import is_are, plural

#: premium name -> (letter multiplier, word multiplier)
PREMIUMS = MappingProxyType({
    "none": (1, 1), "DL": (2, 1), "TL": (3, 1), "QL": (4, 1), "DW": (1, 2), "TW": (1, 3), "QW": (1, 4),
})
MAX_BOARD = 26  # columns are lettered A..Z in play notation
from .limits import MAX_RULESET_TEXT  # noqa: E402 (bytes of a ruleset file, and of one stored in a header)

MAX_TILE_COUNT = 1000  # tiles of one letter in a bag
MAX_TILE_VALUE = 10000  # points of a tile, and of the bingo bonus
# The largest score a play may reach under a ruleset (``score_bound``): 2**53 - 1, so that a
# score is exact as a JSON number in any reader and as a float, and (far) within the compiled
# core's 64-bit arithmetic. A ruleset whose bound is higher is refused on load.
MAX_SCORE = 2**53 - 1

_TOP_KEYS = {"name": str, "description": str, "rack_size": int, "bingo_bonus": int,
             "tile_total": int, "tiles": dict, "board": dict}
_BOARD_KEYS = {"legend": dict, "start": str, "rows": list}
_TYPE_NAMES = {str: "a string", int: "an integer", dict: "a table", list: "an array"}


class RulesetError(LexcError, ValueError):
    """A ruleset cannot be found, read or validated; the message is one line naming the file."""


@dataclass(frozen=True)
class Tile:
    """One letter of the bag: its label, letter code, number of tiles and point value."""

    label: str
    code: int
    count: int
    value: int


@dataclass(frozen=True)
class Ruleset:
    """An immutable, validated ruleset: alphabet, tiles, rack, bingo bonus and board."""

    name: str
    description: str
    alphabet: Alphabet
    tiles: tuple[Tile, ...]
    blanks: int
    blank_value: int
    rack_size: int
    bingo_bonus: int
    board_size: int
    premiums: tuple[tuple[tuple[int, int], ...], ...]
    start: tuple[int, int]
    board_rows: tuple[str, ...]
    source: str
    text: str = field(default="", repr=False, compare=False)  # the TOML it was read from
    # (engine, the labels in the order the engine numbers its tiles, tile 1 first), for the
    # engines whose order is not the ruleset's own (``engine_orders`` in the TOML)
    engine_orders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # the letter codes that are vowels (``vowels`` in the TOML; absent: A, E, I, O, U with any
    # accent, ``default_vowels``): the leave models' vowel/consonant balance. The blank is neither.
    vowels: tuple[int, ...] = ()
    _values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    tile_values: tuple[int, ...] = field(init=False, repr=False, compare=False)  # by any board code, 0..255

    def __post_init__(self) -> None:
        object.__setattr__(self, "_values", (self.blank_value, *(t.value for t in self.tiles)))
        object.__setattr__(self, "_counts", (self.blanks, *(t.count for t in self.tiles)))
        object.__setattr__(self, "tile_values", self._values + (0,) * (256 - len(self._values)))

    def value(self, code: int) -> int:
        """The point value of a letter code: 0 for the blank (code 0) and blank-designated codes."""
        return 0 if code & BLANK_FLAG else self._values[code]

    def is_vowel(self, code: int) -> bool:
        """Whether a letter code is a vowel (``vowels``); the blank (code 0) is neither vowel nor
        consonant."""
        return code in self.vowels

    def engine_order(self, engine: str) -> tuple[str, ...]:
        """The labels in the order ``engine`` numbers its tiles (tile 1 first): the TOML's
        ``engine_orders`` entry for it (case ignored), else the ruleset's own order."""
        for name, order in self.engine_orders:
            if name.casefold() == engine.casefold():
                return order
        return tuple(self.alphabet.labels)

    def bag_tiles(self) -> list[int]:
        """Every tile of a full bag as a code (0 for each blank), in code order."""
        return [code for code in range(len(self._counts)) for _ in range(self._counts[code])]

    def count(self, code: int) -> int:
        """How many tiles of a letter code are in the bag; code 0 gives the number of blanks."""
        return self._counts[code]

    @property
    def tile_total(self) -> int:
        """The number of tiles in the bag: letters plus blanks."""
        return sum(self._counts)

    def summary(self) -> dict[str, Any]:
        """A JSON-friendly description of the ruleset (start square as e.g. ``"8H"``)."""
        row, col = self.start
        return {
            "name": self.name,
            "description": self.description,
            "letters": list(self.alphabet.labels),
            "tiles": [{"label": t.label, "count": t.count, "value": t.value} for t in self.tiles],
            "blanks": self.blanks,
            "tile_total": self.tile_total,
            "rack_size": self.rack_size,
            "bingo_bonus": self.bingo_bonus,
            "board_size": self.board_size,
            "start": f"{row + 1}{chr(ord('A') + col)}",
            "vowels": [self.alphabet.label(code) for code in self.vowels],
            "source": self.source,
        }


def _bundle_dir() -> Path:
    """The directory holding the bundled ruleset files (package data beside this module)."""
    return Path(__file__).resolve().parent / "rulesets"


def available() -> list[str]:
    """The names of the bundled rulesets (the stems of ``src/lexc/rulesets/*.toml``), sorted."""
    return list(_bundled_names())


@cache
def _bundled_names() -> tuple[str, ...]:
    """``available``'s names, read once: the package's data does not change while it runs."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rulesets")  # (no symlinks resolved: one listing)
    return tuple(sorted(name[: -len(".toml")] for name in os.listdir(folder) if name.endswith(".toml")))


def load_ruleset(name_or_path: str) -> Ruleset:
    """Load a bundled ruleset by name (``"english"``), any ruleset file by path (``x.toml``),
    or a ruleset's own text (what a lexicon header stores for a ruleset that is not bundled).

    Text with a line break is a ruleset's text, never a path. A bare name (no path separator,
    no ``.toml`` suffix) is looked up among the bundled rulesets; anything else is a path,
    which must be a regular file of at most ``MAX_RULESET_TEXT`` bytes (a device or a FIFO
    given as a ruleset is refused, not read). Results are cached.
    """
    text = str(name_or_path)
    if "\n" in text:
        return _load_text(text)
    if "/" not in text and "\\" not in text and not text.endswith(".toml"):
        names = available()
        if text not in names:
            raise RulesetError(f"{text[:60]}: no such ruleset (bundled: {', '.join(names)})")
        return _load_bundled(text)
    return _load_path(str(Path(text).expanduser().resolve()))


def reference(name_or_path: str) -> str:
    """What a lexicon header records for a ruleset: a bundled ruleset's name, or the text of
    any other (so that the file needs no other file, and a header never names one to open)."""
    text = str(name_or_path)
    if "\n" not in text and "/" not in text and "\\" not in text and not text.endswith(".toml"):
        load_ruleset(text)
        return text
    ruleset = load_ruleset(text)
    return ruleset.text


def reference_of(ruleset: Ruleset) -> str:
    """``reference`` of a loaded ruleset: its name when it is the bundled one of that name,
    else its own text."""
    if ruleset.name in available() and load_ruleset(ruleset.name) == ruleset:
        return ruleset.name
    return ruleset.text


def check_reference(value: str) -> None:
    """RulesetError unless a header's ruleset field is empty, a bundled name or a ruleset's
    text: a header never names a file to open."""
    if value and "\n" not in value and value not in _bundled_names():
        raise RulesetError(f"the file names ruleset {value[:60]!r}, which is not a bundled ruleset "
                           "(a lexicon file stores a bundled ruleset's name or the ruleset itself)")
    if "\n" in value:
        _load_text(value)


@cache
def _load_bundled(name: str) -> Ruleset:
    """Read and parse one bundled ruleset (cached: rulesets are immutable)."""
    resource = _bundle_dir() / f"{name}.toml"
    return _parse(str(resource), resource.read_bytes())


@cache
def _load_path(path: str) -> Ruleset:
    """Read and parse a ruleset file given by resolved path (cached): a regular file of at
    most ``MAX_RULESET_TEXT`` bytes."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise RulesetError(f"{path}: not a regular file (a ruleset is a TOML file)")
        with open(path, "rb") as f:
            data = f.read(MAX_RULESET_TEXT + 1)
    except OSError as e:
        raise RulesetError(f"{path}: cannot read ruleset: {e.strerror or e}") from None
    if len(data) > MAX_RULESET_TEXT:
        raise RulesetError(f"{path}: larger than {MAX_RULESET_TEXT:,} bytes; not a ruleset")
    return _parse(path, data)


@lru_cache(maxsize=64)
def _load_text(text: str) -> Ruleset:
    """Parse a ruleset's text, as stored in a lexicon header (cached)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_RULESET_TEXT:
        raise RulesetError(f"a stored ruleset of {len(data):,} bytes (at most {MAX_RULESET_TEXT:,})")
    return _parse("<stored ruleset>", data)


def _fail(source: str, what: str) -> RulesetError:
    """A RulesetError whose message is ``source: what`` on a single line."""
    return RulesetError(" ".join(f"{source}: {what}".splitlines()))


def _parse(source: str, data: bytes) -> Ruleset:
    """Parse and validate the bytes of a ruleset file; ``source`` names it in errors."""
    import tomllib  # (imported when a ruleset is parsed: loading a lexicon file only names one)

    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise _fail(source, f"not valid UTF-8 ({e.reason} at byte {e.start})") from None
    except tomllib.TOMLDecodeError as e:
        raise _fail(source, f"TOML syntax error: {e}") from None
    except ValueError as e:  # an integer past Python's digit limit (4,300): tomllib lets int() raise
        raise _fail(source, f"an integer is too long to read ({e})") from None
    orders = doc.pop("engine_orders", {})  # (optional)
    vowel_labels = doc.pop("vowels", None)  # (optional)
    _check_keys(source, doc, _TOP_KEYS, "")
    _check_keys(source, doc["board"], _BOARD_KEYS, "board.")
    alphabet, tiles, blanks = _parse_tiles(source, doc["tiles"])
    engine_orders = _parse_engine_orders(source, orders, alphabet)
    vowels = _parse_vowels(source, vowel_labels, alphabet)
    total = sum(t.count for t in tiles) + blanks
    if doc["tile_total"] != total:
        raise _fail(source, f"tile_total is {doc['tile_total']} but the tiles add up to {total}")
    if not 1 <= doc["rack_size"] <= min(total, MAX_WORD_TILES):
        raise _fail(source, f"rack_size must be between 1 and the tile total {total} (at most {MAX_WORD_TILES}), "
                            f"not {doc['rack_size']}")
    if not 0 <= doc["bingo_bonus"] <= MAX_TILE_VALUE:
        raise _fail(source, f"bingo_bonus must be between 0 and {MAX_TILE_VALUE}, not {doc['bingo_bonus']}")
    rows, premiums, start = _parse_board(source, doc["board"])
    bound = score_bound(len(premiums), max((t.value for t in tiles), default=0), premiums, doc["rack_size"],
                        doc["bingo_bonus"])
    if bound > MAX_SCORE:
        raise _fail(source, f"a play could score up to {bound:,} points, more than the {MAX_SCORE:,} lexc allows: "
                            "lower the tile values, the letter or word premiums, the board size or the rack size")
    return Ruleset(
        name=doc["name"], description=doc["description"], alphabet=alphabet, tiles=tiles,
        blanks=blanks, blank_value=0, rack_size=doc["rack_size"], bingo_bonus=doc["bingo_bonus"],
        board_size=len(premiums), premiums=premiums, start=start, board_rows=rows, source=source,
        text=data.decode("utf-8"), engine_orders=engine_orders, vowels=vowels,
    )


BASE_VOWELS = frozenset("AEIOU")


def default_vowels(alphabet: Alphabet) -> tuple[int, ...]:
    """The vowels of a ruleset that does not list them: the labels that are A, E, I, O or U
    with any accent (``Á``, ``Ą``, ``Ö``), as MAGPIE's and Quackle's letter files mark them."""
    import unicodedata

    def base(label: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFD", label.upper()) if not unicodedata.combining(c))

    pairs = zip(alphabet.codes, alphabet.labels, strict=True)
    return tuple(code for code, label in pairs if base(label) in BASE_VOWELS)


def _parse_vowels(source: str, labels: Any, alphabet: Alphabet) -> tuple[int, ...]:
    """The optional ``vowels`` array: labels of the alphabet, each once (the blank is neither
    vowel nor consonant); absent, ``default_vowels``."""
    if labels is None:
        return default_vowels(alphabet)
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise _fail(source, "vowels must be an array of the alphabet's labels")
    codes = []
    for label in labels:
        if label == BLANK_CHAR:
            raise _fail(source, "vowels: the blank is neither vowel nor consonant")
        try:
            codes.append(alphabet.code(label))
        except (KeyError, ValueError):
            raise _fail(source, f"vowels: {label[:20]!r} is not a label of the alphabet") from None
    if len(set(codes)) != len(codes):
        raise _fail(source, "vowels lists a label twice")
    return tuple(sorted(codes))


def _parse_engine_orders(source: str, orders: Any, alphabet: Alphabet) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The optional ``engine_orders`` table: engine name -> every label of the alphabet once,
    in the order that engine numbers its tiles (tile 1 first)."""
    if not isinstance(orders, dict):
        raise _fail(source, "engine_orders must be a table (engine = [labels in its tile order])")
    out = []
    for engine, labels in orders.items():
        if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
            raise _fail(source, f"engine_orders.{engine} must be an array of the alphabet's labels")
        try:
            normal = tuple(alphabet.label(alphabet.code(label)) for label in labels)
        except (KeyError, ValueError):
            raise _fail(source, f"engine_orders.{engine} holds a label outside the alphabet") from None
        if sorted(normal) != sorted(alphabet.labels) or len(set(normal)) != len(normal):
            raise _fail(source, f"engine_orders.{engine} must list each of the alphabet's "
                                f"{len(alphabet.labels)} labels once")
        out.append((engine, normal))
    return tuple(out)


def score_bound(side: int, value: int, premiums: tuple[tuple[tuple[int, int], ...], ...], rack_size: int,
                bingo: int) -> int:
    """An upper bound on any play's score (each tile worth at most ``value``) on a board of
    ``side`` squares a side with these (letter, word) premiums: a play puts down k <= min(rack
    size, side) tiles in one line; its main word holds at most ``side`` tiles, each worth at
    most value x the largest letter premium, times the word premiums of the squares it covers
    (at most the product of the k largest on the board); each tile put down makes at most
    one cross word of at most ``side`` tiles, times one word premium; then the bingo bonus."""
    squares = [square for row in premiums for square in row]
    letter = max(lm for lm, _ in squares)
    words = sorted((wm for _, wm in squares), reverse=True)
    k = min(rack_size, side)
    product = 1
    for wm in words[:k]:
        product *= max(wm, 1)
    tile = side * value * letter
    return tile * product + k * tile * max(words[0], 1) + bingo


def _check_keys(source: str, table: dict[str, Any], spec: Mapping[str, type], prefix: str) -> None:
    """Check a table has exactly the keys of ``spec``, each of the type given there."""
    for key in table:
        if key not in spec:
            raise _fail(source, f"unknown key {prefix + key!r} (expected {', '.join(prefix + k for k in spec)})")
    for key, kind in spec.items():
        if key not in table:
            raise _fail(source, f"missing key {prefix}{key}")
        value = table[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise _fail(source, f"{prefix}{key} must be {_TYPE_NAMES[kind]}, not {type(value).__name__}")


def _parse_tiles(source: str, table: dict[str, Any]) -> tuple[Alphabet, tuple[Tile, ...], int]:
    """The alphabet, letter tiles and blank count of a ``[tiles]`` table (label = [count, value])."""
    pairs: dict[str, list[int]] = {}
    for label, entry in table.items():
        if not (isinstance(entry, list) and len(entry) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in entry)):
            raise _fail(source, f"tiles entry {label!r} must be [count, value], two non-negative integers, "
                                f"not {entry!r}")
        pairs[label] = entry
    if BLANK_CHAR not in pairs:
        raise _fail(source, f"tiles has no blank entry {BLANK_CHAR!r} (write \"?\" = [0, 0] for none)")
    for label, (count, value) in pairs.items():
        if count > MAX_TILE_COUNT or value > MAX_TILE_VALUE:
            raise _fail(source,
                        f"tiles entry {label[:20]!r}: at most {MAX_TILE_COUNT} tiles of {MAX_TILE_VALUE} points")
    blanks, blank_value = pairs.pop(BLANK_CHAR)
    if blank_value != 0:
        raise _fail(source, f"the blank's value must be 0, not {blank_value}")
    try:
        alphabet = Alphabet(tuple(pairs))
    except ValueError as e:
        raise _fail(source, f"bad tiles: {e}") from None
    tiles = tuple(Tile(label, code, count, value)
                  for label, code, (count, value) in zip(alphabet.labels, alphabet.codes, pairs.values(), strict=True))
    return alphabet, tiles, blanks


def _parse_board(source: str, board: dict[str, Any]
                 ) -> tuple[tuple[str, ...], tuple[tuple[tuple[int, int], ...], ...], tuple[int, int]]:
    """The rows, premium grid and start square of a ``[board]`` table."""
    legend = {}
    for char, name in board["legend"].items():
        if len(char) != 1 or char.isspace():
            raise _fail(source, f"board.legend key {char!r} must be one non-space character")
        if name not in PREMIUMS:
            raise _fail(source, f"board.legend: unknown premium {name!r} for {char!r} "
                                f"(known: {', '.join(PREMIUMS)})")
        legend[char] = PREMIUMS[name]
    start_char = board["start"]
    if start_char not in legend:
        raise _fail(source, f"board.start {start_char!r} is not a character of board.legend")
    rows = board["rows"]
    if not all(isinstance(row, str) for row in rows):
        raise _fail(source, "board.rows must be an array of strings")
    size = len(rows)
    if not 1 <= size <= MAX_BOARD:
        raise _fail(source, f"board must have between 1 and {MAX_BOARD} rows, not {size}")
    grid, starts = [], []
    for r, row in enumerate(rows):
        squares = row.replace(" ", "")
        if len(squares) != size:
            raise _fail(source, f"board row {r + 1} has {plural(len(squares), 'square')} but there "
                                f"{is_are(size)} {plural(size, 'row')} (the board must be square)")
        for c, char in enumerate(squares):
            if char not in legend:
                raise _fail(source, f"board row {r + 1}, column {c + 1}: {char!r} is not in board.legend")
            if char == start_char:
                starts.append((r, c))
        grid.append(tuple(legend[char] for char in squares))
    if len(starts) != 1:
        raise _fail(source, f"board must have exactly one start square {start_char!r}, not {len(starts)}")
    return tuple(rows), tuple(grid), starts[0]
