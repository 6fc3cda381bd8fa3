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
:class:`~banker.journal.records.JournalAccepted` record says what was missing, and
the head is anchored after it.

The keys folder also remembers where each keyed ledger lives
(:meth:`store.keys.Keyring.register`): a file of an earlier release found
where a keyed ledger was is refused (a downgrade), and a genuine one is moved
into the keyed chain only when asked (``banker ledger upgrade``). A keyed file
of another ledger put there is refused too, though its own key may verify it
(:func:`refuse_swap`), unless it came by a restore (:func:`note_placed`).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote

from banker.errors import LedgerError

from .codec import keyed_hash
from .keys import DAMAGED, REGISTRY, Keyring


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
    """How the journal behind ``conn`` differs from its anchor and key, or None when it is the one anchored.

    :class:`UntrustedJournal` (never acceptable) when the keys folder kept another keyed ledger in this file's
    place (:func:`refuse_swap`)."""
    anchor = keyring.anchor(ledger_id)
    last = conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
    seq = last[0] if last else 0
    if last is not None:  # a new, empty ledger (the writer just made it) takes the place of whatever was there
        refuse_swap(keyring, _file_of(conn), ledger_id)
    differs = _off_its_anchor(conn, keyring, anchor, seq)
    if differs is not None or last is None or key is None or (chain_start is not None and seq < chain_start):
        return differs
    before = conn.execute("SELECT hash FROM journal WHERE seq < ? ORDER BY seq DESC LIMIT 1", (seq,)).fetchone()
    if keyed_hash(key, before[0] if before else "", *last[:6]) != last[6]:
        held = anchor if anchor is not None else (0, "")
        return Mismatch(f"its last entry ({seq}) does not verify under the key {ledger_id}.key in {keyring.folder} "
                        "(another ledger's key, or an edited entry)", *held, False)
    return None


def _off_its_anchor(conn: sqlite3.Connection, keyring: Keyring, anchor, seq: int) -> Mismatch | None:
    """How the journal behind ``conn`` (ending at entry ``seq``) differs from the head anchored outside it, if it
    does: the anchor damaged, the journal behind it, or another entry where the anchored one was."""
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
    return None


def refuse_downgrade(keyring: Keyring, path: str, version: int) -> None:
    """Refuse a ledger of schema ``version`` (1 or 2) at ``path`` if the keys folder anchored a keyed one there."""
    known = keyring.registered(path)
    if known is not None:
        raise UntrustedJournal(f"{path} is a ledger of an earlier release (schema {version}, no keyed chain), but the "
                               f"keyed ledger {known} was kept here before (its key is in {keyring.folder}): refusing "
                               "it (an old or forged file put in its place?). Bring back a backup of the keyed "
                               "ledger ('banker game backups'), or move this file elsewhere and upgrade it there")


def refuse_swap(keyring: Keyring, path: str | None, ledger_id: str) -> None:
    """Refuse the keyed ledger ``ledger_id`` at ``path`` if the keys folder kept another keyed ledger there.

    Its own key and anchor may well be in the folder (it was played on this
    machine, elsewhere): it verifies, but it is not the ledger that lived
    here. Only an explicit act puts it in that place: ``banker game restore
    --backup FILE``, which notes it (:func:`note_placed`).
    """
    known = keyring.registered(path) if path else None
    if known is not None and known != ledger_id and keyring.incoming(path) != ledger_id:
        raise UntrustedJournal(
            f"{path}: refusing to write: it holds the keyed ledger {ledger_id}, but the keyed ledger {known} was kept "
            f"here ({keyring.folder / REGISTRY}): another ledger's file put in its place? To play {ledger_id} here, "
            f"bring it in by 'banker game restore --backup FILE --db {path}' from a copy kept elsewhere (the "
            f"ledger {known} as it is now is kept among the backups); to go on with {known}, put its own file back "
            "('banker game backups' lists its backups)")


def note_placed(path: str | os.PathLike, *, coming_from: str | os.PathLike | None = None) -> None:
    """Note in the keys folder that the ledger now at ``path`` belongs there, under the writer lock.

    A restore calls it twice: with ``coming_from`` (the staged copy) before the rename, admitting that
    ledger beside the one there now, then without, once the file is in place, naming it alone; a kill
    between leaves whichever file is there accepted. A ledger of an earlier schema, or a file that isn't a
    ledger, is left unnoted (it is keyed, and noted, when it is opened)."""
    ledger_id = _keyed_id(coming_from if coming_from is not None else path)
    if ledger_id is not None:
        keyring = Keyring()
        if coming_from is not None:
            keyring.admit(path, ledger_id)
        else:
            keyring.register(path, ledger_id)


def _keyed_id(path: str | os.PathLike) -> str | None:
    """The ledger id of the keyed (schema 3) ledger file at ``path``, or None."""
    from .schema import meta

    try:
        conn = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        version, ledger_id = meta(conn, "schema"), meta(conn, "ledger_id")
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    if version is not None and version.isdigit() and int(version) >= 3 and ledger_id and ledger_id.isalnum():
        return ledger_id
    return None


def _file_of(conn: sqlite3.Connection) -> str | None:
    """The file behind ``conn`` (None: in memory)."""
    row = conn.execute("PRAGMA database_list").fetchone()
    return row[2] or None if row else None


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
    the writer lock): its rows keep their unkeyed hashes, a :class:`~banker.journal.records.ChainStart` binds them. The key
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
