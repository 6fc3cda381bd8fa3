"""The fold: the journal's records folded into the game, one immutable value (:class:`Game`).

:func:`apply` is the only way a game changes: it checks that a record fits
(raising :class:`banker.errors.Refused`, the game unchanged) and returns the
next game. :func:`replay` folds a ledger's records from the start. The
value itself is :mod:`banker.fold.state`'s; the rest of the project imports
:class:`Game` and the fold from here. The rules engine reads a game through
:attr:`Game.edition`, :attr:`Game.estate`, :attr:`Game.balances` and
:attr:`Game.rules`.

>>> from banker.rules.deeds import parse_edition
>>> game = replay([], editions={})
>>> game.id, game.cards
(0, ())
"""

from __future__ import annotations

from types import MappingProxyType
from collections.abc import Iterable, Mapping

from banker.frozen import replace
from banker.rules.deeds import Edition, UnknownDeed
from banker.errors import InsufficientFunds, Refused
from banker.money import format_amount
from banker.journal.records import (
    BANK,
    MAX_PLAYERS,
    Card,
    ChainStart,
    JournalAccepted,
    KeyAdopted,
    KeyShown,
    TokenRenewal,
    Checkpoint,
    DeedTag,
    Enrolment,
    GameRestored,
    NewGame,
    PinChange,
    PinFailure,
    PlayClock,
    Posting,
    Record,
    Removal,
    Rename,
    Setting,
    Snapshot,
    Transaction,
)
from banker.fold.house_rules import check_modes, party as _party, play_clock as _play_clock
from banker.text.i18n import LANGUAGE_KEY, LANGUAGES, _
from banker.fold.lockout import recent
from banker.fold.retired import refuse_retired
from banker.fold.names import fold_name, twin_of
from banker.fold.state import DEFAULT_VOLUME, EMPTY, VOLUME_KEY, Game
from banker.rules.estate import Estate, apply as apply_changes

__all__ = ["DEFAULT_VOLUME", "VOLUME_KEY", "Game", "apply", "check_enrolment", "fold_name", "from_snapshot", "replay"]

# -- the fold -------------------------------------------------------------------------------


def from_snapshot(snap: Snapshot, *, editions: Mapping[str, Edition]) -> Game:
    """The game a :class:`Snapshot` records, as the fold of the records before it gave it."""
    game = Game(editions=MappingProxyType(dict(editions)))
    game = _with_cards(game, snap.cards, names=MappingProxyType(dict(snap.names)),
                       deed_tags=MappingProxyType(dict(snap.deed_tags)), options=MappingProxyType(dict(snap.options)),
                       pin_hash=snap.pin_hash, pin_failures=snap.pin_failures, next_tx=snap.next_tx,
                       next_card=snap.next_card, next_game=snap.next_game)
    return game if snap.current is None else _with_checkpoint(game, snap.current)


def replay(records: Iterable[Record], *, editions: Mapping[str, Edition], start: Game | None = None) -> Game:
    """The game after every record, in order, from an empty ledger (or from ``start``)."""
    game = start if start is not None else Game(editions=MappingProxyType(dict(editions)))
    for record in records:
        game = apply(game, record)
    return game


def apply(game: Game, record: Record) -> Game:
    """The game after ``record``; :class:`Refused` (nothing changed) if the record does not fit.

    The one funds rule (unless the game allows negative balances): a transaction is refused with
    :class:`InsufficientFunds` ("Bob short 890K") if a card's net over all of it is a loss that leaves it
    below zero, the first such payer named. No exemption: a bankrupt debtor hands over only what they have.
    """
    if type(record) is Transaction:  # most records
        return _transaction(game, record)
    handler = _APPLY.get(type(record))
    if handler is None:
        raise TypeError(f"not a journal record: {record!r}")
    return handler(game, record)


def _transaction(game: Game, tx: Transaction) -> Game:
    _admit(game, tx)
    balances = _moved(game, tx.postings)
    if not game.settings.allow_negative:  # the funds rule: here and nowhere else
        _check_funds(game, balances, tx.postings)
    changed: dict = {}  # banker.frozen.replace: no __init__ over twenty fields, the fold's hottest lines
    if tx.changes:
        changed["estate"] = apply_changes(game.estate, tx.changes)
    if tx.reverses is not None:
        if tx.reverses in game.undone:
            raise Refused(_('#{id} is already undone', id=tx.reverses))
        changed["undone"] = game.undone | {tx.reverses}
    if tx.kind == "bankruptcy":
        changed["bankruptcies"] = game.bankruptcies | {tx.id}
    return replace(game, balances=MappingProxyType(balances), last=tx, transactions=game.transactions + 1,
                   next_tx=tx.id + 1, **changed)


def _admit(game: Game, tx: Transaction) -> None:
    """Refuse a transaction out of its place: before any game, of another game, out of order, after the time limit,
    or naming a retired player (:mod:`banker.fold.retired`)."""
    if game.id == 0:
        raise Refused("no game has started")
    if tx.game != game.id:
        raise Refused(f"#{tx.id} is in game {tx.game}, not the current game {game.id}")
    if tx.id is None or tx.id < game.next_tx:
        raise Refused(f"transaction #{tx.id} is out of order (next is #{game.next_tx})")
    if game.time_up:
        raise Refused(_('Time is up: game over'))
    if game.estate.retired:  # a bankrupt player is out
        refuse_retired(game, tx)


def _moved(game: Game, postings: tuple[Posting, ...]) -> dict[int, int]:
    """The balances after ``postings`` (a party that is no card: the pot, :func:`banker.fold.house_rules.party`)."""
    names = game.names
    balances = game.balances  # a proxy's copy() is its dict's (dict(proxy) goes key by key)
    balances = balances.copy() if type(balances) in (MappingProxyType, dict) else dict(balances)
    for p in postings:
        payer, payee = p.payer, p.payee
        if payer is not BANK:
            if payer not in names:
                _party(game, payer)
            balances[payer] = balances.get(payer, 0) - p.amount
        if payee is not BANK:
            if payee not in names:
                _party(game, payee)
            balances[payee] = balances.get(payee, 0) + p.amount
    return balances


def _check_funds(game: Game, balances: Mapping[int, int], postings: tuple[Posting, ...]) -> None:
    """The one funds rule: refused if a payer's net is a loss that leaves them below zero, the first one named."""
    for p in postings:  # only a payer can lose over the transaction
        after = balances.get(p.payer, 0)
        if p.payer is not BANK and after < 0 and after < game.balance(p.payer):
            raise InsufficientFunds(_('{name} short {amount}', name=game.name_of(p.payer), amount=format_amount(-after)), -after)


# -- cards ----------------------------------------------------------------------------------


def check_enrolment(game: Game, name: str, uid: str, *, card_id: int | None = None) -> None:
    """Refuse a name or card that would clash with the enrolled cards (``card_id``: the card renamed)."""
    others = [c for c in game.cards if c.id != card_id]
    _check_name(name, others)
    if card_id is None:
        _check_new_card(game, uid, others)


def _check_name(name: str, others: list[Card]) -> None:
    """A name a player can take: printable, short, not the bank's, and reading unlike every other player's
    (:mod:`banker.fold.names`)."""
    if not name.strip() or len(name) > 24 or not name.isprintable():
        raise Refused(f"not a usable name: {name!r}")
    if fold_name(name) == "bank":
        raise Refused("the bank is not a player")
    if any(fold_name(c.name) == fold_name(name) for c in others):
        raise Refused(f"{name} is already enrolled")
    if (twin := twin_of(name, [c.name for c in others])) is not None:
        raise Refused(f"{name} looks like {twin}: choose a name that reads differently")


def _check_new_card(game: Game, uid: str, others: list[Card]) -> None:
    """A card that can join: nobody's yet, no deed's tag, and a seat left at the table."""
    owner = next((c for c in others if c.uid == uid), None)
    if owner is not None:
        raise Refused(_("card {uid} is already {name}'s", uid=uid, name=owner.name))
    if uid in game.deed_tags:
        raise Refused(_("card {uid} is a deed's tag", uid=uid))
    if len(others) >= MAX_PLAYERS:
        raise Refused(_('{n} players at most', n=MAX_PLAYERS))


def _with_cards(game: Game, cards: tuple[Card, ...], **more) -> Game:
    by_uid = MappingProxyType({c.uid: c for c in cards})
    return replace(game, cards=cards, _by_uid=by_uid, **more)


def _enrolment(game: Game, rec: Enrolment) -> Game:
    card = rec.card
    check_enrolment(game, card.name, card.uid)
    if card.id < game.next_card:
        raise Refused(f"card number {card.id} is taken")
    names = MappingProxyType({**game.names, card.id: card.name})
    joined = _with_cards(game, game.cards + (card,), names=names, next_card=card.id + 1)
    return _transaction(joined, rec.opening)


def _card(game: Game, card_id: int) -> Card:
    card = game.card_by_id(card_id)
    if card is None:
        raise Refused(f"no card {card_id} is enrolled")
    return card


def _rename(game: Game, rec: Rename) -> Game:
    card = _card(game, rec.card_id)
    check_enrolment(game, rec.name, card.uid, card_id=card.id)
    cards = tuple(Card(c.id, c.uid, rec.name) if c.id == card.id else c for c in game.cards)
    return _with_cards(game, cards, names=MappingProxyType({**game.names, card.id: rec.name}))


def _removal(game: Game, rec: Removal) -> Game:
    _card(game, rec.card_id)
    return _with_cards(game, tuple(c for c in game.cards if c.id != rec.card_id))


def _deed_tag(game: Game, rec: DeedTag) -> Game:
    try:
        game.edition.deed(rec.slug)
    except UnknownDeed as exc:
        raise Refused(str(exc)) from exc
    owner = game.card_by_uid(rec.uid)
    if owner is not None:
        raise Refused(_("card {uid} is {name}'s", uid=rec.uid, name=owner.name))
    tags = {u: s for u, s in game.deed_tags.items() if s != rec.slug and u != rec.uid}
    return replace(game, deed_tags=MappingProxyType({**tags, rec.uid: rec.slug}))


def _setting(game: Game, rec: Setting) -> Game:
    if rec.key == VOLUME_KEY and rec.value not in ("0", "1", "2", "3"):
        raise Refused(f"volume {rec.value!r}: 0 to 3")
    if rec.key == LANGUAGE_KEY and rec.value not in LANGUAGES:
        raise Refused(f"language {rec.value!r}: one of {', '.join(LANGUAGES)}")
    return replace(game, options=MappingProxyType({**game.options, rec.key: rec.value}))


def _snapshot(game: Game, rec: Snapshot) -> Game:
    """A snapshot changes nothing; one that differs from the fold so far is refused."""
    if game.snapshot() != replace(rec, time=None):
        raise Refused("the snapshot differs from the records before it")
    return game


def _new_game(game: Game, rec: NewGame) -> Game:
    if rec.settings.edition not in game.editions:
        raise Refused(f"this banker has no edition {rec.settings.edition!r}")
    if rec.game < game.next_game:
        raise Refused(f"game number {rec.game} is taken")
    edition = game.editions[rec.settings.edition]
    check_modes(rec.settings)
    fresh = replace(game, id=rec.game, settings=rec.settings, started=rec.time, balances=EMPTY,
                    estate=Estate.new(edition), last=None, undone=frozenset(), bankruptcies=frozenset(),
                    transactions=0, played=0.0, next_game=rec.game + 1)
    for opening in rec.openings:
        fresh = _transaction(fresh, opening)
    return fresh


def _restored(game: Game, rec: GameRestored) -> Game:
    if not 0 < rec.checkpoint.game < game.next_game:
        raise Refused(f"there is no game {rec.checkpoint.game}")
    return _with_checkpoint(game, rec.checkpoint)


def _with_checkpoint(game: Game, cp: Checkpoint) -> Game:
    """``game`` with ``cp``'s game current, as the checkpoint recorded it."""
    edition = game.editions.get(cp.settings.edition)
    if edition is None:
        raise Refused(f"this banker has no edition {cp.settings.edition!r}")
    return replace(game, id=cp.game, settings=cp.settings, started=cp.started,
                   balances=MappingProxyType(dict(cp.balances)),
                   estate=apply_changes(Estate.new(edition), cp.estate), last=cp.last,
                   undone=frozenset(cp.undone), bankruptcies=frozenset(cp.bankruptcies),
                   transactions=cp.transactions, played=cp.played or 0.0)


_APPLY = {
    Transaction: _transaction,
    Enrolment: _enrolment,
    Rename: _rename,
    Removal: _removal,
    DeedTag: _deed_tag,
    Setting: _setting,
    PinChange: lambda game, rec: replace(game, pin_hash=rec.pin_hash),
    NewGame: _new_game,
    GameRestored: _restored,
    PinFailure: lambda game, rec: replace(game, pin_failures=recent(game.pin_failures, rec.time or 0.0)),
    PlayClock: _play_clock,
    Snapshot: _snapshot,
    **dict.fromkeys((ChainStart, JournalAccepted, TokenRenewal, KeyShown), lambda game, rec: game),  # nothing changes
    KeyAdopted: lambda game, rec: game if rec.pin_hash is None else replace(game, pin_hash=rec.pin_hash),
}

