"""wolges's family beside the KWG (``formats/kwgfamily.md``, ``lexpert.md``, ``macondo.md``),
checked against the files wolges wrote (``tests/interop.py``: read where they are, never
copied): lexc recognises each by its content, reads it and lists exactly wolges's listing of
its words (a KAD: its alphagrams), on both backends; and lexc's writer, given the same words
(and the same title, date or lexicon name), writes the very same bytes."""

from __future__ import annotations

import mmap
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzz  # tools/fuzz.py: conftest puts tools/ on the path
from interop import engine_bytes, engine_file, engine_lines
from lexc import native
from lexc.cli import cli
from lexc.formats import Dawg, FormatError
from lexc.formats.foreign import FOREIGN, by_extension, read_foreign, recognise
from lexc.formats.gaddag import Gaddag, Gaddawg
from lexc.formats.kwgfamily import scan_u32, unpadded_u32
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from test_cli import run_main

ENGLISH = load_ruleset("english")
BACKENDS = [native.PURE] + ([native.COMPILED] if native.COMPILED is not None else [])
BACKEND_IDS = ["compiled" if b.compiled else "pure" for b in BACKENDS]
DATE = "26 November 2026"  # the date every .lxd of the manifest records

# (wolges's file, lexc's format for it, wolges's listing of what it holds)
SMALL = [(f"{stem}{suffix}", fmt, f"{stem}{listing}")
         for stem in ("tiny", "len15", "len16")
         for suffix, fmt, listing in ((".kbwg", "kbwg", ".kbwg.txt"), ("-dawg.kwg", "kwg-dawg", "-dawg.kwg.txt"),
                                      (".kad", "kad", ".kad.txt"), (".lxd", "lxd", ".lxd.txt"),
                                      (".dawg", "macondo-dawg", ".kwg.txt"), (".gaddag", "macondo-gaddag", ".kwg.txt"))]
# Macondo's files have no listing of their own (no engine reads them back): they were written from
# the KWG whose listing is given. ENABLE's (big, several seconds on the pure path): slow.
ENABLE = [("ENABLE.kbwg", "kbwg", "ENABLE.kbwg.txt.gz"), ("ENABLE-dawg.kwg", "kwg-dawg", "ENABLE-dawg.kwg.txt.gz"),
          ("ENABLE.kad", "kad", "ENABLE.kad.txt.gz"), ("ENABLE.lxd", "lxd", "ENABLE.lxd.txt.gz"),
          ("ENABLE.dawg", "macondo-dawg", "ENABLE.kwg.txt.gz"), ("ENABLE.gaddag.gz", "macondo-gaddag",
                                                                  "ENABLE.kwg.txt.gz")]
CLASSES = {"kbwg": Gaddawg, "kwg-dawg": Dawg, "kad": Dawg, "lxd": Dawg, "macondo-dawg": Dawg, "macondo-gaddag": Gaddag}


def _read(name: str, fmt: str, backend: native.Backend | None = None):
    """wolges's file read by lexc: by its path (recognised by content), or (a .gz) from its bytes."""
    if name.endswith(".gz"):
        return FOREIGN[fmt].read(engine_bytes("wolges", name), name, ENGLISH, backend)
    path = engine_file("wolges", name)
    assert recognise(path) is FOREIGN[fmt], f"{name} is not recognised as {fmt}"
    return read_foreign(path, FOREIGN[fmt], ENGLISH, backend)


def _check_listing(name: str, fmt: str, listing: str, backend: native.Backend) -> None:
    lexicon = _read(name, fmt, backend)
    assert type(lexicon) is CLASSES[fmt]
    assert list(lexicon) == engine_lines("wolges", listing)
    assert lexicon.engine == backend.name and len(lexicon) == len(engine_lines("wolges", listing))


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
@pytest.mark.parametrize("name, fmt, listing", SMALL, ids=[n for n, _, _ in SMALL])
def test_lexc_lists_exactly_wolgess_words(name, fmt, listing, backend):
    _check_listing(name, fmt, listing, backend)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
@pytest.mark.parametrize("name, fmt, listing", ENABLE, ids=[n for n, _, _ in ENABLE])
def test_enable_from_wolges(name, fmt, listing, backend):
    _check_listing(name, fmt, listing, backend)


def _options(fmt: str, stem: str) -> dict[str, str]:
    return {"lxd": {"title": stem, "date": DATE}, "macondo-dawg": {"name": stem},
            "macondo-gaddag": {"name": stem}}.get(fmt, {})


def _same_bytes(name: str, fmt: str, stem: str, words_listing: str) -> None:
    words = from_words(engine_lines("wolges", words_listing), ENGLISH.alphabet)
    lexicon = Dawg.build(list(words.words), ENGLISH.alphabet)
    ours = FOREIGN[fmt].write_with(lexicon, ENGLISH, _options(fmt, stem))
    theirs = engine_bytes("wolges", name)
    assert len(ours) == len(theirs)
    assert ours == theirs, f"lexc's {fmt} differs from wolges's {name} from byte " \
        f"{next(i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b)}"


@pytest.mark.parametrize("name, fmt, listing", SMALL, ids=[n for n, _, _ in SMALL])
def test_lexcs_writer_writes_wolgess_bytes(name, fmt, listing):
    """From the words of wolges's input list (its listing), every format of the family: the
    same bytes, the same node order (``wolgesgraph``)."""
    stem = name.split(".")[0].removesuffix("-dawg")
    _same_bytes(name, fmt, stem, f"{stem}.kwg.txt")


@pytest.mark.slow
@pytest.mark.parametrize("name, fmt, listing", ENABLE, ids=[n for n, _, _ in ENABLE])
def test_lexcs_enable_is_wolgess_bytes(name, fmt, listing):
    _same_bytes(name, fmt, "ENABLE", "ENABLE.kwg.txt.gz")


@pytest.mark.parametrize("name", ["tiny.kwg", "len15.kwg", "len16.kwg"])
def test_the_kwg_of_wolgess_layout_is_wolgess_kwg(name):
    """The layout every writer here uses, given the KWG's content (DAWG and GADDAG), is wolges's
    KWG byte for byte: lexc's own KWG export is the same graph in another order (kwg.md)."""
    from lexc.formats.kwgfamily import kwg_bytes
    from lexc.formats.wolgesgraph import build_states, layout

    words = list(from_words(engine_lines("wolges", name + ".txt"), ENGLISH.alphabet).words)
    assert kwg_bytes(layout(build_states(words, gaddag=True), 1 << 22)) == engine_bytes("wolges", name)


@pytest.mark.parametrize("name", ["tiny.gaddag", "len15.gaddag", "len16.gaddag", "tiny.kbwg", "len15.kbwg"])
def test_the_gaddag_read_spells_wolgess_gaddag_strings(name):
    """Macondo's .gaddag and the KBWG read by lexc spell the GADDAG strings wolges lists for the
    KWG they came from ('@' the separator)."""
    stem = name.split(".")[0]
    lexicon = _read(name, "macondo-gaddag" if name.endswith(".gaddag") else "kbwg")
    found: list[str] = []

    def walk(node, path):
        for letter, child in lexicon.children(node):
            step = path + ("@" if letter == 0 else lexicon.alphabet.label(letter))
            if lexicon.is_word(child):
                found.append(step)
            walk(child, step)

    walk(lexicon.gaddag_root(), "")
    assert sorted(found) == sorted(engine_lines("wolges", f"{stem}.kwg.gaddag.txt"))


def test_the_fields_a_file_records():
    assert _read("tiny.lxd", "lxd").file_fields == {"title": "tiny", "date": DATE}
    assert _read("len15.dawg", "macondo-dawg").file_fields == {"lexicon": "len15"}
    assert _read("len16.gaddag", "macondo-gaddag").file_fields == {"lexicon": "len16"}


def test_a_kad_answers_anagram_lookups():
    """A KAD holds alphagrams: the alphagram of a rack is in it exactly when the rack is a word's
    anagram; its anagram search lists the alphagrams a rack's tiles make."""
    kad = _read("tiny.kad", "kad")
    assert "ACST" in kad and "CATS" not in kad
    assert kad.anagrams("TACS") == ["ACST"]
    assert kad.anagrams("STAC", sub=True) == ["ACST", "ACT"]


def test_the_engine_files_are_never_confused():
    """Each of wolges's files is recognised as its own format by its content; the listings (word
    lists) as none: a KWG, a KBWG, a KAD, a DAWG-only KWG and a word list are never confused."""
    expected = {"kwg": "kwg", "kbwg": "kbwg", "kad": "kad", "-dawg.kwg": "kwg-dawg", "lxd": "lxd",
                "dawg": "macondo-dawg", "gaddag": "macondo-gaddag"}
    for stem in ("tiny", "len15", "len16"):
        for ending, fmt in expected.items():
            name = f"{stem}{ending}" if ending.startswith("-") else f"{stem}.{ending}"
            found = recognise(engine_file("wolges", name))
            assert found is not None and found.name == fmt, name
        assert recognise(engine_file("wolges", f"{stem}.kwg.txt")) is None


def test_an_alphagram_shaped_dawg_only_kwg_goes_by_its_name(tmp_path):
    """A DAWG-only KWG whose words all happen to be alphagrams has the bytes of a KAD: by content
    it is a KAD, and its file name (``-dawg.kwg``) decides it is a DAWG-only KWG."""
    words = from_words(["ACT", "ABS", "BOT"], ENGLISH.alphabet)  # each word its own alphagram
    data = FOREIGN["kwg-dawg"].write(Dawg.build(list(words.words), ENGLISH.alphabet), ENGLISH)
    assert data == FOREIGN["kad"].write(Dawg.build(list(words.words), ENGLISH.alphabet), ENGLISH)
    (tmp_path / "x.bin").write_bytes(data)
    (tmp_path / "x-dawg.kwg").write_bytes(data)
    assert recognise(tmp_path / "x.bin") is FOREIGN["kad"]
    assert recognise(tmp_path / "x-dawg.kwg") is FOREIGN["kwg-dawg"]
    assert by_extension("X-dawg.kwg") == ["kwg-dawg"] and by_extension("x.kwg") == ["kwg"]


def test_a_kad_of_words_is_refused_in_one_line():
    """A DAWG-only KWG of real words read as a KAD: refused, saying what it looks like."""
    with pytest.raises(FormatError, match=r"not an alphagram.*kwg-dawg") as caught:
        FOREIGN["kad"].read(engine_bytes("wolges", "tiny-dawg.kwg"), "tiny-dawg.kwg", ENGLISH)
    assert "\n" not in str(caught.value)


def test_the_cli_exports_and_reads_the_family(tmp_path):
    """lexc export writes wolges's bytes (the title defaults to OUT's name); every command reads
    them back; lexc info names the layout and the fields."""
    listing = engine_file("wolges", "tiny.kwg.txt")
    runner = CliRunner()
    out = tmp_path / "tiny.lxd"
    result = runner.invoke(cli, ["export", str(listing), "--to", "lxd", "-o", str(out), "-O", f"date={DATE}"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == engine_bytes("wolges", "tiny.lxd")
    for fmt, target in (("macondo-gaddag", "tiny.gaddag"), ("kbwg", "tiny.kbwg"), ("kad", "tiny.kad")):
        result = runner.invoke(cli, ["convert", str(engine_file("wolges", "tiny.kwg")), str(tmp_path / target),
                                     "--to", fmt])
        assert result.exit_code == 0, result.output
        assert (tmp_path / target).read_bytes() == engine_bytes("wolges", target)
    result = runner.invoke(cli, ["info", str(out)])
    assert "file_layout: lxd" in result.output and f"date: {DATE}" in result.output
    result = runner.invoke(cli, ["anagram", str(tmp_path / "tiny.gaddag"), "TAC"])
    assert result.output.split() == ["CAT"]
    result = runner.invoke(cli, ["export", str(listing), "--to", "lxd", "-o", str(out), "-O", "colour=red"])
    assert isinstance(result.exception, FormatError) and "takes no option 'colour'" in str(result.exception)


@pytest.mark.parametrize("fmt", ["lxd", "macondo-dawg", "macondo-gaddag"])
def test_a_multi_character_tile_is_refused_naming_the_word(fmt):
    """Lexpert and Macondo store one character a letter: Spanish CH cannot be written."""
    spanish = load_ruleset("spanish")
    words = from_words(["CASA", "CHICO"], spanish.alphabet)
    with pytest.raises(FormatError, match=r"^CHICO: the tile CH is not one") as caught:
        FOREIGN[fmt].write(Dawg.build(list(words.words), spanish.alphabet), spanish)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("fmt", ["kbwg", "kwg-dawg", "kad"])
def test_tile_numbered_formats_hold_any_tile_and_read_back(fmt):
    """The KWG family stores tile numbers: Spanish's CH, LL, RR and Ñ round-trip by label."""
    spanish = load_ruleset("spanish")
    words = from_words(["CHICO", "LLAMA", "PERRO", "NIÑO"], spanish.alphabet)
    data = FOREIGN[fmt].write(Dawg.build(list(words.words), spanish.alphabet), spanish)
    again = FOREIGN[fmt].read(data, "x", spanish)
    stored = [bytes(sorted(w)) for w in words.words] if fmt == "kad" else list(words.words)
    assert sorted(again.iter_codes()) == sorted(stored)
    if fmt == "kad":
        assert "CCHIO" in again  # CHICO: CH I C O, sorted C CH I O


def test_a_tile_past_the_field_is_refused_naming_the_word():
    from lexc.formats.kwgfamily import engine_words

    words = from_words(["AB", "CAB"], ENGLISH.alphabet)
    with pytest.raises(FormatError, match=r"^CAB: the tile C is number 3 in wolges's order, past the 2 a KBWG holds"):
        engine_words(Dawg.build(list(words.words), ENGLISH.alphabet), ENGLISH, "wolges", 2, "KBWG")


# -- the checks an engine's headerless array gets before it is read, in C and in Python --------

def _u32s(*values: int) -> bytes:
    return b"".join(v.to_bytes(4, "little") for v in values)


CLOSED = 1 << 22 | 1 << 24  # a closed edge: tile 1, last bit, no child
CRAFTED = {  # (entries, slots) -> what the scan says, and the entries the padding rule closes
    "clean": ((_u32s(1 << 22 | 1, 1 << 24 | 1 << 23 | 1 << 22), 1), (True, -1, -1), []),
    "child outside": ((_u32s(1 << 22 | 1, 2 << 24 | 9), 1), (False, -1, -1), []),
    "descent": ((_u32s(1 << 22 | 1, 3 << 24 | 2, 2 << 24 | 1 << 23 | 1 << 22), 1), (True, 1, -1), []),
    "padding after a list": ((_u32s(1 << 22 | 1, 1 << 24 | 1 << 23 | 1 << 22, 0, 0), 1), (True, -1, 2), [2, 3]),
    "a reached zero": ((_u32s(1 << 22 | 1, 1 << 24 | 1 << 23 | 1 << 22 | 2, 0), 1), (True, 1, 2), []),
    "a zero inside a list": ((_u32s(1 << 22 | 1, 1 << 24 | 1 << 23, 0, 0), 1), (True, -1, 2), []),
    "a zero in a slot": ((_u32s(0, 1 << 22 | 2, 1 << 24 | 1 << 23 | 1 << 22), 1), (True, -1, -1), []),
    "a zero first after the slots": ((_u32s(1 << 22 | 2, 0, 1 << 24 | 1 << 23 | 1 << 22), 1), (True, -1, 1), [1]),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_the_scan_and_the_padding_rule_on_crafted_arrays(case):
    """The reference (Python) says what each crafted array is: every child inside or not, the
    first entry leading to a smaller tile, the first zero entry; which zero entries the padding
    rule closes (unreached, after a list's end or the slots, or after padding so closed)."""
    (data, slots), scan, closed = CRAFTED[case]
    assert scan_u32(data, slots) == scan
    fixed = unpadded_u32(data, slots)
    if not closed:
        assert fixed is None
    else:
        assert fixed is not None and len(fixed) == len(data)
        changed = [i for i in range(len(data) // 4) if fixed[4 * i : 4 * i + 4] != data[4 * i : 4 * i + 4]]
        assert changed == closed and all(fixed[4 * i : 4 * i + 4] == _u32s(CLOSED) for i in closed)


def _changed(before: bytes, after: bytes | None) -> list[int]:
    after = before if after is None else after
    return [i for i in range(len(before) // 4) if after[4 * i : 4 * i + 4] != before[4 * i : 4 * i + 4]]


@pytest.mark.parametrize("reached", [None, 5])
def test_the_padding_rule_on_many_zero_entries(reached):
    """Forty zero entries after a closed list: all closed, each after the one before; or, when
    a child reaches entry 5,
    those before it only (entry 5 stays zero and refused, and the entries after it continue
    no closed list)."""
    data = _u32s(1 << 22 | 1, 1 << 24 | 1 << 23 | 1 << 22 | (reached or 0), *[0] * 40)
    assert _changed(data, unpadded_u32(data, 1)) == (list(range(2, 42)) if reached is None else [2, 3, 4])
    if native.COMPILED is not None:
        assert native.COMPILED.unpad_u32(data, 1, lambda: b"") == unpadded_u32(data, 1)


needs_core = pytest.mark.skipif(native.COMPILED is None, reason="the compiled core is not built")


@needs_core
@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_the_cores_scan_and_padding_rule_are_the_references_on_crafted_arrays(case):
    (data, slots), _, _ = CRAFTED[case]
    core = native.COMPILED
    assert core.scan_u32(data, slots, lambda: None) == scan_u32(data, slots)
    assert core.unpad_u32(data, slots, lambda: b"") == unpadded_u32(data, slots)


@needs_core
@pytest.mark.parametrize("name", ["tiny-dawg.kwg", "tiny.kad", "tiny.kwg", "len16.kad", "ENABLE-dawg.kwg",
                                  "ENABLE.kad"])
def test_the_cores_scan_and_padding_rule_are_the_references_on_wolgess_files(name):
    """wolges's own files (ENABLE's KAD has 15 padding entries the rule closes)."""
    data = engine_bytes("wolges", name)
    core = native.COMPILED
    assert core.scan_u32(data, 1, lambda: None) == scan_u32(data, 1)
    assert core.unpad_u32(data, 1, lambda: b"") == unpadded_u32(data, 1)
    if name == "ENABLE.kad":
        assert scan_u32(data, 1)[2] >= 0 and unpadded_u32(data, 1) is not None


@needs_core
@settings(max_examples=300, deadline=None, derandomize=True)
@given(entries=st.lists(st.one_of(st.just(0), st.integers(0, 2**32 - 1),
                                  st.builds(lambda tile, bits, child: tile << 24 | bits << 22 | child,
                                            st.integers(0, 4), st.integers(0, 3), st.integers(0, 12))),
                        max_size=12),
       slots=st.integers(0, 3))
def test_the_cores_scan_and_padding_rule_are_the_references_on_any_array(entries, slots):
    data = _u32s(*entries)
    core = native.COMPILED
    assert core.scan_u32(data, slots, lambda: None) == scan_u32(data, slots)
    assert core.unpad_u32(data, slots, lambda: b"") == unpadded_u32(data, slots)


@needs_core
def test_the_core_refuses_a_part_entry():
    with pytest.raises(ValueError):
        native.COMPILED.scan_u32(b"\x00" * 5, 1, lambda: None)
    with pytest.raises(ValueError):
        native.COMPILED.unpad_u32(b"\x00" * 7, 1, lambda: None)


@pytest.mark.parametrize("name", ["tiny.kwg", "tiny-dawg.kwg", "tiny.kad"])
def test_a_file_read_in_place_is_mapped_not_copied(name):
    """An engine's file lexc reads in place (a KWG's edges are its own bytes) is given to the
    reader as a map of the file, as lexc's own files are: its edges are a view of the map (a
    DAWG-only KWG's and a KAD's too, wolges's tile order being English's: no copy)."""
    path = engine_file("wolges", name)
    seen = []
    fmt = recognise(path)

    class Spy(fmt):  # type: ignore[misc, valid-type]
        @classmethod
        def read(cls, data, name, ruleset, backend=None):
            seen.append(type(data))
            return fmt.read(data, name, ruleset, backend)

    lexicon = read_foreign(path, Spy, ENGLISH)
    assert seen == [mmap.mmap] and list(lexicon) == engine_lines("wolges", f"{name}.txt")
    assert isinstance(lexicon.edges, memoryview) and isinstance(lexicon.edges.obj, mmap.mmap)


# -- bad input: the fuzzer's mutations of the family's files (tools/fuzz.py, "wolges's family") --

@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(which=st.integers(0, 10**6), kind=st.sampled_from(sorted(fuzz.FAMILY_MUTATIONS)), seed=st.integers(0, 2**32))
def test_mutated_family_files_are_read_safely_or_refused(which, kind, seed):
    """Truncated, flipped, spliced, crafted entries, another format's reader: FormatError (one
    line) or a lexicon whose queries run, the same on both backends; never another exception."""
    bases = fuzz.family_bases()
    case = fuzz.FAMILY_MUTATIONS[kind](random.Random(seed), bases[which % len(bases)])
    outcome, detail = fuzz.run_case(case, 10.0)
    assert outcome != "BUG", f"{case.fmt} {kind}: {detail}"


@pytest.mark.parametrize("fmt", ["kbwg", "kwg-dawg", "kad", "lxd", "macondo-dawg", "macondo-gaddag"])
def test_every_truncation_of_a_small_file_is_refused_in_one_line(fmt):
    data = next(b["data"] for b in fuzz.family_bases() if b["fmt"] == fmt and b["list"] == "hand")
    for size in range(len(data)):
        with pytest.raises(FormatError) as caught:
            FOREIGN[fmt].read(data[:size], "cut", ENGLISH)
        assert "\n" not in str(caught.value) and str(caught.value).startswith("cut: ")


CUT_FILES = [("wolges", "tiny.kwg"), ("wolges", "tiny.kbwg"), ("wolges", "tiny-dawg.kwg"), ("wolges", "tiny.kad"),
             ("wolges", "tiny.lxd"), ("wolges", "tiny.dawg"), ("wolges", "len15.gaddag"), ("quackle", "TINY.dawg"),
             ("quackle", "TINY.gaddag"), ("zyzzyva", "TINY.dwg"), ("zyzzyva", "TINY-R.dwg"),
             ("wolges", "CSW21_small.klv2"), ("wolges", "CSW21_small.klv")]


@pytest.mark.parametrize("engine,name", CUT_FILES)
def test_a_cut_short_engine_file_is_refused_as_what_its_name_says(engine, name, tmp_path, capsys):
    """An engine's file cut short (by a byte, by three, to half) is no longer recognised by its
    content, and the word-list reader refuses it (NUL bytes, no line breaks): the refusal
    is the reader's of the format its name names (its size not whole entries, its header's
    count against its size), in one line, never a word list's ("a line longer than 4,096
    bytes", "looks like UTF-16"). A KWG's message says its bytes are not whole entries."""
    data = engine_bytes(engine, name)
    for size in (len(data) - 1, len(data) - 3, len(data) // 2):
        path = tmp_path / name
        path.write_bytes(data[:size])
        code, out, err = run_main(capsys, "info", str(path))
        message = err.strip()
        assert code == 2 and not out and "\n" not in message, message
        assert message.startswith(f"lexc: error: {path}: "), message
        for wrong in ("word list", "UTF-16", "line longer", "no words left"):
            assert wrong not in message, message
        fmt = FOREIGN[by_extension(path)[0]]
        if fmt.name in ("kwg", "kbwg", "kwg-dawg", "kad") and size % 4:
            assert "are not whole four-byte entries (cut short?)" in message, message
        if fmt.name.startswith("zyzzyva") and size % 4 and size >= 4 * 257:  # (an edge count, the root's 256 edges)
            assert "are not whole four-byte edges (cut short?)" in message, message
        if fmt.kind == "leaves":
            assert "read it with 'lexc leaves" in message, message
            code, out, err = run_main(capsys, "leaves", str(path))
            assert code == 2 and not out and "\n" not in err.strip(), err
            assert "not a KLV file (" in err and "bytes" in err, err


def test_a_text_file_named_like_an_engine_file_is_still_read_as_a_word_list(tmp_path, capsys):
    """The name decides nothing for a text file: a word list named ``.kwg`` is read as one, and
    one named ``.dawg`` with a bad line is refused by the word-list reader, naming the line."""
    words = tmp_path / "words.kwg"
    words.write_text("CAT\nDOG\n")
    code, out, _ = run_main(capsys, "words", str(words))
    assert code == 0 and out.split() == ["CAT", "DOG"]
    bad = tmp_path / "bad.dawg"
    bad.write_text("CAT\nD0G\n")
    code, out, err = run_main(capsys, "info", str(bad))
    assert code == 2 and f"{bad}:2: 'D0G' has '0'" in err


@pytest.mark.parametrize("name", ["cut-dawg.kwg", "cut.kwg"])
def test_a_cut_dawg_only_kwg_whose_entries_are_whole_is_refused_as_one_not_as_a_kad(name, tmp_path, capsys):
    """Cut to whole entries, a DAWG-only KWG's children point past its end: neither it nor the
    KAD confirms. The one its name names reads it (``-dawg.kwg``), else the first, the KAD's,
    whose reader makes the graph's checks before the alphagram test: either way the file is
    refused for what the cut did (a list left open), not because a path descends."""
    data = engine_bytes("wolges", "ENABLE-dawg.kwg")
    path = tmp_path / name
    path.write_bytes(data[: len(data) // 8 * 4])  # (the root's list still inside: the start still looks right)
    assert recognise(path) is FOREIGN["kwg-dawg" if name.endswith("-dawg.kwg") else "kad"]
    code, _, err = run_main(capsys, "info", str(path))
    assert code == 2 and "\n" not in err.strip() and "alphagram" not in err, err
    assert "the last edge does not close its node" in err, err


@pytest.mark.parametrize("name", ["words.kwg", "words.dawg", "words.gaddag", "words.dwg"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_word_list_named_like_an_engine_file_is_told_to_be_converted(name, encoding, tmp_path, capsys):
    """UTF-16 text has NUL bytes, and capitals in UTF-16 can even start as a KWG does: it is
    still text, so the word-list reader's advice stands (convert it to UTF-8), with or
    without a byte-order mark, whatever the name; ``build`` says the same."""
    path = tmp_path / name
    path.write_bytes("CATS\nDOGS\n".encode(encoding))
    assert recognise(path) is None
    for command in ("info", "build"):
        code, out, err = run_main(capsys, command, str(path), *(["-o", str(tmp_path / "x.dawg")] if command == "build"
                                                                  else []))
        assert code == 2 and not out and "looks like UTF-16, not UTF-8; convert it" in err, err


def test_a_text_leave_table_named_like_a_klv_is_refused_as_text(tmp_path, capsys):
    """A text file named ``.klv2`` that is no LEAVE,VALUE table is refused for what it is
    (text), not read as a cut KLV."""
    path = tmp_path / "notes.klv2"
    path.write_text("# comment\n?,1.0\n")
    code, _, err = run_main(capsys, "leaves", str(path))
    assert code == 2 and "not a leave file (text, but not LEAVE,VALUE lines)" in err, err


@pytest.mark.parametrize("engine,name,says", [
    ("wolges", "tiny.kwg", "a kwg file (wolges, MAGPIE, Macondo), not a word list: lexc convert"),
    ("wolges", "tiny-dawg.kwg", "a kwg-dawg file (wolges), not a word list: lexc convert"),
    ("wolges", "tiny.kad", "a kad file (wolges) holds alphagrams, not a word list"),
    ("wolges", "CSW21_small.klv2", "not a word list: read it with 'lexc leaves"),
    ("quackle", "TINY.dawg", "a quackle-dawg file (Quackle), not a word list: lexc convert")])
def test_build_refuses_a_compiled_file_saying_what_reads_it(engine, name, says, tmp_path, capsys):
    """``lexc build`` reads word lists: an engine's file (or lexc's own) given to it is refused
    saying what it is and what reads it, not with what the word-list reader makes of its
    bytes ("a line longer than 4,096 bytes", "looks like UTF-16")."""
    out = tmp_path / "x.dawg"
    code, _, err = run_main(capsys, "build", str(engine_file(engine, name)), "-o", str(out))
    assert code == 2 and says in err and "\n" not in err.strip(), err
    assert not out.exists()


def test_build_refuses_lexcs_own_compiled_file(tmp_path, capsys):
    lexc_file, out = tmp_path / "tiny.gaddawg", tmp_path / "x.dawg"
    assert run_main(capsys, "convert", str(engine_file("wolges", "tiny.kwg")), str(lexc_file))[0] == 0
    code, _, err = run_main(capsys, "build", str(lexc_file), "-o", str(out))
    assert code == 2 and "a compiled lexc lexicon, not a word list: lexc convert" in err, err
    assert not out.exists()


def test_convert_refuses_a_cut_kwg_as_one(tmp_path, capsys):
    """``convert`` (which takes compiled files only) says why a cut KWG is none."""
    data = engine_bytes("wolges", "tiny.kwg")
    path = tmp_path / "cut.kwg"
    path.write_bytes(data[:-1])
    code, _, err = run_main(capsys, "convert", str(path), str(tmp_path / "x.gaddawg"))
    assert code == 2 and "not a KWG file: its 223 bytes are not whole four-byte entries (cut short?)" in err, err


@pytest.mark.parametrize("argv", [["hooks", "{kad}", "AB"], ["stats", "{kad}"],
                                  ["moves", "{kad}", "--cgp", "/".join(["15"] * 15) + " CATS/ 0/0 0"],
                                  ["export", "{kad}", "--to", "kwg", "-o", "{out}"],
                                  ["diff", "{kad}", "{kwg}"]])
def test_a_kad_is_refused_where_words_are_needed(argv, tmp_path, capsys):
    """A KAD's strings are alphagrams: a command that checks, hooks, plays, counts or
    converts words refuses it in one line, saying what it holds and what reads it."""
    paths = {"kad": str(engine_file("wolges", "tiny.kad")), "kwg": str(engine_file("wolges", "tiny.kwg")),
             "out": str(tmp_path / "out.kwg")}
    code, out, err = run_main(capsys, *(a.format(**paths) for a in argv))
    message = err.strip()
    assert code == 2 and not out and "\n" not in message and "holds alphagrams, not words" in message
    assert "lexc check and anagram look racks up in it" in message
    assert not (tmp_path / "out.kwg").exists()


def test_a_kad_is_read_by_anagram_info_and_verify_against_a_word_list():
    """anagram answers the alphagrams a rack makes; verify --against a word list compares the
    KAD with the list's alphagrams (wolges's tile order), and finds a missing one."""
    kad = str(engine_file("wolges", "tiny.kad"))
    runner = CliRunner()
    assert runner.invoke(cli, ["anagram", kad, "TAC"]).output.split() == ["ACT"]
    assert "file_layout: kad" in runner.invoke(cli, ["info", kad]).output
    result = runner.invoke(cli, ["check", kad, "CAT", "TACS"])
    assert result.exit_code == 0 and result.output.splitlines() == ["CAT: ACT is a word's alphagram",
                                                                      "TACS: ACST is a word's alphagram"]
    result = runner.invoke(cli, ["check", kad, "CAB"])
    assert result.exit_code == 1 and result.output.strip() == "CAB: ABC is NOT a word's alphagram"
    result = runner.invoke(cli, ["verify", kad, "--against", str(engine_file("wolges", "tiny.kwg.txt"))])
    assert result.exit_code == 0 and result.output.startswith("OK: 11 words"), result.output
    result = runner.invoke(cli, ["verify", kad, "--against", str(engine_file("wolges", "len15.kwg.txt"))])
    assert result.exit_code == 1 and "only in the list" in result.output


def test_build_from_kwg_names_what_another_engines_file_looks_like(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", "--from", "kwg", str(engine_file("wolges", "tiny.kad")),
                         "-o", str(tmp_path / "x.dawg"))
    assert code == 2 and err.strip().endswith("it looks like a kad file (wolges)") and "\n" not in err.strip()
    assert not (tmp_path / "x.dawg").exists()

