"""The keypad-script backend that feeds events straight into the core unit (``--backend core``).

Time is simulated: a key press is down for 50 ms, and ``wait``/``hold``
advance the clock in ticks, so a script of an evening's game runs in
milliseconds and holds and sleep behave as on the device.
"""

from __future__ import annotations

from banker.events import Effect, Event, KeyDown, KeyUp, Tick
from banker.panel import SLEEP_AFTER
from banker.script import Hands
from runtime.ledger import Ledger
from runtime.queries import LedgerQueries
from runtime.shell import Shell

PRESS_SECONDS = 0.05
TICK_SECONDS = 0.25


class CoreBackend(LedgerQueries):
    """Runs script steps through the one :class:`~runtime.shell.Shell` over ``ledger``; records every effect in ``effects``."""

    def __init__(self, ledger: Ledger, *, start: float = 0.0, sleep_after: float = SLEEP_AFTER) -> None:
        self.ledger = ledger
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
        if self.ledger.card_by_name(name) is None:
            self.ledger.enrol(name, uid)

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
