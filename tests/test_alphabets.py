"""End-to-end tests of the Catalan and Polish rulesets: multi-character tiles (L·L, NY, QU),
Ç and the Polish diacritics through every format (build, save, load, queries) and through
move generation and the referee.

Expected answers are computed here by brute force over the Python word set, tile by tile
(``alphabet.split``), never taken from the code under test; two scores are checked by hand.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from lexc.board.board import Board, parse_cgp
from lexc.board.referee import judge
from lexc.formats import FORMATS, load, save
from lexc.movegen import STRATEGIES, generate, generate_plays
from lexc.movegen.compiled import CORE_SEARCHED, batch_line
from lexc.ruleset import available, load_ruleset
from lexc.wordlist import from_words
from lexicons import backend_of, build_kind, engine_kinds, format_of

CATALAN = load_ruleset("catalan")
POLISH = load_ruleset("polish")
RULESETS = {"catalan": CATALAN, "polish": POLISH}
FORMAT_NAMES = sorted(FORMATS)
KINDS = engine_kinds(FORMAT_NAMES)  # each format, and the pure-path twin of those the compiled core runs

# real words, written the way Catalan Scrabble writes them (no accents; L·L is one tile)
WORDS = {
    "catalan": ["COL·LEGI", "CEL·LA", "CEL·LES", "QUE", "QUATRE", "NYAP", "ANY", "ANYS", "PLAÇA", "CAÇA",
                "BRAÇ", "CASA", "CASES", "GAT", "GATS", "PA", "PAS", "SOL", "LLUNA", "AL", "LA", "ES", "TE",
                "NO", "UN", "AQUEST", "AQUELL", "SAL", "ALA", "ALES"],
    "polish": ["ŻÓŁW", "ŹRÓDŁO", "GĘŚ", "ŁĄKA", "MIĘSO", "KOŃ", "ŚNIEG", "ŻABA", "ŁÓDŹ", "ŹLE", "SĄD", "DOM",
               "DOMY", "KOT", "KOTY", "NA", "ON", "NO", "TO", "DO", "OD", "ŻE", "JA", "TY", "ĆMA", "ZĄB", "RĘKA",
               "SÓL"],
}
# (count, value) per tile as the brief's tables give them
DISTRIBUTION = {
    "catalan": "A 12 1 E 13 1 I 8 1 R 8 1 S 8 1 N 6 1 O 5 1 T 5 1 L 4 1 U 4 1 C 3 2 D 3 2 M 3 2 B 2 3 G 2 3 "
               "P 2 3 F 1 4 V 1 4 H 1 8 J 1 8 QU 1 8 Z 1 8 Ç 1 10 L·L 1 10 NY 1 10 X 1 10",
    "polish": "A 9 1 E 7 1 I 8 1 N 5 1 O 6 1 R 4 1 S 4 1 W 4 1 Z 5 1 C 3 2 D 3 2 K 3 2 L 3 2 M 3 2 P 3 2 "
              "T 3 2 Y 4 2 B 2 3 G 2 3 H 2 3 J 2 3 Ł 2 3 U 2 3 Ą 1 5 Ę 1 5 F 1 5 Ó 1 5 Ś 1 5 Ż 1 5 Ć 1 6 "
              "Ń 1 7 Ź 1 9",
}
RACKS = {  # racks for anagrams: bracketed multi-character tiles, blanks
    "catalan": ["COEGI[L·L]", "co[l·l]egi", "[L·L]ACE?", "[QU]ATRE", "[QU]E?", "A[NY]S", "ÇAAC", "?A", "??",
                "AQUESTL", "LLAUN?"],
    "polish": ["ŻÓŁW", "żółw", "ŹRÓDŁ?", "KOŃ?", "ŁĄKA", "ĘGŚ", "DOMYKT", "?O", "??", "AŻEB"],
}
PATTERNS = {
    "catalan": ["CO?EGI", "*[L·L]*", "CEL·L*", "[QU]*", "*NY*", "??", "*Ç*", "[AE]*S", "[^C]*A", "*"],
    "polish": ["Ż*", "*Ł*", "??", "*[ĄĘ]*", "[^K]O*", "Ź?*", "*Ń", "*"],
}


def tiles(ruleset, word: str) -> list[str]:
    return ruleset.alphabet.split(word.upper())


def fits(word_tiles, rack_tiles, blanks) -> bool:
    missing = Counter(word_tiles) - Counter(rack_tiles)
    return sum(missing.values()) <= blanks


def rack_tiles(ruleset, rack: str) -> tuple[list[str], int]:
    """The tiles of a rack, read by hand: ``[..]`` one tile, ``?`` a blank, else longest match."""
    out, blanks = [], 0
    for bracketed, bare in re.findall(r"\[([^\]]*)\]|([^\[]+)", rack.upper()):
        if bracketed:
            out.append(bracketed)
        else:
            blanks += bare.count("?")
            out += ruleset.alphabet.split(bare.replace("?", "")) if bare.replace("?", "") else []
    return out, blanks


def pattern_regex(ruleset, pattern: str) -> re.Pattern:
    """A regex over words written ``|T|I|L|E|S|`` for a pattern (sets of labels in brackets)."""
    out, pos, text = "\\|", 0, pattern.upper()
    while pos < len(text):
        ch = text[pos]
        if ch == "?":
            out += "[^|]+\\|"
        elif ch == "*":
            out += "(?:[^|]+\\|)*"
        elif ch == "[":
            end = text.index("]", pos)
            inner = text[pos + 1:end]
            labels = ruleset.alphabet.split(inner.lstrip("^"))
            alt = "|".join(re.escape(label) for label in labels)
            out += (f"(?!(?:{alt})\\|)[^|]+\\|" if inner.startswith("^") else f"(?:{alt})\\|")
            pos = end
        else:
            label = max((lb for lb in ruleset.alphabet.labels if text.startswith(lb, pos)), key=len)
            out += re.escape(label) + "\\|"
            pos += len(label) - 1
        pos += 1
    return re.compile(out)


@pytest.fixture(scope="module", params=[(lang, kind) for lang in RULESETS for kind in KINDS],
                ids=lambda p: f"{p[0]}-{p[1]}")
def loaded(request, tmp_path_factory):
    """(language, lexicon) built from the word list, saved and loaded back (on the kind's path)."""
    lang, kind = request.param
    fmt = format_of(kind)
    ruleset = RULESETS[lang]
    lexicon = build_kind(from_words(WORDS[lang], ruleset.alphabet), kind, ruleset=lang)
    path = tmp_path_factory.mktemp("lex") / f"{lang}.{fmt}.lexc"
    assert save(lexicon, path) > 0
    back = load(path, backend=backend_of(kind))
    assert back.name == fmt and back.ruleset == lang and len(back) == len(set(WORDS[lang]))
    return lang, back


def test_rulesets_are_bundled_with_their_distribution():
    assert {"catalan", "polish"} <= set(available())
    for lang, ruleset in RULESETS.items():
        fields = DISTRIBUTION[lang].split()
        expected = {fields[i]: (int(fields[i + 1]), int(fields[i + 2])) for i in range(0, len(fields), 3)}
        assert {t.label: (t.count, t.value) for t in ruleset.tiles} == expected
        assert ruleset.blanks == 2 and ruleset.tile_total == 100
        assert ruleset.rack_size == 7 and ruleset.bingo_bonus == 50
        assert ruleset.board_rows == load_ruleset("english").board_rows
    assert len(POLISH.alphabet) == 32 and len(CATALAN.alphabet) == 26


def test_tile_counts_of_words():
    enc = CATALAN.alphabet.encode
    assert len(enc("COL·LEGI")) == 6 and len(enc("col·legi")) == 6
    assert tiles(CATALAN, "COL·LEGI") == ["C", "O", "L·L", "E", "G", "I"]
    assert tiles(CATALAN, "QUE") == ["QU", "E"] and tiles(CATALAN, "NYAP") == ["NY", "A", "P"]
    assert tiles(CATALAN, "LLUNA") == ["L", "L", "U", "N", "A"]  # LL without the dot: two tiles
    assert CATALAN.alphabet.parse_rack("[L·L]?[QU]") == ([enc("L·L")[0], enc("QU")[0]], 1)
    assert len(POLISH.alphabet.encode("źródło")) == 6
    assert POLISH.alphabet.decode(POLISH.alphabet.encode("żółw")) == "ŻÓŁW"


def test_membership(loaded):
    lang, lex = loaded
    ruleset, words = RULESETS[lang], set(WORDS[lang])
    for word in words:
        assert word in lex and word.lower() in lex
    misses = {"COLLEGI", "COL.LEGI", "CELLA", "Q", "KON", "ZOLW", "ZRODLO", "COL", "XYZ"}
    for word in words:
        t = tiles(ruleset, word)
        misses |= {"".join(t[:-1]), "".join(t[1:] + t[:1]), word + "A", "".join(t[::-1])}
    for miss in misses - words:
        assert miss not in lex, miss


def test_anagrams_match_brute_force(loaded):
    lang, lex = loaded
    ruleset = RULESETS[lang]
    racks = RACKS[lang] + [ruleset.alphabet.rack_text(list(ruleset.alphabet.encode(w))) for w in WORDS[lang]]
    for rack in racks:
        letters, blanks = rack_tiles(ruleset, rack)
        for sub in (False, True):
            expected = {w for w in WORDS[lang] if fits(tiles(ruleset, w), letters, blanks)
                        and (sub or len(tiles(ruleset, w)) == len(letters) + blanks)}
            got = lex.anagrams(rack, sub=sub)
            assert len(got) == len(set(got)), (rack, got)
            assert {w.upper() for w in got} == expected, (rack, sub)
            for w in got:  # a blank stands in only where the natural tile has run out
                word_tiles, pos, blank_made = tiles(ruleset, w), 0, 0
                for label in word_tiles:
                    blank_made += w[pos:pos + len(label)] != label
                    pos += len(label)
                assert blank_made == sum((Counter(word_tiles) - Counter(letters)).values()), (rack, w)


def test_patterns_and_hooks_match_brute_force(loaded):
    lang, lex = loaded
    ruleset, words = RULESETS[lang], WORDS[lang]
    spelled = {w: "|" + "|".join(tiles(ruleset, w)) + "|" for w in words}
    for pattern in PATTERNS[lang]:
        regex = pattern_regex(ruleset, pattern)
        expected = {w for w in words if regex.fullmatch(spelled[w])}
        got = lex.pattern(pattern)
        assert set(got) == expected and len(got) == len(expected), pattern
    labels = ruleset.alphabet.labels
    stems = set(words) | {"".join(tiles(ruleset, w)[1:]) for w in words} | {"".join(tiles(ruleset, w)[:-1])
                                                                          for w in words}
    for stem in sorted(s for s in stems if s):
        hooks = lex.hooks(stem)
        assert hooks.valid == (stem in words)
        assert hooks.front == tuple(lb for lb in labels if lb + stem in words), stem
        assert hooks.back == tuple(lb for lb in labels if stem + lb in words), stem


# --- move generation and the referee ----------------------------------------------------

BOARDS = {  # one word placed across row 8 (CGP, multi-character tiles in brackets)
    "catalan": "/".join(["15"] * 7 + ["6CO[L·L]EGI3"] + ["15"] * 7),
    "polish": "/".join(["15"] * 7 + ["7ŻÓŁW4"] + ["15"] * 7),
}
MOVE_RACKS = {
    "catalan": ["COEGI[L·L]", "[L·L]CEAS?", "[QU]ATRE", "A[NY]SP?"],
    "polish": ["ŹRÓDŁO", "KOTYŃ?", "ŁĄKADO", "ŚNIEGĘ", "DOMYKT?"],
}


@pytest.fixture(scope="module", params=list(RULESETS))
def lexicons(request):
    lang = request.param
    ruleset = RULESETS[lang]
    wordlist = from_words(WORDS[lang], ruleset.alphabet)
    return lang, {kind: build_kind(wordlist, kind, ruleset=lang) for kind in KINDS}


@pytest.mark.parametrize("where", ["empty", "one word"])
def test_every_strategy_agrees_and_the_referee_accepts(lexicons, where):
    lang, by_format = lexicons
    ruleset = RULESETS[lang]
    board = Board.empty(ruleset) if where == "empty" else parse_cgp(BOARDS[lang], ruleset).board
    combos = [(f, s) for f, lex in by_format.items() for s, mod in STRATEGIES.items() if mod.applicable(lex)
              and (not f.endswith(":pure") or s in CORE_SEARCHED)]  # a pure twin: the compiled strategies
    assert {s for _, s in combos} == set(STRATEGIES)
    for rack in MOVE_RACKS[lang]:
        results = {}
        for fmt, strategy in combos:
            moves = generate(board, rack, by_format[fmt], strategy)
            results[fmt, strategy] = {(m.notation, m.score) for m in moves}
            assert len(results[fmt, strategy]) == len(moves), (fmt, strategy, rack)
        first = results[combos[0]]
        assert first, (rack, where)
        for combo, found in results.items():
            assert found == first, (combo, rack, sorted(found ^ first)[:5])
        for notation, score in first:
            ruling = judge(board, rack, notation, by_format["dawg"])
            assert ruling.legal and ruling.score == score, (rack, notation, score, ruling)


def test_ranked_plays_and_their_json_line_agree_on_every_path(lexicons):
    """Plays ranked and written as ``lexc moves --batch`` prints them (in the compiled core,
    with its own JSON escaping of letters beyond ASCII) are the pure path's, play for play."""
    lang, by_format = lexicons
    board = parse_cgp(BOARDS[lang], RULESETS[lang]).board
    for rack in MOVE_RACKS[lang]:
        reference = by_format.get("dawg:pure", by_format["dawg"])  # (without the core, the DAWG is the pure path's)
        want = [(m.notation, m.score) for m in generate(board, rack, reference, "appel-jacobson")]
        assert want, rack
        for fmt in ("dawg", "gaddawg"):
            plays = generate_plays(board, rack, by_format[fmt], "appel-jacobson")
            for top in (None, 0, 3):
                kept = want if top is None else want[:top]
                assert plays.pairs(top) == kept, (fmt, rack, top)
                assert plays.batch_json(top) == json.dumps(batch_line(kept)), (fmt, rack, top)


def test_hand_checked_scores(lexicons):
    lang, by_format = lexicons
    empty = Board.empty(RULESETS[lang])
    if lang == "catalan":
        # 8H: C(H8, start, DW) 2 + O 1 + L·L 10 + E 1 + G on L8 (DL) 3x2=6 + I 1 = 21, x2 = 42
        rack, notation, score = "COEGI[L·L]", "8H CO[L·L]EGI", 42
    else:
        # 8H: Ź(H8, start, DW) 9 + R 1 + Ó 5 + D 2 + Ł on L8 (DL) 3x2=6 + O 1 = 24, x2 = 48
        rack, notation, score = "ŹRÓDŁO", "8H ŹRÓDŁO", 48
    for fmt, lex in by_format.items():
        assert (notation, score) in {(m.notation, m.score) for m in generate(empty, rack, lex)}, fmt
    ruling = judge(empty, rack, notation, by_format["dawg"])
    assert ruling.legal and ruling.score == score and ruling.tiles_played == 6 and ruling.leave == ""
