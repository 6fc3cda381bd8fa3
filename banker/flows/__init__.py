"""The rules on the keypad: deed and player flows started from FN or a deed card's tap."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import views
from ..events import Effect

if TYPE_CHECKING:
    from ..unit import Unit


def deed_by_position(unit: "Unit", position: int) -> list[Effect]:
    """``FN`` and two digits: the deed on that board square."""
    unit.leave()
    return unit.refuse(views.refused("Deeds: not yet", "on the keypad"))


def deed_tapped(unit: "Unit", slug: str) -> list[Effect]:
    """A deed's RFID tag was placed on a reader."""
    unit.leave()
    return unit.refuse(views.refused("Deeds: not yet", "on the keypad"))


def player_menu(unit: "Unit") -> list[Effect]:
    """``FN GO``: taxes, jail, bankruptcy, worth."""
    unit.leave()
    return unit.refuse(views.refused("Player menu: not", "yet on the keypad"))
