"""The parts of the manual made from the code, so that they cannot drift
from it: each command's ``--help`` (made from ``cli/commands.toml``, the one
place its texts live), the package's layers and modules (from the modules'
own docstrings).

The pages in ``docs/`` call these from cog blocks; ``cog -r -I scripts
docs/**/*.md`` writes them again and the tests run ``cog --check``, which
fails when a page's copy differs from what the code makes now.
"""

from __future__ import annotations

import ast
import io
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "fivecard"
WIDTH = 88  # the width --help is wrapped to on the pages (a terminal's is its own)


def command_help(name: str = "") -> str:
    """``fivecard [NAME] --help`` as a terminal of :data:`WIDTH` columns
    shows it, in a fenced block."""
    from fivecard.cli import main

    screen = io.StringIO()
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        code = main([*([name] if name else []), "--help"], stdin=io.StringIO(""), stdout=screen, stderr=screen)
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    if code != 0:
        raise RuntimeError(f"fivecard {name} --help exited {code}: {screen.getvalue()}")
    return f"```text\n$ fivecard {name + ' ' if name else ''}--help\n{screen.getvalue().rstrip()}\n```\n"


def _summary(path: Path) -> str:
    """A module's docstring, its first sentence on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    sentence = text.split(". ")[0].rstrip(".")
    # Sphinx roles as code: :mod:`~fivecard.core.cards` is `cards`, :func:`f` is `f`
    sentence = re.sub(r":\w+:`~?([^`]+)`", lambda m: "`" + (m[1].rsplit(".", 1)[-1] if "~" in m[0] else m[1]) + "`", sentence)
    return sentence.replace("``", "`")


def layers() -> str:
    """The layers, bottom first, each with its modules and what each
    module's docstring says it is (a Markdown list)."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from test_layout import LAYERS  # the order the layer test holds the code to

    out = []
    for layer in LAYERS:
        folder = SRC / layer
        out.append(f"* **`{layer}/`**: {_summary(folder / '__init__.py')}.")
        for path in sorted(folder.rglob("*.py")):
            if path.name == "__init__.py" and path.parent == folder:
                continue
            name = path.relative_to(folder).as_posix()
            name = name.removesuffix("/__init__.py") + "/" if name.endswith("/__init__.py") else name
            out.append(f"    * `{name}`: {_summary(path)}.")
    return "\n".join(out) + "\n"


#: The library's other entry points, beside the package face: each module's
#: ``__all__`` is its public surface.
ENTRY_MODULES = [
    "fivecard.vector.batch",
    "fivecard.files.solve",
    "fivecard.play.deal",
    "fivecard.play.advise",
    "fivecard.play.paytables",
    "fivecard.modeloff.mark",
]


def reference() -> str:
    """The library reference: every name of the package face, by the module
    that defines it, then the entry-point modules (mkdocstrings blocks)."""
    import fivecard

    homes: dict[str, list[str]] = {}
    for name in sorted(fivecard.__all__, key=str.lower):
        homes.setdefault(fivecard._HOME[name], []).append(name)
    out = ["## The package face: `import fivecard`", ""]
    for home, names in sorted(homes.items()):
        out += [f"### `fivecard.{home}`", ""]
        out += [f"::: fivecard.{home}.{name}\n    options:\n      heading_level: 4\n" for name in names]
    for module in ENTRY_MODULES:
        out += [f"## `{module}`", "", f"::: {module}", "    options:", "      show_root_heading: false", "      heading_level: 3", ""]
    return "\n".join(out).rstrip() + "\n"


def paytable_catalogue() -> str:
    """The pay tables fivecard ships, as a Markdown table: each one's name
    for ``--paytable``, the game, its rule set, its exact return under
    perfect play, the return of its shipped strategy chart, and the return
    a source published (with the source)."""
    from fivecard.play.chart import shipped_chart
    from fivecard.play.paytables import ALIASES, catalogue

    aliases = {name: alias for alias, name in ALIASES.items()}
    lines = [
        "| `--paytable` | game | rules | return (perfect play) | the chart's return | published (source) |",
        "|---|---|---|---:|---:|---|",
    ]
    for table in catalogue():
        assert table.exact is not None
        name = f"`{table.name}`" + (f" (`{aliases[table.name]}`)" if table.name in aliases else "")
        chart = shipped_chart(table.name)
        published = f"{table.published} ({table.source})" if table.published else "none found"
        lines.append(
            f"| {name} | {table.title} | `{table.rules or 'standard'}` | {float(table.exact * 100):.4f}% "
            f"| {float(chart.chart_return * 100):.4f}% | {published} |"
        )
    return "\n".join(lines)


def category_names() -> str:
    """Every category of the built-in rule sets with its name in each
    language (from the catalogs), strongest first; lowball's own last."""
    from fivecard import get_rules, rule_names
    from fivecard.core.lang import LANGUAGES
    from fivecard.core.rules import Category
    from fivecard.core.words import category_name

    high: list[Category] = []
    low: list[Category] = []
    for name in rule_names():
        rules = get_rules(name)
        above = None
        for category in reversed(rules.ladder):  # strongest first
            if category.name not in {c.name for c in high + low}:
                if rules.low:
                    low.append(category)
                else:
                    at = 0 if above is None else [c.name for c in high].index(above) + 1
                    high.insert(at, category)
            above = category.name
    lines = ["| id | " + " | ".join(LANGUAGES.values()) + " |", "|---" * (len(LANGUAGES) + 1) + "|"]
    for category in high + low:
        names = [category_name(category.name, category.label, code) for code in LANGUAGES]
        lines.append(f"| `{category.name}` | " + " | ".join(names) + " |")
    return "\n".join(lines) + "\n"


def card_names() -> str:
    """The ranks (as a card shows them, and in words) and the suits, in
    each language (from the catalogs)."""
    from fivecard import Rank, Suit
    from fivecard.core.lang import LANGUAGES
    from fivecard.core.words import rank_letter, rank_name, suit_name

    def said(rank: Rank, code: str) -> str:
        letter, word = rank_letter(rank, code), str(rank_name(rank, code))
        return letter if word == letter else f"{letter} {word}"

    lines = ["| " + " | ".join(LANGUAGES.values()) + " |", "|---" * len(LANGUAGES) + "|"]
    for rank in sorted(Rank, reverse=True):
        lines.append("| " + " | ".join(said(rank, c) for c in LANGUAGES) + " |")
    for suit in Suit:
        lines.append("| " + " | ".join(f"{suit.symbol} {suit_name(suit, c)}" for c in LANGUAGES) + " |")
    return "\n".join(lines) + "\n"
