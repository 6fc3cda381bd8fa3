"""Debounces RFID reader polls into the core's ``CardPlaced``/``CardRemoved`` events, one slot per reader.

Readers of any kind (the MFRC522 on SPI, the RDM6300 on a UART, a simulator)
only need ``poll() -> str | None``; this module decides when a card has
really arrived or left, so a card lying on a reader never flickers and a
quick tap still counts.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Mapping, Protocol

from banker.errors import BankerError, ConfigError
from banker.events import READERS, CardPlaced, CardRemoved, Event, Reader


class ReaderError(BankerError):
    """A card reader cannot be used; the message says what to check."""


class ReaderNotFound(ReaderError, OSError):
    """No reader answers where it is configured (wiring, reset pin, SPI/UART not enabled)."""


class ReaderLibraryMissing(ReaderError, ImportError):
    """A library the reader needs is not installed or cannot load on this machine."""


class UidSource(Protocol):
    """Anything that says which card lies on one reader right now (upper-case hex UID) or None."""

    def poll(self) -> str | None: ...


class CardSlot:
    """The debouncer of one slot: feed it each poll's UID (or None), get the events.

    A card counts as placed at the first poll that reads it, so a tap
    lasting a single poll registers. It counts as removed only after
    ``removal_misses`` consecutive polls without it *and* ``removal_after_s``
    seconds since it was last read, so a missed read never makes it flicker.
    A different UID replaces the card at once: removed, then placed.
    Removal events carry the time the removal was decided.

    Example::

        slot = CardSlot("left", clock=time.monotonic)
        slot.update("DEADBEEF")   # -> [CardPlaced("left", "DEADBEEF", t)]
    """

    def __init__(self, reader: Reader, *, clock: Callable[[], float] = time.monotonic,
                 removal_misses: int = 3, removal_after_s: float = 0.25) -> None:
        if reader not in READERS:
            raise ConfigError(f"unknown card slot {reader!r}: use one of {', '.join(READERS)}")
        if removal_misses < 1 or removal_after_s < 0:
            raise ConfigError("removal_misses must be at least 1 and removal_after_s not negative")
        self.reader = reader
        self.clock = clock
        self.removal_misses = removal_misses
        self.removal_after_s = removal_after_s
        self.uid: str | None = None
        self._misses = 0
        self._last_seen = 0.0

    def update(self, uid: str | None) -> list[Event]:
        """Take one poll's result; return the events it causes (usually none)."""
        now = self.clock()
        events: list[Event] = []
        if uid is None:
            if self.uid is not None:
                self._misses += 1
                if self._misses >= self.removal_misses and now - self._last_seen >= self.removal_after_s:
                    events.append(CardRemoved(self.reader, now))
                    self.uid = None
            return events
        uid = uid.upper()
        if self.uid is not None and uid != self.uid:
            events.append(CardRemoved(self.reader, now))
        if uid != self.uid:
            events.append(CardPlaced(self.reader, uid, now))
            self.uid = uid
        self._misses = 0
        self._last_seen = now
        return events


class CardSlots:
    """The card readers as one event source: polls each reader, debounces, posts the events.

    ``readers`` maps a slot (``"left"`` = the ``+`` slot, ``"right"`` = the
    ``-`` slot) to its reader. A unit with a single physical reader is just
    one slot configured, e.g. ``CardSlots({"right": reader})``. The slots own
    the readers: ``close()`` closes them. Either call ``poll()`` from your own
    loop, or ``start(post)`` (the core's ``EventSource`` port) to poll every
    ``interval_s`` on a background thread; there a reader error counts as
    "no card" and is kept in ``errors`` instead of killing the thread.

    Example::

        plus, minus = Mfrc522Reader(device=0, reset_pin=25), Mfrc522Reader(device=1, reset_pin=24)
        with CardSlots({"left": plus, "right": minus}) as slots:
            slots.start(shell.post)
            shell.run()
    """

    def __init__(self, readers: Mapping[str, UidSource], *, clock: Callable[[], float] = time.monotonic,
                 removal_misses: int = 3, removal_after_s: float = 0.25) -> None:
        if not readers:
            raise ConfigError("configure at least one card slot")
        self.readers = dict(readers)
        self.slots = {name: CardSlot(name, clock=clock, removal_misses=removal_misses,  # type: ignore[arg-type]
                                     removal_after_s=removal_after_s) for name in self.readers}
        self.errors: dict[str, ReaderError] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self, *, tolerate_errors: bool = False) -> list[Event]:
        """Poll every reader once; return the events, left slot first.

        A ``ReaderError`` propagates unless ``tolerate_errors``, which reads it as "no card".
        """
        events: list[Event] = []
        for name in READERS:
            if name in self.readers:
                try:
                    uid = self.readers[name].poll()
                except ReaderError as error:
                    if not tolerate_errors:
                        raise
                    self.errors[name], uid = error, None
                events.extend(self.slots[name].update(uid))
        return events

    def start(self, post: Callable[[Event], None], *, interval_s: float = 0.05) -> None:
        """Poll every ``interval_s`` on a daemon thread, handing each event to ``post``."""
        if self._thread is not None:
            raise RuntimeError("the card slots are already started")

        def loop() -> None:
            while not self._stop.is_set():
                for event in self.poll(tolerate_errors=True):
                    post(event)
                self._stop.wait(interval_s)

        self._thread = threading.Thread(target=loop, name="card-slots", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop polling and close every reader that has ``close()``."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        for reader in self.readers.values():
            close = getattr(reader, "close", None)
            if close is not None:
                close()

    def __enter__(self) -> "CardSlots":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def cards(self) -> dict[str, str | None]:
        """The debounced UID on each configured slot."""
        return {name: slot.uid for name, slot in self.slots.items()}
