"""The web app's own refusals: what a request meets that is about the
server and its browsers, never about a hand, a rule set or a game's rules.
They are not :class:`ValueError`\\ s (the library's bad input is the
:class:`~fivecard.core.errors.FivecardError` family, 422; an action a game
does not allow is its :class:`~fivecard.play.table_game.GameError`, 409, or
:class:`~fivecard.play.table_game.RoleRequired`, 403). Each class carries
its HTTP status; ``wait``, where set, is the answer's ``Retry-After``.

A data folder that cannot keep a change is a
:class:`~fivecard.web.store.StorageError`, an :class:`OSError`.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["WebError", "NotFound", "NotYours", "TooFast", "AtCapacity", "AdvisorBusy"]


class WebError(Exception):
    """A request the server refuses for its own reasons: ``status`` is the
    answer's HTTP status, ``wait`` (seconds, or None) its ``Retry-After``.
    Raised as itself, a request the server cannot take as it is (400: two
    owner cookies, of which one may have been planted)."""

    status: ClassVar[int] = 400

    def __init__(self, message: str, wait: int | None = None) -> None:
        super().__init__(message)
        self.wait = wait


class NotFound(WebError):
    """No game (or friends' table) has that id."""

    status = 404


class NotYours(WebError):
    """The game belongs to another browser (or this one has no owner cookie)."""

    status = 403


class TooFast(WebError):
    """More requests than a client may make; ``wait``: the seconds until the next one is taken."""

    status = 429

    def __init__(self, message: str, wait: int = 1) -> None:
        super().__init__(message, wait)


class AtCapacity(WebError):
    """The server holds as many of something (games, friends' tables, event
    streams) as it may."""

    status = 503


class AdvisorBusy(AtCapacity):
    """No turn at the advisor now (503, with ``Retry-After``: ``wait`` seconds)."""

    def __init__(self, message: str, wait: int = 1) -> None:
        super().__init__(message, wait)
