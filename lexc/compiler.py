"""The compiler: word list in, checked lexicon file out, and the reports about it.

``compile_file`` is what ``lexc build`` runs; ``describe`` is ``lexc info``; ``verify`` is
``lexc verify``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

from . import formats
from .formats import FormatError, LexiconBase, container
from .source import read_list
from .wordlist import WordList, digest


def default_output(wordlist: str | os.PathLike, format: str) -> Path:
    """``words.txt`` -> ``words.<format>`` in the current directory."""
    return Path(Path(wordlist).stem + "." + format)


def compile_file(
    wordlist: str | os.PathLike,
    format: str = "dawg",
    ruleset: str = "english",
    out: str | os.PathLike | None = None,
    *,
    min_len: int = 2,
    max_len: int | None = None,
    skip_invalid: bool = False,
    options: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Read, build and atomically write one lexicon; return the build report."""
    started = time.perf_counter()
    if progress:
        progress("reading")
    words = read_list(wordlist, ruleset, min_len=min_len, max_len=max_len, skip_invalid=skip_invalid)
    read_s = time.perf_counter() - started
    if progress:
        progress("building")
    t = time.perf_counter()
    lexicon = formats.build(words, format, ruleset, **(options or {}))
    build_s = time.perf_counter() - t
    if progress:
        progress("writing")
    out = Path(out) if out is not None else default_output(wordlist, format)
    list_options = {"min_len": min_len, "max_len": max_len, "skip_invalid": skip_invalid}
    size = formats.save(lexicon, out, list_options)
    report: dict[str, Any] = {"output": str(out), "format": format, "ruleset": ruleset, **words.report()}
    report.update({k: v for k, v in lexicon.stats().items()})
    report.update({"file_bytes": size, "bytes_per_word": round(size / len(words), 3),
                   "read_seconds": round(read_s, 4), "build_seconds": round(build_s, 4),
                   "seconds": round(time.perf_counter() - started, 4)})
    report["rejected_words"] = [{"line": r.line, "text": r.text, "reason": r.reason} for r in words.rejected]
    return report


def describe(lexicon: LexiconBase, path: str | os.PathLike | None = None) -> dict[str, Any]:
    """Header and size figures of a lexicon, for ``lexc info``."""
    stats = lexicon.stats()
    header = getattr(lexicon, "header", {})
    compiled = path is not None and container.looks_like_container(path)
    file_bytes = Path(path).stat().st_size if compiled else None
    return {
        "path": str(path) if path is not None else None,
        "format": lexicon.name,
        "format_version": lexicon.version,
        "description": lexicon.description,
        "words": lexicon.word_count,
        "nodes": stats.get("nodes", 0),
        "edges": stats.get("edges", 0),
        "payload_bytes": stats.get("bytes", 0),
        "bytes": file_bytes if file_bytes is not None else len(formats.dumps(lexicon)),
        "alphabet": list(lexicon.alphabet.labels),
        "ruleset": getattr(lexicon, "ruleset", ""),
        "options": dict(lexicon.build_options),
        "capabilities": lexicon.capabilities.names(),
        "wordlist_sha256": getattr(lexicon, "wordlist_sha256", ""),
        "payload_sha256": header.get("payload_sha256", ""),
        "lexc_version": header.get("lexc_version", ""),
        "meta": header.get("meta", lexicon.meta()),
        "stats": stats,
    }


def verify(lexicon: LexiconBase, against: WordList | None = None) -> dict[str, Any]:
    """Check a loaded lexicon's invariants, its word count and checksum of its words, and
    (with ``against``) that it holds exactly the words of a list."""
    problems = list(lexicon.check())
    words = list(lexicon.iter_codes())
    if len(words) != lexicon.word_count:
        problems.append(f"enumerates {len(words)} words, header says {lexicon.word_count}")
    if any(a >= b for a, b in zip(words, words[1:])):
        problems.append("words do not come out in strictly increasing order")
    sha = digest(words, lexicon.alphabet)
    recorded = getattr(lexicon, "wordlist_sha256", "")
    if recorded and sha != recorded:
        problems.append("the words' SHA-256 differs from the one recorded at build time")
    result: dict[str, Any] = {"words": len(words), "wordlist_sha256": sha}
    if against is not None:
        mine, theirs = set(words), set(against.words)
        only_file, only_list = sorted(mine - theirs), sorted(theirs - mine)
        decode = lexicon.alphabet.decode
        result["only_in_file"] = [decode(w) for w in only_file[:20]]
        result["only_in_list"] = [decode(w) for w in only_list[:20]]
        if only_file or only_list:
            problems.append(f"{len(only_file)} words only in the file, {len(only_list)} only in the list")
    result["problems"] = problems
    result["ok"] = not problems
    return result


__all__ = ["FormatError", "compile_file", "default_output", "describe", "verify"]
