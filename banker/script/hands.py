"""How a script's cards, keys and time reach a unit (the driver's hands), and the core's own, on simulated time.

:class:`Hands` is what every local backend adds to the one driver
(:class:`banker.script.driver.ScriptDriver`). Each implementation lives
beside what it drives, and is named for how it reaches the unit:

- :class:`SimulatedHands` (here, pure): events straight into the shell, on
  a simulated clock, for the ``core`` backend (``runtime.script_shell``);
- ``runtime.script_shell.RealTimeHands``: the same events on the shell's
  own clock, for the live unit behind its serial test port;
- ``firmware_sim.hw_sim_backend.ChipHands``: tags on the simulated chips' antennas,
  keys on the matrix, read by the real drivers;
- ``firmware_sim.window_backend.WindowHands``: the desktop window's mouse.

:class:`ReaderCards` is what both event-posting hands share: which cards lie
on each reader, and the events the card slots would post for a change.
"""

from __future__ import annotations

from typing import Protocol

from banker.errors import ScriptError
from banker.unit.events import (
    READERS, CardPlaced, CardRemoved, Effect, Event, KeyDown, KeyUp, ReaderFault, ReaderRecovered, Tick,
)

#: How long the simulated hands keep a pressed key down, and the simulated clock's tick, in seconds.
PRESS_SECONDS = 0.05
TICK_SECONDS = 0.25


class Hands(Protocol):
    """How a backend's cards, keys and time reach the unit (``uid``: the card's, already looked up; ``name``: as the
    script calls it, for a window's tile)."""

    def insert(self, reader: str, uid: str, name: str = "") -> None: ...
    def stack(self, reader: str, uid: str, name: str = "") -> None: ...
    def remove(self, reader: str) -> None: ...
    def hold(self, key: str, seconds: float) -> None: ...
    def wait(self, seconds: float) -> None: ...


class EventSink(Protocol):
    """What takes the events the hands make: the shell (``Shell.handle``), giving back the effects."""

    def handle(self, event: Event) -> list[Effect]: ...


class ReaderCards:
    """The cards a script's hands hold on each reader, and the events the unit sees for each step.

    For hands that post events themselves (the core's, the live unit's
    behind the serial test port), they are what the card slots would post
    for the same cards: a second card makes the reader's answers collide
    (``ReaderFault(reader, "two-cards")``); taking them all away lets it read
    again (``ReaderRecovered``); laying one card on a reader that held two is
    both at once.

    Example::

        cards = ReaderCards()
        cards.insert("left", "A1", 1.0)   # -> [CardPlaced("left", "A1", 1.0)]
        cards.stack("left", "B2", 2.0)    # -> [ReaderFault("left", "two-cards", 2.0)]
        cards.remove("left", 3.0)         # -> [ReaderRecovered("left", 3.0)]
    """

    def __init__(self) -> None:
        self.on: dict[str, list[str]] = {reader: [] for reader in READERS}

    def insert(self, reader: str, uid: str, t: float) -> list[Event]:
        events: list[Event] = [ReaderRecovered(reader, t)] if len(self.on[reader]) > 1 else []  # type: ignore[arg-type]
        self.on[reader] = [uid]
        return events + [CardPlaced(reader, uid, t)]  # type: ignore[arg-type]

    def stack(self, reader: str, uid: str, t: float) -> list[Event]:
        held = self.on[reader]
        if not held:
            return self.insert(reader, uid, t)
        if uid in held:
            raise ScriptError(0, f"card {uid} already lies on the {reader} reader: a card can't be stacked on itself")
        held.append(uid)
        return [ReaderFault(reader, "two-cards", t)] if len(held) == 2 else []  # type: ignore[arg-type]

    def remove(self, reader: str, t: float) -> list[Event]:
        held, self.on[reader] = self.on[reader], []
        if len(held) > 1:
            return [ReaderRecovered(reader, t)]  # type: ignore[arg-type]
        return [CardRemoved(reader, t)]  # type: ignore[arg-type]


class SimulatedHands:
    """Events straight into ``shell``, on a simulated clock (``t``) that only a script moves; every effect kept.

    A key press is down for 50 ms, and ``wait``/``hold`` advance the clock in
    250 ms ticks, so an evening's game runs in milliseconds and holds and
    sleep behave as on the device. The PIN lockout runs on the wall clock, so
    a script's ``wait`` never lifts it. ``shell`` is set once the shell that
    reads :meth:`clock` is built.
    """

    def __init__(self, start: float = 0.0) -> None:
        self.t = start
        self.effects: list[Effect] = []
        self.cards = ReaderCards()
        self.shell: EventSink | None = None

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

    def _lay(self, events: list[Event]) -> None:
        for event in events:
            self.send(event)

    def insert(self, reader: str, uid: str, name: str = "") -> None:
        self.t += PRESS_SECONDS
        self._lay(self.cards.insert(reader, uid, self.t))

    def stack(self, reader: str, uid: str, name: str = "") -> None:
        self.t += PRESS_SECONDS
        self._lay(self.cards.stack(reader, uid, self.t))

    def remove(self, reader: str) -> None:
        self.t += PRESS_SECONDS
        self._lay(self.cards.remove(reader, self.t))

    def hold(self, key: str, seconds: float) -> None:
        self.t += PRESS_SECONDS
        self.send(KeyDown(key, self.t))
        self._advance(seconds)
        self.send(KeyUp(key, self.t))

    def wait(self, seconds: float) -> None:
        self._advance(seconds)
