"""The engines' own files, read where they are: ``../shared/interop/`` beside the repository
(``LEXC_INTEROP`` points elsewhere). Nothing of them is copied into the tree (their
``MANIFEST.md`` files say which engine, commit and command wrote each). A missing folder is a
failure, not a skip: the cross-checks against the engines are part of what the suite proves.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def interop_dir() -> Path:
    """Where the engines' files are: $LEXC_INTEROP, else ../shared/interop beside the repository."""
    given = os.environ.get("LEXC_INTEROP")
    return Path(given) if given else ROOT.parent / "shared" / "interop"


def engine_file(*parts: str) -> Path:
    """A file the engines wrote (``engine_file("wolges", "tiny.kwg")``); the test fails, saying
    where it looked, when it is not there."""
    path = interop_dir().joinpath(*parts)
    if not path.is_file():
        pytest.fail(f"{path}: not found (the engines' files are read in place from ../shared/interop; "
                    "set LEXC_INTEROP to their folder)")
    return path


def engine_bytes(*parts: str) -> bytes:
    """A file's bytes, a ``.gz`` one decompressed."""
    path = engine_file(*parts)
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def engine_lines(*parts: str) -> list[str]:
    """An engine's listing (one item a line, LF), a ``.gz`` one decompressed."""
    return engine_bytes(*parts).decode("utf-8").splitlines()
