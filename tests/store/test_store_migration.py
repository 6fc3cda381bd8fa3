"""A ledger of the first release (schema 1) opens as a journal of records (schema 2) that folds to the same game."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from banker.fold.authority import pin_matches
from banker.errors import CorruptLedger
from banker.fold.game import replay
from tests.fold.support import last_states
from banker.journal.records import Card, Enrolment, GameRestored, NewGame, Removal, Rename
from cards import editions
from banker.journal.records import ChainStart
from store import LedgerInUse, SqliteStore, is_ledger_file, take_writer_lock
from store.trust import OldLedger

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXPECTED = json.loads((FIXTURES / "ledger-v1.json").read_text())


@pytest.fixture
def v1_path(tmp_path) -> Path:
    """A copy of the ledger the first release wrote (tests/fixtures/make_ledger_v1.py)."""
    path = tmp_path / "ledger.db"
    shutil.copyfile(FIXTURES / "ledger-v1.db", path)
    return path


def fold(store):
    return replay(store.records(), editions=editions())


def schema_of(path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]
    finally:
        conn.close()


# -- the first release's ledger -----------------------------------------------------------------


def test_the_first_releases_ledger_folds_to_the_game_it_showed(v1_path):
    with SqliteStore(v1_path, backups=False, upgrade=True) as store:
        game = fold(store)
        assert game.id == EXPECTED["current_game"]
        assert {c.name: game.balance(c.id) for c in game.cards} == EXPECTED["balances"]
        assert [[c.id, c.uid, c.name] for c in game.cards] == EXPECTED["cards"]
        assert dict(game.estate.owners) == EXPECTED["owners"]
        assert dict(game.estate.buildings) == EXPECTED["houses"]
        assert sorted(game.estate.mortgaged) == EXPECTED["mortgaged"]
        assert dict(game.deed_tags) == EXPECTED["deed_tags"]
        assert str(game.volume) == EXPECTED["volume"]
        assert pin_matches(EXPECTED["pin"], game.pin_hash)
        assert [[g.id, g.transactions, g.settings.houses_for_hotel] for g in store.games()] == EXPECTED["games"]
        assert [[tx.id, tx.kind, tx.memo, tx.reverses] for tx in store.game_transactions(game.id)] == \
            EXPECTED["transactions"]
        names = store.card_names()
        game2 = last_states(store.records(), editions=editions())[2]
        assert {names[card]: balance for card, balance in game2.balances} == EXPECTED["game2_balances"]
        assert game2.settings.houses_for_hotel == 3
        assert game.next_tx == 24 and game.next_card == 6 and game.next_game == 3
        audit = store.verify()
        assert audit.ok, [str(p) for p in audit.problems]
        assert audit.transactions == 23


def test_the_journal_keeps_the_first_releases_history_and_times(v1_path):
    with SqliteStore(v1_path, backups=False, upgrade=True) as store:
        records = list(store.records())
        assert store.transaction(1).time == 1_700_000_021.0 and store.transaction(23).time == 1_700_000_217.0
        assert isinstance(records[0], NewGame) and records[0].time == 1_700_000_007.0 and records[0].openings == ()
        alice = records[1]
        assert isinstance(alice, Enrolment) and alice.card == Card(1, "A1A1A1A1", "Alice") and alice.opening.id == 1
        kinds = [type(r).__name__ for r in records]
        assert kinds.count("Enrolment") == 5 and kinds.count("NewGame") == 2
        second = next(r for r in records if isinstance(r, NewGame) and r.game == 2)
        assert [o.memo for o in second.openings] == ["Alice starts", "Bob starts", "Cleo starts", "Daniel starts"]
        # Dan was Daniel and Eve gone by the second game: its openings say so
        before = records[:records.index(second)]
        assert Rename(4, "Daniel", 1_700_000_168.0) in before and Removal(5, 1_700_000_168.0) in before
        restored = records[records.index(second) + 2]
        assert isinstance(restored, GameRestored) and restored.checkpoint.game == 1
        assert restored.time == store.transaction(23).time


def test_the_v1_file_is_kept_beside_it_and_the_v1_hashes_in_the_journal(v1_path):
    SqliteStore(v1_path, backups=False, upgrade=True).close()
    kept = Path(str(v1_path) + ".v1-backup")
    assert is_ledger_file(kept) and schema_of(kept) == "1"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    conn = sqlite3.connect(kept)
    old = dict(conn.execute("SELECT id, hash FROM transactions"))
    conn.close()
    conn = sqlite3.connect(v1_path)
    legacy = dict(conn.execute("SELECT tx, legacy_hash FROM journal WHERE kind IN ('tx', 'enrol')"))
    openings = conn.execute("SELECT legacy_hash FROM journal WHERE kind = 'new-game' AND game = 2").fetchone()[0]
    conn.close()
    assert legacy == {tx: old[tx] for tx in legacy} and len(legacy) == 19
    assert openings.split() == [old[tx] for tx in (18, 19, 20, 21)]


def test_a_second_open_does_not_move_it_again(v1_path):
    with SqliteStore(v1_path, backups=False, upgrade=True) as store:
        head, seq = store.head(), store.last_seq()
    Path(str(v1_path) + ".v1-backup").unlink()
    with SqliteStore(v1_path, backups=False) as store:
        assert (store.head(), store.last_seq()) == (head, seq) and store.verify().ok
    assert not Path(str(v1_path) + ".v1-backup").exists() and schema_of(v1_path) == "3"


def test_a_reader_never_moves_it_and_says_it_needs_the_upgrade(v1_path):
    with pytest.raises(OldLedger, match="banker ledger upgrade"):
        SqliteStore(v1_path, writer=False, backups=False)
    with pytest.raises(OldLedger, match="earlier release"):
        SqliteStore(v1_path, backups=False)  # nor a writer not asked to
    assert schema_of(v1_path) == "1"
    with SqliteStore(v1_path, backups=False, upgrade=True) as unit:  # the reader took no lock
        assert fold(unit).balances and schema_of(v1_path) == "3"


def test_a_running_unit_holding_the_lock_stops_the_move(v1_path):
    lock = take_writer_lock(str(v1_path))
    try:
        with pytest.raises(LedgerInUse, match="in use by a running unit"):
            SqliteStore(v1_path, backups=False, upgrade=True)
    finally:
        lock.release()
    assert schema_of(v1_path) == "1"


def test_a_v1_ledger_that_was_tampered_with_says_so_after_the_move(v1_path):
    conn = sqlite3.connect(v1_path)
    conn.execute("UPDATE transactions SET memo = 'Bank paid well' WHERE id = 5")
    conn.commit()
    conn.close()
    with SqliteStore(v1_path, backups=False, upgrade=True) as store:
        problems = [str(p) for p in store.verify().problems]
    assert problems == ["#5: in the schema 1 ledger: edited: its hash does not match its contents "
                        "and the row before it"]


def test_a_v1_ledger_that_does_not_fold_is_left_as_it_was(v1_path):
    conn = sqlite3.connect(v1_path)
    conn.execute("""UPDATE transactions SET postings = '[[9,null,850000,"pay"]]' WHERE id = 6""")
    conn.commit()
    conn.close()
    with pytest.raises(CorruptLedger, match="cannot move to schema 2: transaction #6 does not replay"):
        SqliteStore(v1_path, backups=False, upgrade=True)
    assert schema_of(v1_path) == "1"


# -- ledgers of the first release written here ------------------------------------------------

V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cards (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, name TEXT NOT NULL, enrolled REAL NOT NULL,
                    removed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE deed_tags (uid TEXT PRIMARY KEY, slug TEXT NOT NULL UNIQUE);
CREATE TABLE games (id INTEGER PRIMARY KEY, started REAL NOT NULL, start_balance INTEGER NOT NULL,
                    go_salary INTEGER NOT NULL, allow_negative INTEGER NOT NULL, rules TEXT NOT NULL);
CREATE TABLE transactions (id INTEGER PRIMARY KEY, game INTEGER NOT NULL REFERENCES games(id), time REAL NOT NULL,
                           kind TEXT NOT NULL, memo TEXT NOT NULL, reverses INTEGER, postings TEXT NOT NULL,
                           changes TEXT NOT NULL, hash TEXT NOT NULL)
"""
RULES = '{"edition": "us", "houses_for_hotel": 4, "income_tax_choice": false, "luxury_tax": null}'


def v1_ledger(path, *, games, cards, transactions, current):
    """A schema 1 file as the first release wrote it: ``transactions`` as (game, kind, memo, [postings])."""
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    conn.execute("PRAGMA application_id = 1297043023")
    for gid in games:
        conn.execute("INSERT INTO games VALUES (?, ?, 15000000, 2000000, 0, ?)", (gid, 1000.0 * gid, RULES))
    for cid, uid, name, removed in cards:
        conn.execute("INSERT INTO cards VALUES (?, ?, ?, ?, ?)", (cid, uid, name, 10.0 * cid, removed))
    previous = ""
    for tid, (game, kind, memo, postings) in enumerate(transactions, start=1):
        row = (tid, game, 2000.0 + tid, kind, memo, None, json.dumps(postings, separators=(",", ":")), "[]")
        previous = hashlib.sha256(json.dumps([previous, *row], separators=(",", ":"), sort_keys=True)
                                  .encode()).hexdigest()
        conn.execute("INSERT INTO transactions VALUES (?,?,?,?,?,?,?,?,?)", (*row, previous))
    conn.executemany("INSERT INTO meta VALUES (?, ?)",
                     [("schema", "1"), ("head", previous), ("current_game", str(current))])
    conn.commit()
    conn.close()


def test_a_removed_players_name_given_to_a_new_card(tmp_path):
    path = tmp_path / "ledger.db"
    v1_ledger(path, games=[1], current=1,
              cards=[(1, "A1", "Alice", 1), (2, "A2", "Alice", 0)],
              transactions=[(1, "opening", "Alice joins", [[None, 1, 15_000_000, "opening"]]),
                            (1, "transfer", "Alice paid Alice", [[1, None, 5_000_000, "transfer"]]),
                            (1, "opening", "Alice joins", [[None, 2, 15_000_000, "opening"]])])
    with SqliteStore(path, backups=False, upgrade=True) as store:
        game = fold(store)
        assert game.cards == (Card(2, "A2", "Alice"),) and dict(game.names) == {1: "Alice", 2: "Alice"}
        assert game.balance(2) == 15_000_000 and game.balance(1) == 10_000_000
        assert store.verify().ok


def test_games_without_transactions_and_a_restored_current_game(tmp_path):
    path = tmp_path / "ledger.db"
    v1_ledger(path, games=[1, 2, 3], current=1,
              cards=[(1, "A1", "Alice", 0)],
              transactions=[(1, "opening", "Alice joins", [[None, 1, 15_000_000, "opening"]]),
                            (1, "collect", "Bank paid", [[None, 1, 1_000_000, "collect"]])])
    with SqliteStore(path, backups=False, upgrade=True) as store:
        game = fold(store)
        assert game.id == 1 and game.balance(1) == 16_000_000 and game.next_game == 4
        assert [(g.id, g.transactions, g.started) for g in store.games()] == [(1, 2, 1000.0), (2, 0, 2000.0),
                                                                               (3, 0, 3000.0)]
        *_, restored, chain = store.records()
        assert isinstance(restored, GameRestored) and isinstance(chain, ChainStart)
        assert store.verify().ok
