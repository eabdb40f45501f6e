"""The layout shows the architecture: five layers, each importing only the
layers above it (core < bulk < play < web < cli), and no import cycles among
modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "fivecard"
LAYERS = ["core", "bulk", "play", "web", "cli"]


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
                if node.module is None or module in ("fivecard", "fivecard.core", "fivecard.bulk", "fivecard.play", "fivecard.web", "fivecard.cli"):
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
    assert loose == ["fivecard", "fivecard.__main__", "fivecard.errors"]


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
