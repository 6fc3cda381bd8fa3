"""The FN menu, the one router: after ``FN`` the next key (or two digits) picks the function.

::

    FN 0 1 .. FN 3 9   a title deed by its board position (banker.unit.flows.deed)
    FN GO              the player menu: taxes, jail, bankruptcy, worth (banker.unit.flows.player)
    FN C               undo the last transaction (confirm with M)
    FN .               the banker's PIN: set or change it
    FN K               the table page's QR code (M: a new token, with the PIN)
    FN 8               the game's language (a digit: 1 English, 2 Deutsch, 3 Français, 4 Español, 5 Nederlands;
                       no board square starts with 8)
    FN M               the ledger's key as a QR code, for another machine (with the PIN)
    FN (unknown card alone on a reader)   enrol that card (banker.unit.flows.home)

It lives with the flows it routes to; the modes (:mod:`banker.unit.modes`) never
import it: a mode returns ``MENU`` and the step opens this menu.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.unit.events import DIGITS, Key, ReadBalances
from banker.unit.modes.base import Ctx, Mode, Reply
from banker.unit.modes.pin import change_pin
from banker.unit.modes.undo_prompt import ConfirmUndo
from banker.unit.screen import Screen
from banker.unit.flows import deed_by_position, player_menu
from banker.unit.flows.join import join_code
from banker.unit.flows.key_code import key_code
from banker.unit.flows.language import MENU_KEY as LANGUAGE_MENU_KEY, LanguageMenu


@dataclass(frozen=True)
class FnMenu(Mode):
    """After ``FN``; ``digits`` typed so far of a board square."""

    digits: str = ""

    def screen(self, ctx: Ctx) -> Screen:
        if self.digits:
            return views.screen(_('FN: deed at'), f"{self.digits}_", _('board square 01-39'), big=1)
        return views.message(_('FN: 01-39 deed'), _('GO player  C undo'), _('. PIN  8 language'), _('K page  M key'))

    def key(self, ctx: Ctx, key: Key) -> Reply:
        if key == LANGUAGE_MENU_KEY and not self.digits:
            return ctx.enter(LanguageMenu())
        if key in DIGITS:
            return self._digit(ctx, key)
        if self.digits:
            return ctx.refuse(views.refused(_('Type two digits'), "01-39"))
        function = _FUNCTIONS.get(key)
        if function is not None:
            return function(ctx)
        if key == Key.FN and ctx.panel.speaks:  # the balance key: the cards on the readers say their balances
            return Reply(mode=None, effects=(ReadBalances(),))
        return ctx.refuse(views.refused(_('FN {key}: no function', key=key)))

    def _digit(self, ctx: Ctx, key: Key) -> Reply:
        """A digit of a board square: the second opens the deed there."""
        digits = self.digits + key
        if len(digits) < 2:
            return ctx.enter(replace(self, digits=digits))
        return deed_by_position(ctx, int(digits))

    def cancel(self, ctx: Ctx) -> Reply:
        return self.key(ctx, Key.C) if not self.digits else super().cancel(ctx)


#: The menu's one-key functions: C undo, . the PIN, GO a player's menu, K the join code, M the key code.
_FUNCTIONS = {Key.C: lambda ctx: ctx.enter(ConfirmUndo()), Key.POINT: change_pin, Key.GO: player_menu,
              Key.K: join_code, Key.M: key_code}
