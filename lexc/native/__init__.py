"""The compiled core: word-graph queries, the graph proof, whole-position move generation and
Shapiro & Smith's search, in C (C99, CPython limited API) over the formats' own arrays.

Wing 1 of the package, between the foundations and ``lexc.formats``: it imports only the
foundations, and the formats and the move generator call it through this module. It is
optional: ``pip install .`` builds it with the machine's compiler when there is one, and
lexc runs on the pure-Python path without it (which stays the reference: the tests hold the
two to identical answers). ``LEXC_PURE=1`` forces the pure path. The contract the C code
rests on, and how its results are laid out, is ``lexc/native/README.md``.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

try:
    from . import _core
    UNAVAILABLE = ""
except ImportError as exc:  # no compiler at install time, or a host the core does not run on
    _core = None  # type: ignore[assignment]
    _built = any(name.startswith("_core.") and name.endswith((".so", ".pyd")) for name in os.listdir(os.path.dirname(__file__)))
    UNAVAILABLE = f"does not load: {exc or type(exc).__name__}" if _built else "was not built at install time"

if _core is None and os.environ.get("LEXC_REQUIRE_CORE"):  # make sanitize: never a silent pure-Python run
    raise ImportError(f"LEXC_REQUIRE_CORE is set and the compiled core {UNAVAILABLE}")

_enabled = os.environ.get("LEXC_PURE", "") in ("", "0")


def available() -> bool:
    """Whether the compiled core was built and imports."""
    return _core is not None


def enabled() -> bool:
    """Whether lexc uses the compiled core: available, and not turned off (``LEXC_PURE=1``,
    ``set_enabled(False)``). Lexicons loaded or built while it is off stay pure-Python."""
    return _core is not None and _enabled


def set_enabled(flag: bool) -> None:
    """Turn the compiled core on or off for the lexicons made from now on."""
    global _enabled
    _enabled = bool(flag)


@contextmanager
def pure() -> Iterator[None]:
    """Within the block, make lexicons on the pure-Python path (the reference)."""
    global _enabled
    before = _enabled
    _enabled = False
    try:
        yield
    finally:
        _enabled = before


def path_name() -> str:
    """The path in use, for ``lexc --version`` and ``lexc info``."""
    if enabled():
        return "compiled core (C)"
    if _core is not None:
        return "pure Python (LEXC_PURE=1)" if os.environ.get("LEXC_PURE", "") not in ("", "0") else "pure Python"
    return f"pure Python (the compiled core {UNAVAILABLE})"


def core():
    """The extension module (``lexc.native._core``), or None on the pure path."""
    return _core if enabled() else None
