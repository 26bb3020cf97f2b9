"""What a ``lexc bench`` run measures: its jobs, in the order the runner runs them.

A default run keeps every table of the report and finishes in a few minutes on ENABLE; it
measures less of what is slow and adds least: three runs a figure, the two baselines a reader
compares first (a Python set, marisa-trie), no ``naive`` move generation (Norvig's method over
membership, about 5 positions a second), one pure-path row (the DAWG's, with Appel &
Jacobson on the leading positions), a 3 s first run for a move generator (then timed on the
positions done by then), neither the JSON rate nor the search's share of a search in Python,
``lexc moves`` timed for the strategy ``auto`` picks, five self-play games a round, and the
papers told from the figures measured anyway. ``--full``
(``make bench``) measures everything, as the committed report shows it.
"""

from __future__ import annotations

from typing import Any

from .worker import BASELINES

REPEAT, FULL_REPEAT = 3, 5  # runs per figure (--repeat)
BUDGET, FULL_BUDGET = 3.0, 10.0  # seconds a move generator's first run may take (--budget)
QUERY_BUDGET, FULL_QUERY_BUDGET = 1.0, 2.0  # seconds a slow query kind's run may take (its leading queries)
DEFAULT_BASELINES = ("python-set", "marisa-trie")
FULL_ONLY_STRATEGIES = ("naive",)
TWIN = "dawg"  # the one pure-path row of a default run
TWIN_STRATEGIES = ("appel-jacobson",)
TWIN_POSITIONS = 30  # its leading positions (the pure path runs 15-20 a second)
COMMAND_REPEAT = 5  # fresh `lexc moves --batch --json` runs (and empty ones) of a default run
GAMES, FULL_GAMES = 5, 20  # self-play games a round
PAPER_JOBS = ("orders", "short")  # the papers' extra builds (--full)

Job = dict[str, Any]


def plan_jobs(names: list[str], *, full: bool = False, movegen: bool = True, papers: bool = True,
              twins: list[str] | None = None, core_strategies: tuple[str, ...] = (),
              player: str | None = None) -> list[Job]:
    """The jobs of a run over the formats ``names``, as the runner runs them: per structure a
    ``build`` and a ``use`` (and, for a format in ``twins``, a ``use`` on the pure-Python path
    with the strategies of ``core_strategies``), then the papers' extra builds, then ``play``
    on ``player``. Each job holds the options that differ between a default run and ``full``
    (the runner adds the paths and the common options)."""
    baselines = list(BASELINES if full else DEFAULT_BASELINES)
    jobs: list[Job] = []
    for name in names + baselines:
        jobs.append({"job": "build", "name": name})
        use: Job = {"job": "use", "name": name}
        if movegen and name not in BASELINES:
            use.update(strategies=None if full else _default_strategies(), python_extras=full,
                       command="every" if full else "auto", command_repeat=None if full else COMMAND_REPEAT)
        jobs.append(use)
        if name in (twins or []) and (full or name == TWIN):
            pure: Job = {"job": "use", "name": name, "pure": True}
            if movegen:
                pure["strategies"] = list(core_strategies if full else
                                          [s for s in core_strategies if s in TWIN_STRATEGIES])
                pure.update(positions_limit=None if full else TWIN_POSITIONS, python_extras=full)
            jobs.append(pure)
    if papers and full:
        jobs += [{"job": kind, "name": kind} for kind in PAPER_JOBS if _paper_applies(kind, names)]
    if movegen and player is not None:
        jobs.append({"job": "play", "name": player, "games": FULL_GAMES if full else GAMES})
    return jobs


def _default_strategies() -> list[str]:
    """Every move-generation strategy but the --full-only ones."""
    from ..movegen import STRATEGIES

    return [s for s in STRATEGIES if s not in FULL_ONLY_STRATEGIES]


def _paper_applies(kind: str, names: list[str]) -> bool:
    """Whether a paper's extra build has the format it measures again."""
    return "anatrie" in names if kind == "orders" else {"dawg", "gaddag"} <= set(names)


def query_budget(full: bool) -> float:
    """Seconds a slow query kind's run may take: it is timed on the leading queries that fit
    (a default run's 1 s keeps it within its few minutes; ``--full`` gives 2)."""
    return FULL_QUERY_BUDGET if full else QUERY_BUDGET


def full_only(names: list[str], movegen: bool = True, papers: bool = True) -> list[str]:
    """What ``--full`` adds to a default run over ``names``, in a few words a measurement
    (for the report's footnote)."""
    out = [f"{', '.join(b for b in BASELINES if b not in DEFAULT_BASELINES)} (baselines)"]
    if movegen:
        out += [f"{', '.join(FULL_ONLY_STRATEGIES)} move generation",
                "the pure-path rows of every compiled format on every position",
                "lexc moves timed for every strategy the core runs",
                "the JSON rate and search share of the searches in Python",
                f"a {FULL_BUDGET:g} s budget for a move generator's first run (default {BUDGET:g} s)"]
    if papers and any(_paper_applies(kind, names) for kind in PAPER_JOBS):
        out.append("the papers' extra builds (the anagram trie in each letter order, short words)")
    return out
