"""The banker's PIN on the keypad: typed as stars and finished with ``M``, to change it or to authorise an act.

A PIN-guarded act is an action value (a frozen dataclass with ``run(ctx)``
returning a reply) that :class:`PinEntry` runs once the PIN matches; with
no PIN set, :func:`with_authority` runs it at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .. import views
from ..authority import hash_pin, pin_matches
from ..entry import AmountEntry
from ..lockout import seconds_locked
from ..records import PinChange, PinFailure
from ..screen import Screen
from .base import Ctx, Mode, Reply

PROMPTS = {"old": "Banker PIN?", "new": "New PIN (4-8)?", "again": "New PIN again?"}


class Action(Protocol):
    """An act that needs the banker's authority, as data: ``run`` decides it once the PIN is given."""

    def run(self, ctx: Ctx) -> Reply: ...


def with_authority(ctx: Ctx, action: Action) -> Reply:
    """Run ``action`` now if no PIN is set, else after the banker's PIN is typed."""
    if ctx.game.pin_hash is None:
        return action.run(ctx)
    return ctx.enter(PinEntry(purpose="authorise", stage="old", then=action))


def change_pin(ctx: Ctx) -> Reply:
    """``FN .``: type the current PIN (if one is set), then the new one twice."""
    return ctx.enter(PinEntry(purpose="change", stage="old" if ctx.game.pin_hash is not None else "new"))


def check_pin(ctx: Ctx, typed: str) -> Reply | None:
    """None if ``typed`` is the banker's PIN, else the refusal: locked (no PIN is even tried), or wrong.

    A wrong PIN is a :class:`PinFailure` record, so the lockout it leads to
    holds on every path and across restarts (:mod:`banker.lockout`).
    """
    left = seconds_locked(ctx.game.pin_failures, ctx.wall)
    if left:
        return ctx.refuse(views.refused("PIN locked", f"try in {left} s"))
    stored = ctx.game.pin_hash
    if stored is None or pin_matches(typed, stored):
        return None
    return replace(ctx.refuse(views.refused("Wrong PIN")), record=PinFailure("keypad"))


@dataclass(frozen=True)
class PinEntry(Mode):
    """``purpose`` "change" or "authorise" (then run ``then``); ``stage`` "old", "new" or "again"."""

    purpose: str
    stage: str
    then: object = None
    entry: AmountEntry = AmountEntry()
    new_pin: str = ""

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(PROMPTS[self.stage], "*" * len(self.entry.typed) + "_", "then M.  C: cancel", big=1)

    def key(self, ctx: Ctx, key: str) -> Reply:
        if key.isdigit():
            if len(self.entry.typed) >= 8:
                return ctx.refuse(views.refused("8 digits at most"), keep_mode=True)
            return ctx.enter(replace(self, entry=AmountEntry(self.entry.typed + key)))
        if key != "M":
            return ctx.refuse(views.refused("Digits, then M"), keep_mode=True)
        typed, cleared = self.entry.typed, replace(self, entry=AmountEntry())
        if self.stage == "old":
            refusal = check_pin(ctx, typed)
            if refusal is not None:
                return refusal
            if self.purpose == "authorise":
                return self.then.run(ctx)
            return ctx.enter(replace(cleared, stage="new"))
        if self.stage == "new":
            if not 4 <= len(typed) <= 8:
                return ctx.refuse(views.refused("PIN: 4 to 8 digits"), keep_mode=True)
            return ctx.enter(replace(cleared, stage="again", new_pin=typed))
        if typed != self.new_pin:
            return ctx.refuse(views.refused("PINs differ", "Nothing changed"))
        record = PinChange(hash_pin(typed, ctx.salt))
        return ctx.commit(record, lambda after: views.message("Banker PIN set"))

    def cards_changed(self, ctx: Ctx) -> Reply:
        """A card placed or taken away while the PIN is typed: what it was for may no longer hold."""
        return ctx.refuse(views.cancelled("A card moved"))
