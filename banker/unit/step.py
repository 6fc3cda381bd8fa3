"""The unit as a pure step: ``step(panel, game, event) -> Outcome`` (what the display shows is :mod:`banker.unit.shown`).

:func:`step` is a table from event type to handler. Keys go to the active
mode, or to the home screen (:mod:`banker.unit.flows.home`) when none is; cards
coming and going, a reader's faults, sleep, the hold of ``C`` that starts a
new game and the replies of the write path are handled here. A mode's
:class:`~banker.unit.modes.base.Reply` becomes the next panel in one place
(:func:`_outcome`), finished first by the stages of :data:`REPLY_STAGES`, in
that order: a shortfall offers to raise the cash, a record that needs the
banker's PIN (:func:`banker.fold.authority.requires_pin`) goes to the PIN
mode first, a children's game shows the payment's sum. Every event's
outcome is then finished by :data:`OUTCOME_STAGES`: the table page's live
view, and the voice (:mod:`banker.unit.voice`), which is handed the screen
when it reads one out; the outcome carries that screen on to the shell.

A step does no I/O, reads no clock and draws no random number: time and a
PIN's salt come with the event. It returns the next panel, the effects, and
at most one record. The runtime writes the record first, then applies it to
the game (:func:`banker.fold.game.apply`) and carries out the effects; if the
write fails it steps again with :class:`~banker.unit.events.CommitFailed`, which
shows NOT SAVED here, in one place.
"""

from __future__ import annotations

from functools import partial
from typing import Any
from collections.abc import Callable

from banker.frozen import replace
from banker.unit import flows, views, voice
from banker.fold.acts import new_game
from banker.fold.authority import requires_pin
from banker.unit.entry import AmountEntry
from banker.unit.events import (
    CardPlaced,
    CardRemoved,
    CommitFailed,
    Event,
    Key,
    KeyDown,
    KeyRevealed,
    KeyUp,
    LiveState,
    PinRefused,
    PlayTone,
    Reader,
    ReadBalances,
    Say,
    ReaderFault,
    ReaderRecovered,
    SetDisplayPower,
    Tick,
    WebAddress,
)
from banker.unit.flows.home import HOME
from banker.unit.flows.key_code import revealed
from banker.unit.flows.menu import FnMenu
from banker.unit.flows.raise_cash import short_offer
from banker.errors import Refused
from banker.fold.game import Game, apply
from banker.text.i18n import ENGLISH, Tr, _
from banker.unit.modes.base import KEEP, MENU, Ctx, Reply
from banker.unit.modes.pin import ask_pin
from banker.unit.modes.sums import AskSum, with_sums
from banker.unit.outcome import Outcome
from banker.unit.shown import active_mode, live, screen
from banker.unit.play_clock import clock_tick
from banker.unit.panel import NEW_GAME_HOLD, Panel
from banker.rules.standings import standings
from banker.unit.screen import Screen

__all__ = ["OUTCOME_STAGES", "REPLY_STAGES", "Outcome", "live", "screen", "step"]  # live, screen: shown's

Handler = Callable[[Panel, Game, Any], Outcome]


def step(panel: Panel, game: Game, event: Event, tr: Tr = ENGLISH) -> Outcome:
    """The unit's answer to ``event``, given what it shows and the game; pure. ``tr``: the game's language's
    catalog (:mod:`banker.text.i18n`), for what the voice says."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not an event: {event!r}")
    if type(event) is KeyDown:
        handler = _awake(partial(_key_down, tr=tr))  # a key's flow may journal a word: its default name
    return _through(OUTCOME_STAGES, handler(panel, game, event), Ctx(panel, game, tr=tr))


# -- the reply finished, once: its stages in order, as data ---------------------------------------------------


def _through(stages: tuple, value, ctx: Ctx):
    """``value`` (a reply, an outcome) through each of ``stages`` in turn, every one given the same ``ctx``."""
    for stage in stages:
        value = stage(value, ctx)
    return value


def _offer_raise_cash(reply: Reply, ctx: Ctx) -> Reply:
    """A payment refused for a shortfall: its refusal screen offers "0: raise cash" (:mod:`banker.unit.flows.raise_cash`)."""
    return reply if reply.short is None else short_offer(ctx, reply)


def _ask_banker_pin(reply: Reply, ctx: Ctx) -> Reply:
    """The banker's act (:func:`banker.fold.authority.requires_pin`): the PIN first, then it goes with its record to
    the write path. The PIN mode's reply folds nothing, so no sum is shown for it."""
    if reply.record is not None and reply.grant is None and requires_pin(ctx.game, reply.record):
        return ask_pin(reply)
    return reply


def _show_sums(reply: Reply, ctx: Ctx) -> Reply:
    """A game for children: the payment's sum shown, or asked first (:mod:`banker.unit.modes.sums`)."""
    if ctx.game.settings.sums is not None and reply.after is not None and not isinstance(ctx.panel.mode, AskSum):
        return with_sums(ctx.game, reply)
    return reply


def _with_live(outcome: Outcome, ctx: Ctx) -> Outcome:
    """``outcome`` with a :class:`LiveState` when the live view changed (unless the reply gave its own: a sale)."""
    if ctx.panel.mode is None and outcome.panel.mode is None:
        return outcome
    if any(isinstance(effect, LiveState) for effect in outcome.effects):
        return outcome
    after = live(outcome.panel, outcome.folded[1] if outcome.folded is not None else ctx.game)
    if after == live(ctx.panel, ctx.game):
        return outcome
    return replace(outcome, effects=outcome.effects + (LiveState(after),))


def _with_voice(outcome: Outcome, ctx: Ctx) -> Outcome:
    """``outcome`` with a :class:`Say` of what happened (:func:`banker.unit.voice.said`), if anything is said, on a unit
    that speaks (``panel.speaks``: nothing is built for one that doesn't); the balance key's request
    (:class:`ReadBalances`, from the FN menu) becomes the balances said (docs/voice.md). A refusal the voice reads
    out is drawn here, once: the outcome carries that screen to the shell, which draws it (:attr:`Outcome.shown`)."""
    panel, game, tr = ctx.panel, ctx.game, ctx.tr
    if not panel.speaks:
        return outcome
    if ReadBalances() in outcome.effects:
        said = Say(voice.balances_said(panel, game, tr), game.volume, game.language)
        return replace(outcome, effects=tuple(e for e in outcome.effects if not isinstance(e, ReadBalances)) + (said,))
    after = outcome.folded[1] if outcome.folded is not None else game
    if voice.reads_screen(panel, outcome):
        outcome = replace(outcome, shown=screen(outcome.panel, after, tr))
    text = voice.said(panel, game, outcome, outcome.shown, tr)
    if text is None:
        return outcome
    return replace(outcome, effects=outcome.effects + (Say(text, after.volume, after.language),))


#: What finishes a mode's reply, in order, each ``(reply, ctx) -> reply`` (:func:`_outcome` then makes it the next
#: panel): a shortfall offers to raise the cash; the banker's act asks for the PIN; a children's game shows its sum.
REPLY_STAGES = (_offer_raise_cash, _ask_banker_pin, _show_sums)
#: What finishes every event's outcome, in order, each ``(outcome, ctx) -> outcome``, ``ctx`` the panel and the
#: game the event came to: the table page's live view, then the voice.
OUTCOME_STAGES = (_with_live, _with_voice)


def _outcome(panel: Panel, game: Game, reply: Reply) -> Outcome:
    """A mode's ``reply`` on ``panel`` over ``game``, finished (:data:`REPLY_STAGES`), as the next panel."""
    reply = _through(REPLY_STAGES, reply, Ctx(panel, game))
    mode = panel.mode if reply.mode is KEEP else (FnMenu() if reply.mode is MENU else reply.mode)
    entry = panel.entry if reply.entry is KEEP else reply.entry
    panel = replace(panel, mode=mode, entry=entry, message=reply.message)
    volume = (reply.after or game).volume
    effects = ((PlayTone(reply.tone, volume),) if reply.tone else ()) + tuple(reply.effects)
    folded = (reply.folded_on, reply.after) if reply.folded_on is not None and reply.after is not None else None
    return Outcome(panel, effects, reply.record, reply.grant, folded)


def _refused(panel: Panel, game: Game, shown: Screen) -> Outcome:
    return _outcome(panel, game, Ctx(panel, game).refuse(shown))


def _commit_failed(panel: Panel, game: Game, event: CommitFailed) -> Outcome:
    return _refused(panel, game, views.not_saved(event.reason))


def _pin_refused(panel: Panel, game: Game, event: PinRefused) -> Outcome:
    return _refused(panel, game, views.pin_refused(event.why, event.locked_for))


def _web_address(panel: Panel, game: Game, event: WebAddress) -> Outcome:
    return Outcome(replace(panel, web_url=event.url))


def _key_revealed(panel: Panel, game: Game, event: KeyRevealed) -> Outcome:
    return Outcome(replace(panel, mode=revealed(panel.mode, event.text)))


# -- time --------------------------------------------------------------------------------------


def _tick(panel: Panel, game: Game, event: Tick) -> Outcome:
    t = event.t
    if game.settings.time_limit is not None and not game.time_up:
        clock = clock_tick(panel, game, t)
        panel = clock.panel
        if clock.record is not None:
            return _clock_record(panel, game, clock, t)
    if panel.c_down_at is not None and not panel.c_hold_done:
        return _c_hold_goes_on(panel, game, t)
    timed = getattr(panel.mode, "tick", None)  # a flow that runs on time (an auction): it never sleeps
    if timed is not None and not panel.asleep:
        return _timed_tick(panel, game, timed, t)
    if _falls_asleep(panel, t):
        asleep = replace(panel, asleep=True, entry=AmountEntry(), message=None, mode=None)
        return Outcome(asleep, (SetDisplayPower(False),))
    return Outcome(panel)


def _c_hold_goes_on(panel: Panel, game: Game, t: float) -> Outcome:
    """The hold of ``C``: its bar moves on, and once held long enough a new game starts (:func:`_c_held`)."""
    panel = replace(panel, now=t)
    return _c_held(panel, game) if t - panel.c_down_at >= NEW_GAME_HOLD else Outcome(panel)


def _timed_tick(panel: Panel, game: Game, timed: Callable[[Ctx, float], Reply | None], t: float) -> Outcome:
    """A flow that runs on time (an auction's countdown) told the time; its reply, if any, is activity."""
    reply = timed(Ctx(replace(panel, now=t), game), t)
    if reply is None:
        return Outcome(panel)
    return _outcome(replace(panel, now=t, last_activity=t), game, reply)


def _falls_asleep(panel: Panel, t: float) -> bool:
    """Idle long enough, in a flow that doesn't keep the unit awake: the screen goes to sleep."""
    return (not panel.asleep and t - panel.last_activity >= panel.sleep_after
            and not getattr(panel.mode, "keeps_awake", False))


def _clock_record(panel: Panel, game: Game, clock, t: float) -> Outcome:
    """A time-limit game's play clock journalled: quietly each minute; a warning wakes the unit and beeps; the end
    closes any flow and shows the standings."""
    try:
        after = apply(game, clock.record)
    except Refused:
        return Outcome(panel)
    if clock.warned is None and not clock.ended:
        return Outcome(panel, (), clock.record, None, (game, after))
    woken = replace(panel, asleep=False, last_activity=t, now=t)
    effects = ((SetDisplayPower(True),) if panel.asleep else ()) + (PlayTone("warning", game.volume),)
    if clock.ended:
        woken = replace(woken, mode=None, entry=AmountEntry(), message=views.time_up(standings(after)))
    else:
        woken = replace(woken, message=views.time_warning(clock.warned))
    return Outcome(woken, effects, clock.record, None, (game, after))


def _awake(handler: Handler) -> Handler:
    """A key or card: the first after sleep only wakes the unit; else it is activity, then ``handler``."""

    def handle(panel: Panel, game: Game, event: Any) -> Outcome:
        if panel.asleep:
            return _wake(panel, game, event)
        return handler(replace(panel, last_activity=event.t, now=event.t), game, event)

    return handle


def _wake(panel: Panel, game: Game, event: Event) -> Outcome:
    """The first key or card after sleep only wakes the unit (a card is still noted as present or gone)."""
    p = replace(panel, asleep=False, last_activity=event.t, message=None)
    if isinstance(event, KeyDown):
        p = replace(p, swallow_key_up=event.key)
    elif isinstance(event, CardPlaced):
        p = replace(p, deed_on=event.reader) if event.uid in game.deed_tags else p.with_card(event.reader, event.uid)
    elif isinstance(event, CardRemoved):
        p = replace(p, deed_on=None) if p.deed_on == event.reader else p.with_card(event.reader, None)
    return Outcome(p, (SetDisplayPower(True),))


def _key_up(panel: Panel, game: Game, event: KeyUp) -> Outcome:
    if panel.swallow_key_up == event.key:
        return Outcome(replace(panel, swallow_key_up=None))
    if event.key != Key.C or panel.c_down_at is None:
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
        return _outcome(panel, game, ctx.refuse(views.message(_("New game?"), _("Take the cards"), _("off the readers"),
                                                              error=True)))
    try:
        record = new_game(game, shuffle=panel.c_salt)  # a short game's deal is shuffled by the C key's bytes
    except Refused as exc:
        return _outcome(panel, game, ctx.refuse(views.refused(str(exc))))
    reply = ctx.commit(record, lambda after: views.new_game(after.id, after.settings.start_balance, len(after.cards)),
                       tone="new-game")
    return _outcome(panel, game, reply)


# -- keys --------------------------------------------------------------------------------------


def _key_down(panel: Panel, game: Game, event: KeyDown, tr: Tr = ENGLISH) -> Outcome:
    """A key goes to the mode that owns the keys; ``C`` cancels it (and, held, starts a new game). ``tr``: the
    game's language's catalog, for the flows (a card enrolled with ``FN`` is named in it)."""
    key, panel = Key(event.key), replace(panel, message=None)
    if key == Key.C:
        panel = replace(panel, c_down_at=event.t, c_hold_done=False, c_salt=event.salt)
        return _outcome(panel, game, active_mode(panel).cancel(Ctx(panel, game, event.salt, event.wall, event.day, tr)))
    return _outcome(panel, game, active_mode(panel).key(Ctx(panel, game, event.salt, event.wall, event.day, tr), key))


# -- cards -------------------------------------------------------------------------------------


def _clear_fault(panel: Panel, reader: Reader) -> Panel:
    faults = tuple(f for f in panel.faults if f[0] != reader)
    return panel if faults == panel.faults else replace(panel, faults=faults)


def _reader_fault(panel: Panel, game: Game, event: ReaderFault) -> Outcome:
    """A reader can't read: what lay on it counts as gone, and nothing is paid until it reads again."""
    if panel.asleep:
        woken = _wake(panel, game, CardRemoved(event.reader, event.t))
        return Outcome(replace(woken.panel, faults=_clear_fault(panel, event.reader).faults
                               + ((event.reader, event.fault),)), woken.effects)
    panel = replace(panel, last_activity=event.t, now=event.t)
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
    tagged = game.deed_of_tag(event.uid)
    if tagged is not None:
        panel = replace(panel, message=None, deed_on=event.reader)
        return _outcome(panel, game, flows.deed_tapped(Ctx(panel, game), *tagged))  # a deal or an auction takes it
    panel = replace(panel, message=None).with_card(event.reader, event.uid)
    ctx = Ctx(panel, game)
    if panel.mode is not None:
        return _outcome(panel, game, panel.mode.cards_changed(ctx))
    return _outcome(panel, game, HOME.card_placed(ctx, event.uid))


def _card_removed(panel: Panel, game: Game, event: CardRemoved) -> Outcome:
    if panel.deed_on == event.reader:
        return Outcome(replace(panel, deed_on=None))
    if panel.mode is not None:
        panel = panel.with_card(event.reader, None)
        return _outcome(panel, game, panel.mode.cards_changed(Ctx(panel, game)))
    was_there = panel.card_on(event.reader) is not None
    panel = replace(panel, message=None).with_card(event.reader, None)
    if was_there and not panel.entry.empty:
        return Outcome(replace(panel, entry=AmountEntry(), message=views.cancelled(_("Card taken away"))),
                       (PlayTone("refusal", game.volume),))
    return Outcome(panel)


def _card_removed_event(panel: Panel, game: Game, event: CardRemoved) -> Outcome:
    return _card_removed(_clear_fault(panel, event.reader), game, event)


#: The step, as a table: event type -> handler.
_HANDLERS: dict[type, Handler] = {
    Tick: _tick,
    CommitFailed: _commit_failed,
    PinRefused: _pin_refused,
    WebAddress: _web_address,
    KeyRevealed: _key_revealed,
    KeyUp: _key_up,
    ReaderRecovered: _reader_recovered,
    ReaderFault: _reader_fault,
    KeyDown: _awake(_key_down),
    CardPlaced: _awake(_card_placed),
    CardRemoved: _awake(_card_removed_event),
}
