"""Crafted and pathological input (issue 19): files whose header and payload were edited and
re-sealed with valid checksums, hostile word lists, rulesets, racks and patterns. Each
finding has its regression test here: a one-line error (or an answer) in bounded time and
memory, never a traceback."""

from __future__ import annotations

import json
import os
import struct

import msgpack
import pytest

from fuzz import seal, split  # tools/fuzz.py: re-sealing is what an attacker with the spec can do
from lexc import formats
from lexc.formats import FormatError
from lexc.formats.edges import U32
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from test_cli import ROOT, assert_one_error_line, run_main

ENGLISH = load_ruleset("english")
WORDS = ["CAT", "CATS", "DOG", "TEA", "EAT"]


def parts(fmt: str, words=WORDS, **options):
    """(header, payload) of a small valid file."""
    return split(formats.dumps(formats.build(from_words(list(words), ENGLISH.alphabet), fmt, "english", **options)))


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def edges_u32(*edges: tuple[int, int, int, int]) -> bytes:
    """Little-endian u32 edges from (letter, terminal, last, child)."""
    return b"".join(struct.pack("<I", U32.pack(*e)) for e in edges)


def dawg_file(payload: bytes, words: int) -> bytes:
    """A re-sealed DAWG file around a crafted edge array."""
    h, _ = parts("dawg")
    meta = dict(h["meta"], edges=len(payload) // 4, layout="u32")
    return seal(dict(h, words=words, meta=meta), payload)


# -- header values of the wrong type --------------------------------------------------------

@pytest.mark.parametrize("fmt, where, key, value, message", [
    ("anatrie", "meta", "order", [float(i) for i in range(1, 27)], "meta.order': item 0: a float"),
    ("dawg", "options", "layout", [], "options.layout': a list, not a string"),
    ("dawg", "options", "min_len", "x", "options.min_len': a string, not an integer"),
    ("anatrie", "options", "order", 5, "options.order': an integer, not a string"),
    ("dawg", "options", "note", b"\x00bytes", "options.note': bytes, not a plain value"),
    ("dawg", "meta", "extra", msgpack.ExtType(5, b"x"), "meta.extra': a ExtType, not a plain value"),
    ("dawg", "meta", "when", msgpack.Timestamp(0), "meta.when': a Timestamp, not a plain value"),
    ("dawg", "meta", "edges", 2**64 - 1, "meta.edges': 18446744073709551615 is outside"),
    ("dawg", "meta", "layout", "u16", "meta.layout': 'u16' is not one of u32, u64"),
    ("gaddag", "meta", "strings", -1, "meta.strings': -1 is outside"),
    ("prefixset", "meta", "keys", None, "meta.keys': null, not an integer"),
    ("anatrie", "meta", "disk", "fat", "meta.disk': 'fat' is not one of pascal, simula"),
])
def test_header_values_of_the_wrong_type_are_refused_on_load(fmt, where, key, value, message):
    h, p = parts(fmt)
    h[where] = dict(h[where], **{key: value})
    with pytest.raises(FormatError, match=message.replace(".", r"\.").replace("(", r"\(")):
        formats.loads(seal(h, p))


def test_bytes_keys_in_options_or_meta_are_refused():
    h, p = parts("dawg")
    raw = msgpack.packb(dict(h, options={**h["options"], b"k": 1}), use_bin_type=True)
    data = seal(msgpack.unpackb(raw, raw=False, strict_map_key=False), p)
    with pytest.raises(FormatError, match="key that is not a short string"):
        formats.loads(data)


def test_info_json_never_meets_a_value_it_cannot_print(tmp_path, capsys):
    h, p = parts("dawg")
    path = write(tmp_path, "odd.dawg", seal(dict(h, options={**h["options"], "note": b"raw"}), p))
    code, out, err = run_main(capsys, "info", path, "--json")
    assert code == 2 and out == ""
    assert_one_error_line(err, "options.note")


# -- a header never names a file to open ----------------------------------------------------

@pytest.mark.parametrize("ruleset", ["/dev/zero", "../english.toml", "nonexistent", "x" * 5000])
def test_a_header_ruleset_that_is_not_bundled_is_refused_on_load(ruleset):
    h, p = parts("dawg")
    with pytest.raises(FormatError, match=r"not a bundled ruleset|a string of"):
        formats.loads(seal(dict(h, ruleset=ruleset), p))


def test_stats_and_verify_never_open_the_header_ruleset(tmp_path, capsys):
    h, p = parts("dawg")
    path = write(tmp_path, "zero.dawg", seal(dict(h, ruleset="/dev/zero"), p))
    listing = write(tmp_path, "w.txt", "\n".join(WORDS).encode())
    code, _, err = run_main(capsys, "stats", path)
    assert code == 2
    assert_one_error_line(err, "not a bundled ruleset")
    code, out, err = run_main(capsys, "verify", path, "--against", listing)  # a finding of verify's
    assert code == 1 and err == "" and out.startswith("FAILED: ") and "not a bundled ruleset" in out


def test_a_ruleset_file_that_is_not_a_regular_file_is_refused(tmp_path, capsys):
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    listing = write(tmp_path, "w.txt", b"CAT\n")
    for ruleset in ("/dev/zero", str(fifo)):
        code, _, err = run_main(capsys, "build", listing, "-r", ruleset, "-o", tmp_path / "w.dawg")
        assert code == 2
        assert_one_error_line(err, "not a regular file")


def test_a_ruleset_file_is_stored_in_the_header_not_its_path(tmp_path):
    custom = tmp_path / "mine.toml"
    custom.write_text((ROOT / "src" / "lexc" / "rulesets" / "tiny.toml").read_text(encoding="utf-8"), encoding="utf-8")
    built = formats.build(from_words(["AB", "BA"], load_ruleset(str(custom)).alphabet), "dawg", str(custom))
    data = formats.dumps(built)
    header, _ = split(data)
    assert str(tmp_path) not in header["ruleset"] and "[board]" in header["ruleset"]
    custom.unlink()  # the file no longer needs it
    loaded = formats.loads(data)
    assert load_ruleset(loaded.ruleset).name == load_ruleset("tiny").name


# -- alphabet labels ------------------------------------------------------------------------

@pytest.mark.parametrize("label", ["\x00", "\x1b", "A B", "1", "(", "-", "ABCDEFGHIJ"])
def test_alphabet_labels_must_be_printable_distinct_and_plain(label):
    h, p = parts("dawg")
    alphabet = list(h["alphabet"])
    alphabet[1] = label
    with pytest.raises(FormatError, match=r"bad alphabet|alphabet"):
        formats.loads(seal(dict(h, alphabet=alphabet), p))


def test_a_control_character_label_cannot_collide_with_the_word_separator(tmp_path, capsys):
    h, p = parts("dawg", ["AB", "B"])
    path = write(tmp_path, "nul.dawg", seal(dict(h, alphabet=["\x00", *h["alphabet"][1:]]), p))
    code, out, err = run_main(capsys, "anagram", path, "--json", "B?")
    assert code == 2 and out == ""
    assert_one_error_line(err, "bad alphabet")


# -- the graph's proof ----------------------------------------------------------------------

def refused_by_the_proof(data: bytes, match: str, tmp_path=None) -> None:
    """A graph whose walks are safe but whose whole-graph proof fails: ``formats.loads``
    opens it (the proof is owed: formats/README.md), and the first query that relies on the
    proof (counting, listing, anagrams, patterns, the trie primitives) raises FormatError,
    the same one every time; ``open_lexicon``, as every command opens a file, refuses it."""
    from lexc.lexicons.source import open_lexicon

    lexicon = formats.loads(data)
    "A" in lexicon  # noqa: B015 (a membership walk reads only what the constructor proved)
    for ask in (len, lambda lx: lx.words(), lambda lx: lx.anagrams("AB?"), lambda lx: lx.pattern("A*"),
                lambda lx: lx.root(), lambda lx: list(lx.iter_codes())):
        with pytest.raises(FormatError, match=match):
            ask(lexicon)
    if tmp_path is not None:
        path = tmp_path / "refused.lexc"
        path.write_bytes(data)
        with pytest.raises(FormatError, match=match):
            open_lexicon(path)


@pytest.mark.parametrize("fmt", ["dawg", "dawg-packed", "gaddag", "gaddawg", "kwg"])
def test_the_whole_graph_proof_waits_for_a_query_that_relies_on_it(monkeypatch, fmt):
    """Opening a graph proves its structure only: membership, hooks and prefixes answer with
    no walk of the whole graph; the first count or listing makes the walk the words rest on,
    once (a GADDAG's DAWG root alone), and statistics the whole graph's, once."""
    from lexc.formats.dawg import Dawg
    from lexc.formats.kwg import Kwg

    walks = []
    count_roots = Dawg.count_roots
    monkeypatch.setattr(Dawg, "count_roots",
                        lambda self, most, words=False: walks.append(words) or count_roots(self, most, words))
    if fmt == "kwg":
        lexicon = Kwg.read(Kwg.write(formats.build(from_words(WORDS, ENGLISH.alphabet), "dawg"), ENGLISH), "w.kwg",
                           ENGLISH)
    else:
        lexicon = formats.loads(formats.dumps(formats.build(from_words(WORDS, ENGLISH.alphabet), fmt, "english")))
    assert "CAT" in lexicon and "CA" not in lexicon and lexicon.is_prefix_codes(lexicon.encode("DO"))
    assert lexicon.hooks("CAT").back == ("S",)
    assert walks == []
    apart = fmt in ("gaddag", "gaddawg", "kwg")  # (the words, a DAWG root, proved apart from the GADDAG root)
    assert len(lexicon) == len(WORDS) and walks == [apart]
    assert lexicon.words() == sorted(WORDS) and lexicon.anagrams("TAE") == ["EAT", "TEA"] and walks == [apart]
    assert lexicon.stats()["edges"] and lexicon.check() == [] and len(lexicon) == len(WORDS)
    assert walks == ([True, False] if apart else [False])


@pytest.mark.parametrize("fmt", ["gaddag", "gaddawg"])
@pytest.mark.parametrize("pure", [False, True])
def test_a_cycle_in_the_gaddag_half_is_refused_where_it_is_read_and_the_words_still_answer(tmp_path, fmt, pure):
    """The words rest on the DAWG root alone, and a count or a listing proves what it reaches
    (formats/README.md, "When each is proved"); a cycle that only the GADDAG root reaches is
    refused by what reads the whole graph (its string count, statistics, ``check``, saving),
    and by every command, which proves the whole graph on opening."""
    from lexc import native
    from lexc.lexicons.source import open_lexicon

    h, p = parts(fmt)
    edges = bytearray(p)
    root = struct.unpack_from("<I", edges, 4)[0] & U32.child_mask  # the GADDAG root pointer's child
    first = struct.unpack_from("<I", edges, 4 * root)[0]
    struct.pack_into("<I", edges, 4 * root, first & ~U32.child_mask | root)  # its first edge leads back to it
    data = seal(h, bytes(edges))
    lexicon = formats.loads(data, backend=native.PURE if pure else native.select())
    assert "CAT" in lexicon and len(lexicon) == len(WORDS) and lexicon.words() == sorted(WORDS)
    for ask in (lambda lx: lx.strings, lambda lx: lx.stats(), lambda lx: formats.dumps(lx)):
        with pytest.raises(FormatError, match=f"cycle through edge {root}"):
            ask(lexicon)
    assert lexicon.check() == [f"<bytes>: the word graph has a cycle through edge {root}"]
    assert len(lexicon) == len(WORDS) and lexicon.anagrams("TAE") == ["EAT", "TEA"]  # (the words' proof stands)
    with pytest.raises(FormatError, match="cycle"):
        open_lexicon(write(tmp_path, f"cycle.{fmt}", data))


def test_the_words_and_the_whole_graph_keep_their_own_reasons():
    """A gaddawg whose GADDAG half has a cycle and whose header claims one word more: the whole
    graph's proof fails on the cycle and the words' on the count, each with its own reason
    every time it is asked, in whichever order they are asked."""
    h, p = parts("gaddawg")
    edges = bytearray(p)
    root = struct.unpack_from("<I", edges, 4)[0] & U32.child_mask
    first = struct.unpack_from("<I", edges, 4 * root)[0]
    struct.pack_into("<I", edges, 4 * root, first & ~U32.child_mask | root)
    data = seal(dict(h, words=h["words"] + 1), bytes(edges))
    for words_first in (False, True):
        lexicon = formats.loads(data)
        asks = [(len, "header says 6"), (lambda lx: lx.stats(), "cycle")]
        for ask, match in (asks[::-1] if not words_first else asks) * 2:
            with pytest.raises(FormatError, match=match):
                ask(lexicon)


def test_threads_asking_at_once_wait_for_the_one_proof(monkeypatch):
    """Threads that count a freshly opened graph at the same moment: one makes the proof, the
    others wait for it (none is given the header's claim while it runs); a lie is refused to
    every one of them."""
    import threading
    import time

    from lexc.formats.dawg import Dawg

    walks = []
    count_roots = Dawg.count_roots

    def slow(self, most, words=False):
        walks.append(1)
        time.sleep(0.05)  # (the others arrive while it runs)
        return count_roots(self, most, words)

    monkeypatch.setattr(Dawg, "count_roots", slow)
    for lie in (0, 1):
        h, p = parts("gaddawg")
        lexicon = formats.loads(seal(dict(h, words=h["words"] + lie), p))
        walks.clear()
        answers: list[object] = []

        def ask(lexicon=lexicon, answers=answers):
            try:
                answers.append(len(lexicon))
            except FormatError as exc:
                answers.append(str(exc))

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert walks == [1]
        if lie:
            assert len(answers) == 6 and all("header says 6" in str(a) for a in answers), answers
        else:
            assert answers == [len(WORDS)] * 6


def test_a_dawg_of_terminal_self_loops_is_refused_by_the_proof(tmp_path):
    root = 1
    node = [(c, 1, c == 26, root) for c in range(1, 27)]  # every letter, terminal, back to the node itself
    data = dawg_file(edges_u32((0, 0, 1, root), *node), 26)
    refused_by_the_proof(data, "cycle", tmp_path)


def exponential(levels: int) -> bytes:
    """A chain of ``levels`` nodes of 26 edges each: every string of ``levels`` letters."""
    edges = [(0, 0, 1, 1)]
    for level in range(levels):
        child = 1 + 26 * (level + 1) if level + 1 < levels else 0
        edges += [(c, level + 1 == levels, c == 26, child) for c in range(1, 27)]
    return edges_u32(*edges)


def test_an_exponentially_wide_graph_under_a_small_header_count_is_refused(tmp_path):
    refused_by_the_proof(dawg_file(exponential(6), 5), "more than 5 strings", tmp_path)  # 308 million words, 632 bytes


def test_a_path_longer_than_any_word_is_refused_by_the_proof(tmp_path):
    n = 70
    edges = [(0, 0, 1, 1)] + [(1, i == n - 1, 1, i + 2 if i < n - 1 else 0) for i in range(n)]
    refused_by_the_proof(dawg_file(edges_u32(*edges), 1), "more than 64 letters", tmp_path)


def test_a_separator_in_the_dawg_half_of_a_gaddawg_is_refused(tmp_path):
    h, p = parts("gaddawg", ["AB"])
    edges = bytearray(p)
    lexicon = formats.loads(formats.dumps(formats.build(from_words(["AB"], ENGLISH.alphabet), "gaddawg")))
    root = lexicon._list[0] & lexicon._cmask
    struct.pack_into("<I", edges, 4 * root, lexicon._list[root] & ~(0xFF << 24))  # its first letter becomes 0
    refused_by_the_proof(seal(h, bytes(edges)), "separator", tmp_path)


# -- anatrie words --------------------------------------------------------------------------

@pytest.mark.parametrize("disk", ["pascal", "simula"])
def test_anatrie_words_outside_the_alphabet_are_format_errors_not_key_errors(tmp_path, capsys, disk):
    h, p = parts("anatrie", disk=disk)
    word = b"\x03\x01\x14"  # CAT in codes; damage its stored bytes
    at = p.find(word)
    assert at >= 0
    damaged = p[:at] + b"\x7f" + p[at + 1:]
    path = write(tmp_path, f"bad.{disk}.anatrie", seal(h, damaged))
    for args in (("moves", path, "--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACT/ 0/0 0"),
                 ("dump", path), ("anagram", path, "ACT")):
        code, _, err = run_main(capsys, *args)
        assert code == 2, args
        assert_one_error_line(err, "outside the alphabet")


# -- KWG ------------------------------------------------------------------------------------

def test_a_tiny_kwg_spelling_millions_of_words_is_refused_before_listing(tmp_path, capsys):
    dawg = exponential(5)[4:]  # 130 edges: every 5-letter string, 11,881,376 words
    body = [struct.unpack_from("<I", dawg, i)[0] for i in range(0, len(dawg), 4)]
    shifted = [e + 1 if e & U32.child_mask else e for e in body]  # children move one slot right
    data = edges_u32((0, 0, 1, 2), (0, 0, 1, 0)) + b"".join(struct.pack("<I", e) for e in shifted)
    assert len(data) == 528
    path = write(tmp_path, "huge.kwg", data)
    code, _, err = run_main(capsys, "build", "--from", "kwg", path, "-o", tmp_path / "huge.dawg")
    assert code == 2
    assert_one_error_line(err, "11,881,376 words, more than the 10,000,000")
    assert "--max-words" in err


def test_a_kwg_with_no_words_is_named(tmp_path, capsys):
    path = write(tmp_path, "empty.kwg", edges_u32((0, 0, 1, 0), (0, 0, 1, 0)))
    for args in (("build", "--from", "kwg", path, "-o", tmp_path / "e.dawg"), ("check", path, "CAT")):
        code, _, err = run_main(capsys, *args)
        assert code == 2
        assert_one_error_line(err, "empty.kwg")
        assert "no words" in err


def test_every_format_still_loads_what_it_writes():
    for fmt in formats.FORMATS:
        h, p = parts(fmt)
        assert list(formats.loads(seal(h, p))) == sorted(WORDS)
        json.dumps(formats.loads(seal(h, p)).header)  # printable as JSON


# -- text input: word lists, racks, patterns, notation, CGP, GCG -----------------------------

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def test_dev_zero_as_a_word_list_is_one_line_at_once(tmp_path, capsys):
    code, _, err = run_main(capsys, "build", "/dev/zero", "-o", tmp_path / "z.dawg")
    assert code == 2
    assert_one_error_line(err, "/dev/zero:1: a line longer than 4,096 bytes")


def test_a_huge_one_line_list_is_refused_without_echoing_the_line(tmp_path, capsys):
    path = tmp_path / "one.txt"
    path.write_bytes(b"A" * 3_000_000 + "é".encode())
    code, _, err = run_main(capsys, "build", path, "-o", tmp_path / "one.dawg")
    assert code == 2
    line = assert_one_error_line(err, "a line longer than")
    assert len(line) < 300


def test_a_bad_word_is_quoted_short(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("CAT\n" + "B" * 3000 + "1\n", encoding="utf-8")
    code, _, err = run_main(capsys, "build", path, "-o", tmp_path / "bad.dawg")
    assert code == 2
    assert len(assert_one_error_line(err, "bad.txt:2", "not in the alphabet")) < 300


@pytest.mark.parametrize("rack", ["A" * 3000, "?" * 65, "[A]" * 100])
def test_a_rack_longer_than_any_word_is_refused_at_once(capsys, rack):
    code, _, err = run_main(capsys, "anagram", rack)
    assert code == 2
    assert_one_error_line(err, "at most 64")


def test_patterns_longer_than_any_word_are_answered_or_refused_at_once(capsys):
    code, _, err = run_main(capsys, "words", "--pattern", "?" * 1000)
    assert code == 2
    assert_one_error_line(err, "at most 256")
    code, _, err = run_main(capsys, "words", "--pattern", "*A" * 300)
    assert code == 2
    assert_one_error_line(err, "at most 256")
    for pattern in ("?" * 65, "*A" * 70, "A*" * 65):  # short enough to read, too long to match
        code, out, err = run_main(capsys, "words", "--pattern", pattern)
        assert (code, out, err) == (1, "", "lexc: no words\n")


@pytest.mark.parametrize("notation", ["8H " + "A" * 5000, "9" * 5000 + "H CAT"])
def test_notation_is_capped(capsys, notation):
    code, _, err = run_main(capsys, "judge", "--cgp", f"{EMPTY} CAT/ 0/0 0", notation)
    assert code == 2
    assert len(assert_one_error_line(err)) < 300


@pytest.mark.parametrize("cgp", [
    "9" * 5000 + "/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CAT/ 0/0 0",
    f"{EMPTY} CAT/ {'9' * 5000}/0 0",
    f"{EMPTY} CAT/ 0/0 {'9' * 5000}",
    f"{EMPTY} CAT/ 0/0 0 " + "x" * 10000 + ";",
])
def test_cgp_numbers_and_length_are_capped(capsys, cgp):
    code, _, err = run_main(capsys, "moves", "--cgp", cgp)
    assert code == 2
    assert len(assert_one_error_line(err)) < 300


GCG_HEAD = "#player1 a Alice\n#player2 b Bob\n"


@pytest.mark.parametrize("body, message", [
    (">a: ABC 8H CAB +" + "9" * 4000 + " 14\n", "no '+SCORE TOTAL'"),  # more digits than a score has
    (">a: ABC 8H CAB +" + "9" * 5000 + " 14\n", "longer than 4,096 characters"),
    (">a: ABC -\u00b2 +0 0\n", None),  # a superscript two is no count of tiles (isdigit() said it was)
    ("#\n", None),
])
def test_gcg_numbers_and_odd_lines(tmp_path, capsys, body, message):
    path = tmp_path / "g.gcg"
    path.write_text(GCG_HEAD + body, encoding="utf-8")
    code, _, err = run_main(capsys, "replay", path)
    if message is None:
        assert code in (0, 1) and "Traceback" not in err  # read, and ruled on
    else:
        assert code == 2
        line = assert_one_error_line(err, message)
        assert len(line) < 400


def test_replay_of_an_empty_file_is_an_error(capsys):
    code, _, err = run_main(capsys, "replay", "/dev/null")
    assert code == 2
    assert_one_error_line(err, "not a GCG game record")


def test_a_gcg_file_that_never_ends_is_refused(capsys):
    code, _, err = run_main(capsys, "replay", "/dev/zero")
    assert code == 2
    assert_one_error_line(err, "not a game record")


def test_memory_and_recursion_errors_are_one_line(capsys, monkeypatch):
    from lexc.cli import query

    for exc in (MemoryError, RecursionError):
        def boom(*args, _exc=exc, **kwargs):
            raise _exc()
        monkeypatch.setattr(query, "lexicon_arg", boom)
        code, out, err = run_main(capsys, "check", "CAT")
        assert code == 2 and out == ""
        assert_one_error_line(err)
