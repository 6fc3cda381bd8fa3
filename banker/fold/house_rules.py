"""The house rules and game modes in the fold: the Free Parking pot as a party, the time-limit game's play clock.

:func:`banker.fold.game.apply` hands these the game; they return the next one
(``dataclasses.replace``) or raise :class:`~banker.errors.Refused`. They read the
game's value (:mod:`banker.fold.state`), never the fold that imports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.frozen import replace
from banker.text.i18n import _
from banker.errors import Refused
from banker.journal.records import POT, SUMS, GameSettings, PlayClock

if TYPE_CHECKING:
    from banker.fold.state import Game


def check_modes(settings: GameSettings) -> None:
    """Refuse a new game's modes that can't be played: a time limit of no time, an unknown way of showing sums."""
    if settings.time_limit is not None and settings.time_limit <= 0:
        raise Refused("a time limit is a positive number of seconds")
    if settings.sums not in (None, *SUMS):
        raise Refused(f"sums {settings.sums!r}: show or ask")
    if settings.jackpot is not None and settings.jackpot < 0:
        raise Refused("the Free Parking seed can't be below zero")


def party(game: Game, party: int) -> None:
    """A posting's party that is no card: the Free Parking pot, in a game with the jackpot house rule; else refused."""
    if party != POT:
        raise Refused(f"card {party} was never enrolled")
    if game.settings.jackpot is None:
        raise Refused(_('this game has no Free Parking pot'))


def play_clock(game: Game, rec: PlayClock) -> Game:
    """A time-limit game's play count moves on (never back); the record that reaches the limit ends the game."""
    limit = game.settings.time_limit
    if rec.game != game.id or limit is None:
        raise Refused(f"game {rec.game} is not a current time-limit game")
    if game.time_up:
        raise Refused(_('Time is up: game over'))
    if not game.played <= rec.played <= limit:
        raise Refused(f"the play clock can't go from {game.played:g} s to {rec.played:g} s of {limit} s")
    return replace(game, played=rec.played)
