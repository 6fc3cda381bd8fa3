"""What every banker command shares: --db, --config and --pin, finding and opening the ledger, failing clearly.

The ledger a command uses is, in this order: ``--db PATH``, ``$BANKER_DB``,
the config's ``[unit] db`` (the config from ``--config FILE`` or
``$BANKER_CONFIG``), then ``ledger.db`` in the user data folder. Errors
print one ``banker: ...`` line on stderr and exit with the code of
docs/cli.md (:data:`REFUSED`, :data:`USAGE`, :data:`UNUSABLE`, :data:`NEEDS_PIN`).
This module imports only click at load time, so ``banker --help`` stays quick.
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn
from collections.abc import Iterator

import click

APP_NAME = "monopoly-banker"

#: Exit codes (docs/cli.md).
REFUSED, USAGE, UNUSABLE, NEEDS_PIN = 1, 2, 3, 4

_CONFIG_KEY = "banker.config_path"
_CONFIG_VALUE = "banker.config"


def default_db() -> Path:
    """Where the ledger lives when neither ``--db``, ``$BANKER_DB`` nor the config says."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME) / "ledger.db"


# -- options ------------------------------------------------------------------------------


class FilePath(click.Path):
    """A file's path as an option takes it; a path no file can have (a NUL in it) is bad usage, not a crash."""

    def __init__(self, **kwargs) -> None:
        super().__init__(dir_okay=False, path_type=Path, **kwargs)

    def convert(self, value, param, ctx):
        if "\0" in str(value):
            self.fail(f"{str(value)!r}: a path can't hold a NUL character", param, ctx)
        try:
            return super().convert(value, param, ctx)
        except ValueError as exc:  # os.stat's refusals of a path that can't be one
            self.fail(f"{str(value)!r}: {exc}", param, ctx)


def _remember_config(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Keep the config's path for :func:`current_config` (which reads it once, exit 2 if it is bad)."""
    ctx.meta[_CONFIG_KEY] = value
    return value


def _has_option(func, name: str) -> bool:
    return any(p.name == name for p in getattr(func, "__click_params__", ()))


def config_option(func, *, help: str = "The unit's TOML config (docs/config.md): its [unit] db is the ledger when "
                                     "--db is not given. [env: BANKER_CONFIG]"):
    """``--config FILE`` (or ``$BANKER_CONFIG``): the device config; :func:`current_config` reads it. ``help``: a
    command's own words for it (``banker script``'s)."""
    if _has_option(func, "config_path"):
        return func
    return click.option(
        "--config", "config_path", type=FilePath(), envvar="BANKER_CONFIG",
        expose_value=False, callback=_remember_config, help=help,
    )(func)


def db_option(func, *, help: str = "Ledger database file. [default: $BANKER_DB, else the config's [unit] db, else "
                                 "ledger.db in the user data folder]"):
    """``--db PATH`` (or ``$BANKER_DB``), and ``--config FILE`` with it; ``help``: a command's own words for it."""
    func = click.option("--db", "db", type=FilePath(), envvar="BANKER_DB", default=None, help=help)(func)
    return config_option(func)


def pin_option(func):
    return click.option("--pin", envvar="BANKER_PIN", default=None,
                        help="The banker's PIN, when one is set. [env: BANKER_PIN]")(func)


def cli_grant(pin: str | None):
    """The banker's authority a command offers with its act: ``--pin`` as given (the write path decides if it
    is needed, and checks it)."""
    from banker.fold.authority import Grant

    return Grant(pin, "cli")


def amount_type(text: str, *, allow_zero: bool = False) -> int:
    """An amount on the command line (``15M``); ``allow_zero``: ``0M`` too. A bad one is a usage error."""
    from banker.errors import BankerError
    from banker.money import parse_amount

    try:
        return parse_amount(text, allow_zero=allow_zero)
    except BankerError as exc:
        raise click.BadParameter(str(exc)) from None


def seed_type(text: str) -> int:
    """An amount that may be zero (a Free Parking pot that starts empty: ``0M``)."""
    return amount_type(text, allow_zero=True)


def uid_or_none(uid: str | None) -> str | None:
    """A card UID given on the command line, normalised; exit 2 for one that is empty or not hex."""
    if uid is None:
        return None
    from banker.journal.records import normalise_uid

    try:
        if not uid.strip():
            raise ValueError("a card UID can't be empty")
        return normalise_uid(uid)
    except ValueError as exc:
        fail(str(exc), USAGE)


# -- failing ------------------------------------------------------------------------------


def fail(message: str, code: int = REFUSED) -> NoReturn:
    click.echo(f"banker: {shown(message)}", err=True)
    sys.exit(code)


def exit_code(exc: BaseException) -> int:
    """The exit code of docs/cli.md for an error a command could not get past."""
    from banker.fold.authority import NotAuthorised
    from banker.rules.deeds import UnknownDeed
    from banker.errors import AmountError, BankerError, ConfigError, ScriptError

    sqlite3 = sys.modules.get("sqlite3")
    if reader_gone(exc):
        raise exc  # no error of the ledger's or a device's: the entry point ends quietly (banker_cli.main)
    if isinstance(exc, NotAuthorised):
        return NEEDS_PIN
    if isinstance(exc, (ConfigError, ScriptError, AmountError, UnknownDeed)):
        return USAGE
    if isinstance(exc, (OSError, ImportError, TimeoutError)) or sqlite3 is not None and isinstance(exc, sqlite3.Error):
        return UNUSABLE  # the ledger or a device: corrupt, locked, in use, no space, missing
    if isinstance(exc, BankerError):
        return REFUSED
    raise exc


def reader_gone(exc: BaseException) -> bool:
    """True when ``exc`` is stdout's reader having closed its end of the pipe (``banker deeds list | head``).

    A broken pipe to a device or a socket (``--port socket://...``) is not: only
    when stdout itself reports the error (``poll``'s ``POLLERR``, as Linux does
    for a pipe without readers) is it the reader that went away.
    """
    if not isinstance(exc, BrokenPipeError):
        return False
    import select

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's captured output)
        return False
    if not hasattr(select, "poll"):  # no way to ask stdout: a broken pipe keeps its meaning (exit 3)
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


def describe(exc: BaseException) -> str:
    """One line for a person: the error's own words, or what a disk or SQLite error means for the ledger."""
    from banker.errors import BankerError

    if isinstance(exc, BankerError):
        return str(exc)
    path = _ledger_in_hand()
    if _disk_full(exc):
        return f"the disk is full: nothing was written{f' to {path}' if path else ''}"
    if isinstance(exc, OSError):
        name = exc.filename or path
        return f"{name}: {exc.strerror or exc}" if name else str(exc.strerror or exc)
    return f"{path}: {exc}" if path else str(exc)


def _ledger_in_hand() -> Path | None:
    """The ledger path the running command resolved (:func:`resolve_db` notes it), or None."""
    where = click.get_current_context(silent=True)
    return where.meta.get("banker.ledger_path") if where is not None else None


def _disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk (or the user's quota) is full, as the OS or SQLite says it."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT) or "full" in str(exc)


@contextmanager
def failing(prefix: str = "") -> Iterator[None]:
    """Turn an error a user can't go past into its message and exit code; ``prefix`` names what it was about."""
    from banker.errors import BankerError

    sqlite3 = sys.modules.get("sqlite3")
    kinds: tuple = (BankerError, OSError, TimeoutError) + ((sqlite3.Error,) if sqlite3 is not None else ())
    try:
        yield
    except kinds as exc:
        fail(f"{prefix}{describe(exc)}", exit_code(exc))


# -- the config and the ledger ------------------------------------------------------------


def config_path() -> Path | None:
    """The config file named by ``--config`` or ``$BANKER_CONFIG`` (None: none)."""
    ctx = click.get_current_context(silent=True)  # its meta is shared by the whole command line
    if ctx is not None and ctx.meta.get(_CONFIG_KEY) is not None:
        return ctx.meta[_CONFIG_KEY]
    env = os.environ.get("BANKER_CONFIG")
    return Path(env) if env else None


def current_config():
    """The device config of this command (all defaults without one); a bad one exits 2 naming its key."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and _CONFIG_VALUE in ctx.meta:
        return ctx.meta[_CONFIG_VALUE]
    config = read_config(config_path())
    if ctx is not None:
        ctx.meta[_CONFIG_VALUE] = config
    return config


def resolve_db(db: Path | None) -> Path:
    """The ledger's path: ``--db`` or ``$BANKER_DB`` (``db``), else the config's ``[unit] db``, else the data folder."""
    if db is None and os.environ.get("BANKER_DB"):
        db = Path(os.environ["BANKER_DB"])
    if config_path() is not None:  # a config named is read (and checked) even when --db overrides its ledger
        configured = current_config().db
        db = Path(configured) if db is None and configured else db
    path = Path(db).expanduser() if db is not None else default_db()
    if "\0" in str(path):
        fail("a ledger path can't hold a NUL character", USAGE)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta["banker.ledger_path"] = path
    return path


def open_ledger(db: Path | None, *, writer: bool = True, on_refused=None, **options):
    """The ledger at ``db`` (or as :func:`resolve_db` finds it); a clear message and exit 3 if it can't be used.

    ``writer=False`` for commands that only read: they work beside a running
    unit, and they never create a ledger (a missing one is an error naming it).
    ``options`` go to the store (``upgrade=True``, ``accept=True``: ``banker ledger upgrade|accept``).
    ``on_refused(error)`` is told first when the writer refuses the journal (not the one anchored, another
    ledger's, an earlier release's): ``banker run`` shows it on the unit's own screen.
    """
    from runtime.ledger import SqliteLedger
    from .stick import told_backup_problems

    path = _openable(resolve_db(db), writer=writer)
    if writer and options.get("backups", True) and config_path() is not None:
        options.setdefault("second_backup_folder", current_config().backups_second_folder)  # docs/backups.md
    try:
        return told_backup_problems(SqliteLedger(path, writer=writer, **options))  # a backup's problems said at the end
    except Exception as exc:
        _refuse_to_open(path, exc, on_refused)
        raise  # a programming error, not the ledger's


def _openable(path: Path, *, writer: bool) -> Path:
    """``path``, where a ledger can be opened: exit 3 for a missing one a reader would open (a reader never
    creates one) and for something there that is not a file."""
    if not writer and not path.exists():
        fail(f"there is no ledger at {path} (a mistyped --db?); 'banker cards enrol NAME' starts one", UNUSABLE)
    if path.exists() and not path.is_file():
        fail(f"{path} is not a ledger file", UNUSABLE)
    return path


def _refuse_to_open(path: Path, exc: Exception, on_refused) -> None:
    """Exit 3 with what ``exc`` means for the ledger at ``path``: a damaged one offers its newest good backup;
    a journal the writer refuses is told to ``on_refused`` first; a disk or SQLite error says what the file
    can't do. Returns for any other error (a bug, to be raised as it is)."""
    from banker.errors import CorruptLedger, LedgerError

    if isinstance(exc, CorruptLedger):
        from store import latest_good_backup

        good = latest_good_backup(path)  # a damaged backup is passed over
        offer = (f"; the newest good backup is {good}: bring it back with"
                 f" 'banker game restore --backup latest --db {path}'") if good else "; there is no usable backup of it"
        fail(f"{exc}{offer}", UNUSABLE)
    if isinstance(exc, LedgerError):
        from store.trust import OldLedger, UntrustedJournal

        if on_refused is not None and isinstance(exc, (OldLedger, UntrustedJournal)):
            on_refused(exc)
        fail(str(exc), UNUSABLE)
    if isinstance(exc, OSError) or type(exc).__module__ == "sqlite3":  # while opening: the file can't be used
        fail(f"{path} can't be opened: {describe(exc)}", UNUSABLE)


# -- reading files ------------------------------------------------------------------------


def decode_text(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text (a byte-order mark is dropped); exit 2 naming ``name`` and the line of a bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        fail(f"{name}: line {line}: not UTF-8 text (byte 0x{data[exc.start]:02X}); save the file as UTF-8", USAGE)


def read_config(path: Path | None):
    """The device config in the file at ``path`` (None: all defaults); a bad one exits 2 naming its key."""
    from banker.errors import BankerError
    from runtime.config import Config, parse_config
    from runtime.config_file import read_config_bytes

    if path is None:
        return Config()
    try:
        data = read_config_bytes(path)  # at most MAX_CONFIG_BYTES: an endless file is refused, not read
    except OSError as exc:
        fail(f"cannot read the config {path}: {exc.strerror}", USAGE)
    except BankerError as exc:
        fail(str(exc), USAGE)
    try:
        return parse_config(decode_text(data, str(path)), str(path))
    except BankerError as exc:
        fail(str(exc), USAGE)


def shown(text: object) -> str:
    """``text`` (a name, a memo: anything stored) made safe to print (:func:`banker.text.visible.shown`): ESC becomes
    ``\\x1b``, a bidi override ``\\u202e``; accents and emoji are kept."""
    from banker.text.visible import shown as visible

    return visible(text)


@contextmanager
def private_output(path: Path | None) -> Iterator:
    """A text file to write to, readable only by its owner (0600), or stdout for None or ``-``
    (:func:`banker_cli.output.private_output`: atomic for a file, written through for a FIFO or a device)."""
    from .output import private_output as output

    with output(path) as out:
        yield out


# -- keypad scripts -----------------------------------------------------------------------


def play_lines(name: str, lines, backend, *, rehearsal: bool = False):
    """Carry out script ``lines`` on ``backend`` one by one: (the first failing expectation or None, expectations held).

    A step the unit can't take exits 2 naming its line (3 for a ledger or a
    device that can't be used, 4 for a missing PIN). A ``rehearsal`` goes on
    past a failing expectation, so every line is tried, and its message says
    that nothing was written.
    """
    from banker.script import syntax as scripts
    from banker.script import run as script_run

    from banker.errors import BankerError

    sqlite3 = sys.modules.get("sqlite3")
    kinds: tuple = (BankerError, OSError, TimeoutError) + ((sqlite3.Error,) if sqlite3 is not None else ())
    held, first = 0, None
    for line in lines:
        try:
            failure = script_run.run([line], backend)
        except kinds as exc:
            _step_refused(name, line, exc, rehearsal=rehearsal)
        if failure is not None and not rehearsal:
            return failure, held
        first = first or failure
        held += failure is None and not isinstance(line.step, scripts.ACTIONS)
    return first, held


def _step_refused(name: str, line, exc: BaseException, *, rehearsal: bool) -> None:
    """Exit naming the script's ``line`` with why its step couldn't be taken: 2, or 3 for a ledger or a device
    that can't be used, 4 for a missing PIN."""
    code = exit_code(exc)
    note = " (found before anything ran: nothing was written)" if rehearsal else ""
    said = getattr(exc, "reason", None) if getattr(exc, "line", None) == line.number else None
    fail(f"{name}: line {line.number}: {said or describe(exc)}{note}", USAGE if code == REFUSED else code)
