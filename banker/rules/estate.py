"""The estate: who owns each deed, its buildings and mortgage, the jail cards; changed only by reversible changes.

An :class:`Estate` is immutable. It changes by :func:`apply` of *changes*,
typed values (:data:`banker.journal.records.EstateChange`) that record the value
before AND after, so that a journal can replay them (:func:`replay`) and
undo them (:func:`reverse`)::

    OwnerChange(slug, before, after)      # card id, or None for the bank (unsold)
    HousesChange(slug, before, after)     # 0-4 houses, 5 = a hotel
    MortgageChange(slug, before, after)   # bool
    JailCardChange(before, after)         # one Get Out of Jail Free card moves:
                                          # card id, or None for the deck
    RetiredChange(player, before, after)  # bool: the player is out of the game (bankrupt)

The bank's houses and hotels are not stored: they are the edition's stock
minus what stands on the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING
from collections.abc import Iterable, Mapping

from banker.frozen import replace
from banker.errors import Refused
from banker.journal.records import EstateChange, HousesChange, JailCardChange, MortgageChange, OwnerChange, RetiredChange

if TYPE_CHECKING:
    from banker.rules.deeds import Edition

#: The ``houses`` value of a lot with a hotel.
HOTEL = 5

Owner = int | None
Change = EstateChange


class EstateConflict(Refused):
    """Changes that do not fit the estate (a stale undo, a corrupt journal); nothing was applied."""


@dataclass(frozen=True)
class Estate:
    """Who owns what. Read it through the methods; build new ones with :func:`apply`.

    ``owners`` lists sold deeds only, ``buildings`` built lots only (1-5),
    ``jail_cards`` the players holding cards (count > 0). ``house_stock``,
    ``hotel_stock`` and ``jail_card_stock`` are the game's totals; ``retired``
    the players out of the game (bankrupt).
    """

    owners: Mapping[str, int]
    buildings: Mapping[str, int]
    mortgaged: frozenset[str]
    jail_cards: Mapping[int, int]
    house_stock: int = 32
    hotel_stock: int = 12
    jail_card_stock: int = 2
    retired: frozenset[int] = frozenset()

    @classmethod
    def new(cls, edition: Edition) -> Estate:
        """The estate at the start of a game: every deed with the bank, all buildings in the bank."""
        return cls(
            owners=MappingProxyType({}),
            buildings=MappingProxyType({}),
            mortgaged=frozenset(),
            jail_cards=MappingProxyType({}),
            house_stock=edition.houses,
            hotel_stock=edition.hotels,
            jail_card_stock=edition.jail_cards,
        )

    def owner(self, slug: str) -> Owner:
        """The card that owns the deed, or ``BANK`` (None) if it is unsold."""
        return self.owners.get(slug)

    def houses(self, slug: str) -> int:
        """Houses on the lot: 0-4, or ``HOTEL`` (5)."""
        return self.buildings.get(slug, 0)

    def is_mortgaged(self, slug: str) -> bool:
        return slug in self.mortgaged

    def deeds_of(self, player: int) -> tuple[str, ...]:
        """The slugs the player owns (in no particular order: the edition knows the board order)."""
        return tuple(slug for slug, owner in self.owners.items() if owner == player)

    def jail_cards_of(self, player: Owner) -> int:
        """Get Out of Jail Free cards held by ``player``; ``None`` asks how many are still in the decks."""
        if player is None:
            return self.jail_card_stock - sum(self.jail_cards.values())
        return self.jail_cards.get(player, 0)

    @property
    def houses_in_bank(self) -> int:
        return self.house_stock - sum(n for n in self.buildings.values() if n != HOTEL)

    @property
    def hotels_in_bank(self) -> int:
        return self.hotel_stock - sum(1 for n in self.buildings.values() if n == HOTEL)


def apply(estate: Estate, changes: Iterable[Change]) -> Estate:
    """The estate after ``changes``, in order; :class:`EstateConflict` if any ``before`` is not what is there.

    The whole batch is checked (every before value, then the invariants:
    buildings and mortgages only on sold deeds, never both, bank stock not
    overdrawn) and applied only if all is well.
    """
    owners = dict(estate.owners)
    buildings = dict(estate.buildings)
    mortgaged = set(estate.mortgaged)
    jail_cards = dict(estate.jail_cards)
    retired = estate.retired
    for change in changes:
        kind = type(change)
        if kind is OwnerChange:
            _expect(owners.get(change.slug), change)
            _store(owners, change.slug, change.after, absent=None)
        elif kind is HousesChange:
            _build(buildings, change)
        elif kind is MortgageChange:
            _expect(change.slug in mortgaged, change)
            (mortgaged.add if change.after else mortgaged.discard)(change.slug)
        elif kind is JailCardChange:
            _pass_jail_card(jail_cards, change)
        elif kind is RetiredChange:
            _expect(change.player in retired, change)
            retired = retired | {change.player} if change.after else retired - {change.player}
        else:
            raise EstateConflict(f"unknown change {change!r}")
    result = Estate(
        owners=MappingProxyType(owners),
        buildings=MappingProxyType(buildings),
        mortgaged=frozenset(mortgaged),
        jail_cards=MappingProxyType(jail_cards),
        house_stock=estate.house_stock,
        hotel_stock=estate.hotel_stock,
        jail_card_stock=estate.jail_card_stock,
        retired=retired,
    )
    _check_invariants(result)
    return result


def _build(buildings: dict[str, int], change: HousesChange) -> None:
    """A lot's buildings change: 0 to 4 houses, or a hotel."""
    _expect(buildings.get(change.slug, 0), change)
    if not (isinstance(change.after, int) and 0 <= change.after <= HOTEL):
        raise EstateConflict(f"bad houses value in {change!r}")
    _store(buildings, change.slug, change.after, absent=0)


def _pass_jail_card(jail_cards: dict[int, int], change: JailCardChange) -> None:
    """A jail card changes hands (``None``: the pile): whoever gives one must hold one."""
    before, after = change.before, change.after
    if before is not None:
        if jail_cards.get(before, 0) < 1:
            raise EstateConflict(f"{before} holds no jail card: {change!r}")
        _store(jail_cards, before, jail_cards[before] - 1, absent=0)
    if after is not None:
        jail_cards[after] = jail_cards.get(after, 0) + 1


def reverse(changes: Iterable[Change]) -> tuple[Change, ...]:
    """The changes that undo ``changes``: the same changes, last first, before and after swapped."""
    return tuple(replace(c, before=c.after, after=c.before) for c in reversed(tuple(changes)))


def replay(edition: Edition, journal: Iterable[Iterable[Change]]) -> Estate:
    """The estate after every batch of changes in the journal, from a new game."""
    estate = Estate.new(edition)
    for changes in journal:
        estate = apply(estate, changes)
    return estate


def building_changes(estate: Estate | None) -> tuple[Change, ...]:
    """The changes that build ``estate`` from a new game's estate (a checkpoint keeps an estate as these)."""
    if estate is None:
        return ()
    changes: list[Change] = [OwnerChange(slug, None, owner) for slug, owner in sorted(estate.owners.items())]
    changes += [MortgageChange(slug, False, True) for slug in sorted(estate.mortgaged)]
    changes += [HousesChange(slug, 0, n) for slug, n in sorted(estate.buildings.items())]
    for player, count in sorted(estate.jail_cards.items()):
        changes += [JailCardChange(None, player)] * count
    changes += [RetiredChange(player, False, True) for player in sorted(estate.retired)]
    return tuple(changes)


def owner_change(estate: Estate, slug: str, after: Owner) -> OwnerChange:
    return OwnerChange(slug, estate.owner(slug), after)


def houses_change(estate: Estate, slug: str, after: int) -> HousesChange:
    return HousesChange(slug, estate.houses(slug), after)


def mortgaged_change(estate: Estate, slug: str, after: bool) -> MortgageChange:
    return MortgageChange(slug, estate.is_mortgaged(slug), after)


def jail_card_change(before: Owner, after: Owner) -> JailCardChange:
    return JailCardChange(before, after)


def retired_change(estate: Estate, player: int, after: bool) -> RetiredChange:
    return RetiredChange(player, player in estate.retired, after)


def _expect(actual: object, change: Change) -> None:
    before = change.before
    if actual != before or type(actual) is not type(before):
        raise EstateConflict(f"estate has {actual!r}, change expects {before!r}: {change!r}")


def _store(table: dict, key: object, value: object, absent: object) -> None:
    if value == absent:
        table.pop(key, None)
    else:
        table[key] = value


def _check_invariants(estate: Estate) -> None:
    for slug in estate.buildings:
        if estate.owner(slug) is None:
            raise EstateConflict(f"buildings on unsold deed {slug}")
        if estate.is_mortgaged(slug):
            raise EstateConflict(f"buildings on mortgaged deed {slug}")
    for slug in estate.mortgaged:
        if estate.owner(slug) is None:
            raise EstateConflict(f"unsold deed {slug} is mortgaged")
    if estate.houses_in_bank < 0 or estate.hotels_in_bank < 0:
        raise EstateConflict("more buildings on the board than the game has")
    if estate.jail_cards_of(None) < 0:
        raise EstateConflict("more jail cards held than the game has")
