"""What the unit says aloud: short sentences, in words, of what just happened (pure; the shell speaks them).

The step (:func:`banker.step._with_voice`) asks :func:`said` after each event
and adds one :class:`~banker.events.Say` effect with the text: a committed
transaction ("Alice pays Bob 2 million. Alice has 13 million. Bob has 17
million."), a new game, a player joining, the volume; a refusal
("Bob is 890 thousand short. Bob has 1 million."; any other refusal: its
screen read out); an auction's bids and calls ("Going once", "Going twice",
"Sold to Bob for 1.5 million"). :func:`balances_said` is the balance key
(``FN FN``, docs/voice.md): the balance of each card on a reader.

Amounts are spoken as words, never the screen's notation (espeak-ng reads
"2M" as "two M"): :func:`spoken_amount`. Every text comes through ``tr``, a
gettext translations object (``gettext``/``ngettext``/``pgettext``/
``npgettext``); the default :data:`ENGLISH` is the texts as written here, so
a catalog translates them with the context ``"voice"`` (LANGUAGES' catalogs).

>>> spoken_amount(2_000_000), spoken_amount(890_000), spoken_amount(1_500_000), spoken_amount(14_151_500)
('2 million', '890 thousand', '1.5 million', '14 million 151 thousand 500')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .events import LiveState, PlayTone
from .errors import AmountError
from .i18n import ENGLISH, Tr
from .money import parse_amount
from .records import BANK, POT, Enrolment, NewGame, Setting, Transaction

if TYPE_CHECKING:
    from .game import Game
    from .panel import Panel
    from .screen import Screen
    from .step import Outcome


# -- amounts -----------------------------------------------------------------------------------


def spoken_amount(amount: int, tr: Tr = ENGLISH) -> str:
    """``amount`` dollars as words a speech engine reads right: "2 million", "1.5 million", "890 thousand",
    "14 million 151 thousand 500"; exact, never rounded (a fraction of a million only when it is one or two
    digits: 1.5, 2.25)."""
    if amount < 0:
        return tr.pgettext("voice", "minus {amount}").format(amount=spoken_amount(-amount, tr))
    millions, rest = divmod(amount, 1_000_000)
    fraction = f"{rest:06d}".rstrip("0")
    if millions and rest and len(fraction) <= 2 and not fraction.startswith("0"):
        # Translators: a decimal separator for spoken amounts ("2.5 million"; de: ",").
        point = tr.pgettext("voice decimal separator", ".")
        return tr.pgettext("voice", "{x} million").format(x=f"{millions}{point}{fraction}")
    thousands, units = divmod(rest, 1_000)
    parts = []
    if millions:
        parts.append(tr.npgettext("voice", "{n} million", "{n} million", millions).format(n=millions))
    if thousands:
        parts.append(tr.npgettext("voice", "{n} thousand", "{n} thousand", thousands).format(n=thousands))
    if units or not parts:
        parts.append(str(units))
    return " ".join(parts)


_NOTATION = re.compile(r"(?<![\w.])([+-]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)([MK]?)(?![\w.])")


def spoken_text(text: str, tr: Tr = ENGLISH) -> str:
    """A screen's ``text`` made speakable: its amounts in words ("Bob short 890K" -> "Bob short 890
    thousand"), the readers' ``+`` and ``-`` named."""

    def word(match: re.Match) -> str:
        _sign, number, suffix = match.groups()
        if not suffix and "," not in number:
            return match.group(0)  # a count, a board square, a PIN's length: read as it is
        try:
            amount = parse_amount(match.group(0).lstrip("+"), allow_negative=True, allow_zero=True)
        except AmountError:
            return match.group(0)  # not whole dollars ("1.2345K"): read as it is
        return spoken_amount(amount, tr)

    text = _NOTATION.sub(word, text)
    text = re.sub(r"(?<!\S)\+(?!\S)", tr.pgettext("voice", "plus"), text)
    return re.sub(r"(?<!\S)-(?!\S)", tr.pgettext("voice", "minus"), text)


def _sentences(*parts: str) -> str:
    """The parts as sentences: each ends with a full stop (unless it has its own), joined by spaces."""
    return " ".join(p if p.endswith((".", "!", "?")) else p + "." for p in parts if p)


# -- what happened -----------------------------------------------------------------------------


def said(panel: Panel, game: Game, outcome: Outcome, shown: Callable[[], Screen], tr: Tr = ENGLISH) -> str | None:
    """What the unit says after ``outcome`` (the step's answer on ``panel`` over ``game``), or None: silence.
    ``shown()`` is the screen after it (read out for a refusal)."""
    tones = [e.tone for e in outcome.effects if isinstance(e, PlayTone)]
    lives = [e.data for e in outcome.effects if isinstance(e, LiveState)]
    if outcome.record is None and not tones and not lives:
        return None  # most ticks: nothing happened worth a word
    after = outcome.folded[1] if outcome.folded is not None else game
    parts = [_live_said(panel, live, tr) for live in lives if live is not None]
    sold = any(live is not None and live.get("state") == "sold" for live in lives)
    if outcome.record is not None:
        parts.append(record_said(outcome.record, after, tr, lead=not sold))
    elif "refusal" in tones:
        parts.append(_refusal_said(panel, outcome, shown, after, tr))
    for tone in tones:
        call = {"going-once": tr.pgettext("voice", "Going once"),
                "going-twice": tr.pgettext("voice", "Going twice")}.get(tone)
        if call is not None:
            parts.append(call)
    text = _sentences(*parts)
    return text or None


def record_said(record: object, after: Game, tr: Tr = ENGLISH, *, lead: bool = True) -> str:
    """The sentences for a committed ``record`` (``after``: the game it led to); "" for one that says nothing
    aloud (a PIN change, a deed's tag). ``lead`` False: only the balances (an auction's sale says its own)."""
    if isinstance(record, Transaction):
        return _transaction_said(record, after, tr, lead)
    if isinstance(record, NewGame):
        each = spoken_amount(record.settings.start_balance, tr)
        players = tr.npgettext("voice", "{n} player", "{n} players", len(after.cards)).format(n=len(after.cards))
        return _sentences(tr.pgettext("voice", "New game"), tr.pgettext("voice", "{players}, {amount} each").format(players=players, amount=each))
    if isinstance(record, Enrolment):
        return tr.pgettext("voice", "{name} joins with {amount}.").format(
            name=record.card.name, amount=spoken_amount(after.balance(record.card.id), tr))
    if isinstance(record, Setting) and record.key == "volume":
        levels = (tr.pgettext("voice", "Volume off"), tr.pgettext("voice", "Volume low"),
                  tr.pgettext("voice", "Volume medium"), tr.pgettext("voice", "Volume high"))
        return _sentences(levels[after.volume])
    return ""


def _transaction_said(tx: Transaction, after: Game, tr: Tr, lead: bool) -> str:
    name, postings = after.name_of, tx.postings
    parties = list(dict.fromkeys(p for posting in postings for p in (posting.payer, posting.payee)
                                 if p is not BANK and p != POT))
    one = postings[0] if len(postings) == 1 else None
    amount = spoken_amount(one.amount, tr) if one is not None else ""
    deed = next((after.edition.deed(c.slug).name for c in tx.changes if hasattr(c, "slug")), "")
    first = None
    if not lead:
        pass
    elif tx.kind == "undo":
        first = tr.pgettext("voice", "Transaction {n} undone").format(n=tx.reverses)
    elif one is not None and tx.kind == "go":
        first = tr.pgettext("voice", "{name} passes GO and collects {amount}").format(name=name(one.payee), amount=amount)
    elif tx.kind == "pot" and postings[0].payer == POT:
        taken = postings[0]
        first = tr.pgettext("voice", "{name} takes the Free Parking pot, {amount}").format(name=name(taken.payee),
                                                                             amount=spoken_amount(taken.amount, tr))
    elif one is not None and tx.kind == "buy" and deed:
        first = tr.pgettext("voice", "{name} buys {deed} for {amount}").format(name=name(one.payer), deed=deed, amount=amount)
    elif one is not None and tx.kind == "auction" and deed:
        first = tr.pgettext("voice", "Sold to {name} for {amount}, {deed}").format(name=name(one.payer), amount=amount, deed=deed)
    elif one is not None and tx.kind == "rent" and one.payer is not BANK and one.payee is not BANK:
        first = tr.pgettext("voice", "{payer} pays {payee} {amount} rent").format(payer=name(one.payer), payee=name(one.payee),
                                                                   amount=amount)
    elif one is not None and tx.kind in ("transfer", "collect", "pay", "rent", "to-pot"):
        first = _paid(one.payer, one.payee, amount, name, tr)
    else:
        first = _sentences(spoken_text(tx.memo, tr), *_nets(tx, parties, name, tr))
    balances = [tr.pgettext("voice", "{name} has {amount}").format(name=name(p), amount=spoken_amount(after.balance(p), tr))
                for p in parties if p in after.balances]
    return _sentences(first or "", *balances)


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


def _refusal_said(panel: Panel, outcome: Outcome, shown: Callable[[], Screen], after: Game, tr: Tr) -> str:
    """A refusal: a shortfall in its own words; any other, the screen read out (an auction's refused bid is the
    auction's notice)."""
    short = getattr(outcome.panel.mode, "short", None)
    if short is not None and short is not getattr(panel.mode, "short", None):
        card = short.actor
        return _sentences(
            tr.pgettext("voice", "{name} is {amount} short").format(name=card.name, amount=spoken_amount(short.amount, tr)),
            tr.pgettext("voice", "{name} has {amount}").format(name=card.name, amount=spoken_amount(after.balance(card.id), tr)),
            tr.pgettext("voice", "Zero raises cash"))
    return _sentences(*_phrases(spoken_text(line, tr) for line in shown().lines))


def _phrases(lines) -> list[str]:
    """A screen's lines as phrases: a line going on in lower case continues the one before ("GO pays the card" /
    "on the + reader"), one in capitals starts a sentence of its own."""
    phrases: list[str] = []
    for line in lines:
        if phrases and line[:1].islower() and not phrases[-1].endswith((".", "!", "?")):
            phrases[-1] += " " + line
        elif line:
            phrases.append(line)
    return phrases


def _live_said(panel: Panel, live: dict, tr: Tr) -> str:
    """A timed auction's news for the table page, said: opened, a new high bid, no bid, cancelled, sold."""
    state, lot = live.get("state"), live.get("lot", "")
    if state == "open":
        if getattr(panel.mode, "slug", None) != live.get("slug") or not hasattr(panel.mode, "high"):
            return tr.pgettext("voice", "Auction of {lot}, {n} seconds").format(lot=lot, n=live.get("seconds"))
        before = (panel.mode.high, panel.mode.bidder)
        if live.get("bidder") is not None and live.get("high") != before[0]:
            return tr.pgettext("voice", "{name} bids {amount}").format(name=live["bidder"], amount=spoken_amount(live["high"], tr))
        return ""
    if state == "sold":
        return tr.pgettext("voice", "Sold to {name} for {amount}, {lot}").format(
            name=live.get("bidder"), amount=spoken_amount(live.get("high") or 0, tr), lot=lot)
    if state == "no-bid":
        return _sentences(tr.pgettext("voice", "No bid for {lot}").format(lot=lot), tr.pgettext("voice", "Nothing sold"))
    if state == "cancelled":
        return _sentences(tr.pgettext("voice", "Auction cancelled"), tr.pgettext("voice", "Nothing sold"))
    return ""


# -- the balance key -----------------------------------------------------------------------------


def balances_said(panel: Panel, game: Game, tr: Tr = ENGLISH) -> str:
    """The balance key's words: each known card on a reader and its balance (the ``-`` reader's first)."""
    parts = []
    for uid in dict.fromkeys(u for u in (panel.right, panel.left) if u is not None):
        card = game.card_by_uid(uid)
        parts.append(tr.pgettext("voice", "Unknown card") if card is None else tr.pgettext("voice", "{name} has {amount}").format(
            name=card.name, amount=spoken_amount(game.balance(card.id), tr)))
    return _sentences(*parts) if parts else _sentences(tr.pgettext("voice", "No card on a reader"))
