"""The rules on the keypad: deed and player flows started from FN or a deed card's tap.

``FN`` + two digits or a deed's tag chooses a title deed (:mod:`.deed`, the
owner's keys in :mod:`.owner`, its screen in :mod:`.deed_view`); ``FN GO``
opens the player menu (:mod:`.player`), or with no card the game menu
(:mod:`.game`). Every flow is a frozen :class:`banker.unit.modes.base.Mode` that
decides with the pure rules engine (:mod:`banker.rules`) and returns its
record in a reply (:mod:`.common`), so the screen reports only what the
runtime committed. docs/keypad.md, "Deeds and the rules", gives every key
sequence.
"""

from __future__ import annotations

from banker.text.i18n import _
from banker.unit import views
from banker.rules.deeds import UnknownDeed
from banker.unit.modes.base import Ctx, Reply
from banker.unit.flows.deed import DeedMode
from banker.unit.flows.player import PlayerMenu


def deed_by_position(ctx: Ctx, position: int) -> Reply:
    """``FN`` and two digits: the deed on that board square."""
    try:
        deed = ctx.game.edition.at(position)
    except UnknownDeed:
        return ctx.refuse(views.refused(_('No deed on {position}', position=f"{position:02d}"), _('Deeds: squares 01-39')))
    return ctx.enter(DeedMode(deed.slug, cards_seen=ctx.panel.cards_down))


def deed_tapped(ctx: Ctx, slug: str, tag_of: str | None = None) -> Reply:
    """A deed's RFID tag was placed on a reader: that deed is chosen (whatever flow was open ends), unless the
    open flow takes deeds itself (a deal, :mod:`.trade`: the deed joins it; an auction, :mod:`.auction`, keeps
    its own). ``tag_of``: the short name the tag was written for on another board (the deed's screen says so)."""
    taker = getattr(ctx.panel.mode, "deed_tapped", None)
    if taker is not None:
        return taker(ctx, slug)
    return ctx.enter(DeedMode(slug, cards_seen=ctx.panel.cards_down, tag_of=tag_of))


def player_menu(ctx: Ctx) -> Reply:
    """``FN GO``: taxes, jail, bankruptcy, worth for the cards on the readers; the game menu without a card."""
    return ctx.enter(PlayerMenu())
