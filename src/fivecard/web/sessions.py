"""The session figures of each dealer game for its page (the player's
rounds, results against the dealer, pots and chips over time:
:class:`~fivecard.play.view.Session`), made from the game's settled rounds
as the store keeps them.

A game's figures are read from its whole history once, then kept, and each
later view reads only the rounds settled since (events are only ever added
to a game's history), so that a view costs what its new rounds cost, not
what the game's thousands of rounds would. The figures of the games viewed
last are kept (:data:`KEPT`), each bounded by the rounds a game may have
(:data:`~fivecard.play.table_game.MAX_ROUNDS`); a game not kept is read
again from its history. Each process keeps its own: they are what the
store's history says, whichever reads it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Final

from ..play.game import Game
from ..play.view import Session
from .store import TableGameStore

__all__ = ["KEPT", "Sessions"]

#: How many games' figures are kept.
KEPT: Final = 64
_PAGE: Final = 500  # settled rounds read at a time


class Sessions:
    """The session figures of the games of a store of dealer games."""

    def __init__(self, store: TableGameStore[Game], kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, tuple[int, Session]] = OrderedDict()

    def figures(self, game_id: str, opening: int) -> dict[str, Any]:
        """The game's figures for the player (:meth:`Session.to_json
        <fivecard.play.view.Session.to_json>`); ``opening``: the player's
        stack before the first round, when none is settled yet."""
        with self._lock:  # taken out while it is brought up to date: no two requests change one
            seq, session = self._sessions.pop(game_id, (0, Session()))
        while True:
            rows = self.store.events_after(game_id, seq, _PAGE, "round_settled")
            for seq, event in rows:
                session.add(event)
            if len(rows) < _PAGE:
                break
        figures = session.to_json(opening)
        with self._lock:
            self._sessions[game_id] = (seq, session)
            self._sessions.move_to_end(game_id)
            while len(self._sessions) > self.kept:
                self._sessions.popitem(last=False)
        return figures
