"""Leave values (``formats/leaves.py``, ``klv.py``, ``superleaves.py``, ``magpie.py``): the
table, every format's round trip, the precision rule (a coarser format rounds as its engine's
writer does and says so once; a round trip at the coarser precision is exact), the engines'
rank lookup, tiles by label, the proof every KLV goes through, and the commands (``lexc
leaves``, ``lexc convert``, ``lexc export --to magpie``). The engines' own files are checked
in ``test_interop_leaves.py``."""

from __future__ import annotations

import struct
from itertools import pairwise

import pytest

from lexc.formats.errors import FormatError
from lexc.formats.foreign import recognise
from lexc.formats.klv import Klv, Klv2, Klv16, KlvGraph, build_magpie, build_wolges
from lexc.formats.leaves import (
    EXACT,
    LeavesCsv,
    LeaveTable,
    drawable_leaves,
    fmt_value,
    loads_leaves,
    read_leaves,
    write_leaves,
)
from lexc.formats.magpie import layout_text, letter_distribution_csv, lexicon_name
from lexc.formats.superleaves import Superleaves
from lexc.ruleset import load_ruleset
from test_cli import assert_one_error_line, run_main

ENGLISH = load_ruleset("english")
SPANISH = load_ruleset("spanish")
CSV = "?,25.5\n??,40.25\nS?,30.125\nA,0.75\nEA,-3.25\nEEE,-4.1\nQU,1.5\nQ,-7.5\nS,8\nV,0\n"


def table(text: str = CSV, ruleset=ENGLISH) -> LeaveTable:
    return LeavesCsv.read_leaves(text.encode(), "t.csv", ruleset)


def leave(text: str, ruleset=ENGLISH) -> bytes:
    return LeaveTable({}, ruleset).leave_of(text)


# -- the table and the CSV ----------------------------------------------------------------------

def test_a_csv_leave_is_its_tiles_sorted_blank_first_and_keeps_its_line_order():
    t = table()
    assert [t.text(k) for k in t] == ["?", "??", "?S", "A", "AE", "EEE", "QU", "Q", "S", "V"]
    assert t.value(leave("SE?")) == 0.0 and t.value(leave("S?")) == 30.125 and t.value(leave("ae")) == -3.25
    assert t.precision is EXACT and t.value(b"") == 0.0


def test_the_csv_writer_writes_wolges_s_form_in_tile_order():
    data, rounding = write_leaves(table(), "leaves-csv")
    assert data.decode().splitlines() == ["?,25.5", "??,40.25", "?S,30.125", "A,0.75", "AE,-3.25", "EEE,-4.1",
                                          "Q,-7.5", "QU,1.5", "S,8.0", "V,0.0"]
    assert not rounding.changed
    again = LeavesCsv.read_leaves(data, "again", ENGLISH)
    assert again.values == table().values


@pytest.mark.parametrize("text, fragment", [
    ("AB,1\nBA,2\n", "t.csv:2: leave BA is given twice"),
    ("A,1\nCAT\n", "t.csv:2: 'CAT' is not a LEAVE,VALUE line (a word list?"),
    ("A,x\n", "is not a LEAVE,VALUE line"),
    ("A1,2\n", "leave 'A1'"),
    ("AEIOURS,1\nAEIOURST,2\n", "leave AEIOURST has 8 tiles, more than the english rack's 7"),
    ("A,1e999\n", "not a finite number"),
    ("\n\n", "no LEAVE,VALUE line"),
    ("A," + "1" * 300 + "\n", "a line of 302 characters"),
])
def test_a_bad_csv_is_refused_in_one_line_naming_it(text, fragment):
    with pytest.raises(FormatError, match=None) as info:
        table(text)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_a_csv_header_and_blank_lines_are_skipped_and_multi_character_tiles_read_by_label():
    t = table("leave,value\n\n[CH]A?,1.5\nLLA,2\n", SPANISH)
    assert sorted(t.text(k) for k in t) == ["?A[CH]", "A[LL]"]
    data, _ = write_leaves(t, "leaves-csv")
    assert LeavesCsv.read_leaves(data, "x", SPANISH).values == t.values


def test_values_are_written_as_the_shortest_decimal_that_reads_back():
    assert [fmt_value(v) for v in (1.0, -4.1015625, 0.0, 1e-07, 12.5)] == ["1.0", "-4.1015625", "0.0", "0.0000001",
                                                                           "12.5"]
    f32 = struct.unpack("<f", struct.pack("<f", 0.1))[0]
    assert fmt_value(f32, True) == "0.1" and fmt_value(f32) == "0.10000000149011612"


# -- every format round trips; the coarser ones round as their engines do ----------------------

@pytest.mark.parametrize("fmt, cls", [("klv2", Klv2), ("klv", Klv), ("klv16", Klv16), ("superleaves", Superleaves)])
def test_every_binary_format_round_trips_exactly_at_its_precision(fmt, cls):
    t = table()
    data, _ = write_leaves(t, fmt)
    back = cls.read_leaves(data, "x", ENGLISH)
    assert back.file_format == fmt and set(back.values) == set(t.values)
    again, second = write_leaves(back, fmt)
    assert again == data and not second.changed  # (exact at its own precision)
    for k, v in t.items():
        assert abs(back.value(k) - v) <= {"klv2": 1e-6, "klv": 1 / 512, "klv16": 1 / 16, "superleaves": 1 / 256}[fmt]


def test_a_coarser_format_reports_the_largest_rounding_error_once():
    _, rounding = write_leaves(table(), "klv")
    assert (rounding.changed, rounding.leave, rounding.before, rounding.after) == (1, "EEE", -4.1, -4.1015625)
    _, rounding = write_leaves(table(), "klv16")
    assert (rounding.changed, rounding.leave, rounding.after) == (1, "EEE", -4.125)
    note = rounding.note("out.klv16")
    assert note.startswith("out.klv16 holds values to 1/8 point: 1 value rounded, the largest error 0.025")
    _, rounding = write_leaves(table(), "klv2")
    assert not rounding.changed  # (-4.1 as an f32 reads back as -4.1)
    _, rounding = write_leaves(table("A,0.123456789\n"), "klv2")
    assert rounding.changed == 1  # (nine digits: more than an f32 holds)


def test_klv_rounds_to_the_nearest_1_256_halves_away_from_zero_and_superleaves_truncates():
    t = table("A,0.001953125\nB,-0.001953125\nC,-4.1\n")  # (half a step each way)
    k = Klv.read_leaves(write_leaves(t, "klv")[0], "k", ENGLISH)
    assert [k.value(leave(x)) for x in "ABC"] == [1 / 256, -1 / 256, -4.1015625]
    s = Superleaves.read_leaves(write_leaves(t, "superleaves")[0], "s", ENGLISH)
    assert [s.value(leave(x)) for x in "ABC"] == [0.0, -1 / 256, -4.1015625]


@pytest.mark.parametrize("fmt, value, limit", [("klv", "128", "127.99609375"), ("klv16", "-4097", "-4096.0"),
                                               ("superleaves", "128", "127.99609375"),
                                               ("superleaves", "-128.5", "-128.0")])
def test_a_value_the_target_cannot_hold_is_refused_naming_the_leave_and_the_limit(fmt, value, limit):
    with pytest.raises(FormatError) as info:
        write_leaves(table(f"A,1\nQU,{value}\n"), fmt)
    assert "leave QU" in str(info.value) and limit in str(info.value)


def test_a_superleaves_record_holds_the_tiles_sorted_and_quackle_s_numbers():
    data, _ = write_leaves(table("S?,30.125\n"), "superleaves")
    assert data == bytes([2, 1, 5 + 18]) + struct.pack("<H", int((30.125 + 128) * 256))


# -- the KLV graph: the engines' rank lookup, and the proof ------------------------------------

def test_the_rank_of_every_leave_is_its_index_in_tile_order():
    t = table()
    back = Klv2.read_leaves(write_leaves(t, "klv2")[0], "x", ENGLISH)
    assert list(back.values) == sorted(t.values)
    assert [back.rank(k) for k in sorted(t.values)] == list(range(len(t)))
    assert back.rank(leave("Z")) is None and back.rank(leave("QUU")) is None and back.value(leave("ZZ")) == 0.0


def test_a_prefix_that_is_no_leave_is_not_found():
    back = Klv2.read_leaves(write_leaves(table("QU,1.5\n"), "klv2")[0], "x", ENGLISH)
    assert back.rank(leave("Q")) is None and back.value(leave("Q")) == 0.0 and back.value(leave("UQ")) == 1.5


def test_wolges_shares_the_ends_of_sibling_lists():
    words = [b"\x00", b"\x00\x01", b"\x00\x01\x01", b"\x00\x01\x01\x02", b"\x00\x01\x02", b"\x00\x02", b"\x01",
             b"\x01\x01", b"\x01\x01\x02", b"\x01\x02", b"\x02"]
    edges = build_wolges(words)
    assert edges == [0x00400003, 0x01800002, 0x02C00000, 0x00800004, 0x01800001, 0x02C00000]


def test_magpie_lays_out_every_leave_breadth_first():
    edges = build_magpie(sorted(drawable_leaves(load_ruleset("tiny"))))
    assert edges[1] == 0x00400000 and edges[0] & 0x3FFFFF == 2
    _, order = KlvGraph.open(array_of(edges), len(list(drawable_leaves(load_ruleset("tiny")))), "m",
                                 load_ruleset("tiny"), "magpie")
    assert order == sorted(drawable_leaves(load_ruleset("tiny")))


def array_of(edges):
    from array import array

    return array("I", edges)


def klv_bytes(edges: list[int], values: list[float]) -> bytes:
    return struct.pack(f"<I{len(edges)}II{len(values)}f", len(edges), *edges, len(values), *values)


@pytest.mark.parametrize("edges, values, fragment", [
    ([0x00400002, 0x01C00000], [1.0, 2.0], "the root pointer 2 is outside the 2 edges"),
    ([0x01400001, 0x01C00000], [1.0], "edge 0 is not the pointer"),
    ([0x00400001, 0x01C00005], [1.0], "edge 1 points at 5, outside the 2 edges"),
    ([0x00400001, 0x1CC00000], [1.0], "tile 28, outside the english alphabet"),
    ([0x00400001, 0x01800000], [1.0], "runs off the end"),
    ([0x00400001, 0x02800000, 0x01C00000], [1.0, 2.0], "breaks the ascending tile order"),
    ([0x00400001, 0x01C00001], [1.0], "cycle"),
    ([0x00400001, 0x01C00000], [1.0, 2.0], "the graph holds 1 leave but the file has 2 values"),
    ([0x00400001, 0x02C00002, 0x01C00000], [1.0, 2.0], "out of order"),
    ([0x00400001, 0x01C00002, 0x01C00003, 0x01C00004, 0x01C00005, 0x01C00006, 0x01C00007, 0x01C00008, 0x01C00000],
     [1.0] * 8, "longer than the english rack's 7"),
])
def test_every_klv_is_proven_before_any_lookup(edges, values, fragment):
    with pytest.raises(FormatError) as info:
        loads_leaves(klv_bytes(edges, values), "bad.klv2", ENGLISH, "klv2")
    assert fragment in str(info.value), str(info.value)


@pytest.mark.parametrize("data, fragment", [
    (b"", "not a KLV file (0 bytes"), (b"\x01\0\0\0", "not a KLV file"),
    (struct.pack("<IIIf", 1, 0x00400000, 3, 1.0), "take 18 bytes (KLV, KLV16) or 24 (KLV2); the file has 16"),
    (struct.pack("<II", 99, 0), "count 99 edges"),
])
def test_a_file_whose_sizes_do_not_add_up_is_not_a_klv(data, fragment):
    with pytest.raises(FormatError) as info:
        loads_leaves(data, "x", ENGLISH, "klv")
    assert fragment in str(info.value) and "not a KLV file" in str(info.value)


def test_a_klv16_is_read_only_by_name_and_not_from_a_klv2():
    data = write_leaves(table(), "klv16")[0]
    assert loads_leaves(data, "x", ENGLISH).file_format == "klv"  # (its bytes are a KLV's)
    assert loads_leaves(data, "x", ENGLISH, "klv16").value(leave("EEE")) == -4.125
    with pytest.raises(FormatError, match="a KLV2's, not a KLV16's"):
        loads_leaves(write_leaves(table(), "klv2")[0], "x", ENGLISH, "klv16")


def test_the_empty_klv_of_wolges_holds_no_leaves():
    t = loads_leaves(b"\x01\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00", "empty.klv2", ENGLISH)
    assert len(t) == 0 and t.value(leave("A")) == 0.0


def test_tiles_go_by_label_through_the_engine_s_order():
    """A ruleset whose wolges order differs from its own: the file holds wolges's numbers,
    the table lexc's codes, and the values stay with their leaves."""
    import dataclasses

    labels = tuple(ENGLISH.alphabet.labels)
    swapped = dataclasses.replace(ENGLISH, engine_orders=(("wolges", labels[1:2] + labels[:1] + labels[2:]),))
    t = table("A,1\nB,2\nAB,3\nAAB,4\n", swapped)
    data, _ = write_leaves(t, "klv2", swapped)
    assert data != write_leaves(t, "klv2", ENGLISH)[0]
    back = loads_leaves(data, "x", swapped)
    assert {back.text(k): v for k, v in back.items()} == {"A": 1.0, "B": 2.0, "AB": 3.0, "AAB": 4.0}
    assert back.value(leave("BAA")) == 4.0
    english = loads_leaves(data, "x", ENGLISH)  # (read with the other order, A and B trade places)
    assert english.value(leave("A")) == 2.0


def test_a_lexicon_command_refuses_a_leave_file_saying_what_it_is(tmp_path, capsys):
    path = tmp_path / "t.klv2"
    path.write_bytes(write_leaves(table(), "klv2")[0])
    assert recognise(path) is Klv2
    code, out, err = run_main(capsys, "info", path)
    assert code == 2 and out == ""
    assert_one_error_line(err, "a KLV2 leave-value file", "not a lexicon", "lexc leaves")


# -- MAGPIE's every sub-rack and its folder -----------------------------------------------------

def test_magpie_s_klv2_holds_every_leave_the_bag_can_hold():
    tiny = load_ruleset("tiny")
    all_leaves = list(drawable_leaves(tiny))
    assert all(len(x) < tiny.rack_size for x in all_leaves) and len(all_leaves) == len(set(all_leaves))
    t = table(f"{tiny.alphabet.labels[0]},1.5\n", tiny)
    back = Klv2.read_leaves(write_leaves(t, "klv2", tiny, like="magpie")[0], "m", tiny)
    assert len(back) == len(all_leaves) and back.value(leave(tiny.alphabet.labels[0], tiny)) == 1.5
    with pytest.raises(FormatError, match="not one MAGPIE's KLV holds"):
        write_leaves(table("????,1\n"), "klv2", like="magpie")


def test_magpie_s_csv_lists_every_leave_by_length_with_milli_points():
    tiny = load_ruleset("tiny")
    text = write_leaves(table("A,0.0015\nB,-2\n", tiny), "leaves-csv", like="magpie")[0].decode()
    lines = text.splitlines()
    assert lines[:3] == ["?,0.000000", "A,0.002000", "B,-2.000000"]
    assert [len(x.split(",")[0]) for x in lines] == sorted(len(x.split(",")[0]) for x in lines)


def test_the_letter_distribution_and_layout_come_from_the_ruleset():
    csv = letter_distribution_csv(ENGLISH).decode().splitlines()
    assert csv[:3] == ["?,?,2,0,0", "A,a,9,1,1", "B,b,2,3,0"] and len(csv) == 27
    layout = layout_text(ENGLISH).decode().split("\n")
    assert layout[0] == "7, 7" and layout[1] == "=  '   =   '  =" and layout[8] == "=  '   -   '  ="
    assert len(layout) == 16
    assert lexicon_name("enable", ENGLISH) == "TWL_enable" and lexicon_name("CSW21", ENGLISH) == "CSW21"


def test_export_to_magpie_writes_the_folder_magpie_reads(tmp_path, capsys):
    """The folder, whole, renamed into place; its KLV2 holds every sub-rack (MAGPIE's lookup
    counts on it); a ruleset MAGPIE has no distribution for is named with -ld (the tiny one,
    whose every sub-rack is quick to write)."""
    tiny = load_ruleset("tiny")
    leaves_csv = tmp_path / "mine.csv"
    leaves_csv.write_text("A,1\n?,20\n")
    words = tmp_path / "words.txt"
    words.write_text("AA\nAB\nCAT\n")
    out = tmp_path / "data"
    code, text, err = run_main(capsys, "export", words, "-r", "tiny", "--to", "magpie", out, "--leaves", leaves_csv)
    assert code == 0, err
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert files == ["layouts/standard7.txt", "letterdistributions/tiny.csv", "lexica/mine.klv2", "lexica/words.kwg"]
    assert f"magpie -path {out} -lex words -leaves mine -ld tiny" in text
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".data")]  # (the scratch folder was renamed)
    t = read_leaves(out / "lexica" / "mine.klv2", tiny)
    assert t.value(leave("?", tiny)) == 20.0 and len(t) == len(list(drawable_leaves(tiny)))
    assert (out / "letterdistributions" / "tiny.csv").read_bytes() == letter_distribution_csv(tiny)
    keep = out / "other.txt"
    keep.write_text("theirs")  # into an existing folder: each file replaced, nothing else touched
    code, _, err = run_main(capsys, "export", words, "-r", "tiny", "--to", "magpie", "-o", out, "--name", "X")
    assert code == 0, err
    assert keep.read_text() == "theirs" and (out / "lexica" / "X.kwg").exists()


def test_export_to_magpie_names_an_english_lexicon_so_magpie_finds_its_distribution(tmp_path, capsys):
    words = tmp_path / "enable.txt"
    words.write_text("AA\nAB\nCAT\n")
    code, text, err = run_main(capsys, "export", words, "--to", "magpie", tmp_path / "data")
    assert code == 0, err
    assert (tmp_path / "data" / "lexica" / "TWL_enable.kwg").exists() and "-lex TWL_enable" in text
    assert (tmp_path / "data" / "layouts" / "standard15.txt").read_bytes() == layout_text(ENGLISH)


# -- the commands -------------------------------------------------------------------------------

def test_lexc_leaves_answers_a_rack_as_the_engines_do(tmp_path, capsys):
    path = tmp_path / "t.klv"
    path.write_bytes(write_leaves(table(), "klv")[0])
    code, out, err = run_main(capsys, "leaves", path, "--rack", "s?", "--rack", "EEE", "--rack", "ZZ")
    assert code == 0, err
    assert out.splitlines() == ["?S: 30.125  (rank 2)", "EEE: -4.1015625  (rank 5)", "ZZ: 0.0  (not stored: 0)"]
    code, out, _ = run_main(capsys, "leaves", path, "--rack", "EEE", "--json")
    assert '"magpie_millipoints": -4102' in out and '"rank": 5' in out
    code, out, _ = run_main(capsys, "leaves", path, "--list", "--limit", "2")
    assert out == "?,25.5\n??,40.25\n"
    code, out, _ = run_main(capsys, "leaves", path)
    assert out.startswith(f"{path}: klv, 10 leaves (1: 5, 2: 4, 3: 1)")


def test_lexc_leaves_refuses_what_is_no_leave_file_saying_what_it_looks_like(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("CAT\nDOG\n")
    code, _, err = run_main(capsys, "leaves", words)
    assert code == 2
    assert_one_error_line(err, "not a leave file (a word list: one word a line)")
    code, _, err = run_main(capsys, "leaves", words, "--from", "klv2")
    assert code == 2
    assert_one_error_line(err, "not a KLV file")


def test_lexc_convert_converts_leave_files_and_warns_once(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text(CSV)
    code, _, err = run_main(capsys, "convert", src, tmp_path / "t.klv16")
    assert code == 0 and err.count("warning") == 1 and "the largest error 0.025 points (EEE: -4.1 -> -4.125)" in err
    code, _, err = run_main(capsys, "convert", tmp_path / "t.klv16", tmp_path / "back.csv")
    assert code == 0 and err == ""  # (the name says KLV16; a CSV holds it exactly)
    assert "EEE,-4.125" in (tmp_path / "back.csv").read_text()
    code, _, err = run_main(capsys, "convert", src, tmp_path / "x.superleaves")
    assert code == 0 and read_leaves(tmp_path / "x.superleaves", ENGLISH).value(leave("?")) == 25.5
    code, _, err = run_main(capsys, "export", src, "--to", "klv2", "-o", tmp_path / "y.klv2")
    assert code == 2


def test_leaves_come_out_in_the_order_of_their_ranks():
    back = Klv.read_leaves(write_leaves(table(), "klv")[0], "x", ENGLISH)
    assert all(a < b for a, b in pairwise(back.values))
