"""The deed and game-state commands: ``banker deeds list|enrol`` and ``banker game show``.

:mod:`banker_cli.main` names them in its tables of lazily loaded commands
(``banker deeds``, ``banker game show``).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from cards import load_edition
from banker.errors import BankerError
from banker.money import format_amount
from banker.text.words import plural

from .options import edition_type
from .common import (
    USAGE, cli_grant, db_option, fail, failing, open_ledger, pin_option, resolve_db, shown, uid_or_none,
)


def deed_record(deed) -> dict:
    """A deed as the JSON of ``banker deeds list`` gives it (amounts in whole dollars)."""
    return {
        "position": deed.position, "slug": deed.slug, "name": deed.name, "group": deed.group, "kind": deed.kind,
        "price": deed.price, "rents": list(deed.rents), "house_cost": deed.house_cost, "mortgage": deed.mortgage,
    }


@click.group("deeds")
def deeds_group() -> None:
    """The title deeds of the board, and their RFID tags."""


@deeds_group.command("list")
@click.option("--edition", type=edition_type, metavar="NAME", default=None,
              help="Deed set (cards/editions/NAME.toml). [default: the current game's; without a ledger, us]")
@click.option("--json", "as_json", is_flag=True, help="Print every deed as JSON (amounts in whole dollars).")
@db_option
def deeds_list(edition: str | None, as_json: bool, db: Path | None) -> None:
    """List every title deed: slug, name, group, kind, price, rents, house cost, mortgage.

    Rents: a street's 6 (unimproved, 1-4 houses, hotel); a railroad's 4
    (1-4 owned); a utility's 2 (per dice pip, one or both owned).
    """
    if edition is None and resolve_db(db).exists():
        with open_ledger(db, writer=False) as ledger, failing():
            edition = ledger.game().settings.edition
    elif edition is None:  # no ledger yet (none is made): the deeds a new game would have
        from banker.journal.records import GameSettings

        edition = GameSettings().edition
    try:
        board = load_edition(edition)
    except BankerError as exc:
        fail(str(exc), USAGE)
    if as_json:
        click.echo(json.dumps([deed_record(d) for d in board.deeds], indent=1))
        return
    for d in board.deeds:
        rents = "/".join(format_amount(r) for r in d.rents)
        house = format_amount(d.house_cost) if d.house_cost else "-"
        click.echo(f"{d.position:02d} {shown(d.slug):<22} {shown(d.group):<10} {shown(d.kind):<8} {format_amount(d.price):>6}"
                   f"  rents {rents:<36} house {house:>5}  mortgage {format_amount(d.mortgage)}")


@deeds_group.command("enrol")
@click.argument("slug")
@click.option("--uid", required=True, help="The deed tag's RFID UID in hex.")
@pin_option
@db_option
def deeds_enrol(slug: str, uid: str, pin: str | None, db: Path | None) -> None:
    """Give the title deed SLUG an RFID tag: placing the tag on a reader then chooses the deed."""
    uid = uid_or_none(uid)
    with open_ledger(db) as ledger, failing():
        ledger.game().edition.deed(slug)  # an unknown slug is a bad argument (exit 2), before the PIN is asked
        ledger.enrol_deed(slug, uid, cli_grant(pin))
        name = ledger.game().edition.deed(slug).name
        click.echo(f"tag {uid} is now {shown(name)}'s")


def game_state(ledger) -> dict:
    """The current game as data: balances, worth, deeds and their buildings and mortgages, the bank's stock."""
    from banker.rules.standings import end_worth_of, worth_of

    game = ledger.game()
    estate, edition, names, settings, players = game.estate, game.edition, game.names, game.settings, game.cards
    return {
        "game": game.id,
        "rules": {"edition": settings.edition, "short_game": settings.is_short_game,
                  "income_tax_choice": settings.income_tax_choice, "allow_negative": settings.allow_negative,
                  "free_parking_seed": settings.jackpot, "time_limit": settings.time_limit, "sums": settings.sums},
        "free_parking": game.pot,
        "time_left": game.time_left,
        "time_up": game.time_up,
        "balances": game.balances_by_name(),
        "worth": {c.name: worth_of(game, c.id) for c in players},
        "end_worth": {c.name: end_worth_of(game, c.id) for c in players},
        "deeds": [
            {"slug": d.slug, "name": d.name, "owner": names.get(estate.owner(d.slug), f"card {estate.owner(d.slug)}"),
             "houses": estate.houses(d.slug), "mortgaged": estate.is_mortgaged(d.slug)}
            for d in edition.deeds if estate.owner(d.slug) is not None
        ],
        "jail_cards": {c.name: estate.jail_cards_of(c.id) for c in players if estate.jail_cards_of(c.id)},
        "bank": {"houses": estate.houses_in_bank, "hotels": estate.hotels_in_bank,
                 "jail_cards": estate.jail_cards_of(None)},
    }


def _buildings(houses: int) -> str:
    if houses == 5:
        return "hotel"
    return plural(houses, "house") if houses else ""


def _heading(state: dict) -> str:
    """The first line of ``game show``: the game, its deed set, and the rules and clock a player must know."""
    from banker.unit.play_clock import time_left_line

    rules = state["rules"]
    kind = "short game" if rules["short_game"] else "game"
    return (f"{kind} {state['game']} ({shown(rules['edition'])})"
            + (", Income Tax 10% option" if rules["income_tax_choice"] else "")
            + (f", Free Parking pot {format_amount(state['free_parking'])}" if state["free_parking"] is not None else "")
            + (f", {time_left_line(state['time_left'], state['time_up'])}" if state["time_left"] is not None else ""))


@click.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print the game's state as JSON (amounts in whole dollars).")
@db_option
def game_show_command(as_json: bool, db: Path | None) -> None:
    """Show the current game: balances and worth, who owns which deed, buildings, mortgages, the bank's stock."""
    with open_ledger(db, writer=False) as ledger, failing():
        state = game_state(ledger)
    if as_json:
        click.echo(json.dumps(state, indent=1))
        return
    click.echo(_heading(state))
    if not state["balances"]:
        click.echo("no cards are enrolled in this game yet: 'banker cards enrol NAME' enrols one", err=True)
    for name, balance in state["balances"].items():
        cards = state["jail_cards"].get(name, 0)
        click.echo(f"  {shown(name):<16} cash {format_amount(balance):>9}  worth {format_amount(state['worth'][name]):>9}"
                   f"  end value {format_amount(state['end_worth'][name]):>9}"
                   + (f"  {plural(cards, 'jail card')}" if cards else ""))
    for deed in state["deeds"]:
        notes = ", ".join(x for x in (_buildings(deed["houses"]), "mortgaged" if deed["mortgaged"] else "") if x)
        click.echo(f"  {shown(deed['name']):<24} {shown(deed['owner']):<16} {notes}".rstrip())
    bank = state["bank"]
    click.echo(f"  bank: {plural(bank['houses'], 'house')}, {plural(bank['hotels'], 'hotel')}, "
               f"{plural(bank['jail_cards'], 'jail card')}")
