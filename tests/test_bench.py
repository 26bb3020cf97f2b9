"""`lexc bench` runs end to end on a tiny list: every figure present and positive (no timing assertions)."""

from __future__ import annotations

from pathlib import Path

from lexc.bench import format_table, run_bench
from lexc.formats import FORMATS

TINY = Path(__file__).resolve().parent.parent / "wordlists" / "tiny.txt"


def test_bench_shape():
    result = run_bench(str(TINY), repeat=1)
    assert result["words"] > 0 and result["repeat"] == 1
    anagram_only = {"alphagram-trie", "alphagram-dict"}
    assert set(result["formats"]) == set(FORMATS) | {"python-set", "marisa-trie"} | anagram_only
    for name, figures in result["formats"].items():
        assert figures["build_s"]["median"] > 0, name
        queries = ["member", "anagram0", "anagram1", "anagram2"]
        if name not in anagram_only:  # in-memory structures: no file, no spelling order
            assert figures["file_bytes"] > 0 and figures["bytes_per_word"] > 0, name
            assert figures["load_s"]["median"] > 0 and figures["memory"]["peak_mb"] > 0, name
            queries += ["prefix", "hooks"]
        for query in queries:
            timing = figures["query_s"][query]
            assert 0 < timing["min"] <= timing["median"] <= timing["max"], (name, query)
    read = result["formats"]["anatrie"]["query_s"]["read"]
    assert all(read[f"anagram{b}"]["bytes_read"] > 0 for b in (0, 1, 2))
    for name in FORMATS:
        assert result["formats"][name]["nodes"] > 0 and result["formats"][name]["edges"] > 0
    table = format_table(result)
    assert all(name in table for name in result["formats"])
