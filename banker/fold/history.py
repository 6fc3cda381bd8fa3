"""The fold read back: each game as :func:`banker.fold.game.apply` last held it, a game before its first transaction, and
the worth chart's trail.

What the game list, restore, the content audit and the table page's chart
need of a game's past, taken from the one fold rather than derived from the
records a second way: a rule change or a new record kind needs nothing here.
The chart's :class:`~banker.journal.worth_trail.WorthTrail` is folded from a game's
start (:func:`worth_trail`) or carried on from a snapshot's
(:func:`follow_trail`): either way the same points.

>>> from banker import acts
>>> from banker.journal.records import GameSettings
>>> from cards import editions
>>> first = acts.new_game(Game(editions=editions()), GameSettings())
>>> sorted(game_states([first], editions=editions()))
[1]
"""

from __future__ import annotations

from types import MappingProxyType
from collections.abc import Callable, Iterable, Mapping

from banker.frozen import replace
from banker.rules.deeds import Edition
from banker.errors import Refused
from banker.fold.game import Game, apply
from banker.journal.records import Checkpoint, GameRestored, NewGame, Record, Transaction, transactions_in
from banker.rules import total_worth
from banker.journal.worth_trail import WorthPoint, WorthTrail

#: Transactions between two calls of :func:`worth_trail`'s ``progress``.
PROGRESS_EVERY = 1000

def game_states(records: Iterable[Record], *, editions: Mapping[str, Edition],
                start: Game | None = None) -> dict[int, tuple[Game, Game]]:
    """Each game as the fold first and last held it, by game id, folding ``records`` from ``start``.

    First: just after the record that made it current the first time (its
    start); last: just before another game became current (the current
    game: now). No record kind is named, so a new one that starts or brings
    back a game needs nothing here. :class:`banker.errors.Refused` if a
    record does not fold.
    """
    game = start if start is not None else Game(editions=MappingProxyType(dict(editions)))
    first: dict[int, Game] = {game.id: game} if game.id else {}
    last: dict[int, Game] = {}
    for record in records:
        after = apply(game, record)
        if after.id != game.id:
            if game.id:
                last[game.id] = game
            first.setdefault(after.id, after)
        game = after
    if game.id:
        last[game.id] = game
    return {gid: (first[gid], state) for gid, state in last.items()}


def before_play(game: Game) -> Game:
    """``game`` with its current game as it stood before its first transaction (its cards and names as now).

    The game brought back, by :func:`apply`, with nothing played yet; its
    transactions folded from here one by one give the game after each of
    them (the table page's worth chart).
    """
    fresh = apply(game, GameRestored(Checkpoint(game.id, game.settings, game.started, (), (), None, (), (), 0)))
    return replace(fresh, next_tx=1)


# -- the worth chart's trail ------------------------------------------------------------------


def worth_point(game: Game, tx_id: int) -> WorthPoint:
    """Every playing card's total worth in ``game`` (the game just after transaction ``tx_id``)."""
    return WorthPoint(tx_id, tuple((card.id, total_worth(game, card.id)) for card in sorted(game.cards, key=_card_id)
                                   if card.id in game.balances))


def worth_trail(game: Game, transactions: Iterable[Transaction], progress: Callable[[int], None] | None = None,
                ) -> WorthTrail:
    """The trail of ``game``'s current game from the start: its ``transactions`` folded one by one from
    :func:`before_play` (``progress(transactions folded)`` every :data:`PROGRESS_EVERY`). The game's last
    transaction's point is ``game``'s own (a journal of only that one gives the point of now)."""
    trail = WorthTrail(game.id)
    if not game.id:
        return trail
    folded = before_play(game)
    last = game.last.id if game.last is not None else None
    for count, tx in enumerate(transactions, 1):
        if tx.game != game.id or (tx.id or 0) <= trail.last_tx:
            continue
        if tx.id == last:
            return trail.added(worth_point(game, tx.id))
        try:
            folded = apply(folded, tx)
        except Refused:
            return trail.stopped()  # a history that does not fold: the chart stops, the page goes on
        trail = trail.added(worth_point(folded, tx.id))
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(count)
    return trail


def follow_trail(trail: WorthTrail | None, game: Game, records: Iterable[Record]) -> tuple[Game, WorthTrail | None]:
    """Fold ``records`` from ``game``, carrying ``trail`` (the current game's, as of ``game``) along: the game and
    trail after them. A new game starts a trail of its own; a game brought back has none here (None: its journal
    is folded afresh, :func:`worth_trail`). :class:`banker.errors.Refused` if a record does not fold."""
    for record in records:
        after = apply(game, record)
        trail = carry_trail(trail, game, after, record)
        game = after
    return game, trail


def carry_trail(trail: WorthTrail | None, before: Game, after: Game, record: Record) -> WorthTrail | None:
    """``trail`` (the current game's, as of ``before``) carried over ``record``, which folds ``before`` into
    ``after``: one step of :func:`follow_trail`, for a writer that folds each record as it commits it (the
    snapshot then takes the trail as it stands, never folding the records since the last one again)."""
    if isinstance(record, NewGame):
        return worth_trail(after, record.openings)
    if after.id != before.id or isinstance(record, GameRestored):
        return None
    if trail is not None and not trail.broken and trail.game == after.id:
        new = [tx for tx in transactions_in(record) if tx.game == after.id and (tx.id or 0) > trail.last_tx]
        if new:
            return trail.added(worth_point(after, new[-1].id))
    return trail


def _card_id(card) -> int:
    return card.id
