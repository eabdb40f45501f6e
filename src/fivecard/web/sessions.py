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
again from its history. Views of one game at once take turns, so that
its history is read from the start once, not once per view. Each process
keeps its own: they are what the store's history says, whichever reads it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Final

from ..core.lang import LangLike
from ..play.game import Game
from ..play.view import Session
from .store import TableGameStore

__all__ = ["KEPT", "Sessions"]

#: How many games' figures are kept.
KEPT: Final = 64
_PAGE: Final = 500  # settled rounds read at a time


class _Kept:
    """One game's figures and the last event they read; its lock is held
    while they are brought up to date."""

    __slots__ = ("lock", "seq", "session")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seq = 0
        self.session = Session()


class Sessions:
    """The session figures of the games of a store of dealer games."""

    def __init__(self, store: TableGameStore[Game], kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, _Kept] = OrderedDict()

    def figures(self, game_id: str, opening: int, lang: LangLike = None) -> dict[str, Any]:
        """The game's figures for the player (:meth:`Session.to_json
        <fivecard.play.view.Session.to_json>`); ``opening``: the player's
        stack before the first round, when none is settled yet; ``lang``:
        the language of its sentence (the figures are the same in each).

        Views of one game at once take turns: the first brings its figures
        up to date, the others then read only what was settled since (not
        each the whole history from the start)."""
        with self._lock:
            kept = self._sessions.get(game_id)
            if kept is None:
                kept = self._sessions[game_id] = _Kept()
            self._sessions.move_to_end(game_id)
            while len(self._sessions) > self.kept:
                self._sessions.popitem(last=False)
        with kept.lock:
            try:
                while True:
                    rows = self.store.events_after(game_id, kept.seq, _PAGE, "round_settled")
                    for seq, event in rows:
                        kept.session.add(event)
                        kept.seq = seq
                    if len(rows) < _PAGE:
                        break
            except BaseException:  # (a round half added: read again from the start next time)
                kept.seq, kept.session = 0, Session()
                raise
            return kept.session.to_json(opening, lang)
