"""Graph proofs remembered, by the SHA-256 of the payload they were made for.

Proving a loaded word graph (``graph.prove``) walks all of it: for ENABLE's GADDAG, 808,272
edges, tens of milliseconds even in the compiled core, most of it waiting on memory. The
container has already checked the payload's SHA-256 by then, so once a payload has been
proved (or written by lexc's own builder, which makes no other kind of graph), the same
bytes need no second walk: this module keeps one small file per proved payload in
``$LEXC_CACHE/proofs`` (default ``~/.cache/lexc/proofs``) holding the facts the proof
established (format, version, layout, and the counts it found), and a later load of those
bytes with the same header facts skips the walk. The structure checks that make every
index safe (``Dawg._check_structure`` or the compiled core's) still run on every load.
Another proof of a payload (``rereading``: its words read back as their tiles under the
header's alphabet) names its kind in its facts and has a file of its own.

A payload nobody proved before is always proved in full; a cache that cannot be read or
written is simply not used. ``LEXC_PROOF_CACHE=0`` turns it off (the tests of the loader run
with it off, so every proof they ask for is made).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

_SEEN: set[str] = set()  # this process's proofs (also when the cache directory is off)


def enabled() -> bool:
    """Whether proofs are remembered across processes."""
    return os.environ.get("LEXC_PROOF_CACHE", "1") not in ("0", "")


def _directory() -> Path:
    base = os.environ.get("LEXC_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "lexc")
    return Path(base) / "proofs"


def _key(facts: dict[str, Any]) -> str:
    return json.dumps(facts, sort_keys=True, separators=(",", ":"))


def _file(facts: dict[str, Any], directory: Path) -> Path:
    """The file of a proof: one per payload and kind of proof (``facts["proof"]``, when the
    facts name one: ``readback`` for ``rereading``; the graph's proof names none)."""
    kind = facts.get("proof")
    return directory / (f"{facts['payload_sha256']}.{kind}.json" if kind else f"{facts['payload_sha256']}.json")


def known(facts: dict[str, Any]) -> bool:
    """Whether a payload with these facts (``payload_sha256`` among them) was proved."""
    key = _key(facts)
    if key in _SEEN:
        return True
    if not enabled():
        return False
    path = _file(facts, _directory())
    try:
        with open(path, encoding="utf-8") as f:
            found = f.read(4096)
    except OSError:
        return False
    if found == key:
        _SEEN.add(key)
        return True
    return False


def remember(facts: dict[str, Any]) -> None:
    """Record a proof (a failure to write is ignored: the next load proves again)."""
    key = _key(facts)
    _SEEN.add(key)
    if not enabled():
        return
    directory = _directory()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = _file(facts, directory)
        tmp = directory / f".{path.name}.{os.getpid()}.part"
        tmp.write_text(key, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def forget_all() -> None:
    """Forget this process's proofs (the files on disk stay): for measuring a first load."""
    _SEEN.clear()
