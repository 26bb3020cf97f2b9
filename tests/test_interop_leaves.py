"""Leave files written by wolges, MAGPIE and Quackle (``tests/interop.py``: read where they
are, never copied): lexc reads each and lists exactly the engine's own leaves and values (its
CSV dump), each value found by the engines' rank lookup; and lexc's writers, given the
engine's input, write the engine's bytes: wolges's KLV, KLV2 and KLV16 from the same CSV,
MAGPIE's KLV2 of every sub-rack (``csv2klv``) and its CSV of every sub-rack (``klv2csv``),
Quackle's superleaves (``encodeleaves``), and MAGPIE's letter distribution and layout from
lexc's English ruleset. The TWL06 files (914,624 leaves each) are the slow ones."""

from __future__ import annotations

import pytest

from interop import engine_bytes, engine_file, engine_lines
from lexc.formats.foreign import recognise
from lexc.formats.klv import Klv2
from lexc.formats.leaves import LeavesCsv, loads_leaves, read_leaves, round_half_away, to_f32, write_leaves
from lexc.formats.magpie import layout_text, letter_distribution_csv
from lexc.formats.superleaves import Superleaves
from lexc.ruleset import load_ruleset

ENGLISH = load_ruleset("english")


def parsed(lines: list[str]) -> list[tuple[str, float]]:
    """An engine's LEAVE,VALUE listing as (leave, value) pairs."""
    return [(leave, float(value)) for leave, value in (line.rsplit(",", 1) for line in lines)]


def listing(table) -> list[tuple[str, float]]:
    """The table's leaves in its order (a KLV's rank order), each valued by the rank lookup."""
    return [(table.text(k), table.value(k)) for k in table]


# (engine folder, file, its format when it must be named, the engine's dump of it)
SMALL = [
    ("wolges", "CSW21_small.klv2", None, "CSW21_small.klv2.csv"),
    ("wolges", "CSW21_small.klv", None, "CSW21_small.klv.csv"),
    ("wolges", "CSW21_small.klv16", "klv16", "CSW21_small.klv16.csv"),
]


@pytest.mark.parametrize("engine, name, fmt, dump", SMALL, ids=[s[1] for s in SMALL])
def test_lexc_lists_exactly_wolges_s_leaves_and_values(engine, name, fmt, dump):
    table = read_leaves(engine_file(engine, name), ENGLISH, fmt)
    assert listing(table) == parsed(engine_lines(engine, dump))
    assert [table.rank(k) for k in table] == list(range(len(table)))
    text, _ = write_leaves(table, "leaves-csv")
    assert text.decode().splitlines() == engine_lines(engine, dump)  # (wolges's own text, byte for byte)


@pytest.mark.parametrize("name", ["CSW21_small.klv2", "CSW21_ab.klv2"])
def test_lexc_reads_magpie_s_own_data_files(name):
    """MAGPIE-DATA's fixtures: CSW21_small.klv2 holds the 11 leaves of its CSV (a node order
    of an older writer), CSW21_ab.klv2 every leave of A and B."""
    table = read_leaves(engine_file("magpie", "magpie-data", name), ENGLISH)
    if name == "CSW21_small.klv2":
        csv = LeavesCsv.read_leaves(engine_bytes("magpie", "magpie-data", "CSW21_small.csv"), "csv", ENGLISH)
        assert dict(listing(table)) == {csv.text(k): v for k, v in csv.items()} and len(table) == 11
        assert table.value(table.leave_of("BAA")) == 4.0 and table.value(table.leave_of("B?AA")) == 3.0
    else:
        assert all(set(table.text(k)) <= {"A", "B"} for k in table) and len(table) == 27


@pytest.mark.parametrize("fmt, name", [("klv2", "CSW21_small.klv2"), ("klv", "CSW21_small.klv"),
                                       ("klv16", "CSW21_small.klv16")])
def test_lexc_writes_wolges_s_bytes_from_the_same_csv(fmt, name):
    csv = read_leaves(engine_file("magpie", "magpie-data", "CSW21_small.csv"), ENGLISH)
    data, rounding = write_leaves(csv, fmt)
    assert data == engine_bytes("wolges", name)
    assert not rounding.changed


def test_quackle_s_superleaves_read_as_its_dump_and_written_from_the_same_csv():
    path = engine_file("quackle", "small_leaves.superleaves")
    assert recognise(path) is Superleaves
    table = read_leaves(path, ENGLISH)
    dump = parsed(engine_lines("quackle", "small_leaves.superleaves.txt"))  # (Quackle's map order)
    assert sorted(listing(table)) == sorted(dump)
    csv = read_leaves(engine_file("quackle", "small_leaves.csv"), ENGLISH)
    data, rounding = write_leaves(csv, "superleaves")
    assert data == engine_bytes("quackle", "small_leaves.superleaves")
    assert (rounding.changed, rounding.leave, rounding.after) == (1, "EEE", -4.1015625)  # (truncated, as encodeleaves)


def test_the_magpie_folder_files_are_magpie_s_own_for_english():
    assert letter_distribution_csv(ENGLISH) == engine_bytes("magpie", "magpie-data", "english.csv")
    assert layout_text(ENGLISH) == engine_bytes("magpie", "magpie-data", "standard15.txt")


# -- TWL06: 914,624 leaves ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def twl06():
    """TWL06.csv: MAGPIE's klv2csv of MAGPIE-DATA's TWL06.klv2, wolges's input for its TWL06 files."""
    data = engine_bytes("magpie", "TWL06.csv.gz")
    return data, loads_leaves(data, "TWL06.csv", ENGLISH)


@pytest.mark.slow
@pytest.mark.parametrize("fmt, name", [("klv2", "TWL06.klv2"), ("klv", "TWL06.klv"), ("klv16", "TWL06.klv16")])
def test_twl06_wolges_s_bytes_and_values(twl06, fmt, name):
    """wolges's TWL06 files from TWL06.csv: lexc writes the same bytes, and reads back every
    value as wolges's dumps hold it (the manifest: f32, round(v*256)/256, round(v*8)/8)."""
    _, csv = twl06
    data, rounding = write_leaves(csv, fmt)
    assert data == engine_bytes("wolges", name)
    table = read_leaves(engine_file("wolges", name), ENGLISH, fmt if fmt == "klv16" else None)
    assert table.file_format == fmt and len(table) == 914_624
    scale = {"klv": 256, "klv16": 8}.get(fmt)
    want = {leave: to_f32(value) if scale is None else round_half_away(to_f32(value) * scale) / scale
            for leave, value in csv.items()}
    assert table.values == want and list(table.values) == sorted(want)  # (every leave, in rank order)
    for leave in list(want)[::61]:  # (the rank lookup of one leave in 61; the small files check every leave)
        assert table.value(leave) == want[leave], table.text(leave)
    assert (rounding.changed > 0) == (scale is not None)


@pytest.mark.slow
@pytest.mark.parametrize("name", [("magpie-data", "TWL06.klv2"), ("TWL06.csv2klv.klv2",)], ids=["data", "csv2klv"])
def test_twl06_magpie_s_files_list_as_magpie_s_csv(twl06, name):
    """MAGPIE's TWL06.klv2 (MAGPIE-DATA's, and csv2klv's of TWL06.csv): lexc's listing as
    MAGPIE's klv2csv is TWL06.csv byte for byte, each value by the rank lookup."""
    data, _ = twl06
    path = engine_file("magpie", *name)
    assert recognise(path) is Klv2
    table = read_leaves(path, ENGLISH)
    text, _ = write_leaves(table, "leaves-csv", like="magpie")
    assert text == data


@pytest.mark.slow
def test_twl06_lexc_writes_magpie_s_csv2klv_bytes(twl06):
    _, csv = twl06
    data, rounding = write_leaves(csv, "klv2", like="magpie")
    assert data == engine_bytes("magpie", "TWL06.csv2klv.klv2")
    assert not rounding.changed
