"""What a keypad script or the serial test port asks of a unit's ledger: balances, deeds, worth, by name.

A mixin for the one script driver (:class:`runtime.script_driver.ScriptDriver`), which holds a ``ledger``:
the expectations are answered here once, for every backend whose unit is local.
"""

from __future__ import annotations

from banker.flows.common import worth_of
from banker.script import made_up_uid


class LedgerQueries:
    """Answers by player name and deed slug from ``self.ledger``."""

    ledger: object

    def uid_of(self, name: str) -> str:
        """The UID of the card enrolled as ``name``, or of the tag of the deed slug ``name``;
        any other name is an unknown card (a made-up UID)."""
        card = self.ledger.card_by_name(name)
        if card is not None:
            return card.uid
        tag = next((uid for uid, slug in self.ledger.deed_tags().items() if slug == name.lower()), None)
        return tag if tag is not None else made_up_uid(name)

    def balance(self, name: str) -> int | None:
        card = self.ledger.card_by_name(name)
        return None if card is None else self.ledger.balance(card.id)

    def balances(self) -> dict[str, int]:
        return self.ledger.balances()

    def owner(self, slug: str) -> str:
        """The owner's name, or "bank"; UnknownDeed for a slug of no deed."""
        self.ledger.edition().deed(slug)
        owner = self.ledger.estate().owner(slug)
        if owner is None:
            return "bank"
        return next((c.name for c in self.ledger.cards() if c.id == owner), f"card {owner}")

    def houses(self, slug: str) -> int:
        self.ledger.edition().deed(slug)
        return self.ledger.estate().houses(slug)

    def mortgaged(self, slug: str) -> bool:
        self.ledger.edition().deed(slug)
        return self.ledger.estate().is_mortgaged(slug)

    def bank_buildings(self) -> tuple[int, int]:
        estate = self.ledger.estate()
        return estate.houses_in_bank, estate.hotels_in_bank

    def worth(self, name: str) -> int | None:
        card = self.ledger.card_by_name(name)
        return None if card is None else worth_of(self.ledger.game(), card.id)
