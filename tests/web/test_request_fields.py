"""The web API names things, it never opens paths: every request field that
is text, and every query and path parameter, of every endpoint (from the
app's own OpenAPI document, and the pages' parameters beside it) is listed
here with what it is, and the list must be complete. Each is sent paths on
this machine (a file with known content, a directory, a device, a link to a
device, a missing path): no file is opened or looked at (the interpreter's
audit events, and ``os.stat`` and kin, are watched during each request),
and the answers do not differ between the paths but by the path itself.

Nor does any field name a rule set made to order (``standard+wild(...)``,
whose tables are built on first use: CPU seconds, memory, a cache file):
each is sent such names; those that name a rule set refuse them (422, or
the page's error), and no request makes a rule set or puts a file in the
table cache.

Every number of every endpoint (again from the OpenAPI document) is a whole
number with a range: spelt any other way (JSON ``true``, a string, a
fraction; ``+5``, ``5.0``, ``1_0``, full-width digits in a query, a path or
a header) or too long to read, it is 422 with a sentence naming the field.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import urllib.parse
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

import fivecard.core.rules
from fivecard.core import lookup_cache as tablecache
from fivecard.core.rules import RULE_SETS
from fivecard.files.paytable_file import load_paytable
from fivecard.play.paytables import PAYTABLES, PayTableError
from fivecard.web.app import create_app
from fivecard.web.store import MAX_STORED

ROYAL = "AS KS QS JS TS"
PAIR = "2C 2D 3H 4S 5C"

#: Every text field of a request body ("hands[]": the items of a list), and
#: every query and path parameter, by endpoint: what it is. ``rule set``: a
#: built-in rule set's name or alias; ``name``: one of the app's other
#: built-in names (pay tables, export formats);
#: ``choice``: one of a few words; ``cards``: text read as cards; ``text``:
#: text shown or kept as it is; ``id``: a game's or table's id, looked up in
#: the database; ``number``: a whole number.
FIELDS: dict[tuple[str, str, str], str] = {
    ("POST /api/evaluate", "body", "hand"): "cards",
    ("POST /api/evaluate", "body", "rules"): "rule set",
    ("POST /api/evaluate", "body", "board"): "cards",
    ("POST /api/compare", "body", "hands[]"): "cards",
    ("POST /api/compare", "body", "rules"): "rule set",
    ("POST /api/compare", "body", "board"): "cards",
    ("POST /api/advise", "body", "hand"): "cards",
    ("POST /api/advise", "body", "rules"): "rule set",
    ("POST /api/advise", "body", "paytable"): "name",
    ("POST /api/games", "body", "rules"): "rule set",
    ("GET /api/games/{game_id}", "path", "game_id"): "id",
    ("POST /api/games/{game_id}/actions", "path", "game_id"): "id",
    ("POST /api/games/{game_id}/actions", "body", "action"): "choice",
    ("GET /api/games/{game_id}/hint", "path", "game_id"): "id",
    ("GET /api/games/{game_id}/hint", "query", "top"): "number",
    ("POST /api/games/{game_id}/settings", "path", "game_id"): "id",
    ("POST /api/tables", "body", "rules"): "rule set",
    ("POST /api/tables", "body", "tie"): "choice",
    ("GET /api/tables/{table_id}", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/seats", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/seats", "body", "name"): "text",
    ("POST /api/tables/{table_id}/seats", "body", "request_id"): "text",
    ("DELETE /api/tables/{table_id}/seats/{seat}", "path", "table_id"): "id",
    ("DELETE /api/tables/{table_id}/seats/{seat}", "path", "seat"): "number",
    ("DELETE /api/tables/{table_id}/seats/{seat}", "query", "request_id"): "text",
    ("POST /api/tables/{table_id}/rounds", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/rounds", "body", "request_id"): "text",
    ("POST /api/tables/{table_id}/deal", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/deal", "body", "request_id"): "text",
    ("POST /api/tables/{table_id}/draw", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/draw", "body", "request_id"): "text",
    ("POST /api/tables/{table_id}/close", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/close", "body", "request_id"): "text",
    ("POST /api/tables/{table_id}/end", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/end", "body", "request_id"): "text",
    ("POST /api/tables/{table_id}/chat", "path", "table_id"): "id",
    ("POST /api/tables/{table_id}/chat", "body", "text"): "text",
    ("POST /api/tables/{table_id}/chat", "body", "request_id"): "text",
    ("GET /api/tables/{table_id}/events", "path", "table_id"): "id",
    ("GET /api/tables/{table_id}/events", "query", "after"): "number",
    ("GET /api/tables/{table_id}/events", "header", "last-event-id"): "number",
    ("GET /api/tables/{table_id}/export", "path", "table_id"): "id",
    ("GET /api/tables/{table_id}/qr.svg", "path", "table_id"): "id",
    ("GET /api/tables/{table_id}/export", "query", "format"): "name",
    ("GET /api/strategy/{paytable_id}", "path", "paytable_id"): "name",
    ("POST /api/machines", "body", "paytable"): "name",
    ("GET /api/machines/{machine_id}", "path", "machine_id"): "id",
    ("POST /api/machines/{machine_id}/actions", "path", "machine_id"): "id",
    ("POST /api/machines/{machine_id}/actions", "body", "action"): "choice",
    ("POST /api/machines/{machine_id}/actions", "body", "request_id"): "text",
    ("GET /api/machines/{machine_id}/log", "path", "machine_id"): "id",
    ("GET /api/machines/{machine_id}/log.csv", "path", "machine_id"): "id",
    ("GET /api/video-poker/{paytable_id}", "path", "paytable_id"): "name",
}
#: The pages (not in the OpenAPI document): their parameters, and the
#: app's other routes, which take none.
PAGE_FIELDS: dict[tuple[str, str, str], str] = {
    ("GET /check", "query", "rules"): "rule set",
    ("GET /check", "query", "hand"): "cards",
    ("GET /play/{game_id}", "path", "game_id"): "id",
    ("GET /tables/{table_id}", "path", "table_id"): "id",
    ("GET /strategy/{paytable_id}", "path", "paytable_id"): "name",
    ("GET /video-poker/{machine_id}", "path", "machine_id"): "id",
}
OTHER_ROUTES = {
    "/", "/tables", "/strategy", "/api/strategy", "/video-poker", "/openapi.json", "/static",
    "/manifest.webmanifest", "/sw.js", "/offline",  # the installed app's: no parameters
}  # fmt: skip

#: A request that the app would take, per endpoint, before a field is set to a path.
BODIES: dict[str, dict[str, Any]] = {
    "POST /api/evaluate": {"hand": ROYAL},
    "POST /api/compare": {"hands": [ROYAL, PAIR]},
    "POST /api/advise": {"hand": ROYAL, "top": 1},
    "POST /api/games": {},
    "POST /api/games/{game_id}/actions": {"action": "start"},
    "POST /api/machines": {"paytable": "jacks-or-better-9-6"},
    "POST /api/machines/{machine_id}/actions": {"action": "deal"},
    "POST /api/tables": {},
    "POST /api/tables/{table_id}/seats": {"name": "Ann"},
    "POST /api/tables/{table_id}/chat": {"text": "hello"},
}


def request_fields(schema: dict[str, Any]) -> set[tuple[str, str, str]]:
    """Every text field of every request body, and every query and path
    parameter, in an OpenAPI document."""
    found: set[tuple[str, str, str]] = set()

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        return node

    def body(operation: str, node: dict[str, Any], name: str) -> None:
        node = resolve(node)
        for option in node.get("anyOf", []):
            body(operation, option, name)
        kind = node.get("type")
        if kind == "object":
            for key, value in node.get("properties", {}).items():
                body(operation, value, f"{name}.{key}" if name else key)
        elif kind == "array":
            body(operation, node["items"], name + "[]")
        elif kind == "string":
            found.add((operation, "body", name))

    for path, operations in schema["paths"].items():
        for method, spec in operations.items():
            operation = f"{method.upper()} {path}"
            for parameter in spec.get("parameters", []):
                found.add((operation, parameter["in"], parameter["name"]))
            content = spec.get("requestBody", {}).get("content", {})
            for media in content.values():
                body(operation, media["schema"], "")
    return found


# --- the paths, and watching for their use ----------------------------------------------------


class Watch:
    """Records any use of the planted paths: audit events whose arguments
    name one (``open`` and kin), and calls of ``os.stat``, ``os.lstat`` and
    ``os.access`` (not audited) on one."""

    def __init__(self, roots: list[str]) -> None:
        self.roots = roots
        self.seen: list[str] | None = None
        sys.addaudithook(self._audit)  # (an audit hook stays for the process: it records only while watching)

    def _names_a_root(self, value: object) -> bool:
        if isinstance(value, (str, bytes, os.PathLike)):
            try:
                text = os.fsdecode(value)
            except (TypeError, ValueError):
                return False
            return any(root in text for root in self.roots)
        return False

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if self.seen is not None and any(self._names_a_root(a) for a in args):
            self.seen.append(f"{event}{args!r}")

    def wrap(self, name: str, function: Any) -> Any:
        def watched(path: Any, *args: Any, **kwargs: Any) -> Any:
            if self.seen is not None and self._names_a_root(path):
                self.seen.append(f"os.{name}({path!r})")
            return function(path, *args, **kwargs)

        return watched


@pytest.fixture(scope="module")
def planted() -> Iterator[dict[str, str]]:
    """A short folder in /tmp (so that every path fits every field's length
    limit) with a file of known content, a directory, a link to a device
    and a name that is missing; and a device."""
    folder = tempfile.mkdtemp(prefix="fc", dir="/tmp")
    paths = {
        "file": f"{folder}/plant",
        "directory": f"{folder}/dir00",
        "link to a device": f"{folder}/zero0",
        "missing": f"{folder}/gone0",
        "device": "/dev/zero",
    }
    Path(paths["file"]).write_text(
        json.dumps({"name": "CANARY", "pays": {"royal_flush": 1}, "db_password": "hunter2"})
    )
    os.mkdir(paths["directory"])
    os.symlink("/dev/zero", paths["link to a device"])
    yield paths
    for name in ("file", "link to a device"):
        os.unlink(paths[name])
    os.rmdir(paths["directory"])
    os.rmdir(folder)


_WATCH: list[Watch] = []


@pytest.fixture
def watch(planted: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Watch:
    if not _WATCH:
        _WATCH.append(Watch([os.path.dirname(planted["file"]), "/dev/zero"]))
    watching = _WATCH[0]
    for name in ("stat", "lstat", "access"):
        monkeypatch.setattr(os, name, watching.wrap(name, getattr(os, name)))
    return watching


# --- the test ------------------------------------------------------------------------------


def forms(path: str) -> list[str]:
    """How an answer may echo a path: as it is, and escaped for JSON or a URL."""
    return sorted({path, json.dumps(path)[1:-1], urllib.parse.quote(path, safe=""), urllib.parse.quote(path)}, key=len, reverse=True)


def ask(app: FastAPI, operation: str, where: str, field: str, value: Any, raw: str | None = None) -> tuple[int, str, list[str]]:
    """The request with ``field`` set to ``value`` (any JSON value in a
    body, text elsewhere; ``raw``: the JSON text sent for it instead), from
    a browser of its own with a game and a table of its own: the answer's
    status and body (none for an event stream, which is let go), and the ids."""
    method, template = operation.split(" ", 1)
    with TestClient(app) as client:
        ids: list[str] = []
        values: dict[str, str] = {"seat": "1"}
        if "{game_id}" in template:
            values["game_id"] = client.post("/api/games", json={}).json()["id"]
            ids.append(values["game_id"])
        if "{table_id}" in template:
            values["table_id"] = client.post("/api/tables", json={}).json()["id"]
            ids.append(values["table_id"])
        if "{machine_id}" in template:
            values["machine_id"] = client.post("/api/machines", json={"paytable": "jacks-or-better-9-6", "seed": 1}).json()["id"]
            ids.append(values["machine_id"])
        body = json.loads(json.dumps(BODIES.get(operation, {})))
        query: dict[str, str] = {}
        headers: dict[str, str] = {}
        if where == "body":
            if field.endswith("[]"):
                body[field[:-2]] = [value, *body.get(field[:-2], [])[1:]]
            else:
                body[field] = value
        elif where == "path":
            values[field] = urllib.parse.quote(value, safe="")
        elif where == "header":
            headers[field] = value
        else:
            assert where == "query", where
            query[field] = value
        content = None
        if method != "GET":  # a change says JSON, with a body or (DELETE) without
            headers["content-type"] = "application/json"
        if method == "POST":
            content = json.dumps(body) if raw is None else json.dumps(body).replace(json.dumps(value), raw)
        url = template.format(**values)
        with client.stream(
            method, url, content=None if content is None else content.encode(), params=query,
            headers={name: text.encode() for name, text in headers.items()},  # (as sent: UTF-8)
        ) as response:  # fmt: skip
            streaming = response.headers.get("content-type", "").startswith("text/event-stream")
            text = "" if streaming else response.read().decode()
    return response.status_code, text, ids


def send(app: FastAPI, operation: str, where: str, field: str, value: str) -> tuple[int, str, list[str]]:
    """:func:`ask`, with the value and the ids replaced in the answer's body."""
    status, text, ids = ask(app, operation, where, field, value)
    for form in forms(value):
        text = text.replace(form, "<path>")
    for known in ids:
        text = text.replace(known, "<id>")
    return status, text, ids


def test_the_list_of_request_fields_is_complete(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", allow_hosts=["testserver"])
    with TestClient(app) as client:
        listed = request_fields(client.get("/openapi.json").json())
    assert sorted(listed - set(FIELDS)) == [], "a new request field: say what it is in FIELDS"
    assert sorted(set(FIELDS) - listed) == [], "a field FIELDS names is gone"
    schema_paths = {op.split(" ", 1)[1] for op, _, _ in FIELDS}
    pages = {op.split(" ", 1)[1] for op, _, _ in PAGE_FIELDS}
    routes = {str(getattr(route, "path", "")) for route in app.routes}
    assert routes - schema_paths == pages | OTHER_ROUTES, "a new page or route: list its parameters in PAGE_FIELDS"


def test_the_watch_sees_a_file_read(planted: dict[str, str], watch: Watch) -> None:
    """The command line's reader does read files: the watch sees it."""
    watch.seen = []
    try:
        with pytest.raises(PayTableError, match="db_password"):
            load_paytable(planted["file"])
    finally:
        seen, watch.seen = watch.seen, None
    assert any(event.startswith("open") for event in seen)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(tmp_path_factory.mktemp("data"), allow_hosts=["testserver"])


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.parametrize(("field"), sorted({**FIELDS, **PAGE_FIELDS}), ids=" ".join)
@pytest.mark.slow
def test_no_request_field_opens_a_path(
    field: tuple[str, str, str], planted: dict[str, str], watch: Watch, app: FastAPI
) -> None:
    operation, where, name = field
    answers: dict[str, tuple[int, str]] = {}
    for what, path in planted.items():
        watch.seen = []
        try:
            status, text, _ = send(app, operation, where, name, path)
        finally:
            seen, watch.seen = watch.seen, None
        assert seen == [], f"{operation} {name}={path!r} ({what}) touched the path: {seen}"
        for secret in ("CANARY", "hunter2", "db_password"):
            assert secret not in text
        answers[what] = (status, text)
    first = answers["file"]
    assert all(answer == first for answer in answers.values()), answers


#: Rule sets made to order: a rank, cards, odd spellings; none built in this process before.
CUSTOM_RULES = ["standard+wild(AS 7)", "standard+wild(3h 8c kd)", " STANDARD + wild ( 9 ) "]


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.parametrize(("field"), sorted({**FIELDS, **PAGE_FIELDS}), ids=" ".join)
@pytest.mark.slow
def test_no_request_field_makes_a_rule_set(
    field: tuple[str, str, str], app: FastAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    operation, where, name = field
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv(tablecache.ENVIRONMENT, str(cache))
    made: list[object] = []
    making = fivecard.core.rules.wild_rules

    def watched(cards: Any) -> Any:
        made.append(cards)
        return making(cards)

    monkeypatch.setattr(fivecard.core.rules, "wild_rules", watched)
    for value in CUSTOM_RULES:
        status, text, _ = send(app, operation, where, name, value)
        assert made == [], f"{operation} {name}={value!r} made a rule set"
        if (FIELDS | PAGE_FIELDS)[field] == "rule set":
            sentence = "unknown rule set <path>; choose one of: " + ", ".join(RULE_SETS)
            if operation.startswith("GET /check"):  # the page says what is wrong
                assert status == 200 and sentence.replace("<path>", "&#39;<path>&#39;") in text, text
            else:
                assert status == 422 and json.loads(text) == {"detail": f"{name}: " + sentence.replace("<path>", "'<path>'")}
    # (a machine a test makes for its routes keeps its catalogue game's counts, as any machine does)
    games = {f"{t.rules_to_play().name}-pay-kinds-" for t in PAYTABLES.values()}
    made_files = [p for p in cache.iterdir() if not any(p.name.startswith(g) for g in games)]
    assert made_files == [], f"{operation} {name}: a file in the table cache"


# --- numbers: whole numbers only, in every field ------------------------------------------------


def number_fields(schema: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Every number of every request body (``keep[]``: a list's items), and
    every number among the query, path and header parameters, in an OpenAPI
    document: its schema (``minimum``, ``maximum``, ``type``)."""
    found: dict[tuple[str, str, str], dict[str, Any]] = {}

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        return node

    def walk(key: tuple[str, str, str], node: dict[str, Any]) -> None:
        node = resolve(node)
        for option in node.get("anyOf", []):
            walk(key, option)
        kind = node.get("type")
        if kind == "object":
            for name, value in node.get("properties", {}).items():
                walk((key[0], key[1], f"{key[2]}.{name}" if key[2] else name), value)
        elif kind == "array":
            walk((key[0], key[1], key[2] + "[]"), node["items"])
        elif kind in ("integer", "number"):
            found[key] = node

    for path, operations in schema["paths"].items():
        for method, spec in operations.items():
            operation = f"{method.upper()} {path}"
            for parameter in spec.get("parameters", []):
                walk((operation, parameter["in"], parameter["name"]), parameter["schema"])
            for media in spec.get("requestBody", {}).get("content", {}).values():
                walk((operation, "body", ""), media["schema"])
    return found


@pytest.fixture(scope="module")
def numbers(app: FastAPI) -> dict[tuple[str, str, str], dict[str, Any]]:
    with TestClient(app) as client:
        return number_fields(client.get("/openapi.json").json())


def test_every_number_the_api_takes_is_whole_and_bounded(numbers: dict[tuple[str, str, str], dict[str, Any]]) -> None:
    """Every number is an integer with a range within what SQLite keeps (so
    a number too long to read, taken as one over every bound, is refused)."""
    assert len(numbers) >= 11, sorted(numbers)  # the walk finds them (seven in bodies, four parameters)
    assert {f for f in numbers if f[2] == "threshold"} == DECIMALS
    for field, node in numbers.items():
        assert node["type"] == ("number" if field in DECIMALS else "integer"), field
        assert -float(MAX_STORED) <= node["minimum"] <= node["maximum"] <= float(MAX_STORED), field  # (the document may write them as floats)


#: The numbers that are decimals, not whole: the trainer's threshold, a
#: percent of the bet (0.5 warns of mistakes costing more than half a
#: percent). Bounded as the others; true, text and the infinities refused.
DECIMALS = {("POST /api/machines", "body", "threshold"), ("POST /api/machines/{machine_id}/actions", "body", "threshold")}

#: A number in a body spelt as no whole number (JSON ``true``, a string, a
#: fraction, a string with a space), and in a query, a path or a header
#: (a sign, a fraction, an underscore, a space, full-width digits, hex).
SPELT_IN_A_BODY: dict[str, Callable[[int], Any]] = {
    "true": lambda n: True, "text": str, "fraction": float, "spaced": lambda n: f" {n}",
}  # fmt: skip
SPELT_IN_TEXT = {"plus": "+{}", "fraction": "{}.0", "underscore": "1_{}", "spaced": " {}", "full-width": "\uff11", "hex": "0x{}"}


def _good(node: dict[str, Any]) -> int:
    """A number the field takes: its default, else its least."""
    default = node.get("default")
    return default if isinstance(default, int) else int(node["minimum"])


def _send_number(app: FastAPI, field: tuple[str, str, str], value: Any, raw: str | None = None) -> tuple[int, str]:
    status, text, _ = ask(app, *field, value, raw)
    return status, text


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.slow
def test_a_number_field_takes_whole_numbers_only(app: FastAPI, numbers: dict[tuple[str, str, str], dict[str, Any]]) -> None:
    """``true`` was read as 1 (a seed of ``true`` was seed 1), ``"12"``,
    ``" 12"`` and ``12.0`` as 12; a query's ``+5``, ``5.0``, ``1_0`` and
    `` 5`` as numbers (measured on ``fivecard serve``: each answered 200 or
    201). Every number, in every field: 422 with a sentence naming it."""
    for field, node in sorted(numbers.items()):
        where, name = field[1], field[2].removesuffix("[]")
        good = _good(node)
        status, text = _send_number(app, field, good if where == "body" else str(good))
        assert status != 422, (field, good, text)
        spellings = (
            {what: spell(good) for what, spell in SPELT_IN_A_BODY.items()}
            if where == "body"
            else {what: spell.format(good) for what, spell in SPELT_IN_TEXT.items()}
        )
        for what, value in spellings.items():
            if field in DECIMALS and what == "fraction":
                assert _send_number(app, field, 0.5)[0] != 422, field
                continue
            status, text = _send_number(app, field, value)
            assert status == 422, f"{field} {what} {value!r} was taken: {status}"
            detail = json.loads(text)["detail"]
            assert detail.startswith(f"{name}: ") or f".{name}: " in detail or f"{name}.0: " in detail, (field, detail)
            expected = "Input should be a valid integer" if where == "body" else "a whole number is written in digits (0-9) only"
            if field in DECIMALS:
                expected = "Input should be a valid number"
            assert expected in detail, (field, what, detail)


@pytest.mark.usefixtures("no_rate_limits")
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_number_too_long_to_read_is_422_as_any_number_out_of_range(
    app: FastAPI, numbers: dict[tuple[str, str, str], dict[str, Any]], sign: str
) -> None:
    """A 5,000-digit number is over Python's limit on reading integers:
    FastAPI answered 400 'There was an error parsing the body'. Every number,
    in every field, so long is out of its range (422)."""
    digits = sign + "1" * 5000
    for field in sorted(numbers):
        if field[1] == "body":
            status, text = _send_number(app, field, "__a long number__", raw=digits)
        else:
            status, text = _send_number(app, field, digits)
        bound = "greater than or equal to" if sign else "less than or equal to"
        assert status == 422 and bound in json.loads(text)["detail"], (field, status, text[:200])
