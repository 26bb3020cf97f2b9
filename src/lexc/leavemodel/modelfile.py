"""The leave-model file (``formats/leavemodel.md``): a small JSON document, versioned and
checksummed, that holds what learning has reached (the weights by name, the ruleset, the
iteration, the games played, the history of the fit, and for the full table the per-leave
statistics), written atomically after every iteration, so that learning resumes from it.

Same content, same bytes: keys in a fixed order, floats as Python's shortest round-trip
``repr``, no time stamps. The checksum is the SHA-256 of the document without its ``sha256``
key, serialised compactly (``json.dumps(..., separators=(",", ":"), ensure_ascii=False)``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from typing import Any

from ..formats.errors import FormatError
from ..ruleset import Ruleset, RulesetError, load_ruleset, reference_of
from .linear import LinearModel

MAGIC = "lexc leave model"
VERSION = 2  # 2: the context terms are fitted (context_means), the pool control, table rows of 5
MAX_MODEL_BYTES = 1 << 28  # (a full table of English: about 900,000 leaves of a few numbers)


@dataclass
class ModelFile:
    """The state of learning: the model, the run's settings (``seed``, ``games_per_iteration``,
    ``lexicon``, ``ridge``, ``player``, ``prior_sd``), how far it got (``iteration``, ``games``,
    ``observations``), one ``history`` entry an iteration, and the full table's statistics
    (``table``: leave text -> [count, sum of spread, sum of u_with_q_unseen, sum of turnover, sum of pool]
    and ``prior``), empty unless learned."""

    model: LinearModel
    seed: int = 0
    games_per_iteration: int = 0
    lexicon: str = ""
    ridge: float = 1.0
    player: str = "equity"
    iteration: int = 0
    games: int = 0
    observations: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    prior: float = 0.0
    table: dict[str, list[float]] = field(default_factory=dict)
    prior_sd: float = 0.0  # points; 0: the fixed ridge toward 0 (a file without the key)

    def document(self) -> dict[str, Any]:
        """The JSON document, without its checksum."""
        return {
            "format": MAGIC, "version": VERSION, "model": "maven-linear",
            "ruleset": reference_of(self.model.ruleset), "lexicon": self.lexicon, "player": self.player,
            "seed": self.seed, "games_per_iteration": self.games_per_iteration, "ridge": self.ridge,
            "prior_sd": self.prior_sd, "iteration": self.iteration, "games": self.games,
            "observations": self.observations,
            "parameters": self.model.parameters(), "context_means": self.model.context_means or None,
            "history": self.history,
            "table": {"prior": self.prior, "leaves": self.table} if self.table else None,
        }

    def to_bytes(self) -> bytes:
        """The file's bytes: the document with its ``sha256``, one key a line."""
        doc = self.document()
        doc["sha256"] = checksum(doc)
        return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the file atomically (a temporary file renamed into place)."""
        from ..formats.container import write_atomic

        write_atomic(path, self.to_bytes())


def checksum(doc: dict[str, Any]) -> str:
    """The SHA-256 of a document (its ``sha256`` key left out), serialised compactly."""
    body = {k: v for k, v in doc.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()


def _number(name: str, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise FormatError(f"{where}: {name} is not a finite number")
    return float(value)


def _count(name: str, where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FormatError(f"{where}: {name} is not a count")
    return value


def _context_means(name: str, value: Any, rules: Ruleset) -> dict[str, Any]:
    """The ``context_means`` of a model file (absent or null: none), proven: a U-with-Q-unseen
    mean from 0 to 1, and a turnover mean for each leave size below the rack size."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not set(value) <= {"u_with_q_unseen", "turnover"}:
        raise FormatError(f"{name}: context_means is not {{\"u_with_q_unseen\", \"turnover\"}}")
    out: dict[str, Any] = {}
    if "u_with_q_unseen" in value:
        u = _number("context_means.u_with_q_unseen", name, value["u_with_q_unseen"])
        if not 0 <= u <= 1:
            raise FormatError(f"{name}: context_means.u_with_q_unseen is not a proportion (0 to 1)")
        out["u_with_q_unseen"] = u
    turnover = value.get("turnover", [])
    if not isinstance(turnover, list) or len(turnover) > rules.rack_size:
        raise FormatError(f"{name}: context_means.turnover is not a list of at most {rules.rack_size} numbers")
    out["turnover"] = [_number("a context_means.turnover mean", name, t) for t in turnover]
    return out


def loads_model(data: bytes, name: str, ruleset: Ruleset | None = None) -> ModelFile:
    """A model file's state after every check, each failure one FormatError line: JSON, the
    format and version, the checksum, the ruleset (and, when ``ruleset`` is given, that it is
    the same), the parameters (the ruleset's feature names, finite numbers), the counts."""
    if len(data) > MAX_MODEL_BYTES:
        raise FormatError(f"{name}: more than {MAX_MODEL_BYTES:,} bytes: not a leave model")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise FormatError(f"{name}: not a lexc leave model (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != MAGIC:
        raise FormatError(f"{name}: not a lexc leave model (no \"format\": \"{MAGIC}\")")
    if doc.get("version") != VERSION:
        raise FormatError(f"{name}: leave model version {doc.get('version')!r}; this lexc reads version {VERSION}")
    if doc.get("sha256") != checksum(doc):
        raise FormatError(f"{name}: the checksum does not match: the file was changed or damaged")
    try:
        rules = load_ruleset(str(doc.get("ruleset")))
    except RulesetError as exc:
        raise FormatError(f"{name}: its ruleset: {exc}") from None
    if ruleset is not None and rules != ruleset:
        raise FormatError(f"{name}: a model for the {rules.name} ruleset, not {ruleset.name}")
    params = doc.get("parameters")
    if not isinstance(params, dict):
        raise FormatError(f"{name}: no parameters")
    try:
        model = LinearModel.from_parameters(rules, {k: _number(repr(k), name, v) for k, v in params.items()})
    except ValueError as exc:
        raise FormatError(f"{name}: {exc}") from None
    if list(params) != list(model.features.names):
        raise FormatError(f"{name}: its parameters are not the {rules.name} ruleset's leave features")
    model.context_means = _context_means(name, doc.get("context_means"), rules)
    out = ModelFile(model, _count("seed", name, doc.get("seed")),
                    _count("games_per_iteration", name, doc.get("games_per_iteration")),
                    str(doc.get("lexicon", "")), _number("ridge", name, doc.get("ridge")), str(doc.get("player")),
                    _count("iteration", name, doc.get("iteration")), _count("games", name, doc.get("games")),
                    _count("observations", name, doc.get("observations")))
    history = doc.get("history")
    if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
        raise FormatError(f"{name}: its history is not a list of iterations")
    out.history = history
    out.prior_sd = _number("prior_sd", name, doc.get("prior_sd", 0.0))
    if out.prior_sd < 0:
        raise FormatError(f"{name}: prior_sd is negative")
    table = doc.get("table")
    if table is not None:
        if not isinstance(table, dict) or not isinstance(table.get("leaves"), dict):
            raise FormatError(f"{name}: its table is not {{\"prior\", \"leaves\"}}")
        out.prior = _number("the table's prior", name, table.get("prior"))
        for text, row in table["leaves"].items():
            if not isinstance(row, list) or len(row) != 5:
                raise FormatError(f"{name}: the table's leave {text!r} is not [count, spread, u, turnover, pool]")
            out.table[text] = [_number(f"the table's leave {text!r}", name, v) for v in row]
    return out


def read_model(path: str | os.PathLike[str], ruleset: Ruleset | None = None) -> ModelFile:
    """``loads_model`` of a file."""
    with open(path, "rb") as f:
        data = f.read(MAX_MODEL_BYTES + 1)
    return loads_model(data, os.fspath(path), ruleset)
