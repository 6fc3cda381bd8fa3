"""Multi-key flows of the unit (FN menus, undo, the banker's PIN) as small mode objects.

While a mode is active the unit routes keys to it and asks it for the
screen. A mode changes nothing itself: it calls back into the unit
(:meth:`banker.unit.Unit.commit`, ``refuse``, ``show``, ``enter``, ``leave``),
which keeps the rule that the screen reports only what the ledger committed.

``FN`` starts :class:`FnMenu`::

    FN 0 1 .. FN 3 9   a title deed by its board position (rules flows)
    FN GO              the player menu: taxes, jail, bankruptcy, worth (rules flows)
    FN C               undo the last transaction (confirm with M)
    FN .               the banker's PIN: set or change it
    FN (unknown card alone on a reader)   enrol that card
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import views
from .entry import AmountEntry
from .errors import AmountError
from .events import Effect
from .screen import Screen

if TYPE_CHECKING:
    from .unit import Unit


class Mode:
    """A flow that owns the keys until it ends. ``C`` cancels it unless a subclass says otherwise."""

    def screen(self, unit: "Unit") -> Screen:
        raise NotImplementedError

    def key(self, unit: "Unit", key: str) -> list[Effect]:
        raise NotImplementedError

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        """A card came or went while the mode was active; by default the mode goes on."""
        return []

    def cancel(self, unit: "Unit") -> list[Effect]:
        unit.leave()
        return unit.show(views.message("Cancelled", "Nothing changed"))


class FnMenu(Mode):
    """After ``FN``: the next key (or two digits) picks the function."""

    def __init__(self) -> None:
        self.digits = ""

    def screen(self, unit: "Unit") -> Screen:
        if self.digits:
            return views.screen("FN: deed at", f"{self.digits}_", "board square 01-39", big=1)
        return views.message("FN: 01-39 deed", "GO player  C undo", ". banker PIN")

    def key(self, unit: "Unit", key: str) -> list[Effect]:
        from . import flows

        if key.isdigit():
            self.digits += key
            if len(self.digits) < 2:
                return [unit.tone("key")]
            return flows.deed_by_position(unit, int(self.digits))
        if self.digits:
            return unit.refuse(views.refused("Type two digits", "01-39"))
        if key == "C":
            return unit.enter(ConfirmUndo())
        if key == ".":
            return unit.enter(PinEntry(purpose="change"))
        if key == "GO":
            return flows.player_menu(unit)
        return unit.refuse(views.refused(f"FN {key}: no function"))

    def cancel(self, unit: "Unit") -> list[Effect]:
        return self.key(unit, "C") if not self.digits else super().cancel(unit)


class ConfirmUndo(Mode):
    """``FN C``: show the last transaction and undo it on ``M``."""

    def screen(self, unit: "Unit") -> Screen:
        last = unit.last_undoable()
        if last is None:
            return views.message("Nothing to undo")
        return views.message("Undo?", last.memo or last.kind, "M: yes   C: no")

    def key(self, unit: "Unit", key: str) -> list[Effect]:
        if key != "M":
            return unit.refuse(views.refused("M to undo, C to keep"))
        unit.leave()
        return unit.undo_last()


class PinEntry(Mode):
    """The banker's PIN typed on the keypad (shown as stars), finished with ``M``.

    ``purpose`` "change": type the current PIN (if one is set), then the new one
    twice. "authorise": type the PIN to let ``then`` go ahead (a callable on the
    unit returning effects), e.g. enrolling a card.
    """

    def __init__(self, purpose: str, then=None) -> None:
        self.purpose = purpose
        self.then = then
        self.entry = AmountEntry()
        self.stage = "old" if purpose == "authorise" else "start"
        self.new_pin = ""

    def _prompt(self, unit: "Unit") -> str:
        if self.stage == "start":
            self.stage = "old" if unit.pin_is_set() else "new"
        return {"old": "Banker PIN?", "new": "New PIN (4-8)?", "again": "New PIN again?"}[self.stage]

    def screen(self, unit: "Unit") -> Screen:
        return views.screen(self._prompt(unit), "*" * len(self.entry.typed) + "_", "then M.  C: cancel", big=1)

    def key(self, unit: "Unit", key: str) -> list[Effect]:
        self._prompt(unit)
        if key.isdigit():
            if len(self.entry.typed) >= 8:
                return unit.refuse(views.refused("8 digits at most"), keep_mode=True)
            self.entry = AmountEntry(self.entry.typed + key)
            return [unit.tone("key")]
        if key != "M":
            return unit.refuse(views.refused("Digits, then M"), keep_mode=True)
        typed, self.entry = self.entry.typed, AmountEntry()
        if self.stage == "old":
            try:
                unit.check_pin(typed)
            except AmountError as exc:
                unit.leave()
                return unit.refuse(views.refused(str(exc)))
            if self.purpose == "authorise":
                unit.leave()
                return self.then()
            self.stage = "new"
            return [unit.tone("key")]
        if self.stage == "new":
            if not 4 <= len(typed) <= 8:
                return unit.refuse(views.refused("PIN: 4 to 8 digits"), keep_mode=True)
            self.new_pin, self.stage = typed, "again"
            return [unit.tone("key")]
        unit.leave()
        if typed != self.new_pin:
            return unit.refuse(views.refused("PINs differ", "Nothing changed"))
        return unit.set_pin(typed)

    def cards_changed(self, unit: "Unit") -> list[Effect]:
        """A card placed or taken away while the PIN is typed: what it was for may no longer hold."""
        unit.leave()
        return unit.refuse(views.cancelled("A card moved"))
