"""Leave models: MAVEN's linear rack evaluator (Sheppard 2002, section 3.3) and the full table
("superleaves"), learned from self-play and compiled to any leave file.

``features`` names a leave's combinations, ``linear`` is the model (its static part, what a
leave file holds, apart from the terms that depend on the unseen tiles), ``fit`` the least
squares (pure Python, streaming), ``table`` the full table smoothed toward the linear model,
``modelfile`` the model's file (``formats/leavemodel.md``), ``learn`` the self-play learning
loop. The wing sits above ``lexc.game`` and ``lexc.formats``: it imports them, the CLI
imports it.
"""

from .features import Features
from .fit import FitError, NormalEquations, cholesky_solve
from .learn import (
    DEFAULT_PRIOR_SD,
    GameRecord,
    GameTask,
    Observation,
    Progress,
    fit_weights,
    game_seed,
    learn,
    play_game,
)
from .linear import LinearModel, ModelLeaves
from .modelfile import ModelFile, loads_model, read_model
from .table import DEFAULT_PRIOR, TableStats, full_table

__all__ = ["DEFAULT_PRIOR", "DEFAULT_PRIOR_SD", "Features", "FitError", "GameRecord", "GameTask", "LinearModel",
           "ModelFile", "ModelLeaves", "NormalEquations", "Observation", "Progress", "TableStats", "cholesky_solve",
           "fit_weights", "full_table", "game_seed", "learn", "loads_model", "play_game", "read_model"]
