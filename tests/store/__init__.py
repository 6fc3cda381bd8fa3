"""The SQLite journal, its keys, trust, verification, backups and migrations of old ledgers."""
