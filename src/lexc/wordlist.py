"""Word lists: read, normalize, validate, deduplicate and sort.

A word list is UTF-8 text with one word per line. Lines are stripped (CRLF, surrounding
spaces), blank lines and lines starting with ``#`` are skipped, a byte-order mark is
ignored. Words are folded (NFC, upper case) and split into the alphabet's labels by longest
match; they are kept as ``bytes`` of letter codes, sorted and unique. Anything else is a
``WordListError`` whose message is one line naming the file and line.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby, islice
from operator import eq
from pathlib import Path
from typing import Any

from .alphabet import MAX_WORD_TILES as MAX_WORD_TILES  # (re-exported)
from .alphabet import Alphabet, AlphabetError, fold
from .errors import LexcError
from .limits import MAX_LISTED_WORDS as MAX_LISTED_WORDS  # (re-exported)
from .plural import plural
from .textfile import decode_text, open_error


class WordListError(LexcError, ValueError):
    """A word list cannot be read; the message is one line."""


@dataclass(frozen=True)
class Rejected:
    """A word left out (with --skip-invalid): a character outside the alphabet, or too long."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class WordList:
    """The normalized words of a list and what reading it found."""

    words: list[bytes]
    alphabet: Alphabet
    source: str = "<words>"
    lines: int = 0
    duplicates: int = 0
    too_short: int = 0
    too_long: int = 0
    longer_than_board: int = 0
    rejected: tuple[Rejected, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.words)

    @property
    def sha256(self) -> str:
        """SHA-256 of the normalized list (see ``digest``)."""
        return digest(self.words, self.alphabet)

    def texts(self) -> list[str]:
        """The words as text, in code order."""
        return decode_all(self.words, self.alphabet)

    def report(self) -> dict[str, int]:
        """Counts for the build report."""
        return {
            "lines": self.lines,
            "words": len(self.words),
            "duplicates": self.duplicates,
            "rejected": len(self.rejected),
            "too_short": self.too_short,
            "too_long": self.too_long,
            "longer_than_board": self.longer_than_board,
        }


def decode_all(words: Sequence[bytes], alphabet: Alphabet) -> list[str]:
    """Decode many encoded words at once."""
    return alphabet.decode_many(list(words))


def digest(words: Sequence[bytes], alphabet: Alphabet) -> str:
    """SHA-256 of the words as UTF-8 text in code order, each followed by a newline.

    For an A-Z list this equals ``sha256sum`` of the sorted, upper-cased, deduplicated file.
    """
    h = hashlib.sha256()
    texts = decode_all(words, alphabet)
    if texts:
        h.update(("\n".join(texts) + "\n").encode("utf-8"))
    return h.hexdigest()


def decode_bytes(data: bytes, source: str) -> str:
    """UTF-8 text of a word-list file, or a WordListError saying which encoding it looks like
    (``lexc.textfile.decode_text``: the one decoder of the user's text files)."""
    return decode_text(data, source, "word list", WordListError)


def parse_text(
    text: str,
    alphabet: Alphabet,
    *,
    source: str = "<words>",
    min_len: int = 2,
    max_len: int | None = None,
    skip_invalid: bool = False,
    board_size: int | None = None,
) -> WordList:
    """Normalize the lines of a word list already decoded to text."""
    text = fold(text) if not text.isascii() else text.upper()
    # one pass, keeping only the encoded words: a list of millions of words must not cost
    # several Python objects per line at once (lexc builds 3-million-word lists)
    lines = too_short = too_long = 0
    kept: list[bytes] = []
    rejected: list[Rejected] = []
    encode = alphabet.encode_folded  # the whole text is folded already
    for n, word in enumerate(text.split("\n"), 1):
        word = word.strip()
        if not word or word.startswith("#"):
            continue
        lines += 1
        try:
            codes = encode(word)
        except AlphabetError as exc:
            if not skip_invalid:
                raise WordListError(
                    f"{source}:{n}: {excerpt(word)} has {exc.char!r}, which is not in the alphabet "
                    "(use --skip-invalid to leave such words out)"
                ) from None
            rejected.append(Rejected(n, word[:200], f"{exc.char!r} not in the alphabet"))
            continue
        if len(codes) > MAX_WORD_TILES:
            if not skip_invalid:
                raise WordListError(f"{source}:{n}: a word of {len(codes)} tiles; lexc words have at most "
                                    f"{MAX_WORD_TILES} (use --skip-invalid to leave such words out)")
            rejected.append(Rejected(n, word[:200], f"longer than {MAX_WORD_TILES} tiles"))
            continue
        if len(codes) < min_len:
            too_short += 1
        elif max_len is not None and len(codes) > max_len:
            too_long += 1
        else:
            kept.append(codes)
    kept.sort()  # in place; then drop duplicates without a set
    unique = [w for w, _ in groupby(kept)] if any(map(eq, kept, islice(kept, 1, None))) else kept
    if not unique:
        raise WordListError(f"{source}: no words left ({plural(lines, 'word line')} read, "
                            f"{len(rejected)} rejected, {too_short} shorter than {min_len}, {too_long} too long)")
    return WordList(
        words=unique,
        alphabet=alphabet,
        source=source,
        lines=lines,
        duplicates=len(kept) - len(unique),
        too_short=too_short,
        too_long=too_long,
        longer_than_board=0 if board_size is None else sum(1 for w in unique if len(w) > board_size),
        rejected=tuple(rejected),
    )


MAX_LINE = 4096  # bytes of one line of a word list: far more than any word (64 tiles of up to 8 characters)
MAX_LIST_BYTES = 2**32  # bytes of a word-list file
_CHUNK = 1 << 20


def read_list_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a word-list file, read in chunks so that a file with no line breaks (or
    ``/dev/zero``) is refused as soon as a line passes ``MAX_LINE`` bytes, and a file past
    ``MAX_LIST_BYTES`` as soon as it does: a WordListError naming the line, never the line."""
    path = Path(path)
    chunks: list[bytes] = []
    size = lines = 0
    tail = b""  # the end of the unfinished line before this chunk (at most MAX_LINE bytes)
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(_CHUNK)
                if not chunk:
                    break
                window = tail + chunk
                long = _LONG_LINE.search(window)
                if long:
                    at = lines + window.count(b"\n", 0, long.start()) + 1
                    raise WordListError(f"{path}:{at}: a line longer than {MAX_LINE:,} bytes; not a word list "
                                        "(one word a line)")
                lines += chunk.count(b"\n")
                tail = window[window.rfind(b"\n") + 1 :][-MAX_LINE:]
                size += len(chunk)
                if size > MAX_LIST_BYTES:
                    raise WordListError(f"{path}: larger than {MAX_LIST_BYTES:,} bytes; too big for a word list")
                chunks.append(chunk)
    except OSError as exc:
        raise open_error(path, exc, WordListError) from None
    return b"".join(chunks)


_LONG_LINE = re.compile(rb"[^\n]{%d}" % (MAX_LINE + 1))


def excerpt(text: str, limit: int = 40) -> str:
    """A word as quoted in an error message: at most ``limit`` characters of it."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 3]) + "..."


def read_wordlist(path: str | os.PathLike[str], alphabet: Alphabet, **options: Any) -> WordList:
    """Read a word-list file; options as for ``parse_text``."""
    data = read_list_bytes(path)
    return parse_text(decode_bytes(data, str(path)), alphabet, source=str(path), **options)


def normalize_word(text: str, alphabet: Alphabet) -> bytes:
    """One word as the reader normalizes a line: stripped, folded (NFC, upper case) and split
    into the alphabet's labels by longest match; a WordListError naming the word if a
    character is outside the alphabet or the word is empty."""
    word = text.strip()
    if not word:
        raise WordListError("an empty word")
    try:
        return alphabet.encode_folded(fold(word))
    except AlphabetError as exc:
        raise WordListError(f"{excerpt(word)}: {exc.char!r} is not in the alphabet") from None


def word_lines(path: str | os.PathLike[str]) -> list[str]:
    """The word lines of a UTF-8 word-list file, stripped, without blank lines and ``#``
    comments, not normalized; a WordListError if the file cannot be read as UTF-8."""
    path = Path(path)
    data = read_list_bytes(path)
    lines = (line.strip() for line in decode_bytes(data, str(path)).split("\n"))
    return [line for line in lines if line and not line.startswith("#")]


def from_words(words: Iterable[str], alphabet: Alphabet, **options: Any) -> WordList:
    """A WordList from words in memory (for the library API and tests)."""
    return parse_text("\n".join(words), alphabet, **options)
