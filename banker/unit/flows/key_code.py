"""``FN M``: the ledger's key as a QR code on the OLED, for a phone's photo (``banker key import`` reads it).

Showing the key is the banker's act: it is a :class:`~banker.journal.records.KeyShown`
record (the step asks for the PIN first, and the journal keeps that it was
shown, never the key). Once the record is written the shell brings the key
(:class:`~banker.unit.events.KeyRevealed`, answering :class:`~banker.unit.events.RevealKey`)
and this screen shows it until ``C`` or any other flow; the key is then gone
from the unit's state. docs/keypad.md, "Moving to another machine".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.unit.events import Key, RevealKey
from banker.unit.modes.base import STAY, Ctx, Reply
from banker.journal.records import KeyShown
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow


@dataclass(frozen=True)
class KeyCode(Flow):
    """The ledger's key shown as a QR code; ``text``: the key as exported (None until the shell brings it)."""

    text: str | None = field(default=None, repr=False)

    def screen(self, ctx: Ctx) -> Screen:
        if self.text is None:
            return views.screen(_('Ledger key'), _('Reading it...'), _('C: back'))
        return views.join_code(
            self.text,
            # Translators: beside a QR code (10 characters)
            _('Ledger key'),
            # Translators: beside a QR code (10 characters)
            _('photo it,'),
            "key import",
            # Translators: beside a QR code (10 characters)
            _('C: hide it'),
        )

    def press(self, ctx: Ctx, key: Key) -> Reply:
        return ctx.refuse(views.refused(_('C: hide the key')), then=STAY)

    def cancel(self, ctx: Ctx) -> Reply:
        return ctx.show(views.message(_('Ledger key'), _('hidden')))


def key_code(ctx: Ctx) -> Reply:
    """``FN M``: journal that the key is shown (with the PIN), then show it."""
    reply = ctx.commit(KeyShown(), lambda after: None, mode=KeyCode())
    return replace(reply, effects=(RevealKey(),)) if reply.record is not None else reply


def revealed(mode: object, text: str) -> object:
    """The mode once the shell brought the key: the key's screen shows it; any other mode ignores it."""
    return replace(mode, text=text) if isinstance(mode, KeyCode) else mode
