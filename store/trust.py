"""What a ledger must show before anything is written to it: a journal that is the one anchored, under its key.

A writer opening a keyed ledger (schema 3) compares, cheaply (one anchored
row read, the head and the row before it, one HMAC), the journal with what
the keys folder holds (:mod:`store.keys`): the anchor of its head and its
key. A journal behind its anchor (fewer rows: a restored old copy, a cut
tail), whose anchored row differs (another file put in its place), whose
anchor is damaged, or whose head does not verify under the key (another
ledger's key, an edited last row) is not written to: :class:`UntrustedJournal`
names the problem, and no anchor is written over it. The banker can accept the
journal as it stands (``banker ledger accept``): a
:class:`~banker.records.JournalAccepted` record says what was missing, and
the head is anchored after it.

The keys folder also remembers where each keyed ledger lives
(:meth:`store.keys.Keyring.register`): a file of an earlier release found
where a keyed ledger was is refused (a downgrade), and a genuine one is moved
into the keyed chain only when asked (``banker ledger upgrade``).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from typing import NamedTuple

from banker.errors import LedgerError

from .codec import keyed_hash
from .keys import DAMAGED, Keyring


class UntrustedJournal(LedgerError):
    """The journal is not the one anchored, or not under this key: nothing is written to it."""


class OldLedger(LedgerError):
    """A ledger of an earlier release (schema 1 or 2): ``banker ledger upgrade`` brings it into the keyed chain."""


class Mismatch(NamedTuple):
    """Why the journal isn't trusted: ``reason``, and the anchor it was held against (``(0, "")``: none)."""

    reason: str
    anchored_seq: int
    anchored_hash: str
    acceptable: bool  # the banker may accept the journal as it stands (not so under a key that isn't its own)


def check_journal(conn: sqlite3.Connection, keyring: Keyring, ledger_id: str, key: bytes | None,
                  chain_start: int | None) -> Mismatch | None:
    """How the journal behind ``conn`` differs from its anchor and key, or None when it is the one anchored."""
    anchor = keyring.anchor(ledger_id)
    last = conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
    seq = last[0] if last else 0
    if anchor == DAMAGED:
        return Mismatch(f"the anchor of its head in {keyring.folder} is damaged", 0, "", True)
    if anchor is not None and anchor[0] > seq:
        return Mismatch(f"its journal is behind its anchor: it ends at entry {seq}, but entry {anchor[0]} was "
                        "anchored (an older copy put back, or its last entries cut off)", *anchor, True)
    if anchor is not None and anchor[0] > 0:
        found = conn.execute("SELECT hash FROM journal WHERE seq = ?", (anchor[0],)).fetchone()
        if found is None or found[0] != anchor[1]:
            return Mismatch(f"its journal entry {anchor[0]} differs from the one anchored outside the file (another "
                            "copy put in its place, or an edited entry)", *anchor, True)
    if last is None or key is None or (chain_start is not None and seq < chain_start):
        return None
    before = conn.execute("SELECT hash FROM journal WHERE seq < ? ORDER BY seq DESC LIMIT 1", (seq,)).fetchone()
    if keyed_hash(key, before[0] if before else "", *last[:6]) != last[6]:
        held = anchor if anchor is not None else (0, "")
        return Mismatch(f"its last entry ({seq}) does not verify under the key {ledger_id}.key in {keyring.folder} "
                        "(another ledger's key, or an edited entry)", *held, False)
    return None


def refuse_downgrade(keyring: Keyring, path: str, version: int) -> None:
    """Refuse a ledger of schema ``version`` (1 or 2) at ``path`` if the keys folder anchored a keyed one there."""
    known = keyring.registered(path)
    if known is not None:
        raise UntrustedJournal(f"{path} is a ledger of an earlier release (schema {version}, no keyed chain), but the "
                               f"keyed ledger {known} was kept here before (its key is in {keyring.folder}): refusing "
                               "it (an old or forged file put in its place?). Bring back a backup of the keyed "
                               "ledger ('banker game backups'), or move this file elsewhere and upgrade it there")


def needs_upgrade(path: str, version: int) -> OldLedger:
    return OldLedger(f"{path} is a ledger of an earlier release (schema {version}): it is read and written only "
                     f"once brought into the keyed chain, by 'banker ledger upgrade --db {path}' (a copy of the "
                     "old file is kept beside it)")


def refusal(path: str, found: Mismatch) -> UntrustedJournal:
    """The error a writer raises on ``found``: what is wrong, and what the banker can do."""
    then = (f"if this journal is the one to keep, 'banker ledger accept --pin PIN --db {path}' accepts it as it "
            "stands (the acceptance is journalled, and verify reports it), or bring back a backup "
            "('banker game restore --backup latest')") if found.acceptable else (
        "copy this ledger's own key into the keys folder (docs/security.md)")
    return UntrustedJournal(f"{path}: refusing to write: {found.reason}; 'banker ledger verify' says more; {then}")


def upgrade_ledger(conn: sqlite3.Connection, path: str, version: int, keyring: Keyring | None, *,
                   clock: Callable[[], float]) -> bytes:
    """Move the schema ``version`` (1 or 2) ledger behind ``conn`` into the keyed chain, schema 3 (the caller holds
    the writer lock): its rows keep their unkeyed hashes, a :class:`~banker.records.ChainStart` binds them. The key
    is the keys folder's for its ledger id, or a new one; returns it."""
    from .migrate import migrate_v1, migrate_v2
    from .schema import meta, translate

    try:
        if version == 1:
            migrate_v1(conn, path, clock=clock)
        ledger_id = meta(conn, "ledger_id") or secrets.token_hex(16)
        key = None if keyring is None else keyring.key(ledger_id)
        if key is None:
            key = secrets.token_bytes(32) if keyring is None else keyring.new_key(ledger_id)
        migrate_v2(conn, path, key=key, ledger_id=ledger_id, clock=clock)
        return key
    except sqlite3.Error as exc:
        raise translate(exc, path, "update") from exc
    except OSError as exc:
        if isinstance(exc, LedgerError):
            raise
        raise LedgerError(f"cannot keep a copy of {path} before updating it: {exc.strerror}") from exc
