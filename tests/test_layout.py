"""The package's architecture, checked: one wing per concept, and a wing imports only from the
wings below it (nothing imports the CLI), so the tree is the picture of the layers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import lexc

PACKAGE = Path(lexc.__file__).resolve().parent

# From the ground floor up; a module may import its own wing and any wing of a lower rank.
WINGS = ["foundations", "native", "formats", "lexicons", "board", "movegen", "equity", "game", "leavemodel", "engine",
         "bench", "cli"]
FOUNDATIONS = {"lexc", "lexc._version", "lexc.errors", "lexc.alphabet", "lexc.ruleset", "lexc.wordlist", "lexc.pattern",
               "lexc.limits", "lexc.textfile", "lexc.lazy", "lexc.plural", "lexc.parallel", "lexc.__main__"}


def wing_of(module: str) -> str:
    """The wing a dotted module name belongs to."""
    if module in FOUNDATIONS:
        return "foundations"
    parts = module.split(".")
    assert parts[0] == "lexc" and len(parts) > 1 and parts[1] in WINGS, f"{module} is in no wing"
    return parts[1]


def modules() -> list[tuple[str, Path]]:
    """Every module of the installed package, with its dotted name."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path))
    return found


def imports_of(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) for every lexc import in a module, at any depth of the code."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "lexc"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "lexc":
                continue
            if not node.module or (node.level and target in ("lexc", package)):  # from . import a, b: a, b are modules
                found += [(node.lineno, f"{target}.{a.name}") if f"{target}.{a.name}" in MODULES
                          else (node.lineno, target) for a in node.names]
            else:
                found.append((node.lineno, target))
    return found


MODULES = {name for name, _ in modules()}


def test_every_module_is_in_a_wing_and_the_top_level_holds_only_foundations():
    top = sorted(name for name in MODULES if name.count(".") == 1)
    assert [name for name in top if name not in FOUNDATIONS and name.split(".")[1] not in WINGS] == []
    for name in MODULES:
        wing_of(name)


@pytest.mark.parametrize("module,path", modules(), ids=[name for name, _ in modules()])
def test_a_wing_imports_only_from_wings_below_it(module, path):
    mine = WINGS.index(wing_of(module))
    if module == "lexc" or module == "lexc.__main__":  # the public API and python -m lexc sit on top of it all
        return
    for line, target in imports_of(module, path):
        theirs = WINGS.index(wing_of(target))
        assert theirs <= mine, f"{path.name}:{line}: {module} ({WINGS[mine]}) imports {target} ({WINGS[theirs]})"


SUBPACKAGES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))


def test_every_subpackage_is_a_wing():
    assert [name for name in SUBPACKAGES if name not in WINGS] == []


@pytest.mark.parametrize("wing", SUBPACKAGES)
def test_every_wing_says_what_it_is_for_and_what_it_may_import(wing):
    init = PACKAGE / wing / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert doc, f"lexc/{wing}/__init__.py has no docstring"
    assert "import" in doc, f"lexc/{wing}/__init__.py does not say what it may import"


def test_the_fuzzer_is_not_shipped():
    assert not (PACKAGE / "fuzz.py").exists()
    checkout = PACKAGE.parent.parent  # src/lexc in a checkout (make check)
    assert (checkout / "tools" / "fuzz.py").exists() or not (checkout / "pyproject.toml").exists()


def test_every_error_class_derives_from_lexc_error():
    """One base for every error lexc raises for bad input: the CLI maps errors by class."""
    import importlib
    import inspect

    from lexc.errors import LexcError

    found = {}
    for module, _ in modules():
        if module.startswith("lexc.cli") or module == "lexc.__main__":
            continue
        for name, value in vars(importlib.import_module(module)).items():
            if inspect.isclass(value) and issubclass(value, Exception) and name.endswith("Error"):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    assert len(found) >= 15
    assert sorted(name for name, cls in found.items()
                  if not issubclass(cls, LexcError) and cls.__module__.startswith("lexc")) == []
