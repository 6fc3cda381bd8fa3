"""What both stores share: a journal row, building it, and verifying rows (chain, gaps, tail, content).

:class:`Row` is a record as stored: its ``seq``, the columns ``game`` and
``tx`` (the first transaction it carries), the wall-clock ``time``, its
``kind``, the body text and the chain ``hash``: HMAC-SHA256 under the
ledger's key over the row before it and the row's own fields, in a fixed
byte layout (:func:`store.codec.keyed_hash`). :func:`verify_rows` checks a
journal from its rows in one pass, recomputing every hash from the text
exactly as stored, then hands the records it could read to the pure content
audit. Rows from before a :class:`~banker.records.ChainStart` (a ledger of an
earlier release) are checked by their own, unkeyed chain, and said to be.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple

from banker.audit import Audit, Problem
from banker.audit_records import audit_records
from banker.errors import CorruptLedger
from banker.records import (
    ChainStart,
    Enrolment,
    GameSettings,
    NewGame,
    Record,
    Rename,
    Transaction,
    game_of,
    transactions_in,
)

from .codec import V2_SCHEME, chain_hash, decode, encode, keyed_hash
from banker.deeds import Edition

from .editions import all_editions, editions_for


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


def decode_row(row: Row) -> Record:
    return decode(row.kind, row.body, seq=row.seq, time=row.time)


Progress = Callable[[int], None]


def verify_rows(rows: Iterable[Row], *, key: bytes | None, chain_start: int | None = None,
                anchor: tuple[int, str] | None = None, earlier: Iterable[Problem] = (),
                progress: Progress | None = None, editions: Mapping[str, Edition] | None = None) -> Audit:
    """Audit a journal from its rows, in ``seq`` order, in one pass and constant memory but the audit's own.

    ``key``: the ledger's key (None: not on this machine, so the keyed chain
    can't be checked, which is a problem); ``chain_start``: the entry number
    of the :class:`ChainStart` row, if the ledger came from an earlier release
    (rows before it are checked by the unkeyed chain); ``anchor``: the
    ``(seq, hash)`` anchored outside the file, which must still be there;
    ``earlier``: problems found before (a migrated v1 ledger's old chain);
    ``progress(rows done)`` is called every few thousand rows.
    """
    problems: list[Problem] = list(earlier)
    if key is None:
        problems.append(Problem(None, "the ledger's key is not on this machine: its keyed chain can't be checked "
                                      "(copy <ledger id>.key into the keys folder, see docs/security.md)"))
    checked = _Checked()
    records = _readable(rows, problems, checked, key, chain_start, anchor, progress)
    content = audit_records(records, editions=editions if editions is not None else all_editions())
    if anchor is not None:
        seq, digest = anchor
        if seq < 0:
            problems.append(Problem(None, "the anchor of the journal's head (kept beside its key) is damaged"))
        elif checked.last_seq < seq:
            problems.append(Problem(None, f"the journal's entries after {checked.last_seq} are gone: it held "
                                          f"{seq} at its last anchor (a lost write-ahead log, or a deleted tail)"))
        elif checked.at_anchor != digest:
            problems.append(Problem(None, f"journal entry {seq} differs from the one anchored outside the file"))
    if chain_start is not None and checked.chain_rows is None:
        problems.append(Problem(None, "the record where the keyed chain starts is missing"))
    return Audit(problems + content.problems, content.games, content.transactions)


class _Checked:
    """What the chain walk learnt: the last entry number, the hash at the anchor, the old chain's length."""

    last_seq = 0
    at_anchor: str | None = None
    chain_rows: int | None = None
    unkeyed = 0


def _readable(rows: Iterable[Row], problems: list[Problem], checked: _Checked, key: bytes | None,
              chain_start: int | None, anchor: tuple[int, str] | None,
              progress: Progress | None) -> Iterator[tuple[int, Record]]:
    """Walk the chain over ``rows``, noting problems; yield the records that could be read."""
    previous, expected = "", 1
    anchor_seq = anchor[0] if anchor is not None else None
    for count, row in enumerate(rows, start=1):
        if progress is not None and count % 4096 == 0:
            progress(count)
        if row.seq != expected:
            problems.append(Problem(None, f"journal entries {expected}-{row.seq - 1} are missing (deleted)"))
        expected = row.seq + 1
        keyed = chain_start is None or row.seq >= chain_start
        if keyed:
            if key is not None and keyed_hash(key, previous, row.seq, row.game, row.tx, row.time, row.kind,
                                              row.body) != row.hash:
                problems.append(_row_problem(row, "edited: its hash does not match its contents, the row "
                                                  "before it and the ledger's key"))
        else:
            checked.unkeyed += 1
            if chain_hash(previous, row.seq, row.game, row.tx, row.time, row.kind, row.body) != row.hash:
                problems.append(_row_problem(row, "edited: its hash does not match its contents and the row "
                                                  "before it"))
        start_prev = previous
        previous = row.hash
        checked.last_seq = row.seq
        if row.seq == anchor_seq:
            checked.at_anchor = row.hash
        try:
            record = decode_row(row)
        except CorruptLedger as exc:
            problems.append(_row_problem(row, f"unreadable ({exc})"))
            continue
        if isinstance(record, ChainStart):
            if row.seq != chain_start:
                problems.append(_row_problem(row, "starts the keyed chain a second time"))
            else:
                checked.chain_rows = record.rows
                if record.previous != start_prev or record.rows != checked.unkeyed or record.scheme != V2_SCHEME:
                    problems.append(_row_problem(row, "does not bind the rows of the earlier release as they "
                                                      "are: they were edited, added or deleted"))
        txs = transactions_in(record)
        if (row.game, row.tx) != (game_of(record), txs[0].id if txs else None):
            problems.append(_row_problem(row, "edited: its game or transaction column differs from its contents"))
        yield row.seq, record
    if progress is not None:
        progress(checked.last_seq)


def _row_problem(row: Row, message: str) -> Problem:
    if row.tx is not None:
        return Problem(row.tx, message)
    return Problem(None, f"journal entry {row.seq} ({row.kind}) {message}")


# -- questions asked of the records -----------------------------------------------------------


def game_rows(records: Iterable[Record]) -> list[GameRow]:
    """Every game the records start, oldest first, with how many transactions each has."""
    started: dict[int, NewGame] = {}
    counts: dict[int, int] = {}
    for record in records:
        if isinstance(record, NewGame):
            started.setdefault(record.game, record)
        for tx in transactions_in(record):
            counts[tx.game] = counts.get(tx.game, 0) + 1
    return [GameRow(g.game, g.settings, g.time, counts.get(g.game, 0)) for g in sorted(started.values(),
                                                                                       key=lambda g: g.game)]


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
