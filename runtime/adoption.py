"""Adopting a ledger whose key is missing (a new card, a reinstall, a lost key): a new key, and a record that says
from which entry it vouches.

The journal's rows are chained under the ledger's key (docs/security.md). On
a machine without that key nothing can be added to it. With the banker's PIN
the ledger is *adopted*: a fresh key is made, and a
:class:`~banker.journal.records.KeyAdopted` record (entry ``n``, naming entry
``n - 1``'s hash) is written under it, the first row that key vouches for.
``verify`` then checks the entries before it by their contents and order and
says so, every time.

The PIN (:func:`adoption_pin`, the same rule as a restore's): where this
machine keeps the ledger's PIN beside its anchor, that one decides, and with
the key away it can't be checked, so the adoption is refused. Elsewhere (a
fresh card) an older, unpeppered verifier is checked; a peppered one can't be
without the old key (that is what the pepper is for), so the PIN given then
becomes the banker's PIN. Holding a copy of a ledger and a fresh card gives
nothing more than holding the file: what adoption can't do is pass for the
old key, on this machine or any other that holds it.

Crash-safe by order: the key is kept aside (``<id>.key.adopting``), the
record is written (durable), the anchor set, and only then the key renamed
into place; an adoption cut short is finished by the next one, or by the
restore that made it (:func:`finish_cut_short`).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from banker.fold.authority import Grant, PinUncheckable, hash_pin, is_peppered, pin_pepper, refusal
from banker.errors import LedgerError
from banker.journal.records import KeyAdopted, stamped
from store.backup_identity import in_wal_mode
from store.codec import keyed_hash
from store.journal import make_row
from store.keys import Keyring
from store.lock import take_writer_lock
from store.schema import insert_row, write_transaction


def head_of(path: str | os.PathLike) -> tuple[str, int, tuple] | None:
    """(ledger id, last entry, the last row as stored) of the ledger file at ``path``, read only; None if empty.

    A ledger in WAL mode (a live one) is read as the store's readers read it, on a connection that may write
    (but is told not to: ``query_only``), so that its last close removes the ``-wal`` and ``-shm`` files: a
    ``mode=ro`` connection can't, and would leave them beside a ledger that only a reader opened.
    """
    file = Path(path).resolve()
    conn = sqlite3.connect(f"file:{file}?mode={'rw' if in_wal_mode(file) else 'ro'}", uri=True)
    try:
        conn.execute("PRAGMA query_only=ON")
        ledger_id = conn.execute("SELECT value FROM meta WHERE key = 'ledger_id'").fetchone()
        last = conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal ORDER BY seq DESC LIMIT 2"
                            ).fetchall()
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot read {path}: {exc}") from exc
    finally:
        conn.close()
    if not ledger_id or not last:
        return None
    previous = last[1][6] if len(last) > 1 else ""
    return ledger_id[0], last[0][0], (previous, *last[0])


def key_fits(path: str | os.PathLike, key: bytes) -> bool:
    """True when ``key`` verifies the last row of the ledger file at ``path`` (it is that ledger's key now)."""
    found = head_of(path)
    if found is None:
        return True
    previous, seq, game, tx, when, kind, body, digest = found[2]
    return keyed_hash(key, previous, seq, game, tx, when, kind, body) == digest


def pin_uncheckable(game) -> bool:
    """True when no PIN given to adopt ``game``'s ledger can be checked: its verifier is peppered with the key
    that is not here, so the PIN given becomes the banker's PIN of the adopted ledger (docs/security.md)."""
    return game.pin_hash is not None and is_peppered(game.pin_hash)


def adoption_pin(game, pin: str | None, now: float, *, keyring: Keyring | None = None,
                 ledger_id: str | None = None) -> None:
    """Raise :class:`~banker.fold.authority.NotAuthorised` unless ``pin`` may adopt ``game``'s ledger.

    One rule with a restore (``banker_cli/safety.py``): where this machine keeps the ledger's authority beside its
    anchor (it held the key), that kept PIN decides, and a peppered one can't be checked with the key away, so the
    adoption is refused (the card alone never chooses the banker's PIN; import the key instead). Where nothing is
    kept (a fresh card): no PIN set, the right PIN for an older verifier, or, for a peppered one that nothing here
    can check, a PIN at all, which becomes the banker's PIN (docs/security.md).
    """
    from runtime.ledger import authorise_kept

    if keyring is not None and ledger_id is not None and keyring.kept_authority(ledger_id) is not None:
        try:
            authorise_kept(keyring, ledger_id, Grant(pin, "cli", now))
        except PinUncheckable:
            raise PinUncheckable(KEPT_UNCHECKABLE.format(ledger_id=ledger_id)) from None
        return
    refused = refusal(game, Grant(pin, "cli"), now)
    if refused is not None and not isinstance(refused, PinUncheckable):
        raise refused


#: Why an adoption is refused where the banker's PIN is kept but its key is away (docs/security.md).
KEPT_UNCHECKABLE = ("this machine keeps the banker's PIN of ledger {ledger_id} and it can't be checked without the "
                    "ledger's key, which is not here: nothing was changed; put the key back with "
                    "'banker key import FILE' (an adoption can't choose a new banker's PIN here)")


def adopt(path: str | os.PathLike, pin: str | None, *, keyring: Keyring | None = None,
          clock: Callable[[], float] = time.time, pin_checked: bool = False, keep_staged: bool = False) -> KeyAdopted:
    """Adopt the ledger file at ``path`` under a new key, with the banker's ``pin``; returns the record written.

    ``pin_checked``: ``pin`` was already checked as the banker's (a restore
    over a ledger checks the current ledger's PIN, not the backup's again).
    ``keep_staged``: the new key stays aside (``<id>.key.adopting``) for the
    caller to :meth:`~store.keys.Keyring.commit_staged` once the file is in
    place (a restore adopts a copy first).

    :class:`LedgerError` when its key is here (nothing to adopt) or it can't
    be written; :class:`~banker.fold.authority.NotAuthorised` for the PIN; either
    way nothing changed.
    """
    from runtime.ledger import Ledger
    from store import SqliteStore

    keyring = keyring if keyring is not None else Keyring()
    with Ledger(SqliteStore(path, writer=False, backups=False, keyring=keyring)) as copy:
        ledger_id, game = copy.store.ledger_id, copy.game()
    kept = keyring.key(ledger_id)
    if kept is not None:
        raise LedgerError(f"the key of {path} (ledger {ledger_id}) is on this machine "
                          f"({keyring.key_file(ledger_id)}): there is nothing to adopt")
    if not pin_checked:
        adoption_pin(game, pin, clock(), keyring=keyring, ledger_id=ledger_id)
    lock = take_writer_lock(str(path))
    try:
        staged = keyring.staged_key(ledger_id)
        if staged is not None and key_fits(path, staged):  # an adoption cut short after its record: finish it
            record = None
        else:
            staged = keyring.stage_key(ledger_id)
            record = _write_record(path, staged, (game.pin_hash is not None or pin_checked) and pin, clock())
        found = head_of(path)
        keyring.set_anchor(ledger_id, found[1], found[2][-1])
        if not keep_staged:
            keyring.commit_staged(ledger_id)
    finally:
        lock.release()
    return record if record is not None else KeyAdopted(found[1], found[2][0])


def finish_cut_short(path: str | os.PathLike, keyring: Keyring | None = None) -> KeyAdopted | None:
    """Finish an adoption of the ledger at ``path`` killed after its record was written (its key still staged,
    ``<id>.key.adopting``, and verifying the head): anchored, the key kept. The record's entry and the head it
    names, or None when there was none to finish (its key is here, or no staged key fits)."""
    keyring = keyring if keyring is not None else Keyring()
    found = head_of(path)
    if found is None or keyring.key(found[0]) is not None:
        return None
    staged = keyring.staged_key(found[0])
    if staged is None or not key_fits(path, staged):
        return None
    lock = take_writer_lock(str(path))
    try:
        found = head_of(path)
        keyring.set_anchor(found[0], found[1], found[2][-1])
        keyring.commit_staged(found[0])
    finally:
        lock.release()
    return KeyAdopted(found[1], found[2][0])


def _write_record(path: str | os.PathLike, key: bytes, pin: str | bool, now: float) -> KeyAdopted:
    """Append the KeyAdopted record under ``key`` (durable when it returns, or nothing written)."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous=FULL")
        last = conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        seq, head = last if last else (0, "")
        pin_hash = hash_pin(pin, os.urandom(16), pin_pepper(key)) if pin else None
        record = stamped(KeyAdopted(seq + 1, head, pin_hash), now)
        row = make_row(head, seq + 1, record, key)
        with write_transaction(conn):
            insert_row(conn, row)
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot write to {path}: {exc}") from exc
    finally:
        conn.close()
    return record
