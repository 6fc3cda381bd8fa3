"""A whole deal between two players (``FN GO 7``): deeds, cash and jail cards either way, agreed by both, one record.

The deal is built up on the keypad while both players watch; every part is
checked as it comes (the deed is one of theirs, its group has no buildings,
the cash and jail cards are there), so nothing refused waits for the end:

    a deed's tag tapped, or FN + its square   the deed's owner gives it (again: it leaves the deal)
    amount, then M/K                          cash, from the player whose side the screen shows (0 M: none)
    FN 4                                      a Get Out of Jail Free card from that player (again: one
                                              more, then none)
    GO                                        the other player's side
    K                                         the next page of the deal
    M                                         done: each mortgaged deed's choice (M 10% now, . lift it now),
                                              then both players agree by lifting their card and laying it again
    C                                         clears what is typed, steps back; on the deal: cancels it

When the second player agrees, :func:`banker.rules.trades.trade` makes one
transaction of it all, committed through :meth:`Ctx.commit`: everything
moves, or nothing (a refusal goes back to the deal, unchanged). Cards may
come and go while the deal is built (a deed's tag is tapped where a card
lay); the players are those whose cards lay on the readers at ``FN GO 7``.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.unit import views
from banker.text.i18n import _, _n, spread
from banker.unit.entry import AmountEntry
from banker.errors import AmountError, InsufficientFunds, Refused
from banker.unit.events import AMOUNT_KEYS, SUFFIXES, Key
from banker.fold.game import Game, apply
from banker.unit.modes.base import STAY, Ctx, Reply
from banker.money import format_amount
from banker.journal.records import Card
from banker.rules import Deal, Offer, interest, trade
from banker.rules.holdings import group_is_built
from banker.text.i18n import LINE_WIDTH
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow, price_of, square_typed

BUILD, MORTGAGES, AGREE = "build", "mortgages", "agree"
#: Parts of the deal on one page (the screen's two middle lines).
PER_PAGE = 2
#: ``FN`` and this key, in a deal: a Get Out of Jail Free card (as ``4`` is in the player menu).
JAIL_KEY = Key.D4


def start_deal(ctx: Ctx, first: Card, second: Card) -> Reply:
    """``FN GO 7`` with a card on each reader: a deal between the ``+`` card (first) and the ``-`` card (second)."""
    if first.id == second.id:
        return ctx.refuse(views.same_card(), then=STAY)
    for card in (first, second):
        if card.id in ctx.game.estate.retired:
            return ctx.refuse(views.refused(_('{name} is bankrupt', name=card.name), _('Out of the game:'), _('no deals')), then=STAY)
    return ctx.enter(DealMode(first, second))


@dataclass(frozen=True)
class DealMode(Flow):
    """The deal being built (``stage`` BUILD), its mortgaged deeds' choices (MORTGAGES), the players' agreement
    (AGREE). ``gives``: what the first and the second player give; ``page``: the page shown, whose side is the
    giver of the cash and jail cards typed; ``square``: digits typed after ``FN``; ``lift``: the mortgaged deeds
    their new owner lifts at once; ``asking``: the mortgaged deed whose choice is asked; ``agreed``: the players
    who agreed; ``seen``: the players' cards on the readers at the last change."""

    keeps_awake = True  # a table may negotiate for minutes: the unit doesn't sleep and drop the deal

    first: Card
    second: Card
    gives: tuple[Offer, Offer] = (Offer(), Offer())
    page: int = 0
    entry: AmountEntry = AmountEntry()
    square: str | None = None
    stage: str = BUILD
    lift: tuple[str, ...] = ()
    asking: int = 0
    agreed: frozenset[int] = frozenset()
    seen: frozenset[int] = frozenset()

    # -- the deal as parts and pages -----------------------------------------------------

    @property
    def players(self) -> tuple[Card, Card]:
        return self.first, self.second

    def _pages(self, ctx: Ctx) -> list[tuple[int, tuple[tuple[str, str], ...]]]:
        """Each page: the giving side (0 first, 1 second) and up to PER_PAGE parts (what, its line)."""
        pages = []
        for side, offer in enumerate(self.gives):
            parts = _parts(ctx, offer)
            chunks = [parts[i:i + PER_PAGE] for i in range(0, len(parts), PER_PAGE)] or [()]
            pages += [(side, tuple(chunk)) for chunk in chunks]
        return pages

    def _page(self, ctx: Ctx) -> tuple[int, int, tuple[int, tuple[tuple[str, str], ...]]]:
        pages = self._pages(ctx)
        index = self.page % len(pages)
        return index, len(pages), pages[index]

    def giver(self, ctx: Ctx) -> int:
        """The side shown: the player who gives the cash or jail card typed next."""
        return self._page(ctx)[2][0]

    def _showing(self, ctx: Ctx, side: int, what: str) -> int:
        """The page that shows ``what`` on ``side`` (its first page if it isn't there)."""
        pages = self._pages(ctx)
        found = [i for i, (s, parts) in enumerate(pages) if s == side and any(w == what for w, _ in parts)]
        return found[0] if found else next(i for i, (s, _) in enumerate(pages) if s == side)

    def mortgaged(self, ctx: Ctx) -> tuple[tuple[str, int], ...]:
        """The mortgaged deeds in the deal, each with the side that receives it."""
        estate = ctx.game.estate
        return tuple((slug, 1 - side) for side, offer in enumerate(self.gives) for slug in offer.deeds
                     if estate.is_mortgaged(slug))

    # -- the screens ---------------------------------------------------------------------

    def screen(self, ctx: Ctx) -> Screen:
        if self.stage == MORTGAGES:
            return self._mortgage_screen(ctx)
        index, count, (side, parts) = self._page(ctx)
        head = _('{name} gives', name=self.players[side].name)
        counter = f"{index + 1}/{count}"
        head = spread(head, counter, LINE_WIDTH)
        lines = [line for _, line in parts] or [_('nothing')]
        lines += [""] * (PER_PAGE - len(lines))
        return views.screen(head, *lines, self._last_line(ctx))

    def _last_line(self, ctx: Ctx) -> str:
        if self.stage == AGREE:
            waiting = [card.name for card in self.players if card.id not in self.agreed]
            return _('Both: tap to agree') if len(waiting) == 2 else _('{name}: tap to agree', name=waiting[0])
        if self.square is not None:
            return _('FN {square}_ square 01-39', square=self.square) if self.square else _('FN: 01-39 deed 4 jail')
        if not self.entry.empty:
            return _('Cash {typed} M/K', typed=self.entry.shown())
        return _('GO side K page M done')

    def _mortgage_screen(self, ctx: Ctx) -> Screen:
        slug, side = self.mortgaged(ctx)[self.asking]
        edition = ctx.game.edition
        deed = edition.deed(slug)
        fee = interest(edition, deed)
        return views.screen(_('Mortgaged {deed}', deed=deed.short), _('{name} takes it:', name=self.players[side].name),
                            _('M: pays 10% {amount}', amount=format_amount(fee)), _('.: lifts it {amount}', amount=format_amount(fee + deed.mortgage)))

    def live(self, ctx: Ctx) -> dict:
        """The deal as the table page shows it: who gives what, the mortgages lifted, who agreed."""
        edition = ctx.game.edition

        def gives(offer: Offer) -> dict:
            return {"deeds": list(offer.deeds), "deed_names": [edition.deed(slug).name for slug in offer.deeds],
                    "jail_cards": offer.jail_cards, "cash": offer.cash,
                    "cash_text": format_amount(offer.cash) if offer.cash else None}

        return {"kind": "deal", "first": self.first.name, "second": self.second.name,
                "first_gives": gives(self.gives[0]), "second_gives": gives(self.gives[1]),
                "lift_now": list(self.lift), "stage": self.stage,
                "confirmed": [card.name for card in self.players if card.id in self.agreed]}

    # -- keys ----------------------------------------------------------------------------

    def fn(self, ctx: Ctx) -> Reply:
        """``FN`` starts a board square (or ``FN 4``, a jail card); never the FN menu: the deal stays."""
        if self.stage != BUILD:
            return self._not_now(ctx)
        return ctx.enter(replace(self, square=None if self.square is not None else "", entry=AmountEntry()))

    def press(self, ctx: Ctx, key: Key) -> Reply:
        if self.stage == MORTGAGES:
            return self._mortgage_key(ctx, key)
        if key == Key.K and (self.stage == AGREE or (self.entry.empty and self.square is None)):
            return ctx.enter(replace(self, page=(self._page(ctx)[0] + 1) % self._page(ctx)[1], square=None))
        if self.stage == AGREE:
            return self._not_now(ctx)
        if self.square is not None:
            return self._square_key(ctx, key)
        return self._build_key(ctx, key)

    def _build_key(self, ctx: Ctx, key: Key) -> Reply:
        """A key while the deal is built: GO turns to the other side, an amount and M/K its cash, M done."""
        if key == Key.GO:
            other = 1 - self.giver(ctx)
            return ctx.enter(replace(self, page=self._showing(ctx, other, ""), entry=self.entry))
        if key in AMOUNT_KEYS:
            try:
                return ctx.enter(replace(self, entry=self.entry.type(key)))
            except AmountError as exc:
                return ctx.refuse(views.refused(str(exc)), then=STAY)
        if key in SUFFIXES and not self.entry.empty:
            return self._cash(ctx, key)
        if key == Key.M:
            return self._done(ctx)
        return ctx.refuse(views.refused(_('Deed: tag or FN 01-39'), _('Cash: amount, M/K'), _('FN 4: jail card')), then=STAY)

    def _not_now(self, ctx: Ctx) -> Reply:
        """A key or a tag that would change the deal while a choice or the agreement waits."""
        if self.stage == MORTGAGES:
            return ctx.refuse(views.refused(_('M: pays the 10% now'), _('.: lifts it now'), _('C: back to the deal')),
                              then=STAY)
        return ctx.refuse(views.refused(_('To agree: lift your'), _('card, lay it again'), _('C: change the deal')),
                          then=STAY)

    def _square_key(self, ctx: Ctx, key: Key) -> Reply:
        if key == JAIL_KEY and not self.square:
            return self._jail_card(ctx, replace(self, square=None))
        typed = square_typed(ctx, self, key, _('or 4: a jail card'))
        return typed if isinstance(typed, Reply) else self.deed_tapped(ctx, typed, replace(self, square=None))

    def cancel(self, ctx: Ctx) -> Reply:
        """``C``: clears what is typed; steps back from the mortgages or the agreement; else cancels the deal."""
        if self.square is not None or not self.entry.empty:
            return ctx.enter(replace(self, square=None, entry=AmountEntry()))
        if self.stage != BUILD:
            return ctx.enter(self._building())
        return ctx.show(views.message(_('Deal cancelled'), _('Nothing changed')))

    def cards_changed(self, ctx: Ctx) -> Reply:
        """Cards may come and go while the deal is built; while it is agreed, a player's card laid down agrees."""
        on = frozenset(card.id for card in ctx.cards_on_readers() if card is not None)
        if self.stage != AGREE:
            return replace(ctx.keep(tone=None), mode=replace(self, seen=on))
        agreed = self.agreed | ((on - self.seen) & {self.first.id, self.second.id})
        agreeing = replace(self, seen=on, agreed=agreed)
        if agreed == {self.first.id, self.second.id}:
            return agreeing._commit(ctx)
        return replace(ctx.keep(tone="key" if agreed != self.agreed else None), mode=agreeing)

    # -- adding parts --------------------------------------------------------------------

    def deed_tapped(self, ctx: Ctx, slug: str, mode: DealMode | None = None) -> Reply:
        """A deed's tag (or ``FN`` and its square): its owner gives it; a deed already in the deal leaves it."""
        mode = mode or self
        if mode.stage != BUILD:
            return mode._not_now(ctx)
        game = ctx.game
        deed, owner = game.edition.deed(slug), game.estate.owner(slug)
        sides = [side for side, card in enumerate(self.players) if card.id == owner]
        if not sides:
            return ctx.refuse(_not_in_deal(game, deed.short, owner), then=mode)
        side = sides[0]
        offer = mode.gives[side]
        if slug in offer.deeds:
            return mode._taken_back(ctx, side, slug)
        if group_is_built(game.edition, game.estate, deed.group):
            return ctx.refuse(views.refused(deed.short, _('Sell buildings first')), then=mode)
        return mode._added(ctx, side, replace(offer, deeds=offer.deeds + (slug,)), f"deed:{slug}")

    def _taken_back(self, ctx: Ctx, side: int, slug: str) -> Reply:
        """A deed tapped again leaves the deal (and the mortgages to lift now)."""
        offer = self.gives[side]
        deeds = tuple(s for s in offer.deeds if s != slug)
        lift = tuple(s for s in self.lift if s != slug)
        fewer = replace(self._with(side, replace(offer, deeds=deeds)), lift=lift)
        return ctx.enter(replace(fewer, page=fewer._showing(ctx, side, "")))

    def _cash(self, ctx: Ctx, key: Key) -> Reply:
        try:
            amount = price_of(self.entry, key, allow_zero=True)
        except AmountError as exc:
            return ctx.refuse(views.refused(str(exc)), then=STAY)
        side = self.giver(ctx)
        cleared = replace(self, entry=AmountEntry())
        return cleared._added(ctx, side, replace(self.gives[side], cash=amount), "cash")

    def _jail_card(self, ctx: Ctx, mode: DealMode) -> Reply:
        side = mode.giver(ctx)
        card, offer = self.players[side], mode.gives[side]
        held = ctx.game.estate.jail_cards_of(card.id)
        if held == 0:
            return ctx.refuse(views.refused(_('{name} has no', name=card.name), _('jail card')), then=mode)
        count = offer.jail_cards + 1 if offer.jail_cards < held else 0
        return mode._added(ctx, side, replace(offer, jail_cards=count), "jail")

    def _with(self, side: int, offer: Offer) -> DealMode:
        gives = (offer, self.gives[1]) if side == 0 else (self.gives[0], offer)
        return replace(self, gives=gives)

    def _added(self, ctx: Ctx, side: int, offer: Offer, what: str) -> Reply:
        """The deal with ``side`` giving ``offer`` instead, if the rules and the funds allow it so far."""
        grown = self._with(side, offer)
        refusal = grown.check(ctx.game, partial=True)
        if refusal is not None:
            return ctx.refuse(refusal, then=self)
        return ctx.enter(replace(grown, page=grown._showing(ctx, side, what)))

    def check(self, game: Game, *, partial: bool = False) -> Screen | None:
        """The refusal of the deal as it stands (None: it would go through); ``partial``: cash alone is fine."""
        first, second = self.gives
        if partial and not (first.deeds or first.jail_cards or second.deeds or second.jail_cards):
            net = {self.first.id: second.cash - first.cash, self.second.id: first.cash - second.cash}
            return _funds(game, self.players, net)
        try:
            deal = self.deal(game)
        except (Refused, AmountError) as exc:
            return views.refused(str(exc))
        return self._folded(game, deal)

    def _folded(self, game: Game, deal: Deal) -> Screen | None:
        """The fold's refusal of the deal's transaction (a shortfall names who is short), or None."""
        try:
            apply(game, game.numbered(deal.to_transaction()))
        except InsufficientFunds as exc:
            return _funds(game, self.players, {c.id: deal.net(c.id) for c in self.players}) or views.refused(str(exc))
        except (Refused, AmountError) as exc:
            return views.refused(str(exc))
        return None

    def deal(self, game: Game) -> Deal:
        """The trade rule's deal for this deal (raises its refusal)."""
        return trade(game, first=self.first.id, second=self.second.id, first_gives=self.gives[0],
                     second_gives=self.gives[1], lift_now=self.lift)

    # -- done: the mortgages, the agreement, the record ----------------------------------

    def _building(self) -> DealMode:
        return replace(self, stage=BUILD, lift=(), asking=0, agreed=frozenset(), entry=AmountEntry(), square=None)

    def _done(self, ctx: Ctx) -> Reply:
        refusal = self._building().check(ctx.game)
        if refusal is not None:
            return ctx.refuse(refusal, then=STAY)
        if self.mortgaged(ctx):
            return ctx.enter(replace(self, stage=MORTGAGES, asking=0, lift=()))
        return ctx.enter(self._agreeing(ctx))

    def _agreeing(self, ctx: Ctx) -> DealMode:
        on = frozenset(card.id for card in ctx.cards_on_readers() if card is not None)
        return replace(self, stage=AGREE, agreed=frozenset(), seen=on, page=0)

    def _mortgage_key(self, ctx: Ctx, key: Key) -> Reply:
        if key not in (Key.M, Key.POINT):
            return self._not_now(ctx)
        slug, _fee = self.mortgaged(ctx)[self.asking]
        chosen = replace(self, lift=self.lift + ((slug,) if key == Key.POINT else ()))
        refusal = chosen.check(ctx.game)
        if refusal is not None:
            return ctx.refuse(refusal, then=STAY)
        if self.asking + 1 < len(self.mortgaged(ctx)):
            return ctx.enter(replace(chosen, asking=self.asking + 1))
        return ctx.enter(chosen._agreeing(ctx))

    def _commit(self, ctx: Ctx) -> Reply:
        """Both agreed: one transaction moves everything, or a refusal goes back to the deal with nothing moved."""
        game = ctx.game
        back = self._building()
        try:
            deal = self.deal(game)
        except (Refused, AmountError) as exc:
            return ctx.refuse(views.refused(str(exc)), then=back)
        losers = [card for card in self.players if deal.net(card.id) < 0]

        def shown(after: Game) -> Screen:
            return views.screen(deal.summary,
                                *(f"{card.name} {format_amount(after.balance(card.id))}" for card in self.players),
                                _('Undo: FN C M'))

        return ctx.commit(game.numbered(deal.to_transaction()), shown, on_refusal=back,
                          actor=losers[0] if losers else None)


def _parts(ctx: Ctx, offer: Offer) -> list[tuple[str, str]]:
    """One side's parts: each deed (marked if mortgaged), the jail cards, the cash."""
    game = ctx.game
    parts = []
    for slug in offer.deeds:
        short = game.edition.deed(slug).short
        parts.append((f"deed:{slug}", _('{deed} mortgaged', deed=short) if game.estate.is_mortgaged(slug) else short))
    if offer.jail_cards:
        parts.append(("jail", _n('{n} jail card', '{n} jail cards', offer.jail_cards)))
    if offer.cash:
        parts.append(("cash", _('Cash {amount}', amount=format_amount(offer.cash))))
    return parts


def _not_in_deal(game: Game, deed_name: str, owner: int | None) -> Screen:
    """The refusal of a deed neither side of the deal owns: whose it is."""
    whose = _('the bank') if owner is None else game.name_of(owner)
    return views.refused(deed_name, _('belongs to {name}', name=whose), _('Not in this deal'))


def _funds(game: Game, players: tuple[Card, Card], net: dict[int, int]) -> Screen | None:
    """``Bob short 890K`` for the first player whose net over the deal leaves them below zero, if any."""
    if game.settings.allow_negative:
        return None
    for card in players:
        balance = game.balance(card.id)
        if net[card.id] < 0 and balance + net[card.id] < 0:
            return views.short_of_funds(card, -(balance + net[card.id]), balance)
    return None
