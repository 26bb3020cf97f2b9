"""lexc.lexicons.diff and lexc.lexicons.stats against brute force over Python sets and Counters."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexc.formats import FORMATS, Capability, build
from lexc.lexicons.diff import AlphabetMismatchError, LexiconDiff, LexiconDiffError, diff_lexicons
from lexc.lexicons.source import bundled_wordlist, read_list
from lexc.lexicons.stats import LexiconStatsError, format_stats, lexicon_stats
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

FORMAT_NAMES = sorted(FORMATS)

WORDS_A = ["CAR", "CARE", "CARES", "CARS", "CAT", "CATS", "SCAR", "ACE", "A", "AA", "ZYZZYVA", "TRACE", "REACT"]
WORDS_B = ["CAR", "CARE", "CARET", "CAT", "BAT", "SCARE", "ACE", "ACES", "AB", "ZZZ", "TRACE", "CRATE", "B"]
SPANISH_A = ["CASA", "CHICO", "CHURRO", "COSA", "CUCHARA", "LUZ", "LLAMA", "LLUVIA", "PERRO", "PERA", "ÑU",
             "AÑO", "CZAR", "CH", "RR", "ARROZ"]
SPANISH_B = ["CASA", "CHICA", "CHURRO", "CUCHARA", "CURRO", "LUZ", "LLAVE", "PERRO", "ÑANDU", "NUEZ", "AÑO",
             "CE", "CHE", "ARROZ", "ZORRO"]


def ruleset(name: str):
    return load_ruleset(name)


def lexicon(words, fmt: str = "dawg", rules: str = "english"):
    """A lexicon of ``words`` (any case) built in ``fmt`` with a ruleset's alphabet."""
    return build(from_words(words, ruleset(rules).alphabet, min_len=1), fmt, rules)


def code_sorted(words, rules: str = "english") -> list[str]:
    """Brute force: the distinct words, upper case, in code order."""
    alphabet = ruleset(rules).alphabet
    return sorted({alphabet.decode(alphabet.encode(w)) for w in words}, key=alphabet.encode)


def expected(words_a, words_b, rules: str = "english") -> dict:
    """Brute force over Python sets."""
    alphabet = ruleset(rules).alphabet
    a = {alphabet.decode(alphabet.encode(w)) for w in words_a}
    b = {alphabet.decode(alphabet.encode(w)) for w in words_b}
    return {"only_a": code_sorted(a - b, rules), "only_b": code_sorted(b - a, rules),
            "count_a": len(a), "count_b": len(b), "common": len(a & b)}


def as_expected(diff: LexiconDiff) -> dict:
    return {"only_a": diff.only_a, "only_b": diff.only_b, "count_a": diff.count_a, "count_b": diff.count_b,
            "common": diff.common}


# -- diff: every format ----------------------------------------------------------------------------

def test_the_registry_has_a_non_trie_format():
    """The sort path is exercised: anatrie (an anagram trie) is registered and has no trie."""
    assert "anatrie" in FORMATS
    assert Capability.TRIE not in FORMATS["anatrie"].capabilities


@pytest.mark.parametrize("fmt_b", FORMAT_NAMES)
@pytest.mark.parametrize("fmt_a", FORMAT_NAMES)
def test_diff_every_format_pair_equals_set_arithmetic(fmt_a, fmt_b):
    diff = diff_lexicons(lexicon(WORDS_A, fmt_a), lexicon(WORDS_B, fmt_b))
    assert as_expected(diff) == expected(WORDS_A, WORDS_B)
    assert diff.only_a_count == len(diff.only_a) and diff.only_b_count == len(diff.only_b)
    assert not diff.identical and not diff.truncated


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_identical_lexicons_have_an_empty_diff(fmt):
    diff = diff_lexicons(lexicon(WORDS_A, fmt), lexicon(WORDS_A, "dawg"))
    n = len(set(WORDS_A))
    assert (diff.only_a, diff.only_b, diff.count_a, diff.count_b, diff.common) == ([], [], n, n, n)
    assert diff.identical and not diff.truncated


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_plain_list_against_a_compiled_lexicon(fmt):
    # any case, surrounding space, duplicates and blank entries: normalized like a word list
    plain = [w.lower() for w in WORDS_B] + ["  Cat ", "car", "", "   "]
    compiled = lexicon(WORDS_A, fmt)
    assert as_expected(diff_lexicons(plain, compiled)) == expected(WORDS_B, WORDS_A)
    assert as_expected(diff_lexicons(compiled, plain)) == expected(WORDS_A, WORDS_B)


def test_wordlist_and_protocol_objects():
    """A WordList, and a minimal object with an alphabet that only iterates text."""
    alphabet = ruleset("english").alphabet

    class TextOnly:
        def __init__(self, words):
            self.alphabet = alphabet
            self.words = words

        def __iter__(self):
            return iter(reversed(self.words))  # not in code order: it gets sorted

        def __len__(self):
            return len(self.words)

    wordlist = from_words(WORDS_A, alphabet, min_len=1)
    assert as_expected(diff_lexicons(wordlist, TextOnly(WORDS_B))) == expected(WORDS_A, WORDS_B)
    assert as_expected(diff_lexicons(TextOnly(WORDS_B), wordlist)) == expected(WORDS_B, WORDS_A)


def test_two_plain_lists():
    """With an alphabet given, code order; with none anywhere, compared as upper-case text."""
    assert as_expected(diff_lexicons(WORDS_A, WORDS_B, alphabet="english")) == expected(WORDS_A, WORDS_B)
    diff = diff_lexicons(["b", "a", "ch"], ["A", "c"])
    assert (diff.only_a, diff.only_b, diff.common) == (["B", "CH"], ["C"], 1)
    # the same lists under the Spanish alphabet: CH is one letter, after C
    diff = diff_lexicons(["b", "a", "ch", "cz"], ["A", "c"], alphabet="spanish")
    assert diff.only_a == ["B", "CZ", "CH"]


def test_empty_sides():
    compiled = lexicon(WORDS_A)
    n = len(set(WORDS_A))
    diff = diff_lexicons([], compiled)
    assert (diff.only_a, diff.only_b, diff.count_a, diff.count_b, diff.common) == ([], code_sorted(WORDS_A), 0, n, 0)
    assert diff_lexicons([], []).identical


@pytest.mark.parametrize("fmt", ["dawg", "anatrie"])
def test_limit_keeps_counts_exact(fmt):
    full = expected(WORDS_A, WORDS_B)
    a, b = lexicon(WORDS_A, fmt), lexicon(WORDS_B, fmt)
    for limit in (0, 1, 2, 3, 100):
        diff = diff_lexicons(a, b, limit=limit)
        assert diff.only_a == full["only_a"][:limit] and diff.only_b == full["only_b"][:limit]
        assert (diff.count_a, diff.count_b, diff.common) == (full["count_a"], full["count_b"], full["common"])
        assert diff.only_a_count == len(full["only_a"]) and diff.only_b_count == len(full["only_b"])
        assert diff.truncated == (limit < max(len(full["only_a"]), len(full["only_b"])))
        assert diff.limit == limit
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError):
            diff_lexicons(a, b, limit=bad)


def test_as_dict_is_json():
    diff = diff_lexicons(lexicon(WORDS_A), WORDS_B, limit=2)
    data = json.loads(json.dumps(diff.as_dict()))
    full = expected(WORDS_A, WORDS_B)
    assert data["only_a"] == full["only_a"][:2] and data["only_b"] == full["only_b"][:2]
    assert data["only_a_count"] == len(full["only_a"]) and data["only_b_count"] == len(full["only_b"])
    assert (data["count_a"], data["count_b"], data["common"]) == (full["count_a"], full["count_b"], full["common"])
    assert data["truncated"] is True and data["identical"] is False and data["limit"] == 2


# -- diff: errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["dawg", "anatrie"])
def test_mismatched_alphabets_raise(fmt):
    english = lexicon(WORDS_A, fmt)
    spanish = lexicon(SPANISH_A, fmt, "spanish")
    for a, b in ((english, spanish), (spanish, english)):
        with pytest.raises(AlphabetMismatchError) as info:
            diff_lexicons(a, b)
        message = str(info.value)
        assert isinstance(info.value, ValueError)
        assert "\n" not in message and "different alphabets" in message
        assert "CH" in message and "26" in message and "28" in message
    with pytest.raises(AlphabetMismatchError):
        diff_lexicons(english, WORDS_B, alphabet="spanish")


def test_plain_words_outside_the_alphabet_and_bad_arguments():
    english = lexicon(WORDS_A)
    with pytest.raises(LexiconDiffError, match="Ñ"):
        diff_lexicons(english, ["CAT", "ñu"])
    with pytest.raises(TypeError):
        diff_lexicons(english, "CAT")  # a string is not a list of words
    with pytest.raises(TypeError):
        diff_lexicons(english, [b"CAT"])


def test_a_streamed_source_out_of_code_order_is_an_error():
    """A lexicon claiming the trie capability is streamed; if its iteration went backwards
    the merge would silently be wrong, so it is an error instead."""
    real = lexicon(WORDS_A)

    class Broken:
        alphabet = real.alphabet
        capabilities = Capability.TRIE

        def iter_codes(self):
            return iter(reversed(list(real.iter_codes())))

    with pytest.raises(LexiconDiffError, match="code order"):
        diff_lexicons(Broken(), lexicon(WORDS_B))
    with pytest.raises(LexiconDiffError, match="code order"):
        diff_lexicons(lexicon(WORDS_B), Broken())


# -- diff: Spanish, multi-character tiles ----------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_spanish_orders_by_codes(fmt):
    alphabet = ruleset("spanish").alphabet
    a, b = lexicon(SPANISH_A, fmt, "spanish"), lexicon(SPANISH_B, fmt, "spanish")
    diff = diff_lexicons(a, b)
    assert as_expected(diff) == expected(SPANISH_A, SPANISH_B, "spanish")
    # code order is not Python's string order for these words
    assert code_sorted(SPANISH_A, "spanish") != sorted(set(SPANISH_A))
    # every word starting with the tile CH comes after every word starting with the tile C
    both = diff_lexicons(a, []).only_a
    assert both == code_sorted(SPANISH_A, "spanish")
    first = [alphabet.split(w)[0] for w in both]
    assert "C" in first and "CH" in first
    assert max(i for i, f in enumerate(first) if f == "C") < min(i for i, f in enumerate(first) if f == "CH")
    assert alphabet.code("CH") == alphabet.code("C") + 1
    # and the same for LL after L and Ñ after N
    for before, after in (("L", "LL"), ("N", "Ñ")):
        if before in first and after in first:
            assert (max(i for i, f in enumerate(first) if f == before)
                    < min(i for i, f in enumerate(first) if f == after))


def test_spanish_plain_list_against_compiled():
    compiled = lexicon(SPANISH_A, "dawg", "spanish")
    plain = [w.lower() for w in SPANISH_B]  # "ñandu", "chica": folded to upper case like the word list reader
    diff = diff_lexicons(compiled, plain)
    assert as_expected(diff) == expected(SPANISH_A, SPANISH_B, "spanish")


# -- diff: property test -------------------------------------------------------------------------------

word_sets = st.sets(st.text(alphabet="ABC", min_size=1, max_size=4), min_size=1, max_size=25)


@pytest.mark.parametrize("fmt", ["dawg", "anatrie"])
@settings(max_examples=60, deadline=None)
@given(words_a=word_sets, words_b=word_sets, limit=st.one_of(st.none(), st.integers(0, 5)))
def test_diff_property(fmt, words_a, words_b, limit):
    diff = diff_lexicons(lexicon(sorted(words_a), fmt), lexicon(sorted(words_b), fmt), limit=limit)
    assert diff.only_a == sorted(words_a - words_b)[:limit] and diff.only_b == sorted(words_b - words_a)[:limit]
    assert (diff.count_a, diff.count_b, diff.common) == (len(words_a), len(words_b), len(words_a & words_b))
    assert diff.identical == (words_a == words_b)


# -- stats ------------------------------------------------------------------------------------------------

def brute_stats(words, rules_name: str) -> dict:
    """Brute force over labels: the figures lexicon_stats reports."""
    rules = ruleset(rules_name)
    alphabet = rules.alphabet
    texts = {alphabet.decode(alphabet.encode(w)) for w in words}
    split = {w: alphabet.split(w) for w in texts}
    letters = sum(len(s) for s in split.values())
    occurrences = Counter(label for s in split.values() for label in s)
    containing = Counter(label for s in split.values() for label in set(s))
    need = {w: sum(max(0, n - rules.count(alphabet.code(label))) for label, n in Counter(s).items())
            for w, s in split.items()}
    impossible = [w for w in code_sorted(texts, rules_name) if need[w] > rules.blanks]
    lengths = Counter(len(s) for s in split.values())
    board, rack = rules.board_size, rules.rack_size
    return {
        "words": len(texts),
        "letters": letters,
        "lengths": dict(lengths),
        "occurrences": {label: occurrences[label] for label in alphabet.labels},
        "containing": {label: containing[label] for label in alphabet.labels},
        "fit": {
            "board": sum(1 for s in split.values() if len(s) <= board),
            "longer_than_board": sum(1 for s in split.values() if len(s) > board),
            "rack": sum(1 for s in split.values() if len(s) <= rack),
            "bingo": lengths[rack],
            "bingo_plus_one": lengths[rack + 1],
            "bag": sum(1 for w in texts if need[w] <= rules.blanks),
            "bag_needs_blanks": sum(1 for w in texts if 0 < need[w] <= rules.blanks),
            "bag_impossible": len(impossible),
            "bag_impossible_examples": impossible[:10],
        },
    }


def check_against_brute_force(stats: dict, words, rules_name: str) -> None:
    brute = brute_stats(words, rules_name)
    assert stats["words"] == brute["words"]
    assert stats["letters"] == brute["letters"]
    assert stats["mean_length"] == pytest.approx(brute["letters"] / brute["words"], abs=1e-4)
    assert stats["lengths"] == brute["lengths"]
    assert list(stats["lengths"]) == sorted(stats["lengths"])
    freq = stats["letters_freq"]
    assert list(freq) == list(ruleset(rules_name).alphabet.labels)
    assert {label: f["count"] for label, f in freq.items()} == brute["occurrences"]
    assert {label: f["words"] for label, f in freq.items()} == brute["containing"]
    for label, f in freq.items():
        assert f["share"] == pytest.approx(brute["occurrences"][label] / brute["letters"], abs=1e-6)
        assert f["bag"] == ruleset(rules_name).count(ruleset(rules_name).alphabet.code(label))
    fit = {k: v for k, v in stats["fit"].items() if k not in ("board_size", "rack_size", "bag_blanks")}
    assert fit == brute["fit"]


STATS_WORDS = ["A", "AA", "AB", "CAT", "CATS", "QUIZ", "QUIZZES", "PIZZAZZ", "ZZZ", "ZZZZ", "RAZZAMATAZZ",
               "ABCDEFG", "ABCDEFGH", "STRENGTHS", "TRACE", "REACTS", "EEEEEEEEEEEEE", "ABRACADABRA",
               "INCOMPREHENSIBILITIES", "SESQUIPEDALIAN"]


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
@pytest.mark.parametrize("rules", ["english", "tiny", "wwf"])
def test_stats_every_format_equals_brute_force(fmt, rules):
    stats = lexicon_stats(lexicon(STATS_WORDS, fmt, rules), rules)
    check_against_brute_force(stats, STATS_WORDS, rules)


def test_stats_of_a_wordlist_a_plain_list_and_a_lexicon_agree():
    english = ruleset("english")
    from_lexicon = lexicon_stats(lexicon(STATS_WORDS), english)
    assert lexicon_stats(from_words(STATS_WORDS, english.alphabet, min_len=1), "english") == from_lexicon
    assert lexicon_stats([w.lower() for w in STATS_WORDS] + ["cat", ""], "english") == from_lexicon


def test_stats_known_figures():
    """A few figures worked out by hand, as a check on the brute force itself."""
    stats = lexicon_stats(["CAT", "CATS", "AA", "ZZZZ"], "english")
    assert stats["words"] == 4 and stats["letters"] == 13
    assert stats["lengths"] == {2: 1, 3: 1, 4: 2}
    assert stats["letters_freq"]["A"] == {"count": 4, "words": 3, "share": round(4 / 13, 6), "bag": 9}
    assert stats["letters_freq"]["Z"]["count"] == 4 and stats["letters_freq"]["Z"]["words"] == 1
    assert stats["longest"] == ["CATS", "ZZZZ", "CAT", "AA"]


def test_bag_impossible_words_are_flagged():
    # english: 1 Z and 2 blanks, so at most 3 Z's; ZZZ needs both blanks
    stats = lexicon_stats(["ZZZ", "ZZZZ", "PIZZAZZ", "RAZZAMATAZZ", "QUIZ", "JJJ", "JJJJ"], "english")
    fit = stats["fit"]
    assert fit["bag_impossible_examples"] == ["JJJJ", "PIZZAZZ", "RAZZAMATAZZ", "ZZZZ"]
    assert fit["bag_impossible"] == 4
    assert fit["bag_needs_blanks"] == 2  # ZZZ, JJJ
    assert fit["bag"] == 3
    # tiny: 4 E's, 1 Z and 1 blank
    tiny = lexicon_stats(["ZZ", "ZZZ", "EEEE", "EEEEE", "EEEEEE"], "tiny")["fit"]
    assert tiny["bag_impossible_examples"] == ["EEEEEE", "ZZZ"]
    assert tiny["bag_needs_blanks"] == 2 and tiny["bag"] == 3


def test_stats_fit_counts_on_tiny_and_english():
    words = ["AB", "ABC", "ABCD", "ABCDE", "ABCDEF", "ABCDEFG", "ABCDEFGH", "ABCDEFGHI", "ABCDEFGHIJKLMNOP"]
    tiny = lexicon_stats(words, "tiny")["fit"]  # board 7, rack 5
    assert (tiny["board_size"], tiny["rack_size"], tiny["bag_blanks"]) == (7, 5, 1)
    assert (tiny["board"], tiny["longer_than_board"], tiny["rack"]) == (6, 3, 4)
    assert (tiny["bingo"], tiny["bingo_plus_one"]) == (1, 1)
    english = lexicon_stats(words, "english")["fit"]  # board 15, rack 7
    assert (english["board"], english["longer_than_board"], english["rack"]) == (8, 1, 6)
    assert (english["bingo"], english["bingo_plus_one"]) == (1, 1)


def test_stats_multi_character_tiles_count_as_one():
    rules = "spanish"
    alphabet = ruleset(rules).alphabet
    words = ["CHURRO", "LLAMA", "CH", "RR", "ÑU", "CALLE", "CARRO", "CHICHARRON", "CHCHCHCH", "CCCCC"]
    stats = lexicon_stats(lexicon(words, "dawg", rules), rules)
    check_against_brute_force(stats, words, rules)
    assert len(alphabet.split("CHURRO")) == 4  # CH U RR O
    assert stats["lengths"][1] == 2  # CH and RR are one tile each
    assert stats["letters"] == sum(len(alphabet.split(w)) for w in words) < sum(map(len, words))
    freq = stats["letters_freq"]
    assert freq["CH"]["count"] == 8 and freq["CH"]["words"] == 4  # CHURRO, CH, CHICHARRON (2), CHCHCHCH (4)
    assert freq["C"]["count"] == 7  # CALLE, CARRO, CCCCC: the C of CH is not a C
    assert freq["H"]["count"] == 0 and freq["LL"]["count"] == 2 and freq["RR"]["words"] == 4
    # one CH and 4 C's in the bag, 2 blanks: CHCHCHCH needs 3 blanks, CHICHARRON and CCCCC one
    assert stats["fit"]["bag_impossible_examples"] == ["CHCHCHCH"]
    assert stats["fit"]["bag_impossible"] == 1 and stats["fit"]["bag_needs_blanks"] == 2


def test_stats_alphabet_mismatch_and_bad_words():
    spanish = lexicon(SPANISH_A, "dawg", "spanish")
    with pytest.raises(LexiconStatsError) as info:
        lexicon_stats(spanish, "english")
    assert isinstance(info.value, ValueError) and "\n" not in str(info.value) and "CH" in str(info.value)
    with pytest.raises(LexiconStatsError, match="Ñ"):
        lexicon_stats(["CAT", "ÑU"], "english")


def test_stats_empty():
    stats = lexicon_stats([], "english")
    figures = (stats["words"], stats["letters"], stats["mean_length"], stats["lengths"], stats["longest"])
    assert figures == (0, 0, 0.0, {}, [])
    assert stats["fit"]["bag"] == 0 and stats["fit"]["bag_impossible"] == 0
    assert format_stats(stats).startswith("0 words")


def test_format_stats_report():
    stats = lexicon_stats(STATS_WORDS, "english")
    text = format_stats(stats)
    lines = text.splitlines()
    assert lines[0].startswith(f"{stats['words']:,} words")
    histogram = [line for line in lines if "|" in line]
    lengths = stats["lengths"]
    assert len(histogram) == max(lengths) - min(lengths) + 1  # gaps shown
    assert len({line.index("|") for line in histogram}) == 1  # bars aligned
    longest_bar = max(len(line) - line.index("|") - 1 for line in histogram)
    assert longest_bar == 40
    for label in ("Letters", "Fit", "Longest: INCOMPREHENSIBILITIES"):
        assert any(line.startswith(label) for line in lines)
    table = lines[lines.index("Letters") + 2:lines.index("Letters") + 2 + 26]
    assert [row.split()[0] for row in table] == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert any("RAZZAMATAZZ" in line for line in lines)
    # the JSON round trip (length keys become strings) renders the same report
    assert format_stats(json.loads(json.dumps(stats))) == text


# -- ENABLE, once ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def enable():
    """(ENABLE as a dawg, its lines as text)."""
    path = bundled_wordlist()
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return build(read_list(path), "dawg"), lines


def test_enable_stats(enable):
    dawg, lines = enable
    stats = lexicon_stats(dawg, "english")
    words = {line.upper() for line in lines}
    assert stats["words"] == len(words) == len(dawg) == sum(stats["lengths"].values())
    assert stats["lengths"] == dict(Counter(len(w) for w in words))
    assert stats["letters"] == sum(map(len, words)) == sum(f["count"] for f in stats["letters_freq"].values())
    assert sum(f["share"] for f in stats["letters_freq"].values()) == pytest.approx(1, abs=1e-4)
    fit = stats["fit"]
    assert fit["board"] + fit["longer_than_board"] == stats["words"]
    assert fit["bag"] + fit["bag_impossible"] == stats["words"]
    # the bag cannot spell words needing more than its blanks beyond its tiles: brute force
    rules = ruleset("english")
    bag = {label: rules.count(rules.alphabet.code(label)) for label in rules.alphabet.labels}
    impossible = sorted(w for w in words
                        if sum(max(0, n - bag[c]) for c, n in Counter(w).items()) > rules.blanks)
    assert fit["bag_impossible"] == len(impossible) and fit["bag_impossible_examples"] == impossible[:10]
    assert "RAZZAMATAZZ" in impossible
    longest = max(map(len, words))
    assert len(stats["longest"]) == 5 and len(stats["longest"][0]) == longest
    assert stats["longest"] == sorted(words, key=lambda w: (-len(w), w))[:5]


def test_enable_diff_against_the_text_list(enable):
    dawg, lines = enable
    removed = [w for w in lines if w.startswith("q")]
    added = ["zzzzz", "qqq", "xylophonez"]
    assert not set(added) & set(lines)
    plain = [w for w in lines if not w.startswith("q")] + added
    diff = diff_lexicons(dawg, plain, limit=5)
    assert diff.only_a_count == len(removed) and diff.only_a == sorted(w.upper() for w in removed)[:5]
    assert diff.only_b == sorted(w.upper() for w in added)
    assert diff.common == len(lines) - len(removed) and diff.count_a == len(dawg)


# -- the command line: lexc diff, lexc stats ---------------------------------------------------

def _cli(capsys, *args):
    from lexc import cli

    with pytest.raises(SystemExit) as exit_:
        cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_cli_diff(tmp_path, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("cat\ndog\nzebra\nqi\n", encoding="utf-8")
    b.write_text("cat\ndog\nza\n", encoding="utf-8")
    code, _, err = _cli(capsys, "build", a, "-f", "anatrie", "-o", tmp_path / "a.anatrie")
    assert code == 0, err
    code, out, _ = _cli(capsys, "diff", tmp_path / "a.anatrie", b)
    assert code == 1 and "only in" in out and "ZEBRA" in out and "QI" in out and "ZA" in out
    code, out, _ = _cli(capsys, "diff", tmp_path / "a.anatrie", b, "--json", "--limit", "1")
    data = json.loads(out)
    assert (data["only_a_count"], data["only_b_count"], data["common"]) == (2, 1, 2)
    assert data["only_a"] == ["QI"] and data["truncated"]
    code, out, _ = _cli(capsys, "diff", a, tmp_path / "a.anatrie", "--counts")
    assert code == 0 and "only in" in out and "  CAT" not in out
    code, _, err = _cli(capsys, "diff", a, tmp_path / "missing.txt")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_cli_diff_alphabet_mismatch(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text("chico\nllama\n", encoding="utf-8")
    code, _, err = _cli(capsys, "build", a, "-r", "spanish", "-o", tmp_path / "a.dawg")
    assert code == 0, err
    code, _, err = _cli(capsys, "diff", tmp_path / "a.dawg", a)  # the list read as English
    assert code == 2 and "CH" in err and len(err.strip().splitlines()) == 1


def test_cli_stats(tmp_path, capsys):
    tiny = Path(__file__).resolve().parent.parent / "wordlists" / "tiny.txt"
    code, out, err = _cli(capsys, "stats", tiny, "--json")
    assert code == 0, err
    data = json.loads(out)
    texts = read_list(tiny).texts()
    assert data["words"] == len(texts) and sum(data["lengths"].values()) == len(texts)
    assert {int(k): v for k, v in data["lengths"].items()} == {n: sum(len(w) == n for w in texts)
                                                             for n in {len(w) for w in texts}}
    code, out, _ = _cli(capsys, "stats", tiny)
    assert code == 0 and "Lengths" in out
    code, _, err = _cli(capsys, "stats", tiny, "-r", "nosuch")
    assert code == 2 and len(err.strip().splitlines()) == 1
