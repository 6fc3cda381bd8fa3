"""What reads a game's past reads the one fold: restore (from the newest snapshot), the game list, audit, chart."""

from dataclasses import dataclass, replace

import pytest

import banker.fold.game
import banker.journal.records
from banker.audit.checks import audit_records
from banker.errors import Refused
from banker.fold.game import Game, apply
from tests.fold.support import last_states
from banker.journal.records import Checkpoint, GameRestored, NewGame, Posting, Snapshot, Transaction, transactions_in
from banker.rules import total_worth
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import Ledger, SqliteLedger
from web.demo import play_demo
from web.view import WorthHistory

#: Records between snapshots in these tests (the unit's is 500).
EVERY = 20


@pytest.fixture(params=["memory", "sqlite"])
def ledger(request, tmp_path, monkeypatch):
    monkeypatch.setattr("runtime.ledger.SNAPSHOT_EVERY", EVERY)
    made = Ledger(MemoryStore()) if request.param == "memory" else SqliteLedger(tmp_path / "l.db", backups=False)
    yield made
    made.close()


def pay(ledger, payer, payee, amount):
    return ledger.post(Transaction("transfer", (Posting(payer, payee, amount, "transfer"),), "paid"))


def evenings(ledger, games=3, plays=30):
    """Alice and Bob pay each other ``plays`` times a game, the unit idle after each (a snapshot when due)."""
    a, b = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
    for g in range(games):
        if g:
            ledger.new_game()
        for i in range(plays):
            pay(ledger, *((a.id, b.id) if i % 2 else (b.id, a.id)), 1_000 * (i + 1 + g))
            ledger.maintain()


class Reads:
    """The records a store is asked for, counted (the outside world looking at the store's reads)."""

    def __init__(self, store) -> None:
        self.store, self.count, self._records = store, 0, store.records
        store.records = self.records

    def records(self, since=0, until=None):
        for record in self._records(since, until):
            self.count += 1
            yield record


# -- restore --------------------------------------------------------------------------------------


def test_restore_brings_a_game_back_as_the_whole_fold_left_it_reading_from_a_snapshot(ledger):
    evenings(ledger)
    whole = last_states(ledger.store.records(), editions=ledger.editions)
    reads = Reads(ledger.store)
    ledger.restore_game(1)
    assert ledger.game().checkpoint() == whole[1]
    assert reads.count <= EVERY + 2  # from the snapshot before the new game that archived it: not the journal
    assert len(list(ledger.store.records())) > 4 * EVERY
    ledger.restore_game(3)
    ledger.restore_game(2)
    assert ledger.game().checkpoint() == whole[2]
    assert [g.transactions for g in ledger.games()] == [whole[g].transactions for g in (1, 2, 3)] == [32, 32, 32]
    with pytest.raises(Refused, match="no game 9"):
        ledger.restore_game(9)
    ledger.check()  # the game in memory is the fold of the whole journal


def test_the_stores_answer_stretches_of_the_journal_alike(ledger):
    evenings(ledger)
    store = ledger.store
    every = list(store.records())
    assert list(store.records(5, until=9)) == every[5:9] and list(store.records(9, until=9)) == []
    snaps = [seq for seq, r in enumerate(every, 1) if isinstance(r, Snapshot)]
    assert len(snaps) > 2 and store.last_snapshot()[0] == snaps[-1]
    assert store.last_snapshot(before=snaps[1])[0] == snaps[0] and store.last_snapshot(before=snaps[0]) is None
    assert store.last_snapshot(before=snaps[1] + 1) == (snaps[1], every[snaps[1] - 1])
    starts = [seq for seq, r in enumerate(every, 1) if isinstance(r, (NewGame, GameRestored))]
    assert [store.game_stretches(g) for g in (1, 2, 3, 9)] == [[(starts[0], starts[1])], [(starts[1], starts[2])],
                                                                [(starts[2], len(every) + 1)], []]


# -- the audit ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rewind:
    """A record kind the audit has never heard of that brings a game back, as a restore does."""

    checkpoint: Checkpoint
    time: float | None = None


def test_a_new_kind_that_brings_a_game_back_is_checked_against_the_fold_with_no_change_to_the_audit(ledger,
                                                                                                monkeypatch):
    monkeypatch.setitem(banker.fold.game._APPLY, Rewind, banker.fold.game._APPLY[GameRestored])
    monkeypatch.setitem(banker.journal.records.KINDS, Rewind, "rewind")
    evenings(ledger, games=2, plays=3)
    records = list(ledger.store.records())
    first = last_states(records, editions=ledger.editions)[1]
    honest = audit_records(enumerate(records + [Rewind(first)], 1), editions=ledger.editions)
    assert honest.ok, honest.problems
    richer = replace(first, balances=tuple((card, money + 1) for card, money in first.balances))
    forged = audit_records(enumerate(records + [Rewind(richer)], 1), editions=ledger.editions)
    assert [str(p) for p in forged.problems] == [
        f"journal entry {len(records) + 1} (rewind) restores game 1 with balances that differ from its journal",
        "game 1: players hold 30,000,002, the bank issued 30M"]


def test_a_record_the_fold_refuses_is_named_and_what_follows_is_still_checked(ledger):
    evenings(ledger, games=2, plays=3)
    records = list(ledger.store.records())
    first = last_states(records, editions=ledger.editions)[1]
    at = next(i for i, r in enumerate(records) if isinstance(r, Transaction))
    records[at] = replace(records[at], changes=(("owner", "boardwalk", 7, 1),))  # a deed that was never 7's
    audit = audit_records(enumerate(records + [GameRestored(first)], 1), editions=ledger.editions)
    found = [str(p) for p in audit.problems]
    assert found[0].startswith("game 1: the deeds do not replay (")
    assert found[1:] == [f"journal entry {len(records) + 1} (restore) restores game 1 with balances that differ "
                         "from its journal"]


# -- the game list and the chart ------------------------------------------------------------------


def test_the_game_lists_of_both_stores_are_the_folds(ledger):
    evenings(ledger, games=3, plays=4)
    ledger.restore_game(1)
    pay(ledger, 1, 2, 5_000)
    whole = last_states(ledger.store.records(), editions=ledger.editions)
    assert [(g.id, g.transactions, g.current) for g in ledger.games()] == [
        (gid, whole[gid].transactions, gid == 1) for gid in (1, 2, 3)]


def test_the_worth_chart_is_the_rules_worth_of_the_game_after_each_transaction():
    with Ledger(MemoryStore()) as ledger:
        play_demo(ledger)
        game, records = ledger.game(), list(ledger.store.records())
    fold, expected = Game(editions=ledger.editions), []
    for record in records:
        fold = apply(fold, record)
        expected += [(tx.id, tx.time, {c.id: total_worth(fold, c.id) for c in fold.cards if c.id in fold.balances})
                     for tx in transactions_in(record) if fold.id == game.id][-1:]
    history = WorthHistory.of(game, [tx for r in records for tx in transactions_in(r) if tx.game == game.id])
    assert history.points == expected and not history.broken and len(expected) == game.transactions
    assert WorthHistory.of(game, [game.last]).points == expected[-1:]  # a page that only saw the last one
