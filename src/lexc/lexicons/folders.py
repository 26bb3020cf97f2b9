"""An engine's data folder from a lexicon and a leave file (``lexc export --to magpie|quackle|
wolges DIR``, ``formats/folders.md``): the files the engine expects, where it looks for them,
so that it loads the lexicon as it is.

One function an engine says which files (relative path -> bytes) the folder holds, each
from lexc's own writers (``formats.magpie``, ``formats.quackle``, ``formats.kwg``, the leave
formats); ``export_folder`` opens the lexicon and the leaves once, checks the names, and
writes the folder atomically (``formats.folder.write_tree``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats import FormatError
from ..formats.folder import check_stem, check_target, write_tree
from ..plural import plural
from ..wordlist import MAX_LISTED_WORDS

if TYPE_CHECKING:
    from ..formats.base import LexiconBase
    from ..formats.leaves import LeaveTable, Rounding
    from ..ruleset import Ruleset


@dataclass
class Folder:
    """What an engine's folder holds and says: the files to write, the names the engine
    finds them by, the leaves' rounding and its warning, how to load it, and what else the
    report says (``extra``); ``kept`` lists files left as they were."""

    files: dict[str, bytes]
    lexicon: str
    leaves: str | None = None
    rounding: Rounding | None = None
    warning: str = ""
    command: str | None = None
    how: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Request:
    """One export: where, the lexicon and its ruleset, the leave table, the names asked for
    (``name``: --name) or taken from the files (``stem``, ``leaves_stem``), and the names of
    the inputs for messages."""

    out: Path
    lexicon: LexiconBase
    ruleset: Ruleset
    name: str | None
    stem: str
    table: LeaveTable | None
    leaves_stem: str | None
    source: str
    leaves: str | None


@contextmanager
def _naming(what: str) -> Iterator[None]:
    """Re-raise a writer's FormatError starting with ``what`` (the input it is about)."""
    try:
        yield
    except FormatError as exc:
        raise FormatError(f"{what}: {exc}") from None


def _leaves(req: Request, fmt: str, like: str = "") -> tuple[bytes, Rounding]:
    """The leave table as ``fmt``'s bytes (refusals name the leave file)."""
    from ..formats.leaves import write_leaves

    assert req.table is not None and req.leaves is not None
    with _naming(req.leaves):
        return write_leaves(req.table, fmt, req.ruleset, like)


def magpie(req: Request) -> Folder:
    """MAGPIE's ``-path`` folder (``formats.magpie``): ``lexica/NAME.kwg``, the leaves as
    ``lexica/LEAVES.klv2`` of every sub-rack, ``letterdistributions/RULESET.csv`` and
    ``layouts/standardN.txt``; NAME prefixed as MAGPIE needs to find the distribution."""
    from ..formats import magpie as mp

    name = check_stem(req.name or mp.lexicon_name(req.stem, req.ruleset), "lexicon name")
    leaves = check_stem(req.leaves_stem or name, "leaves name") if req.table is not None else None
    with _naming(req.source):
        files, _ = mp.folder_files(req.lexicon, req.ruleset, name)
    rounding = warning = None
    if req.table is not None:
        files[f"lexica/{leaves}.klv2"], rounding = _leaves(req, "klv2", like="magpie")
        files = {rel: files[rel] for rel in sorted(files, key=lambda rel: not rel.startswith("lexica/"))}
        if rounding.changed:
            warning = (f"{req.leaves}: MAGPIE keeps leave values in 1/1000 points: "
                       f"{plural(rounding.changed, 'value')} rounded, the largest error {rounding.largest:.6g} "
                       f"points ({rounding.leave})")
    return Folder(files, name, leaves, rounding, warning or "", mp.load_command(req.out, req.ruleset, name, leaves),
                  extra={"letter_distribution": req.ruleset.name, "layout": f"standard{req.ruleset.board_size}"})


def quackle(req: Request) -> Folder:
    """Quackle's data folder: ``lexica/NAME.dawg`` and ``lexica/NAME.gaddag`` (makeminidawg's
    and makegaddag's bytes, the same hash), ``alphabets/RULESET.quackle_alphabet`` (the
    letters in the ``.dawg``'s order; one already there with those letters is kept, one with
    others refused) and the leaves as ``strategy/NAME/superleaves``."""
    from ..formats.quackle import QuackleDawg, QuackleGaddag, quackle_labels
    from ..formats.quackle_alphabet import EXTENSION, alphabet_file, read_alphabet

    name = check_stem(req.name or req.stem, "lexicon name", dot=False)
    with _naming(req.source):
        dawg = QuackleDawg.write(req.lexicon, req.ruleset)
        gaddag = QuackleGaddag.write(req.lexicon, req.ruleset)
        alphabet = alphabet_file(req.ruleset)
    if dawg[1:17] != gaddag[1:17]:  # (the same words: the writers agree, or Quackle drops the .gaddag)
        raise FormatError(f"{req.source}: the .dawg's hash {dawg[1:17].hex()} is not the .gaddag's")
    files = {f"lexica/{name}.dawg": dawg, f"lexica/{name}.gaddag": gaddag}
    rel = f"alphabets/{req.ruleset.name}{EXTENSION}"
    there, kept = req.out / rel, []
    if there.is_file():
        theirs = read_alphabet(there.read_bytes(), os.fspath(there)).labels
        if theirs != quackle_labels(req.ruleset):
            raise FormatError(f"{there}: its letters ({' '.join(theirs)}) are not the {req.ruleset.name} ruleset's in "
                              f"the order {name}.dawg numbers them ({' '.join(quackle_labels(req.ruleset))}): Quackle "
                              "would misread the lexicon; write the folder elsewhere or move that file away")
        kept.append(rel)
    else:
        files[rel] = alphabet
    rounding, warning = None, ""
    if req.table is not None:
        where = f"strategy/{name}/superleaves"
        files[where], rounding = _leaves(req, "superleaves")
        warning = rounding.note(os.fspath(req.out / where))
    command = f"test --lexicon={name} --alphabet={req.ruleset.name}"
    how = (f"Quackle's test harness, run in a folder beside {os.fspath(req.out)}: it reads ../data"
           + ("" if req.out.name == "data" else f", so rename {os.fspath(req.out)} to data"))
    return Folder(files, name, name if req.table is not None else None, rounding, warning, command, how,
                  {"alphabet": req.ruleset.name, "kept": kept, "hash": dawg[1:17].hex()})


def wolges(req: Request) -> Folder:
    """wolges's file set: ``NAME.kwg`` (the KWG, wolges's tile order) and the leaves as
    ``NAME.klv2`` (wolges's KLV2), side by side: wolges finds a lexicon's leaves by its name."""
    from ..formats.foreign import get_foreign

    name = check_stem(req.name or req.stem, "lexicon name")
    with _naming(req.source):
        files = {f"{name}.kwg": get_foreign("kwg").write(req.lexicon, req.ruleset)}
    rounding, warning = None, ""
    if req.table is not None:
        files[f"{name}.klv2"], rounding = _leaves(req, "klv2")
        warning = rounding.note(os.fspath(req.out / f"{name}.klv2"))
    how = (f"wolges takes them by path or by name: its programs read lexbin/{name}.kwg and lexbin/{name}.klv2 where "
           "they run, wolges-wasm's server every NAME.kwg and NAME.klv2 of its data folder as NAME")
    return Folder(files, name, name if req.table is not None else None, rounding, warning, None, how)


ENGINES: dict[str, Callable[[Request], Folder]] = {"magpie": magpie, "quackle": quackle, "wolges": wolges}


def export_folder(engine: str, source: str | os.PathLike[str] | None, out: str | os.PathLike[str],
                  ruleset: str = "english", leaves: str | os.PathLike[str] | None = None, name: str | None = None,
                  max_words: int = MAX_LISTED_WORDS, progress: Callable[[str], None] | None = None,
                  warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Write ``engine``'s data folder (``ENGINES``: magpie, quackle, wolges) at ``out`` from
    a lexicon (a lexc file, another engine's, a word list read with ``ruleset``, or None: the
    bundled ENABLE) and a leave file ``leaves`` (any format ``lexc leaves`` reads); a report
    of the files and their sizes. ``name`` is the lexicon's (default: its file's stem, as the
    engine needs it); the folder is written atomically, into an existing folder file by file.
    Refused in one line before anything is written: a path that is not a folder, a leave
    file that is not one, a word or a value the engine's format cannot hold (naming it), a
    name that cannot name a file. ``warn`` is told once when the leaves' values were rounded."""
    from ..formats.leaves import read_leaves
    from ..ruleset import load_ruleset
    from .source import check_listable, lexicon_ruleset, open_lexicon

    started = time.perf_counter()
    build = ENGINES.get(engine)
    if build is None:
        raise FormatError(f"no data folder for {engine!r} (known: {', '.join(ENGINES)})")
    target = check_target(out)
    lexicon = open_lexicon(source, "dawg", ruleset, progress=progress)
    label = os.fspath(source) if source else "the bundled lexicon"
    check_listable(lexicon, label, max_words)
    rules = load_ruleset(lexicon_ruleset(lexicon, None)[0])  # (a lexicon keeps its ruleset; a list was read with -r)
    table = read_leaves(leaves, rules) if leaves is not None else None
    folder = build(Request(target, lexicon, rules, name, Path(source).name.split(".")[0] if source else "ENABLE",
                           table, Path(leaves).name.split(".")[0] if leaves is not None else None, label,
                           os.fspath(leaves) if leaves is not None else None))
    write_tree(target, folder.files)
    if warn is not None and folder.warning:
        warn(folder.warning)
    report: dict[str, Any] = {"output": os.fspath(out), "to": engine,
                              "files": {rel: len(data) for rel, data in folder.files.items()},
                              "lexicon": folder.lexicon, "leaves": folder.leaves, **folder.extra,
                              "rounding": folder.rounding.as_dict() if folder.rounding is not None else None,
                              "command": folder.command}
    if folder.how:
        report["how"] = folder.how
    report.update(source=os.fspath(source or ""), words=len(lexicon), seconds=round(time.perf_counter() - started, 3))
    return report


__all__ = ["ENGINES", "Folder", "Request", "export_folder", "magpie", "quackle", "wolges"]
