"""Tests for the lexicon file container (lexc.formats.container) and save/load/dumps/loads.

The byte layout used to craft files here is the one the container documents:

    0   8  magic 89 4C 58 43 0D 0A 1A 0A
    8   2  container version (u16 LE, 1)
    10  2  flags (u16, 0)
    12  4  header length H (u32)
    16  4  CRC-32 of the header bytes
    20  4  reserved (0)
    24  H  msgpack header, then zero padding to a multiple of 8, then the payload
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexc import formats
from lexc.formats import FormatError
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = load_ruleset("english").alphabet
MAGIC = b"\x89LXC\r\n\x1a\n"
PRELUDE = struct.Struct("<8sHHIII")
WORDS = ["cat", "cats", "act", "acts", "tact", "dog", "dogs", "do", "god", "gods", "scat"]
UPPER = sorted(w.upper() for w in WORDS)


def build(words=WORDS, **options):
    return formats.build(from_words(words, ENGLISH), "dawg", "english", **options)


@pytest.fixture(scope="module")
def lexicon():
    return build()


@pytest.fixture(scope="module")
def data(lexicon) -> bytes:
    return formats.dumps(lexicon)


# --- helpers to take a file apart and put a (possibly broken) one together ----------------

def split(data: bytes):
    """(prelude fields, header dict, header bytes, payload) of a well-formed file."""
    magic, version, flags, hlen, crc, reserved = PRELUDE.unpack_from(data)
    raw = data[24 : 24 + hlen]
    start = 24 + hlen + (-(24 + hlen) % 8)
    return (magic, version, flags, hlen, crc, reserved), msgpack.unpackb(raw, raw=False), raw, data[start:]


def craft(header, payload: bytes, *, version=1, flags=0, reserved=0, fix_payload=False) -> bytes:
    """A file with any msgpack-able header object and a correct header CRC."""
    if fix_payload:
        header = dict(header, payload_bytes=len(payload), payload_sha256=hashlib.sha256(payload).hexdigest())
    raw = msgpack.packb(header, use_bin_type=True)
    pad = -(24 + len(raw)) % 8
    prelude = PRELUDE.pack(MAGIC, version, flags, len(raw), zlib.crc32(raw), reserved)
    return prelude + raw + b"\0" * pad + payload


def format_error(blob: bytes, pattern: str | None = None) -> str:
    """Assert that loading ``blob`` raises FormatError with a one-line message; return it."""
    with pytest.raises(FormatError) as info:
        formats.loads(blob)
    message = str(info.value)
    assert message.strip() and "\n" not in message
    if pattern is not None:
        assert re.search(pattern, message, re.I), message
    return message


# --- the well-formed file --------------------------------------------------------------------

def test_layout_of_a_file(data, lexicon):
    (magic, version, flags, hlen, crc, reserved), header, raw, payload = split(data)
    assert magic == MAGIC and version == 1 and flags == 0 and reserved == 0
    assert crc == zlib.crc32(raw)
    assert (24 + hlen + (-(24 + hlen) % 8)) % 8 == 0
    assert header["format"] == "dawg"
    assert header["words"] == len(set(UPPER))
    assert header["alphabet"] == [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    assert header["payload_bytes"] == len(payload)
    assert header["payload_sha256"] == hashlib.sha256(payload).hexdigest()
    assert header["wordlist_sha256"] == hashlib.sha256(("\n".join(sorted(set(UPPER))) + "\n").encode()).hexdigest()
    assert header["meta"]["edges"] * 4 == len(payload)  # u32 edges
    assert payload == lexicon.payload()


def test_craft_helper_reproduces_a_valid_file(data):
    _, header, _, payload = split(data)
    assert craft(header, payload) == data


def test_dumps_loads_round_trip(lexicon, data):
    loaded = formats.loads(data)
    assert list(loaded) == sorted(set(UPPER))
    assert list(loaded) == list(lexicon)
    assert len(loaded) == len(lexicon) == len(set(UPPER))
    assert loaded.edges == lexicon.edges
    assert loaded.payload() == lexicon.payload()
    assert loaded.stats() == lexicon.stats()
    assert loaded.check() == []
    assert formats.dumps(loaded) == data  # re-saving a loaded lexicon gives the same bytes


def test_save_load_round_trip(tmp_path, lexicon, data):
    path = tmp_path / "w.dawg"
    size = formats.save(lexicon, path)
    assert size == path.stat().st_size == len(data)
    assert path.read_bytes() == data
    loaded = formats.load(path)
    assert list(loaded) == sorted(set(UPPER))
    assert loaded.edges == lexicon.edges


def test_loaded_lexicon_answers_queries(data):
    lex = formats.loads(data)
    for w in UPPER:
        assert w in lex
    for w in ["CA", "DOGE", "TAC", "C", "", "ZZZ"]:
        assert w not in lex
    assert sorted(lex.anagrams("TCA")) == ["ACT", "CAT"]
    assert lex.words("DO") == ["DO", "DOG", "DOGS"]
    assert lex.is_prefix("TAC") and not lex.is_prefix("TAX")


# --- determinism -----------------------------------------------------------------------------

def test_building_twice_gives_identical_bytes(data):
    assert formats.dumps(build()) == data
    assert formats.dumps(build()) == formats.dumps(build())


def test_order_and_duplicates_of_the_input_do_not_matter(data):
    shuffled = [*reversed(WORDS), "CAT", "Dog", "cats", "acts"]
    assert formats.dumps(build(shuffled)) == data


def test_different_words_give_different_bytes(data):
    assert formats.dumps(build([*WORDS, "tacts"])) != data


def test_saved_files_are_byte_identical(tmp_path, lexicon):
    a, b = tmp_path / "a.dawg", tmp_path / "b.dawg"
    formats.save(lexicon, a)
    formats.save(build(list(reversed(WORDS))), b)
    assert a.read_bytes() == b.read_bytes()


def test_bytes_do_not_depend_on_hash_seed(tmp_path):
    script = (
        "import sys; from lexc import formats; from lexc.lexicons.source import read_list\n"
        "wl = read_list(sys.argv[1]); sys.stdout.buffer.write(formats.dumps(formats.build(wl)))\n"
    )
    outputs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", script, str(ROOT / "wordlists" / "tiny.txt")],
                              capture_output=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr.decode()
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert list(formats.loads(outputs[0]))[:3] == ["AA", "AB", "ACRE"]


# --- every corruption is a FormatError -------------------------------------------------------

def test_empty_file():
    format_error(b"", "not a lexc file")


@pytest.mark.parametrize("blob", [b"abc", MAGIC[:3], b"\x00\x00\x00"])
def test_three_byte_file(blob):
    format_error(blob, "not a lexc file|truncated")


def test_foreign_png_file():
    png = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 40
    format_error(png, "magic")


def test_foreign_text_word_list():
    text = (ROOT / "wordlists" / "tiny.txt").read_bytes()
    format_error(text, "magic")
    format_error(b"cat\n", "not a lexc file")


def test_bad_magic(data):
    format_error(b"\x89LXD" + data[4:], "magic")


@pytest.mark.parametrize("version", [0, 2, 0xFFFF])
def test_unsupported_container_version(data, version):
    format_error(data[:8] + struct.pack("<H", version) + data[10:], "version")


@pytest.mark.parametrize("flags", [1, 0x8000])
def test_nonzero_flags(data, flags):
    format_error(data[:10] + struct.pack("<H", flags) + data[12:], "flag")


def test_nonzero_reserved(data):
    format_error(data[:20] + struct.pack("<I", 1) + data[24:])


def test_truncated_at_every_offset(data):
    for n in range(len(data)):
        format_error(data[:n])


def test_truncated_in_payload_says_truncated(data):
    format_error(data[:-1], "truncated")
    format_error(data[:30], "truncated")


@pytest.mark.parametrize("extra", [b"\0", b"x", b"\0" * 8, b"trailing garbage"])
def test_trailing_bytes(data, extra):
    format_error(data + extra, "trailing")


def test_flipped_bit_in_header_fails_the_crc(data):
    (_, _, _, hlen, _, _), _, _, _ = split(data)
    for offset in (24, 24 + hlen // 2, 24 + hlen - 1):
        for bit in (0, 7):
            blob = bytearray(data)
            blob[offset] ^= 1 << bit
            format_error(bytes(blob), "header checksum|corrupt header")


def test_flipped_bit_in_payload_fails_the_sha256(data):
    payload_start = len(data) - len(split(data)[3])
    for offset in (payload_start, payload_start + 5, len(data) - 1):
        blob = bytearray(data)
        blob[offset] ^= 0x10
        format_error(bytes(blob), "payload checksum|corrupt payload")


def test_nonzero_padding(data):
    (_, _, _, hlen, _, _), _, _, _ = split(data)
    pad = -(24 + hlen) % 8
    assert pad, "test lexicon should have header padding"
    blob = bytearray(data)
    blob[24 + hlen] = 1
    format_error(bytes(blob))


def test_every_single_bit_flip_is_detected(data):
    for offset in range(len(data)):
        for bit in range(8):
            blob = bytearray(data)
            blob[offset] ^= 1 << bit
            format_error(bytes(blob))


@pytest.mark.parametrize("header", [[1, 2, 3], "dawg", 42, None, b"bytes"])
def test_header_not_a_map(data, header):
    _, _, _, payload = split(data)
    format_error(craft(header, payload), "not a map|header")


def test_header_not_msgpack(data):
    raw = b"\xc1\xc1\xc1\xc1"  # 0xc1 is never used in msgpack
    prelude = PRELUDE.pack(MAGIC, 1, 0, len(raw), zlib.crc32(raw), 0)
    format_error(prelude + raw + b"\0" * (-(24 + len(raw)) % 8), "header")


def header_keys(data) -> list[str]:
    return list(split(data)[1])


@pytest.mark.parametrize("key", ["format", "format_version", "alphabet", "ruleset", "words", "options",
                                 "wordlist_sha256", "payload_bytes", "payload_sha256", "lexc_version", "meta"])
def test_missing_header_key(data, key):
    _, header, _, payload = split(data)
    assert key in header
    broken = {k: v for k, v in header.items() if k != key}
    message = format_error(craft(broken, payload), key)
    assert "missing" in message or "type" in message


def test_every_key_in_a_written_header_is_required(data):
    _, header, _, payload = split(data)
    for key in header:
        broken = {k: v for k, v in header.items() if k != key}
        format_error(craft(broken, payload))


@pytest.mark.parametrize("key, value", [
    ("words", "11"), ("words", True), ("words", -1), ("format_version", "1"), ("alphabet", "ABC"),
    ("alphabet", [1, 2, 3]), ("alphabet", ["A", ""]), ("alphabet", ["A", "A"]), ("payload_bytes", -32),
    ("payload_bytes", 1.5), ("meta", []), ("options", None), ("format", 3),
])
def test_header_field_of_the_wrong_type_or_value(data, key, value):
    _, header, _, payload = split(data)
    format_error(craft(dict(header, **{key: value}), payload))


@pytest.mark.parametrize("name", ["gaddag-from-the-future", "", "DAWG"])
def test_unknown_format_name(data, name):
    _, header, _, payload = split(data)
    format_error(craft(dict(header, format=name), payload), "format")


@pytest.mark.parametrize("version", [0, 2, 99])
def test_unsupported_format_version(data, version):
    _, header, _, payload = split(data)
    format_error(craft(dict(header, format_version=version), payload), "version")


def test_header_edge_count_larger_than_payload(data):
    _, header, _, payload = split(data)
    meta = dict(header["meta"], edges=header["meta"]["edges"] + 1)
    format_error(craft(dict(header, meta=meta), payload), "edges")


def test_payload_with_more_edges_than_header_says(data):
    _, header, _, payload = split(data)
    extra = payload + payload[-4:]  # one more edge, checksums made consistent
    format_error(craft(header, extra, fix_payload=True), "edges")


def test_payload_not_a_whole_number_of_edges(data):
    _, header, _, payload = split(data)
    format_error(craft(header, payload + b"\0\0", fix_payload=True), "edge")


def test_unknown_edge_layout(data):
    _, header, _, payload = split(data)
    format_error(craft(dict(header, meta=dict(header["meta"], layout="u128")), payload), "layout")


def test_empty_payload(data):
    _, header, _, _ = split(data)
    format_error(craft(dict(header, meta=dict(header["meta"], edges=0)), b"", fix_payload=True))


def test_root_pointer_outside_the_array(data):
    _, header, _, payload = split(data)
    edges = bytearray(payload)
    edges[0:4] = struct.pack("<I", 0x003FFFFF)  # child index far beyond the array
    format_error(craft(header, bytes(edges), fix_payload=True), "root")


def test_crafted_bad_child_is_refused_on_load(data):
    """A payload with consistent checksums but a child index past the end: the checksum
    cannot catch a crafted file, so the loader's own structure check must."""
    _, header, _, payload = split(data)
    n = len(payload) // 4
    edges = list(struct.unpack(f"<{n}I", payload))
    i = next(i for i in range(1, n) if edges[i] & 0x3FFFFF)
    edges[i] = (edges[i] & ~0x3FFFFF) | (n + 5)
    format_error(craft(header, struct.pack(f"<{n}I", *edges), fix_payload=True), "child index")


def test_load_of_a_directory_is_a_format_error(tmp_path):
    with pytest.raises(FormatError):
        formats.load(tmp_path)


def test_error_names_the_file(tmp_path, data):
    path = tmp_path / "broken.dawg"
    path.write_bytes(data[:-3])
    with pytest.raises(FormatError) as info:
        formats.load(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


# --- random mutations (hypothesis) -----------------------------------------------------------

MUTATION = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 1 << 16), st.integers(0, 7)),
    st.tuples(st.just("set"), st.integers(0, 1 << 16), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, 1 << 16), st.binary(min_size=1, max_size=9)),
    st.tuples(st.just("delete"), st.integers(0, 1 << 16), st.integers(1, 9)),
    st.tuples(st.just("truncate"), st.integers(0, 1 << 16)),
)


def mutate(data: bytes, mutations) -> bytes:
    blob = bytearray(data)
    for op, pos, *arg in mutations:
        if op == "insert":
            p = pos % (len(blob) + 1)
            blob[p:p] = arg[0]
        elif not blob:
            continue
        elif op == "flip":
            blob[pos % len(blob)] ^= 1 << arg[0]
        elif op == "set":
            blob[pos % len(blob)] = arg[0]
        elif op == "delete":
            p = pos % len(blob)
            del blob[p : p + arg[0]]
        else:
            del blob[pos % len(blob) :]
    return bytes(blob)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_random_mutations_load_the_same_words_or_raise_format_error(data, mutations):
    blob = mutate(data, mutations)
    try:
        lex = formats.loads(blob)
    except FormatError as exc:
        assert str(exc).strip() and "\n" not in str(exc)
        return
    assert list(lex) == sorted(set(UPPER))


# --- atomic writes ---------------------------------------------------------------------------

OLD = b"the old file, which must survive a failed save\n"


def leftovers(directory: Path, keep: str) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name != keep)


def test_successful_save_leaves_no_temp_files(tmp_path, lexicon, data):
    path = tmp_path / "w.dawg"
    path.write_bytes(OLD)
    formats.save(lexicon, path)
    assert path.read_bytes() == data
    assert leftovers(tmp_path, "w.dawg") == []


def test_saved_file_has_the_usual_mode(tmp_path, lexicon):
    path = tmp_path / "new.dawg"
    old = os.umask(0o022)
    try:
        formats.save(lexicon, path)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600


def test_a_write_never_touches_the_process_umask(tmp_path, lexicon, monkeypatch):
    """The umask is process-wide: reading it means setting it, a race with other threads."""
    def forbidden(*_):
        raise AssertionError("os.umask called")

    old = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", forbidden)
        formats.save(lexicon, tmp_path / "quiet.dawg")
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert (tmp_path / "quiet.dawg").stat().st_mode & 0o777 == 0o640  # the kernel applied the umask


@pytest.mark.parametrize("step, error", [
    ("fsync", OSError(28, "No space left on device")),   # the data never reaches the disk
    ("replace", OSError(13, "Permission denied")),        # the rename into place fails
])
def test_failing_step_keeps_the_old_file(tmp_path, lexicon, monkeypatch, step, error):
    path = tmp_path / "w.dawg"
    path.write_bytes(OLD)

    def broken(*args):
        raise error

    monkeypatch.setattr(os, step, broken)
    with pytest.raises(OSError):
        formats.save(lexicon, path)
    monkeypatch.undo()
    assert path.read_bytes() == OLD
    assert leftovers(tmp_path, "w.dawg") == []


class HalfWriter:
    """A file object whose write stores half the data and then fails."""

    def __init__(self, f, exc: BaseException):
        self.f, self.exc = f, exc

    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        raise self.exc

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False


@pytest.mark.parametrize("exc", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_write_failing_midway_keeps_the_old_file(tmp_path, lexicon, monkeypatch, exc):
    path = tmp_path / "w.dawg"
    path.write_bytes(OLD)
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k), exc))
    with pytest.raises(type(exc)):
        formats.save(lexicon, path)
    monkeypatch.undo()
    assert path.read_bytes() == OLD
    assert leftovers(tmp_path, "w.dawg") == []


def test_failed_first_save_leaves_nothing(tmp_path, lexicon, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(5, "I/O error")))
    with pytest.raises(OSError):
        formats.save(lexicon, tmp_path / "new.dawg")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


# --- the u64 edge layout ---------------------------------------------------------------------

def test_u64_layout_loads_and_answers_like_u32(lexicon, data):
    wide = build(layout="u64")
    blob = formats.dumps(wide)
    assert blob != data
    loaded = formats.loads(blob)
    _, header, _, payload = split(blob)
    assert header["meta"]["layout"] == "u64"
    assert len(payload) == 2 * len(split(data)[3])
    assert loaded.layout.name == "u64" and formats.loads(data).layout.name == "u32"
    assert list(loaded) == list(lexicon) == sorted(set(UPPER))
    assert loaded.stats()["nodes"] == lexicon.stats()["nodes"]
    assert loaded.stats()["edges"] == lexicon.stats()["edges"]
    assert loaded.check() == []
    for rack in ["TCA", "SGDO", "TCAS?", "??", "DOG"]:
        for sub in (False, True):
            assert loaded.anagrams(rack, sub=sub) == lexicon.anagrams(rack, sub=sub)
    for word in ["CAT", "DOG", "GOD", "ACT", "DO", "XYZ"]:
        assert (word in loaded) == (word in lexicon) == (word in UPPER)
        assert loaded.hooks(word) == lexicon.hooks(word)
    for pattern in ["?A?", "*S", "D*", "[CT]A*"]:
        assert loaded.pattern(pattern) == lexicon.pattern(pattern)
    assert loaded.hooks("CAT").front == ("S",) and loaded.hooks("CAT").back == ("S",)


def test_u64_layout_is_deterministic_and_resaves_identically():
    blob = formats.dumps(build(layout="u64"))
    assert formats.dumps(build(list(reversed(WORDS)), layout="u64")) == blob
    assert formats.dumps(formats.loads(blob)) == blob


def test_explicit_u32_layout_matches_auto_payload(lexicon):
    assert build(layout="u32").payload() == lexicon.payload()


def test_unknown_build_option_is_a_format_error():
    with pytest.raises(FormatError):
        build(colour="blue")


def test_unknown_format_name_in_build():
    with pytest.raises(FormatError, match="dawg"):
        formats.build(from_words(WORDS, ENGLISH), "no-such-format")


def test_a_write_sweeps_the_part_files_of_killed_writers(tmp_path):
    """SIGKILL leaves the writer's ``.NAME.PID.XXXX.part`` behind; the next write of NAME
    removes those whose writer is gone, and leaves a live writer's file alone."""
    from lexc.formats.container import write_atomic

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    stale = tmp_path / f".out.dawg.{dead}.abcd1234.part"
    live = tmp_path / f".out.dawg.{os.getpid()}.efgh5678.part"
    other = tmp_path / f".other.dawg.{dead}.ijkl9012.part"
    for p in (stale, live, other):
        p.write_bytes(b"partial")
    write_atomic(tmp_path / "out.dawg", b"complete")
    assert (tmp_path / "out.dawg").read_bytes() == b"complete"
    assert not stale.exists() and live.exists() and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name, "out.dawg"])
