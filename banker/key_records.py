"""The record that the ledger's chain is vouched for by a new key from here on (an adopted ledger)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeyAdopted:
    """The ledger was adopted under a new key (a new card, a lost key): that key vouches from this record on.

    The rows before it, up to entry ``from_seq - 1`` whose hash was
    ``previous_head``, were chained under a key this machine doesn't hold:
    verify checks them by their contents and order only, and says so.
    ``pin_hash``: the banker's PIN from here on (peppered with the new key;
    None: unchanged, or none set).
    """

    from_seq: int
    previous_head: str
    pin_hash: str | None = None
    time: float | None = None
