"""The compiled core and the one seam to it: word-graph queries, the graph proof, whole-position
move generation, Shapiro & Smith's search, the minimizer and Zyzzyva's combinations, in C
(C99, CPython limited API) over the formats' own arrays, each beside its pure-Python reference.

Wing 1 of the package, between the foundations and ``lexc.formats``: it imports only the
foundations. The choice between the compiled core and the pure path is made here, once per
lexicon: ``select()`` gives the backend a lexicon keeps (``lexc.native.backend``), and the
formats, the move generator and the searches hand it every hot operation without asking which
it is. The core is optional: ``pip install .`` builds it with the machine's compiler when there
is one, and lexc runs on the pure-Python backend without it (the reference: the tests hold the
two to identical answers). ``LEXC_PURE=1`` makes ``select()`` choose the pure backend; a
program asks for one with ``select(pure=True)`` (no process-wide switch). The contract the C
code rests on, and how its results are laid out, is ``src/lexc/native/README.md``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

_core: Any  # the compiled module (lexc.native._core), or None when it does not load
try:
    from . import _core
    UNAVAILABLE = ""
except ImportError as exc:  # no compiler at install time, or a host the core does not run on
    _core = None
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
        installed = os.path.dirname(os.path.abspath(str(dist.locate_file(built[0])))) if built else ""
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

from .backend import Backend, CompiledBackend, GraphSpec, Position, Weighed, Weights  # noqa: E402
from .errors import (  # noqa: E402
    AnswerCap,
    CoreError,
    MalformedGraph,
    MalformedTable,
    TooDeep,
    UnknownLayout,
    UnsupportedWord,
)

__all__ = ["COMPILED", "PURE", "AnswerCap", "Backend", "CoreError", "GraphSpec", "MalformedGraph",
           "MalformedTable", "Member", "Position", "PureMember", "TooDeep", "UnknownLayout",
           "UnsupportedWord", "Weighed", "Weights", "available", "keep_heap", "path_name", "select"]

PURE: Backend = Backend()  # the pure-Python backend (the reference)
COMPILED: CompiledBackend | None = CompiledBackend(_core) if _core is not None else None


def available() -> bool:
    """Whether the compiled core was built and imports."""
    return _core is not None


def _pure_asked() -> bool:
    """Whether the environment asks for the pure path (``LEXC_PURE=1``)."""
    return os.environ.get("LEXC_PURE", "") not in ("", "0")


def select(pure: bool | None = None) -> Backend:
    """The backend for a lexicon being made: the compiled core when it is available, unless
    ``pure`` (or, when ``pure`` is None, ``LEXC_PURE=1``) asks for the pure-Python reference.
    The one place the choice is made; a lexicon keeps what it was given."""
    if pure is None:
        pure = _pure_asked()
    return PURE if pure or COMPILED is None else COMPILED


class PureMember:
    """The base of the lexicons searched in place (word graphs, prefix sets) where the compiled
    core is not built: ``word in lexicon`` is the lexicon's ``_contains`` (the core's
    ``Member`` answers it in C)."""

    def _bind_store(self, store: Any) -> None:
        """Nothing to bind: ``_contains`` reads the lexicon's own store."""

    def __contains__(self, word: object) -> bool:
        return bool(self._contains(word))  # type: ignore[attr-defined]


if TYPE_CHECKING:
    Member = PureMember
else:  # the core's base class: its sq_contains slot searches the bound graph or key set with no Python call
    Member = _core.Member if _core is not None else PureMember


def keep_heap() -> bool:
    """Ask the C library's allocator to keep freed memory for reuse (glibc: buffers of up to
    32 MB from the heap, up to 64 MB of it kept), for a short process that makes big buffers
    again and again; whether it did. The command line asks at its start; a library user's
    process is left as it is. Nothing happens without the compiled core."""
    return bool(_core.keep_heap()) if _core is not None else False


def path_name() -> str:
    """The backend ``select()`` gives, for ``lexc --version`` and ``lexc info``."""
    if select() is COMPILED:
        return "compiled core (C)"
    if _core is not None:
        return "pure Python (LEXC_PURE=1)"
    return f"pure Python (the compiled core {UNAVAILABLE})"
