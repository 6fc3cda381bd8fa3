"""The FN menu, the one router: after ``FN`` the next key (or two digits) picks the function.

::

    FN 0 1 .. FN 3 9   a title deed by its board position (rules flows)
    FN GO              the player menu: taxes, jail, bankruptcy, worth (rules flows)
    FN C               undo the last transaction (confirm with M)
    FN .               the banker's PIN: set or change it
    FN K               the table page's QR code (M: a new token, with the PIN)
    FN (unknown card alone on a reader)   enrol that card (banker.step)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import flows, views
from ..flows.join import join_code
from ..screen import Screen
from .base import Ctx, Mode, Reply
from .pin import change_pin
from .undo_prompt import ConfirmUndo


@dataclass(frozen=True)
class FnMenu(Mode):
    """After ``FN``; ``digits`` typed so far of a board square."""

    digits: str = ""

    def screen(self, ctx: Ctx) -> Screen:
        if self.digits:
            return views.screen("FN: deed at", f"{self.digits}_", "board square 01-39", big=1)
        return views.message("FN: 01-39 deed", "GO player  C undo", ". banker PIN", "K table page")

    def key(self, ctx: Ctx, key: str) -> Reply:
        if key.isdigit():
            digits = self.digits + key
            if len(digits) < 2:
                return ctx.enter(replace(self, digits=digits))
            return flows.deed_by_position(ctx, int(digits))
        if self.digits:
            return ctx.refuse(views.refused("Type two digits", "01-39"))
        if key == "C":
            return ctx.enter(ConfirmUndo())
        if key == ".":
            return change_pin(ctx)
        if key == "GO":
            return flows.player_menu(ctx)
        if key == "K":
            return join_code(ctx)
        return ctx.refuse(views.refused(f"FN {key}: no function"))

    def cancel(self, ctx: Ctx) -> Reply:
        return self.key(ctx, "C") if not self.digits else super().cancel(ctx)
