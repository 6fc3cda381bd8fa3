"""The ports: what the core expects of each device kind, as small Protocols.

Each is implemented over the real libraries in ``drivers/`` and as a
recording fake in ``firmware_sim/``. Anything that owns hardware also has
``close()`` and is a context manager.
"""

from __future__ import annotations

from typing import Callable, Protocol

from .events import Event, Tone
from .screen import Screen


class Display(Protocol):
    """Shows the core's screen model (a 128x64 OLED, a window, a test recorder)."""

    def show(self, screen: Screen) -> None: ...
    def power(self, on: bool) -> None: ...


class Buzzer(Protocol):
    """Plays the unit's tones at a volume of 0 (off) to 3 (high)."""

    def play(self, tone: Tone, volume: int) -> None: ...


class EventSource(Protocol):
    """Something that produces events (keypad scanner, card readers): started with a sink to post them to."""

    def start(self, post: Callable[[Event], None]) -> None: ...
    def close(self) -> None: ...
