"""What every mode is made of: the read-only context it decides in, and the reply it returns.

A mode (the FN menu, a deed, the PIN, the undo prompt, ...) is a frozen value.
Given a key or a change of cards it returns a :class:`Reply`: the next mode,
a message, a tone, at most one record to write. It calls nothing and
changes nothing; :func:`banker.unit.step.step` turns the reply into the next
panel and effects. A reply that writes a record is built by
:meth:`Ctx.commit`, which checks the record against the game
(:func:`banker.fold.game.apply`) and builds the success screen from the game
the record leads to, so a screen never reports what would not fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any
from collections.abc import Callable

from banker.frozen import replace
from banker.text.i18n import ENGLISH, Tr, _
from banker.unit import views
from banker.fold.authority import Grant
from banker.unit.entry import AmountEntry
from banker.unit.events import Key, Tone
from banker.errors import InsufficientFunds, Refused
from banker.fold.game import Game, apply
from banker.unit.panel import Panel
from banker.journal.records import Card, Record, Transaction, stamped
from banker.unit.screen import Screen


class _Keep:
    """The reply leaves this part of the panel as it is."""

    def __repr__(self) -> str:
        return "KEEP"


class _Menu:
    """The reply opens the FN menu (the menu, in :mod:`banker.unit.flows.menu`, is the one router; modes never
    import it)."""

    def __repr__(self) -> str:
        return "MENU"


KEEP: Any = _Keep()
MENU: Any = _Menu()


class Then(Enum):
    """Where a refusal leaves the unit; a mode value given instead goes back to that mode (entry cleared)."""

    END = "the flow ends; the amount typed is cleared"
    STAY = "the mode stays; the amount typed is cleared"
    KEEP_ENTRY = "the flow ends; the amount typed stays"


#: A refusal ends the flow (the default).
END = Then.END
#: A refusal keeps the mode: the players can put the right card down or type again.
STAY = Then.STAY
#: A refusal on the home screen that keeps the amount typed.
KEEP_ENTRY = Then.KEEP_ENTRY


@dataclass(frozen=True)
class Reply:
    """What a mode decided. ``mode``: the next mode (None ends the flow, KEEP stays, MENU opens the FN menu);
    ``message``: a transient screen; ``entry``: the unit's amount entry (cleared unless KEEP); ``tone``;
    ``record``: at most one record to write, with ``after`` the game it leads to from ``folded_on`` (the
    ledger keeps that fold when nothing came between); ``effects``: more effects
    for the shell to carry out (a new token for the table page); ``grant``: the banker's PIN as typed,
    offered with ``record`` (or alone, to be checked) to the write path."""

    mode: Any = KEEP
    message: Screen | None = None
    entry: Any = AmountEntry()
    tone: Tone | None = "key"
    record: Record | None = None
    after: Game | None = None
    folded_on: Game | None = None
    effects: tuple = ()
    grant: Grant | None = None
    short: Shortfall | None = None


Shown = Callable[[Game], Screen]


@dataclass(frozen=True)
class Shortfall:
    """A payment the fold refused because ``actor`` is ``amount`` short: kept with a funds refusal's reply so the
    step can offer to raise the cash (:mod:`banker.unit.flows.raise_cash`) and then retry the very same payment.
    ``record``: the transaction as it was refused; ``shown``: its success screen; ``mode``: the mode after it
    succeeds."""

    record: Transaction
    shown: Shown
    actor: Card
    amount: int
    mode: object = None


@dataclass(frozen=True)
class Ctx:
    """The panel and the game a mode decides in (read-only); ``salt``: fresh bytes the event brought (a PIN's
    hash, a short game's deal); ``wall``: the wall-clock time the key came at (a PIN lockout); ``day``: the local
    time of day then, while the clock is known right (a time limit ending at an hour); ``tr``: the game's
    language's catalog, for a word the unit journals (a card enrolled on the keypad is ``Spieler 1`` in German)."""

    panel: Panel
    game: Game
    salt: bytes = b""
    wall: float = 0.0
    day: float | None = None
    tr: Tr = ENGLISH

    # -- what is on the table ------------------------------------------------------------

    def card(self, uid: str | None) -> Card | None:
        return self.game.card_by_uid(uid)

    def cards_on_readers(self) -> tuple[Card | None, Card | None]:
        """The known player cards on the ``+`` and ``-`` readers."""
        return self.card(self.panel.left), self.card(self.panel.right)

    def unknown_uid(self) -> str | None:
        """The UID of a card on a reader that nobody enrolled, if any."""
        p = self.panel
        return next((uid for uid in (p.left, p.right) if uid is not None and self.card(uid) is None), None)

    def short_of_funds(self, exc: InsufficientFunds, actor: Card | None) -> Screen:
        """The screen for a funds refusal: ``Bob short 890K`` and the balance when ``actor`` is known."""
        if actor is None:
            return views.refused(str(exc))
        return views.short_of_funds(actor, exc.shortfall, self.game.balance(actor.id))

    # -- replies ---------------------------------------------------------------------------

    def keep(self, tone: Tone | None = "key") -> Reply:
        """Stay in the mode with the typed amount; just a tone."""
        return Reply(mode=KEEP, entry=KEEP, tone=tone)

    def enter(self, mode: object) -> Reply:
        """Start (or go on in) ``mode``: it owns the keys until it ends."""
        return Reply(mode=mode)

    def show(self, shown: Screen, tone: Tone = "key", *, mode: object = None) -> Reply:
        """Show ``shown`` until the next key or card; the flow ends unless ``mode`` is given."""
        return Reply(mode=mode, message=shown, tone=tone)

    def refuse(self, shown: Screen, *, then: Then | Mode = END) -> Reply:
        """A refusal with the refusal tone; nothing is written. ``then``: :data:`END` (the flow ends),
        :data:`STAY` (the mode stays), :data:`KEEP_ENTRY` (the flow ends, the amount typed stays), or the
        mode to go back to."""
        if then is END:
            return Reply(mode=None, message=shown, tone="refusal")
        if then is STAY:
            return Reply(mode=KEEP, message=shown, tone="refusal")
        if then is KEEP_ENTRY:
            return Reply(mode=None, message=shown, entry=KEEP, tone="refusal")
        return Reply(mode=then, message=shown, tone="refusal")

    def commit(self, record: Record, shown: Shown, *, mode: object = None, on_refusal: Then | Mode = END,
               actor: Card | None = None, tone: Tone = "success") -> Reply:
        """Write ``record``: once committed show ``shown(game after)``. A record that does not fit is refused.

        ``mode`` is the mode after a success; ``on_refusal`` where a refusal leaves the unit (as in
        :meth:`refuse`); ``actor`` is the card whose shortfall a funds refusal names (the fold,
        :func:`banker.fold.game.apply`, is the one place that refuses a balance below zero). A transaction refused
        for ``actor``'s shortfall carries a :class:`Shortfall` in the reply (``short``): the step turns it into
        the refusal screen's offer to raise the cash (``0``) and keep the payment to retry it.
        """
        if self.wall:  # the key's own time: the fold here is then the one the ledger keeps
            record = stamped(record, self.wall)
        try:
            after = apply(self.game, record)
        except InsufficientFunds as exc:
            refusal = self.refuse(self.short_of_funds(exc, actor), then=on_refusal)
            if actor is None or type(record) is not Transaction:
                return refusal
            return replace(refusal, short=Shortfall(record, shown, actor, exc.shortfall, mode))
        except Refused as exc:
            return self.refuse(views.refused(str(exc)), then=on_refusal)
        return Reply(mode=mode, message=shown(after), tone=tone, record=record, after=after, folded_on=self.game)


class Mode:
    """A flow that owns the keys until it ends. ``C`` cancels it unless a subclass says otherwise.

    Subclasses are frozen dataclasses: a mode that changes returns its next
    value (``dataclasses.replace``) in the reply.
    """

    def screen(self, ctx: Ctx) -> Screen:
        raise NotImplementedError

    def key(self, ctx: Ctx, key: Key) -> Reply:
        raise NotImplementedError

    def cards_changed(self, ctx: Ctx) -> Reply:
        """A card came or went while the mode was active; by default the mode goes on, silently."""
        return ctx.keep(tone=None)

    def cancel(self, ctx: Ctx) -> Reply:
        """``C``: the flow ends, nothing changed."""
        return ctx.show(views.message(_('Cancelled'), _('Nothing changed')))


def card_moved(ctx: Ctx) -> Reply:
    """A flow for given cards ends when a card comes or goes: nothing is changed."""
    return ctx.refuse(views.cancelled(_('A card moved')))
