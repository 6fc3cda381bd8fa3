"""The unit as a pure step: ``step(panel, game, event) -> Outcome``, and ``screen(panel, game)``.

The Electronic Banking keypad and its two card slots: a card on the ``+``
reader receives from the bank, one on the ``-`` reader pays it, both
transfer from ``-`` to ``+``; ``GO`` pays the GO salary; ``C`` held starts a
new game; ``.`` alone steps the volume; ``FN`` opens the menu (and enrols
an unknown card). While a mode is active it owns the keys.

A step does no I/O, reads no clock and draws no random number: time and a
PIN's salt come with the event. It returns the next panel, the effects, and
at most one record. The runtime writes the record first, then applies it to
the game (:func:`banker.game.apply`) and carries out the effects; if the
write fails it steps again with :class:`~banker.events.CommitFailed`, which
shows NOT SAVED here, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import flows, views
from .acts import enrolment, new_game, next_player_name
from .authority import Grant, requires_pin
from .entry import AmountEntry
from .errors import AmountError, Refused
from .events import (
    CardPlaced,
    CardRemoved,
    CommitFailed,
    PinRefused,
    Effect,
    Event,
    KeyDown,
    KeyUp,
    PlayTone,
    ReaderFault,
    ReaderRecovered,
    SetDisplayPower,
    Tick,
    WebAddress,
)
from .game import VOLUME_KEY, Game
from .modes.base import KEEP, MENU, Ctx, Mode, Reply
from .modes.menu import FnMenu
from .modes.pin import ask_pin
from .panel import NEW_GAME_HOLD, Panel
from .records import BANK, Card, Posting, Record, Setting, Transaction
from .screen import Screen


@dataclass(frozen=True)
class Outcome:
    """What one event led to: the next panel, the effects to carry out, at most one record to write, and the
    banker's PIN offered with it (or alone, to be checked before the panel goes on) to the write path."""

    panel: Panel
    effects: tuple[Effect, ...] = ()
    record: Record | None = None
    grant: Grant | None = None


def step(panel: Panel, game: Game, event: Event) -> Outcome:
    """The unit's answer to ``event``, given what it shows and the game; pure."""
    if isinstance(event, Tick):
        return _tick(panel, game, event.t)
    if isinstance(event, CommitFailed):
        return _outcome(panel, game, Ctx(panel, game).refuse(views.not_saved(event.reason)))
    if isinstance(event, PinRefused):
        return _outcome(panel, game, Ctx(panel, game).refuse(views.pin_refused(event.why, event.locked_for)))
    if isinstance(event, WebAddress):
        return Outcome(replace(panel, web_url=event.url))
    if isinstance(event, KeyUp):
        if panel.swallow_key_up == event.key:
            return Outcome(replace(panel, swallow_key_up=None))
        return _key_up(panel, game, event)
    if isinstance(event, ReaderRecovered):
        return _reader_recovered(panel, game, event)
    if panel.asleep and isinstance(event, ReaderFault):
        woken = _wake(panel, game, CardRemoved(event.reader, event.t))
        return Outcome(replace(woken.panel, faults=_clear_fault(panel, event.reader).faults
                               + ((event.reader, event.fault),)), woken.effects)
    if panel.asleep:
        return _wake(panel, game, event)
    panel = replace(panel, last_activity=event.t, now=event.t)
    if isinstance(event, KeyDown):
        return _key_down(replace(panel, message=None), game, event)
    if isinstance(event, CardPlaced):
        return _card_placed(panel, game, event)
    if isinstance(event, CardRemoved):
        return _card_removed(_clear_fault(panel, event.reader), game, event)
    if isinstance(event, ReaderFault):
        return _reader_fault(panel, game, event)
    raise TypeError(f"not an event: {event!r}")


def screen(panel: Panel, game: Game) -> Screen:
    """What the display shows for ``panel`` over ``game``; pure."""
    if panel.asleep:
        return views.ASLEEP
    ctx = Ctx(panel, game)
    if panel.faults:
        shown = views.reader_fault(*panel.faults[0])
    elif _holding_c(panel):
        shown = views.holding_c((panel.now - panel.c_down_at) / NEW_GAME_HOLD)
    else:
        shown = panel.message or (panel.mode.screen(ctx) if panel.mode is not None else _live_screen(ctx))
    return views.with_status(shown, left=panel.left is not None, right=panel.right is not None, volume=game.volume)


# -- turning a reply into the next panel -----------------------------------------------------


def _outcome(panel: Panel, game: Game, reply: Reply) -> Outcome:
    if reply.record is not None and reply.grant is None and requires_pin(game, reply.record):
        reply = ask_pin(reply)  # the banker's act: the PIN goes with its record to the write path
    mode = panel.mode if reply.mode is KEEP else (FnMenu() if reply.mode is MENU else reply.mode)
    entry = panel.entry if reply.entry is KEEP else reply.entry
    panel = replace(panel, mode=mode, entry=entry, message=reply.message, **reply.panel)
    volume = (reply.after or game).volume
    effects = ((PlayTone(reply.tone, volume),) if reply.tone else ()) + tuple(reply.effects)
    return Outcome(panel, effects, reply.record, reply.grant)


# -- time --------------------------------------------------------------------------------------


#: Seconds ``C`` is held before the new-game bar shows (a quick ``C`` only clears).
HOLD_CUE_AFTER = 0.3


def _holding_c(panel: Panel) -> bool:
    """Whether the hold of ``C`` that starts a new game is under way and long enough to show."""
    return (panel.c_down_at is not None and not panel.c_hold_done and not panel.cards_down
            and panel.now - panel.c_down_at >= HOLD_CUE_AFTER)


def _tick(panel: Panel, game: Game, t: float) -> Outcome:
    if panel.c_down_at is not None and not panel.c_hold_done and t - panel.c_down_at >= NEW_GAME_HOLD:
        return _c_held(replace(panel, now=t), game)
    if panel.c_down_at is not None and not panel.c_hold_done:
        return Outcome(replace(panel, now=t))  # the hold's bar moves on
    if not panel.asleep and t - panel.last_activity >= panel.sleep_after:
        asleep = replace(panel, asleep=True, entry=AmountEntry(), message=None, mode=None)
        return Outcome(asleep, (SetDisplayPower(False),))
    return Outcome(panel)


def _wake(panel: Panel, game: Game, event: Event) -> Outcome:
    """The first key or card after sleep only wakes the unit (a card is still noted as present or gone)."""
    p = replace(panel, asleep=False, last_activity=event.t, message=None)
    if isinstance(event, KeyDown):
        p = replace(p, swallow_key_up=event.key)
    elif isinstance(event, CardPlaced):
        p = replace(p, deed_on=event.reader) if event.uid in game.deed_tags else replace(p, **{event.reader: event.uid})
    elif isinstance(event, CardRemoved):
        p = replace(p, deed_on=None) if p.deed_on == event.reader else replace(p, **{event.reader: None})
    return Outcome(p, (SetDisplayPower(True),))


def _key_up(panel: Panel, game: Game, event: KeyUp) -> Outcome:
    if event.key != "C" or panel.c_down_at is None:
        return Outcome(panel)
    released = replace(panel, c_down_at=None, c_hold_done=False, now=max(panel.now, event.t))
    if not panel.c_hold_done and event.t - panel.c_down_at >= NEW_GAME_HOLD:
        held = _c_held(panel, game)
        return replace(held, panel=replace(held.panel, c_down_at=None, c_hold_done=False))
    return Outcome(released)


def _c_held(panel: Panel, game: Game) -> Outcome:
    """``C`` held long enough: a new game, unless a card lies on a reader."""
    panel = replace(panel, c_hold_done=True)
    ctx = Ctx(panel, game)
    if panel.cards_down:
        return _outcome(panel, game, ctx.refuse(views.message("New game?", "Take the cards", "off the readers",
                                                              error=True)))
    record = new_game(game)
    reply = ctx.commit(record, lambda after: views.new_game(after.id, after.settings.start_balance, len(after.cards)),
                       tone="new-game")
    return _outcome(panel, game, reply)


# -- keys --------------------------------------------------------------------------------------


def _key_down(panel: Panel, game: Game, event: KeyDown) -> Outcome:
    key, ctx = event.key, Ctx(panel, game, event.salt, event.wall)
    if panel.mode is not None:
        mode: Mode = panel.mode
        if key == "C":
            panel = replace(panel, c_down_at=event.t, c_hold_done=False)
            return _outcome(panel, game, mode.cancel(Ctx(panel, game, event.salt, event.wall)))
        return _outcome(panel, game, mode.key(ctx, key))
    if key == "C":
        return _outcome(replace(panel, c_down_at=event.t, c_hold_done=False), game, Reply(mode=None))
    if panel.faults and key in ("M", "K", "GO", "FN"):
        return _outcome(panel, game, ctx.refuse(views.reader_fault(*panel.faults[0]), keep_entry=True))
    return _outcome(panel, game, _unit_key(ctx, key))


def _unit_key(ctx: Ctx, key: str) -> Reply:
    """A key with no mode active."""
    p, game = ctx.panel, ctx.game
    if key.isdigit() or key == ".":
        if key == "." and p.entry.empty and not p.cards_down:
            level = (game.volume + 1) % 4
            return ctx.commit(Setting(VOLUME_KEY, str(level)), lambda after: views.volume(after.volume), tone="volume")
        try:
            return Reply(mode=KEEP, entry=p.entry.type(key))
        except AmountError as exc:
            return ctx.refuse(views.refused(str(exc)), keep_entry=True)
    if key in ("M", "K"):
        return _finish_amount(ctx, key)
    if key == "GO":
        return _pass_go(ctx)
    if key == "FN":
        return _function(ctx)
    raise ValueError(f"not a key of the unit: {key!r}")


# -- cards -------------------------------------------------------------------------------------


def _clear_fault(panel: Panel, reader: str) -> Panel:
    faults = tuple(f for f in panel.faults if f[0] != reader)
    return panel if faults == panel.faults else replace(panel, faults=faults)


def _reader_fault(panel: Panel, game: Game, event: ReaderFault) -> Outcome:
    """A reader can't read: what lay on it counts as gone, and nothing is paid until it reads again."""
    faults = tuple(f for f in panel.faults if f[0] != event.reader) + ((event.reader, event.fault),)
    gone = _card_removed(replace(panel, message=None), game, CardRemoved(event.reader, event.t))
    panel = replace(gone.panel, faults=faults, message=None)
    effects = tuple(e for e in gone.effects if not isinstance(e, PlayTone)) + (PlayTone("refusal", game.volume),)
    return Outcome(panel, effects, gone.record)


def _reader_recovered(panel: Panel, game: Game, event: ReaderRecovered) -> Outcome:
    """The reader reads again: the fault's screen and whatever was typed meanwhile go (it paid nothing)."""
    had = panel.fault(event.reader)
    if had is None and not event.restarted:
        return Outcome(panel)
    panel = replace(_clear_fault(panel, event.reader), message=None, entry=AmountEntry())
    if event.restarted or had == "not-answering":
        return Outcome(replace(panel, message=views.reader_back(event.reader, event.restarted)))
    return Outcome(panel)


def _card_placed(panel: Panel, game: Game, event: CardPlaced) -> Outcome:
    panel = _clear_fault(panel, event.reader)
    slug = game.deed_tags.get(event.uid)
    if slug is not None:
        panel = replace(panel, message=None, deed_on=event.reader)
        return _outcome(panel, game, flows.deed_tapped(Ctx(panel, game), slug))
    panel = replace(panel, message=None, **{event.reader: event.uid})
    ctx = Ctx(panel, game)
    if panel.mode is not None:
        return _outcome(panel, game, panel.mode.cards_changed(ctx))
    if panel.left is not None and panel.left == panel.right:
        return _outcome(panel, game, ctx.refuse(views.same_card(), keep_entry=True))
    if game.card_by_uid(event.uid) is None:
        return _outcome(panel, game, ctx.refuse(views.unknown_card(event.uid), keep_entry=True))
    return _outcome(panel, game, ctx.keep())


def _card_removed(panel: Panel, game: Game, event: CardRemoved) -> Outcome:
    if panel.deed_on == event.reader:
        return Outcome(replace(panel, deed_on=None))
    if panel.mode is not None:
        panel = replace(panel, **{event.reader: None})
        return _outcome(panel, game, panel.mode.cards_changed(Ctx(panel, game)))
    was_there = getattr(panel, event.reader) is not None
    panel = replace(panel, message=None, **{event.reader: None})
    if was_there and not panel.entry.empty:
        return Outcome(replace(panel, entry=AmountEntry(), message=views.cancelled("Card taken away")),
                       (PlayTone("refusal", game.volume),))
    return Outcome(panel)


# -- transactions ------------------------------------------------------------------------------


def _unknown(ctx: Ctx) -> Reply | None:
    """The refusal for an unknown card on a reader, if one lies there."""
    uid = ctx.unknown_uid()
    return None if uid is None else ctx.refuse(views.unknown_card(uid))


def _finish_amount(ctx: Ctx, suffix: str) -> Reply:
    p = ctx.panel
    try:
        amount = p.entry.finish(suffix)
    except AmountError as exc:
        return ctx.refuse(views.refused(str(exc)))
    if not p.cards_down:
        return ctx.refuse(views.refused("Insert a card first"), keep_entry=True)
    if p.left is not None and p.left == p.right:
        return ctx.refuse(views.same_card())
    refusal = _unknown(ctx)
    if refusal is not None:
        return refusal
    payee, payer = ctx.cards_on_readers()
    if payer is not None and payee is not None:
        kind, memo = "transfer", f"{payer.name} paid {payee.name}"
    elif payee is not None:
        kind, memo = "collect", "Bank paid"
    else:
        kind, memo = "pay", f"{payer.name} paid bank"
    return _post(ctx, payer, payee, amount, kind, memo)


def _pass_go(ctx: Ctx) -> Reply:
    p = ctx.panel
    if not p.entry.empty:
        return ctx.refuse(views.refused("GO: clear the", "amount first (C)"), keep_entry=True)
    if p.left is None:
        return ctx.refuse(views.refused("GO pays the card", "on the + reader"))
    payee = ctx.card(p.left)
    if payee is None:
        return ctx.refuse(views.unknown_card(p.left))
    if p.right is not None:
        return ctx.refuse(views.refused("GO: take the card", "off the - reader"))
    return _post(ctx, None, payee, ctx.game.settings.go_salary, "go", "Passed GO")


def _post(ctx: Ctx, payer: Card | None, payee: Card | None, amount: int, kind: str, memo: str) -> Reply:
    """Check the payer's funds, then commit; the screen shows the balances of the game after it."""
    game = ctx.game
    if payer is not None and not game.settings.allow_negative and game.balance(payer.id) < amount:
        balance = game.balance(payer.id)
        return ctx.refuse(views.short_of_funds(payer, amount - balance, balance))
    posting = Posting(payer.id if payer else BANK, payee.id if payee else BANK, amount, kind)
    tx = game.numbered(Transaction(kind, (posting,), memo))

    def shown(after: Game) -> Screen:
        if payer is not None and payee is not None:
            return views.transferred(payer, after.balance(payer.id), payee, after.balance(payee.id), amount)
        if payee is not None:
            return views.received(payee, amount, after.balance(payee.id), memo)
        return views.paid(payer, amount, after.balance(payer.id))

    return ctx.commit(tx, shown)


# -- FN and enrolment on the device ------------------------------------------------------------


def _function(ctx: Ctx) -> Reply:
    """``FN``: enrol the unknown card lying alone on a reader, else the FN menu."""
    p = ctx.panel
    present = [uid for uid in (p.left, p.right) if uid is not None]
    unknown = [uid for uid in present if ctx.card(uid) is None]
    if len(present) == 1 and unknown:
        return EnrolHere(unknown[0]).run(ctx)
    if unknown:
        return ctx.refuse(views.refused("Enrol one card", "at a time"))
    return ctx.enter(FnMenu())


@dataclass(frozen=True)
class EnrolHere:
    """The act of enrolling the card ``uid`` lying on a reader, as ``Player N``."""

    uid: str

    def run(self, ctx: Ctx) -> Reply:
        try:
            record = enrolment(ctx.game, next_player_name(ctx.game), self.uid)
        except Refused as exc:
            return ctx.refuse(views.refused(str(exc)))
        card = record.card
        return ctx.commit(record, lambda after: views.enrolled(card, after.balance(card.id)))


# -- the live screen ---------------------------------------------------------------------------


def _live_screen(ctx: Ctx) -> Screen:
    p, game = ctx.panel, ctx.game
    entry = None if p.entry.empty else p.entry.shown()
    if p.left is not None and p.left == p.right:
        return views.same_card()
    uid = ctx.unknown_uid()
    if uid is not None:
        return views.unknown_card(uid)
    payee, payer = ctx.cards_on_readers()
    if payer and payee:
        return views.two_cards(payer, game.balance(payer.id), payee, game.balance(payee.id), entry)
    if payee:
        return views.one_card(payee, game.balance(payee.id), "left", entry)
    if payer:
        return views.one_card(payer, game.balance(payer.id), "right", entry)
    return views.idle(entry)
