"""The compiled core: word-graph queries, the graph proof, whole-position move generation and
Shapiro & Smith's search, in C (C99, CPython limited API) over the formats' own arrays.

Wing 1 of the package, between the foundations and ``lexc.formats``: it imports only the
foundations, and the formats and the move generator call it through this module. It is
optional: ``pip install .`` builds it with the machine's compiler when there is one, and
lexc runs on the pure-Python path without it (which stays the reference: the tests hold the
two to identical answers). ``LEXC_PURE=1`` forces the pure path. The contract the C code
rests on, and how its results are laid out, is ``src/lexc/native/README.md``.
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
    _error = exc


def _missing_core() -> tuple[str, bool]:
    """Why the compiled core did not load, truthfully, and whether it was expected: its file
    is here but does not load, or the lexc installed in this environment has it while the
    lexc imported (a source tree on the path) does not."""
    from importlib.machinery import EXTENSION_SUFFIXES

    def compiled(name: str) -> bool:
        return name.startswith("_core.") and name.endswith(tuple(EXTENSION_SUFFIXES))

    here = os.path.dirname(os.path.abspath(__file__))
    if any(compiled(name) for name in os.listdir(here)):
        return f"does not load: {_error or type(_error).__name__}", True
    try:
        from importlib import metadata

        dist = metadata.distribution("lexc")
        built = [f for f in dist.files or () if compiled(f.name) and f.parent.name == "native"]
        installed = os.path.dirname(os.path.abspath(dist.locate_file(built[0]))) if built else ""
    except Exception:  # no installed distribution, or unreadable metadata: nothing was expected
        return "is not in this lexc (installed without a C compiler?)", False
    if not installed:
        return "was not built when this lexc was installed (no C compiler?)", False
    if installed != here:
        return f"is not in the lexc imported from {os.path.dirname(here)} (the installed one, in " \
               f"{os.path.dirname(installed)}, has it: is a source tree on the Python path?)", True
    return "is missing from this installation", True


if _core is None:
    UNAVAILABLE, _EXPECTED = _missing_core()
    if os.environ.get("LEXC_REQUIRE_CORE"):  # make sanitize: never a silent pure-Python run
        raise ImportError(f"LEXC_REQUIRE_CORE is set and the compiled core {UNAVAILABLE}")
    if _EXPECTED and os.environ.get("LEXC_PURE", "") in ("", "0"):  # said once, at import
        import sys

        print(f"lexc: warning: running on the pure-Python path (much slower): the compiled core {UNAVAILABLE}",
              file=sys.stderr)

# The core's typed exceptions (src/lexc/native/README.md, "Errors"), for Python code to catch:
# the extension's own classes, or (no core) Python classes of the same names, which the pure
# path never raises but which keep ``except native.AnswerCap`` valid everywhere.
if _core is not None:
    CoreError = _core.CoreError
    MalformedGraph = _core.MalformedGraph
    UnknownLayout = _core.UnknownLayout
    MalformedTable = _core.MalformedTable
    AnswerCap = _core.AnswerCap
    TooDeep = _core.TooDeep
    UnsupportedWord = _core.UnsupportedWord
else:
    from ..errors import LexcError

    class CoreError(LexcError, ValueError):  # type: ignore[no-redef]
        """An error the compiled core raises for a file or an input."""

    class MalformedGraph(CoreError):  # type: ignore[no-redef]
        """An edge array breaks a rule the core's walks rely on: (kind, index, value)."""

    class UnknownLayout(CoreError):  # type: ignore[no-redef]
        """An edge layout other than u32 and u64."""

    class MalformedTable(CoreError):  # type: ignore[no-redef]
        """An anagram trie's letter table is damaged: (kind, index, value)."""

    class AnswerCap(CoreError):  # type: ignore[no-redef]
        """More answers than the caller's cap: (count,)."""

    class TooDeep(CoreError):  # type: ignore[no-redef]
        """A path longer than any word: (index,)."""

    class UnsupportedWord(CoreError):  # type: ignore[no-redef]
        """A word the core does not count."""

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
