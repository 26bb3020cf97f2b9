"""A count with its noun, in one way: ``plural(1, "row")`` is ``1 row``, ``plural(2, "row")``
``2 rows``, ``plural(0, "row")`` ``0 rows``, with thousands separators (``1,234 words``).

Every message and report that prints a count with a noun goes through ``plural``, so that no
line says ``1 rows`` (a foundation: any wing may import it; it imports nothing)."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and its noun: the singular ``noun`` for exactly one, else ``nouns`` (by
    default ``noun`` + ``s``); the count written with thousands separators."""
    return f"{count:,} {noun if count in (1, -1) else nouns or noun + 's'}"


def is_are(count: int) -> str:
    """The verb that goes with a count: ``is`` for one, ``are`` for any other."""
    return "is" if count in (1, -1) else "are"
