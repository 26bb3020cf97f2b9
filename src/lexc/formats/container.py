"""The file container every format is saved in (specified byte by byte in formats/README.md).

    offset  size  field
    0       8     magic  89 4C 58 43 0D 0A 1A 0A  ("\\x89LXC\\r\\n\\x1a\\n")
    8       2     container version, u16 little-endian (1)
    10      2     flags, u16 (0; any other value is rejected)
    12      4     header length H, u32
    16      4     CRC-32 of the header bytes, u32
    20      4     reserved, u32 (0)
    24      H     header: a msgpack map (see HEADER_KEYS)
    24+H    P     zero padding so the payload starts at a multiple of 8
    24+H+P  N     payload, N = header["payload_bytes"]; the file ends there

Everything is checked before anything is used: magic, version, flags, sizes (the file must
be exactly as long as the header says), header CRC, header keys and types, and the SHA-256
of the payload. Any failure raises ``FormatError`` with a one-line reason.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import mmap
import os
import stat
import struct
import zlib
from pathlib import Path
from typing import Any

import msgpack

from ..alphabet import MAX_LABEL, MAX_LETTERS
from ..limits import MAX_RULESET_TEXT
from ..plural import plural
from . import schema
from .errors import FormatError

MAGIC = b"\x89LXC\r\n\x1a\n"
CONTAINER_VERSION = 1
PRELUDE = struct.Struct("<8sHHIII")
ALIGN = 8
MAX_WORDS = 2**40  # a header word count above this is corruption, not a lexicon

# key -> accepted type(s); every key is required
HEADER_KEYS: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "format_version": int,
    "alphabet": list,
    "ruleset": str,
    "words": int,
    "options": dict,
    "wordlist_sha256": str,
    "payload_bytes": int,
    "payload_sha256": str,
    "lexc_version": str,
    "meta": dict,
}


def pack(header: dict[str, Any], payload: bytes) -> bytes:
    """The complete file bytes for a header (payload fields are filled in here) and payload."""
    header = dict(header)
    header["payload_bytes"] = len(payload)
    header["payload_sha256"] = hashlib.sha256(payload).hexdigest()
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise ValueError(f"header lacks {missing}")
    ordered = {k: header[k] for k in HEADER_KEYS}  # fixed key order: deterministic bytes
    raw = msgpack.packb(ordered, use_bin_type=True)
    pad = -(PRELUDE.size + len(raw)) % ALIGN
    prelude = PRELUDE.pack(MAGIC, CONTAINER_VERSION, 0, len(raw), zlib.crc32(raw), 0)
    return b"".join((prelude, raw, b"\0" * pad, payload))


def unpack(data: bytes | memoryview | mmap.mmap, name: str = "file") -> tuple[dict[str, Any], memoryview]:
    """Check a file's bytes and return (header, payload). FormatError on any defect."""
    view = memoryview(data)
    if len(view) < PRELUDE.size:
        if bytes(view[: len(MAGIC)]) != MAGIC[: len(view)] or not len(view):
            raise FormatError(f"{name}: not a lexc file ({plural(len(view), 'byte')}, no lexc magic)")
        raise FormatError(f"{name}: truncated ({plural(len(view), 'byte')}, shorter than the {PRELUDE.size}-byte "
                          "prelude)")
    magic, version, flags, hlen, hcrc, reserved = PRELUDE.unpack_from(view)
    if magic != MAGIC:
        raise FormatError(f"{name}: not a lexc file (bad magic)")
    if version != CONTAINER_VERSION:
        raise FormatError(f"{name}: container version {version} is not supported (this lexc reads {CONTAINER_VERSION})")
    if flags or reserved:
        raise FormatError(f"{name}: unknown container flags {flags:#x}/{reserved:#x}")
    if PRELUDE.size + hlen > len(view):
        raise FormatError(f"{name}: truncated (header of {plural(hlen, 'byte')} runs past the end of the "
                          f"{len(view)}-byte file)")
    raw = view[PRELUDE.size : PRELUDE.size + hlen]
    if zlib.crc32(raw) != hcrc:
        raise FormatError(f"{name}: header checksum mismatch (corrupt header)")
    header = _decode_header(raw, name)
    start = PRELUDE.size + hlen + (-(PRELUDE.size + hlen) % ALIGN)
    end = start + header["payload_bytes"]
    if end != len(view):
        what = "truncated" if end > len(view) else "trailing bytes after the payload"
        raise FormatError(f"{name}: {what} (expected {plural(end, 'byte')}, file has {len(view):,})")
    if any(view[PRELUDE.size + hlen : start]):
        raise FormatError(f"{name}: non-zero header padding")
    payload = view[start:end]
    if hashlib.sha256(payload).hexdigest() != header["payload_sha256"]:
        raise FormatError(f"{name}: payload checksum mismatch (corrupt payload)")
    return header, payload


def _sha256_hex(value: Any) -> str | None:
    ok = isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    return None if ok else "not 64 lower-case hex digits"


# The type and range of every field the container and the loaders read (``schema``); the
# formats add their own ``options`` and ``meta`` fields.
HEADER_SPECS: dict[str, schema.Spec] = {
    "format": schema.text(64),
    "format_version": schema.integer(0, 2**31 - 1),
    "alphabet": lambda v: None if isinstance(v, list) and 1 <= len(v) <= MAX_LETTERS and all(
        isinstance(x, str) and 1 <= len(x) <= MAX_LABEL for x in v) else f"not a list of 1 to {MAX_LETTERS} labels",
    "ruleset": schema.text(MAX_RULESET_TEXT),
    "words": schema.integer(0, MAX_WORDS),
    "options": lambda v: None if isinstance(v, dict) else "not a map",
    "wordlist_sha256": lambda v: None if v == "" else _sha256_hex(v),
    "payload_bytes": schema.integer(0, 2**48),
    "payload_sha256": _sha256_hex,
    "lexc_version": schema.text(64),
    "meta": lambda v: None if isinstance(v, dict) else "not a map",
}


def _decode_header(raw: memoryview, name: str) -> dict[str, Any]:
    """The msgpack header with every required key of the right type and range."""
    try:
        header = msgpack.unpackb(raw, raw=False, strict_map_key=True)
    except Exception as exc:  # msgpack raises several unrelated types
        raise FormatError(f"{name}: unreadable header ({type(exc).__name__})") from None
    if not isinstance(header, dict):
        raise FormatError(f"{name}: header is not a map")
    for key, spec in HEADER_SPECS.items():
        if key not in header:
            raise FormatError(f"{name}: header field {key!r} is missing")
        problem = spec(header[key])
        if problem:
            raise FormatError(f"{name}: header field {key!r}: {problem}")
    return header


def map_file(fd: int) -> mmap.mmap:
    """A read-only map of a whole file, its pages read in at once where the system can
    (``MAP_POPULATE``: one call, not a fault a page, as the checksum reads every byte)."""
    populate = getattr(mmap, "MAP_POPULATE", 0)
    if populate and hasattr(mmap, "MAP_SHARED") and hasattr(mmap, "PROT_READ"):
        return mmap.mmap(fd, 0, flags=mmap.MAP_SHARED | populate, prot=mmap.PROT_READ)
    return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)


def read_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], memoryview]:
    """Map and check a lexicon file; the payload is a view of the read-only mapping (a
    format that searches the file in place keeps it; the others copy what they need)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = map_file(f.fileno()) if size else b""
    except IsADirectoryError:
        raise FormatError(f"{path}: is a directory") from None
    return unpack(data, str(path))


def looks_like_container(path: str | os.PathLike[str]) -> bool:
    """True when the file starts with the lexc magic (cheap sniffing, nothing validated)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync it and rename it into
    place, so that an interrupted write never leaves a partial file at ``path``.

    A ``path`` that exists and is not a regular file is never renamed over: a special file
    (``/dev/null``, ``/dev/stdout``, a FIFO) is written straight into, since renaming over
    it would replace the device or pipe itself (for root, ``-o /dev/null`` would leave a
    regular file in its place); a directory is refused (IsADirectoryError)."""
    path = Path(path)
    if path.is_symlink():  # write through a link to its target, as editors do, keeping the link
        path = Path(os.path.realpath(path))
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None  # no such file yet (or not one we can look at): the rename below says why
    if mode is not None and not stat.S_ISREG(mode):
        try:
            with open(path, "wb") as f:  # (a directory: IsADirectoryError)
                f.write(data)
        except OSError as exc:
            raise _naming(exc, path) from None
        return
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such directory", str(directory))
    _sweep_stale_parts(directory, path.name)
    fd, tmp = _create_part(directory, path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _naming(exc, path) from None
        raise


def _naming(exc: OSError, path: Path) -> OSError:
    """The error of a write, naming the file the caller asked for, never the temporary file
    written beside it (the user never named that one)."""
    exc.filename, exc.filename2 = str(path), None
    return exc


def _sweep_stale_parts(directory: Path, name: str) -> None:
    """Remove the temporary files earlier writers of ``name`` left behind when they were
    killed (SIGKILL runs no cleanup): ``.NAME.PID.XXXXXXXX.part`` whose writer process no
    longer exists. A live writer's file, or one whose PID cannot be read, is left alone."""
    prefix = f".{name}."
    try:
        entries = [e for e in os.scandir(directory) if e.name.startswith(prefix) and e.name.endswith(".part")]
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(prefix) :].split(".", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    """Whether a process with this PID exists (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _create_part(directory: Path, path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path`` (``.NAME.PID.RANDOM.part``), opened for writing:
    created with mode 0o666 so that the kernel applies the process umask, as for any new file
    (no process-wide umask is read or changed: that would race with other threads)."""
    import secrets  # (only a write needs it: loading a file starts faster)

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = str(directory / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.part")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as exc:
            raise _naming(exc, path) from None
    raise _naming(FileExistsError(errno.EEXIST, "no free temporary name"), path)
