"""``banker script FILE``: a keypad script on a fresh game, on a stored ledger (tried on a copy first), or on a device.

The file must be UTF-8 (a byte-order mark is fine) and its digits ASCII;
the whole script is parsed before anything runs. On a stored ledger it is
first played on an in-memory copy, so an unknown deed or a refused
enrolment on line 40 exits 2 before line 1 is written. A script whose
changes were not saved (a full disk) exits 3.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click

from banker.text.words import plural

from .common import (
    UNUSABLE, USAGE, config_option, db_option, describe, exit_code, fail, failing, open_ledger, pin_option, shown,
)


# -- the command -------------------------------------------------------------------------------


#: ``--config``'s help for a script: which of the config's keys a script reads, and when (docs/cli.md).
CONFIG_HELP = ("The unit's TOML config (docs/config.md): its [unit] db is the ledger when named here and --db is not "
               "given; its [unit] language the screen's until the game picks one; its wiring for --backend hw-sim. "
               "[env: BANKER_CONFIG: all but the ledger]")


@click.command("script")
@click.argument("file", type=click.File("rb"))
@lambda command: db_option(command, help="Ledger database file to play on. [default: $BANKER_DB, else the [unit] "
                                         "db of a --config named here, else a fresh in-memory game]")
@click.option("--json", "as_json", is_flag=True, help="Print balances, volume, game and screen as JSON at the end.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing when the script passes (no summary line).")
@click.option("--backend", default="core", show_default=True,
              help="core: events straight into the unit; hw-sim: through the real drivers on simulated chips "
                   "(wired as --config says); window: the simulator's window; serial:URL: a unit on its test port; "
                   "spy:NAME logs every event, record and effect of NAME to stderr (docs/architecture.md).")
@click.option("--port", help="Run the script on a real unit over its serial test port (a pyserial URL).")
@pin_option
@lambda command: config_option(command, help=CONFIG_HELP)
def script_command(file, db: Path | None, as_json: bool, quiet: bool, backend: str, port: str | None,
                   pin: str | None) -> None:
    """Run a keypad script FILE ("-" for stdin) against the unit.

    With --db (or $BANKER_DB, or the [unit] db of a --config named here) it
    continues the game stored there, after the whole script was first tried
    on a copy: a step that fails there exits 2 with its line and nothing is
    written; without, it plays a fresh in-memory game (a $BANKER_CONFIG in
    the environment gives the language and the wiring, not the ledger). With
    --port it plays on a device over its serial test port (the device keeps
    its own ledger). 'expect screen' reads the screen as the unit draws it:
    in the game's language (FN 8), else the config's [unit] language, else
    English. Exit 0 when every expect holds, 1 at the first failing expect,
    2 for a malformed line (nothing is run) or a step the unit can't take, 3
    for a ledger or device that can't be used (a change not saved, a device
    that answers wrongly), 4 when the script enrols a card or a deed tag in
    a ledger with a banker's PIN and --pin does not give it.
    """

    from .common import config_path, current_config, resolve_db

    if config_path() is not None:
        current_config()  # a config named is read and checked (an unknown key, a bad value: exit 2) on any backend
        if db is None and current_config().db and _named_on_the_command_line("config_path"):
            db = resolve_db(None)  # its [unit] db, as every command reads it (docs/cli.md)
    name = file.name if isinstance(file.name, str) else "<stdin>"
    lines = read_script(file, name)
    if port is not None or backend.startswith("serial:"):
        from .port_script import script_on_port

        return script_on_port(name, lines, port or backend[len("serial:"):], as_json=as_json, quiet=quiet, pin=pin)
    _script_on_ledger(name, lines, db, as_json=as_json, quiet=quiet, backend=backend, pin=pin)


def _named_on_the_command_line(param: str) -> bool:
    """True when ``param`` was given on the command line, not taken from the environment: the Pi's ``banker`` on
    the PATH sets ``$BANKER_CONFIG`` for every command, and a script tried there must not play on the unit's game."""
    from click.core import ParameterSource

    return click.get_current_context().get_parameter_source(param) is ParameterSource.COMMANDLINE


def read_script(file, name: str) -> list:
    """The steps of the keypad script in the binary ``file``, read a line at a time (memory stays flat).

    Exit 2 naming ``name`` and the limit for a line longer than
    :data:`banker.script.syntax.MAX_LINE_BYTES`, a file larger than
    :data:`~banker.script.syntax.MAX_SCRIPT_BYTES` (``/dev/zero`` and other endless
    files stop there) or more than :data:`~banker.script.syntax.MAX_STEPS` steps; for
    a line that is not UTF-8 or holds a digit other than 0-9; for a malformed line.
    """
    from banker.script import syntax as scripts

    try:
        return scripts.parse_lines(_script_lines(file, name))
    except ValueError as exc:  # ScriptError: the line and what is wrong with it
        fail(f"{name}: {exc}", USAGE)


def _script_lines(file, name: str) -> Iterator[str]:
    """The text lines of ``file``, one at a time, within the limits (:func:`read_script`)."""
    from banker.script.syntax import MAX_LINE_BYTES, MAX_SCRIPT_BYTES

    size, number = 0, 0
    while raw := file.readline(MAX_LINE_BYTES + 1):
        size += len(raw)
        if size > MAX_SCRIPT_BYTES:
            fail(f"{name}: larger than {MAX_SCRIPT_BYTES:,} bytes (the limit for a script): split it", USAGE)
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            fail(f"{name}: line {number + 1}: longer than {MAX_LINE_BYTES:,} bytes (the limit for a line)", USAGE)
        try:
            text = raw.decode("utf-8-sig" if number == 0 else "utf-8")
        except UnicodeDecodeError as exc:
            fail(f"{name}: line {number + 1}: not UTF-8 text (byte 0x{raw[exc.start]:02X}); save the file as UTF-8",
                 USAGE)
        for line in text.splitlines() or [""]:
            number += 1
            _no_foreign_digits(line, number, name)
            yield line


def _no_foreign_digits(line: str, number: int, name: str) -> None:
    """Exit 2 at a digit that is not ASCII 0-9 (``²``, ``١``): it would be read as a number, or crash."""
    bad = next((ch for ch in line.split("#", 1)[0] if ch.isdigit() and ch not in "0123456789"), None)
    if bad is not None:
        fail(f"{name}: line {number}: {bad!r} is not a digit 0-9", USAGE)


def _script_on_ledger(name: str, lines, db: Path | None, *, as_json: bool, quiet: bool, backend: str,
                      pin: str | None) -> None:
    """Play ``lines`` on the ledger at ``db`` (after a rehearsal on a copy), or on a fresh in-memory game."""
    from .backends import parse
    from .common import config_path, current_config

    try:
        kind, _, _ = parse(backend)
    except ValueError as exc:
        fail(str(exc), USAGE)
    config = current_config() if kind == "hw-sim" else None
    # the screen as drawn: the config's language while the game has none (no config: none, as Config()'s default,
    # without loading runtime.config for it)
    language = current_config().language if config is not None or config_path() is not None else None
    with _ledger_at(db) as ledger:
        if db is not None:
            with failing(f"{name}: "):
                _rehearse(name, lines, ledger, backend, config, pin, language)
        def open_backend():
            return _backend(backend, ledger, config, pin, language)

        failure, held, posted = _play_saved(name, lines, ledger, open_backend, as_json=as_json)
    if failure is not None:
        fail(f"{name}: {failure}", 1)
    if not (quiet or as_json):
        kept = "" if db is not None else " (in memory: --db PATH keeps them)"
        click.echo(f"{shown(name)}: passed: {plural(held, 'expectation')} held, "
                   f"{plural(posted, 'transaction')} posted{kept}")


def _ledger_at(db: Path | None):
    """The stored ledger at ``db``, or a fresh in-memory game when None."""
    if db is not None:
        return open_ledger(db)
    from runtime.ledger import SqliteLedger

    return SqliteLedger(":memory:")


def _play_saved(name: str, lines, ledger, open_backend, *, as_json: bool):
    """Play ``lines`` over ``ledger`` on the backend ``open_backend()`` opens once every write is watched: (the first
    failing expectation or None, expectations held, transactions posted); exit 3 when a change was not saved;
    ``as_json``: the summary printed."""
    import json

    from banker.journal.records import transactions_in

    from .common import play_lines

    store = ledger.store = _Watched(ledger.store)
    before = store.last_seq()
    backend = open_backend()
    try:
        failure, held = play_lines(name, lines, backend)
    finally:
        getattr(backend, "close", lambda: None)()
    if store.failed:
        fail(f"{name}: {len(store.failed)} change(s) were not saved: {describe(store.failed[0])}", UNUSABLE)
    if as_json:
        game = ledger.game()
        click.echo(json.dumps({"balances": game.balances_by_name(), "volume": game.volume, "game": game.id,
                               "screen": backend.screen_lines()}))
    return failure, held, sum(len(transactions_in(r)) for r in store.records(before))


def _backend(spec: str, ledger, config, pin: str | None = None, language: str | None = None):
    from .backends import script_backend

    try:
        return script_backend(spec, ledger, config=config, pin=pin, language=language)
    except Exception as exc:  # a backend that can't start: no window, a wiring the config can't have
        fail(describe(exc), USAGE if exit_code(exc) == 1 else exit_code(exc))


def _rehearse(name: str, lines, stored, spec: str, config, pin: str | None = None,
              language: str | None = None) -> None:
    """Play ``lines`` on an in-memory copy of ``stored`` first: a step that fails there exits 2 with its line."""
    from firmware_sim.memory_store import MemoryStore
    from .backends import parse
    from runtime.ledger import Ledger

    from .common import play_lines

    copy = MemoryStore()  # the game as it stands: its last snapshot and what follows (a script reads no older history)
    found = stored.store.last_snapshot() if hasattr(stored.store, "last_snapshot") else None
    if found is not None:
        copy.append(found[1])
    for record in stored.store.records(found[0] if found is not None else 0):
        copy.append(record)
    kind, _, _ = parse(spec)
    with Ledger(copy, editions=stored.editions, pepper=stored.pepper) as rehearsal:
        backend = _backend(kind if kind in ("core", "hw-sim") else "core", rehearsal, config, pin, language)
        try:
            play_lines(name, lines, _CountedRefusals(backend, stored, pin), rehearsal=True)
        finally:
            getattr(backend, "close", lambda: None)()


class _CountedRefusals:
    """A rehearsal's backend whose banker's acts, refused on the copy, are put to the real ledger's own check.

    The copy's journal is thrown away, so a wrong PIN found there would go
    uncounted: the refusal asks the write path of ``stored``
    (:meth:`runtime.ledger.Ledger.authorise`) with the same grant, which
    journals the wrong try and applies the lockout, and the script stops at
    that line before anything is written.
    """

    def __init__(self, backend, stored, pin: str | None) -> None:
        self._backend, self._stored, self._pin = backend, stored, pin

    def _refused(self, act, *args) -> None:
        from banker.fold.authority import Grant, NotAuthorised

        try:
            act(*args)
        except NotAuthorised:
            self._stored.authorise(Grant(self._pin, "script"))  # raises the real refusal, counted
            raise

    def enrol(self, name: str, uid: str) -> None:
        self._refused(self._backend.enrol, name, uid)

    def enrol_deed(self, slug: str, uid: str) -> None:
        self._refused(self._backend.enrol_deed, slug, uid)

    def __getattr__(self, attribute: str):
        return getattr(self._backend, attribute)


class _Watched:
    """The ledger's store, keeping every append that failed (a script whose changes were not saved must not pass).

    An SQLite or disk error the store let through becomes the ledger error the
    unit shows as NOT SAVED.
    """

    def __init__(self, store) -> None:
        self._store = store
        self.failed: list[Exception] = []

    def append(self, record):
        from banker.errors import LedgerError

        try:
            return self._store.append(record)
        except LedgerError as exc:
            self.failed.append(exc)
            raise
        except Exception as exc:
            if exit_code(exc) != UNUSABLE:
                raise
            self.failed.append(exc)
            raise LedgerError(describe(exc)) from exc

    def __getattr__(self, attribute: str):
        return getattr(self._store, attribute)


