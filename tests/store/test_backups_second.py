"""A second backup folder (a USB stick): backups go there too, kept the same way; missing, it is said once and play
goes on; back, backups go there again; ``banker doctor`` checks it."""

import logging

import pytest
from click.testing import CliRunner

from banker_cli.main import cli
from runtime.ledger import open_ledger
from store import KEEP, list_backups
from tests.conftest import Table


@pytest.fixture
def stick(tmp_path, monkeypatch):
    """A folder that stands on a device of its own, as a mounted USB stick does."""
    folder = tmp_path / "stick" / "banker"
    ours = str(folder)
    real = __import__("store.backup_schedule", fromlist=["device_of"]).device_of
    monkeypatch.setattr("store.backup_schedule.device_of",
                        lambda path: -1 if str(path).startswith(ours) else real(path))
    return folder


def test_backups_go_to_the_second_folder_kept_the_same_way(tmp_path, stick):
    stick.mkdir(parents=True)
    path = tmp_path / "ledger.db"
    with open_ledger(path, second_backup_folder=stick) as ledger:
        for _ in range(KEEP + 2):
            ledger.new_game()
            ledger.maintain()
            ledger.store.backups.wait()
        assert ledger.backup_error is None
    there = list_backups(path, stick)
    assert len(there) == KEEP == len(list_backups(path))
    assert [p.name for p in there] != [] and all(p.stat().st_size > 0 for p in there)


def test_a_missing_stick_is_said_once_play_goes_on_and_backups_go_there_again_when_it_is_back(tmp_path, stick, caplog,
                                                                                              monkeypatch):
    import banker.unit.views

    screens = []
    real = banker.unit.views.message
    monkeypatch.setattr(banker.unit.views, "message", lambda *lines, **kw: screens.append(lines) or real(*lines, **kw))
    path = tmp_path / "ledger.db"
    with open_ledger(path, backup_interval=0, second_backup_folder=stick) as ledger:
        table = Table(ledger)  # its shell's clock ticks as keys are pressed: the upkeep starts backups on them
        table.enrol("Alice", "A1")
        table.insert("left", "Alice")
        with caplog.at_level(logging.INFO, logger="banker.shell"):
            for n in range(4):
                table.type(f"{n + 1}K")  # play goes on: each is received and saved
                assert "Bank paid" in table.shown or "Backup" in table.shown, table.shown
                table.wait(2.5)  # a backup starts once the table is quiet (store.upkeep)
                ledger.store.backups.wait()
                table.shell._upkeep()
            said = [r for r in caplog.records if r.levelno == logging.WARNING]
            assert len(said) == 1 and "second backup folder" in said[0].getMessage()
            assert screens == [("Backup stick missing", "Play goes on: saved", "on the SD card", "Plug it in again")]
            assert list_backups(path) and not list_backups(path, stick)  # beside the ledger they go on
            stick.mkdir(parents=True)  # plugged in again
            table.type("4K")
            table.wait(2.5)
            ledger.store.backups.wait()
            table.shell._upkeep()
            ledger.maintain()
            ledger.store.backups.wait()
            table.shell._upkeep()
        assert ledger.backup_error is None and list_backups(path, stick)
        assert any("again" in r.getMessage() for r in caplog.records if r.levelno == logging.INFO)
        assert ledger.game().last is not None  # every play saved


def doctor(tmp_path, folder):
    config = tmp_path / "banker.toml"
    config.write_text(f'[unit]\ndb = "{tmp_path / "ledger.db"}"\n[backups]\nsecond_folder = "{folder}"\n')
    return CliRunner().invoke(cli, ["doctor", "--backend", "hw-sim", "--config", str(config)])


def test_doctor_checks_the_second_folder(tmp_path, stick):
    missing = doctor(tmp_path, stick)
    assert missing.exit_code == 1 and "FAIL  backup folder 2" in missing.output and "not there" in missing.output
    on_the_card = tmp_path / "mnt"
    on_the_card.mkdir()
    same = doctor(tmp_path, on_the_card)  # an unmounted stick's empty mount point: on the SD card
    assert same.exit_code == 1 and "same device as the ledger" in same.output
    stick.mkdir(parents=True)
    fine = doctor(tmp_path, stick)
    assert fine.exit_code == 0, fine.output
    assert "ok    backup folder 2" in fine.output and "room for its backups" in fine.output


def test_game_backups_lists_the_second_folders_too(tmp_path, stick):
    stick.mkdir(parents=True)
    config = tmp_path / "banker.toml"
    config.write_text(f'[backups]\nsecond_folder = "{stick}"\n')
    path = tmp_path / "ledger.db"
    with open_ledger(path, second_backup_folder=stick) as ledger:
        ledger.new_game()
        ledger.maintain()
    out = CliRunner().invoke(cli, ["game", "backups", "--config", str(config), "--db", str(path)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert len(lines) == 2 and lines[1].endswith("(second folder)") and str(stick) in lines[1]


def test_a_stick_that_fails_with_an_io_error_is_its_own_problem_not_the_backups(tmp_path, monkeypatch):
    import errno

    import store.backup_schedule as schedule
    from runtime.ledger import SqliteLedger
    from store.backups import list_backups

    main = tmp_path / "ledger.db"
    with SqliteLedger(main, backups=False) as ledger:
        ledger.enrol("Alice", "A1B2C3")
    stick = tmp_path / "stick"
    stick.mkdir()

    def pulled_out(path):
        raise OSError(errno.EIO, "Input/output error", str(path))

    monkeypatch.setattr(schedule, "device_of", pulled_out)
    backups = schedule.Backups(main, second_folder=stick)
    backups.start("interval")
    backups.wait()
    assert list_backups(main)  # the backup beside the ledger was made, and says so
    assert backups.failed is None
    assert "Input/output error" in backups.second_error
