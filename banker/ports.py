"""The ports: what the core expects of each device kind, as small Protocols.

Each is implemented over the real libraries in ``drivers/`` and as a
recording fake in ``firmware_sim/``. Anything that owns hardware also has
``close()`` and is a context manager.
"""

from __future__ import annotations

from typing import Protocol
from collections.abc import Callable

from banker.audit.findings import Audit
from banker.fold.opening import GameJournal
from banker.unit.events import Tone
from banker.journal.records import GameSettings, Record, Transaction
from banker.unit.screen import Screen


class Display(Protocol):
    """Shows the core's screen model (a 128x64 OLED, a window, a test recorder)."""

    def show(self, screen: Screen) -> None: ...
    def power(self, on: bool) -> None: ...


class Buzzer(Protocol):
    """Plays the unit's tones at a volume of 0 (off) to 3 (high)."""

    def play(self, tone: Tone, volume: int) -> None: ...


class GameSummary(Protocol):
    """A game of the ledger as the store lists it: its number, settings, start time, transaction count."""

    id: int
    settings: GameSettings
    started: float | None
    transactions: int


class Store(GameJournal, Protocol):
    """The journal: append-only records, durable when :meth:`append` returns, read back in order.

    Implemented by :class:`store.SqliteStore` (the unit's SQLite file) and by
    :class:`firmware_sim.memory_store.MemoryStore` (the fake, which can be told
    to fail). No rules, no caches that are the truth: the game is the fold of
    :meth:`records` from the newest snapshot (:func:`banker.fold.opening.open_journal`). It writes what it is
    given: a snapshot's worth trail is the ledger's to attach. The reading members the fold opens a journal
    with (``records``, ``last_snapshot``, ``iter_game_transactions``) are :class:`banker.fold.opening.GameJournal`'s;
    these are what the unit's ledger (:class:`runtime.ledger.Ledger`) asks besides.
    """

    #: Where the journal lives (``":memory:"`` for one that dies with the process).
    path: str
    #: False when opened only for reading: :meth:`append` then refuses.
    writer: bool
    #: The ledger's own name (random hex), and the key its chain is keyed with (None: not held here).
    ledger_id: str
    key: bytes | None

    def now(self) -> float:
        """The wall-clock time the journal stamps a record with."""
        ...

    def append(self, record: Record) -> Record:
        """Write ``record`` as the next entry (stamped with :meth:`now` unless it carries its time); returns it
        as written once durable, or raises :class:`banker.errors.LedgerError` with nothing written."""
        ...

    def game_stretches(self, game_id: int) -> list[tuple[int, int]]:
        """(first entry, entry after the last) of each stretch game ``game_id`` was current in; none: no such game."""
        ...

    def last_seq(self) -> int: ...
    def transaction(self, tx_id: int) -> Transaction | None: ...
    def games(self) -> list[GameSummary]: ...
    def verify(self, progress: Callable[[int], None] | None = None) -> Audit: ...

    def maintain(self) -> None:
        """Upkeep off the commit path: backups when due (a writer's)."""
        ...

    #: Why the journal may not be written (not the one anchored: :mod:`store.trust`), or None.
    distrust: object | None

    def kept_authority(self) -> tuple[str | None, tuple[float, ...]] | None:
        """The banker's PIN verifier and recent wrong tries kept beside the anchor (outside the file), or None."""
        ...

    def keep_authority(self, verifier: str | None, failures: tuple[float, ...]) -> None:
        """Keep them there (a writer does, whenever they change and the journal is trusted)."""
        ...

    def anchor(self) -> None:
        """Keep the head outside the file, where the store has somewhere to keep it."""
        ...

    @property
    def backup_error(self) -> str | None:
        """Why the last backup failed, if it did (None: no backups, or all well)."""
        ...

    def close(self) -> None: ...
