"""What the rules read of a game: the Position protocol (edition, estate, balances, rules).

Every rule takes a position as its one positional argument. Anything with
these four attributes is one: the unit's immutable :class:`banker.fold.game.Game`,
and the in-memory :class:`tests.rules.table.Table` of the rules tests. The
rules only read a position; they never change it.
"""

from __future__ import annotations

from typing import Protocol
from collections.abc import Mapping

from banker.rules.deeds import Edition
from banker.rules.estate import Estate
from banker.rules.settings import RuleSettings

#: Cash by card id, in dollars.
Balances = Mapping[int, int]


class Position(Protocol):
    """One game's state as the rules see it, read-only.

    ``edition``: the deed set; ``estate``: who owns what, buildings,
    mortgages and jail cards; ``balances``: each card's cash (a card that is
    missing holds 0); ``rules``: the house rules the game is played by.
    """

    @property
    def edition(self) -> Edition: ...

    @property
    def estate(self) -> Estate: ...

    @property
    def balances(self) -> Balances: ...

    @property
    def rules(self) -> RuleSettings: ...
