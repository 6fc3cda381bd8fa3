"""A restore onto a new card, where the old PIN can't be checked: it says why and asks for the new PIN twice."""

from __future__ import annotations

import shutil

import pytest

from store.keys import KEY_ENV
from tests.cli.support import PIN, a_ledger, banker

WHY = "the ledger's key is not on this unit: the PIN you type becomes the banker's PIN"


@pytest.fixture
def old_card(tmp_path, monkeypatch):
    """A backup of a ledger with the banker's PIN, and a new card (its own keys folder) with no ledger yet."""
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    backup = tmp_path / "copied-backup.db"
    shutil.copyfile(a_ledger(tmp_path, pin=PIN), backup)
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "new-keys"))
    (tmp_path / "card").mkdir()
    return backup, tmp_path / "card" / "ledger.db"


def _enrols_with(db, pin: str) -> int:
    return banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", pin, "--db", db).exit_code


def test_without_pin_it_says_why_and_asks_twice(old_card):
    backup, db = old_card
    result = banker("game", "restore", "--backup", backup, "--db", db, input="1357\n1357\n")
    assert result.exit_code == 0, result.output
    assert WHY in result.stderr
    assert "New banker PIN" in result.stderr and "The same PIN again" in result.stderr
    assert "1357" not in result.output  # hidden
    assert _enrols_with(db, PIN) == 4  # the old PIN is gone: the one typed twice is the banker's now
    assert _enrols_with(db, "1357") == 0


def test_a_typo_in_the_second_try_is_asked_again_never_taken(old_card):
    backup, db = old_card
    result = banker("game", "restore", "--backup", backup, "--db", db, input="1357\n1375\n2468\n2468\n")
    assert result.exit_code == 0, result.output
    assert "do not match" in result.stderr
    assert _enrols_with(db, "1357") == 4 and _enrols_with(db, "1375") == 4
    assert _enrols_with(db, "2468") == 0


def test_no_pin_typed_changes_nothing(old_card, tmp_path):
    backup, db = old_card
    result = banker("game", "restore", "--backup", backup, "--db", db, input="1357\n")  # input ends
    assert result.exit_code == 4
    assert "no PIN typed: nothing was changed" in result.stderr
    assert not db.exists() and not list((tmp_path / "new-keys").glob("*.key"))


def test_a_pin_the_keypad_cant_type_is_refused(old_card):
    backup, db = old_card
    result = banker("game", "restore", "--backup", backup, "--db", db, input="13a7\n13a7\n")
    assert result.exit_code == 2
    assert "4 to 8 digits" in result.stderr and not db.exists()


def test_pin_given_still_works_and_says_the_same(old_card):
    backup, db = old_card
    result = banker("game", "restore", "--backup", backup, "--pin", "1357", "--db", db)
    assert result.exit_code == 0, result.output
    assert f"{WHY} (as --pin gave it)" in result.stderr
    assert _enrols_with(db, "1357") == 0


def test_a_restore_whose_pin_is_checked_asks_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "keys"))
    db = a_ledger(tmp_path, pin=PIN)
    assert banker("game", "new", "--db", db).exit_code == 0  # a backup at the new game
    backup = sorted((tmp_path / "backups").glob("*.db"))[-1]
    result = banker("game", "restore", "--backup", backup, "--pin", PIN, "--db", db)
    assert result.exit_code == 0, result.output
    assert WHY not in result.output
    wrong = banker("game", "restore", "--backup", backup, "--pin", "9999", "--db", db)
    assert wrong.exit_code == 4 and WHY not in wrong.output


def test_the_docs_say_the_same():
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    for page in ("cli.md", "security.md"):
        text = " ".join((docs / page).read_text().split())
        assert WHY in text, page
