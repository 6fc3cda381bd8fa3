"""The banker's PIN on the keypad: typed as stars and finished with ``M``, to change it or to authorise an act.

The keypad never checks a PIN itself: whether an act needs one is the core's
table (:func:`banker.fold.authority.requires_pin`), and the PIN typed goes, as a
:class:`~banker.fold.authority.Grant`, with the act's record to the write path,
which checks it, journals a wrong one and applies the lockout. The step
(:func:`banker.unit.step.step`) sends any reply whose record needs the PIN here
first (:func:`ask_pin`); a refused PIN comes back as
:class:`~banker.unit.events.PinRefused`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.fold.authority import Grant, hash_pin
from banker.unit.entry import AmountEntry
from banker.unit.events import DIGITS, Key
from banker.journal.records import PinChange
from banker.unit.screen import Screen
from banker.unit.modes.base import STAY, Ctx, Mode, Reply

PROMPTS = {"old": _('Banker PIN?'), "new": _('New PIN (4-8)?'), "again": _('New PIN again?')}


def ask_pin(pending: Reply) -> Reply:
    """The banker's PIN first: ``pending`` (a reply whose record needs it) goes on once the PIN is typed."""
    return Reply(mode=PinEntry(purpose="authorise", stage="old", then=pending))


def change_pin(ctx: Ctx) -> Reply:
    """``FN .``: type the current PIN (if one is set), then the new one twice."""
    return ctx.enter(PinEntry(purpose="change", stage="old" if ctx.game.pin_hash is not None else "new"))


@dataclass(frozen=True)
class PinEntry(Mode):
    """``purpose`` "change" or "authorise" (then ``then``, the reply waiting for it); ``stage`` "old", "new" or
    "again"; ``old_pin`` the banker's PIN typed to change it (offered again with the new one)."""

    purpose: str
    stage: str
    then: Reply | None = None
    entry: AmountEntry = AmountEntry()
    old_pin: str = field(default="", repr=False)
    new_pin: str = field(default="", repr=False)

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(PROMPTS[self.stage], "*" * len(self.entry.typed) + "_", _('then M.  C: cancel'), big=1)

    def key(self, ctx: Ctx, key: Key) -> Reply:
        if key in DIGITS:
            if len(self.entry.typed) >= 8:
                return ctx.refuse(views.refused(_('8 digits at most')), then=STAY)
            return ctx.enter(replace(self, entry=AmountEntry(self.entry.typed + key)))
        if key != Key.M:
            return ctx.refuse(views.refused(_('Digits, then M')), then=STAY)
        return self._entered(ctx)

    def _entered(self, ctx: Ctx) -> Reply:
        """``M`` after a PIN: the old one grants (or goes on to the new), the new one is asked again, then set."""
        typed, cleared = self.entry.typed, replace(self, entry=AmountEntry())
        grant = Grant(typed, "keypad", ctx.wall)
        if self.stage == "old":
            if self.purpose == "authorise" and self.then is not None:
                return replace(self.then, grant=grant)
            # the write path checks the banker's PIN before the new one is typed (a wrong one ends it there)
            return replace(ctx.enter(replace(cleared, stage="new", old_pin=typed)), grant=grant)
        if self.stage == "new":
            if not 4 <= len(typed) <= 8:
                return ctx.refuse(views.refused(_('PIN: 4 to 8 digits')), then=STAY)
            return ctx.enter(replace(cleared, stage="again", new_pin=typed))
        if typed != self.new_pin:
            return ctx.refuse(views.refused(_('PINs differ'), _('Nothing changed')))
        reply = ctx.commit(PinChange(hash_pin(typed, ctx.salt)), lambda after: views.message(_('Banker PIN set')))
        return replace(reply, grant=Grant(self.old_pin, "keypad", ctx.wall)) if self.old_pin else reply

    def cards_changed(self, ctx: Ctx) -> Reply:
        """A card placed or taken away while the PIN is typed: what it was for may no longer hold."""
        return ctx.refuse(views.cancelled(_('A card moved')))
