"""The banker command: cards, games and the ledger from a terminal; bad input exits non-zero."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from banker_cli.main import cli


@pytest.fixture
def banker(tmp_path):
    db = tmp_path / "ledger.db"

    def run(*args, input=None):
        return CliRunner().invoke(cli, [*map(str, args), "--db", str(db)], input=input)

    return run


def test_every_command_has_help():
    for args in (["--help"], ["script", "--help"], ["cards", "list", "--help"], ["cards", "enrol", "--help"],
                 ["cards", "rename", "--help"], ["cards", "remove", "--help"], ["game", "list", "--help"],
                 ["game", "new", "--help"], ["game", "restore", "--help"], ["ledger", "show", "--help"],
                 ["ledger", "export", "--help"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0 and "Usage" in result.output


def test_cards_enrol_list_rename_remove(banker):
    assert banker("cards", "enrol", "Alice", "--uid", "04:A1:B2:C3").exit_code == 0
    assert banker("cards", "enrol", "Bob").exit_code == 0
    listing = banker("cards", "list").output
    assert "Alice" in listing and "04A1B2C3" in listing and "15M" in listing
    assert banker("cards", "rename", "Bob", "Robert").exit_code == 0
    assert "Robert" in banker("cards", "list").output
    assert banker("cards", "remove", "Robert").exit_code == 0
    assert "Robert" not in banker("cards", "list").output


@pytest.mark.parametrize(
    "args, message",
    [(["cards", "enrol", "Alice", "--uid", "nothex"], "not a card UID"),
     (["cards", "rename", "Nobody", "X"], "no card is enrolled"),
     (["cards", "remove", "Nobody"], "no card is enrolled"),
     (["game", "restore", "42"], "no game 42"),
     (["game", "new", "--start", "0"], "zero"),
     (["game", "new", "--go", "lots"], "not an amount"),
     (["ledger", "show", "--game", "42"], "no game 42")],
)
def test_bad_input_exits_non_zero_with_a_message_and_changes_nothing(banker, args, message):
    banker("cards", "enrol", "Alice")
    before = banker("ledger", "export", "--format", "json").output
    result = banker(*args)
    assert result.exit_code != 0
    assert message in result.output
    assert banker("ledger", "export", "--format", "json").output == before


def test_enrolling_a_name_twice_is_refused(banker):
    banker("cards", "enrol", "Alice")
    result = banker("cards", "enrol", "alice")
    assert result.exit_code == 1 and "already enrolled" in result.output


def test_game_new_list_restore(banker):
    banker("cards", "enrol", "Alice")
    result = banker("game", "new", "--start", "20M", "--go", "4M", "--allow-negative")
    assert result.exit_code == 0 and "20M" in result.output
    listing = banker("game", "list").output.splitlines()
    assert len(listing) == 2 and listing[1].startswith("*") and "negative balances" in listing[1]
    assert "20M" in banker("cards", "list").output
    assert banker("game", "restore", "1").exit_code == 0
    assert "15M" in banker("cards", "list").output


def test_ledger_show_and_export(banker, tmp_path):
    banker("cards", "enrol", "Alice")
    banker("cards", "enrol", "Bob")
    script = tmp_path / "s.kps"
    script.write_text("insert left Alice\ninsert right Bob\npress 2 M\n")
    assert banker("script", script).exit_code == 0
    shown = banker("ledger", "show").output
    assert "Bob -> Alice" in shown and "2M" in shown
    rows = list(csv.DictReader(io.StringIO(banker("ledger", "export", "--format", "csv").output)))
    assert rows[-1]["payer"] == "Bob" and rows[-1]["payee"] == "Alice" and rows[-1]["amount"] == "2000000"
    data = json.loads(banker("ledger", "export", "--format", "json").output)
    assert [r["kind"] for r in data] == ["opening", "opening", "transfer"]


def test_a_corrupt_database_is_a_clear_error(tmp_path):
    db = tmp_path / "bad.db"
    db.write_bytes(b"garbage" * 1000)
    result = CliRunner().invoke(cli, ["cards", "list", "--db", str(db)])
    assert result.exit_code == 3 and "corrupt" in result.output


def test_the_default_database_lives_in_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("BANKER_DB", raising=False)
    result = CliRunner().invoke(cli, ["cards", "enrol", "Alice"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "data" / "monopoly-banker" / "ledger.db").exists()


def test_game_rules_settings(banker, tmp_path):
    banker("cards", "enrol", "Bob")
    result = banker("game", "new", "--luxury-tax", "750K", "--short-game", "--income-tax-choice")
    assert result.exit_code == 0, result.output
    current = banker("game", "list").output.splitlines()[-1]
    assert "short game" in current and "Income Tax 10% option" in current and "Luxury Tax 750K" in current
    script = tmp_path / "s.kps"
    script.write_text("insert right Bob\npress FN GO 2\nexpect balance Bob 14.25M\n")
    result = banker("script", script)
    assert result.exit_code == 0, result.output
