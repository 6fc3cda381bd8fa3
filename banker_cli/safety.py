"""The commands that keep a game safe: verify and undo in the ledger, the banker's PIN, backups and restoring one."""

from __future__ import annotations

import os
import time

from datetime import datetime
from pathlib import Path

import click

from banker.fold.authority import PIN_SETTING, hash_pin
from banker.errors import BankerError
from banker.money import format_amount
from banker.journal.records import POT
from banker.text.words import plural

from .common import (
    NEEDS_PIN, UNUSABLE, USAGE, cli_grant, db_option, exit_code, fail, failing, open_ledger, pin_option, resolve_db,
    shown,
)


def authorise(ledger, pin: str | None) -> None:
    """Exit 4 with a message unless no PIN is set or ``pin`` is the banker's, for an act that writes no
    record of ``ledger`` (replacing it by a backup): the write path's own check, so a wrong try is journalled
    and the lockout holds on every path."""
    from banker.fold.authority import NotAuthorised

    try:
        ledger.authorise(cli_grant(pin))
    except NotAuthorised as exc:
        fail(str(exc), NEEDS_PIN)
    except BankerError as exc:  # the wrong try could not be written down: the ledger can't be used
        fail(str(exc), exit_code(exc))


@click.command("verify")
@db_option
def ledger_verify(db: Path | None) -> None:
    """Check the journal: every row's hash, no row missing, money conserved, balances and deeds replay.

    Exit 0 when all is well; 1 naming each offending entry. On a terminal a
    bar shows how far it has read.
    """
    import sys

    with open_ledger(db, writer=False) as ledger, failing():
        total = ledger.store.last_seq()
        if sys.stderr.isatty() and total >= 20_000:
            with click.progressbar(length=total, label="verifying", file=sys.stderr) as bar:
                done = [0]

                def progress(rows: int) -> None:
                    bar.update(rows - done[0])
                    done[0] = rows

                result = ledger.verify(progress=progress)
        else:
            result = ledger.verify()
    for gid, totals in sorted(result.games.items()):
        pot = totals.players.get(POT, 0)  # the Free Parking pot (a house rule) holds its share
        click.echo(f"game {gid}: bank issued {format_amount(totals.issued)},"
                   f" took back {format_amount(totals.returned)},"
                   f" players hold {format_amount(totals.held - pot)}"
                   + (f", the Free Parking pot {format_amount(pot)}" if pot else ""))
    for notice in result.notices:
        click.echo(f"notice: {shown(notice)}")
    if result.problems:
        for problem in result.problems:
            click.echo(f"banker: ledger verify: {shown(problem)}", err=True)
        fail(f"{plural(len(result.problems), 'problem')} in {plural(result.transactions, 'transaction')}", 1)
    click.echo(f"ok: {plural(result.transactions, 'transaction')} verified")


@click.command("undo")
@click.argument("tx_id", type=click.IntRange(1, 2**63 - 1), required=False)
@pin_option
@db_option
def ledger_undo(tx_id: int | None, pin: str | None, db: Path | None) -> None:
    """Undo transaction TX_ID (default: the game's last) by posting its reversing entry.

    Undoing anything but the last transaction needs the banker's PIN.
    """
    with open_ledger(db) as ledger, failing():
        undo = ledger.undo(tx_id, cli_grant(pin))
        click.echo(f"undone #{undo.reverses} by #{undo.id}: {shown(undo.memo)}")


@click.group("pin")
def pin_group() -> None:
    """The banker's PIN, which protects enrolment, settings, restores and undoing old entries."""


@pin_group.command("set")
@click.option("--new", "new_pin", prompt="New banker PIN", hide_input=True, confirmation_prompt=True,
              help="The new PIN: 4 to 8 digits 0-9.")
@pin_option
@db_option
def pin_set(new_pin: str, pin: str | None, db: Path | None) -> None:
    """Set or change the banker's PIN (the current one is needed to change it)."""
    with open_ledger(db) as ledger, failing():
        ledger.set_setting(PIN_SETTING, hash_pin(new_pin, os.urandom(16)), cli_grant(pin))
    click.echo("banker PIN set")


@click.command("backups")
@db_option
def game_backups(db: Path | None) -> None:
    """List the ledger's backups, newest first (made at each new game and every 5 minutes of play).

    The copies a restore kept of the ledger it replaced are marked: 'latest' passes them over; restore one
    by its file name. A backup cut short (the unit stopped while bringing it forward) is marked too: 'latest'
    passes it over and the next backup mends it. With the config's [backups] second_folder, its backups
    follow (docs/backups.md).
    """
    from store import list_backups
    from store.backups import is_kept_copy
    from store.rotation import cut_short

    from .common import config_path, current_config

    path = resolve_db(db)
    second = current_config().backups_second_folder if config_path() is not None else None
    folders = [(None, "")] + ([(Path(second).expanduser(), "  (second folder)")] if second else [])
    found = 0
    for folder, where in folders:
        for backup in list_backups(path, folder):
            found += 1
            mark = ("  (kept by a restore: the ledger as it was; restore it by name)" if is_kept_copy(backup) else
                    "  (cut short: passed over; the next backup mends it)" if cut_short(backup) else "")
            click.echo(f"{datetime.fromtimestamp(backup.stat().st_mtime):%Y-%m-%d %H:%M:%S}  {shown(backup)}"
                       + mark + where)
    if not found and not path.exists():  # a read-only command: nothing is created (docs/cli.md)
        fail(f"there is no ledger at {path} (a mistyped --db?), and no backups of it", UNUSABLE)
    if not found:
        click.echo(f"no backups of {shown(path)} yet: one is made at each new game and every 5 minutes of play",
                   err=True)


def restore_from_backup(backup: str, pin: str | None, db: Path | None) -> None:
    """``banker game restore --backup latest|FILE``: the ledger at ``db`` replaced by a backup (or made from one).

    The PIN checked is the current ledger's when there is one (a wrong one
    counts there; the backup's own PIN is not asked again), else the
    backup's. A backup whose key is here and verifies it is restored as it
    is; one whose key is not here is adopted under a new key (its PIN, from
    then on, the one given); one whose key is here but doesn't verify it is
    refused. Either way nothing is left that can't be written. A restore by
    adoption killed after the file was in place, its key not yet kept, is
    finished when it is run again (:func:`_finish_cut_short`).
    """
    from store import Keyring, is_ledger_file

    path = _followed(resolve_db(db))
    source = _backup_file(backup, path)
    keyring = Keyring()
    done = _restored_already(keyring, source, path)
    if done is not None:
        click.echo(f"{source} is already restored in {path} (adopted under a new key from entry {done}): "
                   "nothing left to do")
        return
    found, key = _verified_head(keyring, source)
    adopting = found is not None and key is None
    current = is_ledger_file(path)
    if current and found is not None and _finish_cut_short(path, found, pin):
        click.echo(f"restored {source}; adopted under a new key from entry {found[1] + 1} (an adoption cut short, "
                   "finished: 'banker ledger verify' says so)")
        return
    guard = _authorise_restore(keyring, path, found, pin, current=current)
    pin, games = _read_backup(source, pin, adopting=adopting, checked=guard is not None,
                              fresh=not current)
    with failing():
        kept, adopted = _replace(source, path, pin, adopting=adopting, checked=current)
    click.echo(f"restored {source} ({plural(games, 'game')})" + (f"; the ledger as it was is kept in {kept}" if kept else "")
               + (f"; adopted under a new key from entry {adopted.from_seq} (its key is not on this machine: "
                  "'banker ledger verify' says so)" if adopted else ""))


def _followed(path: Path) -> Path:
    """The ledger a ``--db`` names: a symlink is followed to the file it points to, which is the one restored (the
    link left as it is, so the unit and the link go on reading one ledger); a link that points nowhere is refused."""
    if not path.is_symlink():
        return path
    target = path.resolve()
    if not target.parent.is_dir():
        fail(f"{path} is a symlink to {target}, whose folder is not there: nothing was changed", USAGE)
    return target


def _backup_file(backup: str, path: Path) -> Path:
    """The file ``--backup`` names: the newest good backup of ``path`` for 'latest' (a damaged one is passed
    over), else the file given; exit when there is none or it is not a banker ledger."""
    from store import is_ledger_file, latest_good_backup

    if backup == "latest":
        source = latest_good_backup(path)
        if source is None:
            fail(f"there is no usable backup of {path}")
    else:
        source = Path(backup)
        if not source.is_file():
            fail(f"no backup file {source}", USAGE)
    if not is_ledger_file(source):
        fail(f"{source} is not a banker ledger", UNUSABLE)
    return source


def _restored_already(keyring, source: Path, path: Path) -> int | None:
    """The entry of the adoption record when the ledger at ``path`` is ``source`` restored by adoption, its key
    kept here and nothing added since (a restore killed after it finished, before it said so); else None."""
    from runtime.adoption import head_of, key_fits
    from store import is_ledger_file

    try:
        found = head_of(source)
        here = head_of(path) if is_ledger_file(path) else None
        key = keyring.key(found[0]) if found else None
        if not here or key is None or here[0] != found[0] or here[1] != found[1] + 1 or key_fits(source, key):
            return None
        if here[2][5] != "adopt" or here[2][0] != found[2][-1] or not key_fits(path, key):
            return None
    except BankerError:
        return None
    return here[1]


def _verified_head(keyring, source: Path):
    """The backup's (ledger id, last entry) and the key kept here for that ledger (None when there is none):
    (None, None) for a ledger of an earlier schema (keyed when it is first opened); refused (exit 3, nothing
    changed) when the key kept here doesn't verify the backup."""
    from runtime.adoption import head_of, key_fits

    try:
        found = head_of(source)
    except BankerError:
        return None, None
    key = keyring.key(found[0]) if found else None
    if found and key is not None and not key_fits(source, key):
        fail(f"the key kept here for ledger {found[0]} ({keyring.key_file(found[0])}) doesn't verify {source}: "
             "nothing was changed", UNUSABLE)
    if found and key is not None:
        _whole_chain(keyring, source, found[0])
    return found, key


def _whole_chain(keyring, source: Path, ledger_id: str) -> None:
    """Refuse (exit 3, nothing changed) a backup whose key is here but whose journal doesn't verify as a whole:
    a row edited, deleted or inserted anywhere, not only at its head (the store's own verify, its anchor aside)."""
    from store.backup_identity import chain_problems

    try:
        problems = chain_problems(source, keyring)
    except BankerError as exc:
        fail(f"{source} can't be used: {exc}", UNUSABLE)
    if problems:
        for problem in problems:
            click.echo(f"banker: game restore: {shown(problem)}", err=True)
        fail(f"the key kept here for ledger {ledger_id} doesn't verify {source} as a whole "
             f"({plural(len(problems), 'problem')}): nothing was changed", UNUSABLE)


def _authorise_restore(keyring, path: Path, found, pin: str | None, *, current: bool):
    """Check the PIN that decides, before anything changes; the ledger id whose kept PIN it was, or None.

    That PIN is the one kept beside the anchor of the ledger that lives here (so a file deleted, damaged,
    rolled back or swapped for another can't choose its own PIN), else of the backup's ledger, else the
    current file's; with none of those the backup's own is checked as it is read (:func:`_read_backup`). A
    wrong one counts where it was checked.
    """
    from banker.fold.authority import NotAuthorised
    from runtime.ledger import authorise_kept

    guard = next((lid for lid in (keyring.registered(path), found[0] if found else None)
                  if lid and keyring.kept_authority(lid) is not None), None)
    if guard is not None:
        try:
            authorise_kept(keyring, guard, cli_grant(pin))
        except NotAuthorised as exc:
            fail(str(exc), NEEDS_PIN)
    elif current:  # the banker's PIN of the ledger being replaced: a wrong one counts there
        with open_ledger(path) as ledger:
            authorise(ledger, pin)
    return guard


def _read_backup(source: Path, pin: str | None, *, adopting: bool, checked: bool, fresh: bool):
    """Read the backup, writing nothing: (the PIN the restored ledger is to have, how many games it holds).

    Restored where there is no ledger (``fresh``), a backup to be adopted takes the PIN given (asked twice
    when its old one can't be checked), and one not yet ``checked`` by a kept PIN has its own checked.
    """
    from banker.fold.authority import NotAuthorised
    from runtime.adoption import adoption_pin, pin_uncheckable
    from runtime.ledger import SqliteLedger

    try:
        with SqliteLedger(source, writer=False, backups=False) as copy:
            if fresh and adopting:
                if pin_uncheckable(copy.game()):
                    pin = new_banker_pin(pin)
                adoption_pin(copy.game(), pin, time.time())
            elif fresh and not checked:
                authorise(copy, pin)
            return pin, len(copy.games())
    except NotAuthorised as exc:
        fail(str(exc), NEEDS_PIN)
    except BankerError as exc:
        fail(f"{source} can't be used: {exc}", UNUSABLE)


#: Why a restore onto a new card asks for the PIN twice (docs/cli.md, docs/security.md).
UNCHECKED = "the ledger's key is not on this unit: the PIN you type becomes the banker's PIN"


def new_banker_pin(pin: str | None) -> str:
    """The banker's PIN of a ledger whose old PIN can't be checked (a restore onto a new card): said why, then asked
    twice, hidden (click's confirmation prompt, as ``pin set``), unless ``--pin`` gave it; exit 4 when none comes,
    exit 2 for one that is not 4 to 8 digits (nothing changed either way)."""
    from banker.fold.authority import is_pin

    if pin is not None:
        click.echo(f"banker: {UNCHECKED} (as --pin gave it)", err=True)  # or $BANKER_PIN: --pin's own env
    else:
        click.echo(f"banker: {UNCHECKED}: type it twice", err=True)
        try:
            pin = click.prompt("New banker PIN", hide_input=True, confirmation_prompt="The same PIN again", err=True)
        except click.Abort:  # no terminal, or end of input: nothing was changed
            fail("no PIN typed: nothing was changed (give it with --pin PIN, or type it twice)", NEEDS_PIN)
    if not is_pin(pin):
        fail("a PIN is 4 to 8 digits 0-9: nothing was changed", USAGE)
    return pin


def _finish_cut_short(path: Path, source_head: tuple, pin: str | None) -> bool:
    """True when the ledger at ``path`` is ``source_head``'s backup adopted by a restore killed before its key
    was kept: the adoption is finished and the PIN (the one the adoption took) checked."""
    from runtime.adoption import finish_cut_short
    from store import Keyring

    keyring = Keyring()
    try:
        if keyring.key(source_head[0]) is not None or keyring.staged_key(source_head[0]) is None:
            return False
        record = finish_cut_short(path, keyring)
    except BankerError as exc:
        fail(str(exc), exit_code(exc))
    if record is None:
        return False
    if (record.from_seq - 1, record.previous_head) != (source_head[1], source_head[2][-1]):
        return False  # another adoption's: finished, and this restore goes on over it
    with open_ledger(path) as ledger:
        authorise(ledger, pin)
    return True


def _replace(source: Path, path: Path, pin: str | None, *, adopting: bool, checked: bool):
    """Put ``source`` in place of the ledger at ``path`` under the writer lock; adopted first (a copy of it,
    beside the ledger) when its key is not here. (kept copy of the ledger as it was, the KeyAdopted or None)."""
    from runtime.adoption import adopt, head_of
    from store import Keyring, restore_backup, take_writer_lock
    from store.backups import copy_database

    if not path.exists():  # a fresh card: nothing to lock yet, and the folder may be missing
        from store.keys import private_folder

        private_folder(path.parent)
    lock = take_writer_lock(str(path)) if path.exists() else None
    try:
        if not adopting:
            return restore_backup(source, path), None
        staged = path.with_name(f".{path.name}.adopting")
        try:
            copy_database(source, staged)
            record = adopt(staged, pin, pin_checked=checked, keep_staged=True)
            kept = restore_backup(staged, path)
            Keyring().commit_staged(head_of(path)[0])  # killed before: this restore again finishes it
            return kept, record
        finally:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{staged}{suffix}").unlink(missing_ok=True)
    finally:
        if lock is not None:
            lock.release()
