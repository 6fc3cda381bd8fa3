"""The owner's keys on a chosen deed (the owner's card on the - reader): build, sell, sell down, a building bid, mortgage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import views
from ..events import Effect
from ..ledger import Card
from ..rules import build, lift_mortgage, mortgage, rent, sell_building, sell_down
from ..screen import Screen
from .common import AmountFlow, Flow, act, one_player_result, rule_settings

if TYPE_CHECKING:
    from ..unit import Unit
    from .deed import DeedMode

OWNER_HELP = ("1 build  2 sell", "3 sell group down", "4 build at a bid", ". mortgage / lift")


def owner_key(mode: "DeedMode", unit: "Unit", key: str, owner: Card) -> list[Effect]:
    """One key of the owner: each acts at once, and the deed stays chosen for the next."""
    slug = mode.slug
    shown = one_player_result(unit, owner)
    if key == "1":
        return act(unit, build, shown, actor=owner, stay=True, player=owner.id, slug=slug)
    if key == "2":
        return act(unit, sell_building, shown, actor=owner, stay=True, player=owner.id, slug=slug)
    if key == "3":
        return unit.enter(SellDown(mode, owner))
    if key == "4":
        return unit.enter(BuildingBid(mode, owner))
    if key == ".":
        rule = lift_mortgage if unit.ledger.estate().is_mortgaged(slug) else mortgage
        return act(unit, rule, shown, actor=owner, stay=True, player=owner.id, slug=slug)
    if key == "GO":
        return act(unit, rent, shown, actor=owner, stay=True, payer=owner.id, slug=slug)
    if key in ("M", "K"):
        return unit.refuse(views.refused("To sell it: owner's", "card on +, buyer's", "on -, price, M/K"), keep_mode=True)
    return unit.refuse(views.refused(*OWNER_HELP), keep_mode=True)


class SellDown(Flow):
    """``3``: sell the group's buildings evenly down to the houses-a-lot typed (0 clears the group)."""

    def __init__(self, back: "DeedMode", owner: Card) -> None:
        self.back, self.owner = back, owner

    def screen(self, unit: "Unit") -> Screen:
        deed = unit.ledger.edition().deed(self.back.slug)
        most = rule_settings(unit.ledger).houses_for_hotel
        return views.screen("Sell group down", f"{deed.group}: houses", f"left a lot? 0-{most}", "C: cancel")

    def press(self, unit: "Unit", key: str) -> list[Effect]:
        most = rule_settings(unit.ledger).houses_for_hotel
        if not key.isdigit() or int(key) > most:
            return unit.refuse(views.refused(f"A digit 0-{most}"), keep_mode=True)
        unit.enter(self.back)
        group = unit.ledger.edition().deed(self.back.slug).group
        return act(unit, sell_down, one_player_result(unit, self.owner), actor=self.owner, stay=True,
                   player=self.owner.id, group=group, houses=int(key))

    def cancel(self, unit: "Unit") -> list[Effect]:
        unit.enter(self.back)
        return [unit.tone("key")]


class BuildingBid(AmountFlow):
    """``4``: the next building at the price a shortage auction set: type it, then ``M``/``K``."""

    hint = "Bid, then M or K"

    def __init__(self, back: "DeedMode", owner: Card) -> None:
        self.back, self.owner = back, owner

    def screen(self, unit: "Unit") -> Screen:
        deed = unit.ledger.edition().deed(self.back.slug)
        return views.screen("Building auction", deed.short, f"Bid {self.entry.shown()}", "then M or K", big=None)

    def priced(self, unit: "Unit", price: int) -> list[Effect]:
        unit.enter(self.back)
        return act(unit, build, one_player_result(unit, self.owner), actor=self.owner, stay=True,
                   player=self.owner.id, slug=self.back.slug, price=price)

    def cancel(self, unit: "Unit") -> list[Effect]:
        unit.enter(self.back)
        return [unit.tone("key")]
