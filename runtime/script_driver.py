"""The one local script driver: a keypad script's steps on the one shell, whatever carries its events in.

:class:`ScriptDriver` is the :class:`banker.script.run.Backend` of every
backend whose unit is here: the banker's acts go to the ledger with the
script's PIN as a grant (the write path decides whether it is needed), the
expectations are answered from the shell's game and screen
(:class:`LedgerQueries`, once for every backend whose unit is local), and the steps that are events go
to its *hands* (:class:`Hands`), which are all a backend adds: how a card, a
key or time reaches the unit, and its clock.

- :class:`SimulatedHands` (``core``): events straight into the shell, on a
  simulated clock (a key is down 50 ms, time passes in 250 ms ticks);
- :class:`RealTimeHands` (the live unit behind its serial test port): the
  same events on the shell's clock, time passing in :meth:`Shell.run`;
- ``firmware_sim.hw_sim.ChipHands``: tags on the simulated chips' antennas,
  keys on the matrix, read by the real drivers;
- ``firmware_sim.window_backend.WindowHands``: the desktop window's mouse.

Example::

    unit = CoreBackend(ledger, pin="2468")
    unit.enrol("Alice", "04A1B2C3")   # the ledger checks the PIN, if one is set
    unit.insert("left", "Alice"); unit.press("1"); unit.press("M")
"""

from __future__ import annotations

import time
from typing import Protocol
from collections.abc import Callable

from banker.fold.authority import Grant
from banker.unit.events import Effect, Event, KeyDown, KeyUp, Tick
from banker.rules.standings import worth_of
from banker.unit.panel import SLEEP_AFTER
from banker.journal.records import normalise_uid
from banker.script.syntax import made_up_uid
from banker.script.run import Hands as CardsInHand

from .shell import Shell

PRESS_SECONDS = 0.05
TICK_SECONDS = 0.25
_OWN = object()  # "the driver's own PIN" (a serial line may carry one, or none)


class LedgerQueries:
    """Answers by player name and deed slug from ``self.ledger``."""

    ledger: object

    def uid_of(self, name: str) -> str:
        """The UID of the card enrolled as ``name``, or of the tag of the deed slug ``name``;
        any other name is an unknown card (a made-up UID)."""
        game = self.ledger.game()
        card = game.card_by_name(name)
        if card is not None:
            return card.uid
        tag = next((uid for uid, slug in game.deed_tags.items() if slug == name.lower()), None)
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


class Hands(Protocol):
    """How a backend's cards, keys and time reach the unit (``uid``: the card's, already looked up; ``name``: as the
    script calls it, for a window's tile)."""

    def insert(self, reader: str, uid: str, name: str = "") -> None: ...
    def stack(self, reader: str, uid: str, name: str = "") -> None: ...
    def remove(self, reader: str) -> None: ...
    def hold(self, key: str, seconds: float) -> None: ...
    def wait(self, seconds: float) -> None: ...


class ScriptDriver(LedgerQueries):
    """Runs keypad-script steps on ``shell`` through ``hands``; answers expectations from the shell's ledger and screen.

    ``pin``: the banker's PIN the script's ``enrol``/``enrol-deed`` carry as a
    grant (None: none given), journalled as ``via`` when wrong. ``hex_names``:
    a name that is nobody's and is hex is taken as the UID itself (the
    serial port's ``insert left 04A1B2C3``). ``unknown_uid(name)`` names the
    card of a name the ledger doesn't know (the window's blank tile); None:
    a made-up UID.
    """

    def __init__(self, shell: Shell, hands: Hands, *, pin: str | None = None, via: str = "script",
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


class SimulatedHands:
    """Events straight into ``shell``, on a simulated clock (``t``) that only a script moves; every effect kept.

    A key press is down for 50 ms, and ``wait``/``hold`` advance the clock in
    250 ms ticks, so an evening's game runs in milliseconds and holds and
    sleep behave as on the device. The PIN lockout runs on the wall clock, so
    a script's ``wait`` never lifts it.
    """

    def __init__(self, start: float = 0.0) -> None:
        self.t = start
        self.effects: list[Effect] = []
        self.cards = CardsInHand()
        self.shell: Shell | None = None

    def clock(self) -> float:
        return self.t

    def send(self, event: Event) -> None:
        self.effects.extend(self.shell.handle(event))

    def _advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t + TICK_SECONDS < end:
            self.t += TICK_SECONDS
            self.send(Tick(self.t))
        self.t = end
        self.send(Tick(self.t))

    def insert(self, reader: str, uid: str, name: str = "") -> None:
        self.t += PRESS_SECONDS
        for event in self.cards.insert(reader, uid, self.t):
            self.send(event)

    def stack(self, reader: str, uid: str, name: str = "") -> None:
        self.t += PRESS_SECONDS
        for event in self.cards.stack(reader, uid, self.t):
            self.send(event)

    def remove(self, reader: str) -> None:
        self.t += PRESS_SECONDS
        for event in self.cards.remove(reader, self.t):
            self.send(event)

    def hold(self, key: str, seconds: float) -> None:
        self.t += PRESS_SECONDS
        self.send(KeyDown(key, self.t))
        self._advance(seconds)
        self.send(KeyUp(key, self.t))

    def wait(self, seconds: float) -> None:
        self._advance(seconds)


class RealTimeHands:
    """The live unit's events on the shell's own clock; time passes in :meth:`Shell.run` (queued events, ticks).

    Call it only from the thread that owns the shell. ``sleep`` waits real
    seconds (a test gives a manual clock's ``advance``).
    """

    def __init__(self, shell: Shell, *, tick: float = 0.1, sleep: Callable[[float], None] = time.sleep) -> None:
        self.shell, self.tick, self.sleep = shell, tick, sleep
        self.cards = CardsInHand()

    def _send(self, events: list[Event]) -> None:
        for event in events:
            self.shell.handle(event)

    def insert(self, reader: str, uid: str, name: str = "") -> None:
        self._send(self.cards.insert(reader, uid, self.shell.clock()))

    def stack(self, reader: str, uid: str, name: str = "") -> None:
        self._send(self.cards.stack(reader, uid, self.shell.clock()))

    def remove(self, reader: str) -> None:
        self._send(self.cards.remove(reader, self.shell.clock()))

    def hold(self, key: str, seconds: float) -> None:
        self.shell.handle(KeyDown(key, self.shell.clock()))
        self.wait(seconds)
        self.shell.handle(KeyUp(key, self.shell.clock()))

    def wait(self, seconds: float) -> None:
        self.shell.run(until=self.shell.clock() + seconds, tick=self.tick, sleep=self.sleep)


class CoreBackend(ScriptDriver):
    """The ``core`` backend: the one driver over a shell of ``ledger`` whose events go straight in, on simulated time.

    ``effects`` keeps every effect; ``t`` is the simulated clock; ``wrap``
    (a spy) wraps the shell before anything passes it; ``language`` is the config's ``[unit] language``, the
    screen's while the game has chosen none (``FN 8``), as on the unit.
    """

    def __init__(self, ledger, *, start: float = 0.0, sleep_after: float = SLEEP_AFTER, pin: str | None = None,
                 via: str = "script", hex_names: bool = False, wrap: Callable[[Shell], Shell] | None = None,
                 language: str | None = None) -> None:
        hands = SimulatedHands(start)
        shell = Shell(ledger, now=start, sleep_after=sleep_after, clock=hands.clock, language=language)
        hands.shell = wrap(shell) if wrap is not None else shell
        super().__init__(hands.shell, hands, pin=pin, via=via, hex_names=hex_names)

    @property
    def t(self) -> float:
        """The simulated clock."""
        return self.hands.t

    @t.setter
    def t(self, value: float) -> None:
        self.hands.t = value

    def _send(self, event: Event) -> None:
        """One event straight into the shell (a test's reader fault, a web address)."""
        self.hands.send(event)


def shell_target(shell: Shell, *, tick: float = 0.1, sleep: Callable[[float], None] = time.sleep) -> ScriptDriver:
    """The live unit as the serial test port's target: the one driver on ``shell`` in real time, via "serial".

    Its banker's acts carry the PIN each line gives (none of its own).
    """
    return ScriptDriver(shell, RealTimeHands(shell, tick=tick, sleep=sleep), via="serial", hex_names=True)
