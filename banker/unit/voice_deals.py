"""What the voice says for each kind of transaction: one sentence of the catalogs' (context ``voice``) in the game's
language, built from the postings and the estate's changes, never from the journalled memo (that is English, and
names the deeds by their short names: "House on Connect. Av"); deeds are named in full, as the board prints them
(pure; :func:`banker.unit.voice.record_said` adds the balances after it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from banker.text.i18n import Tr
from banker.journal.records import BANK, POT, HousesChange, JailCardChange, OwnerChange, Posting, RetiredChange, Transaction
from banker.rules.estate import HOTEL
from banker.unit.spoken import listed, sentences, spoken_amount

if TYPE_CHECKING:
    from banker.fold.game import Game


def what_happened(tx: Transaction, game: Game, tr: Tr, parties: list[int]) -> str:
    """The kind's sentence (:data:`SAID`), or who received and paid how much (a kind with no sentence of its own:
    an opening, a short game's deal)."""
    said = SAID.get(tx.kind)
    text = said(tx, game, tr) if said is not None else None
    return text if text is not None else sentences(*_nets(tx, parties, game.name_of, tr))


_ANY = object()


def _total(tx: Transaction, *, payer: object = _ANY, payee: object = _ANY) -> int:
    """What ``tx`` moves (from ``payer``, to ``payee``: a card's id, ``BANK`` or ``POT``; by default any)."""
    return sum(p.amount for p in tx.postings if payer in (_ANY, p.payer) and payee in (_ANY, p.payee))


def _deeds(tx: Transaction, game: Game) -> list[str]:
    """The full names (as the board prints them, never the screen's short ones) of the deeds ``tx`` changes."""
    return [game.edition.deed(slug).name for slug in dict.fromkeys(c.slug for c in tx.changes if hasattr(c, "slug"))]


def _single(tx: Transaction) -> Posting | None:
    return tx.postings[0] if len(tx.postings) == 1 else None


def _undo(tx: Transaction, game: Game, tr: Tr) -> str:
    return tr.pgettext("voice", "Transaction {n} undone").format(n=tx.reverses)


def _go(tx: Transaction, game: Game, tr: Tr) -> str | None:
    one = _single(tx)
    return None if one is None else tr.pgettext("voice", "{name} passes GO and collects {amount}").format(
        name=game.name_of(one.payee), amount=spoken_amount(one.amount, tr))


def _pot(tx: Transaction, game: Game, tr: Tr) -> str | None:
    taken = tx.postings[0] if tx.postings and tx.postings[0].payer == POT else None
    return None if taken is None else tr.pgettext("voice", "{name} takes the Free Parking pot, {amount}").format(
        name=game.name_of(taken.payee), amount=spoken_amount(taken.amount, tr))


def _pot_seed(tx: Transaction, game: Game, tr: Tr) -> str:
    return tr.pgettext("voice", "The bank puts {amount} into the Free Parking pot").format(
        amount=spoken_amount(_total(tx), tr))


def _bought(tx: Transaction, game: Game, tr: Tr) -> str | None:
    one, deeds = _single(tx), _deeds(tx, game)
    if one is None or not deeds:
        return None
    name, amount = game.name_of(one.payer), spoken_amount(one.amount, tr)
    if tx.kind == "auction":
        return tr.pgettext("voice", "Sold to {name} for {amount}, {deed}").format(name=name, amount=amount, deed=deeds[0])
    return tr.pgettext("voice", "{name} buys {deed} for {amount}").format(name=name, deed=deeds[0], amount=amount)


def _payment(tx: Transaction, game: Game, tr: Tr) -> str | None:
    """A payment typed on the readers, rent, a tax, the jail fine or a payment into the pot; what the pot holds
    after one paid into it."""
    one = _single(tx)
    if one is None:
        return None
    payer, payee, amount = game.name_of(one.payer), game.name_of(one.payee), spoken_amount(one.amount, tr)
    if tx.kind == "rent" and one.payer is not BANK and one.payee is not BANK:
        text = tr.pgettext("voice", "{payer} pays {payee} {amount} rent").format(payer=payer, payee=payee, amount=amount)
    elif tx.kind == "income-tax":
        text = tr.pgettext("voice", "{payer} pays {amount} income tax").format(payer=payer, amount=amount)
    elif tx.kind == "luxury-tax":
        text = tr.pgettext("voice", "{payer} pays {amount} luxury tax").format(payer=payer, amount=amount)
    elif tx.kind == "jail-fine":
        text = tr.pgettext("voice", "{payer} pays {amount} to get out of jail").format(payer=payer, amount=amount)
    else:
        text = _paid(one.payer, one.payee, amount, game.name_of, tr)
    if one.payee == POT and tx.kind != "to-pot":
        pot = spoken_amount(game.balance(POT), tr)
        return sentences(text, tr.pgettext("voice", "The Free Parking pot has {amount}").format(amount=pot))
    return text


def _build(tx: Transaction, game: Game, tr: Tr) -> str | None:
    lot = next((c for c in tx.changes if isinstance(c, HousesChange)), None)
    if lot is None or not tx.postings:
        return None
    name, deed = game.name_of(tx.postings[0].payer), game.edition.deed(lot.slug).name
    amount = spoken_amount(_total(tx), tr)
    if lot.after == HOTEL:
        return tr.pgettext("voice", "{name} builds a hotel on {deed} for {amount}").format(name=name, deed=deed, amount=amount)
    return tr.pgettext("voice", "{name} builds a house on {deed} for {amount}").format(name=name, deed=deed, amount=amount)


def _sold_building(tx: Transaction, game: Game, tr: Tr) -> str | None:
    lots = [c for c in tx.changes if isinstance(c, HousesChange)]
    if not lots or not tx.postings:
        return None
    name, amount = game.name_of(tx.postings[0].payee), spoken_amount(_total(tx), tr)
    if len(lots) > 1:
        return tr.pgettext("voice", "{name} sells the buildings on {deeds} for {amount}").format(
            name=name, deeds=listed(_deeds(tx, game), tr), amount=amount)
    deed = game.edition.deed(lots[0].slug).name
    if lots[0].before == HOTEL:
        return tr.pgettext("voice", "{name} sells the hotel on {deed} for {amount}").format(name=name, deed=deed, amount=amount)
    return tr.pgettext("voice", "{name} sells a house on {deed} for {amount}").format(name=name, deed=deed, amount=amount)


def _mortgage(tx: Transaction, game: Game, tr: Tr) -> str | None:
    deeds = _deeds(tx, game)
    if not deeds or not tx.postings:
        return None
    amount = spoken_amount(_total(tx), tr)
    if tx.kind == "mortgage":
        return tr.pgettext("voice", "{name} mortgages {deed} and receives {amount}").format(
            name=game.name_of(tx.postings[0].payee), deed=deeds[0], amount=amount)
    return tr.pgettext("voice", "{name} pays off the mortgage on {deed}, {amount}").format(
        name=game.name_of(tx.postings[0].payer), deed=deeds[0], amount=amount)


def _jail_card(tx: Transaction, game: Game, tr: Tr) -> str | None:
    card = next((c for c in tx.changes if isinstance(c, JailCardChange)), None)
    if card is None:
        return None
    if card.before is None:
        return tr.pgettext("voice", "{name} keeps a Get Out of Jail Free card").format(name=game.name_of(card.after))
    return tr.pgettext("voice", "{name} uses a Get Out of Jail Free card").format(name=game.name_of(card.before))


def _trade(tx: Transaction, game: Game, tr: Tr) -> str | None:
    """Who trades with whom, what each gives (deeds by their full names, jail cards, cash), and what each pays the
    bank for the mortgaged deeds received."""
    sides = _sides(tx)
    if len(sides) != 2:
        return None
    first, second = (game.name_of(p) for p in sides)
    parts = [tr.pgettext("voice", "{first} and {second} trade").format(first=first, second=second)]
    for giver in sides:
        things = _given(tx, game, tr, giver, sides)
        if things:
            parts.append(tr.pgettext("voice", "{name} gives {things}").format(name=game.name_of(giver),
                                                                             things=listed(things, tr)))
    for taker in sides:
        if _total(tx, payer=taker, payee=BANK):
            parts.append(tr.pgettext("voice", "{name} pays the bank {amount} for the mortgages").format(
                name=game.name_of(taker), amount=spoken_amount(_total(tx, payer=taker, payee=BANK), tr)))
    return sentences(*parts)


def _sides(tx: Transaction) -> list[int]:
    """The players a trade's deeds and jail cards pass between, in the order they first appear."""
    return list(dict.fromkeys(p for c in tx.changes if isinstance(c, (OwnerChange, JailCardChange))
                              for p in (c.before, c.after) if p is not BANK))


def _handed(tx: Transaction, kind: type, giver: int) -> list:
    """The changes of ``kind`` (a deed's owner, a jail card's holder) by which ``giver`` hands something over."""
    return [c for c in tx.changes if isinstance(c, kind) and c.before == giver]


def _given(tx: Transaction, game: Game, tr: Tr, giver: int, sides: list[int]) -> list[str]:
    """What one side of a trade gives the other: its deeds (full names), its jail cards, its cash."""
    things = [game.edition.deed(c.slug).name for c in _handed(tx, OwnerChange, giver)]
    cards = len(_handed(tx, JailCardChange, giver))
    if cards:
        things.append(tr.npgettext("voice", "a Get Out of Jail Free card", "{n} Get Out of Jail Free cards",
                                   cards).format(n=cards))
    cash = sum(p.amount for p in tx.postings if p.payer == giver and p.payee in sides)
    if cash:
        things.append(spoken_amount(cash, tr))
    return things


def _bankruptcy(tx: Transaction, game: Game, tr: Tr) -> str | None:
    debtor = next((c.player for c in tx.changes if isinstance(c, RetiredChange) and c.after), None)
    if debtor is None:
        return None
    creditors = _creditors(tx)
    name = game.name_of(debtor)
    if not creditors:
        return tr.pgettext("voice", "{name} goes bankrupt and leaves the game").format(name=name)
    if creditors[0] is BANK:
        return tr.pgettext("voice", "{name} goes bankrupt to the bank and leaves the game").format(name=name)
    return tr.pgettext("voice", "{name} goes bankrupt to {creditor} and leaves the game").format(
        name=name, creditor=game.name_of(creditors[0]))


def _creditors(tx: Transaction) -> list[int | None]:
    """Whom a bankruptcy pays (``BANK`` for the bank): who receives its money, then who takes its deeds."""
    return [p.payee for p in tx.postings if p.kind == "bankruptcy"] + [
        c.after for c in tx.changes if isinstance(c, OwnerChange)]


#: Each kind of transaction's sentence (None: not the shape its kind says; the nets are said instead).
SAID: dict[str, Callable[[Transaction, Game, Tr], str | None]] = {
    "undo": _undo, "go": _go, "pot": _pot, "pot-seed": _pot_seed, "buy": _bought, "auction": _bought,
    "transfer": _payment, "collect": _payment, "pay": _payment, "rent": _payment, "to-pot": _payment,
    "income-tax": _payment, "luxury-tax": _payment, "jail-fine": _payment,
    "build": _build, "sell-building": _sold_building, "mortgage": _mortgage, "lift-mortgage": _mortgage,
    "jail-card": _jail_card, "trade": _trade, "bankruptcy": _bankruptcy,
}


def _paid(payer: int | None, payee: int | None, amount: str, name: Callable[[int | None], str], tr: Tr) -> str:
    if payer is BANK:
        return tr.pgettext("voice", "The bank pays {payee} {amount}").format(payee=name(payee), amount=amount)
    if payee is BANK:
        return tr.pgettext("voice", "{payer} pays the bank {amount}").format(payer=name(payer), amount=amount)
    if payee == POT:
        return tr.pgettext("voice", "{payer} pays {amount} to Free Parking").format(payer=name(payer), amount=amount)
    return tr.pgettext("voice", "{payer} pays {payee} {amount}").format(payer=name(payer), payee=name(payee), amount=amount)


def _nets(tx: Transaction, parties: list[int], name: Callable[[int | None], str], tr: Tr) -> list[str]:
    """Each player's net change in a deal of several postings (a trade, a building sold): receives / pays."""
    nets = dict.fromkeys(parties, 0)
    for posting in tx.postings:
        if posting.payer in nets:
            nets[posting.payer] -= posting.amount
        if posting.payee in nets:
            nets[posting.payee] += posting.amount
    return [(tr.pgettext("voice", "{name} receives {amount}") if net > 0 else tr.pgettext("voice", "{name} pays {amount}")).format(
        name=name(party), amount=spoken_amount(abs(net), tr)) for party, net in nets.items() if net]
