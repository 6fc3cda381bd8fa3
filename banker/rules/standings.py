"""Standings and worth of a game's players: the worth the keypad, the CLI and the table page show, who leads, when it ends.

The valuations are :mod:`banker.rules.worth`'s; this module applies them to a
game (any :class:`Table`: the unit's :class:`banker.fold.game.Game` is one) by
card id and name, for every reader of a game: the keypad's worth and
standings screens (:mod:`banker.unit.flows.player`, :mod:`banker.unit.flows.game_menu`),
``banker rules state`` and the table page (``web/view.py``).
"""

from __future__ import annotations

from typing import Protocol
from collections.abc import Sequence

from banker.text.i18n import _, _n
from banker.journal.records import Card
from banker.rules.position import Position
from banker.rules.worth import end_game_worth, ranking, total_worth


class Table(Position, Protocol):
    """A game as the standings read it: a :class:`Position` that knows its players and bankruptcies."""

    @property
    def is_short_game(self) -> bool: ...

    def in_game(self) -> Sequence[Card]: ...

    def live_bankruptcies(self) -> int: ...


def worth_of(game: Position, card_id: int) -> int:
    """The player's total worth: cash + printed price of every deed + buildings at cost."""
    return total_worth(game, card_id)


def end_worth_of(game: Position, card_id: int) -> int:
    """The short and time-limit game's valuation (a mortgaged deed counts half its price)."""
    return end_game_worth(game, card_id)


def standings(game: Table) -> list[tuple[int, str, int]]:
    """(place, name, end value) of every player still in the game, richest first."""
    who = {c.id: c.name for c in game.in_game()}
    ranked = ranking(game, players=list(who), valuation=end_game_worth)
    return [(s.place, who[s.player], s.worth) for s in ranked]


def game_over_line(game: Table) -> str | None:
    """``Game over: Bob wins`` when one player is left, or at a short game's second bankruptcy; else None."""
    left = standings(game)
    if len(left) <= 1 or (game.is_short_game and game.live_bankruptcies() >= 2):
        winners = [name for place, name, _ in left if place == 1]
        if not winners:
            return _("Game over")
        return _n("Game over: {names} wins", "Game over: {names} win", len(winners), names=" & ".join(winners))
    return None
