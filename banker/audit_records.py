"""Audit of a journal's records: postings, cards, undo links, money conserved, restores, and that they fold.

Pure, like :mod:`banker.audit` (whose :class:`Audit` and :class:`Problem` it
returns), but over decoded records rather than rows: the store checks the
hash chain and the missing rows, and hands the records it could read here as
``(seq, record)`` pairs, in order. Problems name the transaction (``#N``)
where there is one, else the journal entry (its ``seq``).

The records are folded once, by :func:`banker.game.apply`, and the audit
reads that fold: the game's cards, each game as it was when another became
current, each game's balances. A record the fold refuses is named (the
first one, if nothing else said what is wrong with it) and the records
after it are folded without it; a record that brings a game back must bring
it back as the fold last held it; the players of each game must hold what
the bank's postings issued less what they took back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .audit import Audit, GameTotals, Problem
from .deeds import Edition
from .errors import Refused
from .game import Game, apply, replay
from .money import format_amount
from .records import BANK, Enrolment, GameRestored, NewGame, Record, Transaction, kind_of, moved, transactions_in
from .rules.estate import EstateConflict


def audit_records(entries: Iterable[tuple[int, Record]], *, editions: Mapping[str, Edition]) -> Audit:
    """Check the records (``(seq, record)`` in journal order) of a ledger against each other and the fold."""
    problems: list[Problem] = []
    started: set[int] = set()  # games a new-game record starts
    totals: dict[int, GameTotals] = {}  # the bank's money in each game, from its postings
    stray: dict[int, GameTotals] = {}  # transactions of games that never started: no fold reaches them
    last: dict[int, Game] = {}  # each game as the fold held it when another game became current
    left_out: dict[int, int] = {}  # each game's transactions the fold refused (the journal holds them all the same)
    check_links = _Links().check
    deeds_failed: set[int] = set()  # games whose deeds the fold could not take (said once each)
    count, refused = 0, False
    game = replay((), editions=editions)
    for seq, record in entries:
        found = len(problems)
        plain = type(record) is Transaction  # most records: skip the other kinds' checks
        if not plain and isinstance(record, NewGame):
            problems += _new_game(seq, record, started, totals, editions)
        if not plain:
            problems += _openings(record, game)
        if not plain and isinstance(record, GameRestored) and record.checkpoint.game not in started:
            problems.append(Problem(None, f"journal entry {seq} (restore) restores game {record.checkpoint.game}, "
                                          "which does not exist"))
        try:
            after, why = apply(game, record), None
        except Refused as exc:
            after, why = None, exc
        names = (game if after is None else after).names
        for tx in ((record,) if plain else transactions_in(record)):
            count += 1
            check_links(tx, problems)
            if tx.game in started:
                _postings(tx, names, totals[tx.game], problems)
            else:
                problems.append(Problem(tx.id, f"belongs to game {tx.game}, which does not exist"))
                _postings(tx, names, stray.setdefault(tx.game, GameTotals()), problems, players=True)
        if after is None:
            problems += _refused(record, why, game, deeds_failed)
            for tx in transactions_in(record):
                left_out[tx.game] = left_out.get(tx.game, 0) + 1
            if len(problems) == found and not refused:  # say why only if nothing above did, and once
                problems.append(_entry_problem(seq, record, f"does not replay ({why}); the records after it are "
                                                            "folded without it"))
            refused = True
            continue
        if after.id != game.id:
            if game.id:
                last[game.id] = game
            problems += _brought_back(seq, record, after, last, left_out)
        game = after
    if game.id:
        last[game.id] = game
    for gid, money in totals.items():
        if gid in last:
            money.players = dict(last[gid].balances)
    problems += _unconserved({**totals, **stray}, left_out)
    return Audit(problems, {**totals, **stray}, count)


class _Links:
    """The transactions' numbers, in order with none missing, and their undo links, each to an earlier transaction
    of the same game and undone once."""

    def __init__(self) -> None:
        self.expected = 1
        self.seen: dict[int, int] = {}  # tx id -> game
        self.reversed_by: dict[int, int] = {}

    def check(self, tx: Transaction, problems: list[Problem]) -> None:
        expected = self.expected
        if tx.id is None or tx.id < expected:
            problems.append(Problem(tx.id, f"is out of order (after #{expected - 1})"))
        else:
            if tx.id != expected:
                problems.append(Problem(tx.id, f"transactions #{expected}-#{tx.id - 1} are missing (deleted)"))
            self.expected = tx.id + 1
        if tx.reverses is not None:
            if self.seen.get(tx.reverses) != tx.game:
                problems.append(Problem(tx.id, f"undoes #{tx.reverses}, which is not an earlier transaction "
                                               f"of game {tx.game}"))
            elif tx.reverses in self.reversed_by:
                problems.append(Problem(tx.id, f"undoes #{tx.reverses} again (already undone by "
                                               f"#{self.reversed_by[tx.reverses]})"))
            self.reversed_by[tx.reverses] = tx.id
        if tx.id is not None:
            self.seen[tx.id] = tx.game


def _unconserved(games: Mapping[int, GameTotals], left_out: Mapping[int, int]) -> list[Problem]:
    """Games whose players do not hold what the bank issued less what it took back (a game with a refused record
    is left out: the refusal is named already)."""
    return [Problem(None, f"game {gid}: players hold {format_amount(money.held)}, "
                          f"the bank issued {format_amount(money.issued - money.returned)}")
            for gid, money in games.items() if money.held != money.issued - money.returned and not left_out.get(gid)]


def _entry_problem(seq: int, record: Record, message: str) -> Problem:
    txs = transactions_in(record)
    if txs:
        return Problem(txs[0].id, message)
    return Problem(None, f"journal entry {seq} ({kind_of(record)}) {message}")


def _new_game(seq: int, rec: NewGame, started: set[int], totals: dict[int, GameTotals],
              editions: Mapping[str, Edition]) -> list[Problem]:
    problems = []
    if rec.game in started:
        problems.append(Problem(None, f"journal entry {seq} (new-game) starts game {rec.game} again"))
    if rec.settings.edition not in editions:
        problems.append(Problem(None, f"game {rec.game}: this banker has no edition {rec.settings.edition!r}"))
    started.add(rec.game)
    totals.setdefault(rec.game, GameTotals())
    return problems


def _openings(record: Record, game: Game) -> list[Problem]:
    """Opening balances (a new game's, an enrolment's) that differ from the game's start balance."""
    if isinstance(record, NewGame):
        start, openings = record.settings.start_balance, record.openings
    elif isinstance(record, Enrolment):
        start, openings = game.settings.start_balance, (record.opening,)
    else:
        return []
    return [Problem(tx.id, f"opens with {format_amount(sum(p.amount for p in tx.postings))}, but the game's start "
                           f"balance is {format_amount(start)}")
            for tx in openings if sum(p.amount for p in tx.postings) != start]


def _postings(tx: Transaction, names: Mapping[int, str], totals: GameTotals, problems: list[Problem], *,
              players: bool = False) -> None:
    """What is wrong with ``tx``'s postings goes into ``problems``; the bank's money into ``totals``, and the
    players' too if ``players`` (a game no fold reaches)."""
    for p in tx.postings:
        amount = p.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            problems.append(Problem(tx.id, f"posting of {amount!r} is not a positive whole amount"))
            continue
        for party in (p.payer, p.payee):
            if party is not BANK and party not in names:
                problems.append(Problem(tx.id, f"names card {party}, which was never enrolled"))
        if p.payer is BANK:
            totals.issued += amount
        elif players:
            totals.players[p.payer] = totals.players.get(p.payer, 0) - amount
        if p.payee is BANK:
            totals.returned += amount
        elif players:
            totals.players[p.payee] = totals.players.get(p.payee, 0) + amount


def _refused(record: Record, why: Refused, game: Game, deeds_failed: set[int]) -> list[Problem]:
    """What a record the fold refused would have done wrong to ``game`` (the game before it): the deeds it could not
    change (once a game), the cards it would take below zero where the game does not allow it."""
    problems = []
    if isinstance(why, EstateConflict) and game.id not in deeds_failed:
        deeds_failed.add(game.id)
        problems.append(Problem(None, f"game {game.id}: the deeds do not replay ({why})"))
    if game.settings.allow_negative:
        return problems
    balances = game.balances
    for tx in transactions_in(record):
        if tx.game == game.id:
            balances = moved(balances, tx.postings)
            problems += [Problem(tx.id, f"takes card {p.payer} below zero in a game without negative balances")
                         for p in tx.postings if p.payer is not BANK and balances.get(p.payer, 0) < 0]
    return problems


def _brought_back(seq: int, record: Record, after: Game, last: Mapping[int, Game],
                  left_out: Mapping[int, int]) -> list[Problem]:
    """A record that makes an earlier game current must bring it back as the fold last held it (with as many
    transactions as the journal has, those the fold left out counted)."""
    held = last.get(after.id)
    if held is None:
        return []
    differs = []
    if after.settings != held.settings:
        differs.append("settings")
    if {c: b for c, b in after.balances.items() if b} != {c: b for c, b in held.balances.items() if b}:
        differs.append("balances")
    if after.estate != held.estate:
        differs.append("deeds")
    if after.undone != held.undone or after.bankruptcies != held.bankruptcies:
        differs.append("undos")
    if _id(after.last) != _id(held.last) or after.transactions != held.transactions + left_out.get(after.id, 0):
        differs.append("last transaction")
    if differs:
        return [Problem(None, f"journal entry {seq} ({kind_of(record)}) restores game {after.id} with "
                              f"{', '.join(differs)} that differ from its journal")]
    return []


def _id(tx: Transaction | None) -> int | None:
    return None if tx is None else tx.id
