"""The buzzer driver: the unit's tones on a passive piezo through gpiozero PWM, played in the background.

Implements the :class:`banker.ports.Buzzer` port. Each tone is a short
sequence of notes (frequency in Hz, or 0 for a rest, and a duration). The
PWM frequency sets the pitch and the duty cycle the loudness: a piezo is
loudest at 50 % duty and gets quieter as the pulses narrow, so the volume
steps are duty cycles (:data:`VOLUME_DUTY`): off 0 (nothing is played),
low 2 %, medium 10 %, high 50 %.

:meth:`PwmBuzzer.play` returns at once; a background thread plays the
sequence. A new tone cuts the one playing short (a fast typist hears every
key), and :meth:`PwmBuzzer.close` silences the pin and stops the thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence

from banker.errors import ConfigError
from banker.unit.events import TONES

Note = tuple[float, float]      # (Hz, 0 for a rest; seconds)

#: The unit's tones: a short tick, a rising chirp, a low double buzz, a fanfare, a blip, three beeps that say
#: time is running out in a time-limit game, and an auction's last seconds: a high click each second, then two
#: falling notes for "going once" and three for "going twice".
DEFAULT_TONES: dict[str, tuple[Note, ...]] = {
    "key": ((2_000, 0.03),),
    "success": ((1_500, 0.07), (2_000, 0.07), (2_700, 0.12)),
    "refusal": ((350, 0.15), (0, 0.06), (350, 0.25)),
    "new-game": ((1_047, 0.12), (1_319, 0.12), (1_568, 0.12), (2_093, 0.35)),
    "volume": ((1_760, 0.08),),
    "warning": ((2_400, 0.10), (0, 0.10), (2_400, 0.10), (0, 0.10), (2_400, 0.30)),
    "tick": ((3_200, 0.02),),
    "going-once": ((1_319, 0.12), (0, 0.06), (988, 0.18)),
    "going-twice": ((1_319, 0.12), (0, 0.06), (1_175, 0.12), (0, 0.06), (988, 0.18)),
}
#: PWM duty cycle for volume 0 (off), 1 (low), 2 (medium), 3 (high).
VOLUME_DUTY: tuple[float, float, float, float] = (0.0, 0.02, 0.10, 0.50)
DEFAULT_PIN = 18


def _tone_table(tones: Mapping[str, Sequence[Note]]) -> dict[str, tuple[tuple[float, float], ...]]:
    """The buzzer's tones as (hertz, seconds) notes; a ConfigError names the tones the table leaves out."""
    table = {name: tuple((float(hz), float(s)) for hz, s in notes) for name, notes in tones.items()}
    missing = [t for t in TONES if t not in table]
    if missing:
        raise ConfigError(f"buzzer: no notes for tone(s) {', '.join(missing)}")
    return table


def _duty_table(duty: Sequence[float]) -> tuple[float, ...]:
    """The PWM duty of each volume 0-3 (0: off); a ConfigError for anything else."""
    if len(duty) != 4 or duty[0] != 0 or not all(0 <= d <= 1 for d in duty):
        raise ConfigError("buzzer duty: four values 0-1, the first (off) 0")
    return tuple(duty)


class PwmBuzzer:
    """A passive piezo buzzer on a PWM-capable GPIO pin.

    Wiring: the piezo's + to GPIO18 (header pin 12, hardware PWM0; any GPIO
    works with software PWM), - to GND. For more volume drive it through an
    NPN transistor (e.g. S8050: base via 1 kOhm from the GPIO, piezo between
    5 V and the collector). An *active* buzzer (one that beeps on plain DC)
    ignores the frequency: every tone then sounds the same.

    ``pin_factory`` is required (never the global one). ``tones`` maps each
    of the unit's tones to notes; ``duty`` gives the four volume steps.
    ``sleep`` replaces the real pauses (a simulator passes one that moves a
    virtual clock; a tone is then not cut short by the next one).

    Example::

        with PwmBuzzer(18, pin_factory=LGPIOFactory()) as buzzer:
            buzzer.play("success", 2)
            buzzer.drain()           # wait until it has finished
    """

    def __init__(self, pin: int | str = DEFAULT_PIN, *, pin_factory,
                 tones: Mapping[str, Sequence[Note]] | None = None,
                 duty: Sequence[float] = VOLUME_DUTY,
                 sleep: Callable[[float], None] | None = None) -> None:
        if pin_factory is None:
            raise ConfigError("the buzzer needs a gpiozero pin_factory (it never uses the global one)")
        self.tones = _tone_table(tones or DEFAULT_TONES)
        self.duty = _duty_table(duty)
        self._sleep = sleep
        self._cond = threading.Condition()
        self._next: tuple[str, int] | None = None
        self._busy = False
        self._closed = False
        from gpiozero import PWMOutputDevice

        self._pwm = PWMOutputDevice(pin, initial_value=0, frequency=1_000, pin_factory=pin_factory)
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    # -- the Buzzer port -----------------------------------------------------------------

    def play(self, tone: str, volume: int) -> None:
        """Start ``tone`` at ``volume`` (0-3) in the background; volume 0 plays nothing."""
        if tone not in self.tones:
            raise ValueError(f"unknown tone {tone!r}: one of {', '.join(self.tones)}")
        if not 0 <= volume <= 3:
            raise ValueError(f"volume must be 0-3, not {volume}")
        if volume == 0:
            return
        with self._cond:
            if self._closed:
                return
            self._next = (tone, volume)
            self._cond.notify_all()

    def drain(self, timeout: float | None = 5.0) -> bool:
        """Wait until nothing is playing or queued; False if ``timeout`` passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy and self._next is None, timeout)

    @property
    def playing(self) -> bool:
        with self._cond:
            return self._busy or self._next is not None

    # -- the player thread ---------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._next is not None or self._closed)
                if self._closed:
                    return
                tone, volume = self._next
                self._next, self._busy = None, True
            try:
                self._play(self.tones[tone], self.duty[volume])
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _play(self, notes: Sequence[Note], duty: float) -> None:
        try:
            for hz, seconds in notes:
                if hz > 0:
                    self._pwm.frequency = hz
                    self._pwm.value = duty
                else:
                    self._pwm.value = 0
                if self._pause(seconds):
                    break
        finally:
            self._pwm.value = 0

    def _pause(self, seconds: float) -> bool:
        """Let ``seconds`` pass; True when a newer tone (or close) cuts the note short."""
        if self._sleep is not None:
            self._sleep(seconds)
            return self._closed
        with self._cond:
            return self._cond.wait_for(lambda: self._next is not None or self._closed, seconds)

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """Silence the buzzer, stop the player thread and release the pin."""
        with self._cond:
            self._closed = True
            self._next = None
            self._cond.notify_all()
        self._thread.join(timeout=2.0)
        self._pwm.close()

    def __enter__(self) -> PwmBuzzer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
