"""The banker's PIN on the keypad: typed as stars and finished with ``M``, to change it or to authorise an act.

A PIN-guarded act is an action value (a frozen dataclass with ``run(ctx)``
returning a reply) that :class:`PinEntry` runs once the PIN matches; with
no PIN set, :func:`with_authority` runs it at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .. import views
from ..authority import LOCKOUT_SECONDS, MAX_TRIES, hash_pin, pin_matches
from ..entry import AmountEntry
from ..records import PinChange
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


def check_pin(ctx: Ctx, typed: str) -> tuple[str | None, dict]:
    """(None, panel changes) if ``typed`` is the banker's PIN, else (why not, panel changes); counts wrong tries."""
    p = ctx.panel
    if p.now < p.locked_until:
        return f"Locked {int(p.locked_until - p.now) + 1} s", {}
    stored = ctx.game.pin_hash
    if stored is None or pin_matches(typed, stored):
        return None, {"pin_failures": 0}
    failures = p.pin_failures + 1
    if failures >= MAX_TRIES:
        return "Wrong PIN", {"pin_failures": 0, "locked_until": p.now + LOCKOUT_SECONDS}
    return "Wrong PIN", {"pin_failures": failures}


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
            wrong, tries = check_pin(ctx, typed)
            if wrong is not None:
                return ctx.refuse(views.refused(wrong), **tries)
            if self.purpose == "authorise":
                reply = self.then.run(ctx)
                return replace(reply, panel={**tries, **reply.panel})
            return replace(ctx.enter(replace(cleared, stage="new")), panel=tries)
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
