"""The bulk pipeline gives, row for row, what the single-hand library gives:
lines parsed as whole byte arrays (two-character cards at single spaces) and
every other row (the single-hand parser) alike, for every rule set, line
ending and layout; and every output format says the same."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard import full_deck
from fivecard import evaluate
from fivecard import showdown
from fivecard.cli import main
from fivecard.core.errors import FivecardError
from fivecard.files.rows import line_row
from fivecard.files.writers import csv_field

CARDS = [c.code_str.upper() for c in full_deck()]


def pipeline_rows(path: Path, rules: str, decks: int) -> list[dict[str, object]]:
    out, err = io.StringIO(), io.StringIO()
    main(
        ["solve", str(path), "--json", "--rules", rules, "--decks", str(decks)],
        stdin=io.StringIO(""), stdout=out, stderr=err,
    )
    return [json.loads(line) for line in out.getvalue().splitlines()]


def library_rows(path: Path, rules: str, decks: int) -> list[dict[str, object]]:
    """The single-hand library, line by line: what each row must hold."""
    text = path.read_bytes().decode("utf-8-sig", "replace").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows: list[dict[str, object]] = []
    for number, line in enumerate(lines, 1):
        row = line_row(number, line)
        if row is None:
            continue
        if row.error is not None or any(not h.strip() for h in row.hands):
            rows.append({"line": number, "error": True})
            continue
        try:
            if len(row.hands) == 1:
                e = evaluate(row.hands[0], rules=rules)
                rows.append({"line": number, "strengths": [e.strength], "winners": None, "explanation": None})
            else:
                result = showdown(row.hands, rules=rules, decks=decks)
                rows.append({
                    "line": number,
                    "strengths": [e.strength for e in result.evaluations],
                    "winners": [i + 1 for i in result.winners],
                    "explanation": result.explanation,
                })
        except FivecardError:
            rows.append({"line": number, "error": True})
    return rows


def summary(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """What the pipeline's JSON rows say, in the library rows' terms."""
    out: list[dict[str, object]] = []
    for row in rows:
        if "error" in row:
            out.append({"line": row["line"], "error": True})
        else:
            hands = row["hands"]
            assert isinstance(hands, list)
            out.append({
                "line": row["line"],
                "strengths": [h["strength"] for h in hands],
                "winners": row["winners"],
                "explanation": row["explanation"],
            })
    return out


def mixed_file(tmp_path: Path, seed: int, rows: int = 3_000, newline: str = "\n") -> Path:
    rng = random.Random(seed)
    lines = []
    for _ in range(rows):
        cards = rng.sample(CARDS, 10)
        kind = rng.random()
        if kind < 0.80:
            line = " ".join(cards)
        elif kind < 0.85:
            line = " ".join(cards[:5]) + " | " + " ".join(cards[5:])
        elif kind < 0.88:
            line = " ".join(rng.sample(CARDS, 5))  # one hand: classified only
        elif kind < 0.91:
            shared = cards[:9] + [cards[0]]  # a card twice
            line = " ".join(shared)
        elif kind < 0.93:
            line = " ".join(cards).replace(cards[3], "1S", 1)
        elif kind < 0.95:
            line = "# a comment" if rng.random() < 0.5 else ""
        elif kind < 0.97:
            line = " ".join(c.lower() for c in cards)
        elif kind < 0.98:
            line = " ".join(cards).replace(cards[2][0], "10" if cards[2][0] == "T" else cards[2][0], 1)
        else:
            line = " ".join(cards[:9]) + " JK"
        lines.append(line)
    path = tmp_path / f"mixed{seed}.txt"
    body = newline.join(lines) + newline
    path.write_bytes((b"\xef\xbb\xbf" if seed % 2 else b"") + body.encode("utf-8"))
    return path


@pytest.mark.parametrize(
    ("seed", "rules", "decks", "newline"),
    [
        (1, "standard", 1, "\n"),
        (2, "standard", 2, "\r\n"),
        (3, "joker", 1, "\n"),
        (4, "semi", 1, "\n"),
        (5, "ace-king", 1, "\r\n"),
    ],
)
@pytest.mark.slow
def test_pipeline_equals_the_library(tmp_path: Path, seed: int, rules: str, decks: int, newline: str) -> None:
    path = mixed_file(tmp_path, seed, rows=1_500, newline=newline)
    assert summary(pipeline_rows(path, rules, decks)) == library_rows(path, rules, decks)


def test_a_file_without_a_final_newline(tmp_path: Path) -> None:
    path = tmp_path / "last.txt"
    path.write_text("AS KS QS JS TS 2C 3C 4C 5C 7D\n8C TS KC 9H 4S 7D 2S 5D 3S AC")
    assert summary(pipeline_rows(path, "standard", 1)) == library_rows(path, "standard", 1)


def test_csv_field() -> None:
    assert csv_field('say "hi", x') == '"say ""hi"", x"'
    assert csv_field("1,2") == '"1,2"'


@pytest.mark.parametrize(
    "head",
    [
        "AS KS QS JS TS\n",  # the first rows hold one hand: the header has one hand a row
        "AS KS QS JS TS | 2C 3C 4C 5C 7D | 8H 8D 9S 9C KH\n",  # three hands
        "AS " * 100_000 + "\n",  # one absurd row: 20,000 hands (the header stops at 10)
    ],
)
def test_lines_after_other_layouts_are_never_lost(tmp_path: Path, head: str) -> None:
    path = tmp_path / "layouts.txt"
    path.write_text(head + "8C TS KC 9H 4S 7D 2S 5D 3S AC\n" * 3)
    target = tmp_path / "out.csv"
    err = io.StringIO()
    main(["solve", str(path), "-o", str(target)], stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    written = target.read_text(encoding="utf-8")
    assert written.count("\n4,") == 1 and "4 rows:" in err.getvalue()
    assert summary(pipeline_rows(path, "standard", 1)) == library_rows(path, "standard", 1)


LINE_PARTS = [
    "8C TS KC 9H 4S 7D 2S 5D 3S AC",  # a clean Project Euler line
    "8c ts kc 9h 4s 7d 2s 5d 3s ac",
    "8C TS KC 9H 4S 7D 2S 5D 3S 8C",  # a card twice
    "8C TS KC 9H 4S 7D 2S 5D 3S A♣",
    "8C TS KC 9H 4S 7D 2S 5D 3S AX",  # 29 characters, a bad suit
    "8C TS KC 9H 4S 7D 2S 5D 3S  A",
    "8C TS KC 9H 4S|7D 2S 5D 3S AC",  # 29 characters, a separator
    "JK TS KC 9H 4S 7D 2S 5D 3S AC",
    "AS KS QS JS TS",
    "# comment",
    "",
    "   ",
    "8C TS KC 9H 4S 7D 2S 5D 3S AC ",
    "x" * 29,
    "é" * 29,
]


@settings(max_examples=40)
@given(
    st.lists(st.sampled_from(LINE_PARTS), min_size=1, max_size=30),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from(["standard", "joker", "semi"]),
    st.booleans(),
)
def test_pipeline_equals_the_library_on_random_files(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], newline: str, rules: str, final: bool
) -> None:
    tmp_path = tmp_path_factory.mktemp("fuzz")
    path = tmp_path / "fuzz.txt"
    path.write_bytes((newline.join(lines) + (newline if final else "")).encode("utf-8"))
    assert summary(pipeline_rows(path, rules, 1)) == library_rows(path, rules, 1)


def test_every_format_says_the_same(tmp_path: Path) -> None:
    """CSV, JSON Lines and the text table of one mixed file: the same
    lines, winners and explanations."""
    import csv

    path = mixed_file(tmp_path, 7, rows=600)
    json_rows = pipeline_rows(path, "standard", 1)
    out, err = io.StringIO(), io.StringIO()
    main(["solve", str(path), "--format", "csv"], stdin=io.StringIO(""), stdout=out, stderr=err)
    csv_rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [int(r["line"]) for r in csv_rows] == [r["line"] for r in json_rows]
    for c, j in zip(csv_rows, json_rows):
        if "error" in j:
            assert c["error"] == j["error"]
        else:
            winners = j["winners"]
            assert c["winner"] == ",".join(str(w) for w in winners) if isinstance(winners, list) else c["winner"] == ""
            assert c["explanation"] == (j["explanation"] or "")
    out = io.StringIO()
    main(["solve", str(path)], stdin=io.StringIO(""), stdout=out, stderr=io.StringIO())
    table = out.getvalue().splitlines()[1:-1]
    assert [int(line.split()[0]) for line in table] == [r["line"] for r in json_rows]
    for line, j in zip(table, json_rows):
        if "error" in j:
            assert line.split("error: ", 1)[1] == j["error"]
        elif j["explanation"]:
            assert line.endswith(str(j["explanation"]))


@pytest.mark.parametrize("rules", ["standard", "ace-king", "semi", "joker", "one-joker", "deuces-wild", "one-eyed-jacks"])
@pytest.mark.parametrize("as_json", [False, True])
def test_classify_of_standard_input_equals_classify_of_arguments(rules: str, as_json: bool) -> None:
    """Hands from standard input go through the bulk pipeline, hands as
    arguments through the single-hand library: the same output, byte for
    byte (every spelling, jokers, blank lines skipped)."""
    rng = random.Random(rules)
    deck = [c.code_str for c in full_deck()] + ["JK"] * (2 if rules == "joker" else 0)
    spellings: list[Callable[[str], str]] = [str, str.upper, str.lower, lambda c: c.replace("T", "10"), lambda c: c[0] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}.get(c[1:], c[1:])]
    hands = []
    for _ in range(300):
        cards = rng.sample(deck[:52], 5)
        if rules == "joker" and rng.random() < 0.4:
            cards[rng.randrange(5)] = "JK"
        spell = rng.choice(spellings)
        hands.append(" ".join(spell(c) if c != "JK" else c for c in cards))
    options = ["--rules", rules] + (["--json"] if as_json else [])
    out_a, out_b = io.StringIO(), io.StringIO()
    code_a = main(["classify", *options, *hands], stdin=io.StringIO(""), stdout=out_a, stderr=io.StringIO())
    stdin = io.StringIO("\n".join(hands[:150]) + "\n\n" + "\n".join(hands[150:]) + "\n")
    code_b = main(["classify", *options, "-"], stdin=stdin, stdout=out_b, stderr=io.StringIO())
    assert code_a == code_b == 0
    assert out_a.getvalue() == out_b.getvalue()


def test_classify_of_standard_input_stops_at_a_bad_hand() -> None:
    err = io.StringIO()
    out = io.StringIO()
    code = main(["classify", "-"], stdin=io.StringIO("AS KS QS JS TS\n\nJK 7H 7D 7S 7C\n"), stdout=out, stderr=err)
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue().startswith("fivecard: error: hand 2: card 1 is a joker")
    assert err.getvalue().rstrip().endswith("(use --rules joker)")


def test_reading_ahead_keeps_order_raises_in_place_and_stops_with_its_reader() -> None:
    """The read-ahead thread of solve hands over every chunk in order, an
    error where it happened (after the chunks before it), and stops when the
    reader stops early."""
    import threading

    from fivecard.files.solve import _ahead

    def items(fail_at: int | None) -> Iterator[int]:
        for i in range(10):
            if i == fail_at:
                raise OSError("disk gone")
            yield i

    prepared: list[int] = []
    assert list(_ahead(items(None), prepared.append)) == list(range(10))
    assert prepared == list(range(10))
    seen = []
    with pytest.raises(OSError, match="disk gone"):
        for item in _ahead(items(4)):
            seen.append(item)
    assert seen == [0, 1, 2, 3]
    before = threading.active_count()
    reader = _ahead(iter(range(1_000_000)))
    assert next(reader) == 0
    reader.close()  # the caller stops: the thread ends too
    assert threading.active_count() <= before


@pytest.mark.parametrize("rules", ["standard", "ace-king", "semi", "joker", "one-joker", "deuces-wild", "one-eyed-jacks"])
@pytest.mark.parametrize("fmt", ["csv", "jsonl", "text", "parquet"])
@pytest.mark.slow
def test_lines_of_plain_cards_are_written_as_any_line(tmp_path: Path, rules: str, fmt: str) -> None:
    """A chunk whose every line is two-character cards at single spaces is
    laid out as byte matrices; the same rows among other lines go the
    general way: the rows come out the same."""
    rng = random.Random(7)
    deck = [c.code_str.upper() for c in full_deck()] + (["JK", "JK"] if rules == "joker" else [])
    plain = []
    for _ in range(300):
        cards = rng.sample(deck, 10)
        plain.append(" ".join(cards))
    (tmp_path / "plain.txt").write_text("\n".join(plain) + "\n")
    (tmp_path / "mixed.txt").write_text("\n".join(plain) + "\nA♠ K♠ Q♠ J♠ 10♠ | 2♣ 3♣ 4♣ 5♣ 7♦\n")
    outputs = []
    for name in ("plain", "mixed"):
        target = tmp_path / f"{name}.{fmt}"
        code = main(["solve", str(tmp_path / f"{name}.txt"), "-o", str(target), "--rules", rules],
                    stdout=io.StringIO(), stderr=io.StringIO())
        assert code in (0, 1)
        if fmt == "parquet":
            import pyarrow.parquet as pq

            outputs.append([json.dumps(row, sort_keys=True) for row in pq.read_table(target).to_pylist()])
        else:
            outputs.append(target.read_text(encoding="utf-8").splitlines())
    assert len(outputs[1]) == len(outputs[0]) + 1
    assert outputs[1][:-1] == outputs[0]
