"""The ``banker`` command: wires the core, the ledger and the backends together (click).

Every command takes ``--db PATH`` (default: ``$BANKER_DB``, else ``ledger.db``
in the user's data directory). A user's mistake prints one line on stderr
and exits non-zero; nothing is changed.
"""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import datetime
from pathlib import Path

import click

from banker import script as scripts
from banker.errors import BankerError, ScriptError
from banker.records import GameSettings, normalise_uid
from banker.money import format_amount

from .common import amount_type, db_option, fail, open_ledger, pin_option, read_config, resolve_db
from .safety import authorise, game_backups, ledger_undo, ledger_verify, pin_group


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="monopoly-banker")
def cli() -> None:
    """The Monopoly Electronic Banking unit: ledger, keypad scripts, simulator and device."""


# -- script -------------------------------------------------------------------------------


@cli.command("script")
@click.argument("file", type=click.File("r"))
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print balances, volume, game and screen as JSON at the end.")
@click.option("--backend", default="core", show_default=True,
              help="core: events straight into the unit; hw-sim: through the real drivers on simulated chips; "
                   "window: the simulator's window; serial:URL: a unit on its test port; spy:NAME logs "
                   "every event, record and effect of NAME to stderr (docs/architecture.md).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="With --backend hw-sim: the device config whose wiring is simulated (docs/config.md).")
@click.option("--port", help="Run the script on a real unit over its serial test port (a pyserial URL).")
def script_command(file, db: Path | None, as_json: bool, backend: str, config_path: Path | None, port: str | None) -> None:
    """Run a keypad script FILE ("-" for stdin) against the unit.

    Without --db the script plays a fresh in-memory game; with --db it
    continues the game stored there. With --port it plays on a device over
    its serial test port (the device keeps its own ledger). Exit 0 when every
    expect holds, 1 at the first failing expect, 2 for a malformed line
    (nothing is run) or a step the unit can't take, 3 for a ledger or device
    that can't be used.
    """
    from runtime.ledger import SqliteLedger

    try:
        lines = scripts.parse(file.read())
    except ScriptError as exc:
        fail(f"{file.name}: {exc}", 2)
    if port is not None or backend.startswith("serial:"):
        return _script_on_port(file.name, lines, port or backend[len("serial:"):], as_json)
    ledger = open_ledger(db) if db is not None else SqliteLedger(":memory:")
    with ledger:
        backend_ = _script_backend(backend, ledger, config_path)
        try:
            failure = scripts.run(lines, backend_)
        except BankerError as exc:
            fail(f"{file.name}: {exc}", 2)
        finally:
            getattr(backend_, "close", lambda: None)()
        if as_json:
            click.echo(json.dumps({
                "balances": ledger.balances(),
                "volume": ledger.game().volume,
                "game": ledger.game().id,
                "screen": backend_.screen_lines(),
            }))
        if failure is not None:
            fail(f"{file.name}: {failure}", 1)


def _script_backend(backend: str, ledger, config_path: Path | None):
    from runtime.backends import parse, script_backend

    try:
        name, _, _ = parse(backend)
    except BankerError as exc:
        fail(str(exc), 2)
    config = read_config(config_path) if name == "hw-sim" else None
    try:
        return script_backend(backend, ledger, config=config)
    except BankerError as exc:
        fail(str(exc), 3)


def _script_on_port(name: str, lines, port: str, as_json: bool) -> None:
    from firmware_sim.serial_backend import SerialBackend

    try:
        remote = SerialBackend(port)
    except (BankerError, OSError) as exc:
        fail(f"{port}: {exc}", 3)
    try:
        failure = scripts.run(lines, remote)
        if as_json:
            click.echo(json.dumps({**remote.status(), "screen": remote.screen_lines()}))
    except (BankerError, OSError) as exc:
        fail(f"{name}: {exc}", 2)
    finally:
        remote.port.close()
    if failure is not None:
        fail(f"{name}: {failure}", 1)


# -- cards --------------------------------------------------------------------------------


@cli.group()
def cards() -> None:
    """List, enrol, rename and remove player cards."""


@cards.command("list")
@db_option
def cards_list(db: Path | None) -> None:
    """List the enrolled cards with their balances in the current game."""
    with open_ledger(db, writer=False) as ledger:
        for card in ledger.cards():
            click.echo(f"{card.name:<16} {card.uid:<14} {format_amount(ledger.balance(card.id)):>12}")


@cards.command("enrol")
@click.argument("name")
@click.option("--uid", help="The card's RFID UID in hex (read it with 'banker doctor' or on the device).")
@pin_option
@db_option
def cards_enrol(name: str, uid: str | None, pin: str | None, db: Path | None) -> None:
    """Enrol a card for player NAME; it gets the current game's start balance."""
    try:
        uid = normalise_uid(uid) if uid else scripts.made_up_uid(name)
    except ValueError as exc:
        fail(str(exc), 2)
    with open_ledger(db) as ledger:
        authorise(ledger, pin)
        try:
            card = ledger.enrol(name, uid)
        except BankerError as exc:
            fail(str(exc))
        click.echo(f"enrolled {card.name} ({card.uid}) with {format_amount(ledger.balance(card.id))}")


@cards.command("rename")
@click.argument("name")
@click.argument("new_name")
@pin_option
@db_option
def cards_rename(name: str, new_name: str, pin: str | None, db: Path | None) -> None:
    """Rename the player NAME to NEW_NAME."""
    with open_ledger(db) as ledger:
        authorise(ledger, pin)
        try:
            ledger.rename(name, new_name)
        except BankerError as exc:
            fail(str(exc))
        click.echo(f"renamed {name} to {new_name}")


@cards.command("remove")
@click.argument("name")
@pin_option
@db_option
def cards_remove(name: str, pin: str | None, db: Path | None) -> None:
    """Retire NAME's card (its past transactions stay in the ledger)."""
    with open_ledger(db) as ledger:
        authorise(ledger, pin)
        try:
            ledger.remove(name)
        except BankerError as exc:
            fail(str(exc))
        click.echo(f"removed {name}")


# -- games --------------------------------------------------------------------------------


@cli.group()
def game() -> None:
    """List, start and restore games (old games are archived, never deleted)."""


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")


@game.command("list")
@db_option
def game_list(db: Path | None) -> None:
    """List every game, the current one marked with *."""
    with open_ledger(db, writer=False) as ledger:
        for g in ledger.games():
            mark = "*" if g.current else " "
            s = g.settings
            click.echo(
                f"{mark} {g.id:>4}  {_when(g.started)}  {g.transactions:>5} transactions"
                f"  start {format_amount(s.start_balance)}, GO {format_amount(s.go_salary)}"
                + (", negative balances" if s.allow_negative else "")
                + (", short game" if s.houses_for_hotel == 3 else "")
                + (", Income Tax 10% option" if s.income_tax_choice else "")
                + (f", Luxury Tax {format_amount(s.luxury_tax)}" if s.luxury_tax is not None else "")
                + (f", {s.edition} deeds" if s.edition != "us" else "")
            )


@game.command("new")
@click.option("--start", "start", type=amount_type, help="Start balance (default: as the current game, 15M).")
@click.option("--go", "go", type=amount_type, help="GO salary (default: as the current game, 2M).")
@click.option("--allow-negative/--no-negative", default=None, help="House rule: balances may go below zero.")
@click.option("--short-game/--standard-game", default=None, help="Short game: a hotel after 3 houses.")
@click.option("--income-tax-choice/--flat-income-tax", default=None, help="Older rule: 10% of worth instead of 2M.")
@click.option("--luxury-tax", "luxury_tax", type=amount_type, help="Luxury Tax (older sets: 750K). [default: as the current game, 1M]")
@click.option("--edition", help="Deed set (cards/editions/NAME.toml). [default: as the current game, us]")
@pin_option
@db_option
def game_new(start, go, allow_negative, short_game, income_tax_choice, luxury_tax, edition, pin, db) -> None:
    """Archive the current game and start a new one, every card at the start balance.

    Changing a setting needs the banker's PIN (when one is set); a new game
    with the same settings does not, as holding C on the unit.
    """
    with open_ledger(db) as ledger:
        now = ledger.game().settings
        settings = GameSettings(
            start if start is not None else now.start_balance,
            go if go is not None else now.go_salary,
            now.allow_negative if allow_negative is None else allow_negative,
            edition or now.edition,
            now.houses_for_hotel if short_game is None else (3 if short_game else 4),
            now.income_tax_choice if income_tax_choice is None else income_tax_choice,
            now.luxury_tax if luxury_tax is None else luxury_tax,
        )
        if settings != now:
            authorise(ledger, pin)
        try:
            g = ledger.new_game(settings)
        except BankerError as exc:
            fail(str(exc))
        click.echo(f"game {g.id} started: {len(ledger.cards())} players at {format_amount(settings.start_balance)}")


@game.command("restore")
@click.argument("game_id", type=int, required=False)
@click.option("--backup", help="Bring back a backup file instead ('latest' for the newest; see 'banker game backups').")
@pin_option
@db_option
def game_restore(game_id: int | None, backup: str | None, pin: str | None, db: Path | None) -> None:
    """Make the archived game GAME_ID current again, or bring back a backup of the ledger.

    Needs the banker's PIN when one is set (for a backup: the backup's PIN).
    """
    if backup is not None:
        return _restore_backup(backup, pin, db)
    if game_id is None:
        fail("name a GAME_ID or --backup", 2)
    with open_ledger(db) as ledger:
        authorise(ledger, pin)
        try:
            g = ledger.restore_game(game_id)
        except BankerError as exc:
            fail(str(exc))
        click.echo(f"game {g.id} is current again")


def _restore_backup(backup: str, pin: str | None, db: Path | None) -> None:
    from store import list_backups, restore_backup
    from runtime.ledger import SqliteLedger

    path = resolve_db(db)
    if backup == "latest":
        found = list_backups(path)
        if not found:
            fail(f"there is no backup of {path}")
        source = found[0]
    else:
        source = Path(backup)
        if not source.is_file():
            fail(f"no backup file {source}", 2)
    from store import is_ledger_file

    if not is_ledger_file(source):
        fail(f"{source} is not a banker ledger", 3)
    if is_ledger_file(path):  # the banker's PIN of the ledger being replaced
        with open_ledger(path, writer=False) as current:
            authorise(current, pin)
    try:
        with SqliteLedger(source, backups=False) as copy:
            authorise(copy, pin)
            games = len(copy.games())
    except BankerError as exc:
        fail(f"{source} can't be used: {exc}", 3)
    from store import take_writer_lock

    try:
        lock = take_writer_lock(str(path))
    except BankerError as exc:
        fail(str(exc), 3)
    try:
        kept = restore_backup(source, path)
    finally:
        os.close(lock)
    click.echo(f"restored {source} ({games} games)" + (f"; the ledger as it was is kept in {kept}" if kept else ""))


# -- ledger -------------------------------------------------------------------------------


@cli.group()
def ledger() -> None:
    """Show and export the journal of transactions."""


def _journal(ledger_, game_id: int | None) -> list[dict]:
    names = ledger_.card_names()
    party = lambda cid: "bank" if cid is None else names.get(cid, f"card {cid}")  # noqa: E731
    rows = []
    journal = ledger_.transactions(game_id)
    undone_by = {tx.reverses: tx.id for tx in journal if tx.reverses is not None}
    for tx in journal:
        for p in tx.postings:
            rows.append({
                "id": tx.id, "game": tx.game, "time": datetime.fromtimestamp(tx.time).isoformat(timespec="seconds"),
                "kind": tx.kind, "payer": party(p.payer), "payee": party(p.payee), "amount": p.amount,
                "memo": tx.memo, "reverses": tx.reverses, "reversed_by": undone_by.get(tx.id),
            })
    return rows


def _game_id(ledger_, game_id: int | None) -> int:
    if game_id is not None and game_id not in {g.id for g in ledger_.games()}:
        fail(f"there is no game {game_id}")
    return game_id if game_id is not None else ledger_.game().id


@ledger.command("show")
@click.option("--game", "game_id", type=int, help="Game to show (default: the current one).")
@db_option
def ledger_show(game_id: int | None, db: Path | None) -> None:
    """Show the journal of a game, one posting a line."""
    with open_ledger(db, writer=False) as led:
        for row in _journal(led, _game_id(led, game_id)):
            mark = f"  [undone by #{row['reversed_by']}]" if row["reversed_by"] else ""
            click.echo(
                f"{row['id']:>6}  {row['time']}  {row['kind']:<9} {row['payer']:>12} -> {row['payee']:<12}"
                f" {format_amount(row['amount']):>12}  {row['memo']}{mark}"
            )


@ledger.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--game", "game_id", type=int, help="Game to export (default: the current one).")
@click.option("--output", "-o", type=click.File("w"), default="-", help="File to write (default: stdout).")
@db_option
def ledger_export(fmt: str, game_id: int | None, output, db: Path | None) -> None:
    """Export a game's journal as CSV or JSON (amounts in whole dollars)."""
    with open_ledger(db, writer=False) as led:
        rows = _journal(led, _game_id(led, game_id))
    if fmt == "json":
        output.write(json.dumps(rows, indent=1) + "\n")
        return
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["id", "game", "time", "kind", "payer", "payee", "amount", "memo", "reverses", "reversed_by"])
    writer.writeheader()
    writer.writerows(rows)
    output.write(buffer.getvalue())


from .device_cli import doctor_command, run_command  # noqa: E402
from .rules_cli import deeds_group, game_show_command  # noqa: E402
from .sim import sim_command  # noqa: E402

cli.add_command(run_command)
cli.add_command(deeds_group, "deeds")
cli.add_command(sim_command, "sim")
game.add_command(game_show_command, "show")
cli.add_command(doctor_command)
ledger.add_command(ledger_verify)
ledger.add_command(ledger_undo)
game.add_command(game_backups)
cli.add_command(pin_group)
