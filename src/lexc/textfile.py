"""The user's text files, read one way: UTF-8 (a leading BOM allowed), with a cap on the size
or on each line, and for anything else one line that names the file and, where it helps, the
line: UTF-16, a NUL byte (a binary file), a byte that is not UTF-8, a file too big, a
directory, a missing or unreadable file.

Word lists (``lexc.wordlist``), board pictures (``lexc.board``), JSONL position files
(``moves --batch``, ``bench --positions``) and the lines typed to ``lexc play`` are decoded
here. GCG records keep their own rule (``lexc.game.gcg``: a ``#character-encoding`` pragma,
else UTF-8 with the Latin-1 fallback the format allows).

Each reader raises the caller's error class (a ``LexcError``: ``WordListError`` for a word
list, ``PositionError`` for a position), so that code catching those still catches these;
``TextFileError`` is the default.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from .errors import LexcError
from .limits import MAX_LINE_BYTES

ErrorClass = type[LexcError]


class TextFileError(LexcError, ValueError):
    """A text file lexc cannot read as UTF-8 text; the message names the file (and line)."""


def looks_like_utf16_text(data: bytes) -> bool:
    """Whether bytes (a file's start) read as UTF-16 text: a byte-order mark, or NUL bytes in
    at least a quarter of the first 64 (a Latin letter's other half); then, little- or
    big-endian, every character printable or a line break, none NUL. A binary file with NUL
    bytes (an engine's graph) is not: its zero pairs read as NUL characters; nor is 8-bit
    text, with a stray NUL or none."""
    sample = data[:4096]
    nuls = sample[:64].count(b"\0")
    if not sample.startswith((b"\xff\xfe", b"\xfe\xff")) and (not nuls or nuls * 4 < min(len(sample), 64)):
        return False
    for encoding, mark in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        body = sample[2:] if sample.startswith(mark) else sample
        text = body[: len(body) // 2 * 2].decode(encoding, errors="replace")
        if text.endswith("\ufffd"):  # (a character cut at the sample's end)
            text = text[:-1]
        if text and all(ch.isprintable() or ch in "\t\r\n" for ch in text) and "\ufffd" not in text:
            return True
    return False


def decode_text(data: bytes, source: str, kind: str = "text", error: ErrorClass = TextFileError,
                first_line: int = 1) -> str:
    """The UTF-8 text of a file's bytes (a BOM dropped), or ``error`` with one line saying
    which line and byte are wrong and what the file looks like instead; ``kind`` names what
    the file should be (``"word list"``), ``first_line`` the line number ``data`` starts at."""
    if first_line == 1 and looks_like_utf16_text(data):  # (a binary file's NUL bytes say so below)
        raise error(f"{source}: looks like UTF-16, not UTF-8; convert it (iconv -f UTF-16 -t UTF-8)")
    if b"\0" in data:
        line = first_line + data.count(b"\n", 0, data.index(b"\0"))
        raise error(f"{source}:{line}: NUL byte: a binary file, not a UTF-8 {kind}")
    try:
        return data.decode("utf-8-sig" if first_line == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        raise error(f"{source}:{line}: not UTF-8 (byte {data[exc.start]:#04x}); Latin-1 or another 8-bit "
                    "encoding? convert it (iconv -f LATIN1 -t UTF-8)") from None


def open_error(path: str | os.PathLike[str], exc: OSError, error: ErrorClass = TextFileError) -> LexcError:
    """The one-line error for a file that cannot be opened or read: no such file, a
    directory, or the system's reason."""
    if isinstance(exc, FileNotFoundError):
        return error(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return error(f"{path}: is a directory")
    return error(f"{path}: {exc.strerror or exc}")


def read_text(path: str | os.PathLike[str], max_bytes: int, kind: str = "text",
              error: ErrorClass = TextFileError) -> str:
    """The whole of a small UTF-8 text file (at most ``max_bytes`` bytes; a board, a
    record), decoded by ``decode_text``; ``error`` for anything else."""
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise open_error(path, exc, error) from None
    if len(data) > max_bytes:
        raise error(f"{path}: larger than {max_bytes:,} bytes; not a {kind}")
    return decode_text(data, str(path), kind, error)


def text_lines(path: str | os.PathLike[str], kind: str = "text", error: ErrorClass = TextFileError,
               max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str]]:
    """(line number, text) for each line of a UTF-8 file read a line at a time (a file of
    any length in bounded memory: JSONL positions), without its line break; ``error`` naming
    the line for one longer than ``max_line`` bytes or not UTF-8."""
    try:
        f = open(path, "rb")  # noqa: SIM115 (opened before the with: only open's own error is an open error)
    except OSError as exc:
        raise open_error(path, exc, error) from None
    with f:
        number = 0
        while True:
            try:
                raw = f.readline(max_line + 1)
            except OSError as exc:  # (a directory opens on some systems and fails on read)
                raise open_error(path, exc, error) from None
            if not raw:
                return
            number += 1
            if len(raw) > max_line:
                raise error(f"{path}:{number}: a line longer than {max_line:,} bytes; not a {kind}")
            text = decode_text(raw, str(path), kind, error, first_line=number)
            yield number, text.rstrip("\r\n")


def decode_line(raw: bytes) -> str:
    """One line typed by the user (``lexc play``'s prompt) as text: a byte that is not UTF-8
    becomes U+FFFD, which no alphabet or command holds, so the line is refused as any
    mistyped line is and the game goes on."""
    return raw.decode("utf-8", "replace").rstrip("\r\n")
