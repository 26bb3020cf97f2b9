"""Alphabets: tile labels <-> small integer letter codes.

Code 0 is reserved: it is the blank on a rack, a played-through square and the GADDAG
separator. Letters are coded 1..n in the order the ruleset lists them, which is also the
order every format sorts by. A label may be several characters long (Spanish CH, LL, RR;
Catalan L·L); text is split into labels by longest match. A blank standing for a letter on
the board is written with the label in lowercase and coded ``code | BLANK_FLAG``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from .errors import LexcError
from .limits import MAX_WORD_TILES as MAX_WORD_TILES  # (re-exported: the longest word, the most tiles of a rack)

BLANK = 0
BLANK_CHAR = "?"
BLANK_FLAG = 0x80
UNBLANK = bytes(code & ~BLANK_FLAG for code in range(256))  # bytes.translate table: each code without its blank mark
_SEPARATOR = "\x00"  # code 0 decodes to this: decode_many's word separator
MAX_LETTERS = 127  # codes 1..127, so that code | BLANK_FLAG still fits in a byte
MAX_LABEL = 8  # characters of one label (Catalan's L·L has 3)
RESERVED = "?*[]^#.()/-"  # characters with a meaning of their own in racks, patterns and notation


class AlphabetError(LexcError, ValueError):
    """A text cannot be split into this alphabet's labels."""

    def __init__(self, message: str, position: int = 0, char: str = ""):
        super().__init__(message)
        self.position = position
        self.char = char


def fold(text: str) -> str:
    """Normalize text the way labels are compared: NFC, then upper case."""
    return unicodedata.normalize("NFC", text).upper()


def written(label: str) -> str:
    """A tile's label as lexc writes it among other tiles, as the engines write it (play
    notation, CGP, board pictures, lists of hooks): a multi-character label in brackets,
    ``[CH]``, so that the tiles C, H and the tile CH never read alike."""
    return f"[{label}]" if len(label) > 1 else label


def written_tiles(labels: Iterable[str]) -> str:
    """Tiles' labels written one after the other, each as ``written`` writes it: the Spanish
    front hooks C, CH and H are ``C[CH]H``, never ``CCHH``."""
    return "".join(map(written, labels))


@dataclass(frozen=True)
class Alphabet:
    """An ordered tuple of tile labels; label i has letter code i + 1."""

    labels: tuple[str, ...]
    _codes: dict[str, int] = field(init=False, repr=False, compare=False)
    _encode_table: dict[int, str] | None = field(init=False, repr=False, compare=False)
    _byte_codes: bytes | None = field(init=False, repr=False, compare=False)
    _label_bytes: bytes = field(init=False, repr=False, compare=False)
    _rack_codes: bytes | None = field(init=False, repr=False, compare=False)
    _rack_chars: bytes = field(init=False, repr=False, compare=False)
    _decode_upper: dict[int, str] = field(init=False, repr=False, compare=False)
    _decode_lower: dict[int, str] = field(init=False, repr=False, compare=False)
    _decode_table: dict[int, str] = field(init=False, repr=False, compare=False)
    _decode_bytes: bytes | None = field(init=False, repr=False, compare=False)
    _known: bytes = field(init=False, repr=False, compare=False)
    _mask_tuples: dict[int, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _char_codes: MappingProxyType[str, int] | None = field(init=False, repr=False, compare=False)
    _ascii: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        labels = tuple(fold(label) for label in self.labels)
        if not labels:
            raise ValueError("an alphabet needs at least one letter")
        if len(labels) > MAX_LETTERS:
            raise ValueError(f"an alphabet may have at most {MAX_LETTERS} letters, not {len(labels)}")
        if len(set(labels)) != len(labels):
            raise ValueError("an alphabet's labels must be distinct")
        for label in labels:
            if not label or len(label) > MAX_LABEL or any(
                    not ch.isprintable() or ch.isspace() or ch.isdigit() or ch in RESERVED for ch in label):
                raise ValueError(f"bad letter label {label[:MAX_LABEL]!r}: a label is 1 to {MAX_LABEL} printable "
                                 f"characters, no space, digit or any of {RESERVED}")
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "_mask_tuples", {})
        codes = {label: i + 1 for i, label in enumerate(labels)}
        object.__setattr__(self, "_codes", codes)
        single = all(len(label) == 1 for label in labels)
        object.__setattr__(self, "_encode_table",
                           {ord(label): chr(c) for label, c in codes.items()} if single else None)
        # where every label is one Latin-1 character, text encodes by a bytes translation
        # (``encode_folded``): each label's character to its code, the labels' characters apart
        latin_labels = single and all(ord(label) < 256 for label in labels)
        byte_codes = bytearray(256)
        for label, c in codes.items() if latin_labels else ():
            byte_codes[ord(label)] = c
        object.__setattr__(self, "_byte_codes", bytes(byte_codes) if latin_labels else None)
        object.__setattr__(self, "_label_bytes", "".join(labels).encode("latin-1") if latin_labels else b"")
        rack_codes = bytearray(byte_codes)  # (rack_tiles': parse_rack reads ? and _ as blanks, code 0)
        rack_codes[ord(BLANK_CHAR)] = rack_codes[ord("_")] = 0
        object.__setattr__(self, "_rack_codes", bytes(rack_codes) if latin_labels else None)
        object.__setattr__(self, "_rack_chars", self._label_bytes + (BLANK_CHAR + "_").encode("ascii"))
        object.__setattr__(self, "_decode_upper", {c: label for label, c in codes.items()})
        object.__setattr__(self, "_decode_lower", {c: label.lower() for label, c in codes.items()})
        table = dict.fromkeys(range(256), "\ufffd")  # a code outside the alphabet decodes to U+FFFD
        table[0] = _SEPARATOR  # (never a letter: decode_many joins words with it)
        table |= ({c: label for label, c in codes.items()}
                  | {c | BLANK_FLAG: label.lower() for label, c in codes.items()})
        object.__setattr__(self, "_decode_table", table)
        # when every label (and its lower case) is one Latin-1 character, decoding is a
        # bytes translation; ``_known`` (the codes with a label, and 0) tells when it applies
        known = bytes(sorted({0} | set(codes.values()) | {c | BLANK_FLAG for c in codes.values()}))
        object.__setattr__(self, "_known", known)
        latin = all(len(table[c]) == 1 and ord(table[c]) < 256 for c in known)
        object.__setattr__(self, "_decode_bytes", bytes(ord(table[c]) if c in known else 0 for c in range(256))
                           if latin else None)
        chars: dict[str, int] | None = None
        if single:  # a character that folds to a label on its own is that tile (lower case: a blank)
            chars = {}
            for label, code in codes.items():
                for ch in {label, label.lower()}:
                    if len(ch) == 1 and ch.upper() == label and fold(label) == label:
                        chars[ch] = code | (BLANK_FLAG if ch != fold(ch) else 0)
        object.__setattr__(self, "_char_codes", MappingProxyType(chars) if chars is not None else None)
        object.__setattr__(self, "_ascii", single and all(label.isascii() for label in labels))

    def __len__(self) -> int:
        return len(self.labels)

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        """The labels, longest first: what ``match_label`` reads (compiled on first use)."""
        return re.compile("|".join(re.escape(label) for label in sorted(self.labels, key=len, reverse=True)))

    @cached_property
    def _valid(self) -> re.Pattern[str] | None:
        """For one-character labels, any run of them: the fast path of ``encode_folded``
        (compiled on first use); None for other alphabets."""
        if self._encode_table is None:
            return None
        return re.compile("[" + "".join(re.escape(label) for label in self.labels) + "]*")

    def cgp_table(self) -> bytes | None:
        """For an alphabet of one-character labels, 256 bytes mapping each Latin-1 character
        ``char_codes`` knows to its tile (a lower-case blank with BLANK_FLAG), 0 for any other:
        what the compiled core reads a CGP board with. None for other alphabets."""
        if self._char_codes is None:
            return None
        if self.labels not in _CGP:
            table = bytearray(256)
            for ch, code in self._char_codes.items():
                if ord(ch) < 256 and not "0" <= ch <= "9" and ch != "/":
                    table[ord(ch)] = code
            _CGP[self.labels] = bytes(table)
        return _CGP[self.labels]

    def latin1_codes(self) -> bytes | None:
        """For an alphabet of one-character Latin-1 labels, 256 bytes mapping a character (any
        case that folds to a label) to its letter code, 0 for any other: the compiled core
        encodes such words itself. None for other alphabets."""
        return _latin1_codes(self)

    @property
    def codes(self) -> range:
        """The letter codes, 1..n."""
        return range(1, len(self.labels) + 1)

    @property
    def plain_ascii(self) -> bool:
        """True when every label is one ASCII character: the text of any tiles then reads back
        as the same tiles (``formats/rereading.py`` has nothing to check)."""
        return self._ascii

    @property
    def single_char(self) -> bool:
        """True when every label is one character (fast paths apply)."""
        return self._encode_table is not None

    def char_codes(self) -> MappingProxyType[str, int] | None:
        """For an alphabet of one-character labels, the tile each character written alone
        stands for: a label's code, its lower case the code with BLANK_FLAG (what ``split``,
        ``code`` and a lower-case blank in notation give, looked up at once). None for an
        alphabet with a multi-character label, where the longest match decides."""
        return self._char_codes

    def code(self, label: str) -> int:
        """The code of one label (case-insensitive); AlphabetError if unknown."""
        try:
            return self._codes[fold(label)]
        except KeyError:
            raise AlphabetError(f"{label!r} is not a letter of this alphabet", 0, label) from None

    def label(self, code: int) -> str:
        """The label of a code; a blank-designated code (``| BLANK_FLAG``) in lower case."""
        if code & BLANK_FLAG:
            return self._decode_lower[code & ~BLANK_FLAG]
        return self._decode_upper[code]

    def match_label(self, text: str, pos: int) -> str | None:
        """The longest label at ``text[pos:]`` (text already folded), or None."""
        m = self._regex.match(text, pos)
        return m.group() if m else None

    def split(self, text: str) -> list[str]:
        """Split already-folded text into labels by longest match; AlphabetError if impossible."""
        out: list[str] = []
        pos = 0
        while pos < len(text):
            label = self.match_label(text, pos)
            if label is None:
                raise AlphabetError(
                    f"character {text[pos]!r} at position {pos + 1} is not in the alphabet", pos, text[pos]
                )
            out.append(label)
            pos += len(label)
        return out

    def encode(self, word: str) -> bytes:
        """Encode a word (any case) as a bytes string of letter codes; AlphabetError if impossible."""
        return self.encode_folded(fold(word))

    def encode_folded(self, text: str) -> bytes:
        """``encode`` for text already folded (see ``fold``): the word-list reader folds a
        whole file at once and then encodes line by line."""
        byte_codes = self._byte_codes
        if byte_codes is not None:  # (a third of the time of the regex and str translation below)
            try:
                raw: bytes | None = text.encode("latin-1")
            except UnicodeEncodeError:
                raw = None  # (a character no label is: split names it below)
            if raw is not None and not raw.translate(None, self._label_bytes):  # every character a label's
                return raw.translate(byte_codes)
        table, valid = self._encode_table, self._valid  # (both set, or both None)
        if table is not None and valid is not None and valid.fullmatch(text):
            return text.translate(table).encode("latin-1")
        return bytes(self._codes[label] for label in self.split(text))

    def decode(self, codes: bytes | list[int] | tuple[int, ...]) -> str:
        """Decode letter codes to text; codes carrying BLANK_FLAG come out in lower case (a
        code outside the alphabet as U+FFFD; the reserved code 0 as NUL)."""
        if isinstance(codes, (bytes, bytearray)):
            if self._decode_bytes is not None and not codes.translate(None, self._known):
                return codes.translate(self._decode_bytes).decode("latin-1")
            return codes.decode("latin-1").translate(self._decode_table)
        upper, lower = self._decode_upper, self._decode_lower
        return "".join(lower[c & 0x7F] if c & BLANK_FLAG else upper[c] for c in codes)

    def decode_known(self, codes: bytes) -> str:
        """``decode`` for codes lexc encoded itself (every one a letter of this alphabet,
        none marked blank): one translation, without ``decode``'s check for unknown codes."""
        table = self._decode_bytes
        return codes.translate(table).decode("latin-1") if table is not None else self.decode(codes)

    def decode_many(self, words: list[bytes]) -> list[str]:
        """Decode many encoded words at once (one C-level pass), as ``decode`` would."""
        return self.decode_joined(b"\x00".join(words)) if words else []

    def decode_joined(self, joined: bytes) -> list[str]:
        """Decode words joined by the reserved code 0 (one C-level pass), as ``decode`` would."""
        return self.decode(joined).split(_SEPARATOR)

    def mask(self, codes: Iterable[int]) -> int:
        """The bitmask (bit = code) of a collection of letter codes."""
        m = 0
        for c in codes:
            m |= 1 << c
        return m

    def mask_labels(self, mask: int) -> list[str]:
        """The labels of the letters in a bitmask, in alphabet order."""
        out, decode = [], self._decode_upper
        mask &= ~1  # bit 0 is no letter
        while mask:  # one step a set bit, lowest code first
            low = mask & -mask
            label = decode.get(low.bit_length() - 1)
            if label is not None:  # (a code outside the alphabet is no letter)
                out.append(label)
            mask ^= low
        return out

    def mask_tuple(self, mask: int) -> tuple[str, ...]:
        """``mask_labels`` as a tuple, remembered (hooks ask for the same few masks again and
        again)."""
        kept = self._mask_tuples.get(mask)
        if kept is None:
            if len(self._mask_tuples) >= 4096:
                self._mask_tuples.clear()
            kept = self._mask_tuples[mask] = tuple(self.mask_labels(mask))
        return kept

    def parse_rack(self, rack: str) -> tuple[list[int], int]:
        """Parse a rack such as ``RETAIN??``: letter codes and the number of blanks.

        A blank is ``?`` (``_`` is accepted too, as in Norvig's notebook). A multi-character
        tile may be written in brackets, ``[CH]``, and must be when the letters would otherwise
        read as another tile (``[C]H`` is C and H).
        """
        if len(rack) > MAX_WORD_TILES * (MAX_LABEL + 2):
            raise AlphabetError(f"a rack of {len(rack):,} characters; a rack holds at most {MAX_WORD_TILES} tiles",
                                0, "")
        for ch in () if rack.isascii() else rack:  # (an ASCII character's upper case is one character)
            if len(ch.upper()) != 1:  # (ß would read as two S tiles)
                raise AlphabetError(f"character {ch!r} in rack {rack!r} is not in the alphabet", 0, ch)
        text = fold(rack).replace("_", BLANK_CHAR)
        blanks = text.count(BLANK_CHAR)
        if ("[" in text or "]" in text) and re.search(r"[\[\]]", re.sub(r"\[[^\[\]]+\]", "", text)):
            raise AlphabetError(f"rack {rack!r}: unbalanced or empty brackets", 0, "[")
        plain = text.replace(BLANK_CHAR, "")
        if "[" not in plain:  # no bracketed tile (nor a bracket: checked above): one encoding, no regex
            letters = list(self.encode_folded(plain))
        else:
            letters = []
            for bracketed, bare in re.findall(r"\[([^\]]*)\]|([^\[]+)", plain):
                letters += [self.code(bracketed)] if bracketed else self.encode_folded(bare)
        if len(letters) + blanks > MAX_WORD_TILES:
            raise AlphabetError(f"a rack of {len(letters) + blanks} tiles; a rack holds at most {MAX_WORD_TILES} "
                                "(no word is longer)", 0, "")
        return letters, blanks

    def rack_tiles(self, rack: str) -> bytes:
        """A rack's tiles as the compiled move generator reads them: a letter code for each
        letter and 0 for each blank (in no set order), read and refused as ``parse_rack``
        reads and refuses it. A rack of ASCII letters, where every label is one Latin-1
        character, is read by one bytes translation."""
        table = self._rack_codes
        if table is not None and len(rack) <= MAX_WORD_TILES and rack.isascii():
            raw = rack.upper().encode("ascii")  # (fold, for ASCII text)
            if not raw.translate(None, self._rack_chars):  # every character a label's or a blank's
                return raw.translate(table)
        letters, blanks = self.parse_rack(rack)
        return bytes(letters) + bytes(blanks)

    def rack_text(self, codes: list[int], blanks: int = 0) -> str:
        """A rack written back so that ``parse_rack`` reads the same tiles: a tile is put in
        brackets when it is several characters long or would run into the next one."""
        labels = [self.label(c) for c in codes]
        if self._ascii:
            return "".join(labels) + BLANK_CHAR * blanks  # one ASCII letter a tile: nothing runs into the next
        out = []
        for i, label in enumerate(labels):
            rest = fold("".join(labels[i:]))
            plain = len(label) == 1 and self.match_label(rest, 0) == fold(label)
            out.append(label if plain else f"[{label}]")
        return "".join(out) + BLANK_CHAR * blanks


def _latin1_table(alphabet: Alphabet) -> bytes | None:
    """``Alphabet.latin1_codes``, computed once per alphabet (see ``_latin1_codes``)."""
    if not alphabet.single_char or any(ord(label) > 255 for label in alphabet.labels):
        return None
    table = bytearray(256)
    for ch in range(256):
        folded = fold(chr(ch))
        if folded in alphabet._codes:
            table[ch] = alphabet._codes[folded]
    return bytes(table)


_LATIN1: dict[tuple[str, ...], bytes | None] = {}


_CGP: dict[tuple[str, ...], bytes] = {}  # Alphabet.cgp_table, by labels


def _latin1_codes(alphabet: Alphabet) -> bytes | None:
    labels = alphabet.labels
    if labels not in _LATIN1:
        _LATIN1[labels] = _latin1_table(alphabet)
    return _LATIN1[labels]
