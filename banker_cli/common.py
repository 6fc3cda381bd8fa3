"""What every banker command shares: the --db and --pin options, opening the ledger, failing clearly."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from banker.errors import BankerError, CorruptLedger, LedgerError
from banker.money import parse_amount

APP_NAME = "monopoly-banker"


def default_db() -> Path:
    """Where the ledger lives when neither ``--db`` nor ``$BANKER_DB`` says."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME) / "ledger.db"


def resolve_db(db: Path | None) -> Path:
    return db if db is not None else default_db()


def db_option(func):
    return click.option(
        "--db",
        "db",
        type=click.Path(dir_okay=False, path_type=Path),
        envvar="BANKER_DB",
        default=None,
        help="Ledger database file. [default: $BANKER_DB, else ledger.db in the user data folder]",
    )(func)


def pin_option(func):
    return click.option("--pin", envvar="BANKER_PIN", default=None,
                        help="The banker's PIN, when one is set. [env: BANKER_PIN]")(func)


def fail(message: str, code: int = 1) -> None:
    click.echo(f"banker: {message}", err=True)
    sys.exit(code)


def open_ledger(db: Path | None, *, writer: bool = True):
    """The ledger at ``db`` (or the default); a clear message and exit 3 if it can't be used.

    ``writer=False`` for commands that only read: they work beside a running unit.
    """
    from store import list_backups
    from runtime.ledger import SqliteLedger

    path = resolve_db(db)
    try:
        return SqliteLedger(path, writer=writer)
    except CorruptLedger as exc:
        backups = list_backups(path)
        offer = (f"; the last backup is {backups[0]}: bring it back with"
                 f" 'banker game restore --backup latest --db {path}'") if backups else "; there is no backup of it"
        fail(f"{exc}{offer}", 3)
    except LedgerError as exc:
        fail(str(exc), 3)


def read_config(path: Path | None):
    """The device config in the file at ``path`` (None: all defaults); a bad one exits 2 naming its key."""
    from runtime.config import Config, parse_config

    if path is None:
        return Config()
    try:
        return parse_config(Path(path).read_text(encoding="utf-8"), str(path))
    except OSError as exc:
        fail(f"cannot read the config {path}: {exc.strerror}", 2)
    except BankerError as exc:
        fail(str(exc), 2)


def amount_type(text: str) -> int:
    try:
        return parse_amount(text)
    except BankerError as exc:
        raise click.BadParameter(str(exc)) from None
