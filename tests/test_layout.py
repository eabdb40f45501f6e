"""The tree shows the architecture: seven layers, each a folder, each
importing only the layers below it, no module importing the package face,
and no import cycles among modules.

From the bottom: ``core`` (one hand: cards, rules, lookup, evaluation,
showdowns, errors) < ``vector`` (numpy over many hands and parts; no files)
< ``play`` (deals, the advisor and pay tables, the games and their solvers;
no file read or written) < ``files`` (readers, the pipeline, writers) <
``modeloff`` (marking a spreadsheet, the test grid) < ``web`` < ``cli``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "fivecard"
LAYERS = ["core", "vector", "play", "files", "modeloff", "web", "cli"]


def _imports(path: Path) -> set[str]:
    """The fivecard modules a module imports (at any depth of its code)."""
    package = path.relative_to(SRC.parent).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("fivecard"):
                if node.module is None or module in ("fivecard", *(f"fivecard.{layer}" for layer in LAYERS)):
                    found.update(f"{module}.{alias.name}" for alias in node.names)
                else:
                    found.add(module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("fivecard"))
    return found


def _modules() -> dict[str, Path]:
    return {
        ".".join(p.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in SRC.rglob("*.py")
    }


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_is_in_a_layer() -> None:
    loose = sorted(m for m in _modules() if _layer(m) is None)
    assert loose == ["fivecard", "fivecard.__main__"]


@pytest.mark.slow
def test_layers_import_only_the_layers_above() -> None:
    wrong = []
    for module, path in _modules().items():
        mine = _layer(module)
        if mine is None:
            continue
        for target in _imports(path):
            theirs = _layer(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_no_layer_imports_the_package_face() -> None:
    """Inside the layers, names come from the module that defines them: the
    face (``fivecard``) is for users, and importing it from below would tie
    every layer to all of them."""
    face = {"fivecard", *(f"fivecard.{name}" for name in ("__version__",))}
    wrong = sorted(
        f"{module} imports {target}"
        for module, path in _modules().items()
        if _layer(module) is not None
        for target in _imports(path)
        if target in face or (target.startswith("fivecard.") and target.count(".") == 1 and _layer(target) is None)
    )
    assert wrong == []


@pytest.mark.slow
def test_no_import_cycles() -> None:
    modules = _modules()
    graph = {m: {t for t in _imports(p) if t in modules and t != m} for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                pytest.fail("import cycle: " + " -> ".join(trail[trail.index(nxt):] + [nxt]) if nxt in trail else nxt)
            if nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for module in graph:
        if module not in state:
            visit(module, [module])
