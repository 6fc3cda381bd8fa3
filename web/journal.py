"""Each journal row of the table page as a sentence naming who paid whom: "Dan paid Alice rent 2M (Boardwalk)".

:func:`says` writes one transaction as *segments*, text and names taking
turns (even indexes text, odd ones a player's name):
``["", "Dan", " paid ", "Alice", " rent 2M (Boardwalk)"]``. The page sets
each name apart (a ``<bdi>`` in the player's colour) and writes every segment
as text, never as HTML. It is read from the transaction's postings and
estate changes (who gave what to whom), so it holds for every record the
unit writes, old ledgers' too; a kind it doesn't know is written from its
postings. Stored text (names, memos) is hostile when it leaves the unit
(docs/security.md): it passes :func:`banker.text.visible.shown`, so a bidi
override or a control character shows as ``\\u202e``, never acts.
Each sentence is a ``page`` text of the catalogs (:mod:`web.texts`), in the
game's language: its ``{fields}`` are names, amounts and deeds.
"""

from __future__ import annotations

from collections.abc import Callable
from string import Formatter

from banker.fold.game import Game
from banker.text.i18n import ENGLISH, Tr
from banker.money import format_amount
from banker.journal.records import BANK, POT, HousesChange, JailCardChange, OwnerChange, Posting, Transaction
from banker.rules.estate import HOTEL
from banker.text.visible import shown

from .texts import pgettext, say

_Kind = Callable[[Game, Transaction, Tr], "list | None"]


class _Who(int):
    """A card id, marked as a name to set apart (the bank and the Free Parking pot are written as text)."""


def _t(tr: Tr, message: str, **fields: object) -> list:
    """``message`` (a ``page`` text) in the language of ``tr``, as parts: its text, and its fields where they go."""
    parts: list = []
    for literal, name, _spec, _conv in Formatter().parse(say(tr, message)):
        parts.append(literal)
        if name is not None:
            value = fields[name]
            parts.append(value if isinstance(value, _Who) else str(value))
    return parts


def _party(tr: Tr, card_id: int | None) -> _Who | str:
    if card_id is BANK or card_id == POT:
        return say(tr, pgettext("page", "the bank")) if card_id is BANK else say(tr, pgettext("page", "Free Parking"))
    return _Who(card_id)


def _segments(game: Game, parts: list) -> list[str]:
    """``parts`` (text, :class:`_Who`, None to skip) as alternating text and names, the first letter capital."""
    out = [""]
    for part in parts:
        if part is None:
            continue
        if isinstance(part, _Who):
            out += [shown(game.name_of(int(part))), ""]
        else:
            out[-1] += part
    if out[0]:
        out[0] = out[0][0].upper() + out[0][1:]
    while len(out) > 1 and out[-1] == "":  # no empty text after the last name
        out.pop()
    return out


def _money(amount: int) -> str:
    return format_amount(amount)


def _deed(game: Game, slug: str) -> str:
    try:
        return shown(game.edition.deed(slug).name)
    except (KeyError, ValueError, LookupError):
        return shown(slug)


def _deed_by_short(game: Game, short: str) -> str:
    found = next((d.name for d in game.edition.deeds if d.short == short), None)
    return shown(found if found is not None else short)


def _and(tr: Tr, items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return "".join(_t(tr, pgettext("page", "{items} and {last}"), items=", ".join(items[:-1]), last=items[-1]))


def _paid(tr: Tr, p: Posting) -> list:
    return _t(tr, pgettext("page", "{payer} paid {payee} {amount}"), payer=_party(tr, p.payer),
              payee=_party(tr, p.payee), amount=_money(p.amount))


def _postings(tr: Tr, tx: Transaction) -> list:
    """Each posting as "A paid B 1M", joined by "; " (the fallback for any kind)."""
    parts: list = []
    for i, p in enumerate(tx.postings):
        parts += (["; "] if i else []) + _paid(tr, p)
    return parts


def _single(tx: Transaction) -> Posting | None:
    return tx.postings[0] if len(tx.postings) == 1 else None


def _total(tx: Transaction) -> str:
    return _money(sum(p.amount for p in tx.postings))


# -- the kinds ---------------------------------------------------------------------------------


def _plain(message: str, twice: str | None = None) -> _Kind:
    """One posting, said by ``message`` (``twice``: when the memo says it was twice)."""
    def write(game: Game, tx: Transaction, tr: Tr) -> list | None:
        p = _single(tx)
        if p is None:
            return None
        said = twice if twice is not None and tx.memo.endswith("twice") else message
        return _t(tr, said, payer=_party(tr, p.payer), payee=_party(tr, p.payee), amount=_money(p.amount))
    return write


def _tax(what: str) -> _Kind:
    """A tax or the jail fine: to the bank, or into the Free Parking pot (the jackpot house rule)."""
    def write(game: Game, tx: Transaction, tr: Tr) -> list | None:
        p = _single(tx)
        if p is None:
            return None
        tax, amount = say(tr, what), _money(p.amount)
        if p.payee == POT:
            return _t(tr, pgettext("page", "{payer} paid {tax} {amount} into Free Parking"),
                      payer=_party(tr, p.payer), tax=tax, amount=amount)
        return _t(tr, pgettext("page", "{payer} paid {payee} {tax} {amount}"), payer=_party(tr, p.payer),
                  payee=_party(tr, p.payee), tax=tax, amount=amount)
    return write


# -- the house rules: the Free Parking pot, the short game's deal ------------------------------


def _pot_taken(game: Game, tx: Transaction, tr: Tr) -> list | None:
    """The pot paid to who landed on Free Parking, and the bank's seed put back in."""
    taken = [p for p in tx.postings if p.payer == POT]
    seeds = [p for p in tx.postings if p.payer is BANK and p.payee == POT]
    if (len(taken) != 1 or len(taken) + len(seeds) != len(tx.postings)
            or not isinstance(_party(tr, taken[0].payee), _Who)):
        return None
    parts = _t(tr, pgettext("page", "{name} took the Free Parking pot ({amount})"), name=_party(tr, taken[0].payee),
               amount=_money(taken[0].amount))
    if seeds:
        parts += ["; ", *_t(tr, pgettext("page", "the bank put {amount} back in"), amount=_money(seeds[0].amount))]
    return parts


def _into_pot(game: Game, tx: Transaction, tr: Tr) -> list | None:
    """A player (or the bank, seeding a new game's pot) pays into Free Parking."""
    p = _single(tx)
    if p is None or p.payee != POT:
        return None
    start = tx.kind == "pot-seed"
    if p.payer is BANK:
        message = (pgettext("page", "{payer} put {amount} into Free Parking to start") if start
                   else pgettext("page", "{payer} put {amount} into Free Parking"))
    else:
        message = (pgettext("page", "{payer} paid {amount} into Free Parking to start") if start
                   else pgettext("page", "{payer} paid {amount} into Free Parking"))
    return _t(tr, message, payer=_party(tr, p.payer), amount=_money(p.amount))


def _deal(game: Game, tx: Transaction, tr: Tr) -> list | None:
    """A short or time-limit game's deal: two deeds to each player at their printed prices, player by player."""
    got = _dealt(game, tx)
    paid = _paid_for(tx, got) if got is not None else None
    if not got or paid is None:
        return None
    heading = (pgettext("page", "the short game's deal:") if game.settings.is_short_game
               else pgettext("page", "the time-limit deal:"))
    parts: list = [say(tr, heading), " "]
    for i, (player, deeds) in enumerate(got.items()):
        if player in paid:
            said = _t(tr, pgettext("page", "{name} got {deeds} for {amount}"), name=_Who(player),
                      deeds=_and(tr, deeds), amount=_money(paid[player]))
        else:
            said = _t(tr, pgettext("page", "{name} got {deeds}"), name=_Who(player), deeds=_and(tr, deeds))
        parts += (["; "] if i else []) + said
    return parts


def _dealt(game: Game, tx: Transaction) -> dict[int, list[str]] | None:
    """Each player's deeds from the bank, in order (None when anything else changed hands: no deal)."""
    got: dict[int, list[str]] = {}
    for c in tx.changes:
        if not isinstance(c, OwnerChange) or c.before is not BANK or c.after in (BANK, POT):
            return None
        got.setdefault(c.after, []).append(_deed(game, c.slug))
    return got


def _paid_for(tx: Transaction, got: dict) -> dict[int, int] | None:
    """What each player dealt deeds paid the bank for them (None when other money moved: no deal)."""
    paid: dict[int, int] = {}
    for p in tx.postings:
        if p.payee is not BANK or p.payer not in got:
            return None
        paid[p.payer] = paid.get(p.payer, 0) + p.amount
    return paid


def _rent(game: Game, tx: Transaction, tr: Tr) -> list | None:
    p = _single(tx)
    if p is None:
        return None
    short = tx.memo[5:] if tx.memo.startswith("Rent ") else ""
    fields = {"payer": _party(tr, p.payer), "payee": _party(tr, p.payee), "amount": _money(p.amount)}
    if short:
        return _t(tr, pgettext("page", "{payer} paid {payee} rent {amount} ({deed})"),
                  deed=_deed_by_short(game, short), **fields)
    return _t(tr, pgettext("page", "{payer} paid {payee} rent {amount}"), **fields)


def _bought(game: Game, tx: Transaction, tr: Tr) -> list | None:
    owners = [c for c in tx.changes if isinstance(c, OwnerChange)]
    p = _single(tx)
    if p is None or len(owners) != 1:
        return None
    message = (pgettext("page", "{payer} bought {deed} at auction for {amount}") if tx.kind == "auction"
               else pgettext("page", "{payer} bought {deed} from the bank for {amount}"))
    return _t(tr, message, payer=_party(tr, p.payer), deed=_deed(game, owners[0].slug), amount=_money(p.amount))


def _buildings(game: Game, tx: Transaction, tr: Tr) -> list | None:
    changes = [c for c in tx.changes if isinstance(c, HousesChange)]
    p = _single(tx)
    if p is None or not changes:
        return None
    if tx.kind == "build":
        message = (pgettext("page", "{name} built a hotel on {deed} for {amount}") if changes[0].after == HOTEL
                   else pgettext("page", "{name} built a house on {deed} for {amount}"))
        return _t(tr, message, name=_party(tr, p.payer), deed=_deed(game, changes[0].slug), amount=_money(p.amount))
    if len(changes) == 1:
        message = (pgettext("page", "{name} sold the hotel on {deed} to the bank for {amount}")
                   if changes[0].before == HOTEL
                   else pgettext("page", "{name} sold a house on {deed} to the bank for {amount}"))
        where = _deed(game, changes[0].slug)
    else:
        message = pgettext("page", "{name} sold the buildings on {deed} to the bank for {amount}")
        where = _and(tr, [_deed(game, c.slug) for c in changes])
    return _t(tr, message, name=_party(tr, p.payee), deed=where, amount=_money(p.amount))


def _mortgage(game: Game, tx: Transaction, tr: Tr) -> list | None:
    slugs = [c.slug for c in tx.changes if hasattr(c, "slug")]
    if not tx.postings or len(slugs) != 1:
        return None
    if tx.kind == "mortgage":
        p = tx.postings[0]
        return _t(tr, pgettext("page", "the bank paid {name} {amount} for mortgaging {deed}"),
                  name=_party(tr, p.payee), amount=_money(p.amount), deed=_deed(game, slugs[0]))
    return _t(tr, pgettext("page", "{name} paid the bank {amount} to lift the mortgage on {deed}"),
              name=_party(tr, tx.postings[0].payer), amount=_total(tx), deed=_deed(game, slugs[0]))


def _jail_card(game: Game, tx: Transaction, tr: Tr) -> list | None:
    cards = [c for c in tx.changes if isinstance(c, JailCardChange)]
    if len(cards) != 1 or tx.postings:
        return None
    card = cards[0]
    if card.before is None and card.after is not None:
        return _t(tr, pgettext("page", "{name} got a jail card"), name=_party(tr, card.after))
    if card.after is None and card.before is not None:
        return _t(tr, pgettext("page", "{name} used a jail card"), name=_party(tr, card.before))
    return None


def _gave(game: Game, tx: Transaction, tr: Tr, giver: int) -> list[str]:
    goods = [_deed(game, c.slug) for c in tx.changes if isinstance(c, OwnerChange) and c.before == giver]
    cards = sum(1 for c in tx.changes if isinstance(c, JailCardChange) and c.before == giver)
    if cards:
        goods.append(say(tr, pgettext("page", "a jail card")) if cards == 1
                     else say(tr, pgettext("page", "{n} jail cards")).format(n=cards))
    cash = sum(p.amount for p in tx.postings if p.kind == "trade" and p.payer == giver)
    if cash:
        goods.append(_money(cash))
    return goods


def _ends(tx: Transaction, kind: str, changes: tuple, *, giving: bool) -> list:
    """The parties at one end of a deal, each once in the order they appear: who gave (``giving``) or who got,
    through the changes of the ``changes`` types and the postings of ``kind``."""
    return list(dict.fromkeys(
        [c.before if giving else c.after for c in tx.changes if isinstance(c, changes)]
        + [p.payer if giving else p.payee for p in tx.postings if p.kind == kind]))


def _trade(game: Game, tx: Transaction, tr: Tr) -> list | None:
    goods_of = (OwnerChange, JailCardChange)
    sides = [s for s in _ends(tx, "trade", goods_of, giving=True) if s is not BANK]
    others = _ends(tx, "trade", goods_of, giving=False)
    parties = list(dict.fromkeys(sides + [o for o in others if o is not BANK]))
    if len(parties) != 2:
        return None
    parts: list = []
    for giver, taker in (parties, parties[::-1]):
        goods = _gave(game, tx, tr, giver)
        if goods:
            parts += (["; "] if parts else []) + _t(tr, pgettext("page", "{giver} gave {taker} {goods}"),
                                                     giver=_Who(giver), taker=_Who(taker), goods=_and(tr, goods))
    return _mortgage_fees(tx, tr, parties, parts) or None


def _mortgage_fees(tx: Transaction, tr: Tr, parties: list, parts: list) -> list:
    """A trade's ``parts`` and then what each of its ``parties`` paid the bank for the mortgaged deeds taken."""
    for payer in parties:
        to_bank = sum(p.amount for p in tx.postings if p.payer == payer and p.payee is BANK)
        if to_bank:
            parts = parts + ["; ", *_t(tr, pgettext("page", "{name} paid the bank {amount} for the mortgages"),
                                       name=_Who(payer), amount=_money(to_bank))]
    return parts


def _bankruptcy(game: Game, tx: Transaction, tr: Tr) -> list | None:
    debtors = _ends(tx, "bankruptcy", OwnerChange, giving=True)
    if len(debtors) != 1 or debtors[0] is BANK:
        return None
    debtor = debtors[0]
    creditors = _ends(tx, "bankruptcy", OwnerChange, giving=False)
    creditor = creditors[0] if len(creditors) == 1 else BANK
    got = _left_by_bankrupt(tx, tr)
    if creditor is BANK:
        if got:
            return _t(tr, pgettext("page", "{name} went bankrupt to the bank: the bank got {goods}"),
                      name=_Who(debtor), goods=_and(tr, got))
        return _t(tr, pgettext("page", "{name} went bankrupt to the bank"), name=_Who(debtor))
    if got:
        return _t(tr, pgettext("page", "{name} went bankrupt to {creditor}, who got {goods}"), name=_Who(debtor),
                  creditor=_Who(creditor), goods=_and(tr, got))
    return _t(tr, pgettext("page", "{name} went bankrupt to {creditor}"), name=_Who(debtor), creditor=_Who(creditor))


def _left_by_bankrupt(tx: Transaction, tr: Tr) -> list:
    """What a bankruptcy handed over, as the page says it: the cash, then how many deeds (either left out at 0)."""
    cash = sum(p.amount for p in tx.postings if p.kind == "bankruptcy")
    deeds = sum(1 for c in tx.changes if isinstance(c, OwnerChange))
    count = (say(tr, pgettext("page", "1 deed")) if deeds == 1
             else say(tr, pgettext("page", "{n} deeds")).format(n=deeds))
    return ([_money(cash)] if cash else []) + ([count] if deeds else [])


def _undo(game: Game, tx: Transaction, tr: Tr) -> list | None:
    prefix = f"Undo #{tx.reverses} "
    what = shown(tx.memo[len(prefix):]) if tx.memo.startswith(prefix) else ""
    head = (_t(tr, pgettext("page", "undid #{id} ({memo})"), id=tx.reverses, memo=what) if what
            else _t(tr, pgettext("page", "undid #{id}"), id=tx.reverses))
    return [*head, *([": "] + _postings(tr, tx) if tx.postings else [])]


_KINDS: dict[str, _Kind] = {
    "opening": _plain(pgettext("page", "{payer} paid {payee} {amount} to start")),
    "collect": _plain(pgettext("page", "{payer} paid {payee} {amount}")),
    "pay": _plain(pgettext("page", "{payer} paid {payee} {amount}")),
    "transfer": _plain(pgettext("page", "{payer} paid {payee} {amount}")),
    "go": _plain(pgettext("page", "{payer} paid {payee} {amount} for passing GO"),
                 pgettext("page", "{payer} paid {payee} {amount} for passing GO twice")),
    "income-tax": _tax(pgettext("page", "Income Tax")),
    "luxury-tax": _tax(pgettext("page", "Luxury Tax")),
    "jail-fine": _tax(pgettext("page", "the jail fine")),
    "rent": _rent,
    "buy": _bought,
    "auction": _bought,
    "build": _buildings,
    "sell-building": _buildings,
    "mortgage": _mortgage,
    "lift-mortgage": _mortgage,
    "jail-card": _jail_card,
    "trade": _trade,
    "bankruptcy": _bankruptcy,
    "undo": _undo,
    "pot": _pot_taken,
    "to-pot": _into_pot,
    "pot-seed": _into_pot,
    "deal": _deal,
}


def says(game: Game, tx: Transaction, tr: Tr = ENGLISH) -> list[str]:
    """``tx`` as a sentence in the language of ``tr`` (English by default): text and names taking turns (even
    indexes text, odd ones a name), names as now."""
    parts = _KINDS.get(tx.kind, lambda g, t, r: None)(game, tx, tr)
    if parts is None:  # a kind, or a shape, this module doesn't know: its postings, with its memo
        memo = shown(tx.memo or tx.kind)
        parts = [*_postings(tr, tx), f" ({memo})"] if tx.postings else [memo]
    return _segments(game, parts)
