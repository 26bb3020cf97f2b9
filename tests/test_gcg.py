"""GCG game records: the reader and the replay through the referee.

The real games are copies of /work/shared/games (tests/games, with its README). The expected
values come from that README (final scores, event counts, features, the documented anomalies
and each negative file's defect), not from lexc. The small games below are scored by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lexc.game.gcg import GCGError, parse_gcg, read_gcg
from lexc.game.replay import replay
from lexc.ruleset import Ruleset, load_ruleset
from lexicons import enable_built

GAMES = Path(__file__).resolve().parent / "games"


def readme_rows() -> dict[str, dict]:
    """The README's table of complete games: file -> turns, events, final scores, features, notes."""
    rows = {}
    for line in (GAMES / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0].startswith("`") and cells[4].isdigit():
            m = re.fullmatch(r".* (-?\d+) \u2013 .* (-?\d+)", cells[6])  # (\u2013: an en dash)
            rows[cells[0].strip("`")] = {"turns": int(cells[4]), "events": int(cells[5]),
                                         "final": (int(m.group(1)), int(m.group(2))),
                                         "features": cells[7].split(), "notes": cells[8]}
    return rows


ROWS = readme_rows()
FILES = sorted(p.name for p in GAMES.glob("*.gcg"))

# The anomalies the README documents: (what the report says, text of the event's line).
ANOMALIES = {
    "liwords__r20_peter.gcg": [("misscored", "BRUnCH..Y"), ("misscored", "--  -115")],
    "quackle__capp.gcg": [("written +0", " -- +0")],
    "liwords__many_challenges.gcg": [("+10", "(challenge) +10")],
}


@pytest.fixture(scope="module")
def enable(enable_list):
    return enable_built(enable_list, "dawg")


def line_of(path: Path, text: str) -> int:
    """The number of the first line of a file containing ``text``."""
    lines = path.read_bytes().decode("utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_the_readme_lists_every_game():
    assert len(FILES) == 80
    assert set(FILES) == set(ROWS)


@pytest.mark.parametrize("name", FILES)
def test_game_replays(name, enable):
    row, path = ROWS[name], GAMES / name
    report = replay(path, enable)
    assert report.ok, report.lines()
    assert report.final_recorded == row["final"]
    assert report.final_computed == row["final"]
    # the documented anomalies, each recognised and reported on its line; none elsewhere
    expected = sorted((line_of(path, text), word) for word, text in ANOMALIES.get(name, []))
    found = sorted((e.line, e.anomaly) for e in report.events if e.anomaly)
    assert [line for line, _ in found] == [line for line, _ in expected], report.anomalies
    assert all(word in anomaly for (_, word), (_, anomaly) in zip(expected, found, strict=True))
    assert not any(e.mismatch or e.error for e in report.events)


@pytest.mark.parametrize("name", FILES)
def test_game_events_match_the_readme(name):
    row, data = ROWS[name], (GAMES / name).read_bytes()
    game = read_gcg(GAMES / name)
    kinds = [e.kind for e in game.events]
    assert len(kinds) == row["events"]
    assert sum(k in ("play", "exchange", "pass") for k in kinds) == row["turns"]
    features = dict(re.fullmatch(r"([A-Z]+?)(\d*)", f).groups() for f in row["features"])
    for code, kind in (("EX", "exchange"), ("PA", "pass"), ("PH", "phony-returned"), ("CB", "challenge-bonus")):
        assert kinds.count(kind) == int(features.get(code) or 0), code
    assert ("end-rack-points" in kinds) == ("ER" in features)
    assert ("time-penalty" in kinds) == ("TP" in features)
    assert (game.pragma("lexicon") is not None) == ("LX" in features)
    assert (b"\r\n" in data) == ("CRLF" in features)
    assert bool(game.notes or any(e.note for e in game.events)) == ("NT" in features)
    if "EP" in features:
        assert "end-rack-penalty" in kinds


@pytest.mark.parametrize("name", FILES)
def test_end_of_game_convention(name):
    row = ROWS[name]
    expected = (("add-and-subtract" if "WESPA-style" in row["notes"] else "doubling") if "ER" in row["features"]
                else None)
    assert replay(GAMES / name).end_rule == expected


def _bump(text: str, n: int) -> str:
    """The game with line n's score one higher, and that player's totals from there on too."""
    lines, nick = text.split("\n"), None
    for i in range(n - 1, len(lines)):
        if lines[i].startswith(">") and (nick is None or lines[i].startswith(nick)):
            nick = nick or lines[i].split(":")[0] + ":"
            toks = lines[i].split()
            k = next(k for k in range(len(toks) - 1) if re.fullmatch(r"[+-]\d+", toks[k])
                     and re.fullmatch(r"-?\d+", toks[k + 1]))
            if i == n - 1:
                toks[k] = f"{int(toks[k]) + 1:+d}"
            toks[k + 1] = str(int(toks[k + 1]) + 1)
            lines[i] = " ".join(toks)
    return "\n".join(lines)


@pytest.mark.parametrize("name", FILES)
def test_a_wrong_score_is_a_mismatch(name):
    """Raise one play's score (and the player's totals after it): the replay must say so."""
    text = (GAMES / name).read_bytes().decode("utf-8").replace("\r\n", "\n")
    lines = text.split("\n")
    plays = [n for n, line in enumerate(lines, 1) if re.match(r">[^:]+:\s*\S+\s+\S*\d\S*\s+\S+\s+\+\d+\s", line)
             and not any(" -- " in later for later in lines[n:n + 2])]
    plays = plays or [n for n, line in enumerate(lines, 1) if re.match(r">[^:]+:\s*\S+\s+-[A-Z]+\s", line)]  # exchanges
    n = plays[len(plays) // 2]
    report = replay(_bump(text, n))
    assert not report.ok
    assert [e.line for e in report.events if e.mismatch] == [n]
    assert report.final_recorded != report.final_computed


def test_words_the_lexicon_lacks_are_reported_not_fatal(enable, enable_set):
    report = replay(GAMES / "liwords__all_triple_words_covered.gcg", enable)
    assert report.ok
    for word in ("FYKING", "LOWT", "UNSOD"):  # CSW-only words, per the README
        assert word not in enable_set
        assert word in report.unknown_words
    assert all(w not in enable_set for w in report.unknown_words)


# -- the negative files: each rejected, or flagged on the defective line ------------------

NEGATIVE = {  # file: (text of the defective line, what the reason must say)
    "MAGPIE__standard_cumulative_scoring_error.gcg": ("TANNERS +77 103", "total 103"),
    "MAGPIE__end_rack_points_incorrect.gcg": ("(RELATCH) +14", "computed +24"),
    "MAGPIE__last_rack_penalty_incorrect.gcg": ("-18 -18", "computed -16"),
    "MAGPIE__six_pass_cumulative_scoring_error.gcg": ("-16 -17", "total -17"),
    "MAGPIE__played_tile_not_in_rack.gcg": ("UNITERS", "not on the rack"),
    "MAGPIE__first_rack_not_in_bag.gcg": ("AAENZZZ", "not in the bag"),
    "MAGPIE__midgame_rack_not_in_bag.gcg": ("HMOYZZZ", "not in the bag"),
    "MAGPIE__phony_tiles_returned_mismatch.gcg": ("ADGKOOV --", "returned rack"),
    "MAGPIE__phony_tiles_returned_with_no_play.gcg": ("ACEHLRT - +0", "not a play"),
    "MAGPIE__game_event_off_turn.gcg": ("HastyBot: AENNRST", "off turn"),
    "MAGPIE__move_event_after_game_end.gcg": ("I F2 .I", "after the game ended"),
    "MAGPIE__end_game_event_before_game_end.gcg": ("(time) -20 111", "time penalty comes only at the end"),
    "MAGPIE__exchange_not_in_rack.gcg": ("-KOIII", "not all on the rack"),
    "MAGPIE__exchange_malformed.gcg": ("-K.OI", "malformed exchange"),
    "MAGPIE__play_out_of_bounds.gcg": ("H9 .PILATES", "H9 is empty"),
    "MAGPIE__invalid_tile_placement.gcg": ("M70", "off the board"),
    "MAGPIE__malformed_play.gcg": ("D.CR2IaLS", "'2' is not a letter"),
    "MAGPIE__malformed_rack.gcg": ("KLMO8RTV", "malformed rack"),
    "MAGPIE__player_does_not_exist.gcg": (">Jack:", "no player has the nickname 'Jack'"),
    "MAGPIE__duplicate_nicknames.gcg": ("#player2 Tim", "both players have the nickname"),
    "MAGPIE__encoding_wrong_place.gcg": ("#character-encoding", "must be the first line"),
    "MAGPIE__no_matching_token.gcg": ("ADEIINR DAIN.IER", "cannot read"),
    "scorable__near-end-game.gcg": ("DOFAJEE C11 DOF", "total 161"),
    # made for lexc from a game above, one defect each (the file's first #note says which): the bag
    "lexc__exchange_with_a_short_bag.gcg": ("?AABEOS -AA", "no exchange with 3 tiles in the bag"),
    "lexc__pass_after_six_scoreless_turns.gcg": ("?AEEOTT - +0", "pass after the game ended: 6 scoreless turns"),
    "lexc__going_out_with_tiles_in_the_bag.gcg": ("(?AABEOS) +16", "the bag still holds 3 tiles"),
    "lexc__end_rack_not_in_the_set.gcg": ("(OSZ) +24", "hold Z more than the set has"),
    "lexc__end_rack_short.gcg": ("(O) +2", "holds every tile not on the board, S too"),
}


def first_problem(path: Path, lexicon) -> tuple[int, str]:
    """(line, reason) of the first problem: a GCGError, or the report's first flagged event."""
    try:
        report = replay(path, lexicon)
    except GCGError as exc:
        line, reason = re.fullmatch(r"line (\d+): (.*)", str(exc)).groups()
        return int(line), reason
    assert not report.ok
    e = next(e for e in report.events if e.mismatch or e.error)
    return e.line, e.error or e.note


def test_every_negative_file_is_covered():
    assert sorted(p.name for p in (GAMES / "negative").glob("*.gcg")) == sorted(NEGATIVE)


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_negative_file_is_rejected_or_flagged(name, enable):
    path = GAMES / "negative" / name
    defect, says = NEGATIVE[name]
    line, reason = first_problem(path, enable)
    assert says in reason
    where = line_of(path, defect)
    assert line == where or f"line {where}" in reason, (line, reason)


def test_near_end_game_flags_both_missing_challenge_bonuses(enable):
    report = replay(GAMES / "negative" / "scorable__near-end-game.gcg", enable)
    assert [e.line for e in report.events if e.mismatch] == [12, 24]  # per the README


@pytest.mark.parametrize("path",
                         sorted((GAMES / "nonstandard").glob("*.gcg")) + sorted((GAMES / "incomplete").glob("*.gcg")),
                         ids=lambda p: p.name)
def test_nonstandard_and_incomplete_games_are_read_or_rejected_cleanly(path, enable):
    try:
        report = replay(path, enable)
    except GCGError as exc:
        assert re.match(r"line \d+: ", str(exc))
        return
    json.dumps(report.as_dict())
    if path.parent.name == "incomplete":
        assert report.ok and not any(e.kind.startswith("end-rack") for e in report.events)


def test_cresta_yorra_is_rejected_at_its_broken_last_line():
    path = GAMES / "nonstandard" / "scorable__cresta-yorra-2006.gcg"
    line = line_of(path, '>Cresta"')
    with pytest.raises(GCGError, match=f"^line {line}: "):
        replay(path)


def test_six_exchange_lacks_a_rack_penalty():
    report = replay(GAMES / "nonstandard" / "MAGPIE__six_exchange.gcg")
    assert not report.ok and "only Josh's rack penalty" in report.errors[0]


# -- small games scored by hand -------------------------------------------------------------
# 8G CAT: C3 A1 T1, the centre doubles: 10. H7 B.D: B3 A1 D2: 6. 8G ...S (CATS): 6.
# H7 B.X (BAX, a phony): B3 A1 X8 = 12.

HEAD = "#player1 Al Alice Smith\n#player2 Bo Bo Jones\n"
OPENING = ">Al: ACT 8G CAT +10 10\n>Bo: BDEIQ H7 B.D +6 6\n>Al: S 8G ...S +6 16\n"
# The same three plays in a set of eight tiles, racks of four: Al is dealt ACST, Bo BDEQ, the
# bag is empty, so Al goes out with CATS and Bo is left with EQ (E1 Q10: 11).
OUT = ">Al: ACST 8G CAT +10 10\n>Bo: BDEQ H7 B.D +6 6\n>Al: S 8G ...S +6 16\n"


def english_variant(directory: Path, counts: dict[str, int], rack_size: int = 7) -> Ruleset:
    """The English ruleset (board, values) with only the given tiles, loaded from a file."""
    path = Path(__file__).resolve().parents[1] / "src" / "lexc" / "rulesets" / "english.toml"
    text = path.read_text(encoding="utf-8")

    def count(m: re.Match) -> str:
        label = m.group(1).strip('"')
        return f"{m.group(1)} = [{counts.get(label, 0)}, {m.group(2)}]"

    text = re.sub(r'^("?[A-Z?]"?) = \[\d+, (\d+)\]', count, text, flags=re.M)
    text = re.sub(r"tile_total = \d+", f"tile_total = {sum(counts.values())}", text)
    text = re.sub(r"rack_size = \d+", f"rack_size = {rack_size}", text)
    path = directory / f"english-{''.join(f'{k}{n}' for k, n in sorted(counts.items()))}-{rack_size}.toml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(str(path))


@pytest.fixture(scope="module")
def eight(tmp_path_factory):
    return english_variant(tmp_path_factory.mktemp("rulesets"), dict.fromkeys("ABCDEQST", 1), rack_size=4)


def test_doubling_ending(enable, eight):
    report = replay(HEAD + OUT + ">Al: (EQ) +22 38\n", enable, eight)
    assert report.ok and report.end_rule == "doubling", report.lines()
    assert report.final_computed == (38, 6)
    assert (report.end, report.end_line) == ("out", 5) and [e.bag for e in report.events] == [0, 0, 0, 0]


def test_add_and_subtract_ending(enable, eight):
    report = replay(HEAD + OUT + ">Al: (EQ) +11 27\n>Bo: EQ (EQ) -11 -5\n", enable, eight)
    assert report.ok and report.end_rule == "add-and-subtract", report.lines()
    assert report.final_computed == (27, -5)


def test_wrong_end_rack_points_are_a_mismatch(enable, eight):
    report = replay(HEAD + OUT + ">Al: (EQ) +11 27\n", enable, eight)  # no -11 for Bo: doubling, 22
    assert not report.ok and [e.line for e in report.events if e.mismatch] == [6]
    assert not report.errors


def test_challenge_bonus_and_time_penalty(enable, eight):
    text = HEAD + OUT.replace("+6 6\n", "+6 6\n>Bo: EQ (challenge) +5 11\n") + ">Al: (EQ) +22 38\n>Bo: (time) -10 1\n"
    report = replay(text, enable, eight)
    assert report.ok, report.lines()
    assert [e.kind for e in report.events][-3:] == ["play", "end-rack-points", "time-penalty"]
    assert report.final_computed == (38, 1)


def test_going_out_in_the_english_set_needs_an_empty_bag(enable):
    """The opening in the full set: the bag still holds 100 - 6 on the board - 14 on the racks."""
    report = replay(HEAD + OPENING + ">Al: (EIQ) +24 40\n", enable)
    assert report.errors == ["line 6: end-rack points, but Al has not gone out: the bag still holds 80 tiles"]
    assert report.events[-1].bag == 80 and report.end is None


def test_withdrawn_phony_is_scored_reported_and_taken_off(enable):
    text = HEAD + ">Al: ACT 8G CAT +10 10\n>Bo: BDX H7 B.X +12 12\n>Bo: BDX -- -12 0\n>Al: BD H7 B.D +6 16\n"
    report = replay(text, enable)
    assert report.ok, report.lines()
    assert report.events[1].unknown_words == ("BAX",) and report.events[1].computed == 12
    assert report.board.picture().splitlines()[8][7] == "D"  # the board had room for B.D again


def test_six_scoreless_turns_then_rack_penalties(enable):
    text = HEAD + (">Al: ACT 8G CAT +10 10\n>Bo: QZ - +0 0\n>Al: EIR - +0 10\n>Bo: AQZ -A +0 0\n"
                   ">Al: EIR - +0 10\n>Bo: QZ - +0 0\n>Al: EIR - +0 10\n"
                   ">Al: EIR (EIR) -3 7\n>Bo: QZ (QZ) -20 -20\n")
    report = replay(text, enable)
    assert report.ok, report.lines()
    assert report.final_computed == (7, -20)
    short = replay(text.replace(">Al: EIR - +0 10\n>Al: EIR (EIR)", ">Al: EIR (EIR)"))  # five scoreless turns
    assert any("six scoreless turns" in err for err in short.errors)


def test_a_deliberately_wrong_score_and_total(enable):
    report = replay(HEAD + OPENING.replace("+10 10", "+12 12").replace("+6 16", "+6 18"), enable)
    assert not report.ok
    assert [(e.line, e.recorded, e.computed) for e in report.events if e.mismatch] == [(3, 12, 10)]
    assert report.final_recorded == (18, 6) and report.final_computed == (16, 6)
    typo = replay(HEAD + OPENING.replace("+6 16", "+6 17"), enable)  # one total mistyped
    assert [e.line for e in typo.events if e.mismatch] == [5] and "total 17" in typo.events[2].note


def test_crlf_notes_and_pragmas():
    text = ("#character-encoding UTF-8\r\n#title A test\r\n#lexicon NWL20\r\n#frobnicate yes\r\n"
            + HEAD.replace("\n", "\r\n")
            + "#note before\r\n>Al: ACT 8G CAT +10 10\r\n#note a note\r\nthat goes on\r\n\r\n"
            + ">Bo: BDEIQ H7 B.D +6 6\r\n")
    game = read_gcg(text.encode("utf-8"))
    assert game.players == [("Al", "Alice Smith"), ("Bo", "Bo Jones")]
    assert game.pragma("title") == "A test" and game.pragma("lexicon") == "NWL20" and game.pragma("frobnicate") == "yes"
    assert game.notes == "before" and game.events[0].note == "a note\nthat goes on"
    assert replay(game).ok


def test_latin1_without_an_encoding_line():
    data = "#player1 José José Pérez\n#player2 Bo Bo\n>José: ACT 8G CAT +10 10\n".encode("latin-1")
    game = read_gcg(data)
    assert game.encoding == "latin-1" and game.players[0] == ("José", "José Pérez")
    assert replay(game).ok
    declared = read_gcg(b"#character-encoding ISO-8859-1\n" + data)
    assert declared.players[0][0] == "José"
    utf8 = read_gcg(data.decode("latin-1").encode("utf-8"))
    assert utf8.encoding == "utf-8" and utf8.players[0][0] == "José"
    with pytest.raises(GCGError, match=r"^line 2: not valid UTF-8"):
        read_gcg(b"#character-encoding UTF-8\n" + data)
    with pytest.raises(GCGError, match=r"^line 1: unsupported"):
        read_gcg(b"#character-encoding KOI8-R\n" + data)


def test_read_from_a_path(tmp_path):
    path = tmp_path / "g.gcg"
    path.write_bytes((HEAD + OPENING).encode())
    assert len(read_gcg(path).events) == len(read_gcg(str(path)).events) == 3


@pytest.mark.parametrize("line, says", [
    (">Al: ACT 8G CAT +10", "no '+SCORE TOTAL'"),
    (">Al: ACT CAT +10 10", "cannot read"),
    (">Al: AC1T 8G CAT +10 10", "malformed rack"),
    (">Zed: ACT 8G CAT +10 10", "no player has the nickname 'Zed'"),
    ("Al: ACT 8G CAT +10 10", "not a pragma"),
    ("#player1 Cy Cy", "player 1 is declared twice"),
])
def test_malformed_lines_name_their_line(line, says):
    with pytest.raises(GCGError, match=f"^line 3: .*{re.escape(says)}"):
        parse_gcg(HEAD + line + "\n")
    assert issubclass(GCGError, ValueError)


def test_report_output(enable):
    report = replay(HEAD + OPENING.replace("+6 16", "+7 17"), enable)
    text = "\n".join(report.lines())
    assert "line   5" in text and "recorded +7, computed +6" in text
    # one mismatched move; the final scores that follow from it are reported apart (issue 35)
    assert "1 mismatch in the moves" in text and "16 - 6 computed (they differ)" in text
    data = json.loads(json.dumps(report.as_dict()))
    assert data["ok"] is False and data["final_recorded"] == [17, 6] and data["final_computed"] == [16, 6]
    assert data["events"][1]["player"] == "Bo"


def test_a_zero_point_rack_penalty_is_a_penalty():
    """A rack of blanks only costs -0: the sign is in the text, not the number."""
    game = parse_gcg("#player1 a a\n#player2 b b\n>a: ?? (??) -0 -0\n")
    assert game.events[0].kind == "end-rack-penalty"
