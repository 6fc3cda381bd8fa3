"""The side panels' text: balances, the last transactions and the estate, read from the ledger's game, in its language.

What the panels say is a pure function of the game value the ledger holds
(plus which card lies on which reader, and the catalog of the game's
language), so :class:`PanelSource` works it out only when one of them
changes, and never reads the whole journal: a new
transaction comes with the game (:attr:`banker.fold.game.Game.last`), and a game
that changed otherwise (a new game, a restored one) is read back by the ids
of its last few transactions. A frame costs the same at the first
transaction and at the hundred-thousandth.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from banker.errors import BankerError
from banker.text.i18n import ENGLISH, Text, Tr, translate
from banker.money import format_amount
from banker.journal.records import BANK, POT, Transaction
from banker.rules.estate import HOTEL

#: Transactions the ledger panel lists, newest first.
HISTORY = 12
#: The kinds of the plain payments typed on the unit: their memo says no more than who paid whom.
PLAIN_KINDS = ("collect", "transfer", "pay")
#: Transaction ids looked up at most to find the last HISTORY of a game (a restored game's ids have gaps).
LOOKBACK = 4 * HISTORY
#: The rules' memos (the core's texts, each naming a deed or a colour group), read back from the journal in English
#: and shown in the game's language: a transaction folded in this process still carries its memo's message id,
#: one read back has only the English words, so they are matched against these (any other memo stays as journalled).
RULE_MEMOS = ("Bought {deed}", "Rent {deed}", "House on {deed}", "Hotel on {deed}", "House off {deed}",
              "Hotel off {deed}", "Mortgaged {deed}", "Lifted {deed}", "Traded {deed}", "Sold down {group}")
_MEMO_PATTERNS = tuple((msgid, re.compile(re.escape(msgid).replace(r"\{deed\}", "(?P<deed>.+)")
                                          .replace(r"\{group\}", "(?P<group>.+)") + "$")) for msgid in RULE_MEMOS)


@dataclass(frozen=True)
class HistoryLine:
    """One journal entry: ``number`` (``#12``), what happened, and the ``amount`` (never cut off)."""

    number: str
    text: str
    amount: str


@dataclass(frozen=True)
class OwnedDeed:
    """A sold deed as the estate panel shows it: its short name, colour group, buildings (5 a hotel), mortgage."""

    short: str
    group: str
    houses: int
    mortgaged: bool

    def marks(self, tr: Tr = ENGLISH) -> str:
        """``2h``, ``H`` (a hotel), ``mortg`` or nothing, in the language of ``tr``."""
        if self.mortgaged:
            # Translators: the simulator's estate panel: after a deed's short name, it is mortgaged
            return tr.pgettext("sim", "mortg")
        if self.houses == HOTEL:
            # Translators: the simulator's estate panel: after a deed's short name, it has a hotel
            return tr.pgettext("sim", "H")
        # Translators: the simulator's estate panel: after a deed's short name, its number of houses
        return tr.pgettext("sim", "{n}h").format(n=self.houses) if self.houses else ""


@dataclass(frozen=True)
class PanelText:
    """What the panels say: ``balances`` as (mark, name, amount) with mark ``+``/``-`` for a card on a reader;
    ``estate`` as (owner, deeds) in the players' order; ``bank`` the unsold deeds and the bank's buildings."""

    game: str
    balances: tuple[tuple[str, str, str], ...]
    history: tuple[HistoryLine, ...]
    estate: tuple[tuple[str, tuple[OwnedDeed, ...]], ...] = ()
    bank: str = ""


def describe(tx: Transaction, names: dict[int, str], tr: Tr = ENGLISH) -> tuple[str, str]:
    """One journal entry in a few words (in the language of ``tr``) and its amount: (``Bob pays Alice``, ``60K``),
    (``Alice passed GO``, ``+2M``). A memo that still carries its message id is translated; one read back from the
    journal is shown as journalled."""
    def who(card_id: int | None) -> str:
        return _party(card_id, names, tr)

    def reversal(what: str) -> str:
        return tr.pgettext("sim", "Reversal of #{id}: {what}").format(id=tx.reverses, what=what)

    memo = memo_in(tx.memo, tr)
    if len(tx.postings) != 1:
        label = memo or tx.kind
        return (reversal(label) if tx.reverses is not None else label), format_amount(_total(tx))
    p = tx.postings[0]
    amount = format_amount(p.amount)
    if tx.kind == "opening":
        return tr.pgettext("sim", "{name} starts").format(name=who(p.payee)), amount
    if tx.kind == "go" and tx.reverses is None:
        return tr.pgettext("sim", "{name} passed GO").format(name=who(p.payee)), f"+{amount}"
    payment = tr.pgettext("sim", "{payer} pays {payee}").format(payer=who(p.payer), payee=who(p.payee))
    if tx.reverses is not None:
        return reversal(payment), amount
    if memo and tx.kind not in PLAIN_KINDS:  # a rule's transaction (a deed, rent, a tax): say which
        # Translators: the simulator's ledger panel: a rule's transaction (Bought Boardwalk: Alice pays Bank)
        return tr.pgettext("sim", "{memo}: {payment}").format(memo=memo, payment=payment), amount
    return payment, amount


def _total(tx: Transaction) -> int:
    """The money a transaction of several postings moves, all its postings together."""
    return sum(p.amount for p in tx.postings)


def _party(card_id: int | None, names: dict[int, str], tr: Tr) -> str:
    """A posting's payer or payee by name: a player, the bank, the Free Parking pot, or an unknown card."""
    if card_id in names:
        return names[card_id]
    if card_id is BANK or card_id == POT:
        return tr.pgettext("sim", "Bank") if card_id is BANK else tr.pgettext("sim", "Free Parking")
    return tr.pgettext("sim", "card {id}").format(id=card_id)


def memo_in(memo: str, tr: Tr = ENGLISH) -> str:
    """A transaction's ``memo`` in the language of ``tr``: translated by its message id while it has one, else (read
    back from the journal) when it is one of the rules' (:data:`RULE_MEMOS`), else as journalled."""
    if not memo or tr is ENGLISH:
        return str(memo)
    if isinstance(memo, Text):
        return str(translate(memo, tr))
    for msgid, pattern in _MEMO_PATTERNS:
        match = pattern.match(memo)
        if match:
            return tr.gettext(msgid).format(**match.groupdict())
    return memo


def history_line(tx: Transaction, names: dict[int, str], tr: Tr = ENGLISH) -> HistoryLine:
    text, amount = describe(tx, names, tr)
    return HistoryLine(f"#{tx.id}", text, amount)


def estate_of(game, tr: Tr = ENGLISH) -> tuple[tuple[tuple[str, tuple[OwnedDeed, ...]], ...], str]:
    """The sold deeds by owner (enrolled players first, in their order) and a line about the bank's part (in the
    language of ``tr``)."""
    estate = game.estate
    if estate is None:
        return (), ""
    try:
        deeds = game.edition.deeds
    except BankerError:
        return (), ""
    owned: dict[int, list[OwnedDeed]] = {}
    for deed in deeds:  # board order
        owner = estate.owner(deed.slug)
        if owner is not None:
            owned.setdefault(owner, []).append(
                OwnedDeed(deed.short, deed.group, estate.houses(deed.slug), estate.is_mortgaged(deed.slug)))
    order = [c.id for c in game.cards if c.id in owned] + sorted(set(owned) - {c.id for c in game.cards})
    unsold = len(deeds) - sum(len(v) for v in owned.values())
    return tuple((game.name_of(card), tuple(owned[card])) for card in order), _bank_line(estate, unsold, tr)


def _bank_line(estate, unsold: int, tr: Tr) -> str:
    """The bank's part of the estate: its unsold deeds, the houses and hotels it holds."""
    houses = estate.house_stock - sum(h for h in estate.buildings.values() if h != HOTEL)
    hotels = estate.hotel_stock - sum(1 for h in estate.buildings.values() if h == HOTEL)
    return tr.pgettext("sim", "Bank: {unsold} unsold, {houses}, {hotels}").format(
        unsold=unsold, houses=tr.npgettext("sim", "{n} house", "{n} houses", houses).format(n=houses),
        hotels=tr.npgettext("sim", "{n} hotel", "{n} hotels", hotels).format(n=hotels))


class PanelSource:
    """The panels of ``ledger``'s game, worked out again only when the game, a card on a reader or the language
    (the catalog ``tr``) changes.

    >>> source = PanelSource(ledger)                      # doctest: +SKIP
    >>> source.text({"left": None, "right": None}).game   # doctest: +SKIP
    'Game 1: start 15M, GO 2M'
    """

    def __init__(self, ledger) -> None:
        self.ledger = ledger
        self._game = None
        self._readers: tuple = ()
        self._tr: Tr | None = None
        self._text: PanelText | None = None
        self._history: deque[Transaction] = deque(maxlen=HISTORY)
        self._seen: tuple = ()  # (game id, last transaction id, transactions) the history stands at
        self.reloads = 0  # how many times the history was read back from the journal (tests watch it)

    def text(self, on_readers: dict[str, str | None], tr: Tr = ENGLISH) -> PanelText:
        """The panels' text in the language of ``tr`` (the same object while nothing they show changed)."""
        game = self.ledger.game()
        readers = (on_readers.get("left"), on_readers.get("right"))
        if self._text is None or game is not self._game or readers != self._readers or tr is not self._tr:
            self._follow(game)
            self._game, self._readers, self._tr = game, readers, tr
            self._text = self._compose(game, on_readers, tr)
        return self._text

    def _follow(self, game) -> None:
        """Bring the last transactions up to ``game``: one new one from the game itself, else read them back."""
        last = game.last
        seen = (game.id, None if last is None else last.id, game.transactions)
        if seen == self._seen:
            return
        old_id, _, old_count = self._seen or (None, None, None)
        if last is not None and game.id == old_id and game.transactions == old_count + 1:
            self._history.appendleft(last)
        else:
            self._history = deque(self._read_back(game), maxlen=HISTORY)
            self.reloads += 1
        self._seen = seen

    def _read_back(self, game) -> list[Transaction]:
        """The game's last transactions, newest first, by id: a few lookups, never the whole journal."""
        last = game.last
        if last is None:
            return []
        lookup = getattr(self.ledger, "transaction", None)
        if lookup is None:  # a ledger without lookups by id
            return list(reversed(self.ledger.transactions()[-HISTORY:]))
        found, wanted = [last], min(HISTORY, game.transactions)
        for tx_id in range(last.id - 1, max(0, last.id - LOOKBACK), -1):
            if len(found) >= wanted:
                break
            try:
                tx = lookup(tx_id)
            except BankerError:
                continue
            if tx.game == game.id:
                found.append(tx)
        return found

    def _compose(self, game, on_readers: dict[str, str | None], tr: Tr) -> PanelText:
        s = game.settings
        # Translators: the simulator's ledger panel: the game, its start balance and GO's salary
        title = tr.pgettext("sim", "Game {id}: start {start}, GO {go}").format(
            id=game.id, start=format_amount(s.start_balance), go=format_amount(s.go_salary))
        left, right = on_readers.get("left"), on_readers.get("right")
        marks = {left: "+", right: "-"}
        if left is not None and left == right:
            marks[left] = "+-"
        balances = tuple((marks.get(c.uid, ""), c.name, format_amount(game.balance(c.id))) for c in game.cards)
        names = dict(game.names)
        history = tuple(history_line(tx, names, tr) for tx in self._history)
        estate, bank = estate_of(game, tr)
        return PanelText(title, balances, history, estate, bank)


def panel_text(ledger, on_readers: dict[str, str | None], tr: Tr = ENGLISH) -> PanelText:
    """The panels for ``ledger``'s current game, worked out afresh (the window keeps a :class:`PanelSource`)."""
    return PanelSource(ledger).text(on_readers, tr)
