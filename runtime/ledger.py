"""The ledger as the shell and the CLI use it: a store of records and the game they fold to, one write path.

Every change, from the keypad or the ``banker`` command, is a record built
by the core (:mod:`banker.fold.acts`, :func:`banker.unit.step.step`) and written by
:meth:`Ledger.commit`: checked against the game (:func:`banker.fold.game.apply`),
appended to the store (durable when it returns, or nothing written), and
only then folded into the game. Readers of the current game read the
immutable value :meth:`Ledger.game` returns; the journal's history is read
from the store.

Opening folds only the records after the store's last
:class:`~banker.journal.records.Snapshot`: :meth:`Ledger.maintain` (the shell calls
it when idle, and :meth:`Ledger.close` at a clean stop) appends one every
:data:`SNAPSHOT_EVERY` records, so a start costs the same at any age of the
ledger.

>>> from firmware_sim.memory_store import MemoryStore
>>> with Ledger(MemoryStore()) as ledger:
...     alice = ledger.enrol("Alice", "04A1B2C3")
...     ledger.game().balance(alice.id)
15000000
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, replace
from collections.abc import Callable, Iterator

from banker.fold import acts
from banker.audit.findings import Audit
from banker.fold.authority import (
    PIN_SETTING, Grant, WrongPin, hash_pin, is_peppered, pepper_verifier, pin_pepper, refusal, requires_pin,
)
from banker.errors import CorruptLedger, LedgerError, Refused
from banker.fold.game import Game, apply, replay
from banker.fold.opening import open_journal, with_worth
from banker.ports import Store
from banker.journal.records import (Card, GameSettings, JournalAccepted, PinChange, PinFailure, Record, Setting, Transaction,
                            stamped)
from banker.fold.undo import reversal, undo_last
from cards import editions as packaged_editions


@dataclass(frozen=True)
class GameInfo:
    """A game in the ledger: its id, settings, start time (epoch seconds), whether it is current, its size."""

    id: int
    settings: GameSettings
    started: float | None
    current: bool
    transactions: int


#: A record as the step folded it: the game it was folded on and the game it led to.
Folded = tuple[Game, Game]

#: Records between snapshots: opening folds at most this many (plus the snapshot).
SNAPSHOT_EVERY = 500
QUIET_AFTER = 2.0  #: seconds without a key or card before a snapshot is taken (as store.upkeep.IDLE_AFTER)
#: At a clean stop, a snapshot is taken if at least this many records came since the last.
SNAPSHOT_AT_CLOSE = 50


class Ledger:
    """``store`` (any :class:`banker.ports.Store`: the SQLite journal, or the in-memory fake) and its game.

    A store with no records yet gets the first game started. ``pepper``: the PIN's pepper, when it is not
    the store's own key's (a copy in memory of a stored ledger).
    """

    def __init__(self, store: Store, *, editions=None, pepper: bytes | None = None) -> None:
        self.store = store
        self.editions = editions if editions is not None else packaged_editions()
        #: Every commit the store could not write, in order (nothing of them was written).
        self.unsaved: list[LedgerError] = []
        key = getattr(store, "key", None)  # a store without a key keeps verifiers unpeppered
        #: The PIN's pepper (:func:`banker.fold.authority.pin_pepper` of the ledger's key), None without the key;
        #: ``pepper`` given: another ledger's (a rehearsal on an in-memory copy checks the stored ledger's PIN).
        self.pepper: bytes | None = pepper if pepper is not None else (pin_pepper(key) if key else None)
        try:
            opened = open_journal(store, editions=self.editions)
        except Refused as exc:
            raise CorruptLedger(f"{self.path}: the journal does not replay ({exc})") from exc
        self._game, self._snapshot_seq = opened.game, opened.snapshot_seq
        self._quiet_for: float | None = None  # the shell's last word (note_quiet); None: a script, the CLI
        if store.writer and store.distrust is None:  # else it writes only the banker's acceptance
            self._opened_for_writing()

    def _opened_for_writing(self) -> None:
        """What a writer does as it opens a trusted journal: keep the PIN and wrong tries beside its anchor, start
        the first game of an empty one, take a snapshot if one is due."""
        self._keep_authority()
        if self._game.id == 0:
            self.commit(acts.new_game(self._game, GameSettings()))  # the official rules: no deal to shuffle
        if self.store.last_seq() - self._snapshot_seq >= SNAPSHOT_EVERY:
            self._take_snapshot()  # a ledger of an earlier release, or one built in bulk: the next start is quick

    @property
    def path(self) -> str:
        return self.store.path

    @property
    def backup_error(self) -> str | None:
        return self.store.backup_error

    @property
    def backup_stick(self):
        """Why the second backup folder can't take a backup, as data (None: it can, or there is none)."""
        return getattr(getattr(self.store, "backups", None), "stick", None)  # store.backup_schedule.StickProblem

    # -- the one write path --------------------------------------------------------------

    def commit(self, record: Record, grant: Grant | None = None, *, folded: Folded | None = None) -> Record:
        """Fold ``record`` into the game, append it (durable), then keep the game it led to; returns it as stored.

        A record that is the banker's act (:func:`banker.fold.authority.needs_authority`)
        needs ``grant`` to carry the banker's PIN, once one is set: this is the
        one place that decides it (:meth:`authorise`). The record is folded
        once (:func:`banker.fold.game.apply`), stamped with its time first; the
        step's own fold is kept instead when ``folded`` (the game it folded the
        stamped record on, the game it got) starts from the game now.
        :class:`NotAuthorised` without the PIN, :class:`Refused` if the record
        does not fit, :class:`banker.errors.LedgerError` if the store cannot
        write it: either way nothing changed (but a wrong PIN's own record).
        """
        if requires_pin(self._authority(), record):
            self.authorise(grant)
        if isinstance(record, PinChange) and self.pepper is not None and not is_peppered(record.pin_hash):
            record, folded = replace(record, pin_hash=pepper_verifier(record.pin_hash, self.pepper)), None
        if folded is not None and folded[0] is self._game and record.time is not None:
            after = folded[1]
        else:
            record = record if record.time is not None else stamped(record, self.store.now())
            after = apply(self._game, record)
        try:
            stored = self.store.append(record)
        except LedgerError as exc:
            self.unsaved.append(exc)  # the unit shows NOT SAVED; a script that met one must not pass
            raise
        before, self._game = self._game, after
        if (after.pin_hash, after.pin_failures) != (before.pin_hash, before.pin_failures):
            self._keep_authority()
        return stored

    def _authority(self) -> Game:
        """The game whose PIN and wrong tries decide an act. A journal that isn't the one anchored
        (:mod:`store.trust`) can't vouch for them: an older copy put back would bring back an older PIN, or
        none, and forget wrong tries. So then the banker's verifier and the wrong tries kept beside the anchor
        by the trusted journal (:meth:`Store.kept_authority`) decide, with the wrong tries made since."""
        kept = self.store.kept_authority() if self.store.distrust is not None else None
        if kept is None:
            return self._game
        return replace(self._game, pin_hash=kept[0], pin_failures=_both(self._game.pin_failures, kept[1]))

    def _keep_authority(self) -> None:
        """Keep the banker's verifier and recent wrong tries beside the anchor: a trusted journal's as they are;
        while the journal is not trusted, only more wrong tries (a journal put back can't forget them)."""
        kept = self.store.kept_authority()
        if self.store.distrust is None or kept is None:
            verifier, failures = self._game.pin_hash, self._game.pin_failures
        else:
            verifier, failures = kept[0], _both(self._game.pin_failures, kept[1])[-32:]
        if self.store.writer and kept != (verifier, failures):
            self.store.keep_authority(verifier, failures)

    def note_quiet(self, seconds: float) -> None:
        """The shell's word before a tick's upkeep: no key or card for ``seconds`` (not said: quiet, a script)."""
        self._quiet_for = seconds

    def maintain(self) -> None:
        """Upkeep off the commit path (the shell calls it after a tick's frame): a snapshot when due (once quiet,
        or another :data:`SNAPSHOT_EVERY` records on), the WAL's checkpoint, backups, the anchor."""
        if not self.store.writer:
            return
        (behind, quiet), self._quiet_for = (self.store.last_seq() - self._snapshot_seq, self._quiet_for), None
        if behind >= SNAPSHOT_EVERY and (quiet is None or quiet >= QUIET_AFTER or behind >= 2 * SNAPSHOT_EVERY):
            self._take_snapshot()
        self.store.maintain(quiet) if quiet is not None and hasattr(self.store, "quiet") else self.store.maintain()

    def _take_snapshot(self) -> None:
        """Append the game's snapshot, with the table page's worth trail (carried on from the last snapshot's)."""
        self.commit(with_worth(self.store, self._game.snapshot(), editions=self.editions))
        self._snapshot_seq = self.store.last_seq()
        self.store.anchor()

    def authorise(self, grant: Grant | None) -> None:
        """Check that ``grant`` carries the banker's authority; a wrong PIN is journalled (it counts everywhere).

        The one check of the banker's PIN, on every path (keypad, CLI, keypad
        scripts, the serial port): :class:`NotAuthorised` when PIN entry is
        locked (:mod:`banker.fold.lockout`, whatever path the wrong tries came by),
        when no PIN is given, or when it is wrong (that try is committed
        first; a ledger open only for reading can't write it down, so a caller
        that lets a PIN decide anything opens the ledger for writing).
        Nothing to check when no PIN is set. :meth:`commit` calls it for every
        record that needs it; call it alone only for an act that writes no
        record of this ledger (replacing it by a backup).
        """
        now = time.time() if grant is None or grant.wall is None else grant.wall
        refused = refusal(self._authority(), grant, now, self.pepper)
        if refused is None:
            self._upgrade_verifier(grant)
            return
        if isinstance(refused, WrongPin) and grant is not None and self.store.writer:
            self._game = apply(self._game, self.store.append(PinFailure(grant.via)))
            self._keep_authority()
        raise refused

    def accept_journal(self, grant: Grant | None = None) -> JournalAccepted:
        """Accept the journal as it stands though it differs from its anchor (the store was opened with
        ``accept=True``): the banker's act, journalled with what was anchored and what was found; then anchored."""
        found = self.store.distrust
        if found is None:
            raise Refused(f"{self.path}: its journal is the one anchored: there is nothing to accept")
        record = JournalAccepted(found.anchored_seq, found.anchored_hash, self.store.last_seq(), found.reason)
        stored = self.commit(record, grant)
        self.store.anchor()
        return stored

    def _upgrade_verifier(self, grant: Grant | None) -> None:
        """The right PIN was given for an older, unpeppered verifier: journal it again, keyed with the pepper
        (a PinChange of the same PIN). Best effort: the act it came with reports a store that can't write."""
        pin_hash = self._game.pin_hash
        if (pin_hash is None or is_peppered(pin_hash) or self.pepper is None or grant is None
                or grant.pin is None or not self.store.writer):
            return
        upgrade = PinChange(hash_pin(grant.pin, os.urandom(16), self.pepper))
        try:
            self._game = apply(self._game, self.store.append(upgrade))
            self._keep_authority()
        except LedgerError:
            pass

    def key_text(self) -> str:
        """The ledger's key as ``banker key import`` reads it (for ``FN M``'s QR code, once the PIN let it out)."""
        from store.keys import key_text

        return key_text(self.store.ledger_id, self.store.key)

    # -- reading -------------------------------------------------------------------------

    def game(self) -> Game:
        """The game now (an immutable value): balances, cards, deeds and settings are read from it."""
        return self._game

    def transactions(self, game_id: int | None = None) -> list[Transaction]:
        """The journal of ``game_id`` (default: the current game), in order."""
        return list(self.store.iter_game_transactions(self._game.id if game_id is None else game_id))

    def iter_transactions(self, game_id: int | None = None) -> Iterator[Transaction]:
        """The journal of ``game_id`` read as it is needed (constant memory: ``ledger show``, ``export``)."""
        return self.store.iter_game_transactions(self._game.id if game_id is None else game_id)

    def transaction(self, tx_id: int) -> Transaction:
        tx = self.store.transaction(tx_id)
        if tx is None:
            raise Refused(f"there is no transaction #{tx_id}")
        return tx

    def games(self) -> list[GameInfo]:
        """Every game in the ledger, oldest first; ``current`` marks the current one."""
        return [GameInfo(row.id, row.settings, row.started, row.id == self._game.id, row.transactions)
                for row in self.store.games()]

    def verify(self, progress=None) -> Audit:
        """The store's audit of the whole journal (``progress(rows checked)`` as it goes); the snapshots the
        game was opened from are among what it checks against the fold."""
        return self.store.verify(progress)

    def check(self) -> None:
        """Raise :class:`CorruptLedger` if the game differs from a fresh fold of the journal."""
        fresh = replay(self.store.records(), editions=self.editions)
        if fresh != self._game:
            raise CorruptLedger("the game in memory differs from the journal")

    # -- the banker's acts (each one record) ------------------------------------------------

    def post(self, tx: Transaction, grant: Grant | None = None) -> Transaction:
        """Commit ``tx`` as the current game's next transaction; returns it with its id, game and time."""
        return self.commit(self._game.numbered(tx), grant)

    def enrol(self, name: str, uid: str, grant: Grant | None = None) -> Card:
        """Enrol a card for ``name`` and give it the current game's start balance, in one commit."""
        return self.commit(acts.enrolment(self._game, name, uid), grant).card

    def enrol_deed(self, slug: str, uid: str, grant: Grant | None = None) -> None:
        """Give the title deed ``slug`` the RFID tag ``uid`` (replacing any tag it had)."""
        self.commit(acts.deed_tag(self._game, slug, uid), grant)

    def rename(self, name: str, new_name: str, grant: Grant | None = None) -> Card:
        record = self.commit(acts.rename(self._game, name, new_name), grant)
        return self._game.card_by_id(record.card_id)

    def remove(self, name: str, grant: Grant | None = None) -> Card:
        """Retire a card: it leaves the list of players; its journal entries stay."""
        card = acts.card_named(self._game, name)
        self.commit(acts.removal(self._game, name), grant)
        return card

    def set_setting(self, key: str, value: str, grant: Grant | None = None) -> None:
        self.commit(PinChange(value) if key == PIN_SETTING else Setting(key, value), grant)

    def new_game(self, settings: GameSettings | None = None, grant: Grant | None = None) -> Game:
        """Archive the current game and start a new one: every enrolled card at the start balance, one commit."""
        self.commit(acts.new_game(self._game, settings, shuffle=os.urandom(16)), grant)  # a short game's deal
        return self._game

    def restore_game(self, game_id: int, grant: Grant | None = None) -> Game:
        """Make an archived game current again (the present one stays archived).

        Its state is the fold's just before the record that archived it:
        folded from the newest snapshot before that record, not from the
        journal's start.
        """
        stretches = self.store.game_stretches(game_id)
        if not stretches:
            raise Refused(f"there is no game {game_id}")
        if game_id != self._game.id:
            self.commit(acts.restore(self._game, self._game_before(stretches[-1][1]).checkpoint()), grant)
        elif self._game.pin_hash is not None:
            self.authorise(grant)  # nothing to write, but still the banker's act: a wrong PIN counts
        return self._game

    def undo(self, tx_id: int | None = None, grant: Grant | None = None) -> Transaction:
        """Post the reversing entry of ``tx_id`` (default: the game's last transaction)."""
        target = None if tx_id is None else self.transaction(tx_id)
        return self.commit(undo_last(self._game) if target is None else reversal(self._game, target), grant)

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """A clean stop: a snapshot if enough came since the last (the next start is quick), then the store closes."""
        try:
            if self.store.writer:
                if self.store.last_seq() - self._snapshot_seq >= SNAPSHOT_AT_CLOSE:
                    self._take_snapshot()
                self.store.maintain()  # a backup due (a new game began) is made before the store closes
        except Exception:  # a full disk at the end must not hide the close
            pass
        self.store.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _game_before(self, seq: int) -> Game:
        """The game as the fold held it just before entry ``seq``: the newest snapshot before it, and what follows."""
        return open_journal(self.store, editions=self.editions, until=seq - 1).game


def open_ledger(path: str | os.PathLike = ":memory:", *, writer: bool = True, clock: Callable[[], float] = time.time,
                backups: bool = True, **store_options) -> Ledger:
    """The ledger in the SQLite file at ``path`` (created if missing); ``writer`` takes the one-writer lock."""
    from store import SqliteStore

    store = SqliteStore(path, writer=writer, clock=clock, backups=backups, **store_options)
    try:
        return Ledger(store)
    except BaseException:
        store.close()
        raise


#: The name the first release gave the SQLite ledger (tests, the CLI and tools use it).
def SqliteLedger(path: str | os.PathLike = ":memory:", **options) -> Ledger:  # noqa: N802
    return open_ledger(path, **options)


def _both(ours: tuple[float, ...], kept: tuple[float, ...]) -> tuple[float, ...]:
    """Wrong tries known to the journal or kept beside the anchor, each once (tries at one time counted as often
    as either side has them)."""
    return tuple(sorted((Counter(ours) | Counter(kept)).elements()))


def authorise_kept(keyring, ledger_id: str, grant: Grant | None) -> None:
    """Check ``grant`` against the banker's PIN kept beside the anchor of ``ledger_id`` (:mod:`store.keys`), for an
    act on a ledger that can't be opened to ask it (its file is gone, damaged, or not the one kept there: a
    restore). A wrong PIN is kept there too, so the lockout holds. Nothing to check when nothing is kept."""
    from banker.fold.authority import pin_pepper

    kept = keyring.kept_authority(ledger_id)
    if kept is None:
        return
    key = keyring.key(ledger_id)
    now = time.time() if grant is None or grant.wall is None else grant.wall
    refused = refusal(replace(Game(), pin_hash=kept[0], pin_failures=kept[1]), grant, now,
                      pin_pepper(key) if key else None)
    if isinstance(refused, WrongPin):
        keyring.keep_authority(ledger_id, kept[0], tuple(sorted(kept[1] + (now,)))[-32:])
    if refused is not None:
        raise refused
