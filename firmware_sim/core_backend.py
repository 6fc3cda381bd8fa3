"""The keypad-script backend that feeds events straight into the core unit (``--backend core``).

Time is simulated: a key press is down for 50 ms, and ``wait``/``hold``
advance the clock in ticks, so a script of an evening's game runs in
milliseconds and holds and sleep behave as on the device.
"""

from __future__ import annotations

from banker.events import CardPlaced, CardRemoved, Effect, Event, KeyDown, KeyUp, Tick
from banker.flows.common import worth_of
from banker.ledger import Ledger
from banker.script import made_up_uid
from banker.unit import Unit

PRESS_SECONDS = 0.05
TICK_SECONDS = 0.25


class CoreBackend:
    """Runs script steps on a :class:`Unit` over ``ledger``; records every effect in ``effects``."""

    def __init__(self, ledger: Ledger, *, start: float = 0.0) -> None:
        self.ledger = ledger
        self.t = start
        self.unit = Unit(ledger, now=start)
        self.effects: list[Effect] = []

    def _send(self, event: Event) -> None:
        self.effects.extend(self.unit.handle(event))

    def _advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t + TICK_SECONDS < end:
            self.t += TICK_SECONDS
            self._send(Tick(self.t))
        self.t = end
        self._send(Tick(self.t))

    def uid_of(self, name: str) -> str:
        """The UID of the card enrolled as ``name``, or of the tag of the deed slug ``name``;
        any other name is an unknown card (a made-up UID)."""
        card = self.ledger.card_by_name(name)
        if card is not None:
            return card.uid
        tag = next((uid for uid, slug in self.ledger.deed_tags().items() if slug == name.lower()), None)
        return tag if tag is not None else made_up_uid(name)

    def enrol(self, name: str, uid: str) -> None:
        if self.ledger.card_by_name(name) is None:
            self.ledger.enrol(name, uid)

    def insert(self, reader: str, name: str) -> None:
        self.t += PRESS_SECONDS
        self._send(CardPlaced(reader, self.uid_of(name), self.t))

    def remove(self, reader: str) -> None:
        self.t += PRESS_SECONDS
        self._send(CardRemoved(reader, self.t))

    def press(self, key: str) -> None:
        self.hold(key, PRESS_SECONDS)

    def hold(self, key: str, seconds: float) -> None:
        self.t += PRESS_SECONDS
        self._send(KeyDown(key, self.t))
        self._advance(seconds)
        self._send(KeyUp(key, self.t))

    def wait(self, seconds: float) -> None:
        self._advance(seconds)

    def balance(self, name: str) -> int | None:
        card = self.ledger.card_by_name(name)
        return None if card is None else self.ledger.balance(card.id)

    def screen_lines(self) -> list[str]:
        return list(self.unit.screen.lines)

    # -- title deeds and the rules -------------------------------------------------------

    def enrol_deed(self, slug: str, uid: str) -> None:
        self.ledger.enrol_deed(slug, uid)

    def owner(self, slug: str) -> str:
        self.ledger.edition().deed(slug)  # UnknownDeed for a slug of no deed
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
        return None if card is None else worth_of(self.ledger, card.id)

    def tap(self, reader: str, name: str) -> None:
        """Place a card or a deed's tag on the reader and take it away (the script's ``tap``)."""
        self.insert(reader, name)
        self.remove(reader)
