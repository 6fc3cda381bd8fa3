"""The keypad-script backend that feeds events straight into the core unit (``--backend core``).

Time is simulated: a key press is down for 50 ms, and ``wait``/``hold``
advance the clock in ticks, so a script of an evening's game runs in
milliseconds and holds and sleep behave as on the device.

The banker's authority is not simulated: the script's ``enrol`` of a new
card and ``enrol-deed`` are admin acts, checked with the banker's PIN given
at construction (``pin``) by :meth:`runtime.ledger.Ledger.authorise`, on the
wall clock, so a wrong one is journalled and a script's ``wait`` never lifts
a lockout. With no PIN set in the ledger nothing is asked.
"""

from __future__ import annotations

from banker.authority import Grant
from banker.events import Effect, Event, KeyDown, KeyUp, Tick
from banker.panel import SLEEP_AFTER
from banker.script import Hands
from runtime.ledger import Ledger
from runtime.queries import LedgerQueries
from runtime.shell import Shell

PRESS_SECONDS = 0.05
TICK_SECONDS = 0.25


class CoreBackend(LedgerQueries):
    """Runs script steps through the one :class:`~runtime.shell.Shell` over ``ledger``; records every effect in ``effects``.

    ``pin``: the banker's PIN for the script's admin steps (None: none given;
    refused, :class:`~banker.authority.NotAuthorised`, once the ledger has a
    PIN). A script may also type the PIN on the keypad (``FN`` ... ``M``).

    Example::

        unit = CoreBackend(ledger, pin="2468")
        unit.enrol("Alice", "04A1B2C3")   # checked against the banker's PIN, if one is set
    """

    #: The path the backend's PIN checks are journalled as (a wrong one is a ``PinFailure(via)``).
    via = "script"

    def __init__(self, ledger: Ledger, *, start: float = 0.0, sleep_after: float = SLEEP_AFTER,
                 pin: str | None = None) -> None:
        self.ledger = ledger
        self.pin = pin  # never shown, logged or sent back
        self.t = start
        self.shell = Shell(ledger, now=start, sleep_after=sleep_after, clock=lambda: self.t)
        self.effects: list[Effect] = []
        self.hands = Hands()

    def _send(self, event: Event) -> None:
        self.effects.extend(self.shell.handle(event))

    def _advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t + TICK_SECONDS < end:
            self.t += TICK_SECONDS
            self._send(Tick(self.t))
        self.t = end
        self._send(Tick(self.t))

    def enrol(self, name: str, uid: str) -> None:
        """Enrol a card for ``name`` (the banker's act: the PIN); a name already enrolled does nothing."""
        self._enrol(name, uid, self.pin)

    def enrol_deed(self, slug: str, uid: str) -> None:
        """Give the deed ``slug`` the tag ``uid`` (the banker's act: the PIN)."""
        self._enrol_deed(slug, uid, self.pin)

    def _enrol(self, name: str, uid: str, pin: str | None) -> None:
        if self.ledger.card_by_name(name) is None:
            self.ledger.enrol(name, uid, Grant(pin, self.via))

    def _enrol_deed(self, slug: str, uid: str, pin: str | None) -> None:
        self.ledger.edition().deed(slug)  # an unknown deed is the script's mistake (UnknownDeed), not a refusal
        self.ledger.enrol_deed(slug, uid, Grant(pin, self.via))

    def insert(self, reader: str, name: str) -> None:
        self.t += PRESS_SECONDS
        for event in self.hands.insert(reader, self.uid_of(name), self.t):
            self._send(event)

    def stack(self, reader: str, name: str) -> None:
        """Lay another card on ``reader``: the reader's answers collide, as the card slots report it."""
        self.t += PRESS_SECONDS
        for event in self.hands.stack(reader, self.uid_of(name), self.t):
            self._send(event)

    def remove(self, reader: str) -> None:
        self.t += PRESS_SECONDS
        for event in self.hands.remove(reader, self.t):
            self._send(event)

    def press(self, key: str) -> None:
        self.hold(key, PRESS_SECONDS)

    def hold(self, key: str, seconds: float) -> None:
        self.t += PRESS_SECONDS
        self._send(KeyDown(key, self.t))
        self._advance(seconds)
        self._send(KeyUp(key, self.t))

    def wait(self, seconds: float) -> None:
        self._advance(seconds)

    def screen_lines(self) -> list[str]:
        return list(self.shell.screen.lines)

    def tap(self, reader: str, name: str) -> None:
        """Place a card or a deed's tag on the reader and take it away (the script's ``tap``)."""
        self.insert(reader, name)
        self.remove(reader)
