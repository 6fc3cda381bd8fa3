"""What the unit says aloud: short sentences, in words, of what just happened (pure; the shell speaks them).

The step's voice stage (:func:`banker.unit.step._with_voice`) asks :func:`said`
after each event and adds one :class:`~banker.unit.events.Say` effect with the text: a committed
transaction ("Alice pays Bob 2 million. Alice has 13 million. Bob has 17
million."), a new game, a player joining, the volume; a refusal
("Bob is 890 thousand short. Bob has 1 million."; any other refusal: its
screen read out, the very screen the shell then draws: :func:`reads_screen`
tells the step to draw it, once); an auction's bids and calls ("Going once", "Going twice",
"Sold to Bob for 1.5 million"). :func:`balances_said` is the balance key
(``FN FN``, docs/voice.md): the balance of each card on a reader.

A transaction is said by its kind's sentence (:mod:`banker.unit.voice_deals`),
never by its journalled memo (English, with the screen's short deed names).
Amounts are spoken as words, never the screen's notation (espeak-ng reads
"2M" as "two M"): :func:`spoken_amount` (:mod:`banker.unit.spoken`). Every text comes through ``tr``, a
gettext translations object (``gettext``/``ngettext``/``pgettext``/
``npgettext``); the default :data:`ENGLISH` is the texts as written here, so
a catalog translates them with the context ``"voice"`` (LANGUAGES' catalogs).

>>> spoken_amount(2_000_000), spoken_amount(890_000), spoken_amount(1_500_000), spoken_amount(14_151_500)
('2 million', '890 thousand', '1.5 million', '14 million 151 thousand 500')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.unit.events import LiveState, PlayTone
from banker.text.i18n import ENGLISH, Tr, translate
from banker.journal.records import BANK, POT, Enrolment, NewGame, Setting, Transaction
from banker.unit.spoken import sentences as _sentences
from banker.unit.spoken import in_full, spoken_amount, spoken_text
from banker.unit.voice_deals import what_happened

__all__ = ["balances_said", "reads_screen", "record_said", "said", "spoken_amount", "spoken_text"]

if TYPE_CHECKING:
    from banker.fold.game import Game
    from banker.unit.panel import Panel
    from banker.unit.outcome import Outcome
    from banker.unit.screen import Screen


# -- what happened -----------------------------------------------------------------------------


def said(panel: Panel, game: Game, outcome: Outcome, shown: Screen | None, tr: Tr = ENGLISH) -> str | None:
    """What the unit says after ``outcome`` (the step's answer on ``panel`` over ``game``), or None: silence.
    ``shown`` is the screen after it, read out for a refusal (:func:`reads_screen`; None when it isn't read)."""
    tones, lives = _tones(outcome), _lives(outcome)
    if outcome.record is None and not tones and not lives:
        return None  # most ticks: nothing happened worth a word
    after = outcome.folded[1] if outcome.folded is not None else game
    parts = [_live_said(panel, live, tr) for live in lives]
    if outcome.record is not None:
        sold = any(live.get("state") == "sold" for live in lives)
        parts.append(record_said(outcome.record, after, tr, lead=not sold))
    elif "refusal" in tones:
        parts.append(_refusal_said(panel, outcome, shown, after, tr))
    parts += _calls(tones, tr)
    return _sentences(*parts) or None


def _tones(outcome: Outcome) -> list[str]:
    """The tones ``outcome`` sounds, in order."""
    return [e.tone for e in outcome.effects if isinstance(e, PlayTone)]


def _lives(outcome: Outcome) -> list[dict]:
    """The live views ``outcome`` sends the table page (an auction's news), in order."""
    return [e.data for e in outcome.effects if isinstance(e, LiveState) and e.data is not None]


def reads_screen(panel: Panel, outcome: Outcome) -> bool:
    """Whether :func:`said` reads ``outcome``'s screen out: a refusal, unless it is a new shortfall (said in its own
    words); the step then draws that screen once and hands it over."""
    return outcome.record is None and "refusal" in _tones(outcome) and _new_shortfall(panel, outcome) is None


def _calls(tones: list[str], tr: Tr) -> list[str]:
    """An auction's calls, as its tones sound them: "Going once", "Going twice"."""
    calls = {"going-once": tr.pgettext("voice", "Going once"), "going-twice": tr.pgettext("voice", "Going twice")}
    return [calls[tone] for tone in tones if tone in calls]


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
    """What happened (one sentence of the catalog's for the transaction's kind, never its journalled memo: that is
    English), then the balance of each player it paid or charged who is still in the game."""
    parties = list(dict.fromkeys(p for posting in tx.postings for p in (posting.payer, posting.payee)
                                 if p is not BANK and p != POT))
    first = what_happened(tx, after, tr, parties) if lead else ""
    balances = [tr.pgettext("voice", "{name} has {amount}").format(name=after.name_of(p),
                                                                   amount=spoken_amount(after.balance(p), tr))
                for p in parties if p in after.balances and p not in after.estate.retired]
    return _sentences(first, *balances)


def _refusal_said(panel: Panel, outcome: Outcome, shown: Screen | None, after: Game, tr: Tr) -> str:
    """A refusal: a shortfall in its own words; any other, the screen read out (an auction's refused bid is the
    auction's notice)."""
    short = _new_shortfall(panel, outcome)
    if short is not None:
        card = short.actor
        return _sentences(
            tr.pgettext("voice", "{name} is {amount} short").format(name=card.name, amount=spoken_amount(short.amount, tr)),
            tr.pgettext("voice", "{name} has {amount}").format(name=card.name, amount=spoken_amount(after.balance(card.id), tr)),
            tr.pgettext("voice", "Zero raises cash"))
    lines = shown.lines if shown is not None else ()
    return _sentences(*_phrases(in_full(spoken_text(line, tr), after.edition) for line in lines))


def _new_shortfall(panel: Panel, outcome: Outcome):
    """The shortfall ``outcome`` offers to raise cash for, if it is new (not the one ``panel`` showed already)."""
    short = getattr(outcome.panel.mode, "short", None)
    return short if short is not None and short is not getattr(panel.mode, "short", None) else None


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
    state, lot = live.get("state"), translate(live.get("lot", ""), tr)  # a house's lot: a text to translate
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
