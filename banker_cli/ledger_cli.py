"""The ledger's cards, games and journal: ``cards``, ``game list|new|restore``, ``ledger show|export|accept|upgrade``.

``ledger show`` and ``ledger export`` stream: they read the journal one
transaction at a time and write as they go, in constant memory.
"""

from __future__ import annotations

import re
import sys
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path

import click

from banker.text.words import plural

from .common import (
    USAGE, FilePath, amount_type, cli_grant, seed_type, db_option, fail, failing, open_ledger, pin_option, private_output,
    shown, uid_or_none,
)
from .options import Pair, edition_type, one_of


# -- cards --------------------------------------------------------------------------------


@click.group()
def cards() -> None:
    """List, enrol, rename and remove player cards."""


@cards.command("list")
@db_option
def cards_list(db: Path | None) -> None:
    """List the enrolled cards with their balances in the current game."""
    from banker.money import format_amount

    with open_ledger(db, writer=False) as ledger, failing():
        game = ledger.game()
        if not game.cards:
            click.echo(f"no cards are enrolled in {shown(ledger.path)} yet: 'banker cards enrol NAME' enrols one", err=True)
        for card in game.cards:
            click.echo(f"{shown(card.name):<16} {card.uid:<14} {format_amount(game.balance(card.id)):>12}")


@cards.command("enrol")
@click.argument("name")
@click.option("--uid", help="The card's RFID UID in hex (read it with 'banker doctor' or on the device).")
@pin_option
@db_option
def cards_enrol(name: str, uid: str | None, pin: str | None, db: Path | None) -> None:
    """Enrol a card for player NAME; it gets the current game's start balance."""
    from banker.money import format_amount
    from banker.script.syntax import made_up_uid

    uid = uid_or_none(uid) or made_up_uid(name)
    with open_ledger(db) as ledger, failing():
        card = ledger.enrol(name, uid, cli_grant(pin))
        click.echo(f"enrolled {shown(card.name)} ({card.uid}) with {format_amount(ledger.game().balance(card.id))}")


@cards.command("rename")
@click.argument("name")
@click.argument("new_name")
@pin_option
@db_option
def cards_rename(name: str, new_name: str, pin: str | None, db: Path | None) -> None:
    """Rename the player NAME to NEW_NAME."""
    with open_ledger(db) as ledger, failing():
        ledger.rename(name, new_name, cli_grant(pin))
        click.echo(f"renamed {shown(name)} to {shown(new_name)}")


@cards.command("remove")
@click.argument("name")
@pin_option
@db_option
def cards_remove(name: str, pin: str | None, db: Path | None) -> None:
    """Retire NAME's card (its past transactions stay in the ledger)."""
    with open_ledger(db) as ledger, failing():
        ledger.remove(name, cli_grant(pin))
        click.echo(f"removed {shown(name)}")


def _when(stamp: float | None) -> str:
    return datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M") if stamp is not None else "?"


@click.command("list")
@db_option
def game_list(db: Path | None) -> None:
    """List every game, the current one marked with *."""
    from banker.money import format_amount

    with open_ledger(db, writer=False) as ledger, failing():
        for g in ledger.games():
            mark = "*" if g.current else " "
            s = g.settings
            click.echo(
                f"{mark} {g.id:>4}  {_when(g.started)}  {g.transactions:>5} {'transaction' if g.transactions == 1 else 'transactions':<12}"
                f"  start {format_amount(s.start_balance)}, GO {format_amount(s.go_salary)}"
                + _rule_notes(s) + _play_notes(g, ledger)
            )


def _rule_notes(s) -> str:
    """The house rules and deed set of a game's line in ``game list``, each after a comma (none when standard)."""
    from banker.money import format_amount

    return ((", negative balances" if s.allow_negative else "")
            + (", short game" if s.is_short_game else "")
            + (", Income Tax 10% option" if s.income_tax_choice else "")
            + (f", Luxury Tax {format_amount(s.luxury_tax)}" if s.luxury_tax is not None else "")
            + (f", {shown(s.edition)} deeds" if s.edition != "us" else "")
            + (f", Free Parking pot (seed {format_amount(s.jackpot)})" if s.jackpot is not None else ""))


def _play_notes(g, ledger) -> str:
    """How game ``g`` is played, for its line in ``game list``: its time limit (up or not, for the current
    game) and its sums for children."""
    from banker.unit.play_clock import time_left_line

    s = g.settings
    return ((f", time limit {time_left_line(s.time_limit, False, left=False)}"
             + (" (time is up)" if g.current and ledger.game().time_up else "") if s.time_limit else "")
            + (f", sums {'asked' if s.sums == 'ask' else 'shown'}" if s.sums else ""))


@click.command("new")
@click.option("--start", "start", type=amount_type, help="Start balance (default: as the current game, 15M).")
@click.option("--go", "go", type=amount_type, help="GO salary (default: as the current game, 2M).")
@click.option("--allow-negative/--no-negative", cls=Pair, help="House rule: balances may go below zero.")
@click.option("--short-game/--standard-game", cls=Pair, help="Short game: a hotel after 3 houses.")
@click.option("--income-tax-choice/--flat-income-tax", cls=Pair, help="Older rule: 10% of worth instead of 2M.")
@click.option("--luxury-tax", "luxury_tax", type=amount_type,
              help="Luxury Tax (older sets: 750K). [default: as the current game, 1M]")
@click.option("--edition", type=edition_type, metavar="NAME",
              help="Deed set (cards/editions/NAME.toml). [default: as the current game, us]")
@click.option("--free-parking", "free_parking", type=seed_type, metavar="SEED",
              help="House rule: taxes and the jail fine go into a Free Parking pot seeded with this (0M: empty).")
@click.option("--no-free-parking", is_flag=True, help="No Free Parking pot: taxes and fines go to the bank.")
@click.option("--time-limit", "minutes", type=click.IntRange(1, 1440), metavar="MINUTES",
              help="A time-limit game of this many minutes of play; then the richest (end value) wins.")
@click.option("--end-at", "end_at", metavar="HH:MM",
              help="A time-limit game ending at this hour (only while the clock is synchronised).")
@click.option("--no-time-limit", is_flag=True, help="No time limit.")
@click.option("--sums", type=click.Choice(["off", "show", "ask"]),
              help="For children: show each payment's sum, or ask the new balance first.")
@pin_option
@db_option
def game_new(start, go, allow_negative, short_game, income_tax_choice, luxury_tax, edition, free_parking,
             no_free_parking, minutes, end_at, no_time_limit, sums, pin, db) -> None:
    """Archive the current game and start a new one, every card at the start balance.

    A short game, and a time-limit game, deal two deeds to each player at
    their printed prices.
    Changing a setting needs the banker's PIN (when one is set); a new game
    with the same settings does not, as holding C on the unit.
    """
    from banker.money import format_amount
    from banker.journal.records import GameSettings
    from banker.fold.acts import on_board

    one_of(("--free-parking", free_parking), ("--no-free-parking", no_free_parking))
    one_of(("--time-limit", minutes), ("--end-at", end_at), ("--no-time-limit", no_time_limit))
    with open_ledger(db) as ledger, failing():
        now = ledger.game().settings
        if edition is not None and edition != now.edition:  # the new board's start money and GO salary
            now = on_board(now, ledger.editions, edition)
        settings = GameSettings(
            _or_now(start, now.start_balance),
            _or_now(go, now.go_salary),
            _or_now(allow_negative, now.allow_negative),
            edition or now.edition,
            now.houses_for_hotel if short_game is None else (3 if short_game else 4),
            _or_now(income_tax_choice, now.income_tax_choice),
            _or_now(luxury_tax, now.luxury_tax),
            None if no_free_parking else _or_now(free_parking, now.jackpot),
            None if no_time_limit else _time_limit(minutes, end_at, now.time_limit),
            now.sums if sums is None else None if sums == "off" else sums,
        )
        g = ledger.new_game(settings, cli_grant(pin))  # the PIN counts only when the rules change
        click.echo(f"game {g.id} started: {plural(len(ledger.game().cards), 'player')} at "
                   f"{format_amount(settings.start_balance)}")


def _or_now(given, now):
    """An option of ``game new``: the value given, else (None: not given) the current game's."""
    return now if given is None else given


def _time_limit(minutes: int | None, end_at: str | None, now: int | None) -> int | None:
    """The new game's time limit in seconds: minutes, or until an hour (the clock must be known right)."""
    from banker.unit.play_clock import seconds_until
    from runtime.wall_clock import time_of_day

    if minutes is not None:
        return minutes * 60
    if end_at is None:
        return now
    try:
        if not re.fullmatch(r"[0-9]{1,2}:[0-9]{2}", end_at):  # strptime reads other scripts' digits
            raise ValueError(end_at)
        at = datetime.strptime(end_at, "%H:%M")
    except ValueError:
        fail(f"--end-at {shown(end_at)}: an hour as HH:MM (21:30)", USAGE)
    day = time_of_day()
    if day is None:
        fail("this machine's clock is not synchronised to network time: give --time-limit MINUTES", USAGE)
    return seconds_until(at.hour, at.minute, day)


@click.command("restore")
@click.argument("game_id", type=click.IntRange(1, 2**31), required=False)
@click.option("--backup", help="Bring back a backup file instead ('latest' for the newest; see 'banker game backups').")
@pin_option
@db_option
def game_restore(game_id: int | None, backup: str | None, pin: str | None, db: Path | None) -> None:
    """Make the archived game GAME_ID current again, or bring back a backup of the ledger.

    Needs the banker's PIN when one is set (for a backup: the backup's PIN).
    """
    from .safety import restore_from_backup

    if backup is not None:
        return restore_from_backup(backup, pin, db)
    if game_id is None:
        fail("name a GAME_ID or --backup", USAGE)
    with open_ledger(db) as ledger, failing():
        g = ledger.restore_game(game_id, cli_grant(pin))
        click.echo(f"game {g.id} is current again")


FIELDS = ("id", "game", "time", "kind", "payer", "payee", "amount", "memo", "reverses", "reversed_by")


def _journal(ledger_, game_id: int, label: str = "reading"):
    """The postings of game ``game_id``, one row (a dict of :data:`FIELDS`) at a time, never the whole journal.

    A long game's reading shows a bar on a terminal (:mod:`banker_cli.progress`): over both passes of its
    journal, or only the first (who undid what) when the rows themselves go to the terminal.
    """
    from banker_cli.progress import progress_bar

    game = ledger_.game()
    count = next((g.transactions for g in ledger_.games() if g.id == game_id), 0)
    rows_on_screen = sys.stdout.isatty()
    with ExitStack() as bar:
        advance = bar.enter_context(progress_bar(label, count if rows_on_screen else 2 * count))
        undone_by = _undone_by(ledger_, game_id, advance)
        if rows_on_screen:
            bar.close()
        for done, tx in enumerate(ledger_.iter_transactions(game_id), count + 1):
            if done % 1000 == 0 and not rows_on_screen:
                advance(done)
            for p in tx.postings:
                yield {
                    "id": tx.id, "game": tx.game,
                    "time": datetime.fromtimestamp(tx.time).isoformat(timespec="seconds"),
                    "kind": tx.kind, "payer": _party(game, p.payer), "payee": _party(game, p.payee),
                    "amount": p.amount, "memo": tx.memo, "reverses": tx.reverses,
                    "reversed_by": undone_by.get(tx.id),
                }


def _undone_by(ledger_, game_id: int, advance) -> dict:
    """The journal's first pass, who undid what: each undone transaction's id to the id of the one that undid
    it (``advance`` told every 1000 transactions read)."""
    undone_by = {}
    for done, tx in enumerate(ledger_.iter_transactions(game_id), 1):
        if tx.reverses is not None:
            undone_by[tx.reverses] = tx.id
        if done % 1000 == 0:
            advance(done)
    return undone_by


def _party(game, card_id: int | None) -> str:
    """A posting's party as the listing names it: "bank" (lower case, as exports always had it), else
    :meth:`banker.fold.game.Game.name_of` (a player, the Free Parking pot)."""
    return "bank" if card_id is None else game.name_of(card_id)


def _game_id(ledger_, game_id: int | None) -> int:
    if game_id is not None and game_id not in {g.id for g in ledger_.games()}:
        fail(f"there is no game {game_id}")
    return game_id if game_id is not None else ledger_.game().id


@click.command("show")
@click.option("--game", "game_id", type=int, help="Game to show (default: the current one).")
@db_option
def ledger_show(game_id: int | None, db: Path | None) -> None:
    """Show the journal of a game, one posting a line."""
    from banker.money import format_amount

    with open_ledger(db, writer=False) as led, failing():
        shown_id, rows = _game_id(led, game_id), 0
        for row in _journal(led, shown_id, "showing"):
            rows += 1
            mark = f"  [undone by #{row['reversed_by']}]" if row["reversed_by"] else ""
            click.echo(
                f"{row['id']:>6}  {row['time']}  {shown(row['kind']):<9} {shown(row['payer']):>12}"
                f" -> {shown(row['payee']):<12} {format_amount(row['amount']):>12}  {shown(row['memo'])}{mark}"
            )
        if not rows:
            click.echo(f"game {shown_id} has no transactions yet", err=True)


def csv_cell(value):
    """One CSV cell: a number stays a number (``-1500000`` too); text has its controls shown (:func:`shown`)
    before defusedcsv quotes a leading formula character, so a tab or CR can't open a formula either."""
    if value is None or isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return shown(value)


def write_csv(out, rows) -> None:
    """The rows (dicts of :data:`FIELDS`) as CSV, formula-safe (defusedcsv), one row at a time."""
    from defusedcsv import csv as safe_csv

    writer = safe_csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: csv_cell(value) for key, value in row.items()})


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--game", "game_id", type=int, help="Game to export (default: the current one).")
@click.option("--output", "-o", type=FilePath(), default=None,
              help="File to write, readable only by you (0600). [default: stdout]")
@db_option
def ledger_export(fmt: str, game_id: int | None, output: Path | None, db: Path | None) -> None:
    """Export a game's journal as CSV or JSON (amounts in whole dollars).

    Text in a CSV cell is never run by a spreadsheet: a control character is
    written visibly (``\\x1b``) and a cell starting with ``= + - @ | %`` gets a
    leading ``'`` (defusedcsv); numbers, negative ones too, stay numbers.
    JSON escapes every control character itself.
    """
    import json

    with open_ledger(db, writer=False) as led, failing():
        rows = _journal(led, _game_id(led, game_id), "exporting")
        with private_output(output) as out:
            if fmt == "csv":
                write_csv(out, rows)
                return
            opened = False
            for row in rows:  # the layout of json.dumps(rows, indent=1), one row at a time
                lines = json.dumps(row, indent=1).splitlines()
                out.write(("[\n" if not opened else ",\n") + "\n".join(" " + line for line in lines))
                opened = True
            out.write("\n]\n" if opened else "[]\n")


@click.command("accept")
@pin_option
@db_option
def ledger_accept(pin: str | None, db: Path | None) -> None:
    """Accept the journal as it stands though it is not the one anchored (journalled; needs the banker's PIN).

    A writer refuses a journal behind its anchor (an older copy put back, its
    last entries cut off) or whose anchored entry differs; this writes a
    record naming what was anchored and what was found, anchors the head
    after it, and 'banker ledger verify' reports it from then on.
    """
    with open_ledger(db, accept=True) as ledger, failing():
        record = ledger.accept_journal(cli_grant(pin))
        click.echo(f"accepted the journal of {shown(ledger.path)} as it stands at entry {record.found_seq} "
                   f"({shown(record.reason)}); 'banker ledger verify' reports it from now on")


@click.command("upgrade")
@db_option
def ledger_upgrade(db: Path | None) -> None:
    """Bring a ledger of an earlier release into the keyed chain (a copy of the old file is kept beside it).

    Its rows keep their own, unkeyed hashes; a record binds them into the
    keyed chain, and 'banker ledger verify' says every time which rows rest
    on the old chain. Refused where the keys folder kept a keyed ledger.
    """
    with open_ledger(db, upgrade=True) as ledger, failing():
        start = ledger.store.chain_start
        if start is None:
            click.echo(f"{shown(ledger.path)} is keyed from its first entry: nothing to upgrade")
        else:
            click.echo(f"{shown(ledger.path)}: entries 1-{start - 1} of the earlier release are bound into the keyed chain "
                       f"at entry {start}")
