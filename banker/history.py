"""The fold read back: each game as :func:`banker.game.apply` last held it, and a game before its first transaction.

What the game list, restore, the content audit and the table page's chart
need of a game's past, taken from the one fold rather than derived from the
records a second way: a rule change or a new record kind needs nothing here.

>>> from banker import acts
>>> from banker.records import GameSettings
>>> from cards import editions
>>> first = acts.new_game(Game(editions=editions()), GameSettings())
>>> sorted(game_states([first], editions=editions()))
[1]
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from collections.abc import Iterable, Mapping

from .deeds import Edition
from .game import Game, apply
from .records import Checkpoint, GameRestored, Record

def game_states(records: Iterable[Record], *, editions: Mapping[str, Edition],
                start: Game | None = None) -> dict[int, tuple[Game, Game]]:
    """Each game as the fold first and last held it, by game id, folding ``records`` from ``start``.

    First: just after the record that made it current the first time (its
    start); last: just before another game became current (the current
    game: now). No record kind is named, so a new one that starts or brings
    back a game needs nothing here. :class:`banker.errors.Refused` if a
    record does not fold.
    """
    game = start if start is not None else Game(editions=MappingProxyType(dict(editions)))
    first: dict[int, Game] = {game.id: game} if game.id else {}
    last: dict[int, Game] = {}
    for record in records:
        after = apply(game, record)
        if after.id != game.id:
            if game.id:
                last[game.id] = game
            first.setdefault(after.id, after)
        game = after
    if game.id:
        last[game.id] = game
    return {gid: (first[gid], state) for gid, state in last.items()}


def before_play(game: Game) -> Game:
    """``game`` with its current game as it stood before its first transaction (its cards and names as now).

    The game brought back, by :func:`apply`, with nothing played yet; its
    transactions folded from here one by one give the game after each of
    them (the table page's worth chart).
    """
    fresh = apply(game, GameRestored(Checkpoint(game.id, game.settings, game.started, (), (), None, (), (), 0)))
    return replace(fresh, next_tx=1)
