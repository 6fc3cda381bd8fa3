"""What the table page shows, as plain JSON-ready data: pure functions of a game snapshot and its journal.

:func:`state` is the body of ``GET /api/state`` and of every server-sent
event (docs/web.md gives each field). Amounts are int dollars, each with its
``*_text`` written the unit's way (:func:`banker.money.format_amount`), so
the page never formats money itself. :class:`WorthHistory` folds the current
game's transactions into every player's total worth after each one, for the
chart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from banker.game import Game
from banker.money import format_amount
from banker.records import BANK, Transaction, moved
from banker.rules import total_worth
from banker.rules.estate import HOTEL, Estate, EstateConflict
from banker.rules.estate import apply as apply_changes
from banker.rules.settings import RuleSettings
from banker.rules.standings import game_over_line, standings

#: Journal entries sent with each state (the newest).
JOURNAL_TAIL = 50
#: Points the worth chart keeps at most (evenly thinned, the last one always kept).
CHART_POINTS = 200


@dataclass(frozen=True)
class _Position:
    """What the worth rule reads, at one moment of the game's history."""

    edition: object
    estate: Estate
    balances: Mapping[int, int]
    rules: RuleSettings


@dataclass
class WorthHistory:
    """Every player's total worth after each transaction of one game (cash + deeds + buildings at cost)."""

    game_id: int = 0
    last_tx: int = 0
    points: list[tuple[int, float | None, dict[int, int]]] = field(default_factory=list)
    _balances: dict[int, int] = field(default_factory=dict)
    _estate: Estate | None = None
    broken: bool = False

    @classmethod
    def of(cls, game: Game, transactions: Iterable[Transaction]) -> "WorthHistory":
        history = cls(game_id=game.id)
        if game.id:
            history._estate = Estate.new(game.edition)
            history.extend(game, transactions)
        return history

    def extend(self, game: Game, transactions: Iterable[Transaction]) -> None:
        """Fold in the transactions after the last one seen (each of ``game``, the current game)."""
        if self.broken or self._estate is None:
            return
        position = None
        for tx in transactions:
            if tx.game != self.game_id or (tx.id or 0) <= self.last_tx:
                continue
            try:
                estate = apply_changes(self._estate, tx.changes) if tx.changes else self._estate
            except EstateConflict:
                self.broken = True  # a history that does not fold: the chart stops, the page goes on
                return
            self._estate, self._balances = estate, moved(self._balances, tx.postings)
            position = _Position(game.edition, estate, MappingProxyType(self._balances), game.rules)
            worths = {c.id: total_worth(position, c.id) for c in game.cards if c.id in self._balances}
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
    """Journal entries as already written out, by transaction id (a rename writes them afresh)."""

    def __init__(self) -> None:
        self.names: object = None
        self.entries: dict[int, dict] = {}

    def entry(self, game: Game, tx: Transaction) -> dict:
        if game.names is not self.names:
            self.names, self.entries = game.names, {}
        written = self.entries.get(tx.id)
        if written is None:
            written = self.entries[tx.id] = _entry(game, tx)
        return {**written, "undone": tx.id in game.undone}


def _entry(game: Game, tx: Transaction) -> dict:
    amount = sum(p.amount for p in tx.postings)
    return {
        "id": tx.id, "time": tx.time, "kind": tx.kind, "memo": tx.memo or tx.kind,
        "amount": amount, "amount_text": format_amount(amount) if amount else "",
        "postings": [{"from": game.name_of(p.payer), "to": game.name_of(p.payee), "amount": p.amount,
                      "amount_text": format_amount(p.amount), "kind": p.kind} for p in tx.postings],
        "undone": tx.id in game.undone, "reverses": tx.reverses,
        "estate_changes": len(tx.changes),
    }


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
          entries: EntryCache | None = None) -> dict:
    """The page's whole state: the game now, the journal's tail, the chart, the standings.

    ``journal`` is the current game's transactions in order (the tail is
    taken here); ``seq`` counts the records read so far (it only grows);
    ``entries`` keeps journal entries written out from one state to the next.
    """
    entries = entries if entries is not None else EntryCache()
    if game.id == 0:
        return {"seq": seq, "game": None, "balances": {}, "players": [], "deeds": [], "bank": None,
                "standings": [], "journal": [], "worth": {"players": [], "points": [], "ticks": [[0, "0"]],
                                                          "complete": True}}
    estate = game.estate
    ranked = standings(game)
    players = [{
        "id": c.id, "name": c.name, "balance": game.balance(c.id), "balance_text": format_amount(game.balance(c.id)),
        "worth": total_worth(game, c.id), "worth_text": format_amount(total_worth(game, c.id)),
        "deeds": len(estate.deeds_of(c.id)), "jail_cards": estate.jail_cards_of(c.id),
        "in_game": game.balance(c.id) > 0 or bool(estate.deeds_of(c.id)),
    } for c in game.cards]
    s = game.settings
    return {
        "seq": seq,
        "game": {"id": game.id, "started": game.started, "edition": s.edition, "title": game.edition.title,
                 "short_game": game.is_short_game, "houses_for_hotel": s.houses_for_hotel,
                 "allow_negative": s.allow_negative, "transactions": game.transactions,
                 "bankruptcies": game.live_bankruptcies(), "over": game_over_line(game)},
        "balances": {c.name: game.balance(c.id) for c in game.cards},
        "players": players,
        "deeds": _deeds(game),
        "bank": {"houses": estate.houses_in_bank, "hotels": estate.hotels_in_bank,
                 "house_stock": estate.house_stock, "hotel_stock": estate.hotel_stock,
                 "unsold": sum(1 for d in game.edition.deeds if estate.owner(d.slug) is BANK),
                 "jail_cards": estate.jail_cards_of(None)},
        "standings": [{"place": place, "name": name, "value": value, "value_text": format_amount(value)}
                      for place, name, value in ranked],
        "journal": [entries.entry(game, tx) for tx in journal[-JOURNAL_TAIL:]],
        "worth": chart(game, history),
    }
