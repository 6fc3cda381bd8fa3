"""A first-release ledger (schema 1) damaged or edited: the move to the journal refuses one it can't read, naming what,
and leaves it as it was; what it can move but doesn't fit is moved and named by `ledger verify` afterwards."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from banker.errors import CorruptLedger
from store import SqliteStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def v1_path(tmp_path) -> Path:
    path = tmp_path / "ledger.db"
    shutil.copyfile(FIXTURES / "ledger-v1.db", path)
    return path


def edit(path, *sql):
    conn = sqlite3.connect(path)
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()


def schema_of(path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]
    finally:
        conn.close()


REFUSED = {
    "rules unreadable": ("UPDATE games SET rules = '{broken' WHERE id = 2", "a game's rules can't be read"),
    "rules of a newer banker": ("""UPDATE games SET rules = '{"edition": "us", "dice": 3}' WHERE id = 2""",
                                "a game's rules can't be read"),
    "an edition this banker lacks": ("""UPDATE games SET rules = '{"edition": "zz"}' WHERE id = 2""",
                                     "game 2 is of the edition 'zz', which this banker does not have"),
    "postings unreadable": ("UPDATE transactions SET postings = '{broken' WHERE id = 5",
                            "cannot move to schema 2: transaction #5 cannot be read"),
    "a transaction of no game": ("UPDATE transactions SET game = 99 WHERE id = 5",
                                 "transaction #5 belongs to game 99, which does not exist"),
    "an opening of no card": ("UPDATE transactions SET postings = '[[null,99,1500000,\"opening\"]]' WHERE id = 2",
                              "transaction #2 opens no enrolled card"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_first_release_ledger_that_cannot_be_read_is_refused_and_left_as_it_was(v1_path, name):
    sql, message = REFUSED[name]
    edit(v1_path, sql)
    before = v1_path.read_bytes()
    with pytest.raises(CorruptLedger, match=message):
        SqliteStore(v1_path, backups=False, upgrade=True)
    assert schema_of(v1_path) == "1" and v1_path.read_bytes() == before


NOTED = {
    "head edited": ("UPDATE meta SET value = 'ab' WHERE key = 'head'",
                    "in the schema 1 ledger: the journal's last entries were deleted or its head was edited"),
    "current game gone": ("UPDATE meta SET value = '9' WHERE key = 'current_game'",
                          "moving to schema 2: the current game 9 does not exist: game 1 is current"),
    "a card with no opening": ("INSERT INTO cards VALUES (9, 'F6F6F6F6', 'Fay', 1700000300.0, 0)",
                               "moving to schema 2: card 9 (Fay) has no opening balance: it is left out"),
}


@pytest.mark.parametrize("name", list(NOTED))
def test_what_moves_but_does_not_fit_is_named_by_verify_after_the_move(v1_path, name):
    sql, message = NOTED[name]
    edit(v1_path, sql)
    with SqliteStore(v1_path, backups=False, upgrade=True) as store:
        problems = [str(p) for p in store.verify().problems]
    assert any(message in p for p in problems), problems
    assert schema_of(v1_path) == "3"
