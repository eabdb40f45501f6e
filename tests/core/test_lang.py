"""Languages: which one is chosen, and the catalogs against the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fivecard import FivecardError, language
from fivecard.core.lang import ENGLISH, LANGUAGES, LOCALE_FOLDER, accept_language, environment_language

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("tag", "code"),
    [("ja", "ja"), ("ja_JP.UTF-8", "ja"), ("ru-RU", "ru"), ("RU", "ru"), ("en_GB.utf8", "en"), ("ru_RU@euro", "ru")],
)
def test_a_language_is_named_by_code_locale_or_tag(tag: str, code: str) -> None:
    assert language(tag).code == code
    assert language(tag) is language(code)


def test_no_language_is_english_and_unknown_ones_are_errors() -> None:
    assert language(None) is ENGLISH
    with pytest.raises(FivecardError, match=r"unknown language 'fr': fivecard speaks en \(English\)"):
        language("fr")
    with pytest.raises(TypeError):
        language(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "ru_RU.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8", "LANGUAGE": "fr:ru"}, "ru"),
        ({"LANGUAGE": "ja"}, "en"),  # LANGUAGE counts only when a locale is set (as in GNU gettext)
    ],
)
def test_the_environment_chooses_as_command_line_tools_do(environ: dict[str, str], code: str) -> None:
    assert environment_language(environ).code == code


@pytest.mark.parametrize(
    ("header", "code"),
    [
        (None, "en"),
        ("", "en"),
        ("ja", "ja"),
        ("fr-CH, fr;q=0.9, ru;q=0.8, en;q=0.7", "ru"),
        ("en;q=0.5, ja;q=0.9", "ja"),
        ("ru;q=0, ja", "ja"),
        ("ru;q=abc, ja;q=0.1", "ja"),
        ("de, fr", "en"),
        ("x" * 100_000, "en"),
    ],
)
def test_a_browser_header_chooses_by_weight_then_order(header: str | None, code: str) -> None:
    assert accept_language(header).code == code


def test_a_language_pickles_as_itself() -> None:
    import pickle

    for code in LANGUAGES:
        assert pickle.loads(pickle.dumps(language(code))) is language(code)


def test_english_loads_no_catalog() -> None:
    code = "import fivecard, sys; fivecard.showdown(['AS AD KH 7C 2D', 'AH AC QS JD 9H']); print('gettext' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_message_is_translated_with_the_same_fields() -> None:
    """The catalogs hold every message the code says, translated into every
    language, with the English fields, and the compiled catalogs are current
    (scripts/messages.py check)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "messages.py"), "check"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def _messages_script(monkeypatch: pytest.MonkeyPatch, folder: Path) -> object:
    """scripts/messages.py, reading the catalogs in ``folder``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("messages_script", ROOT / "scripts" / "messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "po_path", lambda lang, domain: folder / lang / "LC_MESSAGES" / f"{domain}.po")
    monkeypatch.setattr(module, "ROOT", folder)
    return module


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda text: text.replace('msgstr "{winner} старше, чем {loser}"', 'msgstr ""'), "not translated"),
        (lambda text: text.replace('msgstr "{winner} старше, чем {loser}"', 'msgstr "{winner} старше, чем {looser}"'),
         "differ from the English"),
        (lambda text: text.replace('msgstr "у обеих {category} {ranks:gen}"', 'msgstr "у обеих {category} {ranks:dat}"'),
         "unknown spec"),
        (lambda text: text.replace('msgctxt "suit"\nmsgid "spades"\nmsgstr "пики"\n', ""), "missing"),
        (lambda text: text.replace('msgid "{winner} beats {loser}"', '#, fuzzy\nmsgid "{winner} beats {loser}"'), "fuzzy"),
        (lambda text: text + '\nmsgid "a message the code does not say"\nmsgstr "x"\n', "no longer in the code"),
    ],
)
def test_the_catalog_check_finds_each_kind_of_fault(
    change: object, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from fivecard.core.lang import LOCALE_FOLDER

    shutil.copytree(LOCALE_FOLDER, tmp_path, dirs_exist_ok=True)
    po = tmp_path / "ru" / "LC_MESSAGES" / "core.po"
    text = po.read_text(encoding="utf-8")
    changed = change(text)  # type: ignore[operator]
    assert changed != text
    po.write_text(changed, encoding="utf-8")
    script = _messages_script(monkeypatch, tmp_path)
    found = list(script.problems())  # type: ignore[attr-defined]
    assert any(said in line for line in found), found


def test_a_stale_compiled_catalog_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from fivecard.core.lang import LOCALE_FOLDER

    shutil.copytree(LOCALE_FOLDER, tmp_path, dirs_exist_ok=True)
    (tmp_path / "ja" / "LC_MESSAGES" / "core.mo").write_bytes(b"")
    script = _messages_script(monkeypatch, tmp_path)
    assert any("not compiled" in line for line in script.problems())  # type: ignore[attr-defined]


def test_every_built_in_rule_set_s_title_and_summary_is_said_in_each_language() -> None:
    """The catalog knows each built-in rule set's title and summary as the
    rule set says them (a summary changed in one place and not the other
    would go on in English); a rule set made by a user keeps its own."""
    from fivecard.core.rules import RULE_SETS
    from fivecard.core.words import rules_summary, rules_title

    for name, rules in RULE_SETS.items():
        title = rules.title or name
        assert rules_title(name, title) == title and rules_summary(name, rules.summary) == rules.summary
        for code in LANGUAGES:
            if code != "en":
                assert rules_title(name, title, code) != title, (name, code)
                assert rules_summary(name, rules.summary, code) != rules.summary, (name, code)
    assert rules_summary("standard", "my own rules", "ru") == "my own rules"
    assert rules_summary("mine", "my own rules", "ja") == "my own rules"


def test_no_russian_message_groups_thousands_with_a_comma() -> None:
    """Russian reads 1,000 as one with three decimals: no Russian message
    writes a figure so, neither as text nor with a ``{field:,}`` spec (a
    figure is grouped by number_text, or written whole)."""
    from babel.messages.pofile import read_po

    found = []
    for path in sorted((Path(LOCALE_FOLDER) / "ru" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as stream:
            catalog = read_po(stream)
        for message in catalog:
            for text in message.string if isinstance(message.string, (list, tuple)) else [message.string]:
                if text and (re.search(r"\d,\d{3}\b", text) or re.search(r"\{\w+:,\}", text)):
                    found.append((path.name, text))
    assert found == []
