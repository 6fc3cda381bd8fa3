"""A whole game held in memory (edition, estate, balances, rules), for the rules tests.

The unit itself folds its journal into a :class:`banker.fold.game.Game`; a
:class:`Table` is the same :class:`~banker.rules.position.Position` kept in
memory, so rules can be played in a few readable lines::

    >>> table = Table.new(players=(1, 2))
    >>> table = table.play(buy, buyer=1, slug="baltic-avenue")
    >>> table.balance(1)
    14400000
    >>> table.estate.owner("baltic-avenue")
    1
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from collections.abc import Callable, Iterable, Mapping

from banker.rules.deeds import Edition
from banker.fold.game import Game
from banker.fold.game import apply as fold
from cards import load_edition
from banker.journal.records import GameSettings, moved
from banker.rules.deal import Deal
from banker.rules.estate import Estate, apply, owner_change, reverse
from banker.rules.purchase import buy  # noqa: F401  (re-exported for the doctest above)
from banker.rules.settings import STANDARD, RuleSettings

Rule = Callable[..., Deal]


@dataclass(frozen=True)
class Table:
    """One game's state (a rules position); :meth:`play` a rule to get the next table (the old one is unchanged)."""

    edition: Edition
    estate: Estate
    balances: Mapping[int, int]
    rules: RuleSettings = STANDARD

    @classmethod
    def new(
        cls,
        players: Iterable[int] = (1, 2, 3),
        edition: Edition | None = None,
        rules: RuleSettings = STANDARD,
    ) -> Table:
        """A new game: every player holds the start balance, every deed is with the bank."""
        edition = edition or load_edition("us")
        balances = {player: edition.start_balance for player in players}
        return cls(edition, Estate.new(edition), MappingProxyType(balances), rules)

    def deal(self, rule: Rule, **details: object) -> Deal:
        """What ``rule`` decides on this table (raises if it refuses)."""
        return rule(self, **details)

    def play(self, rule: Rule, **details: object) -> Table:
        """The table after ``rule``'s deal is carried out."""
        return self.after(self.deal(rule, **details))

    def after(self, deal: Deal) -> Table:
        """The table after the deal is committed, by the unit's own fold (:func:`banker.fold.game.apply`): money moved,
        changes applied, and :class:`~banker.errors.InsufficientFunds` if a payer cannot cover it."""
        game = self.as_game()
        game = fold(game, game.numbered(deal.to_transaction()))
        return replace(self, estate=game.estate, balances=game.balances)

    def as_game(self) -> Game:
        """This table as the unit's game: game 1 of its edition and rules, each player enrolled as "Player N"."""
        r = self.rules
        settings = GameSettings(allow_negative=r.allow_negative, houses_for_hotel=r.houses_for_hotel,
                                income_tax_choice=r.income_tax_choice, luxury_tax=r.luxury_tax,
                                edition=self.edition.name)
        return Game(editions=MappingProxyType({self.edition.name: self.edition}), id=1, settings=settings,
                    names=MappingProxyType({p: f"Player {p}" for p in self.balances}), balances=self.balances,
                    estate=self.estate)

    def undo(self, deal: Deal) -> Table:
        """The table with ``deal`` reversed (its money moved back, its changes undone)."""
        return replace(self, estate=apply(self.estate, reverse(deal.changes)),
                       balances=MappingProxyType(moved(self.balances, deal.postings, sign=-1)))

    def hand(self, player: int, *slugs: str) -> Table:
        """Give unsold deeds to ``player`` free of charge (setting up a position)."""
        changes = tuple(owner_change(self.estate, slug, player) for slug in slugs)
        return replace(self, estate=apply(self.estate, changes))

    def with_balance(self, player: int, amount: int) -> Table:
        """Set a player's cash (setting up a position)."""
        return replace(self, balances=MappingProxyType({**self.balances, player: amount}))

    def balance(self, player: int) -> int:
        return self.balances[player]
