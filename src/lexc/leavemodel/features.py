"""The combinations of a leave (Sheppard 2002, section 3.3): the features MAVEN's linear rack
evaluator gives a value each, named as the field names them.

*Static* features depend on the leave alone, so what they add up to is what a leave file (a
KLV) can hold:

- a tile: ``A``, ``?`` (the blank): how many of it the leave holds;
- a duplicated tile: ``AA``, ``??``: 1 when the leave holds two or more;
- a triplicated tile: ``AAA``: 1 when it holds three or more (quadruples and more take the
  triple's value, as MAVEN did);
- ``QU``: 1 when the leave holds both a Q and a U (each bad alone, neutral together);
- the vowel/consonant balance ``vc:V/C`` (section 3.3.2): 1 for the leave's count of vowels
  V and of consonants C (the ruleset's ``vowels``; a blank is neither).

*Context* features depend on the tiles the mover cannot see (the bag and the opponent's
rack), so a leave file cannot hold them; a player adds them at the table (``LinearModel.value``):

- ``u_with_q_unseen``: 1 when the leave holds a U, no Q, and a Q is unseen;
- ``turnover``: the tiles the move draws (rack size - leave, at most the bag) times what a
  tile drawn is worth beyond an average one (the mean static value of a one-tile leave over
  the unseen tiles, less its mean over the whole tile set: ``LinearModel.draw_value``):
  MAVEN's "tile turnover value", AET being "AET plus 4 tiles from the bag". Centred, it says
  how good the tiles to come are; how many come is the leave's size, which the
  vowel/consonant terms already hold (uncentred, the two fight over the same effect).

``pool`` and ``bias`` are controls of the fit, never part of a leave's value. ``bias`` is the
mean future spread of an empty leave: a leave's value is counted from the empty leave's, which
every engine takes as 0. ``pool`` is ``draw_value`` itself, what an unseen tile is worth
beyond an average one: the opponent's rack is among the unseen tiles, so a rich pool predicts a
worse future for the mover whatever it keeps; without the control, the turnover's weight would
take that effect (and turn negative) instead of the value of drawing from that pool.

Multi-character tiles are named as lexc writes racks (Spanish ``[L]L`` is two Ls, ``[LL]`` the
tile LL). Sparse vectors are ``{index: value}`` over ``Features.names``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..alphabet import AlphabetError
from ..ruleset import Ruleset

BLANK = 0
QU, U_WITH_Q, TURNOVER, POOL, BIAS = "QU", "u_with_q_unseen", "turnover", "pool", "bias"
CONTEXT = (U_WITH_Q, TURNOVER)

Vector = dict[int, float]


def _code_of(ruleset: Ruleset, label: str) -> int | None:
    """The code of a label the bag holds, else None."""
    try:
        code = ruleset.alphabet.code(label)
    except AlphabetError:
        return None
    return code if ruleset.count(code) else None


@dataclass(frozen=True)
class Features:
    """The features of a ruleset's leaves: ``names`` (static first, then the context features,
    then the fit's controls ``pool`` and ``bias``), and the index of each kind by letter code (-1: none)."""

    ruleset: Ruleset
    names: tuple[str, ...]
    static: int  # names[:static] are the static features
    single: tuple[int, ...]
    double: tuple[int, ...]
    triple: tuple[int, ...]
    vc: dict[tuple[int, int], int]
    qu: int
    u_with_q: int
    turnover: int
    pool: int
    bias: int
    q_code: int | None
    u_code: int | None
    vowel: tuple[bool, ...] = field(repr=False)

    @classmethod
    def of(cls, ruleset: Ruleset) -> Features:
        """The features of a ruleset's leaves (1 to rack size - 1 tiles)."""
        alphabet = ruleset.alphabet
        codes = [code for code in range(len(alphabet) + 1) if ruleset.count(code)]
        longest = ruleset.rack_size - 1
        names: list[str] = []

        def name(code: int, times: int) -> str:
            return alphabet.rack_text([], times) if code == BLANK else alphabet.rack_text([code] * times)

        def add(text: str) -> int:
            names.append(text)
            return len(names) - 1

        size = len(alphabet) + 1
        single, double, triple = [-1] * size, [-1] * size, [-1] * size
        for code in codes:
            single[code] = add(name(code, 1))
        for code in codes:
            if ruleset.count(code) >= 2 and longest >= 2:
                double[code] = add(name(code, 2))
        for code in codes:
            if ruleset.count(code) >= 3 and longest >= 3:
                triple[code] = add(name(code, 3))
        q_code, u_code = _code_of(ruleset, "Q"), _code_of(ruleset, "U")
        qu = add(QU) if q_code is not None and u_code is not None and longest >= 2 else -1
        vowel = tuple(code != BLANK and ruleset.is_vowel(code) for code in range(size))
        vowels = sum(ruleset.count(c) for c in codes if vowel[c])
        consonants = sum(ruleset.count(c) for c in codes if c != BLANK and not vowel[c])
        vc: dict[tuple[int, int], int] = {}
        for total in range(1, longest + 1):
            for v in range(total, -1, -1):
                if v <= vowels and total - v <= consonants:
                    vc[v, total - v] = add(f"vc:{v}/{total - v}")
        static = len(names)
        u_with_q = add(U_WITH_Q) if qu >= 0 else -1
        turnover = add(TURNOVER)
        pool = add(POOL)
        bias = add(BIAS)
        if len(set(names)) != len(names):  # (a tile labelled QU beside Q and U, say)
            raise ValueError(f"the {ruleset.name} ruleset's leave features do not have distinct names")
        return cls(ruleset, tuple(names), static, tuple(single), tuple(double), tuple(triple), vc, qu, u_with_q,
                   turnover, pool, bias, q_code, u_code, vowel)

    def __len__(self) -> int:
        return len(self.names)

    def static_vector(self, leave: bytes) -> Vector:
        """The static features of a leave (its codes in any order)."""
        out: Vector = {}
        counts: dict[int, int] = {}
        for code in leave:
            counts[code] = counts.get(code, 0) + 1
        v = c = 0
        for code, n in counts.items():
            out[self.single[code]] = float(n)
            if n >= 2 and self.double[code] >= 0:
                out[self.double[code]] = 1.0
            if n >= 3 and self.triple[code] >= 0:
                out[self.triple[code]] = 1.0
            if code != BLANK:
                if self.vowel[code]:
                    v += n
                else:
                    c += n
        if self.qu >= 0 and self.q_code in counts and self.u_code in counts:
            out[self.qu] = 1.0
        index = self.vc.get((v, c))
        if index is not None:
            out[index] = 1.0
        return out

    def drawn(self, leave: bytes, bag: int) -> int:
        """The tiles a move keeping ``leave`` draws from a bag of ``bag`` tiles."""
        return max(0, min(self.ruleset.rack_size - len(leave), bag))

    def u_without_q(self, leave: bytes) -> bool:
        """Whether a leave holds a U and no Q (where the ruleset has a U-with-Q-unseen feature):
        the leaves that feature can be 1 for."""
        q, u = self.q_code, self.u_code
        return self.u_with_q >= 0 and q is not None and u is not None and u in leave and q not in leave

    def context_vector(self, leave: bytes, unseen: Sequence[int], bag: int, draw_value: float) -> Vector:
        """The context features of a leave: ``unseen`` the count of each code the mover cannot
        see (bag and opponent's rack), ``bag`` the tiles in the bag, ``draw_value`` what a tile
        drawn is worth beyond an average one (``LinearModel.draw_value``)."""
        out: Vector = {}
        if self.u_without_q(leave) and unseen[self.q_code or 0] > 0:
            out[self.u_with_q] = 1.0
        turn = self.drawn(leave, bag) * draw_value
        if turn:
            out[self.turnover] = turn
        return out

    def vector(self, leave: bytes, unseen: Sequence[int], bag: int, draw_value: float) -> Vector:
        """Every feature of a leave as one observation of the fit: static, context, and the
        controls (``pool``: ``draw_value``; ``bias``: 1)."""
        out = self.static_vector(leave)
        out.update(self.context_vector(leave, unseen, bag, draw_value))
        if draw_value:
            out[self.pool] = draw_value
        out[self.bias] = 1.0
        return out
