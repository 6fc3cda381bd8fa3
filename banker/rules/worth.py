"""What a player is worth: the total worth that Income Tax's 10% counts, the end-of-game valuation, and the ranking."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Iterable

from banker.rules.holdings import buildings_cost, owned_deeds
from banker.rules.position import Position

#: What a player is worth in a game: :func:`total_worth` or :func:`end_game_worth`.
Valuation = Callable[[Position, int], int]


@dataclass(frozen=True)
class Standing:
    """A player's place at the end (1 = richest; equal worth shares a place) and the worth counted."""

    place: int
    player: int
    worth: int


def total_worth(game: Position, player: int) -> int:
    """Cash + printed price of every deed owned (mortgaged or not) + cost price of buildings."""
    estate = game.estate
    deeds = owned_deeds(game.edition, estate, player)
    return (
        game.balances.get(player, 0)
        + sum(d.price for d in deeds)
        + sum(buildings_cost(d, estate, game.rules) for d in deeds)
    )


def end_game_worth(game: Position, player: int) -> int:
    """The short and time-limit game's valuation.

    Cash + printed price of each unmortgaged deed + half the printed price
    of each mortgaged deed (the official text lists them as separate items:
    a mortgaged deed counts half, not price plus half) + houses at cost +
    hotels at cost including the houses turned in for them.
    """
    estate = game.estate
    deeds = owned_deeds(game.edition, estate, player)
    return (
        game.balances.get(player, 0)
        + sum(d.price // 2 if estate.is_mortgaged(d.slug) else d.price for d in deeds)
        + sum(buildings_cost(d, estate, game.rules) for d in deeds)
    )


def ranking(
    game: Position,
    players: Iterable[int] | None = None,
    valuation: Valuation = end_game_worth,
) -> tuple[Standing, ...]:
    """The players (default: every card in the game's ``balances``), richest first, by ``valuation``.

    Pass only the players still in the game: a bankrupt player has retired.
    """
    who = list(game.balances) if players is None else list(players)
    worths = sorted(((valuation(game, p), p) for p in who), key=lambda wp: -wp[0])
    standings: list[Standing] = []
    for index, (worth, player) in enumerate(worths):
        tied = standings and standings[-1].worth == worth
        standings.append(Standing(standings[-1].place if tied else index + 1, player, worth))
    return tuple(standings)
