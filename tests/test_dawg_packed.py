"""dawg-packed: the DAWG's graph with edges bit-packed to the widths the lexicon needs
(formats/dawg-packed.md): smaller than marisa-trie's trie on ENABLE, the widths a function of
the lexicon, the padding an 8-byte read relies on, and every damaged file refused in one line."""

from __future__ import annotations

import json

import pytest

import lexc
from lexc import native
from lexc.formats import FormatError, build, container, dumps, loads
from lexc.formats import edges as edgemod
from lexc.formats.dawg_packed import PackedDawg
from lexc.wordlist import from_words
from lexicons import SMALL, enable_built
from test_cli import assert_one_error_line, run_main

MARISA_ENABLE = 438_536  # bytes of marisa-trie's trie of ENABLE (issue 38)
BACKENDS = [pytest.param(False, id="core"), pytest.param(True, id="pure")]


def small(words, ruleset: str = "english", pure: bool | None = None):
    alphabet = lexc.load_ruleset(ruleset).alphabet
    return build(from_words(words, alphabet), "dawg-packed", ruleset, backend=native.select(pure=pure))


def parts(lexicon) -> tuple[dict, bytes]:
    header, payload = container.unpack(dumps(lexicon))
    return header, bytes(payload)


def reseal(header: dict, payload: bytes, **meta) -> bytes:
    """A file with this payload and header (meta fields replaced), its checksums made anew."""
    header = {**header, "meta": {**header["meta"], **meta}}
    return container.pack({k: v for k, v in header.items() if k not in ("payload_bytes", "payload_sha256")}, payload)


def test_enable_is_smaller_than_marisa_tries_trie(enable_list):
    packed = enable_built(enable_list, "dawg-packed")
    data = dumps(packed)
    assert len(data) <= MARISA_ENABLE
    meta = packed.meta()
    assert (meta["edge_bytes"], meta["letter_bits"], meta["child_bits"], meta["edges"]) == (3, 5, 17, 122_173)
    assert len(container.unpack(data)[1]) == 122_173 * 3 + 5
    assert packed.stats()["nodes"] == 53_603


def test_enable_holds_the_dawgs_graph_edge_for_edge(enable_list):
    dawg, packed = enable_built(enable_list, "dawg"), enable_built(enable_list, "dawg-packed")
    assert list(packed.edges) == list(edgemod.repack(dawg.edges, dawg.layout, packed.layout))
    assert packed.check() == []


@pytest.mark.parametrize("pure", BACKENDS)
def test_enable_membership_matches_a_set_hits_and_misses(enable_list, pure):
    """`word in` over ENABLE's file, loaded on either path (the core's walk reads packed edges
    in its own loop): every word, and near misses one letter changed, cut or added."""
    words = set(enable_built(enable_list, "dawg").words())
    packed = loads(dumps(enable_built(enable_list, "dawg-packed")), backend=native.select(pure=pure))
    sample = sorted(words)[:: 1 if not pure else 7]
    for word in sample:
        assert word in packed
    near = {w[:-1] for w in sample} | {w + "Z" for w in sample} | {"Q" + w[1:] for w in sample}
    near |= {w[:2] + "X" + w[3:] for w in sample if len(w) > 3}
    assert {w for w in near if w in packed} == near & words
    assert "" not in packed and "A" * 40 not in packed


@pytest.mark.parametrize("n_edges, letters, widths", [
    (1, 26, (1, 5, 1)),  # an empty lexicon: the root pointer alone
    (8, 26, (2, 5, 9)),  # three.txt
    (122_173, 26, (3, 5, 17)),  # ENABLE
    (2**25, 26, (4, 5, 25)),
    (2**25 + 1, 26, (5, 5, 33)),
    (100, 32, (2, 6, 8)),  # 32 codes need 6 bits
    (100, 127, (2, 7, 7)),
    (2**40, 127, (7, 7, 47)),
])
def test_widths_follow_from_the_edge_count_and_the_alphabet(n_edges, letters, widths):
    assert edgemod.packed_widths(n_edges, letters) == widths
    edge_bytes, letter_bits, child_bits = widths
    assert letter_bits + 2 + child_bits == 8 * edge_bytes
    assert (n_edges - 1) < 2**child_bits and letters < 2**letter_bits


@pytest.mark.parametrize("pure", BACKENDS)
def test_a_tiny_list_gets_small_widths(pure):
    one = small(["AA"], pure=pure)  # 3 edges: 5 letter bits, 2 flags, 2 child bits (9 bits: 2 bytes)
    assert (one.meta()["edge_bytes"], one.meta()["child_bits"], len(one.edges)) == (2, 9, 3)
    assert len(parts(one)[1]) == 3 * 2 + 6 == one.stats()["bytes"]
    assert "AA" in loads(dumps(one), backend=native.select(pure=pure))
    empty = PackedDawg.build([], one.alphabet, backend=native.select(pure=pure))  # (no word list is empty)
    assert empty.payload() == b"\x02" + bytes(7)  # 1-byte edges: the root pointer (last, child 0), the padding
    assert list(empty) == [] and "AA" not in empty


@pytest.mark.parametrize("name", sorted(SMALL))
def test_builds_are_byte_identical_and_answer_as_the_dawg(name):
    alphabet = lexc.load_ruleset("english").alphabet
    words = from_words(SMALL[name], alphabet)
    dawg = build(words, "dawg")
    files = {pure: dumps(build(words, "dawg-packed", backend=native.select(pure=pure))) for pure in (False, True)}
    assert files[False] == files[True]
    for pure in (False, True):
        packed = loads(files[pure], backend=native.select(pure=pure))
        assert list(packed) == list(dawg)
        for rack in ("CATRES", "AB?", "??"):
            assert packed.anagrams(rack, sub=True) == dawg.anagrams(rack, sub=True)
        for word in ("CAT", "BA", "ABAB", "TA", "X"):
            assert (word in packed, packed.hooks(word)) == (word in dawg, dawg.hooks(word))
        assert packed.pattern("?A*") == dawg.pattern("?A*")


@pytest.mark.parametrize("pure", BACKENDS)
def test_multi_character_tiles(pure):
    words = ["CARRO", "CIRCO", "CHICO", "LLAMA", "NIÑO", "PERRO", "CALLE", "CHURRO"]
    packed = loads(dumps(small(words, "spanish", pure=pure)), backend=native.select(pure=pure))
    assert packed.meta()["letter_bits"] == 5  # 28 labels
    assert list(packed) == ["CALLE", "CARRO", "CIRCO", "CHICO", "CHURRO", "LLAMA", "NIÑO", "PERRO"]  # code order
    assert "CHURRO" in packed and "CHURO" not in packed
    assert packed.anagrams("RROCHU") == ["CHURRO"]
    assert packed.words("CH") == ["CHICO", "CHURRO"]


# -- damaged files --------------------------------------------------------------------------

@pytest.mark.parametrize("pure", BACKENDS)
@pytest.mark.parametrize("cut, message", [
    (lambda p: p[:-5], "is not a whole number of 2-byte edges and 6 bytes of padding"),  # padding cut short
    (lambda p: p[:-6], "header says 8 edges, payload has 5"),  # no padding: read as fewer edges
    (lambda p: p[:-1] + b"\x01", "the 6 bytes of padding after the edges are not zero"),
    (lambda p: p[:3], "is not a whole number of 2-byte edges"),
    (lambda p: p[:2] + b"\xff\xff" + p[4:], "child index"),  # edge 1 points far past the array
    (lambda p: p[:2] + b"\x00\xfe" + p[4:], "letter code 31 is outside the 26-letter alphabet"),
])
def test_a_damaged_payload_is_refused(pure, cut, message):
    header, payload = parts(small(["BATS", "CAT", "CATS"]))
    with pytest.raises(FormatError, match=message):
        loads(reseal(header, cut(payload)), backend=native.select(pure=pure))


@pytest.mark.parametrize("pure", BACKENDS)
@pytest.mark.parametrize("meta, message", [
    ({"letter_bits": 6, "child_bits": 8}, "edge widths 2 bytes, 6 letter bits, 8 child bits: 8 edges over 26 letters "
                                          "take 2 bytes, 5 letter bits, 9 child bits"),
    ({"edge_bytes": 9}, "'meta.edge_bytes': 9 is outside 1..8"),
    ({"letter_bits": True}, "not an integer"),
])
def test_widths_other_than_the_lexicons_are_refused(pure, meta, message):
    header, payload = parts(small(["BATS", "CAT", "CATS"]))
    with pytest.raises(FormatError, match=message):
        loads(reseal(header, payload, **meta), backend=native.select(pure=pure))


@pytest.mark.parametrize("pure", BACKENDS)
def test_wider_edges_than_the_lexicon_needs_are_refused(pure):
    """The same graph in 3-byte edges reads correctly, but is not this lexicon's one file."""
    lexicon = small(["BATS", "CAT", "CATS"])
    header, _ = parts(lexicon)
    wide = edgemod.packed_layout(3, 17)
    payload = edgemod.pack_packed(edgemod.repack(lexicon.edges, lexicon.layout, wide), wide)
    with pytest.raises(FormatError, match="edge widths 3 bytes, 5 letter bits, 17 child bits: 8 edges over 26 "
                                          "letters take 2 bytes, 5 letter bits, 9 child bits"):
        loads(reseal(header, payload, edge_bytes=3, child_bits=17), backend=native.select(pure=pure))


def test_a_truncated_or_corrupted_file_is_one_error_line(tmp_path, capsys):
    data = dumps(small(SMALL["paper"]))
    truncated, flipped = tmp_path / "cut.dawg-packed", tmp_path / "flip.dawg-packed"
    truncated.write_bytes(data[:-3])
    flipped.write_bytes(data[:-10] + bytes([data[-10] ^ 0x40]) + data[-9:])
    for path in (truncated, flipped):
        for command in (("info", path), ("check", path, "CAT")):
            code, _, err = run_main(capsys, *command)
            assert code == 2
            assert_one_error_line(err, str(path))


def test_the_cli_builds_and_describes_it(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("BATS\nCAT\nCATS\n", encoding="utf-8")
    out = tmp_path / "w.dawg-packed"
    assert run_main(capsys, "build", words, "-f", "dawg-packed", "-o", out)[0] == 0
    code, text, _ = run_main(capsys, "info", out, "--json")
    info = json.loads(text)
    assert code == 0 and info["format"] == "dawg-packed" and info["payload_bytes"] == 8 * 2 + 6
    assert run_main(capsys, "check", out, "CAT")[0] == 0
    assert run_main(capsys, "check", out, "BAT")[0] == 1


# -- the compiled core's Graph over packed edges ---------------------------------------------

needs_core = pytest.mark.skipif(not native.available(), reason="the compiled core is not built")


@needs_core
def test_the_core_refuses_packed_edges_without_their_padding_or_widths():
    core = native.COMPILED.core
    _, payload = parts(small(["BATS", "CAT", "CATS"]))
    graph = core.Graph(payload, "packed", 26, 1, widths=(2, 9))
    assert graph.size() == (8, 0)
    for cut, kind in ((payload[:-5], "size"), (payload[:5], "size"), (payload[:-1] + b"\x80", "padding"),
                      (payload[:-6], "padding")):  # (the last 6 bytes are then edges, not zeros)
        with pytest.raises(native.MalformedGraph) as refused:
            core.Graph(cut, "packed", 26, 1, widths=(2, 9))
        assert refused.value.kind == kind
    for widths in (None, (0, 1), (9, 9), (2, 14), (2, 5), (2, 0), (8, 53), "ab"):
        with pytest.raises(ValueError):
            core.Graph(payload, "packed", 26, 1, widths=widths)
    with pytest.raises(ValueError):  # widths are the packed layout's alone
        core.Graph(payload[:16], "u32", 26, 1, widths=(2, 9))


@pytest.mark.skipif(native.select() is not native.COMPILED, reason="the compiled core is not in use")
def test_a_loaded_file_is_read_in_place_without_python_items(enable_list):
    """On the compiled core nothing is spread into u32 items on load: the core reads the
    payload, and the items are made only when a Python walk asks for them."""
    data = dumps(enable_built(enable_list, "dawg-packed"))
    loaded = loads(data)
    assert loaded._items is None and "QUIXOTIC" in loaded and loaded.stats()["bytes"] == 122_173 * 3 + 5
    assert loaded._items is None
    assert loaded._edge(0) == loaded.edges[0] and loaded._items is not None
