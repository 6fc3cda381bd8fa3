"""The unit at the table plays on whatever fails beside it: a backup that failed is shown and logged once, ledger upkeep
or the table page failing is logged, and an event the core fails on is dropped with nothing changed."""

from __future__ import annotations

import logging

import runtime.shell
from banker.errors import LedgerError
from banker.unit.events import CardPlaced, KeyDown, Log, Tick
from runtime.shell import Shell


class Frames:
    def __init__(self) -> None:
        self.shown = []

    def show(self, screen) -> None:
        self.shown.append(screen)

    def power(self, on: bool) -> None:
        pass


def test_a_backup_that_failed_is_shown_and_logged_once_then_its_end_logged(ledger, store, caplog):
    frames = Frames()
    shell = Shell(ledger, display=frames)
    failed = "backup failed: the disk is full: cannot write /var/lib/monopoly-banker/backups"
    store.backup_error = failed
    with caplog.at_level(logging.INFO, logger=runtime.shell.log.name):
        shell.handle(Tick(1.0))
        shown = frames.shown[-1].lines
        shell.handle(Tick(2.0))
        store.backup_error = None
        shell.handle(Tick(3.0))
    assert shown[0] == "Backup failed" and " ".join(shown[1:]).startswith("the disk is full: cannot")
    assert all(len(line) <= 21 for line in shown)
    logged = [r.getMessage() for r in caplog.records]
    assert logged.count(failed) == 1  # said once while it lasts
    assert logged[-1].startswith("backups are made again everywhere they go")


def test_ledger_upkeep_that_fails_is_logged_and_play_goes_on(ledger, monkeypatch, caplog):
    shell = Shell(ledger)

    def full():
        raise LedgerError("the disk is full: cannot write the snapshot")
    monkeypatch.setattr(ledger, "maintain", full)
    with caplog.at_level(logging.WARNING, logger=runtime.shell.log.name):
        shell.handle(Tick(1.0))

    def broken():
        raise RuntimeError("a programming error")
    monkeypatch.setattr(ledger, "maintain", broken)
    with caplog.at_level(logging.WARNING, logger=runtime.shell.log.name):
        shell.handle(Tick(2.0))
    logged = [r.getMessage() for r in caplog.records]
    assert logged == ["ledger upkeep failed: the disk is full: cannot write the snapshot", "ledger upkeep failed"]


def test_an_event_the_core_fails_on_is_dropped_and_logged_with_nothing_changed(table, ledger, monkeypatch, caplog):
    shell = Shell(ledger)
    before = ledger.game()

    def fails(*args):
        raise RuntimeError("a programming error")
    monkeypatch.setattr(runtime.shell, "step", fails)
    with caplog.at_level(logging.ERROR, logger=runtime.shell.log.name):
        assert shell.handle(CardPlaced("left", "A1", 1.0)) == []
    assert ledger.game() == before
    assert caplog.records[-1].getMessage().startswith("the unit failed on CardPlaced(")


def test_a_log_effect_is_logged_and_the_table_page_failing_never_stops_the_unit(ledger, caplog):
    def page(effect):
        raise OSError("the page's server went away")
    shell = Shell(ledger, on_effect=page)
    with caplog.at_level(logging.INFO, logger=runtime.shell.log.name):
        shell._carry_out(Log("a noteworthy refusal"))
        from banker.unit.events import RenewWebToken

        shell._carry_out(RenewWebToken())
        shell.handle(KeyDown("C", 1.0))  # the unit goes on
    logged = [r.getMessage() for r in caplog.records]
    assert "a noteworthy refusal" in logged and any(m.startswith("carrying out RenewWebToken") for m in logged)
