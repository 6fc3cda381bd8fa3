"""The local script driver: a keypad script's steps on a unit in this process, whatever hands carry its events in.

:class:`ScriptDriver` is the :class:`banker.script.run.Backend` of every
backend whose unit is here (all but ``serial``): the banker's acts go to the
ledger with the script's PIN as a grant (the write path decides whether it
is needed), the expectations are answered from the unit's game and screen
(:class:`LedgerQueries`), and the steps that are events go to its *hands*
(:class:`banker.script.hands.Hands`), which are all a backend adds: how a
card, a key or time reaches the unit, and its clock. It imports nothing but
the core: the unit (the shell) and the hands are given to it.

Example::

    unit = CoreBackend(ledger, pin="2468")   # runtime.script_shell: this driver with SimulatedHands
    unit.enrol("Alice", "04A1B2C3")   # the ledger checks the PIN, if one is set
    unit.insert("left", "Alice"); unit.press("1"); unit.press("M")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from banker.fold.authority import Grant
from banker.journal.records import normalise_uid
from banker.rules.standings import worth_of
from banker.script.hands import PRESS_SECONDS, Hands
from banker.script.syntax import made_up_uid
from banker.unit.screen import Screen

_OWN = object()  # "the driver's own PIN" (a serial line may carry one, or none)


class Unit(Protocol):
    """The unit a driver plays on: ``runtime.shell.Shell`` (its ledger is the one write path, ``runtime.ledger``)."""

    ledger: Any
    screen: Screen

    def show(self) -> None: ...  # draw the screen again (after a banker's act)
    def reseed(self, text: str) -> None: ...  # fresh random bytes from ``text`` from here on


class LedgerQueries:
    """Answers by player name and deed slug from ``self.ledger``."""

    ledger: Any

    def uid_of(self, name: str) -> str:
        """The UID of the card enrolled as ``name``, or of the tag of the deed slug ``name`` (or of the deed on
        its square in this game's board);
        any other name is an unknown card (a made-up UID)."""
        game = self.ledger.game()
        card = game.card_by_name(name)
        if card is not None:
            return card.uid
        wanted = name.lower()  # a tag by the slug it was written for, or by its square's deed on this board
        tag = next((uid for uid, slug in game.deed_tags.items()
                    if slug == wanted or (game.deed_of_tag(uid) or (None,))[0] == wanted), None)
        return tag if tag is not None else made_up_uid(name)

    def balance(self, name: str) -> int | None:
        game = self.ledger.game()
        card = game.card_by_name(name)
        return None if card is None else game.balance(card.id)

    def balances(self) -> dict[str, int]:
        return self.ledger.game().balances_by_name()

    def owner(self, slug: str) -> str:
        """The owner's name, or "bank"; UnknownDeed for a slug of no deed."""
        game = self.ledger.game()
        game.edition.deed(slug)
        owner = game.estate.owner(slug)
        if owner is None:
            return "bank"
        return next((c.name for c in game.cards if c.id == owner), f"card {owner}")

    def houses(self, slug: str) -> int:
        game = self.ledger.game()
        game.edition.deed(slug)
        return game.estate.houses(slug)

    def mortgaged(self, slug: str) -> bool:
        game = self.ledger.game()
        game.edition.deed(slug)
        return game.estate.is_mortgaged(slug)

    def bank_buildings(self) -> tuple[int, int]:
        estate = self.ledger.game().estate
        return estate.houses_in_bank, estate.hotels_in_bank

    def worth(self, name: str) -> int | None:
        game = self.ledger.game()
        card = game.card_by_name(name)
        return None if card is None else worth_of(game, card.id)

    def pot(self) -> int | None:
        """The Free Parking pot, or None when the game has none."""
        return self.ledger.game().pot


class ScriptDriver(LedgerQueries):
    """Runs keypad-script steps on ``shell`` through ``hands``; answers expectations from the shell's ledger and screen.

    ``pin``: the banker's PIN the script's ``enrol``/``enrol-deed`` carry as a
    grant (None: none given), journalled as ``via`` when wrong. ``hex_names``:
    a name that is nobody's and is hex is taken as the UID itself (the
    serial port's ``insert left 04A1B2C3``). ``unknown_uid(name)`` names the
    card of a name the ledger doesn't know (the window's blank tile); None:
    a made-up UID.
    """

    def __init__(self, shell: Unit, hands: Hands, *, pin: str | None = None, via: str = "script",
                 hex_names: bool = False, unknown_uid: Callable[[str], str | None] | None = None) -> None:
        self.shell = shell
        self.ledger = shell.ledger
        self.hands = hands
        self.pin = pin  # never shown, logged or sent back
        self.via = via
        self.hex_names = hex_names
        self.unknown_uid = unknown_uid

    def uid_of(self, name: str) -> str:
        uid = LedgerQueries.uid_of(self, name)
        if uid == made_up_uid(name) and self.ledger.game().card_by_name(name) is None:
            other = self.unknown_uid(name) if self.unknown_uid is not None else None
            if other is not None:
                return other
            if self.hex_names:
                try:
                    return normalise_uid(name)
                except ValueError:
                    pass
        return uid

    # -- the banker's acts: the ledger's write path decides whether they need the PIN ------------

    def enrol(self, name: str, uid: str, pin: str | None = _OWN) -> None:  # type: ignore[assignment]
        """Enrol a card for ``name`` with the PIN (``pin``: the one a serial line carried); a name enrolled does nothing."""
        if self.ledger.game().card_by_name(name) is None:
            self.ledger.enrol(name, uid, Grant(self.pin if pin is _OWN else pin, self.via))
            self.shell.show()

    def enrol_deed(self, slug: str, uid: str, pin: str | None = _OWN) -> None:  # type: ignore[assignment]
        """Give the deed ``slug`` the tag ``uid`` with the PIN (an unknown deed: the script's mistake, UnknownDeed)."""
        self.ledger.game().edition.deed(slug)
        self.ledger.enrol_deed(slug, uid, Grant(self.pin if pin is _OWN else pin, self.via))
        self.shell.show()

    # -- events: the hands' --------------------------------------------------------------------

    def insert(self, reader: str, name: str) -> None:
        self.hands.insert(reader, self.uid_of(name), name)

    def stack(self, reader: str, name: str) -> None:
        self.hands.stack(reader, self.uid_of(name), name)

    def remove(self, reader: str) -> None:
        self.hands.remove(reader)

    def press(self, key: str) -> None:
        self.hands.hold(key, PRESS_SECONDS)

    def hold(self, key: str, seconds: float) -> None:
        self.hands.hold(key, seconds)

    def wait(self, seconds: float) -> None:
        self.hands.wait(seconds)

    def seed(self, text: str) -> None:
        """The unit's fresh random bytes come from ``text`` from here on (the script's ``seed``)."""
        self.shell.reseed(text)

    def tap(self, reader: str, name: str) -> None:
        """Place a card or a deed's tag on the reader and take it away (the script's ``tap``)."""
        self.insert(reader, name)
        self.remove(reader)

    # -- what the unit shows -------------------------------------------------------------------

    def screen_lines(self) -> list[str]:
        return list(self.shell.screen.lines)

    def status(self) -> dict:
        game = self.ledger.game()
        return {"screen": self.screen_lines(), "balances": self.balances(), "volume": game.volume, "game": game.id}

    def close(self) -> None:
        getattr(self.hands, "close", lambda: None)()

    def __enter__(self) -> ScriptDriver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __getattr__(self, name: str):
        """What the hands add of their own (the window's ``drag``, the chips' ``hw``), read through the driver."""
        if name.startswith("__") or name == "hands":
            raise AttributeError(name)
        return getattr(self.hands, name)
