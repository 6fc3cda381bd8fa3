"""What the table page shows, as plain JSON-ready data: pure functions of a game snapshot and its journal.

:func:`state` is the body of ``GET /api/state`` and of every server-sent
event (docs/web.md gives each field). Amounts are int dollars, each with its
``*_text`` written the unit's way (:func:`banker.money.format_amount`), so
the page never formats money itself. :class:`WorthHistory` reads every
player's total worth after each of the current game's transactions from the
games :func:`banker.fold.game.apply` makes of them, for the chart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Iterable, Sequence

from banker.errors import Refused
from banker.fold.game import Game, apply
from banker.fold.history import before_play
from banker.text.i18n import Tr, translate
from banker.money import format_amount
from banker.unit.play_clock import time_left_line
from banker.journal.records import BANK, Transaction
from banker.rules import total_worth
from banker.rules.estate import HOTEL
from banker.rules.standings import game_over_line, standings
from banker.unit.voice import spoken_amount, spoken_text
from runtime.languages import language_for, translations_for, translations_of

from .journal import says
from .texts import STICK_TEXTS, pgettext, say, texts, words

#: Journal entries sent with each state (the newest).
JOURNAL_TAIL = 50
#: A transaction's number in a journal sentence ("undid #12").
_NUMBER = re.compile(r"#(\d+)")
#: Points the worth chart keeps at most (evenly thinned, the last one always kept).
CHART_POINTS = 200


@dataclass
class WorthHistory:
    """Every player's total worth after each transaction of one game (cash + deeds + buildings at cost).

    Each point is read from the game :func:`banker.fold.game.apply` makes of the
    transaction: :meth:`extend` takes the game the page's own fold reached,
    :meth:`of` folds a game's journal from before its first transaction. A
    journal that does not fold stops the chart (``broken``); the page goes on.
    """

    game_id: int = 0
    last_tx: int = 0
    points: list[tuple[int, float | None, dict[int, int]]] = field(default_factory=list)
    broken: bool = False

    @classmethod
    def of(cls, game: Game, transactions: Iterable[Transaction]) -> WorthHistory:
        """The history of ``game``'s current game from its journal, ``transactions`` (its last one: ``game`` now)."""
        history = cls(game_id=game.id)
        if game.id:
            txs = [tx for tx in transactions if tx.game == game.id]
            last = txs.pop() if txs and game.last is not None and txs[-1].id == game.last.id else None
            history._fold(before_play(game), txs)
            if last is not None:
                history.extend(game, (last,))
        return history

    def extend(self, game: Game, transactions: Iterable[Transaction]) -> None:
        """A point for the newest of ``transactions`` after the last one seen; ``game`` is the game after it."""
        new = [tx for tx in transactions if tx.game == self.game_id and (tx.id or 0) > self.last_tx]
        if new and not self.broken and game.id == self.game_id:
            self._point(new[-1], game)

    def _fold(self, game: Game, transactions: Iterable[Transaction]) -> None:
        for tx in transactions:
            if (tx.id or 0) <= self.last_tx:
                continue
            try:
                game = apply(game, tx)
            except Refused:
                self.broken = True  # a history that does not fold: the chart stops, the page goes on
                return
            self._point(tx, game)

    def _point(self, tx: Transaction, game: Game) -> None:
        worths = {c.id: total_worth(game, c.id) for c in game.cards if c.id in game.balances}
        self.points.append((tx.id, tx.time, worths))
        self.last_tx = tx.id


def _deeds(game: Game) -> list[dict]:
    estate = game.estate
    return [{
        "slug": d.slug, "name": d.name, "short": d.short, "group": d.group, "kind": d.kind, "position": d.position,
        "price": d.price, "owner": None if estate.owner(d.slug) is None else game.name_of(estate.owner(d.slug)),
        "houses": estate.houses(d.slug) if estate.houses(d.slug) != HOTEL else 0,
        "hotel": estate.houses(d.slug) == HOTEL, "mortgaged": estate.is_mortgaged(d.slug),
    } for d in game.edition.deeds]


class EntryCache:
    """Journal entries as already written out, by transaction id (a rename or a new language writes them afresh)."""

    def __init__(self) -> None:
        self.names: object = None
        self.language: str | None = None
        self.entries: dict[int, dict] = {}

    def entry(self, game: Game, tx: Transaction, language: str) -> dict:
        """``tx`` written out in ``language``."""
        if game.names is not self.names or language != self.language:
            self.names, self.language, self.entries = game.names, language, {}
        written = self.entries.get(tx.id)
        if written is None:
            written = self.entries[tx.id] = _entry(game, tx, translations_for(language))
        return {**written, "undone": tx.id in game.undone}


def _entry(game: Game, tx: Transaction, tr: Tr) -> dict:
    amount = sum(p.amount for p in tx.postings)
    sentence = says(game, tx, tr)
    return {
        "id": tx.id, "time": tx.time, "kind": tx.kind, "memo": tx.memo or tx.kind,
        "says": sentence,
        "heard": heard(sentence, tr),
        "amount": amount, "amount_text": format_amount(amount) if amount else "",
        "postings": [{"from": game.name_of(p.payer), "to": game.name_of(p.payee), "amount": p.amount,
                      "amount_text": format_amount(p.amount), "kind": p.kind} for p in tx.postings],
        "undone": tx.id in game.undone, "reverses": tx.reverses,
        "estate_changes": len(tx.changes),
    }


def heard(sentence: Sequence[str], tr: Tr) -> str:
    """A journal ``sentence`` (text and names taking turns) as the page's Read aloud says it, in the language of
    ``tr``: its amounts in words (:func:`banker.unit.voice.spoken_text`: "2.5 million"), ``#12`` as "number 12"."""
    number = say(tr, pgettext("page", "number {n}"))
    return "".join(_NUMBER.sub(lambda m: number.format(n=m.group(1)), spoken_text(part, tr)) if i % 2 == 0 else part
                   for i, part in enumerate(sentence))


def modes(game: Game, *, dealt: bool, tr: Tr) -> list[str]:
    """The game's rules and modes as the game line names them, in the language of ``tr`` (``dealt``: a short
    game's deeds were dealt)."""
    s = game.settings
    out = []
    if game.is_short_game:
        out.append(words(tr, pgettext("page", "short game (hotels after 3 houses, deeds dealt)")) if dealt
                   else words(tr, pgettext("page", "short game (hotels after 3 houses)")))
    if s.jackpot is not None:
        out.append(words(tr, pgettext("page", "Free Parking (seed {amount})"),
                         amount=format_amount(s.jackpot) if s.jackpot else "0"))
    if s.time_limit is not None:
        limit = translate(time_left_line(s.time_limit, False, left=False), tr)  # as the unit writes it: 1h 30m
        out.append(words(tr, pgettext("page", "time limit {limit}"), limit=limit))
    if s.sums is not None:
        out.append(words(tr, pgettext("page", "sums shown")) if s.sums == "show"
                   else words(tr, pgettext("page", "sums asked")))
    return out


def over_line(game: Game, ranked: Sequence[tuple[int, str, int]], tr: Tr) -> str | None:
    """``Time is up: Alice wins`` when a time-limit game has ended (the richest by end value), else the rules' line,
    in the language of ``tr``."""
    if not game.time_up:
        return translate(game_over_line(game), tr)
    winners = [name for place, name, _ in ranked if place == 1]
    if not winners:
        return translate(time_left_line(0, True), tr)
    return tr.npgettext("page", "Time is up: {names} wins", "Time is up: {names} win",  # type: ignore[attr-defined]
                        len(winners)).format(names=" & ".join(winners))


def _house_rules(game: Game, journal: Sequence[Transaction], dealt: bool | None, tr: Tr) -> dict:
    """The pot, the play clock and the modes, for ``state()['game']``."""
    pot, left = game.pot, game.time_left
    if dealt is None:
        dealt = any(tx.kind == "deal" and tx.game == game.id for tx in journal)
    return {"pot": pot, "pot_text": None if pot is None else (format_amount(pot) if pot else "0"),
            "jackpot": game.settings.jackpot, "time_limit": game.settings.time_limit,
            "time_left": None if left is None else int(left), "time_up": game.time_up,
            "time_left_text": translate(time_left_line(left, game.time_up), tr),
            "sums": game.settings.sums,
            "dealt": bool(dealt) and game.is_short_game, "modes": modes(game, dealt=bool(dealt), tr=tr)}


def live_view(data: dict | None, game: Game | None, language: str | None = None) -> dict | None:
    """The unit's live view (:class:`banker.unit.events.LiveState`'s data: an auction, a deal) in the page's language:
    the texts the core wrote in it (an auction's end) translated, as the game's state is (``language``: the
    config's ``[unit] language``)."""
    if data is None or game is None:
        return data
    tr = translations_of(game, language)
    return {key: translate(value, tr) for key, value in data.items()}


def stick_view(problem, language: str) -> dict | None:
    """The unit's backup stick's problem as the page shows it (a :class:`store.backup_schedule.StickProblem`, or
    None): its cause, and what it means in the page's ``language``."""
    if problem is None or problem.cause not in STICK_TEXTS:
        return None
    return {"cause": problem.cause, "text": say(translations_for(language), STICK_TEXTS[problem.cause])}


def _nice_ticks(low: int, high: int, count: int = 4) -> list[tuple[int, str]]:
    """Round values for the chart's axis, from at most ``low`` up to at least ``high``, each with its text.

    The axis starts at 0 unless every worth is well above it (then close under the lowest).
    """
    if high <= low:
        low, high = min(0, low), max(high, low, 1)
    if low > 0 and low > (high - low):
        low = max(0, low - (high - low))
    else:
        low = min(low, 0)
    raw = (high - low) / count
    step = 1
    while step * 10 <= raw:
        step *= 10
    step = next(m * step for m in (1, 2, 5, 10) if m * step >= raw)
    value = (low // step) * step
    ticks = []
    while True:
        ticks.append([value, format_amount(value) if value else "0"])
        if value >= high:
            return ticks
        value += step


def chart(game: Game, history: WorthHistory) -> dict:
    """The worth chart's data: player names, the points (thinned: each ``[tx id, [worth or None, ...]]``), the axis ticks."""
    cards = list(game.cards)
    points = history.points if history.game_id == game.id else []
    if len(points) > CHART_POINTS:
        stride = len(points) / CHART_POINTS
        points = [points[int(i * stride)] for i in range(CHART_POINTS - 1)] + [points[-1]]
    rows = [[tx_id, [worths.get(c.id) for c in cards]] for tx_id, _, worths in points]  # None: not playing yet
    worths = [w for _, ws in rows for w in ws if w is not None]
    return {"players": [c.name for c in cards], "points": rows, "ticks": _nice_ticks(min(worths, default=0),
                                                                                       max(worths, default=0)),
            "complete": not history.broken}


def state(game: Game, journal: Sequence[Transaction], history: WorthHistory, *, seq: int,
          entries: EntryCache | None = None, dealt: bool | None = None, language: str | None = None) -> dict:
    """The page's whole state: the game now, the journal's tail, the chart, the standings.

    ``journal`` is the current game's transactions in order (the tail is
    taken here); ``seq`` counts the records read so far (it only grows);
    ``entries`` keeps journal entries written out from one state to the next;
    ``dealt`` says a short game's deeds were dealt at its start (None: a deal in ``journal``);
    ``language`` is the config's ``[unit] language``, the page's while the game has chosen none (as the unit's).
    """
    entries = entries if entries is not None else EntryCache()
    code = language_for(game, language)
    tr = translations_for(code)
    if game.id == 0:
        return {"seq": seq, "game": None, "language": code, "texts": texts(code), "balances": {}, "players": [], "deeds": [],
                "bank": None,
                "standings": [], "journal": [], "worth": {"players": [], "points": [], "ticks": [[0, "0"]],
                                                          "complete": True}}
    estate = game.estate
    ranked = standings(game)
    players = [{
        "id": c.id, "name": c.name, "balance": game.balance(c.id), "balance_text": format_amount(game.balance(c.id)),
        "balance_said": spoken_amount(game.balance(c.id), tr),
        "worth": total_worth(game, c.id), "worth_text": format_amount(total_worth(game, c.id)),
        "deeds": len(estate.deeds_of(c.id)), "jail_cards": estate.jail_cards_of(c.id),
        "in_game": game.balance(c.id) > 0 or bool(estate.deeds_of(c.id)),
    } for c in game.cards]
    s = game.settings
    return {
        "seq": seq,
        "language": code,
        "texts": texts(code),
        "game": {"id": game.id, "started": game.started, "edition": s.edition, "title": game.edition.title,
                 "language": code,
                 "short_game": game.is_short_game, "houses_for_hotel": s.houses_for_hotel,
                 "allow_negative": s.allow_negative, "transactions": game.transactions,
                 "bankruptcies": game.live_bankruptcies(), "over": over_line(game, ranked, tr),
                 **_house_rules(game, journal, dealt, tr)},
        "balances": {c.name: game.balance(c.id) for c in game.cards},
        "players": players,
        "deeds": _deeds(game),
        "bank": {"houses": estate.houses_in_bank, "hotels": estate.hotels_in_bank,
                 "house_stock": estate.house_stock, "hotel_stock": estate.hotel_stock,
                 "unsold": sum(1 for d in game.edition.deeds if estate.owner(d.slug) is BANK),
                 "jail_cards": estate.jail_cards_of(None)},
        "standings": [{"place": place, "name": name, "value": value, "value_text": format_amount(value)}
                      for place, name, value in ranked],
        "journal": [entries.entry(game, tx, code) for tx in journal[-JOURNAL_TAIL:]],
        "worth": chart(game, history),
    }
