"""The game menu (``FN GO`` with no card): the standings that end a short or time-limit game, and new games with rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import views
from ..acts import new_game
from ..events import Key
from ..game import Game
from ..modes.base import STAY, Ctx, Reply
from ..money import format_amount
from ..records import GameSettings
from ..rules.standings import standings
from ..screen import Screen
from ..words import plural
from .common import Flow

#: The new games the menu offers: key -> (houses for a hotel, Income Tax 10% option, what the screen calls it).
NEW_GAMES = {
    Key.D1: (4, False, "official rules"),
    Key.D2: (4, True, "Income Tax 10% option"),
    Key.D3: (3, False, "short game"),
}
PER_PAGE = 3


@dataclass(frozen=True)
class GameMenu(Flow):
    """No card on a reader: ``0`` standings, ``1``-``3`` a new game with rules."""

    def screen(self, ctx: Ctx) -> Screen:
        rules = "short game" if ctx.game.is_short_game else "game"
        return views.screen(f"Game menu ({rules})", "0 Standings", "New: 1 official", "2 10% tax  3 short")

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key == Key.D0:
            return ctx.enter(Standings())
        if key in NEW_GAMES:
            return ctx.enter(ConfirmNewGame(key))
        return ctx.refuse(views.refused("0 Standings", "1 2 3 New game"), then=STAY)


@dataclass(frozen=True)
class Standings(Flow):
    """The players still in the game ranked by the end-of-game value; ``0`` turns the page."""

    page: int = 0

    def screen(self, ctx: Ctx) -> Screen:
        rows = standings(ctx.game)
        pages = max(1, -(-len(rows) // PER_PAGE))
        shown = rows[self.page % pages * PER_PAGE:][:PER_PAGE]
        title = "Standings" + (f" {self.page % pages + 1}/{pages}" if pages > 1 else "")
        return views.screen(title, *(f"{place}. {name} {format_amount(worth)}" for place, name, worth in shown))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key != Key.D0:
            return ctx.refuse(views.refused("0 next page", "C done"), then=STAY)
        return ctx.enter(replace(self, page=self.page + 1))


@dataclass(frozen=True)
class ConfirmNewGame(Flow):
    """A new game with the chosen rules (the current one is archived); ``M`` confirms, the PIN if rules change."""

    choice: str

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen("New game?", NEW_GAMES[self.choice][2], "Old game archived", "M: yes  C: no")

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key != Key.M:
            return ctx.refuse(views.refused("M: new game", "C: keep this one"), then=STAY)
        if ctx.panel.cards_down:
            return ctx.refuse(views.message("New game?", "Take the cards", "off the readers", error=True))
        houses, choice, title = NEW_GAMES[self.choice]
        settings = replace(ctx.game.settings, houses_for_hotel=houses, income_tax_choice=choice)
        return StartGame(settings, title).run(ctx)  # the PIN is asked when the rules change (banker.authority)


@dataclass(frozen=True)
class StartGame:
    """The act of archiving the current game and starting one with ``settings``; every card gets the start balance."""

    settings: GameSettings
    title: str

    def run(self, ctx: Ctx) -> Reply:
        record = new_game(ctx.game, self.settings)
        start = format_amount(self.settings.start_balance)

        def shown(after: Game) -> Screen:
            return views.screen("New game", f"{start} each", self.title, f"Game {after.id}, {plural(len(after.cards), 'player')}")

        return ctx.commit(record, shown, tone="new-game")
