"""``FN C``: the undo prompt, showing the last transaction and undoing it on ``M``."""

from __future__ import annotations

from dataclasses import dataclass

from banker.text.i18n import _
from banker.unit import views
from banker.errors import Refused
from banker.unit.events import Key
from banker.unit.screen import Screen
from banker.fold.undo import described, last_undoable, undo_last
from banker.unit.modes.base import Ctx, Mode, Reply


@dataclass(frozen=True)
class ConfirmUndo(Mode):
    """The game's last transaction, undone by a reversing entry on ``M``."""

    def screen(self, ctx: Ctx) -> Screen:
        last = last_undoable(ctx.game)
        if last is None:
            return views.message(_('Nothing to undo'))
        who, how_much = described(ctx.game, last)
        return views.message(_('Undo #{id}?', id=last.id), who, how_much, _('M: yes   C: no'))

    def key(self, ctx: Ctx, key: Key) -> Reply:
        if key != Key.M:
            return ctx.refuse(views.refused(_('M to undo, C to keep')))
        try:
            undo = undo_last(ctx.game)
        except Refused as exc:
            return ctx.refuse(views.refused(str(exc)))
        who, how_much = described(ctx.game, ctx.game.last)
        back = _('money given back') if undo.postings else _('deeds as before')
        return ctx.commit(undo, lambda after: views.message(_('#{reverses} reversed:', reverses=undo.reverses), who, how_much, back))
