"""An engine's data folder written atomically: a set of files at paths relative to one
folder (``formats/folders.md``), the way ``lexc export --to magpie|quackle|wolges`` writes it.

A folder that does not exist is made whole beside its place (``.NAME.part-*``) and renamed
into it, so it is either absent or complete; into a folder that exists (an engine's data
folder holding other lexica), each file is written to a temporary file beside it and renamed
over its name, and nothing else in the folder is touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from .errors import FormatError


def check_target(out: str | os.PathLike[str]) -> Path:
    """``out`` as a Path, refused in one line when something that is not a folder is there."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise FormatError(f"{target}: exists and is not a folder")
    return target


def check_stem(name: str, what: str = "name", dot: bool = True) -> str:
    """A name an engine finds a file by (``NAME.kwg``, ``strategy/NAME/``): refused in one
    line when empty, ``.`` or ``..``, or holding a path separator, a control character, or
    (without ``dot``) a dot (Quackle's file lists cut a name at its first dot)."""
    banned = "/\\" if dot else "/\\."
    bad = next((c for c in name if c in banned or ord(c) < 0x20 or c == "\x7f"), None)
    if not name or name in (".", "..") or bad is not None:
        why = f"holds {bad!r}" if bad is not None else "is not a file name"
        rule = "no slash or control character" if dot else "no dot, slash or control character"
        raise FormatError(f"the {what} {name!r} {why}: it names files in the folder ({rule})")
    return name


def write_tree(out: str | os.PathLike[str], files: Mapping[str, bytes]) -> None:
    """Write ``files`` (relative POSIX path -> bytes) under the folder ``out``, atomically:
    a new folder whole, renamed into place; into an existing folder, each file renamed over
    its name, nothing else touched. A FormatError when ``out`` is not a folder, a
    FileNotFoundError when its parent is missing."""
    from .container import write_atomic

    target = check_target(out)
    for rel in files:
        parts = PurePosixPath(rel).parts
        if PurePosixPath(rel).is_absolute() or ".." in parts or not parts:
            raise ValueError(f"{rel!r}: not a path inside the folder")
    if target.is_dir():
        for rel, data in files.items():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target / rel, data)
        return
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise FileNotFoundError(2, "no such directory", str(parent))
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.part-", dir=parent))
    try:
        for rel, data in files.items():
            (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
            (scratch / rel).write_bytes(data)
        os.chmod(scratch, 0o755)
        os.rename(scratch, target)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


__all__ = ["check_stem", "check_target", "write_tree"]
