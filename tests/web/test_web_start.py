"""The table page opens from the last snapshot at any ledger size: its chart's trail rides in the snapshots.

A page opened on a long game shows what a page that followed every commit
shows, and a ledger of an earlier release (snapshots without the trail) the
same again, folded from the game's start.
"""

from __future__ import annotations

import pytest

import runtime.ledger
from banker.fold.history import worth_trail
from banker.journal.records import Posting, Transaction
from banker.journal.worth_trail import TRAIL_POINTS, WorthPoint, WorthTrail
from runtime.ledger import SqliteLedger
from web.demo import play_demo
from web.source import FileSource

PAYMENTS = 620  # past a snapshot (every 500 records), and past the trail's 200 points


def play_long(ledger, payments: int = PAYMENTS) -> None:
    """The demo game, then ``payments`` back and forth, with the unit's idle upkeep (snapshots) between them."""
    ledger.store._conn.execute("PRAGMA synchronous=OFF")  # a test's ledger: no need to wait for the disk
    play_demo(ledger)
    alice, bob = ledger.game().card_by_name("Alice").id, ledger.game().card_by_name("Bob").id
    for i in range(payments):
        payer, payee = (alice, bob) if i % 2 else (bob, alice)
        ledger.post(Transaction("transfer", (Posting(payer, payee, 10_000 + i, "transfer"),), "paid"))
        if i % 50 == 49:
            ledger.maintain()


def opened(path) -> dict:
    source = FileSource(path)
    try:
        return source.open()
    finally:
        source.close()


def test_a_page_opened_late_shows_what_a_page_that_followed_every_commit_shows(tmp_path):
    path = tmp_path / "ledger.db"
    follower = FileSource(path)
    try:
        with SqliteLedger(path, backups=False) as ledger:
            follower.open()
            play_long(ledger)
            _seq, snapshot = ledger.store.last_snapshot()
            assert snapshot.worth is not None and snapshot.worth.game == ledger.game().id
        followed = follower.poll()[-1]
    finally:
        follower.close()
    late = opened(path)
    assert late == followed
    assert len(late["journal"]) == 50 and late["journal"][-1]["id"] == ledger.game().last.id
    assert TRAIL_POINTS // 2 <= len(late["worth"]["points"]) <= TRAIL_POINTS
    assert late["worth"]["points"][-1][1] == [p["worth"] for p in late["players"]]  # the chart ends at now


def test_a_ledger_whose_snapshots_have_no_trail_shows_the_same_page(tmp_path, monkeypatch):
    def clock() -> float:
        return 1_700_000_000.0  # both ledgers played at the same moment

    with SqliteLedger(tmp_path / "new.db", backups=False, clock=clock) as ledger:
        play_long(ledger)
    monkeypatch.setattr(runtime.ledger, "with_worth", lambda _store, snapshot, editions: snapshot)  # an earlier release
    with SqliteLedger(tmp_path / "old.db", backups=False, clock=clock) as ledger:
        play_long(ledger)
        assert ledger.store.last_snapshot()[1].worth is None
    monkeypatch.undo()
    assert opened(tmp_path / "old.db") == opened(tmp_path / "new.db")


def test_the_trail_keeps_a_bounded_number_of_points_whatever_the_game_length():
    trail = WorthTrail(1)
    for tx in range(1, 100_001):
        trail = trail.added(WorthPoint(tx, ((1, tx),)))
        assert len(trail.points) <= TRAIL_POINTS + 1
    assert trail.points[-1].tx == 100_000 and trail.stride == 512
    assert [p.tx for p in trail.points[:3]] == [512, 1024, 1536]  # evenly spread


def test_progress_is_told_while_an_old_game_is_folded_from_its_start(tmp_path, monkeypatch):
    monkeypatch.setattr(runtime.ledger, "with_worth", lambda _store, snapshot, editions: snapshot)
    with SqliteLedger(tmp_path / "old.db", backups=False) as ledger:
        play_long(ledger, 1_100)
        game = ledger.game()
    told = []
    source = FileSource(tmp_path / "old.db")
    try:
        source.open(progress=lambda done, total: told.append((done, total)))
    finally:
        source.close()
    assert told and told[-1][0] <= told[-1][1] == game.transactions


@pytest.mark.parametrize("start", [0, 1])
def test_a_trail_folded_from_the_start_counts_only_the_current_game(tmp_path, start):
    with SqliteLedger(tmp_path / "l.db", backups=False) as ledger:
        play_long(ledger, 30)
        if start:
            ledger.new_game()
        game = ledger.game()
        trail = worth_trail(game, ledger.store.game_transactions(game.id))
    assert trail.game == game.id and len(trail.points) == game.transactions


def journal_ids(path) -> list[int]:
    return [row["id"] for row in opened(path)["journal"]]


def pay_back_and_forth(ledger, payments: int) -> None:
    alice, bob = ledger.game().card_by_name("Alice").id, ledger.game().card_by_name("Bob").id
    for i in range(payments):
        payer, payee = (alice, bob) if i % 2 else (bob, alice)
        ledger.post(Transaction("transfer", (Posting(payer, payee, 1_000 + i, "transfer"),), "paid"))


@pytest.mark.parametrize("payments", [0, 3, 70])
def test_a_new_games_journal_holds_only_its_own_rows_after_a_long_game(tmp_path, payments):
    with SqliteLedger(tmp_path / "l.db", backups=False) as ledger:
        play_long(ledger, 120)
        ledger.new_game()
        pay_back_and_forth(ledger, payments)
        game_id = ledger.game().id
        expected = [tx.id for tx in ledger.store.game_transactions(game_id)][-50:]
    assert journal_ids(tmp_path / "l.db") == expected
    assert len(expected) == min(50, payments + 4)  # the four openings, then the payments


@pytest.mark.parametrize("payments", [2, 60])
def test_a_game_brought_back_shows_its_own_journal_across_the_games_played_between(tmp_path, payments):
    with SqliteLedger(tmp_path / "l.db", backups=False) as ledger:
        play_long(ledger, 40)
        first = ledger.game().id
        ledger.new_game()
        pay_back_and_forth(ledger, 30)  # another game's rows, between the first game's two stretches
        ledger.restore_game(first)
        pay_back_and_forth(ledger, payments)
        expected = [tx.id for tx in ledger.store.game_transactions(first)][-50:]
    ids = journal_ids(tmp_path / "l.db")
    assert ids == expected and len(ids) == 50
