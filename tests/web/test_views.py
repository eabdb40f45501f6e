"""What a browser may know, walked: every answer of the web app (views, the
answers to actions, refusals, event streams from the start and resumed with
``Last-Event-ID`` or ``?after=``, exports, pages) to every role, through a
friends' table's whole life and a dealer game's, is searched byte by byte
(headers included) for the secrets the engines hold at that moment.

The secrets are taken from the engines' own state, not from named fields
of the answers: the table's seed and the seed of every round not yet closed
(any of them gives a round's whole deck), as whole decimal numbers; while a
round is open, every card of its deck that is not the role's own hand and
that no closed round has shown (a card's code, however printed, cannot say
which round it belongs to); in the dealer game, the game's seed and its
shuffler's state, and every card of the deck the player has not been shown
in the round on the table (the computer players' hands, their discards, the
dealer's cards still face down, the deck's order). A card is searched in
every form the project prints: its code (``Ah``, and ``AH`` as ``mark``
prints it), its text (``A♥``, ``10♥``; JSON-escaped, URL-encoded and as HTML
entities), its Unicode playing card, and its name (``Ace of hearts``).

Tables and games kept by an earlier version are part of the walk: the
stored events are rewritten in that version's form (``round_started`` with
the round's seed; a computer's events with the advisor's reason, which
named its cards) before they are served.
"""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.parse
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

import fivecard.play.table_game as table_game
from fivecard.core.cards import Card, format_cards
from fivecard.core.rules import get_rules
from fivecard.play.friends import FriendsTable
from fivecard.play.table_game import Shoe, round_deck, round_seed
from fivecard.play.game import Game
from fivecard.web.app import OWNER_COOKIE, create_app
from fivecard.web.store import secret_hash

#: The seeds the server chooses in this test (fixed, so that it is the same
#: every run; nothing here depends on the cards they deal).
TABLE_SEED = 0x5EED_7AB1E
GAME_SEED = 0x5EED_6A3E


# --- what a secret looks like in an answer ------------------------------------------------

_SUIT_ENTITIES = {"s": "spades", "h": "hearts", "d": "diams", "c": "clubs"}
_PLAYING_CARDS = {"s": 0x1F0A0, "h": 0x1F0B0, "d": 0x1F0C0, "c": 0x1F0D0}
_PLAYING_RANKS = {14: 1, 11: 11, 12: 13, 13: 14}  # ace 1, 2-10, jack 11, (knight 12), queen 13, king 14


@cache
def card_pattern(card: Card) -> re.Pattern[str]:
    """One pattern for every form the project prints a card in, each
    standing alone (not inside a longer word, number or escape)."""
    text = str(card)
    forms = {card.code_str, card.code_str.upper(), text, json.dumps(text)[1:-1], urllib.parse.quote(text)}
    named = ""
    if card.rank is not None and card.suit is not None:
        rank, suit = card.rank, card.suit.value
        symbol = card.suit.symbol
        forms |= {
            f"{rank.short}&{_SUIT_ENTITIES[suit]};",
            f"{rank.short}&#{ord(symbol)};",
            f"{rank.short}&#x{ord(symbol):x};",
            chr(_PLAYING_CARDS[suit] + _PLAYING_RANKS.get(int(rank), int(rank))),
        }
        named = rf"|(?i:\b{re.escape(f'{rank.word} of {card.suit.name.lower()}')}\b)"
    alone = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9%\\])(?:{alone})(?![A-Za-z0-9]){named}")


@dataclass
class Secrets:
    """What a role may not learn from an answer now."""

    numbers: set[int] = field(default_factory=set)
    cards: set[Card] = field(default_factory=set)


def leaks(answer: bytes, secrets: Secrets) -> list[str]:
    """Every secret found in an answer, as a phrase (none: nothing leaked)."""
    text = answer.decode("utf-8", "surrogateescape")
    numbers = {int(n) for n in re.findall(r"[0-9]+", text)} & secrets.numbers
    found = [f"number {n}" for n in sorted(numbers)]
    if secrets.cards and _any_card(frozenset(secrets.cards)).search(text):
        for card in sorted(secrets.cards, key=lambda c: c.code_str):
            hit = card_pattern(card).search(text)
            if hit:
                found.append(f"card {card.code_str} as {hit.group(0)!r}")
    return found


@lru_cache(maxsize=256)
def _any_card(cards: frozenset[Card]) -> re.Pattern[str]:
    """One pattern for any of the cards (a first look: most answers hold none)."""
    return re.compile("|".join(f"(?:{card_pattern(c).pattern})" for c in sorted(cards, key=lambda c: c.code_str)))


def raw(response: Any, ids: Iterable[str]) -> bytes:
    """An answer's status line, headers and body as bytes, with the random
    ids every role knows (the table's or game's, cookies) replaced by a
    placeholder, so that only what the server chose to say is searched."""
    head = f"{response.status_code}\n" + "".join(f"{k}: {v}\n" for k, v in response.headers.items())
    data = head.encode() + b"\n" + response.content
    return _without_ids(data, ids)


def _without_ids(data: bytes, ids: Iterable[str]) -> bytes:
    for known in ids:
        data = data.replace(known.encode(), b"<id>")
    return data


def test_the_search_finds_a_card_in_every_form_and_a_number_alone() -> None:
    ace = Card.parse("Ah")
    ten = Card.parse("Td")
    secrets = Secrets({123456789}, {ace, ten})
    for text in ["Ah", '"AH"', "A♥", "A\\u2665", "A%E2%99%A5", "A&hearts;", "A&#9829;", "🂱", "the Ace of Hearts"]:
        assert leaks(text.encode(), Secrets(cards={ace})), text
    for text in ["Td", "10♦", "10&diams;", "ten of diamonds", "🃊"]:
        assert leaks(text.encode(), Secrets(cards={ten})), text
    assert leaks(b'{"seed":123456789}', secrets) == ["number 123456789"]
    for text in ["Ahead", "BAH", "TdX", "x10\u2666"[0:1], "1234567890", "%2C", "Aces"]:
        assert not leaks(text.encode(), secrets), text


# --- the friends' table ----------------------------------------------------------------------


@dataclass
class Role:
    name: str
    client: TestClient

    @property
    def owner(self) -> str:
        cookie = self.client.cookies.get(OWNER_COOKIE)
        return "" if cookie is None else secret_hash(cookie)


class TableWalk:
    """The table's life, step by step, with every role's every answer
    searched after each step."""

    def __init__(self, app: FastAPI, data: Path, clients: ExitStack) -> None:
        self.app = app
        self.database = data / "games.sqlite3"
        self.roles = {
            name: Role(name, clients.enter_context(TestClient(app)))
            for name in ("host", "ann", "bob", "cy", "watcher", "stranger")
        }
        self.table_id = ""
        self.ids: set[str] = set()
        self.shown: set[Card] = set()  # the cards of the hands closed rounds showed
        self.answers = 0
        self.steps = 0
        self._known: dict[tuple[str, str], Secrets] = {}
        self._page = ""

    # -- the engine's state and secrets --

    def state(self) -> str:
        with sqlite3.connect(self.database) as db:
            (state,) = db.execute("SELECT state FROM table_games WHERE id = ?", (self.table_id,)).fetchone()
        return str(state)

    def table(self) -> FriendsTable:
        return FriendsTable.from_state(json.loads(self.state()))

    def secrets(self, role: Role) -> Secrets:
        """The role's secrets in the table's state now (kept per state)."""
        key = (role.name, self.state())
        if key not in self._known:
            self._known[key] = self._secrets(FriendsTable.from_state(json.loads(key[1])), role)
        return self._known[key]

    def _secrets(self, table: FriendsTable, role: Role) -> Secrets:
        numbers = {table.seed} | {round_seed(table.seed, n) for n in range(table.played + 1, table.played + 6)}
        cards: set[Card] = set()
        current = table.round
        if current is not None and current.open:
            mine = table.seat_of(role.owner) if role.owner else None
            own = set(current.dealt.get(mine.id, [])) if mine is not None else set()
            cards = set(round_deck(table.rules, current.seed)) - own - self.shown
        return Secrets(numbers, cards)

    def note_closed(self) -> None:
        current = self.table().round
        if current is not None and not current.open:
            self.shown |= {c for hand in current.dealt.values() for c in hand}

    def as_old_version(self) -> None:
        """Rewrite the kept round_started events as the earlier version kept
        them: with the round's seed."""
        table = self.table()
        with sqlite3.connect(self.database) as db:
            rows = db.execute(
                "SELECT seq, data FROM table_game_events WHERE game_id = ? AND type = 'round_started'", (self.table_id,)
            ).fetchall()
            for seq, data in rows:
                event = json.loads(data)
                event["seed"] = round_seed(table.seed, event["round"])
                db.execute(
                    "UPDATE table_game_events SET data = ? WHERE game_id = ? AND seq = ?",
                    (json.dumps(event), self.table_id, seq),
                )

    # -- answers --

    def check(self, role: Role, response: Any, what: str) -> None:
        self.answers += 1
        found = leaks(raw(response, self.ids | self._cookies()), self.secrets(role))
        assert not found, f"{what} to {role.name}: {found}"

    def _cookies(self) -> set[str]:
        return {r.client.cookies[OWNER_COOKIE] for r in self.roles.values() if OWNER_COOKIE in r.client.cookies}

    def act(self, who: str, method: str, path: str, status: int = 200, body: dict[str, Any] | None = None) -> Any:
        role = self.roles[who]
        url = f"/api/tables/{self.table_id}{path}"
        if method == "DELETE":  # no body, but a change: it says JSON all the same
            response = role.client.request(method, url, headers={"content-type": "application/json"})
        else:
            response = role.client.request(method, url, json=body)
        assert response.status_code == status, (who, path, response.text)
        self.check(role, response, f"{method} {path}")
        return response

    def stream(self, role: Role, after: int, *, header: bool) -> bytes:
        """The event stream after ``after`` (Last-Event-ID or ?after=), read
        until it has sent the table's last event."""
        last = self.table_last()
        url = f"/api/tables/{self.table_id}/events"
        options: dict[str, Any] = {"headers": {"last-event-id": str(after)}} if header else {"params": {"after": after}}
        data = b""
        with role.client.stream("GET", url, **options) as response:
            assert response.status_code == 200
            head = "".join(f"{k}: {v}\n" for k, v in response.headers.items()).encode()
            for chunk in response.iter_bytes():
                data += chunk
                if last <= after and b"retry: 1000\n\n" in data:
                    break
                marker = data.find(f"\nid: {last}\n".encode())
                if marker >= 0 and data.find(b"\n\n", marker + 1) >= 0:
                    break
        seqs = [int(s) for s in re.findall(rb"^id: (\d+)$", data, re.MULTILINE)]
        assert seqs == list(range(after + 1, last + 1)), (after, last, seqs)
        return _without_ids(head + data, self.ids | self._cookies())

    def table_last(self) -> int:
        with sqlite3.connect(self.database) as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM table_game_events WHERE game_id = ?", (self.table_id,)
            ).fetchone()
        return int(last)

    def everything(self) -> None:
        """Every answer to every role, now: the view, the event stream from
        the start and resumed (by Last-Event-ID and by ?after=, at a point
        that moves with the steps), an export (CSV and JSON Lines in turn),
        the page, and every action the role may not take now."""
        table = self.table()
        last = self.table_last()
        self.steps += 1
        resumed = (last // 2, True) if self.steps % 2 else (max(last - 1, 0), False)
        if not self._page:
            self._page = self.roles["stranger"].client.get("/tables/no-table").text.replace("no-table", "<id>")
        for role in self.roles.values():
            client = role.client
            self.check(role, client.get(f"/api/tables/{self.table_id}"), "the table's view")
            for after, header in ((0, False), resumed):
                found = leaks(self.stream(role, after, header=header), self.secrets(role))
                assert not found, f"the event stream after {after} to {role.name}: {found}"
                self.answers += 1
            fmt = ("csv", "jsonl")[self.steps % 2]
            self.check(role, client.get(f"/api/tables/{self.table_id}/export", params={"format": fmt}), fmt)
            shown = client.get(f"/tables/{self.table_id}")
            self.check(role, shown, "the page")
            assert shown.text.replace(self.table_id, "<id>") == self._page  # it holds nothing of the table but its id
            for who, path, status in self.refusals(table, role):
                self.act(who, "DELETE" if path.startswith("/seats/") else "POST", path, status, {"text": "hi"} if path == "/chat" else {})
            if role.name in ("watcher", "stranger"):
                self.act(role.name, "POST", "/seats", 409, {"name": "Host"})  # a role's word: refused, no cookie set

    def refusals(self, table: FriendsTable, role: Role) -> Iterator[tuple[str, str, int]]:
        """The actions this role may not take now, and the answer's status."""
        is_host = bool(role.owner) and role.owner == table.host
        if not is_host:
            for path in ("/rounds", "/close", "/end", "/seats/1"):
                yield role.name, path, 403
        seat = table.seat_of(role.owner) if role.owner else None
        current = table.round
        if seat is None and not is_host:
            yield role.name, "/chat", 403
        if table.ended:
            return
        if seat is None:
            yield role.name, "/deal", 403
        elif current is None or not current.open:
            yield role.name, "/deal", 409
        elif seat.id in current.dealt:
            yield role.name, "/deal", 409


@pytest.fixture
def clients() -> Iterator[ExitStack]:
    """Test clients that each keep one event loop for all their requests."""
    with ExitStack() as stack:
        yield stack


@pytest.fixture
def fixed_seeds(monkeypatch: pytest.MonkeyPatch, no_rate_limits: None) -> None:
    """The server's own seeds, fixed (and no rate limits)."""
    drawn: Iterator[int] = iter(())  # the seed each new shoe draws, by its kind of game
    real = Shoe.__init__

    def fixed(shoe: Shoe, rules: Any, kind: str, seed: int | None = None, **options: Any) -> None:
        nonlocal drawn
        drawn = iter([{"table": TABLE_SEED, "game": GAME_SEED}[kind]])
        real(shoe, rules, kind, seed, **options)

    monkeypatch.setattr(Shoe, "__init__", fixed)
    monkeypatch.setattr(table_game, "secrets", SimpleNamespace(randbits=lambda bits: next(drawn)))


@pytest.mark.usefixtures("fixed_seeds")
@pytest.mark.slow
def test_no_role_learns_a_card_or_a_seed_of_the_friends_table_before_its_time(tmp_path: Path, clients: ExitStack) -> None:
    data = tmp_path / "data"
    walk = TableWalk(create_app(data, allow_hosts=["testserver"]), data, clients)
    roles = walk.roles
    # the watcher has a cookie of its own (it hosts another table), and no seat here
    assert roles["watcher"].client.post("/api/tables", json={}).status_code == 201
    opened = roles["host"].client.post("/api/tables", json={"rules": "standard", "rounds": 3})
    assert opened.status_code == 201
    walk.table_id = opened.json()["id"]
    walk.ids = {walk.table_id}
    walk.check(roles["host"], opened, "the new table")
    assert walk.table().seed == TABLE_SEED and not opened.json()["seeded"]
    walk.everything()

    def step(who: str, method: str, path: str, body: dict[str, Any] | None = None, status: int = 200) -> None:
        walk.act(who, method, path, status, body or {})
        walk.note_closed()
        if path == "/rounds":
            walk.as_old_version()
        walk.everything()

    for name in ("Ann", "Bob", "Cy"):
        step(name.lower(), "POST", "/seats", {"name": name}, 201)
    # round 1: Ann and Cy deal, Bob talks, the host removes Cy, Bob deals: the round closes
    step("host", "POST", "/rounds")
    step("ann", "POST", "/deal")
    step("bob", "POST", "/chat", {"text": "good luck"})
    step("cy", "POST", "/deal")
    step("host", "DELETE", "/seats/3")
    step("bob", "POST", "/deal")
    assert walk.table().played == 1
    # round 2: Bob deals, the host closes it
    step("host", "POST", "/rounds")
    step("bob", "POST", "/deal")
    step("host", "POST", "/chat", {"text": "closing now"})
    step("host", "POST", "/close")
    # round 3: Ann deals, the host ends the table (the round is settled first)
    step("host", "POST", "/rounds")
    step("ann", "POST", "/deal")
    step("host", "POST", "/end")
    table = walk.table()
    assert table.ended and table.played == 3
    # the walk saw what it walked: the seeds of the closed rounds, and the hands, once closed
    closed = [json.loads(line[6:]) for line in walk.stream(roles["stranger"], 0, header=False).decode().splitlines() if line.startswith("data: ") and '"round_closed"' in line]
    assert [e["seed"] for e in closed] == [round_seed(TABLE_SEED, n) for n in (1, 2, 3)]
    assert [len(e["hands"]) for e in closed] == [2, 1, 1]
    assert walk.answers > 900


# --- the dealer game ---------------------------------------------------------------------------


class GameWalk:
    """A dealer game's life, with the player's, another browser's and a
    cookie-less browser's every answer searched after each step."""

    def __init__(self, app: FastAPI, data: Path, clients: ExitStack) -> None:
        self.database = data / "games.sqlite3"
        self.player, self.other, self.stranger = (clients.enter_context(TestClient(app)) for _ in range(3))
        made = self.player.post("/api/games", json={"rules": "standard"})
        assert made.status_code == 201
        self.game_id: str = made.json()["id"]
        assert self.other.post("/api/games", json={}).status_code == 201  # a cookie and a game of its own
        self.shown: set[Card] = set()  # what the player has been shown of the round on the table
        self.answers = 0
        self.check(self.player, made, "the new game")

    def game(self) -> Game:
        with sqlite3.connect(self.database) as db:
            (state,) = db.execute("SELECT state FROM table_games WHERE id = ?", (self.game_id,)).fetchone()
        return Game.from_state(json.loads(state))

    def secrets(self) -> Secrets:
        game = self.game()
        _, words, _ = game.rng.getstate()
        numbers = {game.seed} | {w for w in words if w >= 10**6}
        deck = set(get_rules(game.rules.name).deck())
        return Secrets(numbers, deck - self.shown)

    def note(self) -> None:
        """What the round on the table has shown the player so far."""
        game = self.game()
        hand = game.hand(0)
        if hand is not None:
            self.shown |= set(hand.cards)
        self.shown |= set(game.dealer_cards)

    def ids(self) -> set[str]:
        return {self.game_id} | {c.cookies[OWNER_COOKIE] for c in (self.player, self.other) if OWNER_COOKIE in c.cookies}

    def check(self, client: TestClient, response: Any, what: str) -> None:
        self.answers += 1
        found = leaks(raw(response, self.ids()), self.secrets())
        assert not found, f"{what}: {found}"

    def act(self, action: str, status: int = 200, **fields: Any) -> None:
        before = self.game()
        if action == "settle":  # every hand still in is shown, with the dealer's
            current = before.current
            assert current is not None
            self.shown |= {c for s, h in current.hands.items() if s not in current.folded for c in h.cards}
        if action == "start":
            self.shown = set()
        response = self.player.post(f"/api/games/{self.game_id}/actions", json={"action": action, **fields})
        assert response.status_code == status, response.text
        if status == 200:
            self.note()
            if action in ("start", "exchange", "keep", "fold"):
                self.as_old_version()
        self.check(self.player, response, action)
        self.everything()

    def as_old_version(self) -> None:
        """Rewrite the computer players' kept events as the earlier version
        kept them: with the advisor's reason, which named the cards they
        kept (here: their whole hands)."""
        game = self.game()
        with sqlite3.connect(self.database) as db:
            rows = db.execute(
                "SELECT seq, data FROM table_game_events WHERE game_id = ? AND type IN ('folded', 'exchanged')", (self.game_id,)
            ).fetchall()
            for seq, data in rows:
                event = json.loads(data)
                hand = game.hand(event["seat"])
                if event["seat"] == 0 or hand is None:
                    continue
                event["reason"] = f"Keep {format_cards(hand.cards)}, exchange 0: as the advisor said"
                event["kept"] = [c.code_str for c in hand.cards]
                db.execute("UPDATE table_game_events SET data = ? WHERE game_id = ? AND seq = ?", (json.dumps(event), self.game_id, seq))

    def everything(self) -> None:
        url = f"/api/games/{self.game_id}"
        self.check(self.player, self.player.get(url), "the player's view")
        for client, status in ((self.other, 403), (self.stranger, 403)):
            for response in (client.get(url), client.get(url + "/hint"), client.post(url + "/actions", json={"action": "start"})):
                assert response.status_code == status
                self.check(client, response, "another browser's answer")
        game = self.game()
        if game.turn != 0:
            hint = self.player.get(url + "/hint")
            assert hint.status_code == 409
            self.check(self.player, hint, "a hint out of turn")
        for action in ("reveal", "settle", "start", "fold"):
            allowed = {"reveal": game.can_reveal(), "settle": game.can_settle(), "start": game.can_start(), "fold": game.turn == 0}
            if not allowed[action]:
                refused = self.player.post(url + "/actions", json={"action": action})
                assert refused.status_code == 409
                self.check(self.player, refused, f"{action} refused")
        page = self.player.get(f"/play/{self.game_id}")
        self.check(self.player, page, "the page")
        assert page.text.replace(self.game_id, "<id>") == self.player.get("/play/no-game").text.replace("no-game", "<id>")

    def hint(self) -> None:
        response = self.player.get(f"/api/games/{self.game_id}/hint", params={"top": 32})
        assert response.status_code == 200
        self.check(self.player, response, "the hint")


@pytest.mark.usefixtures("fixed_seeds")
@pytest.mark.slow
def test_the_dealer_game_shows_the_player_nothing_before_its_time(tmp_path: Path, clients: ExitStack) -> None:
    data = tmp_path / "data"
    walk = GameWalk(create_app(data, allow_hosts=["testserver"]), data, clients)
    assert walk.game().seed == GAME_SEED
    walk.everything()
    rounds: list[Callable[[], None]] = [
        lambda: walk.act("exchange", keep=[1, 2]),
        lambda: walk.act("fold"),
        lambda: walk.act("keep"),
    ]
    for play in rounds:
        walk.act("start")
        walk.hint()
        walk.act("exchange", 422, keep=[7])  # refused: a card position is 1-5
        play()
        while walk.game().can_reveal():
            walk.act("reveal")
        walk.act("settle")
    assert walk.game().played == 3
    assert walk.answers > 200
