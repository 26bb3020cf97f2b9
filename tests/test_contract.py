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
