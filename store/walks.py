"""Verify's two walks over a journal's rows: the keyed chain (:class:`ChainWalk`: hashes, gaps, the anchor) and
the records (:class:`ContentWalk`: decode each row, check its columns, hand it to the pure content audit).

:func:`verify_rows` runs both in one pass, recomputing every hash from the text exactly as stored; rows from
before a :class:`~banker.journal.records.ChainStart` (a ledger of an earlier release) are checked by their own, unkeyed
chain, and said to be. :mod:`store.verify_parts` runs them on every core for a long journal.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable, Iterator, Mapping

from banker.audit.findings import Audit, Problem
from banker.audit.checks import audit_records
from banker.rules.deeds import Edition
from banker.errors import CorruptLedger
from cards import editions as packaged_editions
from banker.journal.records import ChainStart, JournalAccepted, Record, Transaction, game_of, transactions_in

from .codec import _HEADER, V2_SCHEME, _hmac_pads, chain_hash, keyed_hash
from .hot_rows import collector_paused, fast_transaction, plain_transaction
from .journal import Progress, Row, _scan, decode_row


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
    chain = ChainWalk(key, chain_start, anchor)
    content = ContentWalk(progress)

    def both() -> Iterator[Row]:
        for row in rows:
            chain.step(row)
            yield row

    with collector_paused():
        audit = audit_records(content.records(both()), editions=editions if editions is not None else packaged_editions())
    return content.finish(audit, chain.problems, chain.checked, earlier=earlier)


class _Checked:
    """What the chain walk learnt: the last entry number, the hash at the anchor, the old chain's end."""

    def __init__(self) -> None:
        self.last_seq = 0
        self.at_anchor: str | None = None
        self.unkeyed = 0
        self.before_start: str | None = None
        self.key_missing = False
        self.anchor: tuple[int, str] | None = None
        self.chain_start: int | None = None
        #: (entry, rows before it the key can't vouch for) of each KeyAdopted record that verifies.
        self.adopted: list[tuple[int, int]] = []


class ChainWalk:
    """The chain's half of verify: each row's hash (keyed, or the old unkeyed chain before ``chain_start``),
    gaps in the entry numbers, and what the anchor needs. Needs no decoding: it can run in another process."""

    def __init__(self, key: bytes | None, chain_start: int | None, anchor: tuple[int, str] | None) -> None:
        self.key, self.chain_start, self.anchor = key, chain_start, anchor
        self._problems: list[Problem] = []
        self._pending: list[Problem] = []  # rows the key doesn't verify, unless a KeyAdopted record follows
        self.checked = _Checked()
        self.checked.key_missing, self.checked.anchor, self.checked.chain_start = key is None, anchor, chain_start
        self._previous, self._expected = "", 1
        self._anchor_seq = anchor[0] if anchor is not None else None

    def step(self, row: Row) -> None:
        """Check ``row`` as the journal's next entry: its number, and its hash on the chain it is on."""
        if not well_typed(row):
            self._ill_typed(row)
            return
        seq = row.seq
        if not _hexadecimal(self._previous):
            self._previous = ""  # the row before held no hash (named there): this one can't chain to it
        if seq != self._expected:
            self._problems.append(Problem(None, f"journal entries {self._expected}-{seq - 1} are missing (deleted)"))
        self._expected = seq + 1
        previous = self._previous
        if self.chain_start is None or seq >= self.chain_start:
            self._keyed(row, previous)
        else:
            self.checked.unkeyed += 1
            if chain_hash(previous, seq, row.game, row.tx, row.time, row.kind, row.body) != row.hash:
                self._problems.append(_row_problem(row, "edited: its hash does not match its contents and the "
                                                       "row before it"))
        self._previous = row.hash
        self.checked.last_seq = seq
        if seq == self._anchor_seq:
            self.checked.at_anchor = row.hash

    def _ill_typed(self, row: Row) -> None:
        """A row whose columns are not of their kinds: named, and the walk goes on after it."""
        number = row.seq if type(row.seq) is int else self._expected
        self._problems.append(Problem(None, f"journal entry {number} {WRONG_TYPE}"))
        self._expected = number + 1
        self._previous = row.hash if _hexadecimal(row.hash) else ""

    def _keyed(self, row: Row, previous: str) -> None:
        """Check ``row``'s hash on the keyed chain (after ``previous``); an adoption starts a new key's stretch."""
        if row.seq == self.chain_start:
            self.checked.before_start = previous
        if self.key is not None and keyed_hash(self.key, previous, row.seq, row.game, row.tx, row.time, row.kind,
                                               row.body) != row.hash:
            self._pending.append(_row_problem(row, "edited: its hash does not match its contents, the row "
                                                   "before it and the ledger's key"))
        elif self.key is not None and row.kind == "adopt":
            self._adopted(row, previous)

    def steps(self, rows: Iterable[tuple]) -> None:
        """:meth:`step` over each row (a :class:`Row` or its plain tuple), the common row's HMAC written out: the
        next entry, on the keyed chain, nothing else to note. Any other row goes through :meth:`step`."""
        key, start, anchor_seq = self.key, self.chain_start, self._anchor_seq
        if key is None:
            for r in rows:
                self.step(Row(*r))
            return
        inner, outer = _hmac_pads(key)
        header, inner_copy, outer_copy, fromhex = _HEADER, inner.copy, outer.copy, bytes.fromhex
        expected, previous = self._expected, self._previous
        for r in rows:
            seq, game, tx, time, kind, body, digest = r
            if (seq != expected or type(time) is not float or kind == "adopt" or seq == anchor_seq
                    or (start is not None and seq <= start)):
                self._expected, self._previous = expected, previous
                self.step(Row(*r))
                expected, previous = self._expected, self._previous
                continue
            try:
                kind_bytes, body_bytes = kind.encode(), body.encode()
                hashed = inner_copy()
                hashed.update(b"".join((fromhex(previous), header(seq, -1 if game is None else game,
                                                                   -1 if tx is None else tx, time, len(kind_bytes),
                                                                   len(body_bytes)), kind_bytes, body_bytes)))
            except (AttributeError, TypeError, ValueError, struct.error):  # a column of another kind: named there
                self._expected, self._previous = expected, previous
                self.step(Row(*r))
                expected, previous = self._expected, self._previous
                continue
            keyed = outer_copy()
            keyed.update(hashed.digest())
            if keyed.hexdigest() != digest:
                self._pending.append(_row_problem(Row(*r), "edited: its hash does not match its contents, the row "
                                                           "before it and the ledger's key"))
            expected, previous = seq + 1, digest
        self._expected, self._previous = expected, previous
        self.checked.last_seq = expected - 1 if expected > 1 else self.checked.last_seq

    def _adopted(self, row: Row, previous: str) -> None:
        """A KeyAdopted record the key verifies: the key vouches from here; the rows before it are checked by
        their contents and order only (their hashes were made under a key this machine doesn't hold)."""
        try:
            body = json.loads(row.body)
            bound = body["from_seq"] == row.seq and body["previous_head"] == previous
        except (ValueError, KeyError, TypeError):
            bound = False
        if not bound:
            self._problems.append(_row_problem(row, "does not name the entry it adopts the journal from"))
            return
        self._pending.clear()
        self.checked.adopted.append((row.seq, row.seq - 1))

    @property
    def problems(self) -> list[Problem]:
        return self._problems + self._pending


class ContentWalk:
    """The records' half of verify: decode each row, check its columns against it, hand it to the audit."""

    def __init__(self, progress: Progress | None = None) -> None:
        self.progress = progress
        self.problems: list[Problem] = []
        self.starts: list[tuple[Row, ChainStart]] = []
        self.accepted: list[tuple[int, JournalAccepted]] = []
        self.count = 0

    def step(self, row: Row) -> Record | None:
        """The row's record for the audit, or None when it can't be read (noted)."""
        self.count += 1
        if self.progress is not None and self.count % 4096 == 0:
            self.progress(self.count)
        if not well_typed(row):
            return None  # named by the chain's walk
        try:
            record = decode_row(row)
        except CorruptLedger as exc:
            self.problems.append(_row_problem(row, f"unreadable ({exc})"))
            return None
        if type(record) is Transaction:
            if row.game != record.game or row.tx != record.id:
                self.problems.append(_row_problem(row, "edited: its game or transaction column differs from its "
                                                       "contents"))
            return record
        if type(record) is ChainStart:
            self.starts.append((row, record))
        elif type(record) is JournalAccepted:
            self.accepted.append((row.seq, record))
        txs = transactions_in(record)
        if (row.game, row.tx) != (game_of(record), txs[0].id if txs else None):
            self.problems.append(_row_problem(row, "edited: its game or transaction column differs from its "
                                                   "contents"))
        return record

    def records(self, rows: Iterable[Row]) -> Iterator[tuple[int, Record]]:
        """``(seq, record)`` of each row that can be read, in order. The common row (a transaction whose body the
        fast path reads and whose columns match it) is read here, :meth:`step`'s work written out; any other
        row goes through :meth:`step`, which checks and names it as ever."""
        step, scan, fast, plain, progress = self.step, _scan, fast_transaction, plain_transaction, self.progress
        count = self.count
        try:
            for row in rows:
                seq, game, tx, time, kind, body, _hash = row
                if kind == "tx" and type(time) is float and type(body) is str:
                    record = plain(body, time)
                    if record is None:
                        try:
                            value, end = scan(body, 0)
                        except (StopIteration, ValueError):
                            end = -1
                        record = fast(value, time) if end == len(body) else None
                    if record is not None and record.game == game and record.id == tx:
                        count += 1
                        if progress is not None and count % 4096 == 0:
                            progress(count)
                        yield seq, record
                        continue
                self.count = count
                record = step(Row(*row))  # ``rows``: Rows or their plain tuples
                count = self.count
                if record is not None:
                    yield seq, record
        finally:
            self.count = count

    def finish(self, audit: Audit, chain_problems: list[Problem], checked: _Checked, *,
               earlier: Iterable[Problem] = ()) -> Audit:
        """The whole audit: earlier problems, the key, the chain, the rows, the anchor, the chain's start, content."""
        if self.progress is not None:
            self.progress(self.count)
        problems = list(earlier)
        if checked.key_missing:
            problems.append(Problem(None, "the ledger's key is not on this machine: its keyed chain can't be "
                                          "checked (copy <ledger id>.key into the keys folder; where a restore or "
                                          "adoption here was cut short, <ledger id>.key.adopting is there instead: "
                                          "run the same restore, or 'banker key adopt', again; docs/security.md)"))
        problems += chain_problems + self.problems + _anchor_problems(checked) + self._chain_start_problems(checked)
        adopted = [f"entries 1-{rows} were written under a key this machine doesn't hold: the ledger was adopted "
                   f"under a new key at entry {seq}, which vouches from there on; the entries before are checked by "
                   "their contents and order only" for seq, rows in checked.adopted[-1:] if rows]
        return Audit(problems + audit.problems, audit.games, audit.transactions, self._notices(checked) + adopted)

    def _chain_start_problems(self, checked: _Checked) -> list[Problem]:
        """What is wrong with the record where the keyed chain starts (an upgraded ledger's): twice, untrue, gone."""
        problems = []
        for row, start in self.starts:
            if row.seq != checked.chain_start:
                problems.append(_row_problem(row, "starts the keyed chain a second time"))
            elif (start.previous != checked.before_start or start.rows != checked.unkeyed
                  or start.scheme != V2_SCHEME):
                problems.append(_row_problem(row, "does not bind the rows of the earlier release as they are: "
                                                  "they were edited, added or deleted"))
        if checked.chain_start is not None and not any(r.seq == checked.chain_start for r, _ in self.starts):
            problems.append(Problem(None, "the record where the keyed chain starts is missing"))
        return problems

    def _notices(self, checked: _Checked) -> list[str]:
        """What verify says every time: the rows on an earlier release's unkeyed chain, each accepted journal."""
        notices = []
        if checked.chain_start is not None and checked.unkeyed:
            notices.append(f"journal entries 1-{checked.chain_start - 1} rest on the unkeyed chain of an earlier "
                           f"release: entry {checked.chain_start} (the upgrade) binds them into the keyed chain as "
                           "they were then; whoever could write the file before could have rewritten them")
        for seq, acc in self.accepted:
            notices.append(f"journal entry {seq}: the banker accepted the journal as it stood: {acc.reason} "
                           f"(entry {acc.anchored_seq} had been anchored; {acc.found_seq} entries were found)")
        return notices


def _anchor_problems(checked: _Checked) -> list[Problem]:
    """How the journal differs from the head anchored outside the file (none: it holds it, or none is kept)."""
    if checked.anchor is None:
        return []
    seq, digest = checked.anchor
    if seq < 0:
        return [Problem(None, "the anchor of the journal's head (kept beside its key) is damaged")]
    if checked.last_seq < seq:
        return [Problem(None, f"the journal's entries after {checked.last_seq} are gone: it held {seq} at its last "
                              "anchor (a lost write-ahead log, or a deleted tail)")]
    if checked.at_anchor != digest:
        return [Problem(None, f"journal entry {seq} differs from the one anchored outside the file")]
    return []


def _hexadecimal(text: object) -> bool:
    try:
        bytes.fromhex(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


def well_typed(row: Row) -> bool:
    """The row's columns hold values of the kinds the unit writes (an integer entry number, game and transaction
    or none, a real time, text kind and body, a hexadecimal hash): one edited outside the unit may not."""
    seq, game, tx, time, kind, body, digest = row
    return (_hexadecimal(digest) and type(seq) is int and (game is None or type(game) is int) and (tx is None or type(tx) is int)
            and type(time) is float and type(kind) is str and type(body) is str)


WRONG_TYPE = "edited: a column holds a value of another kind than the unit writes"


def _row_problem(row: Row, message: str) -> Problem:
    if row.tx is not None:
        return Problem(row.tx, message)
    return Problem(None, f"journal entry {row.seq} ({row.kind}) {message}")
