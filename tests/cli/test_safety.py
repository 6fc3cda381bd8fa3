"""Nothing lost, nobody cheats: verify, undo, the banker's PIN, backups, bad databases."""

import sqlite3

import pytest
from click.testing import CliRunner

from banker.unit.events import CardPlaced
from banker_cli.main import cli
from runtime.ledger import SqliteLedger
from tests.conftest import Table


ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "ledger.db"


def banker(db, *args, input=None):
    return CliRunner().invoke(cli, [*map(str, args), "--db", str(db)], input=input)


def play(db, text):
    script = db.parent / "s.kps"
    script.write_text(text)
    result = banker(db, "script", script)
    assert result.exit_code == 0, result.output


GAME = "enrol Alice A1\nenrol Bob B2\ninsert left Alice\ninsert right Bob\npress 2 M\npress 5 0 0 K\nremove left\npress 1 M\n"


# -- verify ---------------------------------------------------------------------------------


def test_verify_passes_on_an_honest_ledger(db):
    play(db, GAME)
    result = banker(db, "ledger", "verify")
    assert result.exit_code == 0, result.output
    assert "ok: 5 transactions verified" in result.output
    assert "players hold 29M" in result.output


def tamper(db, sql):
    conn = sqlite3.connect(db)
    conn.execute(sql)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "sql, named",
    [("UPDATE journal SET body = replace(body, '2000000', '20000') WHERE tx = 3", "#3: edited"),
     ("DELETE FROM journal WHERE tx = 4", "#5: transactions #4-#4 are missing"),
     ("DELETE FROM journal WHERE tx = 5", "entries after 5 are gone")],
    ids=["edited", "deleted", "last-deleted"],
)
def test_verify_names_the_tampered_entry(db, sql, named):
    play(db, GAME)
    tamper(db, sql)
    result = banker(db, "ledger", "verify")
    assert result.exit_code == 1
    assert named in result.output


# -- undo -----------------------------------------------------------------------------------


def test_undo_last_from_the_keypad_posts_a_reversing_entry(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("3M")
    table.keys("FN", "C")
    assert "Undo #" in table.shown and "Bob paid Alice" in table.shown
    table.press("M")
    assert "reversed" in table.shown
    assert table.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}
    kinds = [tx.kind for tx in table.ledger.transactions()]
    assert kinds[-2:] == ["transfer", "undo"]  # nothing deleted
    table.keys("FN", "C")
    assert "Nothing to undo" in table.shown
    table.press("M")
    assert "already undone" in table.shown
    assert table.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}


def test_c_keeps_the_transaction_when_asked_to_undo(table):
    table.insert("left", "Alice")
    table.type("3M")
    table.keys("FN", "C", "C")
    assert "Cancelled" in table.shown
    assert table.ledger.game().balances_by_name()["Alice"] == 18_000_000


def test_an_undo_that_would_overdraw_is_refused(table):
    from banker.errors import InsufficientFunds

    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("10M")  # Bob pays Alice 10M: Alice 25M, Bob 5M
    transfer = table.ledger.transactions()[-1]
    table.remove("left")
    table.remove("right")
    table.insert("right", "Alice")
    table.type("20M")  # Alice pays the bank 20M: she has 5M left
    with pytest.raises(InsufficientFunds, match="Alice short 5M"):
        table.ledger.undo(transfer.id)
    assert table.ledger.game().balances_by_name() == {"Alice": 5_000_000, "Bob": 5_000_000}


def test_cli_undo_by_id_needs_the_pin_but_the_last_does_not(db):
    play(db, GAME)
    assert banker(db, "pin", "set", "--new", "2468").exit_code == 0
    refused = banker(db, "ledger", "undo", "3")
    assert refused.exit_code == 4 and "banker's PIN" in refused.output
    wrong = banker(db, "ledger", "undo", "3", "--pin", "1111")
    assert wrong.exit_code == 4 and "wrong banker PIN" in wrong.output
    assert banker(db, "ledger", "undo").exit_code == 0  # the last one: no PIN needed
    ok = banker(db, "ledger", "undo", "3", "--pin", "2468")
    assert ok.exit_code == 0, ok.output
    again = banker(db, "ledger", "undo", "3", "--pin", "2468")
    assert again.exit_code == 1 and "already undone" in again.output
    shown = banker(db, "ledger", "show").output
    assert "[undone by #7]" in shown and "[undone by #6]" in shown
    assert banker(db, "ledger", "verify").exit_code == 0


def test_openings_cannot_be_undone(db):
    play(db, "enrol Alice\n")
    result = banker(db, "ledger", "undo")
    assert result.exit_code == 1 and "nothing to undo" in result.output
    result = banker(db, "ledger", "undo", "1")
    assert result.exit_code == 1 and "opening balances" in result.output


# -- the banker's PIN -----------------------------------------------------------------------


def test_enrolling_on_the_device_asks_for_the_pin_once_one_is_set(table):
    table.keys("FN", ".")
    table.type("1234M")
    table.type("1234M")
    assert "Banker PIN set" in table.shown
    table.shell.handle(CardPlaced("left", "CAFE01", table.t))
    table.press("FN")
    assert "Banker PIN?" in table.shown
    table.type("9999M")
    assert "Wrong PIN" in table.shown
    assert table.ledger.game().card_by_uid("CAFE01") is None
    table.press("FN")
    table.type("1234M")
    assert "Enrolled" in table.shown
    assert table.ledger.game().card_by_uid("CAFE01").name == "Player 1"


def test_three_wrong_pins_lock_pin_entry(table):
    clock = [1_000_000.0]
    table.shell.wall_clock = lambda: clock[0]
    table.ledger.store._clock = lambda: clock[0]
    table.keys("FN", ".")
    table.type("1234M")
    table.type("1234M")
    for _ in range(3):
        table.keys("FN", ".")
        table.type("0000M")
    table.keys("FN", ".")
    table.type("1234M")
    assert "PIN locked" in table.shown
    table.wait(31)  # a script's time is not the wall clock's: still locked
    table.keys("FN", ".")
    table.type("1234M")
    assert "PIN locked" in table.shown
    clock[0] += 31
    table.keys("FN", ".")
    table.type("1234M")
    assert "New PIN" in table.shown


def test_changing_the_pin_on_the_device_needs_the_old_one_and_two_matching_entries(table):
    table.keys("FN", ".")
    table.type("1234M")
    table.type("4321M")
    assert "PINs differ" in table.shown
    assert table.ledger.game().pin_hash is None


def test_cli_protections(db):
    play(db, GAME)
    banker(db, "pin", "set", "--new", "2468")
    for args in (["cards", "enrol", "Cleo"], ["cards", "rename", "Bob", "Rob"], ["cards", "remove", "Bob"],
                 ["game", "restore", "1"], ["game", "new", "--start", "20M"], ["pin", "set", "--new", "1111"]):
        result = banker(db, *args)
        assert result.exit_code == 4, args
        assert "PIN" in result.output
    assert banker(db, "cards", "enrol", "Cleo", "--pin", "2468").exit_code == 0
    assert banker(db, "game", "new").exit_code == 0  # same settings: like holding C


# -- backups and bad databases --------------------------------------------------------------


def test_a_backup_is_taken_at_each_new_game_and_can_be_brought_back(db):
    play(db, GAME)
    play(db, "hold C 3\n")
    listing = banker(db, "game", "backups").output
    assert "new-game" in listing
    play(db, "insert left Alice\npress 9 M\n")
    db.write_bytes(b"scrambled" * 1000)
    for suffix in ("-wal", "-shm"):
        (db.parent / (db.name + suffix)).unlink(missing_ok=True)
    broken = banker(db, "cards", "list")
    assert broken.exit_code == 3
    assert "corrupt" in broken.output and "game restore --backup latest" in broken.output
    restored = banker(db, "game", "restore", "--backup", "latest")
    assert restored.exit_code == 0, restored.output
    assert "Alice" in banker(db, "cards", "list").output
    assert banker(db, "ledger", "verify").exit_code == 0


def test_backups_rotate(tmp_path):
    from store import list_backups

    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        for _ in range(8):
            ledger.new_game()
            ledger.maintain()
            ledger.store.backups.wait()
    assert len(list_backups(path)) == 5


def test_interval_backups(tmp_path):
    from store import list_backups

    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backup_interval=0) as ledger:
        ledger.enrol("Alice", "A1")
        ledger.set_setting("x", "1")
        table = Table(ledger)
        table.insert("left", "Alice")
        table.wait(2.5)  # backups start once the table is quiet: the new game's first
        table.type("1M")
        table.wait(2.5)  # then the interval's, of the payment
    assert any("interval" in p.name for p in list_backups(path))


def test_a_full_disk_during_a_commit_shows_not_saved_and_loses_nothing(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as ledger:
        table = Table(ledger)
        table.enrol("Alice", "A1")
        pages = ledger.store._conn.execute("PRAGMA page_count").fetchone()[0]
        ledger.store._conn.execute(f"PRAGMA max_page_count = {pages}")
        table.insert("left", "Alice")
        for _ in range(200):  # fill the last page, then one more
            table.type("1K")
            if "NOT SAVED" in table.shown:
                break
        assert "NOT SAVED" in table.shown
        committed = ledger.game().balances_by_name()["Alice"]
        ledger.check()
    with SqliteLedger(path) as ledger:
        assert ledger.game().balances_by_name()["Alice"] == committed


def test_a_locked_database_at_start_up_is_a_clear_message(db):
    play(db, GAME)
    blocker = sqlite3.connect(db)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        result = banker(db, "cards", "enrol", "Cleo")
    finally:
        blocker.rollback()
        blocker.close()
    assert result.exit_code in (1, 3) and "locked" in result.output


def test_undoing_an_older_build_that_would_leave_a_group_uneven_is_refused(db):
    play(db, "enrol Alice A1\n"
             "press FN 3 7\ninsert right Alice\npress M\nremove right\n"
             "press FN 3 9\ninsert right Alice\npress M\nremove right\n"
             "press FN 3 7\ninsert right Alice\npress 1\nremove right\n"
             "press FN 3 9\ninsert right Alice\npress 1 1\nremove right\n"
             "expect houses park-place 1\nexpect houses boardwalk 2\n")
    journal = banker(db, "ledger", "export", "--format", "json").output
    import json

    park_house = [row["id"] for row in json.loads(journal) if row["kind"] == "build"][0]
    result = banker(db, "ledger", "undo", str(park_house))
    assert result.exit_code == 1 and "unevenly built" in result.output
    assert banker(db, "ledger", "undo").exit_code == 0  # the last build: fine
    assert banker(db, "ledger", "verify").exit_code == 0


def test_a_second_program_cannot_write_while_the_unit_runs(db):
    from store import LedgerInUse

    play(db, GAME)
    with SqliteLedger(db) as running_unit:
        with pytest.raises(LedgerInUse, match="in use by a running unit"):
            SqliteLedger(db)
        result = banker(db, "ledger", "undo")
        assert result.exit_code == 3 and "in use by a running unit" in result.output
        assert banker(db, "ledger", "verify").exit_code == 0  # reading is fine
        assert "Alice" in banker(db, "cards", "list").output
        running_unit.check()


def test_restoring_a_backup_keeps_what_was_only_in_the_write_ahead_log(db, tmp_path):
    """After a power cut the last commits may sit only in the -wal file: the kept copy has them."""
    import subprocess
    import sys

    play(db, GAME)
    play(db, "hold C 3\n")  # a backup of the game so far
    child = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
from runtime.ledger import SqliteLedger
from runtime.script_shell import CoreBackend
ledger = SqliteLedger({str(db)!r}, backups=False)
t = CoreBackend(ledger)
t.insert("left", "Alice")
for key in "7M":
    t.press(key)
os._exit(0)  # the power goes: no checkpoint, the commit lives in the WAL
"""
    subprocess.run([sys.executable, "-c", child], check=True)
    result = banker(db, "game", "restore", "--backup", "latest")
    assert result.exit_code == 0, result.output
    kept = result.output.split("kept in ")[1].strip()
    with SqliteLedger(kept, backups=False) as copy:
        assert copy.game().balances_by_name()["Alice"] == 22_000_000


def test_a_backup_that_is_not_a_ledger_is_refused_and_the_pin_of_the_current_ledger_counts(db, tmp_path):
    play(db, GAME)
    banker(db, "pin", "set", "--new", "2468")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    result = banker(db, "game", "restore", "--backup", empty)
    assert result.exit_code == 3 and "not a banker ledger" in result.output
    play(db, "hold C 3\n")
    result = banker(db, "game", "restore", "--backup", "latest")
    assert result.exit_code == 4
    assert banker(db, "game", "restore", "--backup", "latest", "--pin", "2468").exit_code == 0


def test_wrong_pins_given_to_restore_a_backup_count_towards_the_lockout(db):
    play(db, GAME)
    banker(db, "pin", "set", "--new", "2468")
    play(db, "hold C 3\n")  # a new game: the script's clean stop takes a backup to restore
    for _ in range(3):
        assert banker(db, "game", "restore", "--backup", "latest", "--pin", "1111").exit_code == 4
    locked = banker(db, "game", "restore", "--backup", "latest", "--pin", "2468")
    assert locked.exit_code == 4 and "locked" in locked.output
