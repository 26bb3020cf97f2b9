"""The two prefix-set formats (Norvig's words + prefixes): cross-checked against the DAWG and
brute force, round trips, the key stream's validation on both stores (the compiled core's
KeySet and the reference's Python sets), and the worked example of the spec."""

from __future__ import annotations

import random
import re

import pytest
from ahocorasick import MATCH_AT_LEAST_PREFIX, MATCH_EXACT_LENGTH
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as ref
from lexc import formats, native
from lexc.formats import build, container, dumps, loads
from lexc.formats.base import Capability
from lexc.formats.errors import FormatError
from lexc.formats.keystream import PureKeySet, encode_index, encode_stream, index_padding, index_slots, key_hash
from lexc.formats.prefixset import PrefixSet, prefix_closure
from lexc.formats.prefixset_aho import WILDCARD, AhoPrefixSet, wildcard_head
from lexc.pattern import parse_pattern
from lexc.wordlist import from_words
from lexicons import SMALL, enable_built

VARIANTS = ["prefixset", "prefixset-aho"]

# anchored patterns: cheap for both variants (a leading * walks the whole key set)
ANCHORED = ["C?T", "[AEIOU][^AEIOU]", "??", "Z*Z", "JA*", "Q[^U]*", "CA[RT]*S", "[XZ]?[XZ]*", "QU??", "B*[XZ]",
            "?", "RE*ING", "UN?[AEIOU]*LY", "[^S]", "AB?", "X*"]
LEADING_STAR = ["*[XZ][XZ]", "?*Q", "*Q[^U]*"]  # test_queries has *, *ING, *QU*Z*, *A*E*I*O*U*


@pytest.fixture(scope="module")
def dawg(enable_list):
    return enable_built(enable_list, "dawg")


@pytest.fixture(scope="module", params=VARIANTS)
def lexicon(request, enable_list):
    return enable_built(enable_list, request.param)


@pytest.fixture(scope="module")
def aho(enable_list):
    return enable_built(enable_list, "prefixset-aho")


def small(words, fmt, english):
    """A lexicon of ``fmt`` from a few words."""
    return build(from_words(words, english.alphabet, min_len=1), fmt)


# -- ENABLE, against the DAWG and brute force ---------------------------------------------

def test_enable_key_set_is_the_dawg_trie(lexicon, dawg):
    stats = lexicon.stats()
    assert stats["keys"] == 387_880  # every non-empty prefix of ENABLE, the words included
    assert stats["nodes"] == dawg.stats()["trie_nodes"] == 387_881
    assert lexicon.check() == []


def test_enable_membership_and_prefixes(lexicon, dawg, enable_set):
    rng = random.Random(7)
    for w in rng.sample(sorted(enable_set), 3000):
        for probe in (w, w[:-1], w[: len(w) // 2], w + "S", w + "Q", w[1:], "Q" + w):
            assert (probe in lexicon) == (probe in dawg) == (probe in enable_set), probe
            assert lexicon.is_prefix(probe) == dawg.is_prefix(probe), probe
    assert lexicon.is_prefix("") and "" not in lexicon


def test_enable_words_with_prefix(lexicon, dawg, enable_set):
    for p in ["Q", "QUI", "ZYZ", "CARET", "XU", "ABSORBABI", "ZZZ", "AA"]:
        assert lexicon.words(p) == dawg.words(p) == ref.with_prefix(enable_set, p), p


@pytest.mark.parametrize("pat", ANCHORED)
def test_enable_anchored_patterns(lexicon, dawg, enable_set, pat):
    assert lexicon.pattern(pat) == dawg.pattern(pat) == ref.pattern(enable_set, pat)


@pytest.mark.parametrize("pat", LEADING_STAR)
def test_enable_leading_star_patterns_native(aho, enable_set, pat):
    # the marisa variant walks the whole key set for these (test_queries covers it); the aho one is native
    assert aho.pattern(pat) == ref.pattern(enable_set, pat)


def test_enable_hooks(lexicon, dawg):
    for w in ["CARE", "AT", "QI", "XI", "HOOK", "ZZZ", "LAUGH", "AA", "OX", "ABSORBABILITY", "EAT", "RAT"]:
        assert lexicon.hooks(w) == dawg.hooks(w), w


def test_enable_anagrams_with_blanks(lexicon, dawg):
    for rack in ["RETAINS", "QUIZ?", "AEIN??", "CAT?"]:
        assert lexicon.anagrams(rack, sub=True) == dawg.anagrams(rack, sub=True), rack


def test_enable_file_size(lexicon):
    """The payload is the key stream (2 bytes a key), then the word index: 4 bytes a slot, a
    quarter more slots than words and one (formats/prefixset.md)."""
    data = dumps(lexicon)
    slots = 172_820 + 172_820 // 4 + 1
    assert lexicon.meta() == {"keys": 387_880, "slots": slots}
    assert len(lexicon.payload()) == 2 * 387_880 + 4 * slots  # (775,760 bytes: no padding)
    assert len(data) <= 1_700_000


# -- small lists against brute force ------------------------------------------------------

@pytest.mark.parametrize("fmt", VARIANTS)
@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_anagrams_and_patterns(english, fmt, name):
    words = {w.upper() for w in SMALL[name]}
    lex = small(words, fmt, english)
    for rack in ["CARES?", "??", "A?", "BATO??", "AB?A", "?????"]:
        for sub in (False, True):
            assert lex.anagrams(rack, sub=sub) == ref.anagrams(words, rack, sub), (rack, sub)
    for pat in ["*", "*S", "?A*", "[BC]*", "*[^S]", "A*A", "*B*A*", "??", "[AB][AB]?"]:
        assert lex.pattern(pat) == ref.pattern(words, pat), pat
    for w in words:
        assert lex.hooks(w).as_dict() == ref.hooks(words, w)


WORDS = st.sets(st.text(alphabet="ABC", min_size=1, max_size=7), min_size=1, max_size=50)


@pytest.mark.parametrize("fmt", VARIANTS)
@settings(max_examples=80, deadline=None)
@given(words=WORDS, probes=st.lists(st.text(alphabet="ABCD", max_size=8), max_size=20),
       pat=st.text(alphabet="ABC?*", min_size=1, max_size=5))
def test_random_lists_match_a_python_set(english, fmt, words, probes, pat):
    lex = small(sorted(words), fmt, english)
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    assert list(lex) == sorted(words) and len(lex) == len(words)
    for p in probes + sorted(prefixes):
        assert (p in lex) == (p in words), p
        assert lex.is_prefix(p) == (p in prefixes), p
    assert lex.pattern(pat) == ref.pattern(words, pat)
    assert lex.stats()["keys"] == len(prefixes) - 1
    assert lex.check() == []
    data = dumps(lex)
    assert dumps(loads(data)) == data == dumps(small(sorted(words), fmt, english))


@settings(max_examples=100, deadline=None)
@given(st.sets(st.binary(min_size=1, max_size=6).map(lambda b: bytes(1 + x % 4 for x in b)), max_size=40))
def test_prefix_closure_is_the_set_of_non_empty_prefixes(words):
    expected = sorted({w[:i] for w in words for i in range(1, len(w) + 1)})
    assert prefix_closure(sorted(words)) == expected


BACKENDS = [pytest.param(native.PURE, id="pure"),
            pytest.param(native.COMPILED, id="core", marks=pytest.mark.skipif(not native.available(),
                                                                             reason="no compiled core"))]


def stores(keys, words, letters=4):
    """The reference store and (when built) the compiled core's, of one key stream."""
    stream = encode_stream(keys, words)
    out = [PureKeySet(stream, letters)]
    if native.available():
        out.append(native.COMPILED.keyset(stream, letters, None, lambda: None))
    return out


PROBES = st.lists(st.binary(max_size=8), max_size=30)


@pytest.mark.parametrize("spread", [1, 40])  # 4 letters (buckets by two letters), 121 (by the first)
@settings(max_examples=100, deadline=None)
@given(words=st.sets(st.binary(min_size=1, max_size=7), max_size=120), probes=PROBES,
       letters=st.integers(0, 2**128 - 1))
def test_the_core_store_answers_as_the_reference(spread, words, probes, letters):
    """KeySet (buckets, a binary search over every 32nd key, then a short scan) against Norvig's
    sets, on lists long enough to hold many samples: flags, subtrees, listings from any
    position, children of a mask; probes of any bytes (past the alphabet, past 127)."""
    words = {bytes(1 + x % 4 * spread for x in w) for w in words}
    keys = prefix_closure(sorted(words))
    found = stores(keys, words, 1 + 3 * spread)
    probes = (probes + keys + [k + b"\x01" for k in keys[:20]] + [k[:-1] + b"\xff" for k in keys[:20]]
              + [b"\x05" * 3, b"\x04" * 70, b"\x7f", b"\x80", b"\x01\x80", b"\x01\x20"])
    for store in found:
        assert store.counts()[:2] == (len(keys), len(words))
    for store in found[1:]:
        reference = found[0]
        for p in probes:
            assert store.flag(p) == reference.flag(p), p
            assert store.subtree(p) == reference.subtree(p), p
            assert store.children(p, letters) == reference.children(p, letters), p
        for start in range(-1, len(keys) + 2, 7):
            assert store.keys(start, start + 40) == reference.keys(start, start + 40)
        assert store.keys(0, len(keys)) == (keys, bytes(w in words for w in keys))


def test_the_core_reads_a_mapped_file_in_place(tmp_path, enable_list):
    if not native.available():
        pytest.skip("no compiled core")
    path = tmp_path / "e.prefixset"
    formats.save(enable_built(enable_list, "prefixset"), path)
    lex = formats.load(path, backend=native.COMPILED)
    assert isinstance(lex.stream, memoryview) and isinstance(lex.index, memoryview)  # the file's views
    keys, words, samples = lex.store.counts()
    assert (keys, words) == (387_880, len(enable_list.words))
    # every 16th key whole (796,748 bytes): with the mapped file, at most twice the file (issue 38)
    assert 0 < samples <= path.stat().st_size


# -- the aho variant: wildcard search, stream validation ----------------------------------

def test_wildcard_head(english):
    def head(p):
        return wildcard_head(parse_pattern(p, english.alphabet))
    assert head("CAT") == ("\x03\x01\x14", MATCH_EXACT_LENGTH)
    assert head("C?[AB]") == ("\x03" + WILDCARD * 2, MATCH_EXACT_LENGTH)
    assert head("CA*T") == ("\x03\x01", MATCH_AT_LEAST_PREFIX)
    assert head("*ING") == ("", MATCH_AT_LEAST_PREFIX)


def aho_file(english):
    """The checked header and the key stream of a saved aho lexicon of CAT, CATS, COT."""
    data = dumps(small(["CAT", "CATS", "COT"], "prefixset-aho", english))
    header, payload = container.unpack(data)
    return header, bytes(payload[: 2 * header["meta"]["keys"]])


def load_stream(header, stream, fmt="prefixset-aho", backend=None, index=None):
    """Load a crafted stream with correct checksums, meta fitted to it and the header's words,
    and its word index (``index``, else the writer's for a stream of whole pairs)."""
    keys, words = len(stream) // 2, header["words"]
    if index is None:
        index = encode_index(stream) if not len(stream) % 2 else b""
        if len(index) != 4 * index_slots(words):
            index = bytes(4 * index_slots(words))
    meta = {**header["meta"], "keys": keys, "slots": index_slots(words)}
    header = {**header, "format": fmt, "format_version": formats.get_format(fmt).version, "meta": meta}
    payload = stream + bytes(index_padding(keys)) + index
    return loads(container.pack(header, payload), f"crafted.{fmt}", backend=backend)


# CAT CATS COT: keys C, CA, CAT*, CATS*, CO, COT* -> pairs 0003 0101 0294 0393 010f 0294
@pytest.mark.parametrize("stream, message", [
    ("0103", "pair 0 (offset 0): depth 1 skips a level"),
    ("0003 0201", "pair 1 (offset 2): depth 2 skips a level"),
    ("0003 0100", "letter code 0 is outside 1..26"),
    ("0003 019b", "letter code 27 is outside 1..26"),
    ("0003 010f 0294 0101 0294", "pair 3 (offset 6): letter code 1 at depth 1 is not after its previous sibling"),
    ("0003 0101 0294 0294", "not after its previous sibling"),  # CAT twice
    ("0003 0101 0214 010f 0294", "pair 3 (offset 6): the previous key (length 3) is neither a word nor a prefix"),
    ("0003 0101 0294 0393 01", "odd length"),
    ("".join(f"{d:02x}01" for d in range(64)) + "4081", "pair 64 (offset 128): a key longer than 64 letters"),
    ("0003 0101 0214", "the last key is not a word"),
])
@pytest.mark.parametrize("fmt", VARIANTS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_corrupt_stream_raises_format_error(english, stream, message, fmt, backend):
    header, _ = aho_file(english)
    bad = bytes.fromhex(stream)
    with pytest.raises(FormatError, match=re.escape(message)) as info:
        if len(bad) % 2:
            formats.get_format(fmt)(bad, english.alphabet, 3, backend=backend)
        else:
            load_stream(header, bad, fmt, backend)
    assert "\n" not in str(info.value) and "key stream" in str(info.value)


def test_stream_ending_with_a_non_word_is_rejected(english):
    header, stream = aho_file(english)
    with pytest.raises(FormatError, match="last key is not a word"):
        load_stream(header, stream[:2])  # just C


def test_payload_length_must_match_meta(english):
    header, _ = aho_file(english)
    _, payload = container.unpack(dumps(small(["CAT", "CATS", "COT"], "prefixset-aho", english)))
    with pytest.raises(FormatError, match=r"a 29-byte payload, not 28 \(6 keys, 4 slots\)$"):
        loads(container.pack(header, bytes(payload) + b"\x00"))
    with pytest.raises(FormatError, match="meta keys=17 does not match a 28-byte payload"):
        loads(container.pack({**header, "meta": {**header["meta"], "keys": 17}}, bytes(payload)))
    with pytest.raises(FormatError, match=r"meta slots=5, not the 4 of 3 words$"):
        loads(container.pack({**header, "meta": {**header["meta"], "slots": 5}}, bytes(payload)))


def test_padding_after_the_stream_must_be_zero(english):
    data = dumps(small(["CAT", "COT"], "prefixset", english))  # C CA CAT* CO COT*: 5 pairs, 10 bytes
    header, payload = container.unpack(data)
    assert header["meta"] == {"keys": 5, "slots": 3} and len(payload) == 10 + 2 + 12
    assert bytes(payload[10:12]) == b"\0\0"
    bad = bytes(payload[:11]) + b"\x01" + bytes(payload[12:])
    with pytest.raises(FormatError, match=r"non-zero padding after the key stream$"):
        loads(container.pack(header, bad))


def test_word_count_must_match_header(english):
    header, stream = aho_file(english)
    with pytest.raises(FormatError, match="flags 3 words, the header says 4"):
        load_stream({**header, "words": 4}, stream)


def test_key_longer_than_the_stream_allows():
    key = bytes([1, 2] * 150)  # word lists stop at 64 tiles long before this
    with pytest.raises(FormatError, match="300 letters"):
        encode_stream([key[:i] for i in range(1, 301)], {key})


# -- the same file for both, check() over a hand-made store ----------------------------------

def test_both_stores_write_the_same_payload(english):
    words = ["CAT", "CATS", "COT"]
    assert small(words, "prefixset", english).payload() == small(words, "prefixset-aho", english).payload()


def hand_store(english, keys, words, word_count):
    """A PrefixSet whose store holds ``keys`` (flagging ``words``) as given: a state no file
    can produce (the stream is validated), for check()'s own checks."""
    lex = small(["CAT"], "prefixset", english)
    lex._bind(PureKeySet.from_keys(keys, bytes(k in words for k in keys)))
    lex.key_count, lex.word_count = len(keys), word_count
    return lex


def test_check_reports_a_missing_prefix(english):
    lex = hand_store(english, [b"\x03\x01"], [b"\x03\x01"], 1)  # CA without C
    assert any("lacks its prefix 'C'" in p for p in lex.check())


def test_check_reports_a_dead_end_and_a_bad_count(english):
    lex = hand_store(english, [b"\x03", b"\x03\x01", b"\x04"], [b"\x03\x01"], 2)
    problems = lex.check()
    assert any("'D' is neither a word nor a prefix" in p for p in problems)
    assert any("the store flags 1 key as words, the header says 2" in p for p in problems)


# -- the worked example of formats/prefixset.md -------------------------------------------

NORVIG = ["HELLO", "HELP", "HELPER"]


@pytest.mark.parametrize("fmt", VARIANTS)
def test_norvig_example(english, fmt):
    lex = small(NORVIG, fmt, english)
    norvig_prefixes = {"", "H", "HE", "HEL", "HELL", "HELP", "HELPE"}  # dict_prefixes in the notebook
    keys = [row["key"] for row in lex.dump_rows()]
    assert keys == sorted((norvig_prefixes - {""}) | set(NORVIG))
    assert [row["key"] for row in lex.dump_rows() if row["terminal"]] == NORVIG
    assert lex.is_prefix("HELP") and "HELP" in lex and "HELPE" not in lex and lex.is_prefix("HELPE")


@pytest.mark.parametrize("backend", BACKENDS)
def test_norvig_example_bytes(english, backend):
    lex = build(from_words(NORVIG, english.alphabet, min_len=1), "prefixset", backend=backend)
    assert {row["key"]: row["index"] for row in lex.dump_rows()} == {  # rows: stream order
        "H": 0, "HE": 1, "HEL": 2, "HELL": 3, "HELLO": 4, "HELP": 5, "HELPE": 6, "HELPER": 7}
    aho = small(NORVIG, "prefixset-aho", english)
    assert aho.payload().hex(" ", 2) == ("0008 0105 020c 030c 048f 0390 0405 0592 "  # the stream, then the
                                         "8a37 2351 0842 cc6d 5634 918f 0000 0000")  # index: the spec's table
    codes = [english.alphabet.encode(w) for w in NORVIG]
    stream = encode_stream(prefix_closure(codes), set(codes))
    assert aho.payload() == lex.payload() == stream + encode_index(stream)
    assert [hex(key_hash(c)) for c in codes] == ["0x353d34e0123378a", "0x2a19dd9f9dcc4208", "0x7e9818292f913456"]
    store, code = lex.store, english.alphabet.encode  # the spec's three lookups
    assert (store.flag(code("HELP")), store.flag(code("HELPE")), store.flag(code("HELPS"))) == (1, 0, -1)
    assert store.subtree(code("HELP")) == (5, 8) and store.subtree(code("HELPS")) == (8, 8)
    hel = store.children(code("HEL"), lex._all)
    assert hel == (1 << code("L")[0] | 1 << code("P")[0], 1 << code("P")[0])


def test_the_automaton_is_built_on_the_first_pattern(english):
    aho = small(NORVIG, "prefixset-aho", english)
    assert aho._automaton is None and "HELP" in aho and aho.words("HEL") == ["HELLO", "HELP", "HELPER"]
    assert aho._automaton is None  # membership and listings: the store
    assert aho.pattern("HEL?") == ["HELP"] and aho._automaton is not None


def test_dump_rows_fit_the_cli_columns(english):
    for fmt in VARIANTS:
        rows = list(small(["CAT", "CATS", "COT"], fmt, english).dump_rows())
        assert [r["note"] for r in rows] == ["C", "CA", "CAT", "CATS", "CO", "COT"]
        assert [r["last"] for r in rows] == [True, False, True, True, True, True]
        assert all({"index", "raw", "letter", "terminal", "last", "child", "note"} <= set(r) for r in rows)


def test_capabilities():
    assert Capability.TRIE in PrefixSet.capabilities and Capability.TRIE in AhoPrefixSet.capabilities
    assert Capability.NATIVE_PATTERN in AhoPrefixSet.capabilities
    assert Capability.NATIVE_PATTERN not in PrefixSet.capabilities


# -- the word index ---------------------------------------------------------------------------

def _words_and_stream(words):
    codes = sorted({bytes(w) for w in words})
    return codes, encode_stream(prefix_closure(codes), set(codes))


def test_key_hash_is_the_cores():
    """The writer's hash (Python) and the core's agree: a table the writer makes is the one
    the core proves, for keys of every length around the 8-letter chunks."""
    rng = random.Random(7)
    words = {bytes(rng.randrange(1, 27) for _ in range(n)) for n in range(1, 65) for _ in range(5)}
    codes, stream = _words_and_stream(words)
    index = encode_index(stream)
    assert len(index) == 4 * index_slots(len(codes))
    PureKeySet(stream, 26).index(index)
    if not native.available():
        pytest.skip("no compiled core")
    from lexc.native import _core

    _core.KeySet(stream, 26).index(index)  # proved: every word where the Python writer put it
    bad = bytearray(index)
    at = next(i for i in range(0, len(bad), 4) if bad[i : i + 4] != bytes(4))
    bad[at : at + 4] = bytes(4)
    with pytest.raises(native.MalformedTable):
        _core.KeySet(stream, 26).index(bytes(bad))


@pytest.mark.parametrize("backend", BACKENDS)
def test_index_membership_matches_a_set(english, backend):
    """Hits and misses of every kind, by the word index, against a Python set: words, their
    prefixes, one letter changed, added or removed, on generated lists."""
    rng = random.Random(11)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for trial in range(6):
        words = sorted({"".join(rng.choice(letters[: 3 + 4 * trial]) for _ in range(rng.randrange(1, 12)))
                        for _ in range(300)})
        lex = build(from_words(words, english.alphabet, min_len=1), "prefixset", backend=backend)
        asked = set(words) | {w[:-1] for w in words} | {w + "S" for w in words} | {w[1:] for w in words}
        asked |= {w[:-1] + rng.choice(letters) for w in words}
        want = set(words)
        assert {w for w in asked if w in lex} == want & asked


def _index_fault(english, backend, mutate):
    """Load CAT CATS COT with its index bytes changed by ``mutate`` (a bytearray)."""
    header, stream = aho_file(english)
    index = bytearray(encode_index(stream))
    mutate(index)
    with pytest.raises(FormatError) as info:
        load_stream(header, stream, "prefixset", backend, bytes(index))
    assert "\n" not in str(info.value)
    return str(info.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_index_faults_are_named_alike(english, backend):
    entries = [i for i in range(4) if encode_index(aho_file(english)[1])[4 * i : 4 * i + 4] != bytes(4)]

    def clear(index):  # a word's entry gone
        index[4 * entries[0] : 4 * entries[0] + 4] = bytes(4)

    def extra(index):  # an entry that is no word's, in the empty slot
        empty = next(i for i in range(4) if i not in entries)
        index[4 * empty : 4 * empty + 4] = (1 << 29 | 5).to_bytes(4, "little")

    def flip(index):  # one fingerprint bit of a word's entry
        index[4 * entries[0]] ^= 1

    assert re.search(r"word index: the word at pair \d+ \(offset \d+\) is not on its probe path$",
                     _index_fault(english, backend, clear))
    assert _index_fault(english, backend, extra).endswith("word index: 4 entries for 3 words")
    assert "is not on its probe path" in _index_fault(english, backend, flip)


def test_index_faults_agree_between_paths(english):
    """Every single-byte change of the index gives both paths the same message."""
    if not native.available():
        pytest.skip("no compiled core")
    header, stream = aho_file(english)
    good = encode_index(stream)
    for at in range(len(good)):
        for value in (0, 1, 0x80, 0xFF):
            index = bytearray(good)
            if index[at] == value:
                continue
            index[at] = value
            said = []
            for backend in (native.PURE, native.COMPILED):
                try:
                    load_stream(header, stream, "prefixset", backend, bytes(index))
                    said.append("loaded")
                except FormatError as exc:
                    said.append(str(exc))
            assert said[0] == said[1], (at, value, said)


def test_too_many_keys_for_the_index():
    with pytest.raises(FormatError, match="keys do not fit the word index"):
        encode_index(_LongStream())


class _LongStream(bytes):
    """A stream that says it holds 2^32 - 1 pairs (no such list is built)."""

    def __len__(self) -> int:
        return 2 * (2**32 - 1)
