"""The compiled core keeps its contract (issue 34): no call reads outside an array whatever it
is given, no width overflows, a Graph is immutable once built, errors cross the boundary as
typed exceptions, and the compiled path gives the pure path's answers where a review found it
did not. Each test here failed on the code before its fix (the ones about memory under
``make sanitize``, which runs this module under AddressSanitizer and UBSan)."""

from __future__ import annotations

import re
from pathlib import Path

NATIVE = Path(__file__).resolve().parent.parent / "src" / "lexc" / "native"


# -- compiler builtins are guarded (portable C99) ------------------------------------------------

def _unguarded_builtins(text: str) -> list[str]:
    """Lines using a GCC/Clang builtin or attribute outside a ``#if`` that tests
    ``__GNUC__`` or ``__clang__`` (in its positive branch)."""
    stack: list[str] = []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        directive = line.strip()
        if re.match(r"#\s*if", directive):
            stack.append(directive if not re.match(r"#\s*ifndef", directive) else "")
        elif re.match(r"#\s*elif", directive):
            stack[-1] = directive
        elif re.match(r"#\s*else", directive):
            stack[-1] = ""
        elif re.match(r"#\s*endif", directive):
            stack.pop()
        elif ("__builtin_" in line or "__attribute__" in line) and not any(
                "__GNUC__" in cond or "__clang__" in cond for cond in stack):
            found.append(f"{number}: {directive}")
    return found


def test_compiler_builtins_are_guarded_with_portable_fallbacks():
    """Every GCC builtin sits behind a compiler guard (core.h's macros), so that a C99
    compiler without them still builds the core."""
    sources = sorted(NATIVE.glob("*.[ch]")) + sorted(NATIVE.glob("*.inc"))
    assert len(sources) >= 6
    unguarded = {path.name: _unguarded_builtins(path.read_text()) for path in sources}
    assert {name: lines for name, lines in unguarded.items() if lines} == {}
    core_h = (NATIVE / "core.h").read_text()
    assert "#else" in core_h.split("LEXC_LIKELY", 1)[1]  # a fallback beside the builtin


# -- typed exceptions from C -------------------------------------------------------------------

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from lexc import formats, native  # noqa: E402
from lexc.errors import LexcError  # noqa: E402
from lexc.ruleset import load_ruleset  # noqa: E402
from lexc.wordlist import from_words  # noqa: E402

needs_core = pytest.mark.skipif(native.select() is not native.COMPILED, reason="the compiled core is not in use")
ENGLISH = load_ruleset("english")
ERRORS = ("CoreError", "MalformedGraph", "UnknownLayout", "MalformedTable", "AnswerCap", "TooDeep", "UnsupportedWord")


def u32(letter: int, terminal: bool, last: bool, child: int) -> bytes:
    """One little-endian edge of the u32 layout."""
    return (letter << 24 | terminal << 23 | last << 22 | child).to_bytes(4, "little")


# a DAWG of CAT and AT (C=3, A=1, T=20): root pointer, root list, and the lists below
CAT = b"".join((u32(0, False, True, 1),
                u32(1, False, False, 3), u32(3, False, True, 4),   # root: A -> 3, C -> 4
                u32(20, True, True, 0),                           # 3: T (AT)
                u32(1, False, True, 3)))                          # 4: A -> 3 (CAT)


def graph(edges=CAT, layout: str = "u32", letters: int = 26, pointers: int = 1, **options):
    """The core's Graph over an edge array (keywords: separator, extra, member, encode)."""
    return native.COMPILED.core.Graph(edges, layout, letters, pointers, **options)


@needs_core
def test_the_core_raises_typed_exceptions_beneath_lexc_error():
    """Errors a file or an input can cause cross the boundary as classes (not tuples to unpack),
    each beneath lexc.errors.LexcError, the same classes ``lexc.native`` exports."""
    core = native.COMPILED.core
    for name in ERRORS:
        cls = getattr(core, name)
        assert cls is getattr(native, name) and issubclass(cls, LexcError) and issubclass(cls, native.CoreError)
        assert cls.__module__ == "lexc.native.errors"  # the pure-Python backend raises the same classes
    bad = CAT[:8] + u32(3, False, True, 99) + CAT[12:]  # a child outside the array
    with pytest.raises(native.MalformedGraph) as caught:
        graph(bad)
    assert (caught.value.kind, caught.value.index, caught.value.value) == ("child", 2, 99)
    with pytest.raises(native.AnswerCap) as capped:
        graph().anagram(0, b"\x01\x03\x14", 0, True, 1)  # CAT, AT, ... past a cap of one answer
    assert capped.value.count == 2
    lexicon = formats.build(from_words(["CAT", "TAC"], ENGLISH.alphabet), "anatrie", "english")
    data = bytes(lexicon.file.data)
    with pytest.raises(native.MalformedTable) as damaged:  # the table cut short: a record runs past its end
        core.findwords(data[: len(data) // 2], 0 if lexicon.disk == "pascal" else 1, b"", 3, bytes(lexicon.rank),
                       lexicon._made, 26)
    assert damaged.value.kind == "past" and isinstance(damaged.value.index, int)


def test_the_error_names_exist_on_the_pure_path():
    """Without the compiled core (its module cannot be imported), ``lexc.native`` still
    defines the classes, so every ``except native.AnswerCap`` stays valid."""
    code = ("import sys; sys.modules['lexc.native._core'] = None\n"
            "from lexc import native, formats\n"
            "from lexc.errors import LexcError\n"
            f"names = {ERRORS!r}\n"
            "assert native.COMPILED is None and native.select() is native.PURE\n"
            "assert all(issubclass(getattr(native, n), native.CoreError) for n in names)\n"
            "assert issubclass(native.CoreError, LexcError)\n"
            "from lexc.wordlist import from_words\n"
            "from lexc.ruleset import load_ruleset\n"
            "d = formats.build(from_words(['CAT'], load_ruleset('english').alphabet), 'dawg', 'english')\n"
            "assert 'CAT' in d and d.anagrams('TAC') == ['CAT']\n")
    env = {k: v for k, v in os.environ.items() if k != "LEXC_REQUIRE_CORE"}  # (make sanitize sets it)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**env, "LEXC_PURE": "1"})
    assert done.returncode == 0, done.stderr


# -- fault 1: the edge layouts the core accepts are fixed in C ---------------------------------

@needs_core
def test_the_graph_accepts_exactly_the_layouts_lexc_uses():
    """The two layouts of formats/edges.py (every Graph caller's, the KWG reader's u32 among
    them) and no other: a scan never reads an array in a width it was not made for."""
    from lexc.formats.edges import LAYOUTS

    core = native.COMPILED.core
    lexc_layouts = {name: (lay.itemsize, lay.letter_shift, lay.terminal_bit, lay.last_bit, lay.child_bits)
                    for name, lay in LAYOUTS.items()}
    assert lexc_layouts == core.LAYOUTS
    for name in ("u16", "U32", "u32 ", "", "u64le", "kwg"):
        with pytest.raises(native.UnknownLayout, match="u32 and u64"):
            graph(CAT, name)
    with pytest.raises(TypeError):  # the fields are not the caller's to choose
        native.COMPILED.core.Graph(CAT, False, 24, 23, 21, 21, 26, 1)
    with pytest.raises(native.MalformedGraph) as odd:  # five u32 edges are not whole u64 edges
        graph(CAT, "u64")
    assert odd.value.kind == "size"
    wide = b"".join((int.from_bytes(CAT[k : k + 4], "little") & 0x3FFFFF
                     | (int.from_bytes(CAT[k : k + 4], "little") >> 22 & 3) << 54
                     | (CAT[k + 3] << 56)).to_bytes(8, "little") for k in range(0, len(CAT), 4))
    for g in (graph(CAT), graph(wide, "u64")):
        assert g.contains(b"\x03\x01\x14", 0) and g.contains(b"\x01\x14", 0) and not g.contains(b"\x03\x01", 0)


# -- fault 2: a Graph is immutable once built ---------------------------------------------------

def _listing(cursor) -> list[bytes]:
    out = []
    while True:
        blob, count = cursor.take(3)
        if not count:
            return out
        out += blob.split(b"\x00")


@needs_core
def test_a_graph_never_changes_under_a_cursor():
    """No method swaps a Graph's arrays (set_extra and set_member are gone): its extra edges
    and the walk of ``in`` are given to the constructor, and a Cursor's indices stay valid."""
    lexicon = formats.build(from_words(["CAT", "CATS", "AT", "TA"], ENGLISH.alphabet), "gaddag", "english")
    g = lexicon._graph
    assert not hasattr(g, "set_extra") and not hasattr(g, "set_member")
    root = len(lexicon.edges)  # the rebuilt DAWG root, an extra edge
    cursor = g.words(root, b"")
    first, _ = cursor.take(1)
    again = native.COMPILED.core.Graph(g, "u32", 26, 2, True, b"")  # another graph over the same stored edges
    assert again.size() == (len(lexicon.edges), 0) and g.size() == (len(lexicon.edges), len(lexicon._extra))
    assert [first, *_listing(cursor)] == _listing(g.words(root, b"")) == [w.encode("latin-1").translate(
        bytes([0] * 65 + list(range(1, 27)) + [0] * 165)) for w in ["AT", "CAT", "CATS", "TA"]]
    assert "CATS" in lexicon and "STAC" not in lexicon  # the membership walk given at construction
    with pytest.raises(IndexError):
        graph(CAT, member=len(CAT) // 4)
    with pytest.raises(ValueError, match="same layout"):
        native.COMPILED.core.Graph(g, "u32", 25, 2, True)


@needs_core
def test_extra_edges_are_checked_like_stored_ones():
    """The constructor checks the extra edges as the stored ones: a letter past the alphabet
    (which would index the move generator's rack counts out of bounds), a child outside the
    array, bits outside the layout's fields, lists out of order or unclosed."""
    def extra(*edges: tuple[int, bool, bool, int] | int) -> bytes:
        return b"".join((e if isinstance(e, int) else int.from_bytes(u32(*e), "little")).to_bytes(8, "little")
                        for e in edges)

    ok = extra((0, False, True, 6), (1, True, False, 0), (3, False, True, 4))  # pointer, then A (a word), C -> 4
    g = graph(CAT, separator=True, extra=ok, member=5)
    assert g.size() == (5, 3) and g.contains(b"\x03\x01\x14", 5) and g.contains(b"\x01", 5)
    for bad, kind in [(extra((0, False, True, 6), (200, True, True, 0)), "letter"),
                      (extra((0, False, True, 6), (27, True, True, 0)), "letter"),
                      (extra((0, False, True, 99), (1, True, True, 0)), "child"),
                      (extra((0, False, True, 6), 1 << 32 | int.from_bytes(u32(1, True, True, 0), "little")), "child"),
                      (extra((0, False, True, 6), (3, True, False, 0), (1, True, True, 0)), "order"),
                      (extra((0, False, True, 6), (1, True, False, 0)), "unclosed"),
                      (ok[:-1], "size")]:
        with pytest.raises(native.MalformedGraph) as caught:
            graph(CAT, separator=True, extra=bad)
        assert caught.value.kind == kind, bad


@needs_core
def test_a_graph_over_memory_that_can_change_reads_its_own_copy():
    """The checked edges must stay as checked: a writable buffer (or a read-only view of one)
    is copied, so writing a hostile edge into it afterwards changes nothing the core reads;
    a buffer not aligned for the layout is copied too."""
    pad = u32(1, True, True, 0) * 200  # closed one-edge lists: a buffer pymalloc leaves to malloc (ASan sees it)
    end = (len(CAT) + len(pad)) // 4
    for make in (bytearray, lambda b: memoryview(bytearray(b)).toreadonly()):
        memory = make(CAT + pad)
        g = graph(memory)
        target = memory.obj if isinstance(memory, memoryview) else memory
        target[12:16] = u32(20, True, False, end)  # a child just past the end, an unclosed list
        target[16:20] = u32(1, False, False, end)
        assert g.contains(b"\x03\x01\x14", 0) and g.anagram(0, b"\x01\x03\x14", 0, True, 10)[1] == 2
        assert _listing(g.words(0, b"")) == [b"\x01\x14", b"\x03\x01\x14"]
    shifted = memoryview(b"\x00" + CAT)[1:]  # bytes, one byte off the edges' alignment
    assert graph(shifted).contains(b"\x01\x14", 0)


# -- fault 5: a play forms a word of at least two letters, on both paths -----------------------

from lexc.board.board import Board  # noqa: E402
from lexc.movegen import generate_plays  # noqa: E402


@pytest.mark.parametrize("words", [["A", "H", "AH"], ["A"], ["A", "B", "AB", "BA"], ["H", "AH", "HA", "AHA"]])
def test_one_letter_words_never_make_a_one_tile_play(words):
    """A one-letter word in the lexicon is no play: the compiled searches (the leaf shortcut of
    Appel & Jacobson's ExtendRight among them) list exactly the pure path's plays, on an empty
    board and around tiles, with blanks, for every format and strategy the core runs."""
    alphabet = ENGLISH.alphabet
    listed = from_words(words, alphabet, min_len=1)
    empty = Board.empty(ENGLISH)
    a, h = alphabet.encode("A")[0], alphabet.encode("H")[0]
    boards = [empty, empty.with_tiles([(7, 7, a)]), empty.with_tiles([(7, 7, a), (7, 8, h)]),
              empty.with_tiles([(7, 7, h | 0x80)])]
    for fmt in ("dawg", "gaddag", "gaddawg"):
        compiled = formats.build(listed, fmt, "english")
        pure = formats.build(listed, fmt, "english", backend=native.PURE)
        for strategy in ("appel-jacobson", "gordon") if fmt != "dawg" else ("appel-jacobson",):
            for board in boards:
                for rack in ("?", "A", "H", "AH", "A?", "??"):
                    got = sorted(generate_plays(board, rack, compiled, strategy).pairs())
                    want = sorted(generate_plays(board, rack, pure, strategy).pairs())
                    assert got == want, (fmt, strategy, board.cgp_rows(), rack)
                    if board is empty:
                        assert all(len(note.split()[1]) > 1 for note, _ in got), got


# -- fault 6: no process-wide state in the core ------------------------------------------------

@needs_core
def test_the_edges_a_search_read_come_back_with_its_call():
    """Each movegen call returns the edges its search read (a threaded host's calls never see
    each other's through a static): the count stays with its ``Plays``."""
    words = ["CAT", "CATS", "AT", "TA", "TAT", "SAT", "ACT", "SCAT", "TACT"]
    lexicon = formats.build(from_words(words, ENGLISH.alphabet), "gaddawg", "english")
    assert not hasattr(native.COMPILED.core, "search_edges")
    empty = Board.empty(ENGLISH)
    busy = generate_plays(empty, "CATSTA?", lexicon, "gordon")
    quiet = generate_plays(empty, "Q", lexicon, "gordon")
    assert busy.search_edges > quiet.search_edges >= 0
    assert busy.search_edges == generate_plays(empty, "CATSTA?", lexicon, "gordon").search_edges
    made = native.COMPILED.core.Generator(lexicon._graph, 15, 1, 0, 1, 1, bytes(1024), bytes([1]) * 225,
                                          bytes([1]) * 225, 7, 50, 7, 7)
    assert len(made.plays(b"".join(empty.rows), b"\x01", 10)) == 3


# -- fault 3: scores in 64 bits, and rulesets whose scores fit ----------------------------------

from lexc.ruleset import MAX_SCORE, RulesetError  # noqa: E402


def big_ruleset(value: int, rack: int = 20, qw: int = 20, size: int = 26, letter: str = "none") -> str:
    """A ruleset's text: A and B worth ``value``, a ``size`` board whose first row starts with
    ``qw`` quadruple-word squares (the start square the first), a rack of ``rack`` tiles."""
    rows = ["*" + "=" * (qw - 1) + "." * (size - qw)] + ["." * size] * (size - 1)
    return "\n".join([
        'name = "big"', 'description = "scores near the bound"', f"rack_size = {rack}", "bingo_bonus = 50",
        f"tile_total = {2 * rack}", "[tiles]", f"A = [{rack}, {value}]", f"B = [{rack}, {value}]", '"?" = [0, 0]',
        "[board]", 'start = "*"', "rows = [" + ", ".join(f'"{row}"' for row in rows) + "]",
        "[board.legend]", f'"." = "{letter}"', '"=" = "QW"', '"*" = "QW"']) + "\n"


def test_a_ruleset_near_the_score_bound_scores_alike_on_both_paths():
    """Scores are computed in 64 bits: a 20-tile play over 20 quadruple-word squares scores
    6,904,933,022,433,330 on the compiled path as on the pure path (the int32 arithmetic gave
    garbage), and the records, the ranking and the JSON line carry it whole."""
    text = big_ruleset(314)
    rules = load_ruleset(text)
    word = "AB" * 10
    listed = from_words([word, "AB", "BA"], rules.alphabet)
    board = Board.empty(rules)
    expected = 20 * 314 * 4**20 + 50
    assert expected > 2**62 >> 10 and expected <= MAX_SCORE
    for fmt, strategy in (("dawg", "appel-jacobson"), ("gaddawg", "gordon")):
        compiled = formats.build(listed, fmt, text)
        pure = formats.build(listed, fmt, text, backend=native.PURE)
        want = sorted(generate_plays(board, word, pure, strategy).pairs())
        plays = generate_plays(board, word, compiled, strategy)
        assert sorted(plays.pairs()) == want and ("1A " + word, expected) in want
        assert max(plays.scores()) == expected == plays.moves(top=1)[0].score
        assert f'"score": {expected}' in plays.batch_json(top=1)


def test_a_ruleset_whose_scores_could_pass_the_bound_is_refused():
    """The loader bounds board size, tile values, premiums, bingo and rack size together: a
    ruleset whose largest possible play could pass 2**53 - 1 points is refused with one line
    naming it and what to lower (the review's 26x26 board, 10,000-point tiles, 64-tile rack)."""
    load_ruleset(big_ruleset(314))
    with pytest.raises(RulesetError, match=r"<stored ruleset>: a play could score up to .* points.*lower the tile"):
        load_ruleset(big_ruleset(316))
    with pytest.raises(RulesetError, match="lower the tile values") as caught:
        load_ruleset(big_ruleset(10000, rack=32, qw=26, letter="QL"))
    assert "\n" not in str(caught.value)


@needs_core
def test_the_core_refuses_arrays_whose_scores_could_overflow():
    """Called directly with hostile arrays (word multipliers of 255, tile values of 2**31 - 1),
    the generator refuses the position instead of overflowing a score."""
    lexicon = formats.build(from_words(["AB", "BA"], ENGLISH.alphabet), "dawg", "english")
    board = bytes(225)
    values = (2**31 - 1).to_bytes(4, "little") * 256
    made = native.COMPILED.core.Generator(lexicon._graph, 15, 0, 0, 0, -1, values, bytes([255]) * 225,
                                          bytes([255]) * 225, 7, 50, 7, 7)
    with pytest.raises(ValueError, match="64 bits"):
        made.plays(board, b"\x01" * 7 + b"\x02" * 7, 1000)


@needs_core
def test_a_prepared_generator_checks_each_position_as_movegen_does():
    """``Generator`` (the graph and ruleset checked once, then a position a call) answers as
    the pure path does for the same position, refuses a board of the wrong size or with a code
    outside the alphabet, a rack tile outside it and a rack of more than 255 tiles, and a
    rack whose plays could score past 64 bits (the bound found per tile count)."""
    from lexc.board.board import Board
    from lexc.movegen.compiled import _ruleset_arrays

    english = load_ruleset("english")
    lexicon = formats.build(from_words(["AB", "BA", "ABA"], english.alphabet), "gaddawg", "english")
    pure = formats.build(from_words(["AB", "BA", "ABA"], english.alphabet), "gaddawg", "english", backend=native.PURE)
    graph, roots = lexicon.search_graph("gordon")
    values, letter, word = _ruleset_arrays(english)
    core = native.COMPILED.core
    board = bytearray(b"".join(Board.empty(english).rows))
    board[7 * 15 + 7], board[7 * 15 + 8] = 1, 2  # AB at 8H
    for strategy in (0, 1):
        made = core.Generator(graph, 15, strategy, roots[0], roots[strategy], roots[2], values, letter, word, 7, 50, 7,
                              7)
        records, count, _ = made.plays(bytes(board), b"\x00\x01\x02", 100)
        position = Board(english, tuple(bytes(board[r * 15 : (r + 1) * 15]) for r in range(15)))
        want = generate_plays(position, "?AB", pure, "gordon" if strategy else "appel-jacobson").scores()
        scores = [int.from_bytes(records[k * 40 : k * 40 + 8], "little", signed=True) for k in range(count)]
        assert count == len(want) > 0 and sorted(scores) == sorted(want)
        for bad_board in (bytes(224), bytes(board[:-1]) + b"\x1b", bytes(board[:-1]) + b"\x80"):
            with pytest.raises(ValueError, match="movegen"):
                made.plays(bad_board, b"\x01", 100)
        for bad_rack in (b"\x1b", b"\x81", b"\x01" * 256):
            with pytest.raises(ValueError, match="movegen"):
                made.plays(bytes(board), bad_rack, 100)
        with pytest.raises(native.AnswerCap):
            made.plays(bytes(board), b"\x00\x01\x02", 1)
    with pytest.raises(ValueError, match="bad arguments"):
        core.Generator(graph, 15, 2, roots[0], roots[1], roots[2], values, letter, word, 7, 50, 7, 7)
    with pytest.raises(ValueError, match="bad arguments"):
        core.Generator(graph, 15, 1, roots[0], 10**9, roots[2], values, letter, word, 7, 50, 7, 7)
    with pytest.raises(ValueError, match="bad arguments"):
        core.Generator(graph, 15, 1, roots[0], roots[1], roots[2], values, letter[:-1], word, 7, 50, 7, 7)
    huge = core.Generator(graph, 15, 0, roots[0], roots[0], roots[2], (2**31 - 1).to_bytes(4, "little") * 256,
                          bytes([255]) * 225, bytes([255]) * 225, 7, 50, 7, 7)
    assert huge.plays(bytes(225), b"\x01\x02", 100)[1] > 0  # two tiles' plays fit 64 bits, 14 tiles' may not
    with pytest.raises(ValueError, match="64 bits"):
        huge.plays(bytes(225), b"\x01" * 7 + b"\x02" * 7, 100)


# -- fault 4: sizes checked in widths that cannot overflow --------------------------------------

import mmap  # noqa: E402


@needs_core
def test_a_search_list_longer_than_an_int_is_refused_before_narrowing():
    """findwords measures its search list in Py_ssize_t before narrowing it to an int: a list
    of 2**31 + 1 entries (an untouched 4 GiB anonymous map) is refused, not wrapped to a
    negative count that indexes its stack arrays."""
    lexicon = formats.build(from_words(["CAT", "TAC"], ENGLISH.alphabet), "anatrie", "english")
    with mmap.mmap(-1, 2**32 + 2) as huge, pytest.raises(ValueError, match="findwords: bad arguments"):
        native.COMPILED.core.findwords(bytes(lexicon.file.data), 0 if lexicon.disk == "pascal" else 1, huge, 0,
                                       bytes(lexicon.rank), lexicon._made, 26)


@needs_core
@pytest.mark.parametrize("count", [2**61, 2**62, 2**62 + 2**61, 2**63 - 1, 5])
def test_a_record_count_past_the_buffer_is_refused(count):
    """notations, ranked and batch_json compare the count with the buffer by division (count
    x RECORD overflowed, wrapped below the buffer's length, and the records were read past
    its end)."""
    from lexc.movegen.compiled import _json_texts, _tile_texts

    core = native.COMPILED.core
    texts, escaped = _tile_texts(ENGLISH.alphabet.labels), _json_texts(ENGLISH.alphabet.labels)
    board = bytes(225)
    for call in (lambda: core.notations(b"", count, board, 15, texts),
                 lambda: core.ranked(b"", count, board, 15, texts, 1),
                 lambda: core.batch_json(b"", count, board, 15, texts, escaped, 1)):
        with pytest.raises(ValueError, match="bad arguments"):
            call()


# -- fault 8: an integer of more than 4,300 digits in a ruleset is a RulesetError --------------

def _huge_ruleset() -> str:
    english = (Path(__file__).resolve().parent.parent / "src" / "lexc" / "rulesets" / "english.toml").read_text()
    return english.replace("bingo_bonus = 50", "bingo_bonus = " + "9" * 5000)


def test_an_integer_past_python_s_digit_limit_is_a_one_line_ruleset_error(tmp_path, capsys):
    """tomllib raises ValueError (not TOMLDecodeError) for an integer of more than 4,300
    digits: the loader says so in one line, exit status 2, whether the ruleset is a file given
    with -r or the text a crafted lexicon file's header stores (check, info; verify answers
    that the file fails, exit status 1)."""
    from fuzz import seal, split
    from test_cli import assert_one_error_line, run_main

    path = tmp_path / "huge.toml"
    path.write_text(_huge_ruleset())
    lexicon = tmp_path / "cat.dawg"
    formats.save(formats.build(from_words(["CAT", "AT"], ENGLISH.alphabet), "dawg", "english"), lexicon)
    code, _, err = run_main(capsys, "moves", lexicon, "--rack", "CAT", "-r", path)
    assert code == 2
    assert_one_error_line(err, str(path), "4300")
    header, payload = split(lexicon.read_bytes())
    crafted = tmp_path / "crafted.dawg"
    crafted.write_bytes(seal(dict(header, ruleset=_huge_ruleset()), payload))
    for args in (["check", crafted, "CAT"], ["info", crafted]):
        code, _, err = run_main(capsys, *args)
        assert code == 2, (args, err)
        assert_one_error_line(err, "stored ruleset", "integer")
    code, out, err = run_main(capsys, "verify", crafted)  # verify's answer: the file fails (exit 1), in one line
    assert code == 1 and err == "" and out.startswith("FAILED: ") and len(out.splitlines()) == 1
    assert "stored ruleset" in out and "integer" in out


# -- fault 10: the core read as an attacker would (each finding's regression) --------------------

@needs_core
def test_a_rack_count_is_checked_before_it_is_summed():
    """anagram adds the rack's letters and blanks in Py_ssize_t after checking each: a huge
    blank count overflowed an int sum that then passed the 64-tile check."""
    g = graph()
    for letters, blanks in ((b"\x01", 2**31 - 1), (b"", 2**31 - 1), (b"\x01" * 65, 0), (b"\x01" * 60, 5), (b"", -1)):
        with pytest.raises(ValueError, match="rack"):
            g.anagram(0, letters, blanks, True, 100)
    assert g.anagram(0, b"\x01\x03\x14", 0, True, 100)[1] == 2 and g.anagram(0, b"", 64, False, 100)[1] == 0


@needs_core
def test_a_proof_starts_only_at_a_node():
    """prove's roots are nodes (0, or an edge past the root pointer slots): a root pointer slot
    that does not close its list, at the array's end, was walked past the end."""
    two = u32(0, False, False, 0) * 2  # two root pointer slots, neither closing a list, no nodes
    g = graph(two, pointers=2)
    for prove in (g.prove, lambda roots, longest, most: g.prove(roots, 200, most)):
        with pytest.raises(IndexError, match="root"):
            prove([1], 10, 10)
    assert graph().prove([1, 0], 10, 10) == [(2, 0), (0, 0)]
    with pytest.raises(ValueError, match="longest"):  # a height is kept in a byte
        graph().prove([1], 256, 10)


@needs_core
def test_the_minimizer_refuses_field_positions_outside_its_edge():
    """emit takes the layout's field positions from its caller: a negative or too wide one is
    refused (it was a shift by a negative count or past 64 bits)."""
    m = native.COMPILED.core.Minimizer()
    root = m.add_language([b"\x01\x14", b"\x03\x01\x14"])
    m.layout([root])
    for fields in ((4, -1, 23, 22, 22), (4, 24, -1, 22, 22), (4, 24, 23, -1, 22), (4, 24, 23, 22, -1),
                   (4, 24, 23, 64, 22), (4, 24, 40, 22, 22), (8, 56, 55, 54, 64), (4, 25, 23, 22, 22)):
        with pytest.raises(ValueError, match="layout"):
            m.emit([root], *fields)
    assert len(m.emit([root], 4, 24, 23, 22, 22)) == 4 * 5


@needs_core
def test_move_generation_reads_tile_values_at_any_alignment():
    """The tile values may come in any buffer: the core copies them (a misaligned int32 read
    is undefined behaviour), and answers as with an aligned copy."""
    lexicon = formats.build(from_words(["AB", "BA"], ENGLISH.alphabet), "dawg", "english")
    from lexc.movegen.compiled import _ruleset_arrays

    values, letter, word = _ruleset_arrays(ENGLISH)
    shifted = memoryview(b"\x00" + values)[1:]
    core = native.COMPILED.core
    made = [core.Generator(lexicon._graph, 15, 0, 0, 0, -1, given, letter, word, 7, 50, 7, 7)
            for given in (shifted, values)]
    board = b"".join(Board.empty(ENGLISH).rows)
    assert made[0].plays(board, b"\x01\x02", 100) == made[1].plays(board, b"\x01\x02", 100)
