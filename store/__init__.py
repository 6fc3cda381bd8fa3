"""The store: the append-only journal of records that the game is folded from, kept durable and keyed.

:class:`SqliteStore` keeps it in one SQLite file; ``firmware_sim.memory_store.MemoryStore``
is its fake. Both answer the same questions::

    store.append(record) -> record     # stamped with its time, once durable; LedgerError: nothing written
    store.records(since=0)             # every record after entry ``since``, in order
    store.last_seq(), store.head(), store.is_empty()
    store.game_transactions(game_id), store.transaction(tx_id)
    store.games() -> [GameRow], store.card_names() -> {card id: name}
    store.verify(progress=None) -> banker.audit.Audit
    store.last_snapshot() -> (seq, Snapshot) | None, store.iter_game_transactions(game_id)
    store.anchor(), store.maintain()   # off the commit path: the head anchored, backups in the background

The store holds no rules and no game: ``banker.game.replay(store.records(), editions=...)`` is the game.
"""

from .backup_schedule import Backups
from .backups import INTERVAL_SECONDS, KEEP, is_ledger_file, latest_good_backup, list_backups, restore_backup
from .keys import KEY_ENV, Keyring, key_folder
from .editions import load_edition
from .journal import GameRow
from .lock import LedgerInUse, take_writer_lock
from .schema import APPLICATION_ID, SCHEMA_VERSION
from .sqlite_store import SqliteStore
from .trust import OldLedger, UntrustedJournal

__all__ = [
    "APPLICATION_ID",
    "Backups",
    "GameRow",
    "INTERVAL_SECONDS",
    "KEEP",
    "LedgerInUse",
    "SCHEMA_VERSION",
    "SqliteStore",
    "OldLedger",
    "UntrustedJournal",
    "KEY_ENV",
    "Keyring",
    "is_ledger_file",
    "key_folder",
    "latest_good_backup",
    "list_backups",
    "load_edition",
    "restore_backup",
    "take_writer_lock",
]
