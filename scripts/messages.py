"""The message catalogs: extract the messages from the code, update each
language's catalog, compile them, and check them.

    python scripts/messages.py extract   # the code's messages into every .po
    python scripts/messages.py compile   # each .po into its .mo
    python scripts/messages.py check     # what the tests check; exit 1 if wrong

Each layer that speaks is one gettext domain (``fivecard.core.lang.DOMAINS``),
extracted from its own folder with Babel: Python (``_``, ``gettext``,
``ngettext``, ``pgettext`` and the project's ``phrase``, ``phrase_n``, ``phrase_p``,
``N_``, ``NP_``), the web app's Jinja2 templates and its JavaScript
(``t``, ``tn``, ``tp``). ``extract`` keeps every translation made, marks a
changed message fuzzy (the check fails on it until a person looks) and drops
messages the code no longer says.

The check fails on: a message of the code missing or untranslated in any
language, a fuzzy or obsolete one, a translation whose fields differ from
the English (``{hands}``; a field's spec, ``{high:gen}``, is the language's
own grammar), a spec no value knows, and a ``.mo`` older than its ``.po``.
"""

from __future__ import annotations

import io
import string
from datetime import datetime, timezone
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "fivecard"
sys.path.insert(0, str(ROOT / "src"))

from fivecard.core.lang import DOMAINS, LANGUAGES, LOCALE_FOLDER  # noqa: E402

#: Babel's keywords: the argument positions of the message (``c`` a context).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "NP_": ((1, "c"), 2),
    "phrase": None,
    "phrase_n": (1, 2),
    "phrase_p": ((1, "c"), 2),
    # the web app's JavaScript (static/common.js: t, tn, tp)
    "t": None,
    "tn": (1, 2),
    "tp": ((1, "c"), 2),
}
#: What each domain is extracted from, under src/fivecard.
SOURCES = {
    "core": [("core/**.py", "python"), ("vector/**.py", "python")],  # (the vector layer says little: core's words)
    "play": [("play/**.py", "python")],
    "files": [("files/**.py", "python"), ("modeloff/**.py", "python")],
    "web": [
        ("web/**.py", "python"),
        ("web/templates/**.html", "jinja2"),
        ("web/static/**.js", "javascript"),
    ],
    "cli": [("cli/**.py", "python")],
}
#: The grammar a field's spec may name (see fivecard.core.words.RankName).
SPECS = {"", "gen", "acc", "letter", "n", "lower"}
LANGS = [code for code in LANGUAGES if code != "en"]
#: Dates in the catalogs' headers do not change with each extraction.
_FIXED = datetime(2026, 1, 1, tzinfo=timezone.utc)
HEADER = (
    "# fivecard's messages: one language, one domain of the code (see scripts/messages.py).\n"
    "# Edit the translations here; `python scripts/messages.py extract` adds and removes\n"
    "# messages as the code changes, and `compile` makes the .mo the app reads.\n#"
)


def po_path(lang: str, domain: str) -> Path:
    return Path(LOCALE_FOLDER) / lang / "LC_MESSAGES" / f"{domain}.po"


def extracted(domain: str) -> Catalog:
    """The messages the code of one domain says."""
    catalog = Catalog(project="fivecard", domain=domain, charset="utf-8", creation_date=_FIXED)
    folders = {pattern.split("/")[0] for pattern, _ in SOURCES[domain]}
    for folder in sorted(folders):
        methods = [
            (pattern.split("/", 1)[1], method) for pattern, method in SOURCES[domain] if pattern.startswith(folder + "/")
        ]
        options = {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
        for filename, line, message, comments, context in extract_from_dir(
            PACKAGE / folder,
            method_map=methods,
            options_map=options,
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        ):
            catalog.add(message, None, [(f"{folder}/{filename}", line)], auto_comments=comments, context=context)
    return catalog


def fields(text: str) -> tuple[set[str], set[str]]:
    """A template's field names and the specs it gives them."""
    names: set[str] = set()
    specs: set[str] = set()
    for _, name, spec, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(name.split(".")[0].split("[")[0])
            specs.add(spec or "")
    return names, specs


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def _strings(message: Message) -> list[str]:
    found = message.string
    return [s or "" for s in found] if isinstance(found, (list, tuple)) else [found or ""]


def problems() -> Iterator[str]:
    """Every way the catalogs fall short of the code."""
    for domain in DOMAINS:
        code = extracted(domain)
        for lang in LANGS:
            path = po_path(lang, domain)
            where = path.relative_to(ROOT)
            if not path.exists():
                if len(code):
                    yield f"{where}: missing ({len(code)} messages to translate)"
                continue
            with path.open("rb") as stream:
                catalog = read_po(stream, locale=lang)
            for message in code:
                if not message.id:
                    continue
                found = catalog.get(message.id, message.context)
                label = f"{where}: {_ids(message)[0]!r}" + (f" ({message.context})" if message.context else "")
                if found is None:
                    yield f"{label}: missing"
                    continue
                if found.fuzzy:
                    yield f"{label}: fuzzy (check the translation, then remove the flag)"
                strings = _strings(found)
                if not all(strings):
                    yield f"{label}: not translated"
                    continue
                english = [fields(i)[0] for i in _ids(message)]
                if "python-format" in message.flags and not any(english):
                    continue
                for text in strings:
                    names, specs = fields(text)
                    if names not in english:
                        yield f"{label}: fields {sorted(names)} differ from the English {sorted(english[-1])}"
                    if not specs <= SPECS | fields(_ids(message)[-1])[1]:
                        yield f"{label}: unknown spec in {text!r} (known: {sorted(SPECS - {''})})"
            for message in catalog:
                if message.id and code.get(message.id, message.context) is None:
                    yield f"{where}: {_ids(message)[0]!r}: no longer in the code (run extract)"
            for message in catalog.obsolete.values():
                yield f"{where}: {_ids(message)[0]!r}: obsolete (run extract)"
            mo = path.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != compiled(catalog):
                yield f"{mo.relative_to(ROOT)}: not compiled from its .po (run compile)"


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def extract() -> None:
    for domain in DOMAINS:
        code = extracted(domain)
        for lang in LANGS:
            path = po_path(lang, domain)
            if path.exists():
                with path.open("rb") as stream:
                    catalog = read_po(stream, locale=lang)
            else:
                catalog = Catalog(
                    locale=lang, domain=domain, project="fivecard", charset="utf-8", header_comment=HEADER
                )
            catalog.update(code, no_fuzzy_matching=False)
            catalog.revision_date = catalog.creation_date = _FIXED  # no churn in the files' headers
            catalog.obsolete.clear()
            path.parent.mkdir(parents=True, exist_ok=True)
            out = io.BytesIO()
            write_po(out, catalog, width=100, omit_header=False, sort_output=False, ignore_obsolete=True)
            path.write_bytes(out.getvalue())


def compile_all() -> None:
    for domain in DOMAINS:
        for lang in LANGS:
            path = po_path(lang, domain)
            if path.exists():
                with path.open("rb") as stream:
                    catalog = read_po(stream, locale=lang)
                path.with_suffix(".mo").write_bytes(compiled(catalog))


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        extract()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = list(problems())
        for line in found:
            print(line)
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
