"""The compiled core's leave lookup (``src/lexc/native/leaves.c``) against its reference
(``KlvGraph.rank_pure``): the same rank for every leave stored and none for a leave not
stored, on generated tables written by wolges's and MAGPIE's writers, for rulesets whose
engine orders differ; and on damaged arrays handed straight to the core, an answer (a rank or
-1) and never a read outside them (``make sanitize-quick`` runs this file under ASan/UBSan)."""

from __future__ import annotations

import random
from array import array
from itertools import islice

import pytest

from lexc import native
from lexc.formats.leaves import LeaveTable, drawable_leaves, loads_leaves, write_leaves
from lexc.ruleset import load_ruleset

pytestmark = pytest.mark.skipif(not native.available(), reason="the compiled core is not built")


def random_table(ruleset, rng: random.Random, size: int) -> LeaveTable:
    """``size`` leaves drawn from the first drawable ones (all lengths), random values."""
    pool = list(islice(drawable_leaves(ruleset), 20000))
    leaves = rng.sample(pool, min(size, len(pool)))
    return LeaveTable({leave: round(rng.uniform(-30, 30), 3) for leave in leaves}, ruleset)


def random_leave(ruleset, rng: random.Random) -> bytes:
    length = rng.randint(1, ruleset.rack_size)
    return bytes(sorted(rng.randint(0, len(ruleset.alphabet)) for _ in range(length)))


@pytest.mark.parametrize("name", ["tiny", "english", "norwegian", "spanish"])
@pytest.mark.parametrize("like", ["", "magpie"])
def test_the_core_ranks_every_leave_as_the_reference_does(name, like):
    ruleset = load_ruleset(name)
    rng = random.Random(f"{name}{like}")
    compared = 0
    for size in (1, 2, 17, 300):
        table = random_table(ruleset, rng, size) if like == "" else LeaveTable(
            dict.fromkeys(islice(drawable_leaves(ruleset, 2), size), 1.0), ruleset)
        data, _ = write_leaves(table, "klv2", ruleset, like)
        read = loads_leaves(data, "t.klv2", ruleset)
        graph = read.graph
        assert graph is not None and graph.backend is native.COMPILED
        probes = list(table.values) + [random_leave(ruleset, rng) for _ in range(200)]
        for leave in probes:
            tiles = bytes(sorted(leave.translate(graph.to_engine)))
            assert graph.rank(leave) == graph.rank_pure(tiles), (name, like, leave)
            compared += 1
        for rank, leave in enumerate(read.values):  # every stored leave at its own rank
            assert graph.rank(leave) == rank
    assert compared > 500


def test_the_pure_backend_answers_alike():
    ruleset = load_ruleset("tiny")
    table = random_table(ruleset, random.Random(5), 400)
    data, _ = write_leaves(table, "klv2", ruleset)
    read = loads_leaves(data, "t.klv2", ruleset)
    graph = read.graph
    assert graph is not None
    compiled = [graph.rank(leave) for leave in table.values]
    graph.backend = native.PURE
    assert [graph.rank(leave) for leave in table.values] == compiled


def test_damaged_arrays_never_read_outside_them():
    """Any edges, counts, root and tiles the argument checks let through: an answer in range."""
    core = native.COMPILED.core if native.COMPILED else None
    assert core is not None
    ruleset = load_ruleset("tiny")
    table = random_table(ruleset, random.Random(9), 60)
    data, _ = write_leaves(table, "klv2", ruleset)
    graph = loads_leaves(data, "t.klv2", ruleset).graph
    assert graph is not None
    rng = random.Random(1)
    n = len(graph.edges)
    for _ in range(3000):
        edges = array("I", graph.edges)
        counts = array("I", graph.counts)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(n)
            edges[i] = rng.choice([rng.getrandbits(32), edges[i] ^ (1 << rng.randrange(32)), 0xFFFFFFFF,
                                   (edges[i] & ~0x3FFFFF) | (n - 1)])
            counts[rng.randrange(n + 1)] = rng.getrandbits(32)
        root = rng.randrange(n)
        tiles = bytes(sorted(rng.randint(0, 27) for _ in range(rng.randint(1, 8))))
        rank = core.klv_rank(edges, counts, root, tiles)
        assert rank == -1 or abs(rank) < (1 << 40)
    for bad in [(array("I", [0]), array("I", [0]), 0, b"\x01"),  # counts must be n + 1
                (array("I", [1 << 22]), array("I", [0, 0]), 1, b"\x01"),  # root outside
                (array("I", [1 << 22]), array("I", [0, 0]), 0, b"\x01" * 256)]:  # too many tiles
        with pytest.raises(ValueError):
            core.klv_rank(*bad)
    assert core.klv_rank(array("I", [1 << 22]), array("I", [0, 0]), 0, b"\x01") == -1
