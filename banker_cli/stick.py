"""What a command says when the backup it made could not go everywhere: the second folder (a USB stick) by cause.

A command that made a backup (``game new``, the first enrolment of a ledger: a new game is backed up when
the ledger closes) says on stderr why the stick could not take it, one ``banker: ...`` line naming the folder
and what to do, and exits as it would have: the game is saved on the card, play goes on (docs/backups.md).
"""

from __future__ import annotations

import re

import click

from .common import UNUSABLE, db_option, fail, failing, open_ledger, resolve_db, shown

#: The line for each cause of :class:`store.backup_schedule.StickProblem` ({folder}, {detail} filled in).
STICK_LINES = {
    "full": "the backup stick {folder} is full: the game is saved on the card; free space on the stick "
            "(or give it another) and the next backup goes there",
    "read-only": "the backup stick {folder} is read-only: the game is saved on the card; slide its write-protect "
                 "switch off, or mount it writable, and the next backup goes there",
    "failing": "the backup stick {folder} is failing ({detail}): the game is saved on the card; copy what you "
               "need from the stick and give it another",
    "missing": "the backup stick {folder} is not there (unplugged, or not mounted): the game is saved on the card; "
               "plug it in and the next backup goes there",
}


def stick_line(problem) -> str:
    """The line for the second folder's ``problem`` (a :class:`store.backup_schedule.StickProblem`)."""
    detail = re.sub(r"^\[Errno \d+\] ", "", problem.detail.partition("can't be written: ")[2] or problem.detail)
    return STICK_LINES[problem.cause].format(folder=problem.folder, detail=detail)


def backup_lines(backups) -> list[str]:
    """What the backups made in this command met (``backups``: a :class:`store.backup_schedule.Backups`, or None)."""
    if backups is None:
        return []
    lines = [] if backups.failed is None else [f"{backups.failed}: the game is saved in the ledger; "
                                                "'banker doctor' checks the card"]
    return lines + ([stick_line(backups.stick)] if backups.stick is not None else [])


def told_backup_problems(ledger):
    """``ledger``, with what its backups met said on stderr once the command is done (it closed the ledger)."""
    ctx = click.get_current_context(silent=True)
    store = getattr(ledger, "store", None)
    if ctx is not None and store is not None:
        ctx.call_on_close(lambda: [click.echo(f"banker: {line}", err=True)
                                   for line in backup_lines(getattr(store, "backups", None))])
    return ledger


@click.command("backup")
@db_option
@click.pass_context
def game_backup(ctx: click.Context, db) -> None:
    """Make a backup of the ledger now: beside it, and on the config's [backups] second_folder (a USB stick).

    Says where each was made. Exit 3 when the stick could not take it (the line on stderr says why: full,
    read-only, failing, not there; the backup beside the ledger is made all the same), as when the card can't.
    """
    from store import list_backups

    path = resolve_db(db)
    if not path.is_file():
        fail(f"there is no ledger at {path} (a mistyped --db?): nothing to back up", UNUSABLE)
    with open_ledger(path) as ledger, failing("the backup beside the ledger failed: "):
        backups = ledger.store.backups
        made = backups.take("manual")
        click.echo(f"backup made: {shown(made)}")
        if backups.second is not None and backups.stick is None:
            click.echo(f"and on the backup stick: {shown(list_backups(path, backups.second)[0])}")
    if backups.stick is not None:
        ctx.exit(UNUSABLE)  # its line is said as the command closes (told_backup_problems)
