"""Keypad scripts on a shell of this process: the ``core`` backend (simulated time) and the live unit's serial target.

Both are the one driver (:class:`banker.script.driver.ScriptDriver`) over a
:class:`~runtime.shell.Shell`; they differ in their hands and clock:

- :class:`CoreBackend` builds a shell of ``ledger`` whose events go straight
  in from :class:`banker.script.hands.SimulatedHands`, on a simulated clock;
- :func:`shell_target` is the live unit as the serial test port's target
  (``drivers.serial_port``): :class:`RealTimeHands` post the same events on
  the shell's own clock, time passing in :meth:`Shell.run`.

Example::

    unit = CoreBackend(ledger, pin="2468")
    unit.enrol("Alice", "04A1B2C3")   # the ledger checks the PIN, if one is set
    unit.insert("left", "Alice"); unit.press("1"); unit.press("M")
"""

from __future__ import annotations

import time
from collections.abc import Callable

from banker.script.driver import ScriptDriver
from banker.script.hands import ReaderCards, SimulatedHands
from banker.unit.events import Event, KeyDown, KeyUp
from banker.unit.panel import SLEEP_AFTER

from .shell import Shell


class RealTimeHands:
    """The live unit's events on the shell's own clock; time passes in :meth:`Shell.run` (queued events, ticks).

    Call it only from the thread that owns the shell. ``sleep`` waits real
    seconds (a test gives a manual clock's ``advance``).
    """

    def __init__(self, shell: Shell, *, tick: float = 0.1, sleep: Callable[[float], None] = time.sleep) -> None:
        self.shell, self.tick, self.sleep = shell, tick, sleep
        self.cards = ReaderCards()

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
