"""A simulated piezo on a gpiozero mock PWM pin: records every note the buzzer driver plays, on a virtual clock.

:class:`PiezoSim` puts a recording ``MockPWMPin`` on ``factory`` (which must
make PWM pins: ``MockFactory(pin_class=MockPWMPin)``) before the driver
claims it, and offers :meth:`PiezoSim.sleep` for the driver's pauses, so a
fanfare "lasts" 0.7 s of virtual time and takes no real time at all.
:meth:`PiezoSim.notes` turns the pin's history into what a listener hears.

Example::

    factory = MockFactory(pin_class=MockPWMPin)
    piezo = PiezoSim(factory, pin=18)
    with PwmBuzzer(18, pin_factory=factory, sleep=piezo.sleep) as buzzer:
        buzzer.play("success", 3)
        buzzer.drain()
    piezo.notes()     # [Sound(start=0.0, seconds=0.07, hz=1500.0, duty=0.5), ...]
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory, MockPWMPin


@dataclass(frozen=True)
class Sound:
    """One note heard: from ``start`` for ``seconds`` at ``hz`` with PWM ``duty`` (the loudness)."""

    start: float
    seconds: float
    hz: float
    duty: float


class _RecordingMixin:
    def __init__(self, factory, info, piezo: PiezoSim | None = None) -> None:
        super().__init__(factory, info)
        self.piezo = piezo

    def _change_state(self, value):
        changed = super()._change_state(value)
        if getattr(self, "piezo", None) is not None:
            self.piezo._record(self.frequency, float(value))
        return changed

    def _set_frequency(self, value):
        super()._set_frequency(value)
        if getattr(self, "piezo", None) is not None:
            self.piezo._record(value, float(self.state))


class PiezoSim:
    """The piezo on ``pin`` of ``factory``: a recording PWM pin and a virtual clock for the driver's pauses."""

    def __init__(self, factory: MockFactory, pin: int | str = 18) -> None:
        if not issubclass(factory.pin_class, MockPWMPin):
            raise ValueError("the piezo needs PWM pins: MockFactory(pin_class=MockPWMPin)")
        pin_class = type(f"Piezo{factory.pin_class.__name__}", (_RecordingMixin, factory.pin_class), {})
        self.t = 0.0
        self.history: list[tuple[float, float | None, float]] = []   # (time, frequency, duty)
        self._lock = threading.Lock()
        self.pin = factory.pin(pin, pin_class=pin_class, piezo=self)
        self.pin.piezo = self

    def sleep(self, seconds: float) -> None:
        """The driver's pause: moves the virtual clock."""
        with self._lock:
            self.t += seconds

    def _record(self, frequency: float | None, duty: float) -> None:
        with self._lock:
            entry = (self.t, frequency, duty)
            if not self.history or self.history[-1][1:] != entry[1:]:
                self.history.append(entry)

    def notes(self) -> list[Sound]:
        """The sounds heard so far: stretches where the duty was above 0, with their pitch."""
        sounds = []
        with self._lock:
            history = self.history + [(self.t, None, 0.0)]
        for (start, hz, duty), (end, _, _) in zip(history, history[1:]):
            if duty > 0 and hz and end > start:
                sounds.append(Sound(start, round(end - start, 6), hz, duty))
        return sounds

    def clear(self) -> None:
        with self._lock:
            self.history.clear()
            self.t = 0.0
