"""`lexc bench` end to end on a tiny word list and position set: the JSON's shape, every
figure present and positive, the agreement checks, ``--out`` (Markdown, JSON, charts) and the
README update. No timing assertions."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lexc import cli, native
from lexc.bench.moves import bundled_positions
from lexc.bench.queries import KINDS, SEARCH_KINDS, compare_answers
from lexc.bench.report import BEGIN, END, QUERY_CHART, SIZE_CHART, update_readme
from lexc.bench.worker import BASELINES, ORDERS
from lexc.formats import FORMATS
from lexc.movegen import STRATEGIES

TINY = Path(__file__).resolve().parent.parent / "wordlists" / "tiny.txt"
ANAGRAM_ONLY = {"alphagram-trie", "alphagram-dict"}
ONLY_ANAGRAM_KINDS = {"member", "anagram0", "anagram1", "anagram2", "subanagram0", "subanagram1", "subanagram2"}


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        cli.main(list(args))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def positive_summary(figure: dict, what: str) -> None:
    assert 0 < figure["min"] <= figure["median"] <= figure["max"], what


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory):
    """One `lexc bench --full --json --out` run on the tiny list and three positions (the queries
    twice, move generation once)."""
    tmp = tmp_path_factory.mktemp("bench")
    positions = tmp / "positions.jsonl"
    positions.write_text("".join(bundled_positions().read_text(encoding="utf-8").splitlines(True)[:3]),
                         encoding="utf-8")
    out_dir = tmp / "out"
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bench", str(TINY), "--full", "--positions", str(positions), "--repeat", "2", "--movegen-repeat", "1",
                  "--json", "--out", str(out_dir)])
    return exit_.value.code, out_dir


@pytest.mark.slow
def test_json_shape_and_every_figure_positive(bench_run, capsys):
    code, out_dir = bench_run
    assert code == 0
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    assert {"lexc_version", "machine", "wordlist", "words", "repeat", "positions", "formats", "papers"} <= set(result)
    assert result["machine"]["python"] and result["machine"]["cpus"] > 0
    assert result["words"] == 44 and result["repeat"] == 2 and result["positions"]["count"] == 3
    assert result["movegen_repeat"] == 1  # (move generation, and lexc moves itself, once: the runs are slow)
    twins = {f"{name} (pure)" for name in FORMATS if FORMATS[name].compiled and native.available()}
    assert set(result["formats"]) == set(FORMATS) | set(BASELINES) | twins
    for twin in twins:  # the same file on the pure-Python path: same figures from the build, its own from use
        f, main = result["formats"][twin], result["formats"][twin[: -len(" (pure)")]]
        assert f["engine"] == "pure Python" and main["engine"] == "compiled core (C)"
        assert f["file_bytes"] == main["file_bytes"]
        assert set(f["movegen"]) <= {"appel-jacobson", "gordon", "shapiro-smith"}
    for name, f in result["formats"].items():
        for timing in ("build_s", "read_s", "load_s"):
            positive_summary(f[timing], (name, timing))
        assert f["file_bytes"] > 0 and f["bytes_per_word"] > 0, name
        assert f["memory"]["peak_mb"] > 0 and f["build_memory"]["peak_mb"] > 0, name
        kinds = (ONLY_ANAGRAM_KINDS if name in ANAGRAM_ONLY else set(KINDS)
                 if name in BASELINES else set(KINDS) | set(SEARCH_KINDS))  # searches: lexc's own structures
        assert set(f["query_s"]) - {"read"} == kinds, name
        for kind in kinds:
            positive_summary(f["query_s"][kind], (name, kind))
            assert 0 < f["query_s"][kind]["queries"] <= f["query_s"][kind]["of"]
        assert f["baseline"] == (name in BASELINES)
        assert isinstance(f["memory"]["load_added_mb"], float), name
        assert ("load_count_s" in f) == (name not in BASELINES), name  # a lexc structure opened and counted
        if name not in BASELINES:
            positive_summary(f["load_count_s"], (name, "load_count_s"))
    for name in FORMATS:
        f = result["formats"][name]
        assert f["nodes"] > 0 and f["edges"] > 0, name
        expected = {s for s, module in STRATEGIES.items() if module.applicable(_built(name))}
        assert set(f["movegen"]) == expected, name
        for strategy, m in f["movegen"].items():
            positive_summary(m["positions_per_s"], (name, strategy))
            assert m["positions"] == m["of"] == 3 and m["plays"] > 0
            assert all(v > 0 for v in m["ms_per_position"].values())
        assert f["movegen_memory"]["peak_mb"] >= f["search_memory"]["peak_mb"] >= f["memory"]["peak_mb"]
    assert result["formats"]["dawg"]["trie_nodes"] > result["formats"]["dawg"]["nodes"]
    read = result["formats"]["anatrie"]["query_s"]["read"]
    assert all(read[f"subanagram{b}"]["bytes_read"] > 0 for b in (0, 1, 2))


def _built(name: str):
    from lexc.formats import build
    from lexc.lexicons.source import read_list

    return build(read_list(TINY), name)


def test_what_playing_costs(bench_run):
    """Equity ranking beside move generation, and self-play games a second, on the compiled
    GADDAG-DAWG with the bundled leaves (a run with move generation and the core built)."""
    from lexc.bench.report import format_report

    code, out_dir = bench_run
    assert code == 0
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    if not native.available():
        assert "play" not in result
        return
    play = result["play"]
    assert play["file"] == "gaddawg" and Path(play["leaves"]).name == "english.klv2"
    assert play["equity"]["positions"] == 3
    positive_summary(play["equity"]["generate_s"], "generation")
    positive_summary(play["equity"]["equity_s"], "equity")
    overhead = play["equity"]["overhead"]
    assert overhead["min"] <= overhead["median"] <= overhead["max"]
    assert play["selfplay"]["games"] == 20 and play["selfplay"]["rounds"] == 1
    for level in ("equity", "greedy"):
        positive_summary(play["selfplay"][f"{level}_games_per_s"], level)
    report = format_report(result)
    assert "Playing" in report and "two equity players" in report and "beside" in report


def test_every_structure_and_move_generator_agrees(bench_run):
    _, out_dir = bench_run
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    assert result["agree"] == {"queries": True, "moves": True}, result["disagreements"]
    assert result["disagreements"] == []
    report = (out_dir / "bench.md").read_text(encoding="utf-8")
    assert "lexc search: the same questions as searches" in report and "| study index, once |" in report


def test_a_search_must_answer_as_its_query():
    same = {"dawg": {"pattern": ["a", "b"], "search-pattern": ["a", "b"], "hooks": ["h"], "study-row": ["h"]}}
    assert compare_answers(same) == []
    differ = {"dawg": {"pattern": ["a", "b", "c"], "search-pattern": ["a", "x"]}}  # (over the queries both answered)
    assert compare_answers(differ) == ["dawg: search-pattern and pattern differ"]


def test_papers_section(bench_run):
    _, out_dir = bench_run
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    papers = result["papers"]
    assert [p["paper"].split()[0] for p in papers] == ["Shapiro", "Appel", "Gordon", "Gordon", "Norvig"]
    for entry in papers:
        assert entry["published"] and entry["ours"] and entry["why"], entry
        assert "not measured" not in entry["ours"], entry
    orders = papers[0]["orders"]
    assert set(orders) == set(ORDERS)
    for order in orders.values():
        assert order["nodes"] > 0 and order["file_bytes"] > 0
        assert all(order[f"subanagram{b}"]["nodes_read"] > 0 for b in (0, 1, 2))
    from lexc.lexicons.source import read_list

    words = read_list(TINY).texts()
    assert papers[4]["figures"]["prefixes"] == len({w[:i] for w in words for i in range(len(w))})
    assert papers[1]["figures"]["trie_nodes"] == result["formats"]["dawg"]["trie_nodes"]


def test_out_dir_markdown_and_charts(bench_run):
    _, out_dir = bench_run
    markdown = (out_dir / "bench.md").read_text(encoding="utf-8")
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    for name in result["formats"]:
        assert f"| {name}" in markdown
    assert f"]({SIZE_CHART})" in markdown and f"]({QUERY_CHART})" in markdown
    assert "The papers, measured again" in markdown
    for chart in (SIZE_CHART, QUERY_CHART):
        root = ET.fromstring((out_dir / chart).read_text(encoding="utf-8"))
        assert root.tag.endswith("svg") and float(root.get("width")) > 0
        texts = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
        for name in FORMATS:
            assert name in texts, (chart, name)


def test_text_report(tmp_path, capsys):
    code, out, err = run(capsys, "bench", str(TINY), "--formats", "dawg,prefixset", "--repeat", "1",
                         "--no-movegen", "--no-papers")
    assert code == 0, err
    for name in ("dawg", "prefixset", "python-set", "marisa-trie"):
        assert name in out
    assert "gaddag" not in out and "Move generation" not in out
    assert "every structure gave the same answers to every query: yes" in out


def test_a_disagreement_fails_the_run_after_the_report(capsys, monkeypatch):
    """A structure whose answers differ is a bug: the report lists it, and the exit status is 2
    (so make bench and make biglist fail)."""
    import lexc.bench.runner

    monkeypatch.setattr(lexc.bench.runner, "compare_answers", lambda answers: ["dawg: member answers differ"])
    code, out, err = run(capsys, "bench", str(TINY), "--formats", "dawg", "--repeat", "1", "--no-movegen",
                         "--no-papers")
    assert code == 2
    assert "disagreement: dawg: member answers differ" in out
    *progress, error = err.strip().splitlines()
    assert error == "lexc: error: 1 disagreement between the structures (listed above)"
    assert progress and all(line.startswith("lexc bench: [") for line in progress)  # (off a terminal: lines)


def test_progress_lines_off_a_terminal(capsys):
    """Off a terminal (a log, CI) the bench says each step on a line of its own: the steps in
    order, ending at the last, with the structure measured."""
    code, _out, err = run(capsys, "bench", str(TINY), "--formats", "dawg", "--repeat", "1", "--no-movegen",
                         "--no-papers")
    assert code == 0, err
    lines = err.strip().splitlines()
    steps = [int(line.split("[", 1)[1].split("/", 1)[0]) for line in lines]
    total = int(lines[0].split("/", 1)[1].split("]", 1)[0])
    assert all(line.startswith("lexc bench: [") for line in lines)
    twin = 1 if native.available() else 0  # (the dawg's pure-path row, where the core is built)
    assert steps == sorted(steps) and steps[0] == 1 and steps[-1] == total == 2 * 3 + twin  # dawg, 2 baselines
    assert any("dawg" in line for line in lines) and any("marisa-trie" in line for line in lines)


def test_readme_update(bench_run, tmp_path):
    _, out_dir = bench_run
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n{BEGIN}\nold table\n{END}\nafter\n", encoding="utf-8")
    update_readme(readme, out_dir)
    text = readme.read_text(encoding="utf-8")
    assert "old table" not in text and text.startswith("# x\n\nbefore\n") and text.endswith(f"{END}\nafter\n")
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    dawg = next(line for line in text.splitlines() if line.startswith("| dawg |"))
    assert f"| {result['formats']['dawg']['file_bytes']:,} |" in dawg  # the summary is this run's figures
    assert len([line for line in text.splitlines() if line.startswith("| ")]) == 1 + len(result["formats"])
    prefix = Path(__import__("os").path.relpath(out_dir, tmp_path)).as_posix()
    assert f"]({prefix}/bench.md)" in text and f"]({prefix}/README.md)" in text  # the whole report, linked
    assert SIZE_CHART not in text  # the charts stay with the whole report
    readme.write_text("# no markers\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bench-report"):
        update_readme(readme, out_dir)


@pytest.mark.parametrize("args, message", [
    (["--formats", "dawg,nosuch"], "unknown format 'nosuch'"),
    (["--repeat", "0"], "--repeat"),
    (["/no/such/list.txt"], "/no/such/list.txt: no such file"),
])
def test_bad_options(capsys, args, message):
    code, _out, err = run(capsys, "bench", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_bad_positions_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    code, _out, err = run(capsys, "bench", str(TINY), "--positions", str(bad), "--repeat", "1")
    assert code == 2 and "bad.jsonl:1: not JSON" in err and len(err.strip().splitlines()) == 1, err


def test_papers_sentences_follow_the_figures_of_the_run():
    """A ratio that goes the other way than on ENABLE is said so, never ENABLE's explanation."""
    from lexc.bench.papers import appel_jacobson, gordon_speed, shapiro_smith

    def moves(rate, edges=None):
        return {"positions_per_s": {"median": rate}, "compact_positions_per_s": {"median": rate},
                "engine": "compiled core (C)", "search_edges_per_position": edges}

    small = {"formats": {"dawg": {"trie_nodes": 100, "nodes": 50, "edges": 80, "file_bytes": 900}}, "words": 10}
    entry = appel_jacobson(small, ["CAT", "DOG", "ACT"])
    assert "saves less" in entry["why"] and "fewer and shorter words" in entry["why"]
    assert "saves more" not in entry["why"]
    big = {"formats": {"dawg": {"trie_nodes": 900_000, "nodes": 90_000, "edges": 200_000, "file_bytes": 9}}}
    assert "more and longer words share more endings" in appel_jacobson(big, ["ABCDEFGHIJ"] * 100_000)["why"]

    def orders(*rows):
        return {name: {"nodes": nodes, "subanagram2": {"nodes_read": read}} for name, nodes, read in rows}

    why = shapiro_smith({"words": 4}, orders(("1979", 10, 5), ("1979-s-before-l", 9, 6), ("frequency", 11, 7)))["why"]
    assert "S last does not save nodes" in why and "the 1979-s-before-l order shares more" in why
    assert "holds for the same reason" not in why and "descends" not in why and "also reads the fewest" in why
    why = shapiro_smith({"words": 4}, orders(("1979", 10, 8), ("1979-s-before-l", 12, 6), ("frequency", 11, 7)))["why"]
    assert "holds for the same reason" in why and "also the smallest" in why
    assert "a blank reads fewest nodes in the 1979-s-before-l order" in why

    fast = {"formats": {"gaddag": {"file_bytes": 500, "movegen": {"gordon": moves(300, 10),
                                                                   "appel-jacobson": moves(200, 20)}},
                        "dawg": {"file_bytes": 100, "movegen": {"appel-jacobson": moves(100, 20)}},
                        "gaddawg": {"movegen": {"appel-jacobson": moves(110, 20)}}}}
    entry = gordon_speed(fast)
    assert entry["ours"].startswith("3.00x") and "1.50x Appel & Jacobson's speed" in entry["ours"]
    assert "reads 2.00x fewer edges" in entry["why"] and "claim holds" in entry["why"]
    assert "as fast as in the DAWG" in entry["why"] and "slower" not in entry["why"]


def test_the_default_plan_leaves_the_full_only_jobs_to_full():
    """A default run keeps a build and a use of every format (every table of the report) and
    leaves the slow, least telling jobs to --full: the alphagram baselines, naive move
    generation, the pure-path rows but the DAWG's (on its leading positions), lexc moves for
    every strategy, the papers' extra builds; fewer self-play games."""
    from lexc.bench.plan import DEFAULT_BASELINES, TWIN_POSITIONS, plan_jobs

    names = list(FORMATS)
    compiled = [name for name in names if FORMATS[name].compiled]
    core = ("appel-jacobson", "gordon", "shapiro-smith")
    default, full = (plan_jobs(names, full=f, twins=compiled, core_strategies=core, player="gaddawg")
                     for f in (False, True))

    def built(plan):
        return [job["name"] for job in plan if job["job"] == "build"]

    def twins(plan):
        return {job["name"]: job for job in plan if job.get("pure")}

    assert built(default) == names + list(DEFAULT_BASELINES)
    assert built(full) == names + list(BASELINES)
    assert set(BASELINES) - set(DEFAULT_BASELINES)  # (--full adds some)
    assert list(twins(default)) == ["dawg"] and list(twins(full)) == compiled
    assert twins(default)["dawg"]["strategies"] == ["appel-jacobson"]
    assert twins(default)["dawg"]["positions_limit"] == TWIN_POSITIONS
    assert twins(full)["dawg"]["positions_limit"] is None
    assert twins(full)["gaddag"]["strategies"] == list(core)
    uses = [job for job in default if job["job"] == "use" and not job.get("pure") and job["name"] in FORMATS]
    assert len(uses) == len(names)
    assert all("naive" not in job["strategies"] and "gordon" in job["strategies"] for job in uses)
    assert all(job["command"] == "auto" and not job["python_extras"] for job in uses)
    assert all(job["strategies"] is None and job["command"] == "every" and job["python_extras"]  # (None: all)
               for job in full if job["job"] == "use" and not job.get("pure") and job["name"] in FORMATS)
    kinds = [job["job"] for job in full]
    assert {"orders", "short"} <= set(kinds) and not {"orders", "short"} & {job["job"] for job in default}
    assert [job["games"] for job in default if job["job"] == "play"] == [5]
    assert [job["games"] for job in full if job["job"] == "play"] == [20]
    lean = plan_jobs(names, full=True, movegen=False, papers=False, twins=compiled, core_strategies=core)
    assert {job["job"] for job in lean} == {"build", "use"} and not any("strategies" in job for job in lean)


def test_a_default_run_reports_what_full_adds(capsys):
    """A default run says in its footnotes what --full would add and how long it took, and its
    papers say what they leave to --full, without failing on the rows it did not measure."""
    code, out, err = run(capsys, "bench", str(TINY), "--formats", "dawg,gaddag,anatrie", "--no-movegen")
    assert code == 0, err
    assert "a default run; lexc bench --full also measures alphagram-trie, alphagram-dict (baselines)" in out
    assert "the anagram trie in each letter order" in out
    assert "the run took " in out and "alphagram" not in out.split("Size, build and load")[1].split("\n\n")[1]
    assert "not measured by a default run (lexc bench --full builds the anagram trie in each order)" in out
    assert "his method's speed: lexc bench --full" in out  # Norvig's naive


def test_the_cores_strategies_on_one_file_are_timed_in_turns(bench_run):
    _, out_dir = bench_run
    result = json.loads((out_dir / "bench.json").read_text(encoding="utf-8"))
    both = [name for name in ("gaddag", "gaddawg") if result["formats"][name]["engine"] == "compiled core (C)"]
    assert both == (["gaddag", "gaddawg"] if native.available() else [])
    for name in both:  # (Gordon's and A&J's compact passes alternate, round by round)
        for strategy in ("appel-jacobson", "gordon"):
            figures = result["formats"][name]["movegen"][strategy]
            assert figures["compact_interleaved"] is True
            positive_summary(figures["compact_positions_per_s"], (name, strategy))
            assert set(figures["compact_ms_per_position"]) == set(figures["ms_per_position"])
    alone = result["formats"]["dawg"]["movegen"]["appel-jacobson"]  # (one strategy in the core: nothing to alternate)
    assert "compact_interleaved" not in alone
