"""The rules on the keypad: deed and player flows started from FN or a deed card's tap.

``FN`` + two digits or a deed's tag chooses a title deed (:mod:`.deed`, the
owner's keys in :mod:`.owner`, its screen in :mod:`.deed_view`); ``FN GO``
opens the player menu (:mod:`.player`), or with no card the game menu
(:mod:`.game`). Every flow is a :class:`banker.modes.Mode` that decides
with the pure rules engine (:mod:`banker.rules`) and commits through the
unit (:mod:`.common`), so the screen reports only what the ledger committed.
docs/keypad.md, "Deeds and the rules", gives every key sequence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import views
from ..deeds import UnknownDeed
from ..events import Effect

if TYPE_CHECKING:
    from ..unit import Unit


def deed_by_position(unit: "Unit", position: int) -> list[Effect]:
    """``FN`` and two digits: the deed on that board square."""
    from .deed import DeedMode

    unit.leave()
    try:
        deed = unit.ledger.edition().at(position)
    except UnknownDeed:
        return unit.refuse(views.refused(f"No deed on {position:02d}", "Deeds: squares 01-39"))
    return unit.enter(DeedMode(deed.slug, cards_seen=_cards_down(unit)))


def deed_tapped(unit: "Unit", slug: str) -> list[Effect]:
    """A deed's RFID tag was placed on a reader: that deed is chosen (whatever flow was open ends)."""
    from .deed import DeedMode

    unit.leave()
    return unit.enter(DeedMode(slug, cards_seen=_cards_down(unit)))


def player_menu(unit: "Unit") -> list[Effect]:
    """``FN GO``: taxes, jail, bankruptcy, worth for the cards on the readers; the game menu without a card."""
    from .player import PlayerMenu

    unit.leave()
    return unit.enter(PlayerMenu())


def _cards_down(unit: "Unit") -> bool:
    return unit.panel.left is not None or unit.panel.right is not None
