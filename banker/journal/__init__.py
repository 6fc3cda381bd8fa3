"""The journal's records: typed, immutable, append-only (transactions, estate and key records)."""
