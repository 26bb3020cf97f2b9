"""Static equity: what a move is worth now (its score and the value of the tiles it keeps),
and every candidate of a position ranked by it.

Between ``movegen`` and ``game`` in the package's wings: imports the foundations, ``formats``
(leave tables), ``native`` (the backend that sums a position's equities), ``board`` and
``movegen``; the players and the CLI import it. ``rule`` defines the rule once (``EquityRule``,
MAGPIE's by default, in integer milli-points) and what it reads of the game (``Situation``);
``candidates`` lists the placements, exchanges and the pass with their equities.
"""

from .candidates import EXCHANGE, PASS, PLACEMENT, Candidate, Candidates, SubRacks, candidates, rank_key, weigh
from .rule import (
    MAGPIE,
    RESOLUTION,
    RULES,
    EquityError,
    EquityRule,
    Situation,
    check_table,
    milli,
    table_millis,
    vowel_codes,
)

__all__ = ["EXCHANGE", "MAGPIE", "PASS", "PLACEMENT", "RESOLUTION", "RULES", "Candidate", "Candidates", "EquityError",
           "EquityRule", "Situation", "SubRacks", "candidates", "check_table", "milli", "rank_key", "table_millis",
           "vowel_codes", "weigh"]
