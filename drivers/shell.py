"""The imperative shell: one thread owns the unit, drivers post events, effects reach the devices.

Drivers (keypad scanner, card readers, the serial test port, a window) call
:meth:`Shell.post` from any thread; the owning thread calls :meth:`Shell.pump`
(or :meth:`Shell.run`) which steps the unit and carries out its effects in
order: tones to the buzzer, display power, and the new screen to the display
when it changed.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Callable

from banker.events import Event, PlayTone, SetDisplayPower, Tick
from banker.ports import Buzzer, Display
from banker.screen import Screen
from banker.unit import Unit

log = logging.getLogger("banker.shell")


class Shell:
    """Carries events into ``unit`` and its effects out to ``display`` and ``buzzer`` (either may be None)."""

    def __init__(
        self,
        unit: Unit,
        *,
        display: Display | None = None,
        buzzer: Buzzer | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.unit = unit
        self.display = display
        self.buzzer = buzzer
        self.clock = clock
        self._events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._shown: Screen | None = None
        self.show()

    def post(self, event: Event) -> None:
        """Queue ``event`` for the owning thread (safe from any thread)."""
        self._events.put(event)

    def pump(self) -> int:
        """Step the unit through every queued event now; return how many there were."""
        count = 0
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return count
            self.step(event)
            count += 1

    def step(self, event: Event) -> None:
        """Step the unit through one event and carry out what it asks.

        A programming error is logged with its traceback and the event
        dropped: the unit keeps running, and the ledger holds only whole
        transactions whatever happened.
        """
        try:
            effects = self.unit.handle(event)
        except Exception:
            log.exception("the unit failed on %r", event)
            return
        for effect in effects:
            if isinstance(effect, PlayTone):
                if self.buzzer is not None and effect.volume > 0:
                    self.buzzer.play(effect.tone, effect.volume)
            elif isinstance(effect, SetDisplayPower):
                if self.display is not None:
                    self.display.power(effect.on)
        if isinstance(event, Tick) and getattr(self.display, "failed", False):
            self.display.retry()  # a bus error spoiled a frame: send it again
        self.show()

    def show(self) -> None:
        """Send the unit's screen to the display if it changed since the last frame."""
        screen = self.unit.screen
        if self.display is not None and screen != self._shown and not screen.asleep:
            self.display.show(screen)
        self._shown = screen

    def run(self, stop: threading.Event, tick: float = 0.1) -> None:
        """Own the unit until ``stop`` is set: events as they come, a clock tick every ``tick`` seconds."""
        next_tick = self.clock()
        while not stop.is_set():
            timeout = max(0.0, next_tick - self.clock())
            try:
                self.step(self._events.get(timeout=timeout))
            except queue.Empty:
                pass
            if self.clock() >= next_tick:
                self.step(Tick(self.clock()))
                next_tick += tick
