"""Opening a ledger trusts nothing unchecked: the journal against its anchor and key, old files only when asked."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from banker.audit.checks import audit_records
from banker.fold.authority import WrongPin, hash_pin
from banker.journal.records import JournalAccepted, Posting, Transaction
from runtime.ledger import SqliteLedger
from store import Keyring, SqliteStore
from store.keys import DAMAGED, parse_anchor
from store.trust import OldLedger, UntrustedJournal

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PIN = "2468"


def pay(ledger, amount=5_000_000):
    alice, bob = (ledger.game().card_by_name(n) for n in ("Alice", "Bob"))
    ledger.post(Transaction("transfer", (Posting(bob.id, alice.id, amount, "transfer"),), "Bob paid Alice"))


def a_game(path: Path) -> Path:
    with SqliteLedger(path, backups=False) as ledger:
        ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
        ledger.set_setting("banker_pin", hash_pin(PIN, b"salt-of-16-bytes"))
    return path


def anchor_file(path: Path) -> Path:
    with SqliteStore(path, writer=False) as store:
        return Keyring().folder / f"{store.ledger_id}.anchor"


def rolled_back(tmp_path: Path) -> Path:
    """Copy the ledger, pay 5M, put the old copy back."""
    path = a_game(tmp_path / "ledger.db")
    shutil.copyfile(path, tmp_path / "copy.db")
    with SqliteLedger(path, backups=False) as ledger:
        pay(ledger)
    shutil.copyfile(tmp_path / "copy.db", path)
    return path


def test_a_rolled_back_journal_is_refused_by_a_writer_and_no_anchor_is_written_over_it(tmp_path):
    path = rolled_back(tmp_path)
    anchored = anchor_file(path).read_bytes()
    with pytest.raises(UntrustedJournal, match="behind its anchor.*ledger accept"):
        SqliteLedger(path, backups=False)
    assert anchor_file(path).read_bytes() == anchored
    with SqliteLedger(path, writer=False, backups=False) as reader:  # readers still open it, verify names it
        assert any("are gone" in str(p) for p in reader.verify().problems)


def test_a_cut_tail_and_a_swapped_entry_are_refused(tmp_path):
    path = a_game(tmp_path / "ledger.db")
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM journal WHERE seq = (SELECT max(seq) FROM journal)")
    conn.commit()
    conn.close()
    with pytest.raises(UntrustedJournal, match="behind its anchor"):
        SqliteLedger(path, backups=False)
    other = a_game(tmp_path / "other.db")  # the same length, another journal
    with SqliteStore(path, writer=False) as store:
        ledger_id = store.ledger_id
    Keyring().set_anchor(ledger_id, *_head(other))
    with pytest.raises(UntrustedJournal):
        SqliteLedger(path, backups=False)


def _head(path: Path) -> tuple[int, str]:
    with SqliteStore(path, writer=False) as store:
        return store.last_seq(), store.head()


def test_under_another_ledgers_key_nothing_is_written_and_it_cannot_be_accepted(tmp_path):
    path = a_game(tmp_path / "ledger.db")
    with SqliteStore(path, writer=False) as store:
        key = Keyring().folder / f"{store.ledger_id}.key"
    key.write_text("ab" * 32 + "\n")
    for accept in (False, True):
        with pytest.raises(UntrustedJournal, match="does not verify under the key.*own key"):
            SqliteLedger(path, backups=False, accept=accept)


def test_the_banker_accepts_the_journal_with_the_pin_and_verify_says_so_for_ever(tmp_path):
    path = rolled_back(tmp_path)
    with SqliteLedger(path, backups=False, accept=True) as ledger:
        with pytest.raises(WrongPin):
            ledger.accept_journal(ledger_grant("1111"))
        with pytest.raises(UntrustedJournal):
            pay(ledger)  # nothing but the acceptance is written meanwhile
        accepted = ledger.accept_journal(ledger_grant(PIN))
        assert isinstance(accepted, JournalAccepted) and accepted.anchored_seq > 0
        pay(ledger)
    with SqliteLedger(path, backups=False) as ledger:  # anchored after it: a writer opens again
        pay(ledger)
        audit = ledger.verify()
    assert audit.ok, audit.problems
    assert any("the banker accepted the journal as it stood" in n for n in audit.notices)


def ledger_grant(pin):
    from banker.fold.authority import Grant

    return Grant(pin, "cli")


# -- downgrade and the explicit upgrade --------------------------------------------------------


def test_a_first_release_file_where_a_keyed_ledger_was_is_refused_by_every_command(tmp_path):
    path = a_game(tmp_path / "ledger.db")
    with SqliteStore(path, writer=False) as store:
        was = store.ledger_id
    shutil.copyfile(FIXTURES / "ledger-v1.db", path)
    for options in ({"writer": False}, {}, {"upgrade": True}):
        with pytest.raises(UntrustedJournal, match=f"schema 1.*{was}"):
            SqliteStore(path, backups=False, **options)
    assert sqlite3.connect(path).execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "1"


def test_a_genuine_first_release_ledger_plays_on_after_the_upgrade_and_verify_names_its_old_rows(tmp_path):
    path = tmp_path / "ledger.db"
    shutil.copyfile(FIXTURES / "ledger-v1.db", path)
    with pytest.raises(OldLedger, match="banker ledger upgrade"):
        SqliteLedger(path, writer=False, backups=False)
    SqliteLedger(path, backups=False, upgrade=True).close()
    with SqliteLedger(path, backups=False) as ledger:
        pay(ledger, 1_000_000)
        audit = ledger.verify()
    assert audit.ok, audit.problems
    assert any("entries 1-27 rest on the unkeyed chain" in n for n in audit.notices)
    assert json.loads((Keyring().folder / "ledgers.json").read_text())[str(path.resolve())]


def test_an_opening_that_differs_from_the_start_balance_is_flagged():
    from banker.fold import acts
    from banker.fold.game import apply, replay
    from cards import editions

    game = replay((), editions=editions())
    start = acts.new_game(game, None)
    game = apply(game, start)
    join = acts.enrolment(game, "Mallory", "0A0B0C0D")
    forged = type(join)(join.card, type(join.opening)(**{**join.opening.__dict__, "postings": (
        Posting(None, join.card.id, 900_000_000, "opening"),)}))
    audit = audit_records([(1, start), (2, forged)], editions=editions())
    assert any("opens with 900M, but the game's start balance is 15M" in str(p) for p in audit.problems)


# -- the anchor's numbers ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ['{"seq": 1e400, "hash": ""}', '{"seq": -3, "hash": ""}',
                                  '{"seq": 99999999999999999999999, "hash": ""}', '{"seq": 2, "hash": "zz"}',
                                  '{"seq": true, "hash": ""}', '{"seq": NaN, "hash": ""}', '[1, 2]', "[" * 100_000,
                                  '{"seq": 2, "hash": "' + "A" * 64 + '"}', "\xff"])
def test_a_damaged_anchor_is_said_to_be_damaged_never_a_crash(tmp_path, text):
    assert parse_anchor(text) == DAMAGED
    path = a_game(tmp_path / "ledger.db")
    anchor_file(path).write_bytes(text.encode("latin-1"))
    with SqliteLedger(path, writer=False, backups=False) as reader:
        assert any("anchor" in str(p) and "damaged" in str(p) for p in reader.verify().problems)
    with pytest.raises(UntrustedJournal, match="damaged"):
        SqliteLedger(path, backups=False)
