"""The house rules and modes of a new game on the keypad: the Free Parking pot's seed, the time limit, the sums.

From the new game's confirmation (:class:`banker.unit.flows.game_menu.ConfirmNewGame`)::

    4   Free Parking pot: off, or on with a seed typed (amount, M/K; 0 M an empty pot)
    5   time limit: off, or minutes typed then M (90 M: 90 minutes), or an
        hour typed then K (21.30 K: until half past nine) when the clock is
        known to be right
    6   sums for children: off -> show -> ask -> off
    7   the board: the next edition packaged (us -> uk -> de ...), its start
        money and GO salary with it unless they were changed from its own

And the pot during play (``FN GO`` with a card): :func:`take_pot` on the
``+`` card (``6``), :class:`PayPot` from the ``-`` card (``6``, an amount).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from banker.frozen import replace
from banker.unit import views
from banker.text.i18n import N_, _
from banker.unit.entry import AmountEntry
from banker.errors import AmountError
from banker.unit.events import AMOUNT_KEYS, Key
from banker.unit.modes.base import STAY, Ctx, Reply, card_moved
from banker.money import format_amount
from banker.unit.play_clock import seconds_until, time_left_line
from banker.journal.records import Card, GameSettings
from banker.rules.deeds import Edition
from banker.fold.acts import on_board
from banker.rules.jackpot import pay_pot, take_pot as take_pot_rule
from banker.unit.screen import Screen
from banker.unit.flows.common import AmountFlow, Flow, act, one_player_result

#: The ways a game shows sums, in the order the ``6`` key steps through them.
SUMS_CYCLE = {None: "show", "show": "ask", "ask": None}
#: The sums' modes as the house rules' summary shows them.
SUMS_NAMES = {None: N_("off"), "show": N_("show"), "ask": N_("ask")}
#: The longest time limit: a day.
LONGEST = 24 * 3600


def modes_summary(settings: GameSettings) -> tuple[str, str]:
    """Two lines for a new game's options: ``4 Pot 500K  5 90 min`` and ``6 Sums ask``."""
    pot = _("4 Pot off") if settings.jackpot is None else _('4 Pot {pot}', pot=format_amount(settings.jackpot))
    limit = _('no time') if settings.time_limit is None else _length(settings.time_limit)
    return views.fitted(pot, _("5 {limit}", limit=limit)), _('6 Sums {sums}', sums=_(SUMS_NAMES[settings.sums]))


def edition_line(settings: GameSettings) -> str:
    """The new game's board, as the confirmation shows it: ``7 Board de``."""
    return _('7 Board {name}', name=settings.edition)


def with_next_edition(settings: GameSettings, editions: Mapping[str, Edition]) -> GameSettings:
    """The settings on the next edition of ``editions`` (``7``), in the order of their names, after the last the
    first (:func:`banker.fold.acts.on_board`: its start money and GO salary with it)."""
    names = sorted(editions)
    at = names.index(settings.edition) + 1 if settings.edition in names else 0
    return on_board(settings, editions, names[at % len(names)])


def _length(seconds: int) -> str:
    return time_left_line(seconds, False, left=False) or ""


def with_key(settings: GameSettings, key: Key) -> GameSettings | None:
    """The settings after a toggle key (``6``, or ``4``/``5`` turning a mode off); None: the key asks for more."""
    if key == Key.D6:
        return replace(settings, sums=SUMS_CYCLE[settings.sums])
    if key == Key.D4 and settings.jackpot is not None:
        return replace(settings, jackpot=None)
    if key == Key.D5 and settings.time_limit is not None:
        return replace(settings, time_limit=None)
    return None


@dataclass(frozen=True)
class PotSeed(AmountFlow):
    """The Free Parking pot's seed for the new game ``back`` (a mode given its settings): amount, then M/K."""

    back: object = None
    entry: AmountEntry = AmountEntry()
    hint = _('Seed, then M or K')
    allow_zero = True

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(_('Free Parking pot'), _('Seed {typed}', typed=self.entry.shown()), _('then M or K'),
                            _('0 M: starts empty'))

    def priced(self, cleared, ctx: Ctx, amount: int) -> Reply:
        return ctx.enter(self.back.with_settings(replace(self.back.settings, jackpot=amount)))

    def cancel(self, ctx: Ctx) -> Reply:
        return ctx.enter(self.back)


@dataclass(frozen=True)
class GameLength(Flow):
    """The time limit for the new game ``back``: minutes then ``M``, or the hour it ends then ``K``."""

    back: object = None
    entry: AmountEntry = AmountEntry()
    clock_known: bool = False  # the key that opened it came with the time of day (the clock is synchronised)

    def screen(self, ctx: Ctx) -> Screen:
        hour = _('or hour.min then K') if self.clock_known else _('clock unset: no hour')
        return views.screen(_('Time limit'), self.entry.shown(), _('minutes then M'), hour)

    def press(self, ctx: Ctx, key: Key) -> Reply:
        try:
            if key in AMOUNT_KEYS:
                return ctx.enter(replace(self, entry=self.entry.type(key)))
            if key == Key.M:
                seconds = _minutes(self.entry.typed)
            elif key == Key.K:
                seconds = _until(self.entry.typed, ctx)
            else:
                raise AmountError(_('Minutes M, or hour K'))
        except AmountError as exc:
            return ctx.refuse(views.refused(str(exc)), then=replace(self, entry=AmountEntry()))
        return ctx.enter(self.back.with_settings(replace(self.back.settings, time_limit=seconds)))

    def cancel(self, ctx: Ctx) -> Reply:
        return ctx.enter(self.back)


def _minutes(typed: str) -> int:
    if not typed.isdigit() or not 0 < int(typed) * 60 <= LONGEST:
        raise AmountError(_('Minutes: 1 to 1440'))
    return int(typed) * 60


def _until(typed: str, ctx: Ctx) -> int:
    """The seconds from the key's time of day to the hour ``typed`` (``21.30``), today or tomorrow."""
    if ctx.day is None:
        raise AmountError(_('Clock unset: minutes'))
    hour, _point, minute = typed.partition(".")
    if not hour.isdigit() or not (minute.isdigit() or not minute) or int(hour) > 23 or int(minute or 0) > 59 \
            or len(minute) not in (0, 2):
        raise AmountError(_('Hour as 21.30, then K'))
    return seconds_until(int(hour), int(minute or 0), ctx.day)


def take_pot(ctx: Ctx, card: Card) -> Reply:
    """``FN GO 6`` with the card on ``+``: the player landed on Free Parking and takes the pot."""
    return act(ctx, take_pot_rule, one_player_result(card), actor=card, player=card.id)


@dataclass(frozen=True)
class PayPot(AmountFlow):
    """``FN GO 6`` with the card on ``-``: the player pays an amount into the Free Parking pot."""

    payer: Card | None = None
    entry: AmountEntry = AmountEntry()

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(_('{name} pays', name=self.payer.name), _('into Free Parking'), self.entry.shown(), _('then M or K'), big=2)

    def cards_changed(self, ctx: Ctx) -> Reply:
        return card_moved(ctx)

    def priced(self, cleared, ctx: Ctx, amount: int) -> Reply:
        return act(ctx, pay_pot, one_player_result(self.payer), actor=self.payer, back=STAY, player=self.payer.id,
                   amount=amount)
