"""The store: the append-only journal of records that the game is folded from, kept durable and keyed.

:class:`SqliteStore` keeps it in one SQLite file; ``firmware_sim.memory_store.MemoryStore``
is its fake. Both answer the same questions::

    store.append(record) -> record     # stamped with its time, once durable; LedgerError: nothing written
    store.records(since=0)             # every record after entry ``since``, in order
    store.last_seq(), store.head(), store.is_empty()
    store.game_transactions(game_id), store.transaction(tx_id)
    store.games() -> [GameRow], store.card_names() -> {card id: name}
    store.verify(progress=None) -> banker.audit.findings.Audit
    store.last_snapshot() -> (seq, Snapshot) | None, store.iter_game_transactions(game_id)
    store.anchor(), store.maintain()   # off the commit path: the head anchored, backups in the background

The store holds no rules and no game: ``banker.fold.game.replay(store.records(), editions=...)`` is the game.
"""

from __future__ import annotations

import importlib

#: Each name the package exports -> its module, imported when the name is first asked for: ``from store import
#: Keyring`` loads only the keys' module (``banker web``'s token file needs no more before the page opens).
_EXPORTS = {
    "APPLICATION_ID": "schema",
    "Backups": "backup_schedule",
    "GameRow": "journal",
    "INTERVAL_SECONDS": "backups",
    "KEEP": "backups",
    "KEY_ENV": "keys",
    "Keyring": "keys",
    "LedgerInUse": "lock",
    "OldLedger": "trust",
    "SCHEMA_VERSION": "schema",
    "SqliteStore": "sqlite_store",
    "UntrustedJournal": "trust",
    "is_ledger_file": "backups",
    "key_folder": "keys",
    "latest_good_backup": "backups",
    "list_backups": "backups",
    "restore_backup": "backups",
    "take_writer_lock": "lock",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    """An exported name, from its module (PEP 562); the module's own attribute from then on."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'store' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
