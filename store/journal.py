"""What both stores share: a journal row, building it and reading it back, and the questions asked of the records.

:class:`Row` is a record as stored: its ``seq``, the columns ``game`` and
``tx`` (the first transaction it carries), the wall-clock ``time``, its
``kind``, the body text and the chain ``hash``: HMAC-SHA256 under the
ledger's key over the row before it and the row's own fields, in a fixed
byte layout (:func:`store.codec.keyed_hash`). :func:`verify_rows` checks a
journal from its rows in one pass, recomputing every hash from the text
exactly as stored, then hands the records it could read to the pure content
audit. Rows from before a :class:`~banker.journal.records.ChainStart` (a ledger of an
earlier release) are checked by their own, unkeyed chain, and said to be.
"""

from __future__ import annotations

import json
import json.scanner
from dataclasses import dataclass
from typing import NamedTuple
from collections.abc import Callable, Iterable, Mapping

from banker.fold.history import game_states
from banker.journal.records import (
    Enrolment,
    GameSettings,
    Record,
    Rename,
    Transaction,
    game_of,
    transactions_in,
)

from .codec import chain_hash, decode, encode, keyed_hash
from banker.rules.deeds import Edition
from cards import editions as packaged_editions

from .hot_rows import fast_transaction, plain_transaction


class Row(NamedTuple):
    """One journal row as stored."""

    seq: int
    game: int | None
    tx: int | None
    time: float
    kind: str
    body: str
    hash: str


@dataclass(frozen=True)
class GameRow:
    """A game of the ledger, archived or current: its number, settings, start time and transaction count."""

    id: int
    settings: GameSettings
    started: float
    transactions: int


def make_row(previous: str, seq: int, record: Record, key: bytes) -> Row:
    """The row that stores ``record`` (already stamped with its time) as entry ``seq`` after hash ``previous``."""
    kind, body = encode(record)
    txs = transactions_in(record)
    game, tx = game_of(record), (txs[0].id if txs else None)
    return Row(seq, game, tx, record.time, kind, body, keyed_hash(key, previous, seq, game, tx, record.time, kind, body))


def make_v2_row(previous: str, seq: int, record: Record) -> Row:
    """A row of the unkeyed chain of schema 2 (only a v1 ledger being moved is written this way)."""
    kind, body = encode(record)
    txs = transactions_in(record)
    game, tx = game_of(record), (txs[0].id if txs else None)
    return Row(seq, game, tx, record.time, kind, body, chain_hash(previous, seq, game, tx, record.time, kind, body))


_scan = json.scanner.make_scanner(json.JSONDecoder())  # the C scanner: one call, no wrapper; a body is canonical


def _parsed(body: str):
    """``body``'s JSON value, read by the C scanner straight (a canonical body has no space around it); None when
    it is not one whole JSON value (:func:`store.codec.decode` then says why)."""
    try:
        value, end = _scan(body, 0)
    except (StopIteration, ValueError):
        return None
    return value if end == len(body) else None


def decode_row(row: Row) -> Record:
    if row.kind == "tx" and type(row.time) is float:  # most rows: straight to the checked fast paths
        record = plain_transaction(row.body, row.time) or fast_transaction(_parsed(row.body), row.time)
        if record is not None:
            return record
    return decode(row.kind, row.body, seq=row.seq, time=row.time)


Progress = Callable[[int], None]


# -- questions asked of the records -----------------------------------------------------------


def game_rows(records: Iterable[Record], *, editions: Mapping[str, Edition] | None = None) -> list[GameRow]:
    """Every game the records start, oldest first: its start as the fold first held it, its transaction count as
    the fold last held it."""
    states = game_states(records, editions=editions if editions is not None else packaged_editions())
    return [GameRow(gid, first.settings, first.started, last.transactions)
            for gid, (first, last) in sorted(states.items())]


def stretches(starts: Iterable[tuple[int, int]], last_seq: int) -> list[tuple[int, int, int]]:
    """(game, first entry, entry after the last) for each stretch of a journal of ``last_seq`` entries that a game
    was current in, from ``starts``: the ``(seq, game)`` of each entry that starts or restores a game, in order."""
    starts = list(starts)
    ends = [seq for seq, _ in starts[1:]] + [last_seq + 1]
    return [(game, seq, end) for (seq, game), end in zip(starts, ends)]


def names_of(records: Iterable[Record]) -> dict[int, str]:
    """Every card ever enrolled, with its latest name."""
    names: dict[int, str] = {}
    for record in records:
        if isinstance(record, Enrolment):
            names[record.card.id] = record.card.name
        elif isinstance(record, Rename) and record.card_id in names:
            names[record.card_id] = record.name
    return names


def transactions_of(records: Iterable[Record], game_id: int) -> list[Transaction]:
    """The transactions of game ``game_id``, in order."""
    return [tx for record in records for tx in transactions_in(record) if tx.game == game_id]


def entry_of_transaction(query: Callable[[str, tuple], list[tuple]], last: int, tx_id: int) -> int | None:
    """The entry number of the row carrying transaction ``tx_id`` (or the last before it), by bisection over
    entries 1 .. ``last``: transaction numbers only grow with the entry numbers. ``query(sql, args)``: the rows."""
    low, high, best = 1, last, None
    while low <= high:
        mid = (low + high) // 2
        found = query("SELECT seq, tx FROM journal WHERE seq >= ? AND seq <= ? AND tx IS NOT NULL ORDER BY seq "
                      "LIMIT 1", (mid, high))
        if not found:
            high = mid - 1
        elif found[0][1] <= tx_id:
            best, low = found[0][0], found[0][0] + 1
        else:
            high = mid - 1
    return best
