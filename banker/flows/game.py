"""The game menu (``FN GO`` with no card): the standings that end a short or time-limit game, and new games with rules."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import views
from ..errors import LedgerError
from ..events import Effect
from ..modes import PinEntry
from ..money import format_amount
from ..rules import end_game_worth, ranking
from ..screen import Screen
from .common import Flow, bankruptcies, in_game, is_short_game, rule_settings

if TYPE_CHECKING:
    from ..unit import Unit

#: The new games the menu offers: key -> (houses for a hotel, Income Tax 10% option, what the screen calls it).
NEW_GAMES = {
    "1": (4, False, "official rules"),
    "2": (4, True, "Income Tax 10% option"),
    "3": (3, False, "short game"),
}
PER_PAGE = 3


def standings(ledger) -> list[tuple[int, str, int]]:
    """(place, name, end value) of every player still in the game, richest first."""
    who = {c.id: c.name for c in in_game(ledger)}
    ranked = ranking(ledger.edition(), ledger.estate(), ledger.balances_by_id(), rule_settings(ledger),
                     players=list(who), valuation=end_game_worth)
    return [(s.place, who[s.player], s.worth) for s in ranked]


def game_over_line(ledger) -> str | None:
    """``Game over: Bob wins`` when one player is left, or at a short game's second bankruptcy; else None."""
    left = standings(ledger)
    if len(left) <= 1 or (is_short_game(ledger) and bankruptcies(ledger) >= 2):
        winners = [name for place, name, _ in left if place == 1]
        return f"Game over: {' & '.join(winners)} win{'s' if len(winners) == 1 else ''}" if winners else "Game over"
    return None


class GameMenu(Flow):
    """No card on a reader: ``0`` standings, ``1``-``3`` a new game with rules."""

    def screen(self, unit: "Unit") -> Screen:
        rules = "short game" if is_short_game(unit.ledger) else "game"
        return views.screen(f"Game menu ({rules})", "0 Standings", "New: 1 official", "2 10% tax  3 short")

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        if key == "0":
            return unit.enter(Standings())
        if key in NEW_GAMES:
            return unit.enter(ConfirmNewGame(key))
        return unit.refuse(views.refused("0 Standings", "1 2 3 New game"), keep_mode=True)


class Standings(Flow):
    """The players still in the game ranked by the end-of-game value; ``0`` turns the page."""

    def __init__(self) -> None:
        self.page = 0

    def screen(self, unit: "Unit") -> Screen:
        rows = standings(unit.ledger)
        pages = max(1, -(-len(rows) // PER_PAGE))
        shown = rows[self.page % pages * PER_PAGE:][:PER_PAGE]
        title = "Standings" + (f" {self.page % pages + 1}/{pages}" if pages > 1 else "")
        return views.screen(title, *(f"{place}. {name} {format_amount(worth)}" for place, name, worth in shown))

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        if key != "0":
            return unit.refuse(views.refused("0 next page", "C done"), keep_mode=True)
        self.page += 1
        return [unit.tone("key")]


class ConfirmNewGame(Flow):
    """A new game with the chosen rules (the current one is archived); ``M`` confirms, the PIN if rules change."""

    def __init__(self, choice: str) -> None:
        self.houses_for_hotel, self.income_tax_choice, self.title = NEW_GAMES[choice]

    def screen(self, unit: "Unit") -> Screen:
        return views.screen("New game?", self.title, "Old game archived", "M: yes  C: no")

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        if key != "M":
            return unit.refuse(views.refused("M: new game", "C: keep this one"), keep_mode=True)
        if unit.panel.left is not None or unit.panel.right is not None:
            unit.leave()
            return unit.refuse(views.message("New game?", "Take the cards", "off the readers", error=True))
        now = unit.ledger.game().settings
        settings = replace(now, houses_for_hotel=self.houses_for_hotel, income_tax_choice=self.income_tax_choice)
        unit.leave()
        if settings != now and unit.pin_is_set():
            return unit.enter(PinEntry("authorise", then=lambda: start_game(unit, settings, self.title)))
        return start_game(unit, settings, self.title)


def start_game(unit: "Unit", settings, title: str) -> list[Effect]:
    """Archive the current game and start one with ``settings``; every card gets the start balance."""
    try:
        game = unit.ledger.new_game(settings)
    except LedgerError as exc:
        return unit.refuse(views.not_saved(str(exc)))
    players = len(unit.ledger.cards())
    return unit.show(views.screen("New game", f"{format_amount(settings.start_balance)} each", title,
                                  f"Game {game.id}, {players} players"), "new-game")


__all__ = ["GameMenu", "Standings", "ConfirmNewGame", "game_over_line", "standings"]
