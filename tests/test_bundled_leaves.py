"""The learned leave values that ship with lexc (``lexc.equity.bundled``): the file is what
its model file compiles to, its values have the signs every engine's have, it serves the
rulesets with English's bag and no other, and the programs play with it by default."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from lexc.equity import bundled
from lexc.equity.bundled import BUNDLED, bundled_leaves, bundled_leaves_path
from lexc.leavemodel import read_model
from lexc.ruleset import available, load_ruleset
from test_cli import run_main

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(bundled.__file__).resolve().parent  # the package's folder, installed or not: the files ship with it


def test_every_bundled_file_ships_with_its_model_and_the_command_that_made_it():
    notes = (HERE / "BUNDLED.md").read_text(encoding="utf-8")
    for ruleset, file in BUNDLED.items():
        assert (HERE / file).is_file()
        model = HERE / file.replace(".klv2", "-model.json")
        assert model.is_file() and read_model(model).model.ruleset.name == ruleset
        assert "lexc learn" in notes and file in notes and model.name in notes


@pytest.mark.parametrize("ruleset", sorted(BUNDLED))
def test_the_bundled_file_is_its_model_compiled(capsys, tmp_path, ruleset):
    """The shipped leave file is exactly what ``lexc learn --resume MODEL --iterations 0``
    writes from the shipped model: no hand-edited values."""
    model = HERE / BUNDLED[ruleset].replace(".klv2", "-model.json")
    out = tmp_path / "again.klv2"
    code, _, err = run_main(capsys, "learn", "--resume", model, "--iterations", "0", "--leaves", out)
    assert code == 0, err
    assert out.read_bytes() == (HERE / BUNDLED[ruleset]).read_bytes()


def test_the_learned_values_have_the_signs_every_engine_has():
    rules = load_ruleset("english")
    table = bundled_leaves(rules)
    assert table is not None and len(table) == 914_624  # every leave of 1 to 6 tiles the bag can give

    def value(leave: str) -> float:
        return table.value(table.leave_of(leave))

    assert value("?") > value("S") > 0 > value("Q")
    assert value("E") > value("V") and value("R") > value("W")
    assert value("QU") > value("Q")
    assert value("ERS") > value("III") and value("AEINST") > value("UUVVW")


def test_the_bundled_file_serves_the_rulesets_with_englishs_bag():
    english = load_ruleset("english")
    assert bundled_leaves_path(english) == HERE / BUNDLED["english"]
    assert bundled_leaves_path(replace(english, name="my-board")) == HERE / BUNDLED["english"]  # another board
    for name in available():
        rules = load_ruleset(name)
        same_bag = (rules.alphabet.labels == english.alphabet.labels and rules.rack_size == english.rack_size
                    and rules.bag_tiles() == english.bag_tiles())
        assert (bundled_leaves_path(rules) is not None) == (same_bag or name in BUNDLED), name
    assert bundled_leaves_path(load_ruleset("wwf")) is None  # WWF's tiles are counted otherwise


def test_the_programs_play_by_equity_with_the_bundled_leaves_by_default(capsys, tmp_path):
    code, out, err = run_main(capsys, "selfplay", "--games", "1", "--seed", "3", "--json", "--workers", "1")
    assert code == 0, err
    assert sorted(json.loads(out)[0]["players"]) == ["equity1", "equity2"]
    code, out, err = run_main(capsys, "selfplay", "--games", "1", "--seed", "3", "--json", "--workers", "1",
                              "--player", "greedy")
    assert code == 0 and sorted(json.loads(out)[0]["players"]) == ["greedy1", "greedy2"]
    code, out, err = run_main(capsys, "match", "equity", "greedy", "--games", "2", "--json", "--workers", "1")
    assert code == 0, err
    assert json.loads(out)["a"] == "equity"


def test_a_ruleset_without_bundled_leaves(capsys):
    tiny = ROOT / "wordlists" / "tiny.txt"
    code, out, err = run_main(capsys, "selfplay", tiny, "-r", "tiny", "--games", "1", "--json", "--workers", "1")
    assert code == 0, err  # (said on a terminal) played by the greedy program
    assert sorted(json.loads(out)[0]["players"]) == ["greedy1", "greedy2"]
    code, out, err = run_main(capsys, "selfplay", tiny, "-r", "tiny", "--player", "equity", "--games", "1")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and "--leaves FILE" in err
    code, out, err = run_main(capsys, "match", "equity", "greedy", tiny, "-r", "tiny", "--games", "2")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and "equity:FILE" in err


def test_lexc_leaves_learn_is_lexc_learn(capsys, tmp_path):
    tiny = ROOT / "wordlists" / "tiny.txt"
    outs = []
    for command in (["leaves", "learn"], ["learn"]):
        model = tmp_path / f"{len(command)}.json"
        code, out, err = run_main(capsys, *command, tiny, "-r", "tiny", "--games", "4", "--iterations", "1",
                                  "--out", model, "--workers", "1")
        assert code == 0, err
        outs.append(model.read_bytes())
    assert outs[0] == outs[1]
    code, out, err = run_main(capsys, "leaves", "learn", "--games", "0")
    assert not out
    assert code == 2 and "lexc learn --help" in err and len(err.strip().splitlines()) == 1


def test_play_asked_for_equity_without_bundled_leaves_is_refused(capsys):
    """``lexc play`` by default falls back to greedy where lexc ships no leaves; an equity
    player asked for by name needs --leaves, as in selfplay."""
    tiny = ROOT / "wordlists" / "tiny.txt"
    code, out, err = run_main(capsys, "play", tiny, "-r", "tiny", "--player", "equity", "--watch", "--seed", "1")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and "--leaves FILE" in err
    code, out, err = run_main(capsys, "play", tiny, "-r", "tiny", "--watch", "--seed", "1", "--json")
    assert code == 0, err
