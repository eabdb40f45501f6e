"""The video-poker machine's API (``/api/machines``) and pages
(``/video-poker``): every route for every role (only the owner learns
anything), catalogue ids only (nothing opened for any other text), the
log equal to the library's for the same seed and holds, the CSV inert and
equal to the log's rows, a request id applied once, the store's bounds,
and a restart that continues exactly."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import urllib.parse
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import watch_opens

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from fivecard.play.machine import LOG_COLUMNS, HandRecord, Machine, SessionLog, machine_view
from fivecard.play.paytables import PAYTABLES, catalogue
from fivecard.web.app import create_app
from fivecard.web.friends_api import Exports, RateLimit
from fivecard.web.store import MACHINES, OWNER_COOKIE, Capacity, TableGameStore, secret_hash

JACKS = "jacks-or-better-9-6"
DEUCES = "deuces-wild-full-pay"


def unlimited() -> RateLimit:
    return RateLimit(rate=1e9, burst=1e9, create_rate=1e9, create_burst=1e9, advise_rate=1e9, advise_burst=1e9)


def make_app(data: Path, capacity: Capacity = Capacity()) -> FastAPI:
    return create_app(data, capacity=capacity, limit=unlimited(), allow_hosts=["testserver"])


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return make_app(tmp_path / "data")


def new_machine(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/machines", json={"paytable": JACKS, **body})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    assert answer.headers["location"] == f"/api/machines/{data['id']}"
    return data


def act(client: TestClient, machine_id: str, **body: Any) -> dict[str, Any]:
    answer = client.post(f"/api/machines/{machine_id}/actions", json=body)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def holds_for(number: int, machine: Machine) -> list[int]:
    """A session's holds (0-based), mistakes among them: the best hold, nothing, the first card."""
    if number % 3 == 0:
        best = machine.deal_values().best
        return [p for p in range(5) if best >> p & 1]
    return [] if number % 3 == 1 else [0]


def play_both(client: TestClient, machine_id: str, twin: Machine, hands: int) -> list[HandRecord]:
    """Play ``hands`` hands through the API and on the library's twin,
    checking each step; the twin's records."""
    records = []
    for number in range(1, hands + 1):
        dealt = act(client, machine_id, action="deal")
        twin_dealt = twin.deal()
        assert [c["code"] for c in dealt["hand"]["cards"]] == [c.code_str for c in twin_dealt.cards]
        keep = holds_for(number, twin)
        drawn = act(client, machine_id, action="draw", hold=[p + 1 for p in keep])
        twin_drawn = twin.draw(keep)
        assert drawn["events"] == [twin_drawn.to_json()]
        assert drawn["last"]["verdict"]["text"] == twin_drawn.verdict.text()
        assert drawn["credits"] == twin.credits
        records.append(twin_drawn.record)
    return records


# --- the routes and the roles ---------------------------------------------------------------


def routes(machine_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    base = f"/api/machines/{machine_id}"
    return [
        ("GET", base, None),
        ("GET", f"{base}/log", None),
        ("GET", f"{base}/log.csv", None),
        *[("POST", f"{base}/actions", {"action": a}) for a in ("deal", "void", "cash_in")],
        ("POST", f"{base}/actions", {"action": "draw", "hold": [1]}),
        ("POST", f"{base}/actions", {"action": "bet", "coins": 1}),
        ("POST", f"{base}/actions", {"action": "settings", "trainer": False}),
        ("POST", f"{base}/actions", {"action": "replay", "hand": 1}),
    ]


def test_every_route_is_the_owners_alone(app: FastAPI, tmp_path: Path) -> None:
    owner, other, stranger = TestClient(app), TestClient(app), TestClient(app)
    made = new_machine(owner, seed=11)
    machine_id = made["id"]
    act(owner, machine_id, action="deal")
    act(owner, machine_id, action="draw", hold=[1, 2])
    new_machine(other)  # another browser, with a machine (and a cookie) of its own
    before = owner.get(f"/api/machines/{machine_id}").json()
    secrets = {machine_id, *(c["code"] for c in before["last"]["dealt"])}
    for client, status in ((other, 403), (stranger, 403)):
        for method, path, body in routes(machine_id):
            answer = client.request(method, path, json=body)
            assert answer.status_code == status, (method, path, answer.text)
            detail = answer.json()["detail"]
            assert set(answer.json()) == {"detail"}
            assert not any(code in detail for code in secrets - {machine_id}), detail
            assert "credits" not in detail
        for method, path, body in routes("no-such-machine"):
            assert client.request(method, path, json=body).status_code in (403, 404)
    assert owner.get(f"/api/machines/{machine_id}").json() == before  # nothing changed
    for method, path, body in routes(machine_id):
        assert owner.request(method, path, json=body).status_code in (200, 409), (method, path)
    for method, path, body in routes("no-such-machine"):
        assert owner.request(method, path, json=body).status_code == 404


def test_a_stranger_is_told_it_has_no_machines(app: FastAPI) -> None:
    owner, stranger = TestClient(app), TestClient(app)
    machine_id = new_machine(owner)["id"]
    detail = stranger.get(f"/api/machines/{machine_id}").json()["detail"]
    assert detail.startswith("this browser has no machines")
    other = TestClient(app)
    new_machine(other)
    assert other.get(f"/api/machines/{machine_id}").json()["detail"] == f"machine {machine_id!r} belongs to another browser"


OTHERS = [
    "no-such-game",
    "jacks-or-better",  # an alias: a machine takes catalogue ids alone
    "Jacks-or-Better-9-6",
    "jacks-or-better-9-6.json",
    "../catalogue/jacks-or-better-9-6",
    "/etc/passwd",
    "..",
    "",
    "x" * 41,
]


@pytest.fixture
def opened() -> Iterator[list[str]]:
    yield from watch_opens()


@pytest.mark.parametrize("name", OTHERS)
def test_a_game_not_in_the_catalogue_is_refused_and_opens_nothing(app: FastAPI, name: str, opened: list[str]) -> None:
    client = TestClient(app)
    answer = client.post("/api/machines", json={"paytable": name})
    assert answer.status_code in (404, 422), answer.text
    assert opened == []
    assert OWNER_COOKIE not in client.cookies  # nothing was made


@pytest.mark.slow
def test_every_catalogue_game_makes_a_machine(app: FastAPI) -> None:
    client = TestClient(app)
    for table in catalogue():
        made = new_machine(client, paytable=table.name, coins=1, trainer=False, show_best=True, threshold=2.5)
        assert made["game"] == {"id": table.name, "title": table.title, "rules": made["game"]["rules"]}
        assert made["coins"] == 1 and made["max_coins"] == table.coins
        assert made["settings"] == {"trainer": False, "show_best": True, "threshold": 2.5}
        assert [line["key"] for line in made["paytable"]["lines"]] == [k for k, _, _ in table.coin_columns()]
    assert set(PAYTABLES) == {t.name for t in catalogue()}


@pytest.mark.parametrize(
    "body",
    [
        {"paytable": JACKS, "coins": 0},
        {"paytable": JACKS, "threshold": 101},
        {"paytable": JACKS, "threshold": -1},
        {"paytable": JACKS, "trainer": "yes"},
        {"paytable": JACKS, "seed": -1},
        {"paytable": JACKS, "seed": 2**63},
        {"paytable": JACKS, "coins": "5"},
        {},
    ],
)
def test_bad_settings_are_422(app: FastAPI, body: dict[str, Any]) -> None:
    assert TestClient(app).post("/api/machines", json=body).status_code == 422


def test_bad_actions_are_refused_and_change_nothing(app: FastAPI) -> None:
    client = TestClient(app)
    machine_id = new_machine(client, seed=3)["id"]
    before = client.get(f"/api/machines/{machine_id}").json()
    for body, status in (
        ({"action": "draw", "hold": [1]}, 409),  # no hand dealt
        ({"action": "replay", "hand": 1}, 409),  # no hand played
        ({"action": "bet", "coins": 6}, 409),  # more than the game takes
        ({"action": "draw", "hold": [6]}, 422),
        ({"action": "draw", "hold": [0]}, 422),
        ({"action": "settings", "threshold": 100.5}, 422),
        ({"action": "shuffle"}, 422),
    ):
        answer = client.post(f"/api/machines/{machine_id}/actions", json=body)
        assert answer.status_code == status, (body, answer.text)
    assert client.get(f"/api/machines/{machine_id}").json() == before


def test_after_a_void_the_bet_waits_for_the_hand_dealt_again(app: FastAPI) -> None:
    """The cards of a hand voided are seen: its bet cannot change until it
    is dealt again and drawn (the page's bet buttons are off: ``can.bet``)."""
    client = TestClient(app)
    machine_id = new_machine(client, seed=3, coins=1)["id"]
    dealt = act(client, machine_id, action="deal")
    voided = act(client, machine_id, action="void")
    assert voided["can"]["bet"] is False
    answer = client.post(f"/api/machines/{machine_id}/actions", json={"action": "bet", "coins": 5})
    assert answer.status_code == 409 and "dealt again at its bet of 1 coin" in answer.json()["detail"]
    again = act(client, machine_id, action="deal")
    assert again["hand"] == dealt["hand"] and again["credits"] == dealt["credits"]
    assert act(client, machine_id, action="draw", hold=[])["can"]["bet"] is True


# --- playing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("paytable", [JACKS, DEUCES])
def test_the_log_is_the_librarys_for_the_same_seed_and_holds(app: FastAPI, paytable: str) -> None:
    client = TestClient(app)
    machine_id = new_machine(client, paytable=paytable, seed=2024)["id"]
    twin = Machine(paytable, seed=2024)
    play_both(client, machine_id, twin, 12)
    log = client.get(f"/api/machines/{machine_id}/log").json()
    assert log == twin.log().to_json()  # the log from the kept hands is the machine's own tally
    assert client.get(f"/api/machines/{machine_id}").json()["log"] == log
    assert log["hands"] == 12 and log["mistakes"] >= 4


def test_the_csv_is_the_logs_rows_and_inert(app: FastAPI) -> None:
    client = TestClient(app)
    machine_id = new_machine(client, seed=99)["id"]
    twin = Machine(JACKS, seed=99)
    records = play_both(client, machine_id, twin, 9)
    answer = client.get(f"/api/machines/{machine_id}/log.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"].startswith("attachment;")
    rows = list(csv.reader(io.StringIO(answer.text)))
    expected = SessionLog.of(twin.paytable.title, records).rows()
    assert rows[0] == list(LOG_COLUMNS)
    assert rows[1:] == [[str(c) for c in row] for row in expected]
    assert len(rows) == 10
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def _played_in_the_store(data: Path, hands: int) -> tuple[TestClient, str]:
    """A browser and its machine with ``hands`` hands played, kept as the
    app keeps them (played through the store, not request by request)."""
    client = TestClient(make_app(data))
    machine_id = new_machine(client, seed=4, coins=1)["id"]
    store: TableGameStore[Machine] = TableGameStore(str(data / "games.sqlite3"), MACHINES)
    owner = secret_hash(client.cookies[OWNER_COOKIE])
    for _ in range(hands):

        def hand(machine: Machine) -> tuple[None, list[dict[str, Any]]]:
            dealt = machine.deal().to_json()
            return None, [Machine.kept_event(e) for e in (dealt, machine.draw([0]).to_json())]

        store.act(machine_id, owner, hand)
    store.close()
    return client, machine_id


def _reads(monkeypatch: pytest.MonkeyPatch, wait: threading.Event | None = None) -> list[int]:
    """How many events each read of the store's events found (each read
    held until ``wait`` is set, if given)."""
    read: list[int] = []
    real = TableGameStore.events_after

    def events_after(self: TableGameStore[Any], *args: Any, **kwargs: Any) -> Any:
        if wait is not None:
            assert wait.wait(10)
        found = real(self, *args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(TableGameStore, "events_after", events_after)
    return read


def test_the_log_is_the_machines_tally_and_reads_no_hands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /log`` (no rate limit, no turn) read and summed every hand the
    machine had played: 0.9 s of the server's time a request at 10,000
    hands. The machine keeps the log's figures (its tally and biggest
    mistakes) itself: the answer is the same, and reads no hand."""
    client, machine_id = _played_in_the_store(tmp_path / "data", 30)
    read = _reads(monkeypatch)
    log = client.get(f"/api/machines/{machine_id}/log").json()
    assert read == [] and log["hands"] == 30
    assert log == client.get(f"/api/machines/{machine_id}").json()["log"]


def test_the_csv_is_read_a_page_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /log.csv`` read a machine's every hand at once and answered
    them in one piece: 1.4 s and some 100 MB of the server's a request at
    10,000 hands, and nothing bounded how many ran at once. It is read and
    sent a page of hands at a time; every row is there, in order."""
    client, machine_id = _played_in_the_store(tmp_path / "data", 1200)
    read = _reads(monkeypatch)
    rows = list(csv.reader(io.StringIO(client.get(f"/api/machines/{machine_id}/log.csv").text)))
    assert [int(row[0]) for row in rows[1:]] == list(range(1, 1201))
    assert max(read) <= 500 and sum(read) == 1200


def test_csv_exports_at_once_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CSV being made holds one of the app's export places (one network
    one at a time: one more is 429); a request refused before its answer
    starts takes none."""
    data = tmp_path / "data"
    exports = Exports(most=2, per_network=1)
    app = create_app(data, limit=unlimited(), allow_hosts=["testserver"], exports=exports)
    client = TestClient(app)
    machine_id = new_machine(client, seed=1)["id"]
    path = f"/api/machines/{machine_id}/log.csv"
    go = threading.Event()
    _reads(monkeypatch, go)
    answers: list[int] = []
    held = threading.Thread(target=lambda: answers.append(TestClient(app, cookies=dict(client.cookies)).get(path).status_code))
    try:
        held.start()
        deadline = time.monotonic() + 10
        while exports.held() < 1:
            assert time.monotonic() < deadline, "the export never began"
            time.sleep(0.01)
        again = client.get(path)
        assert again.status_code == 429 and "exports for this address at once are limited" in again.text
        assert TestClient(app).get(path).status_code == 403  # not the owner's: no place taken
        assert exports.held() == 1
    finally:
        go.set()
        held.join(10)
    assert answers == [200] and exports.held() == 0


def test_a_request_id_is_applied_once(app: FastAPI) -> None:
    client = TestClient(app)
    machine_id = new_machine(client, seed=5)["id"]
    first = act(client, machine_id, action="deal", request_id="deal-1")
    again = act(client, machine_id, action="deal", request_id="deal-1")
    assert first["events"] and again["events"] == []
    assert again["credits"] == first["credits"] and again["hand"] == first["hand"]
    drawn = act(client, machine_id, action="draw", hold=[], request_id="draw-1")
    assert act(client, machine_id, action="draw", hold=[], request_id="draw-1")["credits"] == drawn["credits"]
    assert client.get(f"/api/machines/{machine_id}/log").json()["hands"] == 1


def test_a_replay_is_practice_moving_no_credit(app: FastAPI) -> None:
    client = TestClient(app)
    machine_id = new_machine(client, seed=8)["id"]
    twin = Machine(JACKS, seed=8)
    play_both(client, machine_id, twin, 3)
    before = client.get(f"/api/machines/{machine_id}").json()
    replayed = act(client, machine_id, action="replay", hand=2)
    assert replayed["hand"]["practice"] and replayed["hand"]["number"] == 2
    assert replayed["credits"] == before["credits"]
    twin.replay(2)
    assert [c["code"] for c in replayed["hand"]["cards"]] == [c.code_str for c in twin.current.cards]  # type: ignore[union-attr]
    drawn = act(client, machine_id, action="draw", hold=[1, 2, 3, 4, 5])
    assert drawn["events"][0]["type"] == "practiced" and drawn["last"]["practice"]
    assert drawn["credits"] == before["credits"] and drawn["log"] == before["log"]
    assert client.get(f"/api/machines/{machine_id}/log").json() == before["log"]


def test_the_view_is_the_librarys_and_shows_the_best_hold_when_asked(app: FastAPI) -> None:
    client = TestClient(app)
    made = new_machine(client, seed=21, show_best=True, threshold=50)
    twin = Machine(JACKS, seed=21, show_best=True, threshold=50)
    dealt = act(client, made["id"], action="deal")
    twin.deal()
    expected = machine_view(twin)
    assert {k: v for k, v in dealt.items() if k not in ("id", "events")} == expected
    assert dealt["best"]["held"] == [p + 1 for p in range(5) if twin.deal_values().best >> p & 1]
    drawn = act(client, made["id"], action="draw", hold=[])
    result = twin.draw([])
    assert drawn["last"]["verdict"]["warn"] == result.verdict.warns(50)
    won = [line["key"] for line in drawn["paytable"]["lines"] if line["won"]]
    assert won == ([result.record.line] if result.record.line != "nothing" else [])
    off = act(client, made["id"], action="settings", trainer=False)
    assert off["last"]["verdict"] is None and off["settings"]["trainer"] is False


def test_deals_voids_and_practice_are_kept_bounded(app: FastAPI, tmp_path: Path) -> None:
    client = TestClient(app)
    machine_id = new_machine(client, seed=1)["id"]
    for _ in range(Machine.KEPT_EVENTS["dealt"] + 5):
        act(client, machine_id, action="deal")
        act(client, machine_id, action="void")
    with sqlite3.connect(tmp_path / "data" / "games.sqlite3") as db:
        counts = dict(db.execute("SELECT type, COUNT(*) FROM table_game_events WHERE game_id = ? GROUP BY type", (machine_id,)).fetchall())
    assert counts == {"dealt": Machine.KEPT_EVENTS["dealt"], "voided": Machine.KEPT_EVENTS["voided"]}
    assert client.get(f"/api/machines/{machine_id}").json()["credits"] == 1000


def test_the_server_keeps_at_most_its_capacity_of_machines(tmp_path: Path) -> None:
    app = make_app(tmp_path / "data", Capacity(machines=2))
    client = TestClient(app)
    new_machine(client)
    new_machine(client)
    answer = client.post("/api/machines", json={"paytable": JACKS})
    assert answer.status_code == 503
    assert "at most 2 machines" in answer.json()["detail"]
    assert client.post("/api/games", json={}).status_code == 201  # another kind's places are its own


def test_a_restart_continues_exactly(tmp_path: Path) -> None:
    first = TestClient(make_app(tmp_path / "data"))
    machine_id = new_machine(first, paytable=DEUCES, seed=77)["id"]
    twin = Machine(DEUCES, seed=77)
    play_both(first, machine_id, twin, 4)
    dealt = act(first, machine_id, action="deal")
    twin.deal()
    before = first.get(f"/api/machines/{machine_id}").json()
    again = TestClient(make_app(tmp_path / "data"), cookies=dict(first.cookies))
    assert again.get(f"/api/machines/{machine_id}").json() == before
    assert before["hand"] == dealt["hand"]
    drawn = act(again, machine_id, action="draw", hold=[2, 3])
    assert drawn["events"] == [twin.draw([1, 2]).to_json()]
    assert again.get(f"/api/machines/{machine_id}/log").json() == twin.log().to_json()


def test_the_pages(app: FastAPI) -> None:
    client = TestClient(app)
    chooser = client.get("/video-poker")
    assert chooser.status_code == 200
    for table in catalogue():
        assert f'value="{table.name}"' in chooser.text and table.title in chooser.text
    assert 'href="/video-poker" aria-current="page"' in chooser.text
    machine_id = new_machine(client)["id"]
    page = client.get(f"/video-poker/{machine_id}")
    assert page.status_code == 200 and f'data-machine="{machine_id}"' in page.text
    assert 'src="/static/machine.js"' in page.text
    for asset in ("/static/machine.js", "/static/machine.css"):
        assert client.get(asset).status_code == 200
    assert 'href="/video-poker"' in client.get("/").text  # in the site's navigation
    assert json.loads(client.get(f"/api/machines/{machine_id}").text)["id"] == machine_id


def test_only_a_game_whose_values_are_not_in_memory_waits_for_a_turn_at_the_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading or counting a game's values (a tenth of a second to 4 s of
    CPU) takes a turn at the advisor's gate; a deal or a draw of a game in
    memory (under a millisecond of poker) waits for no one's advice."""
    from fivecard.play import strategy
    from fivecard.web.app import AdvisorGate

    turns: list[str] = []
    taken = AdvisorGate.run

    async def counted(self: AdvisorGate, work: Any, client: str = "") -> Any:
        turns.append(client)
        return await taken(self, work, client)

    monkeypatch.setattr(AdvisorGate, "run", counted)
    with TestClient(make_app(tmp_path / "data")) as client:
        machine = new_machine(client, seed=3, show_best=True)
        made = len(turns)
        for _ in range(3):
            act(client, machine["id"], action="deal")
            act(client, machine["id"], action="draw", hold=[1])
        assert len(turns) == made  # in memory: no turn
        strategy._HELD_VALUES.clear()  # (as after a restart, or other games pushed it out)
        act(client, machine["id"], action="deal")
        assert len(turns) == made + 1
        act(client, machine["id"], action="draw", hold=[])
        assert len(turns) == made + 1


@pytest.mark.parametrize("name", [n for n in OTHERS if n])
def test_asking_after_a_game_not_in_the_catalogue_opens_nothing(app: FastAPI, name: str, opened: list[str]) -> None:
    answer = TestClient(app).get(f"/api/video-poker/{urllib.parse.quote(name, safe='')}")
    assert answer.status_code in (404, 422), answer.text
    assert opened == []


def test_any_page_may_ask_whether_a_game_starts_at_once(app: FastAPI) -> None:
    """``GET /api/video-poker/{id}``: a catalogue game's title, whether its
    values are in memory, and how far a count under way has come. Nobody's
    (no cookie needed; it tells nothing of any machine)."""
    from fivecard.play import strategy

    with TestClient(app) as client:
        strategy._HELD_VALUES.clear()
        answer = client.get(f"/api/video-poker/{JACKS}").json()
        assert answer == {"id": JACKS, "title": "Jacks or Better 9/6", "ready": False, "counting": False,
                          "done": 0, "steps": strategy.COUNT_STEPS}  # fmt: skip
        new_machine(client, seed=1)
        assert client.get(f"/api/video-poker/{JACKS}").json()["ready"] is True
        assert "set-cookie" not in client.get(f"/api/video-poker/{DEUCES}").headers
