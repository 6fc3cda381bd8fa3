"""The estate's changes inside a transaction: each records the value before and after, so it can be checked,
replayed and undone (:mod:`banker.rules.estate` applies and reverses them; :mod:`banker.journal.records` re-exports them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class OwnerChange:
    """The deed ``slug`` passes from ``before`` to ``after`` (card ids; ``BANK``, None: unsold)."""

    word: ClassVar[str] = "owner"
    slug: str
    before: int | None
    after: int | None


@dataclass(frozen=True)
class HousesChange:
    """The lot ``slug`` goes from ``before`` to ``after`` buildings (0-4 houses, 5 a hotel)."""

    word: ClassVar[str] = "houses"
    slug: str
    before: int
    after: int


@dataclass(frozen=True)
class MortgageChange:
    """The deed ``slug`` was mortgaged (``before``) and is mortgaged (``after``), or not."""

    word: ClassVar[str] = "mortgaged"
    slug: str
    before: bool
    after: bool


@dataclass(frozen=True)
class JailCardChange:
    """One Get Out of Jail Free card passes from ``before`` to ``after`` (card ids; None: the decks)."""

    word: ClassVar[str] = "jail-card"
    before: int | None
    after: int | None


@dataclass(frozen=True)
class RetiredChange:
    """The player ``player`` was out of the game (``before``) and is (``after``), or not: a bankruptcy retires them,
    its undo brings them back. A retired player's card is refused in every transaction that follows."""

    word: ClassVar[str] = "retired"
    player: int
    before: bool
    after: bool


#: One change of the estate (:mod:`banker.rules.estate` applies and reverses them).
EstateChange = OwnerChange | HousesChange | MortgageChange | JailCardChange | RetiredChange
