"""What the edge tests share: a two-player game as the unit folds it, and a payment to commit on it."""

from dataclasses import replace
from types import MappingProxyType

from banker.fold.game import Game
from banker.fold.game import apply as fold
from banker.journal.records import Posting, Transaction
from tests.rules.table import Table

ALICE, BOB = 1, 2


def game_with(alice: int = 15_000_000, bob: int = 15_000_000, **settings) -> Game:
    """Game 1 of the US edition, Alice and Bob holding these balances (settings: the game's, e.g. allow_negative)."""
    game = Table.new(players=(ALICE, BOB)).as_game()
    game = replace(game, balances=MappingProxyType({ALICE: alice, BOB: bob}))
    return replace(game, settings=replace(game.settings, **settings)) if settings else game


def payment(at: Game, amount: int, payer: int = ALICE, payee: int = BOB, **fields) -> Transaction:
    """The game's next transaction: ``payer`` pays ``payee`` ``amount`` (``fields``: id, game... overridden)."""
    return replace(at.numbered(Transaction("pay", (Posting(payer, payee, amount, "pay"),))), **fields)


def commit(game: Game, tx: Transaction) -> Game:
    return fold(game, tx)
