"""Each journal row of the table page as a sentence naming who paid whom: "Dan paid Alice rent 2M (Boardwalk)".

:func:`says` writes one transaction as *segments*, text and names taking
turns (even indexes text, odd ones a player's name):
``["", "Dan", " paid ", "Alice", " rent 2M (Boardwalk)"]``. The page sets
each name apart (a ``<bdi>`` in the player's colour) and writes every segment
as text, never as HTML. It is read from the transaction's postings and
estate changes (who gave what to whom), so it holds for every record the
unit writes, old ledgers' too; a kind it doesn't know is written from its
postings. Stored text (names, memos) is hostile when it leaves the unit
(docs/security.md): it passes :func:`banker.visible.shown`, so a bidi
override or a control character shows as ``\\u202e``, never acts.
"""

from __future__ import annotations

from collections.abc import Callable

from banker.game import Game
from banker.money import format_amount
from banker.records import BANK, POT, HousesChange, JailCardChange, OwnerChange, Posting, Transaction
from banker.rules.estate import HOTEL
from banker.visible import shown


class _Who(int):
    """A card id, marked as a name to set apart (the bank and the Free Parking pot are written as text)."""


def _party(card_id: int | None) -> _Who | str:
    if card_id is BANK or card_id == POT:
        return "the bank" if card_id is BANK else "Free Parking"
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


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _paid(p: Posting) -> list:
    return [_party(p.payer), " paid ", _party(p.payee), " " + _money(p.amount)]


def _postings(tx: Transaction) -> list:
    """Each posting as "A paid B 1M", joined by "; " (the fallback for any kind)."""
    parts: list = []
    for i, p in enumerate(tx.postings):
        parts += (["; "] if i else []) + _paid(p)
    return parts


def _single(tx: Transaction) -> Posting | None:
    return tx.postings[0] if len(tx.postings) == 1 else None


def _total(tx: Transaction) -> str:
    return _money(sum(p.amount for p in tx.postings))


# -- the kinds ---------------------------------------------------------------------------------


def _plain(tail: Callable[[Transaction], str]) -> Callable[[Game, Transaction], list | None]:
    """One posting, said as "A paid B 1M" and ``tail(tx)`` after it."""
    def write(game: Game, tx: Transaction) -> list | None:
        p = _single(tx)
        return None if p is None else [*_paid(p), tail(tx)]
    return write


def _tax(what: str) -> Callable[[Game, Transaction], list | None]:
    """A tax or the jail fine: to the bank, or into the Free Parking pot (the jackpot house rule)."""
    def write(game: Game, tx: Transaction) -> list | None:
        p = _single(tx)
        if p is None:
            return None
        if p.payee == POT:
            return [_party(p.payer), f" paid {what} {_money(p.amount)} into Free Parking"]
        return [_party(p.payer), " paid ", _party(p.payee), f" {what} {_money(p.amount)}"]
    return write


# -- the house rules: the Free Parking pot, the short game's deal ------------------------------


def _pot_taken(game: Game, tx: Transaction) -> list | None:
    """The pot paid to who landed on Free Parking, and the bank's seed put back in."""
    taken = [p for p in tx.postings if p.payer == POT]
    seeds = [p for p in tx.postings if p.payer is BANK and p.payee == POT]
    if len(taken) != 1 or len(taken) + len(seeds) != len(tx.postings) or not isinstance(_party(taken[0].payee), _Who):
        return None
    seed = f"; the bank put {_money(seeds[0].amount)} back in" if seeds else ""
    return [_party(taken[0].payee), f" took the Free Parking pot ({_money(taken[0].amount)}){seed}"]


def _into_pot(game: Game, tx: Transaction) -> list | None:
    """A player (or the bank, seeding a new game's pot) pays into Free Parking."""
    p = _single(tx)
    if p is None or p.payee != POT:
        return None
    return [_party(p.payer), f" {'put' if p.payer is BANK else 'paid'} {_money(p.amount)} into Free Parking",
            " to start" if tx.kind == "pot-seed" else None]


def _deal(game: Game, tx: Transaction) -> list | None:
    """The short game's deal: two deeds to each player at their printed prices, said player by player."""
    got: dict[int, list[str]] = {}
    for c in tx.changes:
        if not isinstance(c, OwnerChange) or c.before is not BANK or c.after in (BANK, POT):
            return None
        got.setdefault(c.after, []).append(_deed(game, c.slug))
    paid: dict[int, int] = {}
    for p in tx.postings:
        if p.payee is not BANK or p.payer not in got:
            return None
        paid[p.payer] = paid.get(p.payer, 0) + p.amount
    if not got:
        return None
    parts: list = ["the short game's deal: "]
    for i, (player, deeds) in enumerate(got.items()):
        price = f" for {_money(paid[player])}" if player in paid else ""
        parts += (["; "] if i else []) + [_Who(player), f" got {_and(deeds)}{price}"]
    return parts


def _rent(game: Game, tx: Transaction) -> list | None:
    p = _single(tx)
    if p is None:
        return None
    short = tx.memo[5:] if tx.memo.startswith("Rent ") else ""
    where = f" ({_deed_by_short(game, short)})" if short else ""
    return [_party(p.payer), " paid ", _party(p.payee), f" rent {_money(p.amount)}{where}"]


def _bought(game: Game, tx: Transaction) -> list | None:
    owners = [c for c in tx.changes if isinstance(c, OwnerChange)]
    p = _single(tx)
    if p is None or len(owners) != 1:
        return None
    how = "at auction" if tx.kind == "auction" else "from the bank"
    return [_party(p.payer), f" bought {_deed(game, owners[0].slug)} {how} for {_money(p.amount)}"]


def _buildings(game: Game, tx: Transaction) -> list | None:
    changes = [c for c in tx.changes if isinstance(c, HousesChange)]
    p = _single(tx)
    if p is None or not changes:
        return None
    if tx.kind == "build":
        what = "a hotel" if changes[0].after == HOTEL else "a house"
        return [_party(p.payer), f" built {what} on {_deed(game, changes[0].slug)} for {_money(p.amount)}"]
    if len(changes) == 1:
        what = "the hotel" if changes[0].before == HOTEL else "a house"
        where = _deed(game, changes[0].slug)
    else:
        what, where = "the buildings", _and([_deed(game, c.slug) for c in changes])
    return [_party(p.payee), f" sold {what} on {where} to the bank for {_money(p.amount)}"]


def _mortgage(game: Game, tx: Transaction) -> list | None:
    slugs = [c.slug for c in tx.changes if hasattr(c, "slug")]
    if not tx.postings or len(slugs) != 1:
        return None
    if tx.kind == "mortgage":
        p = tx.postings[0]
        return ["the bank paid ", _party(p.payee), f" {_money(p.amount)} for mortgaging {_deed(game, slugs[0])}"]
    return [_party(tx.postings[0].payer), f" paid the bank {_total(tx)} to lift the mortgage on {_deed(game, slugs[0])}"]


def _jail_card(game: Game, tx: Transaction) -> list | None:
    cards = [c for c in tx.changes if isinstance(c, JailCardChange)]
    if len(cards) != 1 or tx.postings:
        return None
    card = cards[0]
    if card.before is None and card.after is not None:
        return [_party(card.after), " got a jail card"]
    if card.after is None and card.before is not None:
        return [_party(card.before), " used a jail card"]
    return None


def _gave(game: Game, tx: Transaction, giver: int) -> list[str]:
    goods = [_deed(game, c.slug) for c in tx.changes if isinstance(c, OwnerChange) and c.before == giver]
    cards = sum(1 for c in tx.changes if isinstance(c, JailCardChange) and c.before == giver)
    if cards:
        goods.append("a jail card" if cards == 1 else f"{cards} jail cards")
    cash = sum(p.amount for p in tx.postings if p.kind == "trade" and p.payer == giver)
    if cash:
        goods.append(_money(cash))
    return goods


def _trade(game: Game, tx: Transaction) -> list | None:
    sides = list(dict.fromkeys(
        [c.before for c in tx.changes if isinstance(c, (OwnerChange, JailCardChange))]
        + [p.payer for p in tx.postings if p.kind == "trade"]))
    sides = [s for s in sides if s is not BANK]
    others = list(dict.fromkeys(
        [c.after for c in tx.changes if isinstance(c, (OwnerChange, JailCardChange))]
        + [p.payee for p in tx.postings if p.kind == "trade"]))
    parties = list(dict.fromkeys(sides + [o for o in others if o is not BANK]))
    if len(parties) != 2:
        return None
    parts: list = []
    for giver, taker in (parties, parties[::-1]):
        goods = _gave(game, tx, giver)
        if goods:
            parts += (["; "] if parts else []) + [_Who(giver), " gave ", _Who(taker), " " + _and(goods)]
    for payer in parties:
        to_bank = sum(p.amount for p in tx.postings if p.payer == payer and p.payee is BANK)
        if to_bank:
            parts += ["; ", _Who(payer), f" paid the bank {_money(to_bank)} for the mortgages"]
    return parts or None


def _bankruptcy(game: Game, tx: Transaction) -> list | None:
    debtors = list(dict.fromkeys([c.before for c in tx.changes if isinstance(c, OwnerChange)]
                                 + [p.payer for p in tx.postings if p.kind == "bankruptcy"]))
    if len(debtors) != 1 or debtors[0] is BANK:
        return None
    debtor = debtors[0]
    creditors = list(dict.fromkeys([c.after for c in tx.changes if isinstance(c, OwnerChange)]
                                   + [p.payee for p in tx.postings if p.kind == "bankruptcy"]))
    creditor = creditors[0] if len(creditors) == 1 else BANK
    cash = sum(p.amount for p in tx.postings if p.kind == "bankruptcy")
    deeds = sum(1 for c in tx.changes if isinstance(c, OwnerChange))
    got = ([_money(cash)] if cash else []) + ([f"{deeds} deed" + "s" * (deeds != 1)] if deeds else [])
    if creditor is BANK:
        return [_Who(debtor), " went bankrupt to the bank", (": the bank got " + _and(got)) if got else None]
    return [_Who(debtor), " went bankrupt to ", _Who(creditor), (", who got " + _and(got)) if got else None]


def _undo(game: Game, tx: Transaction) -> list | None:
    prefix = f"Undo #{tx.reverses} "
    what = shown(tx.memo[len(prefix):]) if tx.memo.startswith(prefix) else ""
    head = f"undid #{tx.reverses}" + (f" ({what})" if what else "")
    return [head, *([": "] + _postings(tx) if tx.postings else [])]


_KINDS: dict[str, Callable[[Game, Transaction], list | None]] = {
    "opening": _plain(lambda tx: " to start"),
    "collect": _plain(lambda tx: ""),
    "pay": _plain(lambda tx: ""),
    "transfer": _plain(lambda tx: ""),
    "go": _plain(lambda tx: " for passing GO" + (" twice" if tx.memo.endswith("twice") else "")),
    "income-tax": _tax("Income Tax"),
    "luxury-tax": _tax("Luxury Tax"),
    "jail-fine": _tax("the jail fine"),
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


def says(game: Game, tx: Transaction) -> list[str]:
    """``tx`` as a sentence: text and names taking turns (even indexes text, odd ones a name), names as now."""
    parts = _KINDS.get(tx.kind, lambda g, t: None)(game, tx)
    if parts is None:  # a kind, or a shape, this module doesn't know: its postings, with its memo
        memo = shown(tx.memo or tx.kind)
        parts = [*_postings(tx), f" ({memo})"] if tx.postings else [memo]
    return _segments(game, parts)
