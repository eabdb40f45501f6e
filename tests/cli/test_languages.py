"""The command in Japanese and Russian: how the language is chosen (--lang,
else the environment as command-line tools read it), that every command
takes --lang, that the bulk writers say exactly what the single-hand path
says, and that a file's machine fields never change with the language.
(The outputs themselves are recorded: ``lang-*`` in test_command_outputs.)"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random

import pytest

from fivecard.cli import main
from fivecard.cli.registry import COMMANDS, parser
from fivecard.core.evaluate import class_descriptions, describe, evaluate
from fivecard.core.lang import LANGUAGES, language
from fivecard.core.lookup import tables_for
from fivecard.core.report import Painter, evaluation_json
from fivecard.core.rules import RULE_SETS, get_rules
from fivecard.core.showdown import showdown
from fivecard.core.words import category_name
from fivecard.files.solve import classify_stream, solve_lines

SPOKEN = [code for code in LANGUAGES if code != "en"]
SHOWDOWN = ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]


def run(monkeypatch: pytest.MonkeyPatch, argv: list[str], **environment: str | None) -> tuple[int, str, str]:
    """``fivecard ARGV`` in this process, with the locale's variables as
    given (None or absent: unset)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environment.get(name)
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_every_command_takes_lang() -> None:
    subcommands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(subcommands) == set(COMMANDS)
    for name, sub in subcommands.items():
        options = {flag: action for action in sub._actions for flag in action.option_strings}
        assert "--lang" in options, name
        assert set(getattr(options["--lang"], "complete_words")) == set(LANGUAGES), name


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "ja_JP.UTF-8"}, "ru"),
        ({"LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ja"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "fr:ru:ja"}, "ru"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
    ],
    ids=lambda value: ",".join(f"{k}={v}" for k, v in value.items()) if isinstance(value, dict) else value,
)
def test_the_environment_chooses_the_language(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], expected: str
) -> None:
    code, out, err = run(monkeypatch, ["compare", *SHOWDOWN], **environment)
    said = "\n".join(Painter(color=False, lang=expected).showdown(showdown(SHOWDOWN))) + "\n"
    assert (code, out, err) == (0, said, "")


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("locale", ["ja_JP.UTF-8", "ru_RU.UTF-8", "C"])
def test_lang_beats_the_environment(monkeypatch: pytest.MonkeyPatch, code: str, locale: str) -> None:
    chosen = run(monkeypatch, ["compare", "--lang", code, *SHOWDOWN], LC_ALL=locale)
    plain = run(monkeypatch, ["compare", *SHOWDOWN], LANG={"en": "C", "ja": "ja_JP.UTF-8", "ru": "ru_RU.UTF-8"}[code])
    assert chosen == plain and chosen[0] == 0


@pytest.mark.parametrize("given", ["fr", "xx_YY.UTF-8", "", "english"])
def test_an_unknown_lang_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    code, out, err = run(monkeypatch, ["classify", "--lang", given, "AS KS QS JS TS"], LANG="ru_RU.UTF-8")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("fivecard: error: argument --lang: unknown language")
    assert "en (English), ja (日本語) and ru (Русский)" in err


def test_lang_takes_a_locale_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, ["compare", "--lang", "ru_RU.UTF-8", *SHOWDOWN]) == run(
        monkeypatch, ["compare", "--lang", "ru", *SHOWDOWN]
    )


@pytest.mark.parametrize("code", SPOKEN)
@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_bulk_descriptions_are_the_single_descriptions_of_every_class(code: str, rules: str) -> None:
    ruleset = get_rules(rules)
    tables = tables_for(ruleset)
    descriptions = class_descriptions(ruleset, code)
    assert len(descriptions) == tables.size + 1
    assert descriptions[1:] == tuple(describe(c, code) for c in tables.classes())
    assert class_descriptions(ruleset, code) is descriptions  # made once per rule set and language
    english = class_descriptions(ruleset)
    assert descriptions != english and english == class_descriptions(ruleset, "en")


def _dealt(rules: str, count: int, seed: int) -> list[str]:
    deck = [c.code_str for c in get_rules(rules).deck()]
    chance = random.Random(seed)
    return [" ".join(chance.sample(deck, 5)) for _ in range(count)]


@pytest.mark.parametrize("code", SPOKEN)
@pytest.mark.parametrize("rules", ["standard", "joker", "deuces-wild", "ace-to-five"])
def test_bulk_classify_says_what_each_hand_says_alone(code: str, rules: str) -> None:
    hands = _dealt(rules, 600, seed=len(rules))
    painter = Painter(color=False, lang=code)
    out = io.StringIO()
    classify_stream([io.BytesIO("\n".join(hands).encode())], out, rules=rules, painter=painter)
    alone = [painter.evaluation(evaluate(h, rules=rules)) for h in hands]
    assert out.getvalue().splitlines() == alone
    out = io.StringIO()
    classify_stream([io.BytesIO("\n".join(hands).encode())], out, rules=rules, painter=painter, as_json=True)
    assert json.loads(out.getvalue()) == [evaluation_json(evaluate(h, rules=rules), h, lang=code) for h in hands]


def _machine(value: object, path: str = "") -> object:
    """A JSON value without its words for people (``name``,
    ``description``, ``explanation``): what must not change with the language."""
    if isinstance(value, dict):
        return {k: _machine(v, f"{path}.{k}") for k, v in value.items() if k not in ("name", "description", "explanation")}
    if isinstance(value, list):
        return [_machine(v, path) for v in value]
    return value


@pytest.mark.parametrize("code", SPOKEN)
def test_files_keep_their_machine_fields_in_every_language(code: str) -> None:
    lines = [f"{a} {b}\n".encode() for a, b in zip(_dealt("standard", 300, 1), _dealt("standard", 300, 2))]
    for fmt in ("jsonl", "csv"):
        english = b"".join(solve_lines(lines, format=fmt)).decode()
        said = b"".join(solve_lines(lines, format=fmt, lang=code)).decode()
        if fmt == "jsonl":
            rows = [json.loads(line) for line in english.splitlines()]
            spoken = [json.loads(line) for line in said.splitlines()]
            assert [_machine(r) for r in rows] == [_machine(r) for r in spoken]
            for row, said_row in zip(rows, spoken):
                if "error" in row:  # (two hands of one deck share a card: the same error row)
                    continue
                outcome = showdown([h["input"] for h in row["hands"]])
                assert said_row["explanation"] == outcome.explain(code)
                for hand, said_hand in zip(row["hands"], said_row["hands"]):
                    assert said_hand == evaluation_json(evaluate(hand["input"]), hand["input"], lang=code)
        else:
            english_rows = list(csv.reader(io.StringIO(english)))
            said_rows = list(csv.reader(io.StringIO(said)))
            header = english_rows[0]
            assert said_rows[0] == header  # the header is for machines: English in every language
            words = [i for i, name in enumerate(header) if name.endswith(("category", "explanation"))]
            assert len(words) == 3
            for english_row, said_row in zip(english_rows[1:], said_rows[1:], strict=True):
                assert [c for i, c in enumerate(english_row) if i not in words] == [
                    c for i, c in enumerate(said_row) if i not in words
                ]
                if english_row[-1]:  # an error row
                    continue
                hands = english_row[1].split(" ")
                outcome = showdown([" ".join(hands[:5]), " ".join(hands[5:])])
                assert said_row[words[-1]] == outcome.explain(code)
                for place, hand in zip(words[:2], outcome.evaluations):
                    category = hand.hand_class.category
                    assert said_row[place] == category_name(category.name, category.label, code) != english_row[place]


def test_english_loads_no_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    english = language("en")
    english._catalogs.clear()
    assert run(monkeypatch, ["compare", *SHOWDOWN], LANG="C")[0] == 0
    assert english._catalogs == {}


@pytest.mark.parametrize("code", SPOKEN)
@pytest.mark.parametrize(
    "hands",
    [["1S 2C 3C 4C 5C"], ["AS KS QS JS TS", "AS KX 3C 4C 5C"], ["AS KS QS JS TS", "AS AS 3C 4C 5C"], ["AS 2C 3C 4C"]],
)
def test_a_bad_hand_is_said_in_the_language_as_the_bulk_path_says_it(
    monkeypatch: pytest.MonkeyPatch, code: str, hands: list[str]
) -> None:
    from fivecard.core.errors import FivecardError
    from fivecard.core.words import error_text

    with pytest.raises(FivecardError) as caught:
        classify_stream(hands, io.StringIO())
    said = error_text(caught.value, code)
    assert said != str(caught.value)
    for argv in (["classify", "--lang", code, *hands], ["classify", "--json", "--lang", code, *hands]):
        assert run(monkeypatch, argv) == (2, "", f"fivecard: error: {said}\n")
    assert run(monkeypatch, ["classify", *hands]) == (2, "", f"fivecard: error: {caught.value}\n")
