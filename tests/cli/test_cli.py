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
    script.write_text("wait 0\n")
    dealt = json.loads(banker("script", script, "--json").output)["balances"]["Bob"]
    assert dealt < 15_000_000  # the short game's deal: two deeds at their printed prices
    script.write_text("insert right Bob\npress FN GO 2\n")
    assert json.loads(banker("script", script, "--json").output)["balances"]["Bob"] == dealt - 750_000


# -- a quick start: the commands loaded lazily ----------------------------------------------


def test_help_lists_every_command_without_importing_any():
    import subprocess
    import sys

    probe = ("import sys\nfrom banker_cli.main import cli\n"
             "try:\n    cli(['--help'])\nexcept SystemExit:\n    pass\n"
             "heavy = [m for m in ('banker.script.syntax', 'banker.journal.records', 'runtime.ledger', 'store', 'banker_cli.common',"
             " 'banker_cli.script_cli', 'banker_cli.ledger_cli', 'banker_cli.device_cli', 'shutil')"
             " if m in sys.modules]\n"
             "print('HEAVY', heavy)\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in run.stdout, run.stdout + run.stderr
    for name in ("script", "cards", "game", "deeds", "ledger", "pin", "sim", "run", "doctor", "web"):  # noqa
        assert f"  {name} " in run.stdout


def _tables():
    from banker_cli.main import COMMANDS, GAME_COMMANDS, LEDGER_COMMANDS

    tables = (("", COMMANDS), ("game", GAME_COMMANDS), ("ledger", LEDGER_COMMANDS))
    return [(group, name, entry) for group, table in tables for name, entry in table.items()]


@pytest.mark.parametrize("group, name, entry", _tables(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_listing_says_what_each_command_says_of_itself(group, name, entry):
    import importlib

    target, listed, *optional = entry
    module, _, attribute = target.partition(":")
    try:
        command = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError):
        assert optional, f"{target} can't be loaded"
        return
    assert command.help.strip().splitlines()[0] == listed
    result = CliRunner().invoke(cli, [*([group] if group else []), name, "--help"])
    assert result.exit_code == 0 and "Usage" in result.output


def test_an_optional_command_that_is_not_installed_says_so_cleanly():
    import click

    from banker_cli.main import LazyGroup

    group = LazyGroup(name="banker", table={"web": ("banker_cli.no_such_module:web_command", "The table page.", True)})
    assert "The table page." in CliRunner().invoke(group, ["--help"]).output
    result = CliRunner().invoke(group, ["web", "--port", "8080"])
    assert result.exit_code == 3
    assert "'banker web' is not available in this install" in result.output and "no_such_module" in result.output
    assert isinstance(result.exception, SystemExit)
    assert isinstance(group.get_command(click.Context(group), "web"), click.Command)


# -- what a newcomer sees ---------------------------------------------------------------------


def test_a_passing_script_says_so_in_one_line_unless_quiet(banker, tmp_path):
    script = tmp_path / "s.kps"
    script.write_text("enrol Alice\ninsert left Alice\npress 2 M\nexpect screen Alice\nexpect screen 2M\n")
    result = banker("script", script)
    assert result.exit_code == 0
    assert result.output == f"{script}: passed: 2 expectations held, 2 transactions posted\n"
    assert banker("script", script, "--quiet").output == ""
    assert banker("script", script).output == f"{script}: passed: 2 expectations held, 1 transaction posted\n"
    fresh = CliRunner().invoke(cli, ["script", str(script)], env={"BANKER_DB": None})
    assert "(in memory: --db PATH keeps them)" in fresh.output
    assert json.loads(banker("script", script, "--json").output)["balances"] == {"Alice": 23_000_000}  # JSON only


def test_cards_list_says_when_there_are_none(banker):
    banker("game", "list")  # nothing made yet: a reading command makes no ledger
    banker("game", "new")
    result = banker("cards", "list")
    assert result.exit_code == 0
    assert "no cards are enrolled" in result.output and "banker cards enrol NAME" in result.output


def test_doctor_speaks_in_sentences_and_names_the_flag_to_use():
    result = CliRunner().invoke(cli, ["doctor", "--backend", "hw-sim"])
    assert result.exit_code == 0, result.output
    assert "{" not in result.output and "None" not in result.output and "'" not in result.output
    assert "Two MFRC522 (13.56 MHz) readers answer: left (+) is empty and right (-) is empty." in result.output
    assert "All 6 devices answer on simulated chips" in result.output  # the voice: Off, fine
    on_a_pc = CliRunner().invoke(cli, ["doctor"])  # no GPIO here: every device fails
    if on_a_pc.exit_code:
        assert on_a_pc.exit_code == 1
        assert "'banker doctor --backend hw-sim'" in on_a_pc.output and "missing or misconfigured" in on_a_pc.output


# -- reading never creates, exports are private and stream ------------------------------------


READERS = [["cards", "list"], ["game", "list"], ["game", "show"], ["game", "show", "--json"], ["ledger", "show"],
           ["ledger", "export", "--format", "json"], ["ledger", "export", "--format", "csv"], ["ledger", "verify"]]


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_a_reading_command_never_creates_a_ledger(tmp_path, command):
    missing = tmp_path / "typo" / "ledgr.db"
    result = CliRunner().invoke(cli, [*command, "--db", str(missing)])
    assert result.exit_code == 3
    assert f"there is no ledger at {missing}" in result.output
    assert not missing.exists() and not missing.parent.exists()


def test_an_export_is_readable_only_by_its_owner_whatever_the_umask(banker, tmp_path):
    import os

    banker("cards", "enrol", "Alice")
    old = os.umask(0)
    try:
        for fmt in ("csv", "json"):
            out = tmp_path / f"journal.{fmt}"
            out.write_text("old")
            out.chmod(0o666)
            result = banker("ledger", "export", "--format", fmt, "-o", out)
            assert result.exit_code == 0, result.output
            assert out.stat().st_mode & 0o777 == 0o600
            assert "Alice" in out.read_text()
    finally:
        os.umask(old)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no part-written file left
    assert banker("ledger", "export", "-o", tmp_path / "no" / "such" / "folder.csv").exit_code == 3  # a place that can't be written: exit 3 (docs/cli.md)


def test_show_and_export_stream_the_journal(banker, tmp_path, monkeypatch):
    from runtime.ledger import Ledger

    script = tmp_path / "s.kps"
    script.write_text("enrol Alice\nenrol Bob\ninsert left Alice\ninsert right Bob\npress 2 M\npress 1 M\n")
    assert banker("script", script).exit_code == 0
    assert banker("ledger", "undo").exit_code == 0
    whole = banker("ledger", "export", "--format", "json").output
    rows = json.loads(whole)
    assert whole == json.dumps(rows, indent=1) + "\n" and rows[-1]["reverses"] == rows[-2]["id"]
    assert rows[-2]["reversed_by"] == rows[-1]["id"]

    def no_lists(self, game_id=None):
        raise AssertionError("the journal was read into a list")

    monkeypatch.setattr(Ledger, "transactions", no_lists)
    assert banker("ledger", "export", "--format", "json").output == whole
    assert "[undone by #" in banker("ledger", "show").output
    csv_rows = list(csv.DictReader(io.StringIO(banker("ledger", "export").output)))
    assert len(csv_rows) == len(rows) and csv_rows[0].keys() == rows[0].keys()


def test_an_empty_journal_exports_as_an_empty_list(banker):
    banker("game", "new")
    assert banker("ledger", "export", "--format", "json").output == "[]\n"


# -- a full disk is exit 3, and nothing changes -----------------------------------------------


@pytest.mark.parametrize("error", ["sqlite", "enospc"])
@pytest.mark.parametrize("command", [["cards", "enrol", "Carl"], ["cards", "rename", "Alice", "Al"], ["game", "new"],
                                     ["pin", "set", "--new", "2468"], ["deeds", "enrol", "boardwalk", "--uid", "AB"],
                                     ["ledger", "undo"], ["script", "SCRIPT"]], ids=lambda c: c[0] + " " + c[1])
def test_a_full_disk_is_exit_3_and_changes_nothing(banker, tmp_path, monkeypatch, error, command):
    import errno
    import sqlite3

    from store import SqliteStore

    script = tmp_path / "s.kps"
    script.write_text("insert left Alice\ninsert right Bob\npress 2 M\n")
    banker("cards", "enrol", "Alice")
    banker("cards", "enrol", "Bob")
    banker("script", script)
    before = banker("ledger", "export", "--format", "json").output, banker("cards", "list").output

    def full(self, record):
        raise sqlite3.OperationalError("database or disk is full") if error == "sqlite" else OSError(
            errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(SqliteStore, "append", full)
    result = banker(*[str(script) if a == "SCRIPT" else a for a in command])
    assert result.exit_code == 3, result.output
    assert "the disk is full" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    monkeypatch.undo()
    assert (banker("ledger", "export", "--format", "json").output, banker("cards", "list").output) == before


def test_a_script_on_a_ledger_with_snapshots_is_tried_on_a_copy_of_the_game_first(tmp_path, monkeypatch):
    import runtime.ledger
    from runtime.script_shell import CoreBackend
    from runtime.ledger import SqliteLedger

    db = tmp_path / "l.db"
    monkeypatch.setattr(runtime.ledger, "SNAPSHOT_EVERY", 5)
    with SqliteLedger(db) as ledger:
        unit = CoreBackend(ledger)
        unit.enrol("Alice", "A1")
        unit.enrol("Bob", "B2")
        unit.insert("left", "Alice")
        unit.insert("right", "Bob")
        for _ in range(12):
            unit.press("1")
            unit.press("K")
            ledger.maintain()
        assert ledger.store.last_snapshot() is not None
    monkeypatch.undo()
    script = tmp_path / "s.kps"
    script.write_text("insert left Alice\ninsert right Bob\npress 1 M\nexpect balance Alice 16.012M\n")
    result = CliRunner().invoke(cli, ["script", str(script), "--db", str(db)])
    assert result.exit_code == 0, result.output
    script.write_text("insert left Alice\ninsert right Bob\npress 1 M\nexpect balance Bob 12.988M\nenrol-deed nowhere\n")
    result = CliRunner().invoke(cli, ["script", str(script), "--db", str(db)])
    assert result.exit_code == 2 and "line 5" in result.output and "nothing was written" in result.output
    assert "12.988M" not in CliRunner().invoke(cli, ["cards", "list", "--db", str(db)]).output
