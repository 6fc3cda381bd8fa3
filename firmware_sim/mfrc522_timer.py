"""The MFRC522's timer unit (datasheet 8.5): a 12-bit prescaler, a 16-bit reload value, counting down in simulated time.

It is read lazily: the chip model asks when it will fire and what it reads
now, and tells it when a start or stop event happened (TAuto, TStartNow,
TStopNow, the 5th bit of an answer).
"""

from __future__ import annotations

from .picc import CARRIER_HZ

T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
DEMOD = 0x19
T_AUTO_RESTART, T_PRESCAL_EVEN = 0x10, 0x10     # TModeReg bit 4; DemodReg bit 4 (version 2.0)


class TimerUnit:
    """The timer over the chip's register file ``regs``: TPrescaler, TReload, TAutoRestart, TPrescalEven.

    ``f_timer = 13.56 MHz / (2 * TPrescaler + 1)`` (``+ 2`` with TPrescalEven);
    a start loads TReload, the counter steps down once a tick, and TimerIRq
    is due ``(TReload + 1)`` ticks after the start. TCounterValReg reads the
    count; a stopped timer keeps the value it stopped at.
    """

    def __init__(self, regs: list[int]) -> None:
        self.regs = regs
        self.running = False
        self._value, self._loaded, self._started, self._tick = 0, 0, 0.0, 1.0

    def tick_s(self) -> float:
        prescaler = (self.regs[T_MODE] & 0x0F) << 8 | self.regs[T_PRESCALER]
        even = 2 if self.regs[DEMOD] & T_PRESCAL_EVEN else 1
        return (2 * prescaler + even) / CARRIER_HZ

    def start(self, when: float) -> None:
        """A start event: load the reload value (changes to it count only from the next start)."""
        self._loaded = self.regs[T_RELOAD_H] << 8 | self.regs[T_RELOAD_L]
        self._started, self._tick = when, self.tick_s()
        self.running = True

    def value(self, when: float) -> int:
        """TCounterValReg at ``when``."""
        if not self.running:
            return self._value
        return max(0, self._loaded - int((when - self._started) / self._tick + 1e-9))

    def stop(self, when: float) -> None:
        if self.running:
            self._value = self.value(when)
            self.running = False

    def fires_at(self) -> float | None:
        """When the count passes zero (TimerIRq), or None while stopped."""
        return self._started + (self._loaded + 1) * self._tick if self.running else None

    def underflow(self, when: float) -> None:
        """The count passed zero: reload with TAutoRestart, else stop at 0."""
        if self.regs[T_MODE] & T_AUTO_RESTART:
            self.start(when)
        else:
            self.running, self._value = False, 0
