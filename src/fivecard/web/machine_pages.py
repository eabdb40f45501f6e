"""Video poker in the browser: a machine with a trainer
(:class:`~fivecard.play.machine.Machine`), its page (``/video-poker``:
choose a game; ``/video-poker/{id}``: the machine) and its JSON API.

* ``POST /api/machines`` ``{"paytable", "coins", "seed", "trainer",
  "show_best", "threshold"}``: a new machine (201, its view); ``paytable``
  is a catalogue id (:data:`~fivecard.play.paytables.PAYTABLES`), nothing
  else is looked up, and no file is opened for any other text.
* ``GET /api/machines/{id}``: the machine's view
  (:func:`~fivecard.play.machine.machine_view`).
* ``POST /api/machines/{id}/actions`` ``{"action", "hold", "coins",
  "trainer", "show_best", "threshold", "hand", "request_id"}``: ``deal``,
  ``draw`` (hold the 1-based positions in ``hold``), ``bet`` (``coins``),
  ``settings`` (any of ``trainer``, ``show_best``, ``threshold``),
  ``cash_in``, ``replay`` (hand number ``hand`` again, as practice),
  ``void``: the view, with this action's ``events``.
* ``GET /api/machines/{id}/log``: the session's log
  (:class:`~fivecard.play.machine.SessionLog`: the tally and the biggest
  mistakes the machine keeps, :meth:`~fivecard.play.machine.Machine.log`);
  ``GET /api/machines/{id}/log.csv``: its hands as CSV
  (:data:`~fivecard.play.machine.LOG_COLUMNS`; every cell inert), read
  from the machine's kept hands and sent a page of hands at a time.

Who may: a machine is its owner's only (the browser that made it, by its
owner cookie, as a dealer game is: :data:`~fivecard.web.store.MACHINES`);
any other browser, or none, is told only that it is not theirs (403) or
that there is no such machine (404), nothing of it. Another origin cannot
act (the app's same-origin rule covers every route). What bounds the
cost: new machines per address (the ``create`` rate limit) and in all
(:attr:`~fivecard.web.store.Capacity.machines`, a share per address),
actions per browser (the ``act`` rate limit), an action or a view that
would load or count a game's hold values (2-4 s the first time on a
computer, then a load from the user's cache) taken at the advisor's gate
(:class:`~fivecard.web.app.AdvisorGate`), every other one on two threads
in turn (under a millisecond of poker each), a CSV made at one of the app's
export places (:class:`~fivecard.web.friends_api.Exports`: so many at once,
one for an address) and read :data:`CSV_PAGE` hands at a time, at most
:data:`~fivecard.play.table_game.MAX_ROUNDS` hands a machine, and only the
latest deals, voids and practice hands kept
(:attr:`~fivecard.play.machine.Machine.KEPT_EVENTS`).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterator
from typing import Annotated, Any, Literal, TypeVar

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import Field

from ..core.errors import quote
from ..core.words import rules_title
from ..files.writers.cells import csv_line
from ..play.machine import LOG_COLUMNS, PRACTICED, Machine, SessionLog, machine_view, records_of
from ..play.paytables import PAYTABLES
from ..play.strategy import COUNT_STEPS, hold_values_held, hold_values_progress
from ..play.table_game import MAX_ROUNDS
from .clients import request_network
from .errors import NotFound, NotYours
from .i18n import request_language
from .friends_api import Exports, Held, RateLimit, Request_, RequestModel
from .store import MAX_STORED, Owners, TableGameStore, remember_owner
from .strategy_pages import strategy_games

__all__ = ["add_machine_routes", "NewMachineRequest", "MachineActionRequest"]

T = TypeVar("T")

#: The hands a CSV export reads (and sends) at a time.
CSV_PAGE = 500

#: A gate's turn: ``run(work, client)`` runs ``work`` in a worker thread when the client's turn comes.
Gate = Callable[[Callable[[], Any], str], Awaitable[Any]]


class NewMachineRequest(RequestModel):
    paytable: str = Field(max_length=40, description="the game: a catalogue id (GET /api/strategy lists them)")
    coins: int | None = Field(default=None, ge=1, le=100, description="the bet (default: the most the game takes)")
    seed: int | None = Field(default=None, ge=0, le=MAX_STORED, description="for reproducible hands")
    trainer: bool = Field(default=True, description="a verdict on every hold after the draw")
    show_best: bool = Field(default=False, description="the best hold shown before the draw")
    threshold: float = Field(
        default=0, ge=0, le=100, allow_inf_nan=False, description="warn of mistakes costing more than this % of the bet"
    )


class MachineActionRequest(Request_):
    action: Literal["deal", "draw", "bet", "settings", "cash_in", "replay", "void"]
    hold: list[Annotated[int, Field(ge=1, le=5)]] = Field(
        default=[], max_length=5, description="draw: the 1-based positions held"
    )
    coins: int | None = Field(default=None, ge=1, le=100, description="bet: the coins to bet")
    trainer: bool | None = None
    show_best: bool | None = None
    threshold: float | None = Field(default=None, ge=0, le=100, allow_inf_nan=False)
    hand: int | None = Field(default=None, ge=1, le=MAX_ROUNDS, description="replay: the hand's number")


def catalogue_id(paytable_id: str) -> str:
    """The id, when it is a catalogue id (nothing else is looked up: no
    alias, no path)."""
    if paytable_id not in PAYTABLES:
        raise NotFound(f"no video-poker game {quote(paytable_id)}: /video-poker lists the games")
    return paytable_id


class _NeedsCounting(Exception):
    """An action that would load or count the game's values outside a turn at the gate."""


def _act(machine: Machine, body: MachineActionRequest) -> list[dict[str, Any]]:
    """The action on the machine; its events as the store keeps them."""
    events: list[dict[str, Any]] = []
    if body.action == "deal":
        events.append(machine.deal().to_json())
    elif body.action == "draw":
        events.append(machine.draw([p - 1 for p in body.hold]).to_json())
    elif body.action == "bet":
        machine.bet(machine.coins if body.coins is None else body.coins)
    elif body.action == "settings":
        machine.configure(trainer=body.trainer, show_best=body.show_best, threshold=body.threshold)
    elif body.action == "cash_in":
        events.append(machine.cash_in())
    elif body.action == "replay":
        events.append(machine.replay(body.hand if body.hand is not None else 0).to_json())
    else:
        events.append(machine.void())
    return [Machine.kept_event(e) for e in events]


def add_machine_routes(
    app: FastAPI,
    templates: Jinja2Templates,
    store: TableGameStore[Machine],
    owners: Owners,
    limit: RateLimit,
    gate: Gate,
    json_response: Callable[..., Response],
    exports: Exports,
) -> None:
    """Register the machine's pages and API on ``app`` (``gate``: the
    advisor's turns, :meth:`~fivecard.web.app.AdvisorGate.run`;
    ``json_response``: the app's one way to answer JSON; ``exports``: the
    app's export places, which a CSV takes one of)."""

    # The machines' work runs on at most two threads, in turn: a burst of
    # players drawing at once is served one after another (each a few
    # milliseconds) rather than all at once in slices of the interpreter's
    # lock, which kept the event loop itself waiting (measured: p99 of a
    # draw 210-380 ms with 16 players drawing together, against under 100).
    limiter: list[anyio.CapacityLimiter] = []

    async def in_turn(work: Callable[..., T], *args: Any) -> T:
        if not limiter:
            limiter.append(anyio.CapacityLimiter(2))
        return await anyio.to_thread.run_sync(functools.partial(work, *args), limiter=limiter[0])

    def owner_of(request: Request) -> str:
        owner = owners.owner(request)
        if not owner:
            raise NotYours("this browser has no machines (its cookie is missing, or is not one this server gave)")
        return owner

    def last_draw(machine_id: str) -> dict[str, Any] | None:
        found = store.tail(machine_id, 1, "drawn") + store.tail(machine_id, 1, PRACTICED)
        return max(found, key=lambda item: item[0])[1] if found else None

    def view(machine_id: str, machine: Machine, request: Request) -> dict[str, Any]:
        # kept as data; said in the language of whoever views the machine
        data = machine_view(machine, last_draw(machine_id), request_language(request))
        data["id"] = machine_id
        return data

    def counts(machine: Machine) -> bool:
        """Its view values holds (the best hold is shown before the draw)
        and the game's values are not in memory."""
        return machine.show_best and machine.current is not None and not machine.values_held

    @app.post("/api/machines", tags=["video poker"], summary="A new video-poker machine", status_code=201)
    async def api_new_machine(request: Request, body: NewMachineRequest) -> Response:
        limit.check(request, "create")
        paytable = catalogue_id(body.paytable)
        claim = owners.claim(request)
        machine = Machine(
            PAYTABLES[paytable], coins=body.coins, seed=body.seed, trainer=body.trainer,
            show_best=body.show_best, threshold=body.threshold,
        )  # fmt: skip

        def create() -> dict[str, Any]:
            machine.values  # counted (the first time) or loaded now, not at the first draw
            machine_id = store.create(machine, claim.new, moved_from=claim.old, network=request_network(request))
            return view(machine_id, machine, request)

        # Counting or loading a game's values takes a turn at the gate; a
        # game in memory costs nothing and waits for no one.
        if machine.values_held:
            data = await in_turn(create)
        else:
            data = await gate(create, request_network(request))
        response = json_response(data, 201, headers={"location": f"/api/machines/{data['id']}"})
        limit.moved(claim)
        remember_owner(response, claim)
        return response

    @app.get("/api/machines/{machine_id}", tags=["video poker"], summary="The machine as its player sees it")
    async def api_machine(machine_id: str, request: Request) -> Response:
        machine = await in_turn(store.load, machine_id, owner_of(request))
        if counts(machine):
            return json_response(await gate(lambda: view(machine_id, machine, request), request_network(request)))
        return json_response(await in_turn(view, machine_id, machine, request))

    @app.post(
        "/api/machines/{machine_id}/actions",
        tags=["video poker"],
        summary="Act: deal, draw, bet, settings, cash_in, replay, void",
    )
    async def api_machine_act(machine_id: str, body: MachineActionRequest, request: Request) -> Response:
        limit.check(request, "act")
        owner = owner_of(request)

        def act(gated: bool) -> dict[str, Any]:
            def act_on(machine: Machine) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
                if not gated and not machine.values_held:
                    raise _NeedsCounting  # (nothing is kept: the action is taken again with a turn)
                events = _act(machine, body)
                return events, events

            machine, events, _ = store.act(machine_id, owner, act_on, request_id=body.request_id)
            data = view(machine_id, machine, request)
            data["events"] = [Machine.public_event(e) for e in events or []]
            return data

        # A draw values the holds (a deal, a replay or a setting may show the
        # best hold): under a millisecond when the game's values are in
        # memory, so the action runs at once; when they must be loaded or
        # counted first, it takes a turn at the gate as the advisor's work does.
        try:
            return json_response(await in_turn(act, False))
        except _NeedsCounting:
            return json_response(await gate(lambda: act(True), request_network(request)))

    @app.get("/api/machines/{machine_id}/log", tags=["video poker"], summary="The session's log")
    async def api_machine_log(machine_id: str, request: Request) -> Response:
        machine = await in_turn(store.load, machine_id, owner_of(request))
        return json_response(machine.log().to_json(request_language(request)))

    def csv_pages(machine_id: str, title: str) -> Iterator[bytes]:
        """The CSV's header, then its rows a page of hands at a time."""
        yield csv_line(list(LOG_COLUMNS)).encode()
        seen = 0
        while True:
            page = store.events_after(machine_id, seen, limit=CSV_PAGE, type="drawn")
            if not page:
                return
            seen = page[-1][0]
            rows = SessionLog.of(title, records_of(e for _, e in page)).rows()
            yield "".join(csv_line([str(c) for c in row]) for row in rows).encode()

    @app.get("/api/machines/{machine_id}/log.csv", tags=["video poker"], summary="The session's hands as CSV")
    async def api_machine_log_csv(machine_id: str, request: Request) -> Response:
        # 403 or 404 before the answer starts, and before a place is taken
        machine = await in_turn(store.load, machine_id, owner_of(request))
        place = exports.take(request_network(request))
        try:
            return Held(
                exports.pieces(csv_pages(machine_id, machine.paytable.title), place),
                lambda: exports.give(place),
                media_type="text/csv; charset=utf-8",
                headers={"content-disposition": 'attachment; filename="fivecard-video-poker-log.csv"'},
            )
        except BaseException:
            exports.give(place)
            raise

    @app.get("/api/video-poker/{paytable_id}", tags=["video poker"], summary="Whether a game starts at once")
    def api_game_ready(paytable_id: str) -> Response:
        # Nobody's: what any page may ask while its machine is being made.
        table = PAYTABLES[catalogue_id(paytable_id)]
        done = hold_values_progress(table)
        return json_response({
            "id": paytable_id, "title": table.title, "ready": hold_values_held(table),
            "counting": done is not None, "done": done or 0, "steps": COUNT_STEPS,
        })  # fmt: skip

    # -- pages ---------------------------------------------------------------------------

    @app.get("/video-poker", response_class=HTMLResponse, include_in_schema=False)
    def page_machines(request: Request) -> Response:
        return templates.TemplateResponse(request, "machine.html", {"games": games(request), "machine_id": None})

    @app.get("/video-poker/{machine_id}", response_class=HTMLResponse, include_in_schema=False)
    def page_machine(request: Request, machine_id: str) -> Response:
        return templates.TemplateResponse(request, "machine.html", {"games": games(request), "machine_id": machine_id})

    def games(request: Request) -> list[dict[str, Any]]:
        """The catalogue's games, their rule sets' titles in the request's language."""
        lang = request_language(request)
        return [{**g, "rules_title": rules_title(g["rules"], g["rules_title"], lang)} for g in strategy_games()]
