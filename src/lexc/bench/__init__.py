"""Benchmarks: the runner, its fresh-process workers, query and position sets, baselines,
the papers' claims measured again, the report and its SVG charts.

Wing 6 of the package: may import every wing below it (foundations, ``formats``,
``lexicons``, ``board``, ``movegen``, ``game``); only the CLI imports it. ``runner`` is
``lexc bench``, running the jobs ``plan`` lists (a default run or ``--full``); ``worker`` runs
in each fresh interpreter; ``queries`` and ``moves`` hold what is timed and compared;
``baselines`` are the non-lexc structures; ``papers``, ``report`` and ``charts`` turn figures
into tables and pictures.
"""

from ..errors import LexcError


class BenchError(LexcError, RuntimeError):
    """A measurement job failed; the message is one line."""
