"""`lexc bench` runs end to end on a tiny list: every figure present and positive (no timing assertions)."""

from __future__ import annotations

from pathlib import Path

from lexc.bench import format_table, run_bench
from lexc.formats import FORMATS

TINY = Path(__file__).resolve().parent.parent / "wordlists" / "tiny.txt"


def test_bench_shape():
    result = run_bench(str(TINY), repeat=1)
    assert result["words"] > 0 and result["repeat"] == 1
    assert set(result["formats"]) == set(FORMATS) | {"python-set", "marisa-trie"}
    for name, figures in result["formats"].items():
        assert figures["file_bytes"] > 0 and figures["bytes_per_word"] > 0, name
        assert figures["build_s"]["median"] > 0 and figures["load_s"]["median"] > 0, name
        assert figures["memory"]["peak_mb"] > 0, name
        for query in ("member", "prefix", "anagram0", "anagram1", "anagram2", "hooks"):
            timing = figures["query_s"][query]
            assert 0 < timing["min"] <= timing["median"] <= timing["max"], (name, query)
    for name in FORMATS:
        assert result["formats"][name]["nodes"] > 0 and result["formats"][name]["edges"] > 0
    table = format_table(result)
    assert all(name in table for name in result["formats"])
