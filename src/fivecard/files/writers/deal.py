"""``deal``'s rounds, from chunks of dealt rounds
(:func:`fivecard.files.pipeline.dealt_chunks`).

Guarantees: per round (``Round N`` when there are several) a line per hand
as ``classify`` writes it (:mod:`~fivecard.files.writers.classify`), the
winners marked (``<- wins``, ``<- splits``), and the explanation in bold
with colour; or the same as lines to paste into a chat
(:meth:`DealWriter.chat`); or each round's JSON object laid out as
:func:`fivecard.core.report.write_json_object` lays out an item of its
``rounds`` array (:meth:`DealWriter.json_items`: the command streams them
between the deal's fields and its tally). With names, each hand is called
by its player's name (``Hand N`` in the explanations too), and each JSON
hand object opens with its ``player``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

import numpy as np

from ...core.columns import class_columns
from ...core.report import Painter, RawJson, write_json_object
from ...core.rules import RuleSet
from ...core.showdown import Outcome
from ...play.deal import DealTally
from ..pipeline import Chunk, dealt_chunks
from .base import Sink, TextBytes, WriterBase
from .cards import card, people_cards
from .classify import hand_tails, wild_tails
from .matrix import join_rows, numbers
from .memo import PerOutcome, PerStrength
from .objects import class_json, hand_objects
from .order import showdown_order

__all__ = ["DealWriter", "write_deal"]


class DealWriter(WriterBase):
    """``deal``'s rounds: :meth:`write` writes them as text to ``out``
    (:meth:`text` is one chunk's text); :meth:`json_items` gives each
    round's JSON text, an item of the rounds array."""

    def __init__(
        self, out: Sink, painter: Painter, rules: RuleSet, *, several: bool, names: Sequence[str] | None = None,
        chat: bool = False,
    ) -> None:
        super().__init__((), 0, rules, painter.lang)
        self.out = out
        self.painter = painter
        lang = self.lang
        self.several = several
        self.names = names
        self.for_chat = chat

        def named(o: Outcome) -> str:  # (the register of outcomes is shared: some are of other counts of hands)
            if names and sum(map(len, o.order)) == len(names):
                return o.explain(lang, names)
            return self.explanation(o)

        # Each hand's label in the text ("Hand 1: ", or its name, padded to the longest) and its JSON "player".
        labels = list(names) if names else None
        width = max(map(len, labels)) if labels else 0
        self.labels = None if labels is None else [f"{n}: ".ljust(width + 2).encode() for n in labels]
        self.players = None if labels is None else [
            b'\n          "player": ' + json.dumps(n, ensure_ascii=False).encode() + b"," for n in labels
        ]
        self.tails = hand_tails(rules, painter)
        self.classes = class_json(rules, " " * 8, lang)
        self.marks = PerOutcome(lambda o: sum(1 << w for w in o.winners) | (1 << 62 if o.is_split else 0), 0)
        self.explanations = PerOutcome(lambda o: self.painter.bold(named(o)).encode() + b"\n", b"")
        self.json_tails = PerOutcome(
            lambda o: self._json_tail(
                {"winners": [w + 1 for w in o.winners], "order": [[w + 1 for w in t] for t in o.order],
                 "explanation": named(o)}
            ),
            self._json_tail({"winners": None, "order": None, "explanation": None}),
        )
        columns = class_columns(rules)
        self.dash = " - " if painter.ascii else " \N{EM DASH} "  # (an output without the suit symbols: ASCII)
        self.chat_tails = PerStrength(rules, lambda s: f"{self.dash}{columns.description(s, lang)}")
        # The words of the text: the marks of the winners, a round's heading.
        self.wins, self.splits = painter.win_word(False), painter.win_word(True)
        self.round_word = "Round" if lang.english else lang.pgettext("deal", "Round", "files")
        self.chat_explanations = PerOutcome(named, "")

    @staticmethod
    def _json_tail(fields: dict[str, Any]) -> bytes:
        body = json.dumps(fields, ensure_ascii=False, indent=2)[1:-2].replace("\n", "\n    ")
        return ("," + body + "\n    }").encode()

    def write(self, chunk: Chunk) -> None:
        self.out.write(self.chat(chunk) if self.for_chat else self.text(chunk))

    def close(self) -> None:
        self.out.flush()

    def text(self, chunk: Chunk) -> bytes:
        """The chunk's rounds as text."""
        h = len(chunk.strength)
        if not h:
            return b""
        players = int(chunk.count[0])
        identity = np.broadcast_to(np.arange(5), (h, 5))
        grid = np.empty((h, 7), dtype=object)
        position = np.tile(np.arange(players), len(chunk))
        labels = self.labels or [f"{self.painter.hand_label(p + 1)}: ".encode() for p in range(players)]
        grid[:, 0] = labels * len(chunk)
        grid[:, 1] = people_cards(chunk, self.painter, identity)
        grid[:, 2] = b" ->  "
        grid[:, 3] = people_cards(chunk, self.painter, showdown_order(chunk))
        grid[:, 4] = wild_tails(chunk, self.tails(chunk.strength), self.painter)
        marks = np.repeat(self.marks(chunk).astype(np.int64), players)
        won = (marks >> position) & 1 == 1
        split = (marks >> 62) & 1 == 1
        grid[:, 5] = np.where(won, np.where(split, f"  <- {self.splits}".encode(), f"  <- {self.wins}".encode()), b"")
        grid[:, 6] = b"\n"
        lines = grid.reshape(len(chunk), players * 7)
        rounds = np.empty((len(chunk), 4), dtype=object)
        if self.several:
            rounds[:, 0] = numbers(chunk.line, f"{self.round_word} ".encode(), b"\n")
        else:
            rounds[:, 0] = b""
        rounds[:, 1] = [b"".join(row) for row in lines.tolist()]
        rounds[:, 2] = self.explanations(chunk)
        rounds[:, 3] = b"\n" if self.several else b""
        return join_rows(rounds)

    def chat(self, chunk: Chunk) -> bytes:
        """The chunk's rounds as lines to paste into a chat: per round
        (``Round N`` when there are several) a line per hand, ``Ann: A♠ K♠
        Q♦ 8♣ 3♥ — High Card, A-K-Q-8-3 — wins`` (its cards in showdown
        order at single spaces, its description, ``wins`` or ``splits``),
        then the explanation. Plain text: no colour, nothing aligned (in
        ASCII, where the output has no suit symbols: ``As``, `` - ``)."""
        if not len(chunk.strength):
            return b""
        players = int(chunk.count[0])
        text = self.painter.text
        cards = np.take_along_axis(chunk.indices, showdown_order(chunk), axis=1).tolist()
        tails = self.chat_tails(chunk.strength).tolist()
        marks = self.marks(chunk).tolist()
        explanations = self.chat_explanations(chunk).tolist()
        labels = list(self.names) if self.names else [self.painter.hand_label(p + 1) for p in range(players)]
        lines: list[str] = []
        for r, (number, mark, why) in enumerate(zip(chunk.line.tolist(), marks, explanations)):
            if self.several:
                lines.append(f"{self.round_word} {number}")
            for p, label in enumerate(labels):
                won = "" if not (mark >> p) & 1 else f"{self.dash}{self.splits}" if (mark >> 62) & 1 else f"{self.dash}{self.wins}"
                hand = r * players + p
                lines.append(f"{label}: {' '.join(text(card(i)) for i in cards[hand])}{tails[hand]}{won}")
            lines.extend([why] if why else [])
            lines.extend([""] if self.several else [])
        return "".join(line + "\n" for line in lines).encode()

    def json_items(self, chunk: Chunk) -> list[str]:
        """Each round's JSON text (an item of the rounds array)."""
        h = len(chunk.strength)
        if not h:
            return []
        players = int(chunk.count[0])
        objects = hand_objects(chunk, self.classes(chunk.strength), " " * 8, lang=self.lang)
        if self.players is not None:  # each hand's object opens with its player's name
            objects[:, 0] = [b"{" + name + head[1:] for name, head in zip(self.players * len(chunk), objects[:, 0].tolist())]
        grid = np.empty((h, 3), dtype=object)
        grid[:, 0] = b",\n        "
        grid[::players, 0] = b""
        grid[:, 1:] = objects
        hands = grid.reshape(len(chunk), players * 3)
        heads = numbers(chunk.line, b'{\n      "round": ', b',\n      "hands": [\n        ')
        tails = self.json_tails(chunk)
        return [
            (head + b"".join(row) + b"\n      ]" + tail).decode()
            for head, row, tail in zip(heads.tolist(), hands.tolist(), tails.tolist())
        ]


def write_deal(
    out: TextIO, players: int, *, rules: RuleSet, seed: int, rounds: int = 1, painter: Painter, as_json: bool = False,
    names: Sequence[str] | None = None, chat: bool = False,
) -> DealTally:
    """Deal ``rounds`` rounds of ``players`` hands from ``seed`` and write
    each to ``out`` as it is dealt (memory does not grow with the rounds):
    as text, or as one JSON document (the rules, seed and players, the
    ``rounds`` array, then the tally's ``to_json()``). ``names``: the
    players' names (one a player, checked: :func:`~fivecard.play.deal.check_names`),
    which the text shows for ``Hand N`` and the JSON adds (``names``, each
    hand's ``player``, each tally line's ``name``). ``chat``: the text as
    lines to paste into a chat (:meth:`DealWriter.chat`). Returns the tally of
    wins (the text's caller prints it: :meth:`DealTally.text`)."""
    tally = DealTally(players, rules, names)
    if chat:  # plain text: a chat shows no terminal colours
        painter = Painter(color=False, ascii=painter.ascii, lang=painter.lang)
    writer = DealWriter(TextBytes(out), painter, rules, several=rounds > 1, names=names, chat=chat)

    def dealt() -> Iterator[Chunk]:  # each chunk of rounds as it is dealt, tallied
        for chunk in dealt_chunks(players, rules=rules, seed=seed, rounds=rounds):
            tally.add_chunk(chunk)
            yield chunk

    def fields() -> Iterator[tuple[str, Any]]:  # streamed: each round as it is dealt, the tally last
        yield from (("rules", rules.name), ("seed", seed), ("players", players))
        if names:
            yield "names", list(names)
        yield "rounds", (RawJson(item) for chunk in dealt() for item in writer.json_items(chunk))
        yield "tally", tally.to_json()

    if as_json:
        write_json_object(out, fields())
    else:
        for chunk in dealt():
            writer.write(chunk)
    return tally
