"""The store: what is appended comes back equal and stays, a failed append writes nothing, tampering shows."""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import stat
from dataclasses import replace

import pytest

from banker.errors import CorruptLedger, LedgerError
from banker.fold.game import apply, replay
from banker.journal.records import (BANK, Card, DeedTag, Enrolment, GameRestored, GameSettings, JailCardChange, NewGame,
                            OwnerChange, PinChange, Posting, Removal, Rename, Setting, Transaction)
from cards import load_edition
from firmware_sim.memory_store import MemoryStore
from store import KEEP, GameRow, LedgerInUse, SqliteStore, list_backups
from store.codec import canonical, decode, encode
from store.journal import Row, decode_row

EDITIONS = {"us": load_edition("us")}


def ticking(start: float = 1_700_000_000.0):
    """A wall clock that moves 7 seconds at each reading."""
    ticks = itertools.count(1)
    return lambda: start + 7.0 * next(ticks)


def opening(game, card_id: int, name: str, *, offset: int = 0, game_id: int | None = None, verb: str = "joins"):
    tx = game.numbered(Transaction("opening", (Posting(BANK, card_id, game.settings.start_balance, "opening"),),
                                   f"{name} {verb}"), offset)
    return tx if game_id is None else replace(tx, game=game_id)


def an_evening():
    """One of every kind of record, as the core would build them (each one fits the game before it)."""
    game = replay([], editions=EDITIONS)
    records = []

    def add(record):
        nonlocal game
        game = apply(game, record)
        records.append(record)

    add(NewGame(1, GameSettings()))
    add(Enrolment(Card(game.next_card, "A1", "Alice"), opening(game, 1, "Alice")))
    add(Enrolment(Card(game.next_card, "B2", "Bob"), opening(game, 2, "Bob")))
    add(game.numbered(Transaction("buy", (Posting(1, BANK, 600_000, "buy"),), "Bought Medit. Ave",
                                  changes=(OwnerChange("mediterranean-avenue", None, 1),))))
    add(game.numbered(Transaction("transfer", (Posting(2, 1, 2_000_000, "transfer"),), "Bob paid Alice")))
    add(game.numbered(Transaction("undo", (Posting(1, 2, 2_000_000, "transfer"),), "Undo #4 Bob paid Alice",
                                  reverses=4)))
    add(DeedTag("DEED0039", "boardwalk"))
    add(Setting("volume", "3"))
    add(PinChange("00ff$abcd"))
    add(Rename(2, "Bobby"))
    add(Enrolment(Card(game.next_card, "C3", "Cleo"), opening(game, 3, "Cleo")))
    add(Removal(3))
    first = game.checkpoint()
    short = GameSettings(houses_for_hotel=3, luxury_tax=750_000, allow_negative=True)
    add(NewGame(2, short, (opening(game, 1, "Alice", verb="starts", game_id=2),
                           replace(opening(game, 2, "Bobby", offset=1, verb="starts"), game=2))))
    add(game.numbered(Transaction("collect", (Posting(BANK, 1, 500_000, "collect"),), "Get out of jail free",
                                  changes=(JailCardChange(None, 1),))))
    add(GameRestored(first))
    add(game.numbered(Transaction("go", (Posting(BANK, 2, 2_000_000, "go"),), "Passed GO")))
    return records


STORES = {
    "memory": lambda tmp_path, clock: MemoryStore(clock=clock),
    "sqlite-memory": lambda tmp_path, clock: SqliteStore(":memory:", clock=clock),
    "sqlite-file": lambda tmp_path, clock: SqliteStore(tmp_path / "ledger.db", clock=clock, backups=False),
}


@pytest.fixture(params=sorted(STORES))
def make_store(request, tmp_path):
    opened = []

    def make():
        store = STORES[request.param](tmp_path, ticking())
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


# -- what goes in comes back ------------------------------------------------------------------


def test_every_kind_of_record_comes_back_equal_with_its_time(make_store):
    store = make_store()
    written = [store.append(record) for record in an_evening()]
    assert list(store.records()) == written
    assert {type(r).__name__ for r in written} == {"NewGame", "Enrolment", "Transaction", "DeedTag", "Setting",
                                                   "PinChange", "Rename", "Removal", "GameRestored"}
    enrolment = written[1]
    assert enrolment.time == enrolment.opening.time == 1_700_000_014.0
    assert all(o.time == written[12].time for o in written[12].openings)
    buy = next(store.records(3))
    assert buy.changes == (OwnerChange("mediterranean-avenue", None, 1),) and isinstance(buy.postings, tuple)
    assert store.last_seq() == len(written) and not store.is_empty()
    assert list(store.records(since=10)) == written[10:] and list(store.records(since=len(written))) == []


def test_the_questions_about_games_cards_and_transactions(make_store):
    store = make_store()
    written = [store.append(record) for record in an_evening()]
    assert store.games() == [GameRow(1, GameSettings(), written[0].time, 7),
                             GameRow(2, written[12].settings, written[12].time, 3)]
    assert store.card_names() == {1: "Alice", 2: "Bobby", 3: "Cleo"}
    assert [tx.id for tx in store.game_transactions(1)] == [1, 2, 3, 4, 5, 6, 10]
    assert [tx.memo for tx in store.game_transactions(2)] == ["Alice starts", "Bobby starts", "Get out of jail free"]
    assert store.transaction(8) == written[12].openings[1]  # inside a new game's openings
    assert store.transaction(2) == written[2].opening
    assert store.transaction(5) == written[5] and store.transaction(5).reverses == 4
    assert store.transaction(99) is None
    assert store.verify().ok
    game = replay(store.records(), editions=EDITIONS)
    assert game == replay(written, editions=EDITIONS) and game.id == 1
    assert {c.name: game.balance(c.id) for c in game.cards} == {"Alice": 14_400_000, "Bobby": 17_000_000}


def test_an_empty_store(make_store):
    store = make_store()
    assert store.is_empty() and store.last_seq() == 0 and store.head() == ""
    assert list(store.records()) == [] and store.games() == [] and store.verify().ok


def test_the_memory_store_and_the_sqlite_store_agree(tmp_path):
    stores = [MemoryStore(clock=ticking()), SqliteStore(tmp_path / "ledger.db", clock=ticking(), backups=False)]
    for record in an_evening():
        assert len({repr(s.append(record)) for s in stores}) == 1
    memory, sqlite = stores
    assert list(memory.records()) == list(sqlite.records())
    assert memory.last_seq() == sqlite.last_seq()  # the heads differ: each store keys its chain with its own key
    assert memory.games() == sqlite.games() and memory.card_names() == sqlite.card_names()
    assert memory.game_transactions(1) == sqlite.game_transactions(1)
    assert memory.verify() == sqlite.verify()
    sqlite.close()


def test_each_record_has_one_body_text_and_reads_back_from_it():
    for seq, record in enumerate(an_evening(), start=1):
        record = replace(record, time=123.5)
        kind, body = encode(record)
        assert decode(kind, body, seq=seq, time=123.5) == record
        assert encode(decode(kind, body, seq=seq, time=123.5)) == (kind, body)
        assert body == canonical(json.loads(body))


@pytest.mark.parametrize("kind, body, reason", [
    ("payday", "{}", "unknown kind 'payday'"),
    ("rename", "{not json", "\\(rename\\) cannot be read"),
    ("rename", '{"card_id":"3","name":"Cleo"}', "expected a whole number"),
    ("remove", '{"card_id":3,"extra":1}', "unexpected"),
    ("tx", '{"kind":"pay","postings":[[1,null,0,"pay"]],"memo":"","reverses":null,"changes":[],"id":1,"game":1}',
     "positive"),
    ("new-game", '{"game":2,"settings":{"colour":"red"},"openings":[]}', "cannot be read"),
    ("tx", '{"kind":"buy","postings":[],"memo":"","reverses":null,"changes":[["hotels","boardwalk",0,1]],"id":1,'
           '"game":1}', "not a known change"),
    ("tx", '{"kind":"buy","postings":[],"memo":"","reverses":null,"changes":[["mortgaged","boardwalk",0,1]],"id":1,'
           '"game":1}', "expected true or false"),
    ("tx", '{"kind":"buy","postings":[],"memo":"","reverses":null,"changes":[["owner","boardwalk",null]],"id":1,'
           '"game":1}', "expected 3 values"),
])
def test_an_unreadable_body_is_a_corrupt_ledger_naming_its_entry(kind, body, reason):
    with pytest.raises(CorruptLedger, match=reason) as caught:
        decode(kind, body, seq=9, time=1.0)
    assert str(caught.value).startswith("journal entry 9")


# -- durable, or nothing written ----------------------------------------------------------------


def test_what_is_appended_is_there_after_reopening(tmp_path):
    path = tmp_path / "games" / "ledger.db"
    with SqliteStore(path, clock=ticking(), backups=False) as store:
        written = [store.append(record) for record in an_evening()]
        head = store.head()
    with SqliteStore(path, writer=False) as store:
        assert list(store.records()) == written and store.head() == head
        assert store.verify().ok


def test_a_refused_append_in_memory_writes_nothing(tmp_path):
    store = MemoryStore(clock=ticking())
    records = an_evening()
    store.append(records[0])
    head = store.head()
    store.fail_next()
    with pytest.raises(LedgerError, match="the disk is full"):
        store.append(records[1])
    assert store.last_seq() == 1 and store.head() == head and store.failures == ["the disk is full"]
    store.append(records[1])
    store.fail_always("I/O error")
    for _ in range(2):
        with pytest.raises(LedgerError, match="I/O error"):
            store.append(records[2])
    store.heal()
    store.append(records[2])
    assert [r.card.name for r in list(store.records())[1:]] == ["Alice", "Bob"] and store.verify().ok
    assert store.backup_error is None and store.path == ":memory:"


@pytest.mark.parametrize("implementation", ["store.SqliteStore", "firmware_sim.memory_store.MemoryStore"])
def test_both_stores_are_the_store_port_whole(implementation):
    """Every member of banker.ports.Store (its own and the reading side's it extends, banker.fold.opening's), with
    the same parameters, on the SQLite store and on the fake."""
    import importlib
    import inspect

    from banker.ports import Store

    module, _, name = implementation.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    sides = [c for c in Store.__mro__ if c.__module__.startswith("banker.")]
    members = {m for side in sides for m in [*vars(side), *getattr(side, "__annotations__", {})] if not m.startswith("_")}
    assert len(sides) == 3 and len(members) == 21  # Store, and the reading side it extends (GameJournal, Journal)
    with cls() as store:                                  # a throw-away store of each kind
        for member in members:
            assert hasattr(store, member), member
            port = next((vars(side)[member] for side in sides if member in vars(side)), None)
            if inspect.isfunction(port):
                want = list(inspect.signature(port).parameters)
                assert list(inspect.signature(getattr(cls, member)).parameters)[:len(want)] == want, member


def test_a_full_disk_writes_nothing_and_says_so(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, clock=ticking(), backups=False) as store:
        records = an_evening()
        store.append(records[0])
        head = store.head()
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(LedgerError, match="the disk is full: cannot write to"):
            store.append(Setting("note", "x" * 50_000))
        assert store.last_seq() == 1 and store.head() == head
        store._conn.execute(f"PRAGMA max_page_count = {pages + 1000}")
        store.append(records[1])
    with SqliteStore(path, writer=False) as store:
        assert [type(r).__name__ for r in store.records()] == ["NewGame", "Enrolment"]
        assert store.verify().ok


def test_an_append_whose_file_is_gone_raises_and_writes_nothing(tmp_path):
    path = tmp_path / "ledger.db"
    store = SqliteStore(path, clock=ticking(), backups=False)
    store.append(an_evening()[0])
    store._conn.close()  # the connection goes away underneath (a USB disk pulled)
    with pytest.raises(LedgerError, match="cannot write to"):
        store.append(Setting("volume", "1"))
    store.close()
    with SqliteStore(path, writer=False) as again:
        assert again.last_seq() == 1 and again.verify().ok


def test_a_locked_file_is_a_clear_message_and_nothing_is_written(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, clock=ticking(), backups=False) as store:
        store.append(an_evening()[0])
        store._conn.execute("PRAGMA busy_timeout = 20")
        other = sqlite3.connect(path)
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(LedgerError, match="locked"):
            store.append(Setting("volume", "1"))
        other.rollback()
        other.close()
        assert store.last_seq() == 1 and store.verify().ok


# -- tampering ----------------------------------------------------------------------------------


def a_ledger(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, clock=ticking(), backups=False) as store:
        for record in an_evening():
            store.append(record)
    return path


def tamper(path, *statements):
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def problems(path) -> list[str]:
    with SqliteStore(path, writer=False) as store:
        return [str(p) for p in store.verify().problems]


EDITED = "edited: its hash does not match its contents, the row before it and the ledger's key"


@pytest.mark.parametrize("statements, problem", [
    (["UPDATE journal SET body = replace(body, '2000000', '200000') WHERE tx = 5"], f"#5: {EDITED}"),
    (["UPDATE journal SET body = replace(body, 'Bobby', 'Boss') WHERE kind = 'rename'"],
     f"journal entry 10 (rename) {EDITED}"),
    (["UPDATE journal SET tx = 77 WHERE tx = 5"], f"#77: {EDITED}"),
    (["DELETE FROM journal WHERE tx = 4"], "journal entries 5-5 are missing (deleted)"),
    (["DELETE FROM journal WHERE tx = 4"], "#5: transactions #4-#4 are missing (deleted)"),
    (["DELETE FROM journal WHERE seq = (SELECT max(seq) FROM journal)"],
     "the journal's entries after 15 are gone: it held 16 at its last anchor (a lost write-ahead log, or a "
     "deleted tail)"),
    (["UPDATE journal SET mark = NULL WHERE kind = 'new-game'"],
     "the index of game starts differs from the journal (edited)"),
], ids=["edited-tx", "edited-rename", "edited-column", "deleted-row", "deleted-tx", "deleted-last", "index"])
def test_verify_finds_what_was_edited_or_deleted(tmp_path, statements, problem):
    path = a_ledger(tmp_path)
    tamper(path, *statements)
    assert problem in problems(path)


def rechain(path, change, hasher):
    """Rewrite the records with ``change`` and every hash after it with ``hasher(previous, row)``."""
    conn = sqlite3.connect(path)
    rows = [Row(*r) for r in conn.execute("SELECT seq, game, tx, time, kind, body, hash FROM journal ORDER BY seq")]
    previous = ""
    for row in rows:
        record = change(row, decode_row(row))
        kind, body = encode(record)
        digest = hasher(previous, row._replace(body=body))
        conn.execute("UPDATE journal SET body = ?, hash = ? WHERE seq = ?", (body, digest, row.seq))
        previous = digest
    conn.commit()
    conn.close()


def richer_bob(row, record):
    return replace(record, postings=(Posting(2, 1, 20_000_000, "transfer"),)) if row.tx == 4 else record


def test_a_chain_rebuilt_without_the_key_is_found_out(tmp_path):
    """The public, unkeyed hash (or any other key) can't forge the chain: every row after the edit is flagged."""
    from store.codec import chain_hash, keyed_hash

    for hasher in (lambda prev, r: chain_hash(prev, r.seq, r.game, r.tx, r.time, r.kind, r.body),
                   lambda prev, r: keyed_hash(b"x" * 32, prev, r.seq, r.game, r.tx, r.time, r.kind, r.body)):
        path = a_ledger(tmp_path)
        rechain(path, richer_bob, hasher)
        found = problems(path)
        assert len([p for p in found if p.endswith(EDITED)]) == len(an_evening())  # every row, the first too
        path.unlink()


def test_whoever_holds_the_key_can_forge_but_the_content_still_tells(tmp_path):
    """The key's holder can rebuild the chain; a balance below zero and a false restore still show."""
    from store.codec import keyed_hash

    path = a_ledger(tmp_path)
    with SqliteStore(path, writer=False) as store:
        key = store.key
    rechain(path, richer_bob, lambda prev, r: keyed_hash(key, prev, r.seq, r.game, r.tx, r.time, r.kind, r.body))
    found = problems(path)
    assert not any("edited" in p for p in found)
    assert "#4: takes card 2 below zero in a game without negative balances" in found
    assert any("restores game 1 with balances that differ from its journal" in p for p in found)


def test_verify_finds_an_unreadable_row_and_reading_it_names_it(tmp_path):
    path = a_ledger(tmp_path)
    tamper(path, "UPDATE journal SET body = '{broken' WHERE seq = 8")
    assert any(p.startswith("journal entry 8 (setting) unreadable") for p in problems(path))
    with SqliteStore(path, writer=False) as store:
        with pytest.raises(CorruptLedger, match="journal entry 8 \\(setting\\) cannot be read"):
            list(store.records())


# -- the file -----------------------------------------------------------------------------------


def test_a_second_writer_is_refused_while_readers_are_fine(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, clock=ticking(), backups=False) as unit:
        unit.append(an_evening()[0])
        with pytest.raises(LedgerInUse, match="in use by a running unit"):
            SqliteStore(path)
        with SqliteStore(path, writer=False) as reader:
            assert reader.last_seq() == 1
            with pytest.raises(LedgerError, match="open for reading only"):
                reader.append(Setting("volume", "1"))
    with SqliteStore(path, backups=False) as next_unit:
        assert next_unit.last_seq() == 1


def test_new_files_are_private(tmp_path):
    path = tmp_path / "private" / "ledger.db"
    SqliteStore(path).close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700


@pytest.mark.parametrize("spoil, message", [
    (lambda path: path.write_bytes(b"this is not a database at all" * 100), "corrupt or not a banker ledger"),
    (lambda path: tamper(path, "CREATE TABLE notes (x)"), "not a banker ledger"),
    (lambda path: tamper(a_ledger(path.parent), "UPDATE meta SET value = '4' WHERE key = 'schema'"),
     "has ledger schema 4; this banker reads 3"),
], ids=["junk", "another-database", "newer-schema"])
def test_a_file_that_is_not_a_ledger_this_banker_reads_is_refused_clearly(tmp_path, spoil, message):
    path = tmp_path / "ledger.db"
    spoil(path)
    with pytest.raises(CorruptLedger, match=message):
        SqliteStore(path)


# -- backups ------------------------------------------------------------------------------------


def test_a_backup_follows_each_new_game_off_the_commit_and_they_rotate(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, clock=ticking()) as store:
        store.append(NewGame(1, GameSettings()))
        assert list_backups(path) == []  # the commit wrote its row and nothing else
        store.maintain()
        store.backups.wait()
        assert [p.name.endswith("-new-game.db") for p in list_backups(path)] == [True]
        with SqliteStore(list_backups(path)[0], writer=False, backups=False) as copy:
            assert copy.last_seq() == 1 and copy.verify().ok
        for game in range(2, 9):
            store.append(NewGame(game, GameSettings()))
            store.maintain()
            store.backups.wait()
        assert len(list_backups(path)) == KEEP and store.backups.list() == list_backups(path)


def test_interval_backups_follow_other_records(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteStore(path, clock=ticking(), backup_interval=0) as store:
        store.append(Setting("volume", "1"))
        store.maintain()
    assert [p.name.endswith("-interval.db") for p in list_backups(path)] == [True]


def test_a_backup_cut_short_leaves_no_file_and_a_damaged_one_is_never_latest(tmp_path, monkeypatch):
    from store import latest_good_backup
    from store.backups import backup_folder, make_backup

    path = a_ledger(tmp_path)
    good = make_backup(path, path, "interval")
    later = make_backup(path, path, "interval")
    later.write_bytes(later.read_bytes()[:3000])  # a copy torn by a crash, under a backup's name
    assert list_backups(path)[0] == later and latest_good_backup(path) == good
    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)  # the disk fills as the copy is flushed
    with pytest.raises(OSError):
        make_backup(path, path, "interval")
    monkeypatch.undo()
    assert latest_good_backup(path) == good and len(list_backups(path)) == 2
    assert not [p for p in backup_folder(path).iterdir() if "partial" in p.name]


def test_restore_replaces_the_ledger_by_rename_and_keeps_it_first(tmp_path):
    from store import restore_backup
    from store.backups import make_backup

    path = a_ledger(tmp_path)
    backup = make_backup(path, path, "interval")
    with SqliteStore(path, backups=False) as store:
        store.append(Setting("volume", "0"))
        after = store.last_seq()
    inode = os.stat(path).st_ino
    kept = restore_backup(backup, path)
    assert os.stat(path).st_ino != inode  # a new file renamed into place, not copied over the old one
    with SqliteStore(kept, writer=False, backups=False) as before:
        assert before.last_seq() == after
    with SqliteStore(path, backups=False) as store:
        assert store.last_seq() == after - 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_failed_backup_is_noted_and_the_record_still_written(tmp_path):
    path = tmp_path / "ledger.db"
    (tmp_path / "backups").write_text("a file where the backups folder would go")
    with SqliteStore(path, clock=ticking()) as store:
        store.append(NewGame(1, GameSettings()))
        store.maintain()
        store.backups.wait()
        assert store.backup_error.startswith("backup failed") and store.last_seq() == 1
