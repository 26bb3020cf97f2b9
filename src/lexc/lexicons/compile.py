"""The compiler: word list in, checked lexicon file out, and the reports about it.

``compile_file`` is what ``lexc build`` runs, ``compile_all`` is ``lexc build -f all``,
``convert_file`` is ``lexc convert``, ``edit_file`` is ``lexc edit``; ``describe`` is ``lexc info``;
``verify`` is ``lexc verify``.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .. import formats
from ..formats import FORMATS, Capability, FormatError, LexiconBase, container, rotations
from ..plural import plural
from ..ruleset import load_ruleset
from ..wordlist import MAX_LISTED_WORDS, WordList, digest
from .source import check_listable, read_list

if TYPE_CHECKING:
    from ..formats.gaddag import Gaddag


def default_output(wordlist: str | os.PathLike[str], format: str) -> Path:
    """``words.txt`` -> ``words.<format>`` in the current directory."""
    return Path(Path(wordlist).stem + "." + format)


def compile_file(
    wordlist: str | os.PathLike[str],
    format: str = "dawg",
    ruleset: str = "english",
    out: str | os.PathLike[str] | None = None,
    *,
    min_len: int = 2,
    max_len: int | None = None,
    skip_invalid: bool = False,
    options: dict[str, Any] | None = None,
    progress: Callable[..., None] | None = None,
    source: str = "list",
    max_words: int = MAX_LISTED_WORDS,
) -> dict[str, Any]:
    """Read, build and atomically write one lexicon; return the build report. ``source``:
    ``list`` (a plain word list) or ``kwg`` (the words of a KWG file, refused if it spells
    more than ``max_words``).

    ``progress`` (if given) is called at the start of each of 3 stages: ``reading``,
    ``building FORMAT``, ``writing FORMAT``; during a build that reports its progress (the
    GADDAG family), again with the stage and the share of it done, ``progress(stage, 0.4)``.
    """
    started = time.perf_counter()
    list_options = {"min_len": min_len, "max_len": max_len, "skip_invalid": skip_invalid}
    words, read_s = _read(wordlist, ruleset, list_options, progress, source, max_words)
    out = Path(out) if out is not None else default_output(wordlist, format)
    report = build_and_save(words, format, ruleset, out, list_options, options or {}, progress)
    report["read_seconds"] = round(read_s, 4)
    report["seconds"] = round(time.perf_counter() - started, 4)
    return _with_rejects(report, words)


def compile_all(
    wordlist: str | os.PathLike[str],
    ruleset: str = "english",
    out_dir: str | os.PathLike[str] | None = None,
    *,
    names: Iterable[str] | None = None,
    min_len: int = 2,
    max_len: int | None = None,
    skip_invalid: bool = False,
    options: dict[str, Any] | None = None,
    progress: Callable[..., None] | None = None,
    source: str = "list",
    max_words: int = MAX_LISTED_WORDS,
) -> list[dict[str, Any]]:
    """Read a word list once and build and atomically write it in several formats.

    ``names`` defaults to every registered format, in registry order. Each file is
    ``<wordlist stem>.<format>`` in ``out_dir`` (created if missing; default: the current
    directory). ``options`` go only to the formats that have them (e.g. ``layout``).
    Returns one report per format, each shaped like ``compile_file``'s, except that
    ``seconds`` is that format's build and write time (the shared read is ``read_seconds``).
    ``progress`` is called at the start of each of ``1 + 2 * len(names)`` stages:
    ``reading``, then ``building FORMAT`` and ``writing FORMAT`` per format (and with the
    share done, as for ``compile_file``).

    If a format fails, a ``FormatError`` names it and the files already written, which
    stay: each is complete, since every file is written atomically.
    """
    names = list(FORMATS if names is None else names)
    for name in names:
        formats.get_format(name)  # unknown names fail before any work
    directory = Path(out_dir) if out_dir is not None else Path(".")
    if directory.exists() and not directory.is_dir():
        raise FormatError(f"{directory}: not a directory (the output of several formats goes into a directory)")
    list_options = {"min_len": min_len, "max_len": max_len, "skip_invalid": skip_invalid}
    words, read_s = _read(wordlist, ruleset, list_options, progress, source, max_words)
    for name in names:  # bad options fail before anything is written
        FORMATS[name].check_options({k: v for k, v in (options or {}).items() if k in FORMATS[name].options},
                                    words.alphabet, ruleset)
    directory.mkdir(parents=True, exist_ok=True)
    reports: list[dict[str, Any]] = []
    for name in names:
        started = time.perf_counter()
        own = {k: v for k, v in (options or {}).items() if k in FORMATS[name].options}
        out = directory / default_output(wordlist, name)
        try:
            report = build_and_save(words, name, ruleset, out, list_options, own, progress)
        except (FormatError, OSError) as exc:
            done = ", ".join(r["output"] for r in reports) or "none"
            raise FormatError(f"{name}: {exc} (written before it: {done})") from exc
        report["read_seconds"] = round(read_s, 4)
        report["seconds"] = round(time.perf_counter() - started, 4)
        reports.append(_with_rejects(report, words))
    return reports


def _refuse_compiled(path: str | os.PathLike[str]) -> None:
    """A one-line FormatError for a compiled lexicon (lexc's or an engine's) given where a word
    list is read, saying what reads it instead (``lexc convert``; a KWG's words with
    ``--from kwg``), not what a word list's reader makes of its bytes."""
    from ..formats.foreign import recognise

    name = os.fspath(path)
    if container.looks_like_container(path):
        raise FormatError(f"{name}: a compiled lexc lexicon, not a word list: lexc convert {name} -f FORMAT makes "
                          "another format from it")
    engine = recognise(path)
    if engine is None:
        return
    if engine.holds != "words":
        raise FormatError(f"{name}: a {engine.name} file ({engine.engine}) holds {engine.holds}, not a word list")
    if engine.kind != "lexicon":
        raise FormatError(f"{name}: a {engine.name} file ({engine.engine}), not a word list: read it with "
                          f"'lexc leaves {name}'")
    also = " (or lexc build --from kwg)" if engine.name == "kwg" else ""
    raise FormatError(f"{name}: a {engine.name} file ({engine.engine}), not a word list: lexc convert {name} -f "
                      f"FORMAT reads it{also}")


def _read(wordlist: str | os.PathLike[str], ruleset: str, list_options: dict[str, Any],
          progress: Callable[..., None] | None, source: str = "list",
          max_words: int = MAX_LISTED_WORDS) -> tuple[WordList, float]:
    """Read and normalize a word list (``source="kwg"``: the words of a KWG file); (the
    list, seconds taken)."""
    started = time.perf_counter()
    if progress:
        progress("reading")
    if source == "kwg":
        from ..formats.kwg import read_kwg_file

        rules = load_ruleset(ruleset)
        try:
            words = read_kwg_file(wordlist, rules.alphabet, max_words, board_size=rules.board_size, **list_options)
        except FormatError as exc:  # a file of another kind says what it looks like
            from ..formats.foreign import recognise

            other = recognise(wordlist)
            if other is None or other.name == "kwg":
                raise
            raise FormatError(f"{exc}; it looks like a {other.name} file ({other.engine})") from None
    else:
        _refuse_compiled(wordlist)
        words = read_list(wordlist, ruleset, **list_options)
    return words, time.perf_counter() - started


def build_and_save(words: WordList, format: str, ruleset: str, out: Path, list_options: dict[str, Any],
                    options: dict[str, Any], progress: Callable[..., None] | None,
                    expect_sha256: str | None = None, with_counts: bool = True) -> dict[str, Any]:
    """Build one format from read words and write it atomically; the report, without the
    reading's timings. ``with_counts`` adds the word list's counts (duplicates, rejected...).
    With ``expect_sha256``, refuse (before writing) a lexicon whose words do not digest to it."""
    if progress:
        progress(f"building {format}")
    t = time.perf_counter()
    lexicon = formats.build(words, format, ruleset, **options, progress=_share_of(progress, f"building {format}"))
    build_s = time.perf_counter() - t
    if expect_sha256 is not None:
        produced = digest(list(lexicon.iter_codes()), lexicon.alphabet)
        if lexicon.wordlist_sha256 != expect_sha256 or produced != expect_sha256:
            raise FormatError(f"the {format} lexicon built from {words.source} does not hold the same words "
                              f"(SHA-256 {produced[:12]}..., expected {expect_sha256[:12]}...); nothing written")
    if progress:
        progress(f"writing {format}")
    size = formats.save(lexicon, out, list_options)
    report: dict[str, Any] = {"output": str(out), "format": format, "ruleset": ruleset}
    report.update(words.report() if with_counts else {"words": len(words)})
    report.update(lexicon.stats())
    report.update({"file_bytes": size, "bytes_per_word": round(size / len(words), 3) if len(words) else None,
                   "build_seconds": round(build_s, 4)})
    return report


def _share_of(progress: Callable[..., None] | None, stage: str) -> Callable[[float], None] | None:
    """``progress(stage, share)`` as a callback of the share alone, for a ``progress`` that
    takes the share (``lexc build``'s bar); None for one that takes only the stage."""
    if progress is None:
        return None
    import inspect

    try:
        inspect.signature(progress).bind(stage, 0.0)
    except (TypeError, ValueError):
        return None
    return lambda done: progress(stage, done)


def _with_rejects(report: dict[str, Any], words: WordList) -> dict[str, Any]:
    """The report with the rejected words listed last."""
    report["rejected_words"] = [{"line": r.line, "text": r.text, "reason": r.reason} for r in words.rejected]
    return report


def describe(lexicon: LexiconBase, path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Header and size figures of a lexicon, for ``lexc info``."""
    stats = lexicon.stats()
    header = getattr(lexicon, "header", {})
    foreign = getattr(lexicon, "file_layout", None)  # another engine's file: its format's name ("kwg", "lxd", ...)
    compiled = path is not None and (foreign is not None or container.looks_like_container(path))
    file_bytes = Path(path).stat().st_size if compiled and path is not None else None
    layout = foreign if foreign is not None else "lexc" if compiled else None  # None: a list compiled in memory
    fields = getattr(lexicon, "file_fields", None)  # what such a file records beside its words (a title, a date)
    return {
        "path": str(path) if path is not None else None,
        "format": lexicon.name,
        "file_layout": layout,
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
        "engine": lexicon.engine,
        "wordlist_sha256": getattr(lexicon, "wordlist_sha256", ""),
        "payload_sha256": header.get("payload_sha256", ""),
        "lexc_version": header.get("lexc_version", ""),
        "meta": header.get("meta", lexicon.meta()),
        "stats": stats,
        **({"file_fields": dict(fields)} if fields else {}),
    }


def verify(lexicon: LexiconBase, against: WordList | None = None, max_words: int = MAX_LISTED_WORDS,
           path: str | os.PathLike[str] = "") -> dict[str, Any]:
    """Check a loaded lexicon's invariants, its word count and checksum of its words, and
    (with ``against``) that it holds exactly the words of a list. A lexicon of more than
    ``max_words`` words is refused (FormatError) before its words are listed."""
    check_listable(lexicon, path or "lexicon", max_words)
    problems = list(lexicon.check())
    if problems:  # a structure that fails its invariants is not walked for its words
        return {"words": None, "wordlist_sha256": None, "problems": problems, "ok": False}
    words = list(lexicon.iter_codes())
    if len(words) != lexicon.word_count:
        problems.append(f"enumerates {plural(len(words), 'word')}, header says {lexicon.word_count}")
    if any(a >= b for a, b in itertools.pairwise(words)):
        problems.append("words do not come out in strictly increasing order")
    elif Capability.GADDAG in lexicon.capabilities:  # its strings are exactly the rotations of the words
        finding = rotations.prove(cast("Gaddag", lexicon), words)  # (the capability: a GADDAG's primitives)
        if finding is not None:
            problems.append(finding)
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
            problems.append(f"{plural(len(only_file), 'word')} only in the file, {len(only_list)} only in the list")
    result["problems"] = problems
    result["ok"] = not problems
    return result


__all__ = ["FormatError", "build_and_save", "compile_all", "compile_file", "default_output", "describe", "verify"]
