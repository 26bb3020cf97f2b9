"""Shared fixtures: ENABLE and small hand-made lexicons, built in every registered format."""

from __future__ import annotations

import fcntl
import os
import random
from pathlib import Path

import pytest

import lexc
from lexc import formats, native
from lexc.formats import FORMATS, build
from lexc.wordlist import from_words, read_wordlist

ROOT = Path(__file__).resolve().parent.parent
ENABLE = ROOT / "wordlists" / "enable1.txt"
FORMAT_NAMES = sorted(FORMATS)


def engine_kinds(names) -> list[str]:
    """Each format name (on the path lexc chooses: the compiled core when it is built), plus
    ``NAME:pure`` for each format the compiled core runs, when it is built: the agreement
    tests hold both paths to the same answers."""
    out = list(names)
    if native.available():
        out += [f"{name}:pure" for name in names if FORMATS[name].compiled]
    return sorted(out)


LEXICON_KINDS = engine_kinds(FORMAT_NAMES)


def format_of(kind: str) -> str:
    """The format name of a lexicon kind (``gaddag:pure`` -> ``gaddag``)."""
    return kind.split(":")[0]


def backend_of(kind: str) -> native.Backend:
    """The backend a lexicon kind is made on: the pure-Python reference for ``NAME:pure``,
    else the one lexc chooses (``native.select()``)."""
    return native.select(pure=True) if kind.endswith(":pure") else native.select()


def build_kind(words, kind: str, **options):
    """``formats.build`` on the kind's backend."""
    return build(words, format_of(kind), backend=backend_of(kind), **options)

SMALL = {
    "paper": ["CAR", "CARE", "CARS", "CAT", "CATS", "CARES", "CARET", "SCAR", "SCARE", "ACE", "ACES", "RACE",
              "RACES", "CRATE", "TRACE", "REACT", "CATER", "RECAST", "TRACES", "CARTES", "AA", "A"],
    "hooks": ["AT", "BAT", "CAT", "ATE", "ATS", "BATS", "BATE", "OAT", "OATS", "GOAT", "GOATS", "TA", "TAT"],
    "nest": ["AB", "ABA", "ABAB", "ABABA", "BA", "BAB", "BABA", "ABBA", "BAA", "AAB"],
}


@pytest.fixture(scope="session")
def english():
    return lexc.load_ruleset("english")


@pytest.fixture(scope="module")
def tiny_dawg(tmp_path_factory) -> Path:
    """wordlists/tiny.txt compiled by the library (not by the command under test)."""
    from lexc.lexicons.compile import compile_file

    out = tmp_path_factory.mktemp("tiny") / "tiny.dawg"
    compile_file(ROOT / "wordlists" / "tiny.txt", out=out)
    return out


@pytest.fixture(scope="session")
def enable_list(english):
    return read_wordlist(ENABLE, english.alphabet)


@pytest.fixture(scope="session")
def enable_set(enable_list):
    return set(enable_list.texts())


_built: dict = {}


def shared_build(key: str, make, kind: str = ""):
    """A lexicon built once per test run and shared by every module and every xdist worker.

    The first process to ask builds it (``make()``), saves it in the run's shared directory
    (``LEXC_TEST_SHARED``, made by conftest) under a lock, and every process (the builder
    too) uses the file loaded back: each test sees the same object whichever worker runs it,
    and a structure such as ENABLE's GADDAG is built once per run, not once per worker.
    The file is loaded on ``kind``'s backend (``backend_of``): one file, a lexicon per backend.
    """
    if (key, kind) in _built:
        return _built[key, kind]
    shared = os.environ.get("LEXC_TEST_SHARED")
    if not shared:  # no conftest (a module run on its own by hand): build in this process
        data = formats.dumps(make())
        _built[key, kind] = formats.loads(data, backend=backend_of(kind))
        return _built[key, kind]
    path = Path(shared) / key
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            formats.save(make(), path)
    _built[key, kind] = formats.load(path, backend=backend_of(kind))
    return _built[key, kind]


def enable_built(enable_list, kind: str):
    """ENABLE in a format (``kind``: a format name, or ``NAME:pure`` for the pure path), built
    once per test run (see ``shared_build``)."""
    name = format_of(kind)
    return shared_build(f"enable.{name}", lambda: build(enable_list, name), kind)


@pytest.fixture(scope="session", params=LEXICON_KINDS)
def enable_lexicon(request, enable_list):
    """ENABLE in each registered format on each path, built once per session."""
    return enable_built(enable_list, request.param)


@pytest.fixture(params=[(f, s) for f in LEXICON_KINDS for s in sorted(SMALL)], ids=lambda p: f"{p[0]}-{p[1]}")
def small_lexicon(request, english):
    """(lexicon, word set) for every format (on each path) x hand-made list."""
    kind, name = request.param
    words = SMALL[name]
    lex = build_kind(from_words(words, english.alphabet, min_len=1), kind)
    return lex, {w.upper() for w in words}


def random_racks(seed: int, n: int, tiles: int, blanks: int) -> list[str]:
    """Racks drawn from the English bag (blanks added explicitly)."""
    counts = [9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1]
    bag = "".join(c * k for c, k in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", counts, strict=True))
    rng = random.Random(seed)
    return ["".join(rng.sample(bag, tiles - blanks)) + "?" * blanks for _ in range(n)]
