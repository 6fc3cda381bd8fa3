"""``FN K``: the table page's address as a QR code on the OLED, to be scanned by a phone; ``M`` renews its token.

The address (with the page's access token) comes from the runtime as
:class:`banker.unit.events.WebAddress` (``Panel.web_url``), worked out anew
every few seconds: until the unit has a network address it is the wildcard
(``0.0.0.0``) and the screen says "No network yet" instead of showing a code
no phone can open; a loopback address says the page is for the computer
serving it only. Renewing the token
needs the banker's PIN: the flow then asks the runtime for it with the
:class:`banker.unit.events.RenewWebToken` effect; every page opened with the old
address is closed and refused, and the runtime brings the new address,
which this screen shows at once. docs/keypad.md, "The table page".
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.text.i18n import _
from banker.unit import views
from banker.unit.events import Key, RenewWebToken
from banker.journal.records import TokenRenewal
from banker.unit.modes.base import STAY, Ctx, Reply
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow


@dataclass(frozen=True)
class JoinCode(Flow):
    """The QR code of the page's URL, with a few words beside it; ``renewed``: a new token was just asked for."""

    renewed: bool = False

    def screen(self, ctx: Ctx) -> Screen:
        url = ctx.panel.web_url
        if url is None:
            return views.screen(_('Table page is off'), _('Turn it on: [web]'), "enabled = true", _('C: back'))
        reach = views.page_reach(url)
        if reach != "lan":  # no phone could open it: say why rather than show a useless code
            return views.join_unreachable(reach)
        if self.renewed:
            return views.join_code(
                url,
                # Translators: beside a QR code (10 characters)
                _('New code'),
                # Translators: beside a QR code (10 characters)
                _('old pages'),
                # Translators: beside a QR code (10 characters)
                _('closed'),
                # Translators: beside a QR code (10 characters)
                _('C: done'),
            )
        return views.join_code(
            url,
            # Translators: beside a QR code (10 characters)
            _('Scan for'),
            # Translators: beside a QR code (10 characters)
            _('the table'),
            # Translators: beside a QR code (10 characters)
            _('M new code'),
            # Translators: beside a QR code (10 characters)
            _('C: done'),
        )

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if ctx.panel.web_url is None:
            return ctx.refuse(views.refused(_('Table page is off')))
        if key == Key.M:
            return RenewToken().run(ctx)
        return ctx.refuse(views.refused(_('M: new code'), _('C: done')), then=STAY)


@dataclass(frozen=True)
class RenewToken:
    """The act of giving the page a new access token (the banker's PIN guards it): old sessions close."""

    def run(self, ctx: Ctx) -> Reply:
        """A :class:`TokenRenewal` record (the step asks for the PIN first); the new token once it is written."""
        reply = ctx.commit(TokenRenewal(), lambda after: None, mode=JoinCode(renewed=True))
        return replace(reply, effects=(RenewWebToken(),)) if reply.record is not None else reply


def join_code(ctx: Ctx) -> Reply:
    """``FN K``: show the table page's QR code."""
    return ctx.enter(JoinCode())
