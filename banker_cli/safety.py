"""The commands that keep a game safe: verify and undo in the ledger, the banker's PIN, backups."""

from __future__ import annotations

import os

from datetime import datetime
from pathlib import Path

import click

from banker.authority import PIN_SETTING, hash_pin, require_pin
from banker.errors import BankerError
from banker.money import format_amount

from .common import db_option, fail, open_ledger, pin_option, resolve_db


def authorise(ledger, pin: str | None) -> None:
    """Exit with a message unless no PIN is set or ``pin`` is the banker's."""
    try:
        require_pin(ledger.setting(PIN_SETTING), pin)
    except BankerError as exc:
        fail(str(exc), 4)


@click.command("verify")
@db_option
def ledger_verify(db: Path | None) -> None:
    """Check the journal: every row's hash, no row missing, money conserved, balances and deeds replay.

    Exit 0 when all is well; 1 naming each offending entry.
    """
    with open_ledger(db, writer=False) as ledger:
        result = ledger.verify()
        try:
            ledger.check()
        except BankerError as exc:
            result.problems.append(exc)
    for gid, totals in sorted(result.games.items()):
        click.echo(f"game {gid}: bank issued {format_amount(totals.issued)}, took back {format_amount(totals.returned)},"
                   f" players hold {format_amount(totals.held)}")
    if result.problems:
        for problem in result.problems:
            click.echo(f"banker: ledger verify: {problem}", err=True)
        fail(f"{len(result.problems)} problem(s) in {result.transactions} transactions", 1)
    click.echo(f"ok: {result.transactions} transactions verified")


@click.command("undo")
@click.argument("tx_id", type=int, required=False)
@pin_option
@db_option
def ledger_undo(tx_id: int | None, pin: str | None, db: Path | None) -> None:
    """Undo transaction TX_ID (default: the game's last) by posting its reversing entry.

    Undoing anything but the last transaction needs the banker's PIN.
    """
    with open_ledger(db) as ledger:
        last = ledger.last_transaction()
        if tx_id is not None and (last is None or last.id != tx_id):
            authorise(ledger, pin)
        try:
            undo = ledger.undo(tx_id)
        except BankerError as exc:
            fail(str(exc))
        click.echo(f"undone #{undo.reverses} by #{undo.id}: {undo.memo}")


@click.group("pin")
def pin_group() -> None:
    """The banker's PIN, which protects enrolment, settings, restores and undoing old entries."""


@pin_group.command("set")
@click.option("--new", "new_pin", prompt="New banker PIN", hide_input=True, confirmation_prompt=True,
              help="The new PIN: 4 to 8 digits.")
@pin_option
@db_option
def pin_set(new_pin: str, pin: str | None, db: Path | None) -> None:
    """Set or change the banker's PIN (the current one is needed to change it)."""
    with open_ledger(db) as ledger:
        authorise(ledger, pin)
        try:
            ledger.set_setting(PIN_SETTING, hash_pin(new_pin, os.urandom(16)))
        except BankerError as exc:
            fail(str(exc), 2)
    click.echo("banker PIN set")


@click.command("backups")
@db_option
def game_backups(db: Path | None) -> None:
    """List the ledger's backups, newest first (made at each new game and every 5 minutes of play)."""
    from store import list_backups

    for path in list_backups(resolve_db(db)):
        click.echo(f"{datetime.fromtimestamp(path.stat().st_mtime):%Y-%m-%d %H:%M:%S}  {path}")
