"""The format registry: build, save and load any lexicon format by name.

Every format implements the protocol in ``base``; the CLI, the move generator and the
referee know formats only through this registry. ``kwg`` reads and writes the KWG word graph
of other engines.

Wing 1 of the package: imports the foundations only (``lexc.alphabet``, ``ruleset``,
``wordlist``, ``pattern``).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:  # what the lazy names are, for the type checker (imported on first use at run time)
    from .anatrie import AnagramTrie as AnagramTrie
    from .base import Capability, Hooks, LexiconBase
    from .dawg import Dawg as Dawg
    from .dawg_packed import PackedDawg as PackedDawg
    from .errors import FormatError
    from .gaddag import Gaddag as Gaddag
    from .gaddag import Gaddawg as Gaddawg
    from .prefixset import PrefixSet as PrefixSet
    from .prefixset_aho import AhoPrefixSet as AhoPrefixSet
    from .registry import build, dumps, get_format, load, loads, save

# name -> (module, class): the registered formats, in the order they are listed. A format's
# module is imported when its class is first asked for, so a command that opens one file
# never imports the libraries of the others (pyahocorasick).
_WHERE = {
    "dawg": ("dawg", "Dawg"),
    "dawg-packed": ("dawg_packed", "PackedDawg"),
    "gaddag": ("gaddag", "Gaddag"),
    "gaddawg": ("gaddag", "Gaddawg"),
    "prefixset": ("prefixset", "PrefixSet"),
    "prefixset-aho": ("prefixset_aho", "AhoPrefixSet"),
    "anatrie": ("anatrie", "AnagramTrie"),
}


class Registry(MutableMapping[str, "type[LexiconBase]"]):
    """Format name -> format class (``LexiconBase`` subclass), each imported on first use;
    a format may also be registered with its class (``FORMATS[name] = cls``)."""

    def __init__(self, where: dict[str, tuple[str, str]]):
        # a class, or (module, class name) until first use
        self._entries: dict[str, type[LexiconBase] | tuple[str, str]] = dict(where)

    def __getitem__(self, name: str) -> type[LexiconBase]:
        entry = self._entries[name]
        if isinstance(entry, tuple):
            module, cls = entry
            entry = self._entries[name] = getattr(import_module(f"{__name__}.{module}"), cls)
        return entry

    def __setitem__(self, name: str, cls: type[LexiconBase]) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<format registry: {', '.join(self._entries)}>"


FORMATS = Registry(_WHERE)

# what ``lexc.formats`` offers, each imported from its module on first use
_LAZY = {
    "build": "registry", "dumps": "registry", "get_format": "registry", "load": "registry", "loads": "registry",
    "save": "registry", "Capability": "base", "Hooks": "base", "LexiconBase": "base", "FormatError": "errors",
    **{cls: module for module, cls in _WHERE.values()},
}

__all__ = ["FORMATS", "Capability", "FormatError", "Hooks", "LexiconBase", "build", "dumps",
           "get_format", "load", "loads", "save"]


__getattr__ = lazy_names(__name__, globals(), _LAZY)
