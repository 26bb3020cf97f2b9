"""The seam to the compiled core: which backend ``select`` gives and how to choose another,
that a lexicon keeps the backend it was made on, and what the core's graph refuses. The
agreement of the two backends' answers is tested where each answer is (queries, move
generation, alphabets, the big list), over both (``lexicons.engine_kinds``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexc
from lexc import formats, native
from lexc.formats import build
from lexc.wordlist import from_words
from lexicons import enable_built

ROOT = Path(__file__).resolve().parent.parent
HOOK = ROOT / "formats" / "golden" / "hook.gaddawg"

needs_core = pytest.mark.skipif(native.select() is not native.COMPILED,
                                reason="the compiled core is not built here, or LEXC_PURE=1")


def _lexc(*args: str, **env: str) -> subprocess.CompletedProcess:
    """``python -m lexc`` on the lexc under test (installed, or the source tree)."""
    parent = str(Path(lexc.__file__).resolve().parent.parent)
    environ = dict(os.environ, PYTHONPATH=parent, **env)
    return subprocess.run([sys.executable, "-m", "lexc", *args], capture_output=True, text=True, env=environ,
                          timeout=120)


def test_version_names_the_active_path():
    done = _lexc("--version")
    assert done.returncode == 0
    expected = "engine: compiled core (C)" if native.select().compiled else "engine: pure Python"
    assert expected in done.stdout


def test_lexc_pure_forces_the_pure_path():
    done = _lexc("--version", LEXC_PURE="1")
    assert done.returncode == 0 and "engine: pure Python" in done.stdout and "compiled core (C)" not in done.stdout
    info = _lexc("info", str(HOOK), LEXC_PURE="1")
    assert "engine: pure Python" in info.stdout


def test_the_checkouts_root_cannot_shadow_the_installed_package():
    """The package lives under src/: `python -c 'import lexc'` from the checkout's root imports
    the lexc installed in the environment (with its compiled core), never the source tree."""
    checkout = ROOT
    if not (checkout / "src" / "lexc").is_dir():
        pytest.skip("not run from a checkout")
    assert not (checkout / "lexc").exists()
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", "import lexc; print(lexc.__file__)"], cwd=checkout,
                          capture_output=True, text=True, env=environ, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not Path(done.stdout.strip()).resolve().is_relative_to(checkout / "src") or "PYTHONPATH" in os.environ


@needs_core
def test_a_source_tree_without_the_core_says_so_once(tmp_path):
    """A lexc imported from a tree that has no built core, where the environment's installed lexc
    has one, warns once on stderr, truthfully (not "was not built at install time"), and runs."""
    from importlib import metadata

    try:
        installed = [f for f in metadata.distribution("lexc").files or () if f.name.startswith("_core.")
                     and f.parent.name == "native" and not f.name.endswith(".c")]
    except metadata.PackageNotFoundError:
        installed = []
    if not installed:
        pytest.skip("no installed lexc with a compiled core in this environment")
    tree = tmp_path / "tree"
    shutil.copytree(Path(lexc.__file__).resolve().parent, tree / "lexc",
                    ignore=shutil.ignore_patterns("_core.*.so", "_core.*.pyd", "__pycache__"))
    environ = dict(os.environ, PYTHONPATH=str(tree))
    environ.pop("LEXC_PURE", None)
    done = subprocess.run([sys.executable, "-m", "lexc", "check", str(HOOK), "BAT", "CAT"], capture_output=True,
                          text=True, env=environ, timeout=120, cwd=tmp_path)
    warnings = [line for line in done.stderr.splitlines() if "pure-Python path" in line]
    assert len(warnings) == 1, done.stderr
    assert "not in the lexc imported from" in warnings[0] and "was not built" not in warnings[0]
    assert "BAT" in done.stdout
    quiet = subprocess.run([sys.executable, "-m", "lexc", "--version"], capture_output=True, text=True,
                           env=dict(environ, LEXC_PURE="1"), timeout=120, cwd=tmp_path)
    assert "pure-Python path" not in quiet.stderr  # asked for: nothing to warn of


@needs_core
def test_info_says_which_path_answers():
    done = _lexc("info", str(HOOK))
    assert done.returncode == 0 and "engine: compiled core (C)" in done.stdout


def test_a_lexicon_keeps_the_backend_it_was_made_on(english):
    words = from_words(["AT", "CAT", "TA"], english.alphabet)
    reference = build(words, "gaddawg", backend=native.select(pure=True))
    assert reference.engine == "pure Python" and reference.backend is native.PURE
    compiled = build(words, "gaddawg")
    assert compiled.engine == ("compiled core (C)" if native.select().compiled else "pure Python")
    assert compiled.backend is native.select()
    assert formats.dumps(reference) == formats.dumps(compiled)  # one file, whichever path built it
    assert sorted(reference) == sorted(compiled) == ["AT", "CAT", "TA"]


@needs_core
def test_the_core_graph_refuses_what_it_cannot_walk():
    """The core checks on construction what its walks rely on; the loader's own checks name
    the fault (tests/test_hostile.py covers the files), the core never reads past its arrays."""
    core = native.COMPILED.core
    pointer, leaf = 1 << 22 | 1, 1 << 24 | 1 << 23 | 1 << 22  # root pointer to edge 1; A, terminal, last
    ok = pointer.to_bytes(4, "little") + leaf.to_bytes(4, "little")
    assert core.Graph(ok, "u32", 26, 1, False, b"", -1, bytes(256)).contains(b"\x01", 0)
    cases = [(ok[:-1], "size", 7, 4),  # a buffer that is not whole edges (7 bytes, 4 an edge)
             (ok[:4] + (leaf | 9).to_bytes(4, "little"), "child", 1, 9),  # a child outside the array
             (ok[:4] + (leaf | 27 << 24).to_bytes(4, "little"), "letter", 1, 27),  # a letter outside the alphabet
             (ok[:4] + (leaf & ~(1 << 22)).to_bytes(4, "little"), "unclosed", 1, 0)]  # a list that never closes
    for data, kind, index, value in cases:
        with pytest.raises(native.MalformedGraph) as raised:
            core.Graph(data, "u32", 26, 1, False, b"", -1, bytes(256))
        assert (raised.value.kind, raised.value.index, raised.value.value) == (kind, index, value)
    assert issubclass(native.MalformedGraph, lexc.LexcError)


@needs_core
def test_a_loaded_graph_is_not_copied_into_python_objects(tmp_path, english):
    """The loaded DAWG family reads the mapped file's edges in place: no list of edges."""
    lines = (ROOT / "wordlists" / "enable1.txt").read_text().split()[:20000]
    path = tmp_path / "e.dawg"
    formats.save(build(from_words(lines, english.alphabet), "dawg"), path)
    lexicon = formats.load(path)
    assert lexicon.engine == "compiled core (C)"
    assert "BAT" in lexicon and "BATZ" not in lexicon and lexicon.anagrams("TAB") == ["BAT"]
    assert "_list" not in vars(lexicon)  # the pure path's list of edges was never made


@pytest.mark.parametrize("disk", ["pascal", "simula"])
def test_findwords_reads_what_the_reference_reads(english, disk):
    """Shapiro & Smith's findwords2 in the core gives the reference's groups, in its order,
    and reads the same bytes and nodes (``last_stats``: what the papers measured)."""
    lines = (ROOT / "wordlists" / "enable1.txt").read_text().split()[::7]
    data = formats.dumps(build(from_words(lines, english.alphabet), "anatrie", disk=disk))
    compiled = formats.loads(data)
    reference = formats.loads(data, backend=native.PURE)
    assert reference.engine == "pure Python"
    for rack, required in [("RETAINS", ""), ("QUIZ??", ""), ("AEINRST?", ""), ("??", ""), ("ZZZ", ""),
                           ("TRE?", "A"), ("ES", "QU"), ("AB", "Z")]:
        got = list(compiled.findwords2(rack, required) if required else compiled.findwords(rack))
        stats = compiled.last_stats
        expected = list(reference.findwords2(rack, required) if required else reference.findwords(rack))
        assert got == expected, rack
        assert stats == reference.last_stats, rack


def test_a_gaddag_answers_membership_from_one_half_on_both_paths():
    """A crafted gaddawg (found by the fuzzer: it passes the loader) whose DAWG half spells
    CATS and whose GADDAG half does not: membership, hooks' validity and the listing are read
    from the DAWG half on both paths (a GADDAG's word walks forwards from its DAWG root), never
    one half on one path and the other on the other."""
    data = (ROOT / "tests" / "data" / "halves-disagree.gaddawg").read_bytes()
    compiled = formats.loads(data)
    reference = formats.loads(data, backend=native.PURE)
    for word in ("CATS", "CAT", "DOG", "QUIZ", "AB", "A", "AAH"):
        assert (word in compiled) == (word in reference) == reference.contains_codes(reference.encode(word)), word
        assert compiled.hooks(word) == reference.hooks(word), word
        assert compiled.hooks(word).valid == (word in compiled) == (word in list(compiled)), word
    assert "CATS" in compiled and compiled.is_prefix("CATS")  # the DAWG half has it, the GADDAG half does not
    assert "C" not in compiled.hooks("ATS").front  # (front hooks are the GADDAG half's)


@needs_core
def test_membership_runs_in_the_core_and_hands_the_rest_to_python(english):
    """``word in lexicon`` for the DAWG family is the core's ``sq_contains`` slot (``native.Member``:
    no method lookup, no Python frame); what it does not answer itself (bytes, other types, text it cannot encode, a
    lexicon made on the pure path) gets the Python path's answer."""
    words = ["CARE", "CARES", "ZYZZYVA", "QI", "care", "Cares", "", "ÇA", "C?RE", "CARE ", "A" * 80, "C\udcffT"]
    built = from_words(["CARE", "CARES", "ZYZZYVA", "AA"], english.alphabet)
    for fmt in ("dawg", "gaddag", "gaddawg"):
        compiled = formats.build(built, fmt)
        reference = formats.build(built, fmt, backend=native.PURE)
        assert type(compiled).__contains__ is native.Member.__contains__  # the core's, no Python call
        # beside the sq_contains slot (``in``), a C method: lexicon.__contains__ passed as a function is
        # called as a set's is, with no argument tuple (the slot's wrapper would make one a call)
        assert type(type(compiled).__contains__).__name__ == "method_descriptor"
        for word in [*words, b"CARE", compiled.encode("CARE"), 3, None]:
            assert (word in compiled) == (word in reference) == reference._contains(word), (fmt, word)
        for lexicon in (compiled, reference):  # a lone surrogate is no letter: an alphabet error, not a crash
            with pytest.raises(lexc.LexcError):
                lexicon.hooks("C\udcffT")


def test_contains_many_answers_as_word_in_lexicon_does(english):
    """``contains_many`` gives ``word in lexicon`` for every word, in order, on both paths and
    for every word graph: the core's walks eight at a time, and what they do not answer (bytes,
    other types, text it cannot encode) by the Python path; any iterable."""
    words = ["CARE", "CARES", "ZYZZYVA", "QI", "care", "Cares", "", "ÇA", "C?RE", "CARE ", "A" * 80, "C\udcffT",
             "CAR", "CARESS", "AA", "A", b"CARE", 3, None] * 3
    built = from_words(["CARE", "CARES", "ZYZZYVA", "AA"], english.alphabet)
    for fmt in ("dawg", "gaddag", "gaddawg"):
        for backend in (native.select(), native.PURE):
            lexicon = formats.build(built, fmt, backend=backend)
            expected = [word in lexicon for word in words]
            assert lexicon.contains_many(words) == expected, fmt
            assert lexicon.contains_many(iter(words)) == expected, fmt
            assert lexicon.contains_many([]) == []
    assert expected[:4] == [True, True, True, False]


def _near_misses(words: list[str]) -> list[str]:
    """Each word, then as the bench's misses (its last letter changed), one letter longer, and
    one shorter: the walks that end at the table, past it, and before it."""
    out = []
    for w in words:
        out += [w, w[:-1] + ("Q" if w[-1] != "Q" else "Z"), w + "S", w[:-1]]
    return out


@needs_core
@pytest.mark.parametrize("fmt", ["dawg", "dawg-packed", pytest.param("gaddag", marks=pytest.mark.slow),
                                 pytest.param("gaddawg", marks=pytest.mark.slow)])
def test_the_member_prefix_table_answers_as_the_word_set(fmt, enable_list):
    """``word in lexicon``'s prefix table (the core's Graph ``prefixes``): made by the
    PREFIX_AFTER-th member walk and not before (``prefixes(0)`` makes none, so it shows whether
    the walks made one); for ENABLE, every word of 4 to K - 1 letters and every K-letter prefix,
    K at least 6 within the budget of twice the file; every word and near miss answered as the
    set of words answers, by ``in`` and by ``contains_many``, with the table and without."""
    from lexc.native import _core

    words = sorted(enable_list.texts())
    truth = set(words)
    data = formats.dumps(enable_built(enable_list, fmt))
    queries = _near_misses(words)
    expected = [q in truth for q in queries]
    before, walked = formats.loads(data, backend=native.COMPILED), formats.loads(data, backend=native.COMPILED)
    head = queries[: _core.PREFIX_AFTER - 1]
    assert [q in before for q in head] == [q in walked for q in head] == expected[: len(head)]
    assert before._graph.prefixes(0) is None  # not made by PREFIX_AFTER - 1 walks (and now never)
    assert (queries[len(head)] in walked) == expected[len(head)]
    made = walked._graph.prefixes(0)  # made by the PREFIX_AFTER-th
    assert made is not None and walked._graph.prefixes() == made
    length, slots = made
    keys = len({w[:length] for w in words if len(w) >= length}) + sum(4 <= len(w) < length for w in words)
    assert 6 <= length <= 8 and slots == keys + keys // 4 + 1 and 8 * slots <= 2 * len(data)
    for lexicon in (walked, before):  # with the table, and on the walk alone
        assert [q in lexicon for q in queries] == expected, fmt
        assert lexicon.contains_many(queries) == expected, fmt


@needs_core
def test_contains_many_makes_the_prefix_table_for_many_words(english):
    """A bulk call counts its words toward the prefix table; a budget gives a small lexicon one
    (a test's way in), a zero budget none; a lexicon too small for the rule has none."""
    words = [a + b + c + d + e for a in "ABC" for b in "ABCD" for c in "AEIOU" for d in "RST" for e in "SY"]
    built = from_words(words, english.alphabet)
    data = formats.dumps(formats.build(built, "dawg", backend=native.COMPILED))
    small = formats.loads(data, backend=native.COMPILED)
    assert small._graph.prefixes() is None  # twice its few edges are less than the walk's first table
    bulk = formats.loads(data, backend=native.COMPILED)
    from lexc.native import _core
    probes = (words + [w[:4] for w in words] + [w + "S" for w in words]) * (_core.PREFIX_AFTER // (3 * len(words)) + 1)
    assert bulk.contains_many(probes) == [p in set(words) for p in probes]
    assert bulk._graph.prefixes(0) is None  # (the rule's budget: none for this lexicon)
    given = formats.loads(data, backend=native.COMPILED)
    assert given._graph.prefixes(1 << 16) == (8, len(words) + len(words) // 4 + 1)  # K = 8: the words whole
    assert [p in given for p in probes] == [p in set(words) for p in probes]


@needs_core
def test_the_core_reads_a_cgp_board_as_python_does(english):
    """``cgp_board`` (what ``parse_cgp`` reads plain boards with) gives the Python reading's
    squares wherever it answers, on the built-in positions and on mutations of them (a
    character changed, dropped or added: digits, '/', brackets, blanks, Latin-1); it answers
    every unmutated board, and leaves everything else to Python (None)."""
    import random

    from lexc.bench.moves import read_positions
    from lexc.board import board as boards

    table, core = english.alphabet.cgp_table(), native.COMPILED
    fields = [item["cgp"].split()[0] for item in read_positions()]
    for field in fields:
        assert core.cgp_board(field, 15, table) == b"".join(boards._cgp_rows(field.split("/"), english.alphabet, 15))
    rng, chars, answered = random.Random(5), "ABCQZabcz?0123456789/[]Ç \u0100", 0
    for field in fields * 10:
        text = list(field)
        for _ in range(rng.randint(1, 3)):
            k, op = rng.randrange(len(text)), rng.random()
            if op < 0.4:
                text[k] = rng.choice(chars)
            elif op < 0.7:
                del text[k]
            else:
                text.insert(k, rng.choice(chars))
        got = core.cgp_board("".join(text), 15, table)
        if got is None:
            continue
        answered += 1
        rows = "".join(text).split("/")
        assert got == b"".join(boards._cgp_rows(rows, english.alphabet, 15))
    assert answered > 20  # (a mutation that keeps every row 15 squares: a letter for a letter)


# -- the minimizer -----------------------------------------------------------------------------

GRAPHS = ("dawg", "gaddag", "gaddawg")


def _both_paths(words, name: str, **options) -> tuple[bytes, bytes]:
    """The file bytes of one build on the pure path and one on the active path."""
    reference = formats.dumps(build(words, name, backend=native.PURE, **options))
    return reference, formats.dumps(build(words, name, **options))


@needs_core
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text("ABCDE", min_size=1, max_size=9), max_size=40), st.sampled_from(GRAPHS),
       st.sampled_from(["auto", "u64"]))
def test_the_compiled_minimizer_builds_the_same_bytes(english, words, name, layout):
    """Every word graph, built by the C minimizer and by the reference, is the same file."""
    wordlist = from_words(words or ["A"], english.alphabet, min_len=1)
    reference, compiled = _both_paths(wordlist, name, layout=layout)
    assert compiled == reference


@needs_core
@pytest.mark.slow
def test_the_compiled_minimizer_builds_enables_gaddawg_byte_for_byte(enable_list):
    """The session's ENABLE gaddawg (built once per run by ``build`` on the active path: the
    compiled minimizer, which this test requires) is the file the reference minimizer builds."""
    reference = formats.dumps(build(enable_list, "gaddawg", backend=native.PURE))
    assert formats.dumps(enable_built(enable_list, "gaddawg")) == reference


@needs_core
def test_the_compiled_minimizer_refuses_what_the_reference_refuses():
    from lexc.formats.minimize import Minimizer, link

    for make in (Minimizer, native.COMPILED.core.Minimizer):
        m = make()
        with pytest.raises(ValueError, match="strictly increasing"):
            m.add_language([b"\x02", b"\x01"])
        m = make()
        root = m.add_language([b"\x01\x02", b"\x02"])
        assert m.child(root, 1) and m.child(root, 2) == 0
        with pytest.raises(ValueError, match="no edge 3"):
            m.child(root, 3)
        with pytest.raises(ValueError, match="points at no node"):
            m.add_language([link(b"\x01", 10**6)], True)
        with pytest.raises(ValueError, match="points at no node"):
            m.add_language([b"\x01\x00\x00"], True)
        with pytest.raises(ValueError, match="is extended by"):
            low, high = sorted([root, m.child(root, 1)])  # two nodes: the second link extends the first's letters
            m.add_language([link(b"\x01", low), link(b"\x01", high)], True)


def _proved(lexicon, roots, longest, most):
    """The graph's proof as a value: the roots' (strings, separators), or the fault (kind, edge)."""
    try:
        return lexicon._graph.prove(roots, longest, most)
    except native.MalformedGraph as exc:
        return exc.kind, exc.index


@needs_core
@settings(max_examples=80, deadline=None)
@given(st.lists(st.text("ABCDE", min_size=1, max_size=9), min_size=1, max_size=40), st.sampled_from(GRAPHS),
       st.sampled_from(["auto", "u64"]), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=3))
def test_the_one_pass_proof_gives_the_walks_answers(english, words, name, layout, rewired):
    """The core proves a graph laid out in order (a DAWG children first, a GADDAG parents
    first: formats/dawg.md and gaddag.md) in one pass over its edges, and any other graph by
    a walk. With children moved anywhere in the array (out of order, into a cycle, past the
    counts), its answer is the reference walk's, count for count and fault for fault."""
    from array import array

    lexicon = build(from_words(words, english.alphabet, min_len=1), name, layout=layout)
    roots = lexicon.proof_roots()
    most = max(expected for _, _, expected, _ in roots)
    edges, slots, mask = array(lexicon.edges.typecode, lexicon.edges), len(lexicon.pointers), lexicon._cmask
    for where, target in rewired:
        i = slots + where % (len(edges) - slots)
        child = target % (len(edges) - slots + 1)
        edges[i] = edges[i] & ~mask | (child + slots - 1 if child else 0)
    answers = []
    for backend in (native.PURE, native.select()):
        tampered = type(lexicon)(edges, lexicon.layout, lexicon.alphabet, lexicon.word_count, lexicon.build_options,
                                 **{k: lexicon.meta().get(k) for k in lexicon.meta_counts}, backend=backend)
        dawg = len(edges) if name == "gaddag" else 0  # (the pointer to a gaddag's rebuilt DAWG root: in memory)
        at = [tampered._edge(i) & mask for i in ([1, dawg] if slots == 2 else [0])]  # as proof_roots orders them
        # every root together, then each alone (a count proves the words' root alone: the
        # sweep stops at the lowest position it reads, the walk reads only what it reaches)
        answers.append([_proved(tampered, chosen, longest, most) for longest in (3, 66)
                        for chosen in (at, *([r] for r in at))])
    assert answers[0] == answers[1]
    together, alone = answers[0][len(at) + 1], answers[0][len(at) + 2:]
    if isinstance(together, list):  # (proved together: each root alone gives its own answer)
        assert [one[0] for one in alone] == together
    if not rewired:
        assert [count for count, _ in together] == [expected for _, _, expected, _ in roots]
        assert all(seen <= seps for (_, seen), (_, _, _, seps) in zip(together, roots, strict=True))


# -- the deep check --------------------------------------------------------------------------------

def _tampered(lexicon, how: str, backend):
    """A copy of a built word graph's file with one rule of ``check`` broken, loadable."""
    from array import array

    edges = array(lexicon.edges.typecode, lexicon.edges)
    layout = lexicon.layout
    slots = len(lexicon.pointers)
    if how == "copy":  # a copy of the first stored run: not minimal, and a run of no node
        end = next(i for i in range(slots, len(edges)) if edges[i] >> layout.last_bit & 1)
        edges.extend(edges[slots : end + 1])
    elif how == "separator":  # a terminal separator edge
        i = next(i for i in range(slots, len(edges)) if not edges[i] >> layout.letter_shift & 0xFF)
        edges[i] |= 1 << layout.terminal_bit
    elif how == "pointer":  # a letter on a root pointer
        edges[0] |= 1 << layout.letter_shift
    count = lexicon.word_count + (how == "count")  # a header that says one word more
    return type(lexicon)(edges, layout, lexicon.alphabet, count, lexicon.build_options,
                         **{k: lexicon.meta().get(k) for k in lexicon.meta_counts}, backend=backend)


@pytest.mark.parametrize("name, how", [(name, how) for name in GRAPHS for how in ("none", "copy", "pointer", "count")]
                         + [("gaddag", "separator"), ("gaddawg", "separator")])
def test_the_deep_check_names_the_same_problems_on_both_paths(english, name, how):
    """``check`` runs its node rules in the core (``lists_ok``) and its counts by the core's
    proof walk; whatever it finds, the list is the pure path's word for word."""
    words = from_words(["AB", "ABS", "CAB", "CABS", "BA", "BAS", "SCAB"], english.alphabet)
    reference = _tampered(build(words, name), how, native.PURE).check()
    compiled = _tampered(build(words, name), how, native.select()).check()
    assert compiled == reference
    assert (reference == []) == (how == "none")


# -- the anagram trie's passes over its file -----------------------------------------------------

def _passes(lexicon) -> list:
    """What the passes over an anagram trie's file answer (or the error each raises)."""
    out = []
    for ask in (lambda: lexicon.words("CA"), lambda: lexicon.pattern("?A*"), lambda: lexicon.is_prefix("SC"),
                lambda: lexicon.is_prefix("ZQ"), lambda: list(lexicon)):
        try:
            out.append(ask())
        except formats.FormatError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize("disk", ["pascal", "simula"])
def test_the_anagram_tries_passes_answer_alike_on_both_paths_even_damaged(english, disk):
    """The core's pass over the letter table gives the Python pass's words; at a damaged
    record it hands back to the Python pass, so the error is the pure path's word for word."""
    words = from_words(["CAB", "CABS", "SCAB", "ABS", "BA", "CAT", "ACT", "TACT", "TA", "AT", "CAR"], english.alphabet)
    lex = build(words, "anatrie", disk=disk)
    data = bytes(lex.file.data)
    rng = __import__("random").Random(7)
    variants = [data, data[:-1], data[: len(data) // 2], data + b"\x01"]
    for _ in range(40):
        damaged = bytearray(data)
        damaged[rng.randrange(len(data))] = rng.randrange(256)
        variants.append(bytes(damaged))
    for variant in variants:
        def make(backend, variant=variant):
            return type(lex)(variant, lex.alphabet, lex.word_count, lex.order, disk, backend=backend)
        reference = _passes(make(native.PURE))
        assert _passes(make(native.select())) == reference
    assert _passes(type(lex)(data, lex.alphabet, lex.word_count, lex.order, disk))[0] == ["CAB", "CABS", "CAR", "CAT"]


_RECORDS_SCRIPT = """
import hashlib, json, sys
from lexc import formats
from lexc.bench.moves import load_positions
from lexc.movegen import generate_plays
from lexc.native import _core
positions, _ = load_positions()
out = {"popcnt": _core.POPCNT, "image": _core.IMAGE}
for path in sys.argv[1:]:
    lexicon = formats.load(path)
    for strategy in ("appel-jacobson",) if path.endswith(".dawg") else ("appel-jacobson", "gordon"):
        out[path + " " + strategy] = [hashlib.sha256(generate_plays(board, rack, lexicon, strategy).records).hexdigest()
                                      for board, rack, _ in positions[:40]]
print(json.dumps(out))
"""


@needs_core
def test_the_popcnt_portable_image_and_graph_searches_write_the_same_records(tmp_path, enable_list):
    """On x86-64 the move generator's masked searches are compiled twice, with the POPCNT
    instruction and without (movegen.c picks the first where the CPU has it); the
    environment variable LEXC_NO_POPCNT runs the other. And each searches the graph's search
    image (a list's mask beside its edges, core.h graph_image) where the graph can have one;
    LEXC_NO_IMAGE searches the graph itself and its masks. All four write byte-identical
    records (the same plays, scores and order) on the built-in positions, for both strategies
    over ENABLE's gaddawg and GADDAG and Appel & Jacobson's over its DAWG (a GADDAG's DAWG root
    is rebuilt in memory, and its image holds it: Appel & Jacobson's search and the
    cross-checks over a GADDAG read the image as Gordon's does)."""
    import json

    files = []
    for name in ("gaddawg", "dawg", "gaddag"):
        path = tmp_path / f"enable.{name}"
        formats.save(enable_built(enable_list, name), path)
        files.append(str(path))
    parent = str(Path(lexc.__file__).resolve().parent.parent)
    runs = {}
    for off in ("0", "1"):
        for no_image in ("0", "1"):
            done = subprocess.run([sys.executable, "-c", _RECORDS_SCRIPT, *files], capture_output=True, text=True,
                                  env=dict(os.environ, PYTHONPATH=parent, LEXC_NO_POPCNT=off, LEXC_NO_IMAGE=no_image),
                                  timeout=300)
            assert done.returncode == 0, done.stderr
            runs[off, no_image] = json.loads(done.stdout)
    for (off, no_image), run in runs.items():
        popcnt, image = run.pop("popcnt"), run.pop("image")
        if off == "1":
            assert popcnt == 0  # (the portable copy ran; else the POPCNT copy where the CPU has it)
        assert image == (no_image == "0")
    first = runs["0", "0"]
    assert all(run == first for run in runs.values())
    assert len(first) == 5 and all(len(digests) == 40 for digests in first.values())


@needs_core
@pytest.mark.parametrize("fmt", ["dawg", "dawg-packed", "gaddawg", "gaddag"])
def test_every_search_of_a_word_graph_and_its_cross_checks_read_the_image(fmt):
    """Both strategies over every word graph of at most 31 letters, and their cross-checks,
    read the graph's search image, whatever the file's edge layout (u32, u64, packed: the
    image's edges are u32, their fields moved) and wherever the search starts: a GADDAG file's
    DAWG root, rebuilt in memory after the stored edges, is in its image too (it was searched
    over the graph, at half the speed, and `dawg-packed` had no image). Where the image is
    turned off (LEXC_NO_IMAGE), none reads it. The plays are the same either way (the records
    test, below)."""
    from lexc.movegen.compiled import _ruleset_arrays
    from lexc.native import _core
    from lexc.ruleset import load_ruleset

    english = load_ruleset("english")
    words = ["AB", "ABA", "BA", "CAB", "CABS", "SCAB", "ABS", "BAS"]
    values, letter, word = _ruleset_arrays(english)
    found = set()
    for layout in ("u32", "u64") if fmt != "dawg-packed" else ("packed",):
        options = {} if fmt == "dawg-packed" else {"layout": layout}
        lexicon = formats.build(from_words(words, english.alphabet), fmt, "english", **options)
        for strategy in (0, 1) if fmt.startswith("gadd") else (0,):
            graph, roots = lexicon.search_graph("gordon" if strategy else "appel-jacobson")
            made = _core.Generator(graph, 15, strategy, roots[0], roots[1], roots[2], values, letter, word, 7, 50, 7, 7)
            reads = made.reads()
            assert reads == ("image", "image") if _core.IMAGE else "image" not in reads, (fmt, layout, strategy, reads)
            board = bytearray(225)
            board[7 * 15 + 7], board[7 * 15 + 8] = 1, 2  # AB at 8H
            records, count, _ = made.plays(bytes(board), bytes([1, 2, 3, 19]), 1000)
            assert count > 0
            found.add((strategy, records))
    assert len({records for strategy, records in found if strategy == 0}) == 1  # (every layout the same plays)


def test_keep_heap_is_asked_by_the_command_line_only_and_says_whether_it_held():
    """``native.keep_heap()`` tunes glibc's allocator (with the compiled core) and says so;
    elsewhere it changes nothing and says False. The command line calls it at its start, the
    library never does."""
    import platform

    replaced = "asan" in os.environ.get("LD_PRELOAD", "")  # (a sanitizer's allocator takes no mallopt)
    expected = native.COMPILED is not None and platform.libc_ver()[0] == "glibc" and not replaced
    assert native.keep_heap() is expected  # (LEXC_PURE=1 or not: the core is there to ask)
    library = (Path(lexc.__file__).parent / "cli" / "__init__.py").read_text()
    assert "native.keep_heap()" in library
    callers = [p for p in Path(lexc.__file__).parent.rglob("*.py")
               if "keep_heap()" in p.read_text() and p.name != "__init__.py"]
    assert callers == []  # (only the command line's entry and the definition name it)
