"""What both stores share: a journal row, building it, and verifying rows (chain, gaps, tail, content).

:class:`Row` is a record as stored: its ``seq``, the index columns ``game``
and ``tx`` (the first transaction it carries), the wall-clock ``time``, its
``kind``, the body text and the chain ``hash``. :func:`verify_rows` checks a
journal from its rows alone, recomputing every hash from the text exactly as
stored, then hands the records it could read to the pure content audit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, NamedTuple

from banker.audit import Audit, Problem
from banker.audit_records import audit_records
from banker.errors import CorruptLedger
from banker.records import (
    Enrolment,
    GameSettings,
    NewGame,
    Record,
    Rename,
    Transaction,
    game_of,
    transactions_in,
)

from .codec import chain_hash, decode, encode
from .editions import editions_for


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


def make_row(previous: str, seq: int, record: Record) -> Row:
    """The row that stores ``record`` (already stamped with its time) as entry ``seq`` after hash ``previous``."""
    kind, body = encode(record)
    txs = transactions_in(record)
    game, tx = game_of(record), (txs[0].id if txs else None)
    return Row(seq, game, tx, record.time, kind, body, chain_hash(previous, seq, game, tx, record.time, kind, body))


def decode_row(row: Row) -> Record:
    return decode(row.kind, row.body, seq=row.seq, time=row.time)


def verify_rows(rows: Iterable[Row], *, head: str, earlier: Iterable[Problem] = ()) -> Audit:
    """Audit a journal from its rows, in ``seq`` order, and the ``head`` recorded beside them.

    ``earlier``: problems found before (a migrated ledger's old chain),
    reported first.
    """
    problems: list[Problem] = list(earlier)
    records: list[tuple[int, Record]] = []
    previous, expected = "", 1
    for row in rows:
        if row.seq != expected:
            problems.append(Problem(None, f"journal entries {expected}-{row.seq - 1} are missing (deleted)"))
        expected = row.seq + 1
        if chain_hash(previous, row.seq, row.game, row.tx, row.time, row.kind, row.body) != row.hash:
            problems.append(_row_problem(row, "edited: its hash does not match its contents and the row before it"))
        previous = row.hash
        try:
            record = decode_row(row)
        except CorruptLedger as exc:
            problems.append(_row_problem(row, f"unreadable ({exc})"))
            continue
        txs = transactions_in(record)
        if (row.game, row.tx) != (game_of(record), txs[0].id if txs else None):
            problems.append(_row_problem(row, "edited: its game or transaction column differs from its contents"))
        records.append((row.seq, record))
    if previous != head:
        problems.append(Problem(None, "the journal's last entries were deleted or its head was edited"))
    named = {r.settings.edition for _, r in records if isinstance(r, NewGame)}
    content = audit_records(records, editions=editions_for(named))
    return Audit(problems + content.problems, content.games, content.transactions)


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
