"""The home screen as a mode: amounts, payments, GO, the volume, ``FN`` (and enrolling a card on it).

The Electronic Banking keypad and its two card slots: a card on the ``+``
reader receives from the bank, one on the ``-`` reader pays it, both
transfer from ``-`` to ``+``; ``GO`` pays the GO salary; ``.`` alone steps
the volume; ``FN`` opens the menu (and enrols an unknown card lying alone
on a reader). The step hands keys and cards here while no other mode is
active (``panel.mode`` is None); ``C`` (:meth:`Home.cancel`) clears the
amount, and held starts a new game (:mod:`banker.unit.step`, it is about time).
A payment refused for a shortfall offers ``0: raise cash``
(:mod:`banker.unit.flows.raise_cash`).
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.text.i18n import _
from banker.unit import views
from banker.fold.acts import enrolment, next_player_name
from banker.errors import AmountError, Refused
from banker.unit.events import AMOUNT_KEYS, SUFFIXES, Key
from banker.fold.game import VOLUME_KEY, Game
from banker.unit.modes.base import KEEP, KEEP_ENTRY, Ctx, Mode, Reply
from banker.journal.records import BANK, Card, Posting, Setting, Transaction
from banker.unit.screen import Screen
from banker.money import format_amount
from banker.unit.play_clock import time_left_line
from banker.rules.standings import standings
from banker.unit.flows.menu import FnMenu

#: The keys a reader's fault refuses on the home screen (nothing is paid until it reads again).
PAYING_KEYS = SUFFIXES | {Key.GO, Key.FN}


@dataclass(frozen=True)
class Home(Mode):
    """The unit with no flow open: the cards on the readers, the amount being typed (``panel.entry``)."""

    def screen(self, ctx: Ctx) -> Screen:
        return _live_screen(ctx)

    def key(self, ctx: Ctx, key: Key) -> Reply:
        p = ctx.panel
        if p.faults and key in PAYING_KEYS:
            return ctx.refuse(views.reader_fault(*p.faults[0]), then=KEEP_ENTRY)
        if key == Key.POINT and p.entry.empty and not p.cards_down:
            level = (ctx.game.volume + 1) % 4
            return ctx.commit(Setting(VOLUME_KEY, str(level)), lambda after: views.volume(after.volume), tone="volume")
        if key in AMOUNT_KEYS:
            return _type_amount(ctx, key)
        if key in SUFFIXES:
            return _finish_amount(ctx, key)
        if key == Key.GO:
            return _pass_go(ctx)
        if key == Key.FN:
            return _function(ctx)
        raise ValueError(f"not a key of the home screen: {key!r}")

    def card_placed(self, ctx: Ctx, uid: str) -> Reply:
        """The card ``uid`` was placed: two of the same, or one nobody enrolled, is refused (the amount stays)."""
        p = ctx.panel
        if p.left is not None and p.left == p.right:
            return ctx.refuse(views.same_card(), then=KEEP_ENTRY)
        if ctx.card(uid) is None:
            return ctx.refuse(views.unknown_card(uid), then=KEEP_ENTRY)
        return ctx.keep()

    def cancel(self, ctx: Ctx) -> Reply:
        """``C`` clears the amount typed (held, it starts a new game: the step times it)."""
        return Reply(mode=None)


HOME = Home()


# -- transactions ------------------------------------------------------------------------------


def _type_amount(ctx: Ctx, key: Key) -> Reply:
    """A digit or the point joins the amount being typed; one it cannot take is refused (the amount stays)."""
    try:
        return Reply(mode=KEEP, entry=ctx.panel.entry.type(key))
    except AmountError as exc:
        return ctx.refuse(views.refused(str(exc)), then=KEEP_ENTRY)


def _finish_amount(ctx: Ctx, suffix: Key) -> Reply:
    p = ctx.panel
    try:
        amount = p.entry.finish(suffix)
    except AmountError as exc:
        return ctx.refuse(views.refused(str(exc)))
    if not p.cards_down:
        return ctx.refuse(views.refused(_('Insert a card first')), then=KEEP_ENTRY)
    if p.left is not None and p.left == p.right:
        return ctx.refuse(views.same_card())
    uid = ctx.unknown_uid()
    if uid is not None:
        return ctx.refuse(views.unknown_card(uid))
    payee, payer = ctx.cards_on_readers()
    if payer is not None and payee is not None:
        kind, memo = "transfer", _('{payer} paid {payee}', payer=payer.name, payee=payee.name)
    elif payee is not None:
        kind, memo = "collect", _('Bank paid')
    else:
        kind, memo = "pay", _('{name} paid bank', name=payer.name)
    return _post(ctx, payer, payee, amount, kind, memo)


def _pass_go(ctx: Ctx) -> Reply:
    p = ctx.panel
    if not p.entry.empty:
        return ctx.refuse(views.refused(_('GO: clear the'), _('amount first (C)')), then=KEEP_ENTRY)
    if p.left is None:
        return ctx.refuse(views.refused(_('GO pays the card'), _('on the + reader')))
    payee = ctx.card(p.left)
    if payee is None:
        return ctx.refuse(views.unknown_card(p.left))
    if p.right is not None:
        return ctx.refuse(views.refused(_('GO: take the card'), _('off the - reader')))
    return _post(ctx, None, payee, ctx.game.settings.go_salary, "go", _('Passed GO'))


def _post(ctx: Ctx, payer: Card | None, payee: Card | None, amount: int, kind: str, memo: str) -> Reply:
    """Commit the payment; the fold refuses a payer short of funds (the screen names the payer), and the
    screen shows the balances of the game after it."""
    posting = Posting(payer.id if payer else BANK, payee.id if payee else BANK, amount, kind)
    tx = ctx.game.numbered(Transaction(kind, (posting,), memo))  # a text: the sums' title shows it translated

    def shown(after: Game) -> Screen:
        if payer is not None and payee is not None:
            return views.transferred(payer, after.balance(payer.id), payee, after.balance(payee.id), amount)
        if payee is not None:
            return views.received(payee, amount, after.balance(payee.id), memo)
        return views.paid(payer, amount, after.balance(payer.id))

    return ctx.commit(tx, shown, actor=payer)


# -- FN and enrolment on the device ------------------------------------------------------------


def _function(ctx: Ctx) -> Reply:
    """``FN``: enrol the unknown card lying alone on a reader, else the FN menu."""
    p = ctx.panel
    present = [uid for uid in (p.left, p.right) if uid is not None]
    unknown = [uid for uid in present if ctx.card(uid) is None]
    if len(present) == 1 and unknown:
        return EnrolHere(unknown[0]).run(ctx)
    if unknown:
        return ctx.refuse(views.refused(_('Enrol one card'), _('at a time')))
    return ctx.enter(FnMenu())


@dataclass(frozen=True)
class EnrolHere:
    """The act of enrolling the card ``uid`` lying on a reader, as ``Player N`` in the game's language."""

    uid: str

    def run(self, ctx: Ctx) -> Reply:
        try:
            record = enrolment(ctx.game, next_player_name(ctx.game, ctx.tr), self.uid)
        except Refused as exc:
            return ctx.refuse(views.refused(str(exc)))
        card = record.card
        return ctx.commit(record, lambda after: views.enrolled(card, after.balance(card.id)))


# -- the live screen ---------------------------------------------------------------------------


def _live_screen(ctx: Ctx) -> Screen:
    p, game = ctx.panel, ctx.game
    entry = None if p.entry.empty else p.entry.shown()
    unusable = _unusable_cards(ctx)
    if unusable is not None:
        return unusable
    payee, payer = ctx.cards_on_readers()
    if payer or payee:
        return _cards_screen(game, payer, payee, entry)
    if game.time_up and entry is None:
        return views.time_up(standings(game))
    return views.idle(entry, _status_line(game))


def _unusable_cards(ctx: Ctx) -> Screen | None:
    """What the readers hold that the home screen cannot use: the same card twice, an unknown or a retired card."""
    p, game = ctx.panel, ctx.game
    if p.left is not None and p.left == p.right:
        return views.same_card()
    uid = ctx.unknown_uid()
    if uid is not None:
        return views.unknown_card(uid)
    payee, payer = ctx.cards_on_readers()
    out = next((c for c in (payer, payee) if c is not None and c.id in game.estate.retired), None)
    return None if out is None else views.retired(out)


def _cards_screen(game: Game, payer: Card | None, payee: Card | None, entry: str | None) -> Screen:
    """The cards on the readers with their balances, and the amount being typed."""
    if payer and payee:
        return views.two_cards(payer, game.balance(payer.id), payee, game.balance(payee.id), entry)
    if payee:
        return views.one_card(payee, game.balance(payee.id), "left", entry)
    return views.one_card(payer, game.balance(payer.id), "right", entry)


def _status_line(game: Game) -> str | None:
    """The idle screen's last line: the pot and the time left, as they fit."""
    parts = [_('Pot {amount}', amount=format_amount(game.pot))] if game.pot is not None else []
    left = time_left_line(game.time_left, game.time_up)
    if left is not None:  # "Pot 12.5M 1h 30m left" is a line and a character: the time goes without "left"
        short = time_left_line(game.time_left, game.time_up, left=False)
        parts.append(left if len(views.fitted(*parts, left)) <= views.LINE_WIDTH else short)
    return views.fitted(*parts) if parts else None
