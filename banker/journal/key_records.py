"""The records of the chain's trust: a journal accepted as it stood, a ledger adopted under a new key, a key shown."""

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


@dataclass(frozen=True)
class JournalAccepted:
    """The banker accepted the journal as it stands (the banker's act) though it was not the one anchored outside
    the file: entry ``anchored_seq`` with hash ``anchored_hash`` was anchored, ``found_seq`` entries were found."""

    anchored_seq: int
    anchored_hash: str
    found_seq: int
    reason: str
    time: float | None = None


@dataclass(frozen=True)
class KeyShown:
    """The ledger's key was shown as a QR code on the unit's screen (``FN M``, the banker's act), to be
    photographed for another machine (``banker key import``). The key itself is never journalled."""

    time: float | None = None
