"""Audit of a journal's records: postings, cards, undo links, money conserved, deeds and checkpoints replay.

Pure, like :mod:`banker.audit` (whose :class:`Audit` and :class:`Problem` it
returns), but over decoded records rather than rows: the store checks the
hash chain and the missing rows, and hands the records it could read here as
``(seq, record)`` pairs, in order. Problems name the transaction (``#N``)
where there is one, else the journal entry (its ``seq``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .audit import Audit, GameTotals, Problem
from .deeds import Edition
from .errors import Refused
from .game import Game, apply, replay
from .money import format_amount
from .records import (BANK, Enrolment, GameRestored, GameSettings, NewGame, Record, Transaction, kind_of,
                      transactions_in)
from .rules.estate import Estate
from .rules.estate import apply as apply_changes


@dataclass
class _GameSeen:
    """What the audit has folded of one game on its own: its settings, estate, undos and last transaction."""

    settings: GameSettings
    estate: Estate | None  # None once its deeds failed to replay (reported once)
    totals: GameTotals
    undone: set[int] = field(default_factory=set)
    bankruptcies: set[int] = field(default_factory=set)
    last: Transaction | None = None
    transactions: int = 0


def audit_records(entries: Iterable[tuple[int, Record]], *, editions: Mapping[str, Edition]) -> Audit:
    """Check the records (``(seq, record)`` in journal order) of a ledger against each other."""
    problems: list[Problem] = []
    games: dict[int, _GameSeen] = {}
    stray: dict[int, GameTotals] = {}  # transactions of games that never started
    known: set[int] = set()
    seen: dict[int, int] = {}  # tx id -> game
    reversed_by: dict[int, int] = {}
    expected_tx, count = 1, 0
    fold: Game | None = replay((), editions=editions)
    for seq, record in entries:
        found = len(problems)
        plain = type(record) is Transaction  # most records: skip the other kinds' checks
        if not plain and isinstance(record, Enrolment):
            known.add(record.card.id)
        if not plain and isinstance(record, NewGame):
            problems += _new_game(seq, record, games, editions)
        for tx in ((record,) if plain else transactions_in(record)):
            count += 1
            if tx.id is None or tx.id < expected_tx:
                problems.append(Problem(tx.id, f"is out of order (after #{expected_tx - 1})"))
            else:
                if tx.id != expected_tx:
                    problems.append(Problem(tx.id, f"transactions #{expected_tx}-#{tx.id - 1} are missing (deleted)"))
                expected_tx = tx.id + 1
            seen_game = games.get(tx.game)
            if seen_game is None:
                problems.append(Problem(tx.id, f"belongs to game {tx.game}, which does not exist"))
                totals = stray.setdefault(tx.game, GameTotals())
            else:
                totals = seen_game.totals
            _postings(tx, known, totals, seen_game is None or seen_game.settings.allow_negative, problems)
            if tx.reverses is not None:
                if seen.get(tx.reverses) != tx.game:
                    problems.append(Problem(tx.id, f"undoes #{tx.reverses}, which is not an earlier transaction "
                                                   f"of game {tx.game}"))
                elif tx.reverses in reversed_by:
                    problems.append(Problem(tx.id, f"undoes #{tx.reverses} again (already undone by "
                                                   f"#{reversed_by[tx.reverses]})"))
                reversed_by[tx.reverses] = tx.id
            if tx.id is not None:
                seen[tx.id] = tx.game
            if seen_game is not None:
                _played(tx, seen_game, problems)
        if not plain and isinstance(record, GameRestored):
            problems += _restored(seq, record, games, editions)
        if fold is not None:
            try:
                fold = apply(fold, record)
            except Refused as exc:
                if len(problems) == found:  # say why only if nothing above did
                    problems.append(_entry_problem(seq, record, f"does not replay ({exc}); "
                                                                "the journal cannot be folded from here on"))
                fold = None
    for gid, totals in [*((g, s.totals) for g, s in games.items()), *stray.items()]:
        if totals.held != totals.issued - totals.returned:
            problems.append(Problem(None, f"game {gid}: players hold {format_amount(totals.held)}, "
                                          f"the bank issued {format_amount(totals.issued - totals.returned)}"))
    return Audit(problems, {**{g: s.totals for g, s in games.items()}, **stray}, count)


def _entry_problem(seq: int, record: Record, message: str) -> Problem:
    txs = transactions_in(record)
    if txs:
        return Problem(txs[0].id, message)
    return Problem(None, f"journal entry {seq} ({kind_of(record)}) {message}")


def _new_game(seq: int, rec: NewGame, games: dict[int, _GameSeen], editions: Mapping[str, Edition]) -> list[Problem]:
    problems = []
    if rec.game in games:
        problems.append(Problem(None, f"journal entry {seq} (new-game) starts game {rec.game} again"))
    edition = editions.get(rec.settings.edition)
    if edition is None:
        problems.append(Problem(None, f"game {rec.game}: this banker has no edition {rec.settings.edition!r}"))
    games[rec.game] = _GameSeen(rec.settings, None if edition is None else Estate.new(edition), GameTotals())
    return problems


def _postings(tx: Transaction, known: set[int], totals: GameTotals, negative_allowed: bool,
              problems: list[Problem]) -> None:
    """Count ``tx``'s money into its game's totals; what is wrong with its postings goes into ``problems``."""
    for p in tx.postings:
        amount = p.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            problems.append(Problem(tx.id, f"posting of {amount!r} is not a positive whole amount"))
            continue
        for party in (p.payer, p.payee):
            if party is not BANK and party not in known:
                problems.append(Problem(tx.id, f"names card {party}, which was never enrolled"))
        if p.payer is BANK:
            totals.issued += amount
        else:
            totals.players[p.payer] = totals.players.get(p.payer, 0) - amount
        if p.payee is BANK:
            totals.returned += amount
        else:
            totals.players[p.payee] = totals.players.get(p.payee, 0) + amount
    if not negative_allowed:
        for p in tx.postings:
            if p.payer is not BANK and totals.players.get(p.payer, 0) < 0:
                problems.append(Problem(tx.id, f"takes card {p.payer} below zero in a game without negative balances"))


def _played(tx: Transaction, seen: _GameSeen, problems: list[Problem]) -> None:
    """Fold ``tx`` into its game's own estate, undos and count (a problem goes into ``problems``)."""
    if seen.estate is not None and tx.changes:
        try:
            seen.estate = apply_changes(seen.estate, tx.changes)
        except Refused as exc:
            problems.append(Problem(None, f"game {tx.game}: the deeds do not replay ({exc})"))
            seen.estate = None
    if tx.reverses is not None:
        seen.undone.add(tx.reverses)
    if tx.kind == "bankruptcy":
        seen.bankruptcies.add(tx.id)
    seen.last = tx
    seen.transactions += 1


def _restored(seq: int, rec: GameRestored, games: dict[int, _GameSeen],
              editions: Mapping[str, Edition]) -> list[Problem]:
    """A restore must bring the game back as its own journal left it."""
    cp = rec.checkpoint
    seen = games.get(cp.game)
    where = f"journal entry {seq} (restore)"
    if seen is None:
        return [Problem(None, f"{where} restores game {cp.game}, which does not exist")]
    differs = []
    if cp.settings != seen.settings:
        differs.append("settings")
    if {c: b for c, b in cp.balances if b} != {c: b for c, b in seen.totals.players.items() if b}:
        differs.append("balances")
    edition = editions.get(cp.settings.edition)
    if seen.estate is not None and edition is not None:
        try:
            if apply_changes(Estate.new(edition), cp.estate) != seen.estate:
                differs.append("deeds")
        except Refused:
            differs.append("deeds")
    if set(cp.undone) != seen.undone or set(cp.bankruptcies) != seen.bankruptcies:
        differs.append("undos")
    if _id(cp.last) != _id(seen.last) or cp.transactions != seen.transactions:
        differs.append("last transaction")
    if differs:
        return [Problem(None, f"{where} restores game {cp.game} with {', '.join(differs)} "
                              "that differ from its journal")]
    return []


def _id(tx: Transaction | None) -> int | None:
    return None if tx is None else tx.id
