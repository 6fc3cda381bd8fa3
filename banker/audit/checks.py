"""Audit of a journal's records: postings, cards, undo links, money conserved, restores, and that they fold.

Pure, like :mod:`banker.audit.findings` (whose :class:`Audit` and :class:`Problem` it
returns), but over decoded records rather than rows: the store checks the
hash chain and the missing rows, and hands the records it could read here as
``(seq, record)`` pairs, in order. Problems name the transaction (``#N``)
where there is one, else the journal entry (its ``seq``).

The records are folded once, by :func:`banker.fold.game.apply`, and the audit
reads that fold: the game's cards, each game as it was when another became
current, each game's balances. A record the fold refuses is named (the
first one, if nothing else said what is wrong with it) and the records
after it are folded without it; a record that brings a game back must bring
it back as the fold last held it; the players of each game must hold what
the bank's postings issued less what they took back. What is checked of a
transaction's postings is :mod:`banker.audit.postings`, of a game's openings
:mod:`banker.audit.openings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from banker.audit.builds import building_price as _building_price
from banker.audit.findings import Audit, GameTotals, Problem
from banker.audit.openings import openings as _openings
from banker.audit.postings import moved_money as _moved, postings as _postings
from banker.rules.deeds import Edition
from banker.errors import Refused
from banker.fold.game import Game, apply, from_snapshot, replay
from banker.money import format_amount
from banker.journal.records import (BANK, GameRestored, NewGame, Record, Snapshot, Transaction, kind_of, moved,
                      transactions_in)
from banker.rules.estate import EstateConflict


def audit_records(entries: Iterable[tuple[int, Record]], *, editions: Mapping[str, Edition]) -> Audit:
    """Check the records (``(seq, record)`` in journal order) of a ledger against each other and the fold."""
    auditor = Auditor(editions)
    auditor.feed(entries)
    return auditor.finish()


class Auditor:
    """:func:`audit_records` as a fold that can stop and go on: :meth:`feed` records in journal order as they come,
    :meth:`finish` once. Its state is what the checks remember of the records fed so far.

    ``after``: a snapshot to start from instead of an empty ledger (a part of the journal audited apart, see
    :mod:`banker.audit_parts`). Then what the records before it would have answered is noted as an assumption
    (:attr:`assumed`), for the auditor of those records to confirm.
    """

    def __init__(self, editions: Mapping[str, Edition], after: Snapshot | None = None) -> None:
        self.editions = editions
        self.problems: list[Problem] = []
        self.started: set[int] = set()  # games a new-game record starts
        self.totals: dict[int, GameTotals] = {}  # the bank's money in each game, from its postings
        self.stray: dict[int, GameTotals] = {}  # transactions of games that never started: no fold reaches them
        self.last: dict[int, Game] = {}  # each game as the fold held it when another game became current
        self.left_out: dict[int, int] = {}  # each game's transactions the fold refused (the journal holds them)
        self.links = _Links()
        self.deeds_failed: set[int] = set()  # games whose deeds the fold could not take (said once each)
        self.count, self.refused = 0, False
        self.players: dict[int, dict[int, int]] = {}  # each game's balances as a later part of the journal left them
        self.assumed = None if after is None else Assumed()
        self.game = replay((), editions=editions) if after is None else from_snapshot(after, editions=editions)
        if self.assumed is not None:
            self.links.assumed, self.links.follows = self.assumed, False

    def feed(self, entries: Iterable[tuple[int, Record]]) -> None:
        game = self.game
        for seq, record in entries:
            plain = type(record) is Transaction  # most records: skip the other kinds' checks
            after = self._plain(record, game) if plain else None
            game = after if after is not None else self._record(seq, record, game, plain)
        self.game = game

    def _plain(self, record: Transaction, game: Game) -> Game | None:
        """The common record, written out: a transaction that folds, numbered in order, no undo. The game after it,
        or None when the fold refuses it (:meth:`_record` then says what is wrong with it)."""
        try:
            after = apply(game, record)
        except Refused:
            return None
        if record.kind == "build":
            self.problems += _building_price(record, game)
        self.count += 1
        links, tx_id, gid = self.links, record.id, record.game
        if tx_id == links.expected and record.reverses is None and links.follows:
            links.expected = tx_id + 1
            links.seen[tx_id] = gid
        else:
            links.check(record, self.problems)
        if gid in self.started or self._started(gid):
            money = self.totals.get(gid) or self.totals.setdefault(gid, GameTotals())
            _moved(record, after.names, money, self.problems)
        else:
            self._stray(record, after.names)
        return after  # a transaction never changes the current game

    def _record(self, seq: int, record: Record, game: Game, plain: bool) -> Game:
        """Any record, with every check: its kind's, its transactions', what the fold makes of it. The game after it
        (``game`` itself when the fold refuses it)."""
        found = len(self.problems)
        if not plain:
            self._other(seq, record, game)
        try:
            after, why = apply(game, record), None
        except Refused as exc:
            after, why = None, exc
        names = (game if after is None else after).names
        for tx in ((record,) if plain else transactions_in(record)):
            self._transaction(tx, names)
        if plain and record.kind == "build":
            self.problems += _building_price(record, game)
        if after is None:
            self._refusal(seq, record, why, game, found)
            return game
        if after.id != game.id:
            if game.id:
                self.last[game.id] = game
            self.problems += self._brought_back(seq, record, after)
        return after

    def _transaction(self, tx: Transaction, names: Mapping[int, str]) -> None:
        """A transaction's number, undo link and postings, counted in its game's money."""
        self.count += 1
        self.links.check(tx, self.problems)
        if tx.game in self.started or self._started(tx.game):
            _postings(tx, names, self.totals.setdefault(tx.game, GameTotals()), self.problems)
        else:
            self._stray(tx, names)

    def _stray(self, tx: Transaction, names: Mapping[int, str]) -> None:
        """A transaction of a game that never started: said, and its money counted apart (no fold reaches it)."""
        self.problems.append(Problem(tx.id, f"belongs to game {tx.game}, which does not exist"))
        _postings(tx, names, self.stray.setdefault(tx.game, GameTotals()), self.problems, players=True)

    def _refusal(self, seq: int, record: Record, why: Refused, game: Game, found: int) -> None:
        """A record the fold refuses: what it would have done wrong, why (if nothing found since ``found`` said so,
        and once), its transactions left out of their games; the records after it fold without it."""
        self.problems += _refused(record, why, game, self.deeds_failed)
        for tx in transactions_in(record):
            self.left_out[tx.game] = self.left_out.get(tx.game, 0) + 1
        if len(self.problems) == found and not self.refused:
            self.problems.append(_entry_problem(seq, record, f"does not replay ({why}); the records after it "
                                                             "are folded without it"))
        self.refused = True

    def _started(self, gid: int | None) -> bool:
        if gid in self.started:
            return True
        if self.assumed is not None:  # started before the snapshot, if the records before it say so
            self.assumed.started.add(gid)
            return True
        return False

    def _other(self, seq: int, record: Record, game: Game) -> None:
        """The checks of the rarer kinds: a new game, openings, a restore."""
        if isinstance(record, NewGame):
            if self.assumed is not None and record.game not in self.started:
                self.assumed.not_started.add(record.game)
            self.problems += _new_game(seq, record, self.started, self.totals, self.editions)
        self.problems += _openings(record, game)
        if isinstance(record, GameRestored) and not self._started(record.checkpoint.game):
            self.problems.append(Problem(None, f"journal entry {seq} (restore) restores game "
                                               f"{record.checkpoint.game}, which does not exist"))

    def _brought_back(self, seq: int, record: Record, after: Game) -> list[Problem]:
        if self.assumed is not None and after.id not in self.last and after.id not in self.started:
            self.assumed.unsure = True  # a game held before the snapshot: only its auditor can compare
            return []
        return _brought_back(seq, record, after, self.last, self.left_out)

    def finish(self) -> Audit:
        if self.game.id:
            self.last[self.game.id] = self.game
        for gid, money in self.totals.items():
            if gid in self.players:
                money.players = dict(self.players[gid])
            elif gid in self.last:
                money.players = dict(self.last[gid].balances)
        games = {**self.totals, **self.stray}
        return Audit(self.problems + _unconserved(games, self.left_out), games, self.count)


class _Links:
    """The transactions' numbers, in order with none missing, and their undo links, each to an earlier transaction
    of the same game and undone once."""

    def __init__(self) -> None:
        self.expected = 1
        self.seen: dict[int, int] = {}  # tx id -> game
        self.reversed_by: dict[int, int] = {}
        self.assumed: Assumed | None = None  # set: a part after a snapshot, whose earlier transactions it can't see
        self.follows = True  # the numbers go on from the transactions seen (a part: once it has seen its first)

    def check(self, tx: Transaction, problems: list[Problem]) -> None:
        expected = self.expected
        if self.assumed is not None and self.assumed.first_tx is None and tx.id is not None:
            self.assumed.first_tx = expected = tx.id  # the records before say whether it follows on
            self.follows = True
        if tx.id is None or tx.id < expected:
            problems.append(Problem(tx.id, f"is out of order (after #{expected - 1})"))
        else:
            if tx.id != expected:
                problems.append(Problem(tx.id, f"transactions #{expected}-#{tx.id - 1} are missing (deleted)"))
            self.expected = tx.id + 1
        if tx.reverses is not None:
            self._undo(tx, problems)
        if tx.id is not None:
            self.seen[tx.id] = tx.game


    def _undo(self, tx: Transaction, problems: list[Problem]) -> None:
        """An undo's link: to an earlier transaction of the same game (or, in a part, one before it), undone once."""
        if self.assumed is not None and tx.reverses not in self.seen and tx.reverses not in self.reversed_by:
            self.assumed.reverses.append((tx.reverses, tx.game))  # an earlier part's transaction, undone once
        elif self.seen.get(tx.reverses) != tx.game:
            problems.append(Problem(tx.id, f"undoes #{tx.reverses}, which is not an earlier transaction "
                                           f"of game {tx.game}"))
        elif tx.reverses in self.reversed_by:
            problems.append(Problem(tx.id, f"undoes #{tx.reverses} again (already undone by "
                                           f"#{self.reversed_by[tx.reverses]})"))
        self.reversed_by[tx.reverses] = tx.id


@dataclass
class Assumed:
    """What a part of the journal audited from a snapshot took on trust from the records before it."""

    started: set[int] = field(default_factory=set)  # games it saw transactions or a restore of
    not_started: set[int] = field(default_factory=set)  # games it saw started
    first_tx: int | None = None  # the number of its first transaction (the one the records before expect)
    reverses: list[tuple[int, int]] = field(default_factory=list)  # (transaction, game) undone, from before
    unsure: bool = False  # a game held before the snapshot was brought back: only the serial audit can tell


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
    differs = _differences(after, held, left_out.get(after.id, 0))
    if differs:
        return [Problem(None, f"journal entry {seq} ({kind_of(record)}) restores game {after.id} with "
                              f"{', '.join(differs)} that differ from its journal")]
    return []


def _differences(after: Game, held: Game, left_out: int) -> list[str]:
    """What of a game brought back differs from the game the fold last held (``left_out``: its transactions the fold
    refused since, which the journal still holds)."""
    differs = []
    if after.settings != held.settings:
        differs.append("settings")
    if _nonzero(after.balances) != _nonzero(held.balances):
        differs.append("balances")
    if after.estate != held.estate:
        differs.append("deeds")
    if after.undone != held.undone or after.bankruptcies != held.bankruptcies:
        differs.append("undos")
    if _id(after.last) != _id(held.last) or after.transactions != held.transactions + left_out:
        differs.append("last transaction")
    return differs


def _nonzero(balances: Mapping[int, int]) -> dict[int, int]:
    return {c: b for c, b in balances.items() if b}


def _id(tx: Transaction | None) -> int | None:
    return None if tx is None else tx.id


# -- a journal audited in parts ---------------------------------------------------------------


@dataclass
class Part:
    """What auditing a part of the journal from a snapshot found and left, for the auditor of the records before
    it to take in (:func:`join`): plain data, sent back from another process."""

    problems: list[Problem]
    refused: bool
    assumed: Assumed
    started: set[int]
    totals: dict[int, GameTotals]  # the bank's money issued and taken back in this part
    players: dict[int, dict[int, int]]  # each game's balances as this part left them
    expected: int  # the next transaction's number after it
    seen: dict[int, int]
    reversed_by: dict[int, int]
    count: int


def part_of(auditor: Auditor) -> Part:
    """The part an auditor started from a snapshot has been fed (once it has been fed it all)."""
    games = dict(auditor.last)
    if auditor.game.id:
        games[auditor.game.id] = auditor.game
    links = auditor.links
    return Part(auditor.problems, auditor.refused, auditor.assumed or Assumed(), auditor.started, auditor.totals,
                {gid: dict(g.balances) for gid, g in games.items()}, links.expected, links.seen, links.reversed_by,
                auditor.count)


def join(auditor: Auditor, part: Part) -> bool:
    """Take in ``part``, audited from the snapshot that ends the records ``auditor`` was fed, when that is exactly
    what feeding its records would have done: neither found anything wrong and all it assumed holds. False (the
    auditor unchanged) otherwise: then feed the part's records instead, to say what is wrong as ever."""
    if not _holds(auditor, part):
        return False
    assumed, links = part.assumed, auditor.links
    auditor.started |= part.started
    for gid, money in part.totals.items():
        mine = auditor.totals.setdefault(gid, GameTotals())
        mine.issued += money.issued
        mine.returned += money.returned
    auditor.players.update(part.players)
    if assumed.first_tx is not None:
        links.expected = part.expected
    links.seen.update(part.seen)
    links.reversed_by.update(part.reversed_by)
    auditor.count += part.count
    return True


def _holds(auditor: Auditor, part: Part) -> bool:
    """Whether ``part`` may be taken in: neither side found anything wrong, and what the part assumed of the
    records before it holds."""
    found = auditor.problems or auditor.refused or auditor.stray or part.problems or part.refused
    return not found and _assumptions_hold(part.assumed, auditor)


def _assumptions_hold(assumed: Assumed, auditor: Auditor) -> bool:
    """What a part took on trust is what ``auditor``'s records say: the games started, its first transaction's
    number, the undos of earlier transactions (each of its game, not undone yet); no game brought back unsure."""
    links = auditor.links
    if assumed.unsure or not assumed.started <= auditor.started or assumed.not_started & auditor.started:
        return False
    if assumed.first_tx is not None and assumed.first_tx != links.expected:
        return False
    return not any(links.seen.get(tx) != game or tx in links.reversed_by for tx, game in assumed.reverses)
