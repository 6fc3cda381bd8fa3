"""The game menu (``FN GO`` with no card): the standings that end a short or time-limit game, and new games with rules."""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import LANGUAGE_KEY, LANGUAGE_NAMES, _, _n
from banker.unit import views
from banker.fold.acts import new_game
from banker.errors import Refused
from banker.unit.events import Key
from banker.fold.game import Game
from banker.unit.modes.base import STAY, Ctx, Reply
from banker.money import format_amount
from banker.journal.records import GameSettings, Setting
from banker.rules.short_deal import deals_deeds
from banker.rules.standings import standings
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow
from banker.unit.flows.game_options import GameLength, PotSeed, edition_line, modes_summary, with_key, with_next_edition

#: The new games the menu offers: key -> (houses for a hotel, Income Tax 10% option, what the screen calls it,
#: and in a word).
NEW_GAMES = {
    Key.D1: (4, False, _('official rules'), _('official')),
    Key.D2: (4, True, _('Income Tax {rate} option', rate="10%"), _('10% tax')),
    Key.D3: (3, False, _('short game'), _('short game')),
}
PER_PAGE = 3


@dataclass(frozen=True)
class GameMenu(Flow):
    """No card on a reader: ``0`` standings, ``1``-``3`` a new game with rules."""

    def screen(self, ctx: Ctx) -> Screen:
        rules = _('short game') if ctx.game.is_short_game else _('game')
        return views.screen(_('Game menu ({rules})', rules=rules), _('0 Standings'), _('New: 1 official'), _('2 10% tax  3 short'))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key == Key.D0:
            return ctx.enter(Standings())
        if key in NEW_GAMES:
            return ctx.enter(ConfirmNewGame(key))
        return ctx.refuse(views.refused(_('0 Standings'), _('1 2 3 New game')), then=STAY)


@dataclass(frozen=True)
class Standings(Flow):
    """The players still in the game ranked by the end-of-game value; ``0`` turns the page."""

    page: int = 0

    def screen(self, ctx: Ctx) -> Screen:
        rows = standings(ctx.game)
        pages = max(1, -(-len(rows) // PER_PAGE))
        shown = rows[self.page % pages * PER_PAGE:][:PER_PAGE]
        title = _('Standings {page}/{pages}', page=self.page % pages + 1, pages=pages) if pages > 1 else _('Standings')
        return views.screen(title, *(f"{place}. {name} {format_amount(worth)}" for place, name, worth in shown))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key != Key.D0:
            return ctx.refuse(views.refused(_('0 next page'), _('C done')), then=STAY)
        return ctx.enter(replace(self, page=self.page + 1))


@dataclass(frozen=True)
class ConfirmNewGame(Flow):
    """A new game with the chosen rules (the current one is archived) and its house rules and modes
    (:mod:`banker.unit.flows.game_options`: ``4`` the pot, ``5`` the time limit, ``6`` the sums) and board (``7``, the
    next edition); ``M`` confirms, the PIN when they change (:mod:`banker.fold.authority`)."""

    choice: str
    settings: GameSettings | None = None  # the new game's modes chosen so far (None: the current game's)

    def _settings(self, ctx: Ctx) -> GameSettings:
        houses, choice, _title, _word = NEW_GAMES[self.choice]
        base = self.settings or ctx.game.settings
        return replace(base, houses_for_hotel=houses, income_tax_choice=choice)

    def with_settings(self, settings: GameSettings) -> ConfirmNewGame:
        return replace(self, settings=settings)

    def screen(self, ctx: Ctx) -> Screen:
        settings = self._settings(ctx)
        return views.screen(_('New game: {rules}?', rules=NEW_GAMES[self.choice][3]), *modes_summary(settings),
                            edition_line(settings), _('M: start  C: no'))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        settings = self._settings(ctx)
        if key == Key.D7:
            return ctx.enter(self.with_settings(with_next_edition(settings, ctx.game.editions)))
        if key in (Key.D4, Key.D5, Key.D6):
            toggled = with_key(settings, key)
            if toggled is not None:
                return ctx.enter(self.with_settings(toggled))
            return ctx.enter(PotSeed(back=self.with_settings(settings)) if key == Key.D4
                             else GameLength(back=self.with_settings(settings), clock_known=ctx.day is not None))
        if key != Key.M:
            return ctx.refuse(views.refused(_('M: new game'), _('4-7: rules, board'), _('C: keep this one')), then=STAY)
        if ctx.panel.cards_down:
            return ctx.refuse(views.message(_('New game?'), _('Take the cards'), _('off the readers'), error=True))
        return StartGame(settings, NEW_GAMES[self.choice][2]).run(ctx)  # the PIN when the rules change


@dataclass(frozen=True)
class StartGame:
    """The act of archiving the current game and starting one with ``settings``; every card gets the start balance
    (a short or time-limit game's deal is shuffled with the key's fresh bytes)."""

    settings: GameSettings
    title: str

    def run(self, ctx: Ctx) -> Reply:
        try:
            record = new_game(ctx.game, self.settings, shuffle=ctx.salt)
        except Refused as exc:
            return ctx.refuse(views.refused(str(exc)))
        start = format_amount(self.settings.start_balance)

        def shown(after: Game) -> Screen:
            dealt = deals_deeds(after.settings) and after.cards
            return views.screen(_('New game'), _('{amount} each', amount=start), _('Dealt 2 deeds each') if dealt else self.title,
                                _n('Game {game}, {n} player', 'Game {game}, {n} players', len(after.cards), game=after.id))

        board = ctx.game.editions[self.settings.edition]
        if self.settings.edition == ctx.game.settings.edition or board.language == ctx.game.language:
            return ctx.commit(record, shown, tone="new-game")
        return ctx.commit(record, lambda after: views.screen(*shown(after).lines[:2], *SuggestLanguage(board.language)
                                                            .screen(ctx).lines[1:]),
                          mode=SuggestLanguage(board.language), tone="new-game")


@dataclass(frozen=True)
class SuggestLanguage(Flow):
    """After a new game on another board: its language offered (a German board: Deutsch); ``M`` takes it (as
    ``FN 8`` would), ``C`` keeps the language as it is."""

    code: str

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(_('Board language'), f"{LANGUAGE_NAMES[self.code]}?", _('M: yes  C: no'))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if key != Key.M:
            return ctx.refuse(views.refused(_('M: yes  C: no')), then=STAY)
        return ctx.commit(Setting(LANGUAGE_KEY, self.code), lambda after: views.language(after.language))
