"""The compiled core keeps its contract (issue 34): no call reads outside an array whatever it
is given, no width overflows, a Graph is immutable once built, errors cross the boundary as
typed exceptions, and the compiled path gives the pure path's answers where a review found it
did not. Each test here failed on the code before its fix (the ones about memory under
``make sanitize``, which runs this module under AddressSanitizer and UBSan)."""

from __future__ import annotations

import re
from pathlib import Path

NATIVE = Path(__file__).resolve().parent.parent / "src" / "lexc" / "native"


# -- compiler builtins are guarded (portable C99) ------------------------------------------------

def _unguarded_builtins(text: str) -> list[str]:
    """Lines using a GCC/Clang builtin or attribute outside a ``#if`` that tests
    ``__GNUC__`` or ``__clang__`` (in its positive branch)."""
    stack: list[str] = []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        directive = line.strip()
        if re.match(r"#\s*if", directive):
            stack.append(directive if not re.match(r"#\s*ifndef", directive) else "")
        elif re.match(r"#\s*elif", directive):
            stack[-1] = directive
        elif re.match(r"#\s*else", directive):
            stack[-1] = ""
        elif re.match(r"#\s*endif", directive):
            stack.pop()
        elif "__builtin_" in line or "__attribute__" in line:
            if not any("__GNUC__" in cond or "__clang__" in cond for cond in stack):
                found.append(f"{number}: {directive}")
    return found


def test_compiler_builtins_are_guarded_with_portable_fallbacks():
    """Every GCC builtin sits behind a compiler guard (core.h's macros), so that a C99
    compiler without them still builds the core."""
    sources = sorted(NATIVE.glob("*.[ch]")) + sorted(NATIVE.glob("*.inc"))
    assert len(sources) >= 6
    unguarded = {path.name: _unguarded_builtins(path.read_text()) for path in sources}
    assert {name: lines for name, lines in unguarded.items() if lines} == {}
    core_h = (NATIVE / "core.h").read_text()
    assert "#else" in core_h.split("LEXC_LIKELY", 1)[1]  # a fallback beside the builtin


# -- typed exceptions from C -------------------------------------------------------------------

import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from lexc import formats, native  # noqa: E402
from lexc.errors import LexcError  # noqa: E402
from lexc.ruleset import load_ruleset  # noqa: E402
from lexc.wordlist import from_words  # noqa: E402

needs_core = pytest.mark.skipif(not native.enabled(), reason="the compiled core is not in use")
ENGLISH = load_ruleset("english")
ERRORS = ("CoreError", "MalformedGraph", "UnknownLayout", "MalformedTable", "AnswerCap", "TooDeep", "UnsupportedWord")


def u32(letter: int, terminal: bool, last: bool, child: int) -> bytes:
    """One little-endian edge of the u32 layout."""
    return (letter << 24 | terminal << 23 | last << 22 | child).to_bytes(4, "little")


# a DAWG of CAT and AT (C=3, A=1, T=20): root pointer, root list, and the lists below
CAT = b"".join((u32(0, False, True, 1),
                u32(1, False, False, 3), u32(3, False, True, 4),   # root: A -> 3, C -> 4
                u32(20, True, True, 0),                           # 3: T (AT)
                u32(1, False, True, 3)))                          # 4: A -> 3 (CAT)


def graph(edges: bytes = CAT, letters: int = 26, pointers: int = 1, separator: bool = False, extra: bytes = b""):
    """The core's Graph over a u32 edge array."""
    return native.core().Graph(edges, False, 24, 23, 22, 22, letters, pointers, separator, extra, bytes(256))


@needs_core
def test_the_core_raises_typed_exceptions_beneath_lexc_error():
    """Errors a file or an input can cause cross the boundary as classes (not tuples to unpack),
    each beneath lexc.errors.LexcError, the same classes ``lexc.native`` exports."""
    core = native.core()
    for name in ERRORS:
        cls = getattr(core, name)
        assert cls is getattr(native, name) and issubclass(cls, LexcError) and issubclass(cls, native.CoreError)
        assert cls.__module__ == "lexc.native._core"
    bad = CAT[:8] + u32(3, False, True, 99) + CAT[12:]  # a child outside the array
    with pytest.raises(native.MalformedGraph) as caught:
        graph(bad)
    assert (caught.value.kind, caught.value.index, caught.value.value) == ("child", 2, 99)
    with pytest.raises(native.AnswerCap) as capped:
        graph().anagram(0, b"\x01\x03\x14", 0, True, 1)  # CAT, AT, ... past a cap of one answer
    assert capped.value.count == 2
    lexicon = formats.build(from_words(["CAT", "TAC"], ENGLISH.alphabet), "anatrie", "english")
    data = bytes(lexicon.file.data)
    with pytest.raises(native.MalformedTable) as damaged:  # the table cut short: a record runs past its end
        core.findwords(data[: len(data) // 2], 0 if lexicon.disk == "pascal" else 1, b"", 3, bytes(lexicon.rank),
                       lexicon._made, 26)
    assert damaged.value.kind == "past" and isinstance(damaged.value.index, int)


def test_the_error_names_exist_on_the_pure_path():
    """Without the compiled core (its module cannot be imported), ``lexc.native`` still
    defines the classes, so every ``except native.AnswerCap`` stays valid."""
    code = ("import sys; sys.modules['lexc.native._core'] = None\n"
            "from lexc import native, formats\n"
            "from lexc.errors import LexcError\n"
            f"names = {ERRORS!r}\n"
            "assert native.core() is None\n"
            "assert all(issubclass(getattr(native, n), native.CoreError) for n in names)\n"
            "assert issubclass(native.CoreError, LexcError)\n"
            "from lexc.wordlist import from_words\n"
            "from lexc.ruleset import load_ruleset\n"
            "d = formats.build(from_words(['CAT'], load_ruleset('english').alphabet), 'dawg', 'english')\n"
            "assert 'CAT' in d and d.anagrams('TAC') == ['CAT']\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**__import__("os").environ, "LEXC_PURE": "1"})
    assert done.returncode == 0, done.stderr
