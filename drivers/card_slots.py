"""Debounces RFID reader polls into the core's ``CardPlaced``/``CardRemoved`` events, one slot per reader.

Readers of any kind (the MFRC522 on SPI, the RDM6300 on a UART, a simulator)
only need ``poll() -> str | None``; this module decides when a card has
really arrived or left, so a card lying on a reader never flickers and a
quick tap still counts, and turns whatever a reader raises into a fault the
unit shows (``ReaderFault``) and recovers from (``ReaderRecovered``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Protocol
from collections.abc import Callable, Mapping

from banker.errors import BankerError, ConfigError
from banker.unit.events import READERS, CardPlaced, CardRemoved, Event, Fault, Reader, ReaderFault, ReaderRecovered

from .supervised import Supervised

log = logging.getLogger("banker.readers")
READER_SIGNS = {"left": "+", "right": "-"}


class ReaderError(BankerError):
    """A card reader cannot be used; the message says what to check."""


class ReaderNotFound(ReaderError, OSError):
    """No reader answers where it is configured (wiring, reset pin, SPI/UART not enabled)."""


class ReaderLibraryMissing(ReaderError, ImportError):
    """A library the reader needs is not installed or cannot load on this machine."""


class TwoCards(ReaderError):
    """Two or more cards lie on one reader and answered at once: none of them is read."""


class UidSource(Protocol):
    """Anything that says which card lies on one reader right now (upper-case hex UID) or None.

    It raises :class:`TwoCards` when several cards lie on it, and
    :class:`ReaderError` (or any error) when it can't read.
    """

    def poll(self) -> str | None: ...


class CardSlot:
    """The debouncer of one slot: feed it each poll's UID (or None), or its fault, and get the events.

    A card counts as placed at the first poll that reads it, so a tap
    lasting a single poll registers. It counts as removed only after
    ``removal_misses`` consecutive polls without it *and* ``removal_after_s``
    seconds since it was last read, so a missed read never makes it flicker.
    A different UID replaces the card at once: removed, then placed.
    Removal events carry the time the removal was decided.

    A fault (``"two-cards"``, ``"not-answering"``) is posted as a
    :class:`~banker.unit.events.ReaderFault` at its first poll; the card that lay
    there then counts as gone (the core clears the slot itself). The fault
    stands until the reader has read cleanly, a card or none, for as long as
    a removal takes; then a :class:`~banker.unit.events.ReaderRecovered` follows,
    and a card still lying there is placed anew.

    Example::

        slot = CardSlot("left", clock=time.monotonic)
        slot.update("DEADBEEF")   # -> [CardPlaced("left", "DEADBEEF", t)]
        slot.failed("two-cards")  # -> [ReaderFault("left", "two-cards", t)]
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
        self.fault: Fault | None = None
        self._misses = 0
        self._last_seen = 0.0
        self._clean = 0
        self._faulty_at = 0.0

    def update(self, uid: str | None) -> list[Event]:
        """Take one clean poll's result; return the events it causes (usually none)."""
        now = self.clock()
        events: list[Event] = []
        if self.fault is not None:
            if not self._recovered(now):
                return events
            events.append(ReaderRecovered(self.reader, now))
            self.fault = None
        if uid is None:
            return events + self._missed(now)
        uid = uid.upper()
        if self.uid is not None and uid != self.uid:
            events.append(CardRemoved(self.reader, now))
        if uid != self.uid:
            events.append(CardPlaced(self.reader, uid, now))
            self.uid = uid
        self._misses = 0
        self._last_seen = now
        return events

    def _recovered(self, now: float) -> bool:
        """One more clean poll after a fault: whether the reader has now been clean for long enough (as many
        polls and as long as a card's removal takes) to count as recovered."""
        self._clean += 1
        return self._clean >= self.removal_misses and now - self._faulty_at >= self.removal_after_s

    def _missed(self, now: float) -> list[Event]:
        """A clean poll that found no card: the card there is removed once it has been missed often enough,
        for long enough (a card is not lost to a poll or two that miss it)."""
        if self.uid is None:
            return []
        self._misses += 1
        if self._misses >= self.removal_misses and now - self._last_seen >= self.removal_after_s:
            self.uid = None
            return [CardRemoved(self.reader, now)]
        return []

    def failed(self, fault: Fault) -> list[Event]:
        """Take one poll that failed with ``fault``; return the ReaderFault it causes (once per fault)."""
        now = self.clock()
        self._clean, self._faulty_at = 0, now
        self.uid, self._misses = None, 0
        if fault == self.fault:
            return []
        self.fault = fault
        return [ReaderFault(self.reader, fault, now)]

    def restarted(self) -> list[Event]:
        """Its reader's thread was started anew: nothing is known to lie on it; say so."""
        self.uid, self.fault, self._misses, self._clean = None, None, 0, 0
        return [ReaderRecovered(self.reader, self.clock(), restarted=True)]


class CardSlots:
    """The card readers as one event source: polls each reader, debounces, posts the events.

    ``readers`` maps a slot (``"left"`` = the ``+`` slot, ``"right"`` = the
    ``-`` slot) to its reader. A unit with a single physical reader is just
    one slot configured, e.g. ``CardSlots({"right": reader})``. The slots own
    the readers: ``close()`` closes them. Either call ``poll()`` from your own
    loop, or ``start(post)`` (a background thread that posts to ``post``) to poll every
    ``interval_s`` on a background thread.

    Nothing a reader does stops the polling: two cards on it become a
    ``ReaderFault(slot, "two-cards")``, any error a ``ReaderFault(slot,
    "not-answering")`` (the error kept in ``errors`` and logged once), and
    each clears with a ``ReaderRecovered`` once the reader reads cleanly
    again. If the polling thread itself fails, every slot reports
    "not-answering", the thread is started again (``restarts`` counts it)
    and each slot posts ``ReaderRecovered(restarted=True)``.

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
        self.clock = clock
        self.errors: dict[str, BaseException] = {}
        self._worker: Supervised | None = None

    @property
    def restarts(self) -> int:
        """How often the polling thread failed and was started again."""
        return self._worker.restarts if self._worker is not None else 0

    def poll(self, *, tolerate_errors: bool = True) -> list[Event]:
        """Poll every reader once; return the events, left slot first. A reader's error is its fault, never raised."""
        events: list[Event] = []
        for name in READERS:
            if name in self.readers:
                events.extend(self._poll_one(name))
        return events

    def _poll_one(self, name: str) -> list[Event]:
        slot = self.slots[name]
        try:
            uid = self.readers[name].poll()
        except TwoCards:
            return slot.failed("two-cards")
        except Exception as error:               # every driver error is a fault the unit shows
            if name not in self.errors:
                log.warning("card reader %s (%s): %s", name, READER_SIGNS.get(name, name), error)
            self.errors[name] = error
            return slot.failed("not-answering")
        events = slot.update(uid)
        if any(isinstance(e, ReaderRecovered) for e in events) and self.errors.pop(name, None) is not None:
            log.info("card reader %s reads again", name)
        return events

    def cards(self) -> dict[str, str | None]:
        """The debounced UID on each configured slot."""
        return {name: slot.uid for name, slot in self.slots.items()}

    def faults(self) -> dict[str, str]:
        """The fault standing on each slot that has one."""
        return {name: slot.fault for name, slot in self.slots.items() if slot.fault is not None}

    # -- polling in the background ----------------------------------------------------

    def start(self, post: Callable[[Event], None], *, interval_s: float = 0.05) -> None:
        """Poll every ``interval_s`` on a supervised daemon thread, handing each event to ``post``."""
        if self._worker is not None:
            raise RuntimeError("the card slots are already started")

        def loop(stop: threading.Event) -> None:
            while not stop.is_set():
                for event in self.poll():
                    post(event)
                if self._worker is not None:
                    self._worker.settled()
                stop.wait(interval_s)

        def failed(exc: BaseException) -> None:
            for slot in self.slots.values():
                for event in slot.failed("not-answering"):
                    post(event)

        def restarted() -> None:
            for name in READERS:
                if name in self.slots:
                    for event in self.slots[name].restarted():
                        post(event)

        self._worker = Supervised("card-slots", loop, on_failure=failed, on_restart=restarted)
        self._worker.start()

    def close(self) -> None:
        """Stop polling and close every reader that has ``close()``."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
        for reader in self.readers.values():
            close = getattr(reader, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:                # closing must release the rest whatever one reader does
                    log.exception("closing a card reader failed")

    def __enter__(self) -> CardSlots:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
