"""Audit of a journal: the hash chain, missing or edited rows, postings, undo links, money conserved.

Pure: it reads rows the ledger hands it and returns :class:`Problem` records
(errors as data), so ``banker ledger verify`` can name every offending entry.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from .records import BANK
from .money import format_amount


@dataclass(frozen=True)
class Problem:
    """Something wrong with transaction ``tx`` (None: with the journal as a whole)."""

    tx: int | None
    message: str

    def __str__(self) -> str:
        return f"#{self.tx}: {self.message}" if self.tx is not None else self.message


@dataclass
class GameTotals:
    """Money in one game: what the bank issued and took back, what the players hold."""

    issued: int = 0
    returned: int = 0
    players: dict[int, int] = field(default_factory=dict)

    @property
    def held(self) -> int:
        return sum(self.players.values())


@dataclass
class Audit:
    problems: list[Problem]
    games: dict[int, GameTotals]
    transactions: int

    @property
    def ok(self) -> bool:
        return not self.problems


def audit(
    rows: Iterable[tuple],
    *,
    head: str,
    cards: Iterable[int],
    negative_allowed: Mapping[int, bool],
    chain_hash: Callable[[str, tuple], str],
) -> Audit:
    """Check journal ``rows`` (id, game, time, kind, memo, reverses, postings, changes, hash), in id order."""
    problems: list[Problem] = []
    known = set(cards)
    games: dict[int, GameTotals] = {}
    seen: dict[int, int] = {}  # tx id -> game
    reversed_by: dict[int, int] = {}
    previous, expected_id, count = "", 1, 0
    for row in rows:
        count += 1
        *fields, stored = row
        tid, game, _time, kind, _memo, reverses, postings_json, _changes = fields
        if tid != expected_id:
            problems.append(Problem(tid, f"transactions #{expected_id}-#{tid - 1} are missing (deleted)"))
        expected_id = tid + 1
        computed = chain_hash(previous, tuple(fields))
        if computed != stored:
            problems.append(Problem(tid, "edited: its hash does not match its contents and the row before it"))
        previous = stored
        if game not in negative_allowed:
            problems.append(Problem(tid, f"belongs to game {game}, which does not exist"))
        totals = games.setdefault(game, GameTotals())
        problems += _check_postings(tid, postings_json, known, totals, negative_allowed.get(game, True))
        if reverses is not None:
            if seen.get(reverses) != game:
                problems.append(Problem(tid, f"undoes #{reverses}, which is not an earlier transaction of game {game}"))
            elif reverses in reversed_by:
                problems.append(Problem(tid, f"undoes #{reverses} again (already undone by #{reversed_by[reverses]})"))
            reversed_by[reverses] = tid
        seen[tid] = game
    if previous != head:
        problems.append(Problem(None, "the journal's last entries were deleted or its head was edited"))
    for gid, totals in games.items():
        if totals.held != totals.issued - totals.returned:
            problems.append(Problem(None, f"game {gid}: players hold {format_amount(totals.held)}, "
                                          f"the bank issued {format_amount(totals.issued - totals.returned)}"))
    return Audit(problems, games, count)


def _check_postings(tid: int, text: str, known: set[int], totals: GameTotals, negative_allowed: bool) -> list[Problem]:
    try:
        postings = json.loads(text)
        parsed = [(payer, payee, amount) for payer, payee, amount, _kind in postings]
    except (ValueError, TypeError):
        return [Problem(tid, "its postings are unreadable")]
    problems = []
    for payer, payee, amount in parsed:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            problems.append(Problem(tid, f"posting of {amount!r} is not a positive whole amount"))
            continue
        for party in (payer, payee):
            if party is not BANK and party not in known:
                problems.append(Problem(tid, f"names card {party}, which was never enrolled"))
        if payer is BANK:
            totals.issued += amount
        else:
            totals.players[payer] = totals.players.get(payer, 0) - amount
        if payee is BANK:
            totals.returned += amount
        else:
            totals.players[payee] = totals.players.get(payee, 0) + amount
    if not negative_allowed:
        for payer, _payee, _amount in parsed:
            if payer is not BANK and totals.players.get(payer, 0) < 0:
                problems.append(Problem(tid, f"takes card {payer} below zero in a game without negative balances"))
    return problems
