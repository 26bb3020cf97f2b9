"""Names a package offers but imports from its modules on first use (PEP 562), so that
importing the package costs almost nothing and a command loads only what it touches."""

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_names(package: str, namespace: dict[str, Any], where: dict[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: a name of ``where`` (name -> module under the
    package) is imported from that module on first use and kept in ``namespace`` (the
    package's globals); any other name is a submodule or an AttributeError."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(import_module(f"{package}.{module}"), name)
        return value

    return __getattr__
