"""The game: one immutable value, the fold of the journal's records.

:func:`apply` is the only way a game changes: it checks that a record fits
(raising :class:`banker.errors.Refused`, the game unchanged) and returns the
next game. :func:`replay` folds a ledger's records from the start. The
rules engine reads a game through :attr:`Game.edition`, :attr:`Game.estate`,
:attr:`Game.balances` and :attr:`Game.rules`.

>>> from banker.rules.deeds import parse_edition
>>> game = replay([], editions={})
>>> game.id, game.cards
(0, ())
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from collections.abc import Iterable, Mapping

from banker.rules.deeds import Edition, UnknownDeed
from banker.errors import InsufficientFunds, Refused
from banker.money import format_amount
from banker.journal.records import (
    BANK,
    POT,
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
    GameSettings,
    NewGame,
    PinChange,
    PinFailure,
    PlayClock,
    Record,
    Removal,
    Rename,
    Setting,
    Snapshot,
    Transaction,
)
from banker.fold.house_rules import check_modes, party as _party, play_clock as _play_clock
from banker.text.i18n import LANGUAGE_KEY, LANGUAGES, language_of, _
from banker.fold.lockout import recent
from banker.fold.retired import refuse_retired
from banker.fold.names import check_enrolment, fold_name  # noqa: F401  (re-exported: acts, scripts, migration)
from banker.rules.estate import Estate, building_changes, apply as apply_changes
from banker.rules.settings import RuleSettings

#: The volume a unit starts at (0 off, 1 low, 2 medium, 3 high).
DEFAULT_VOLUME = 2
VOLUME_KEY = "volume"

_EMPTY: Mapping = MappingProxyType({})


def _empty() -> Mapping:
    return _EMPTY


@dataclass(frozen=True)
class Game:
    """The ledger folded: the current game's money and deeds, and what holds across games.

    ``editions`` are the deed sets this banker knows (parsed once, given to
    :func:`replay`); ``id`` is the current game (0 before the first);
    ``cards`` the enrolled players, ``names`` every card ever enrolled
    (retired ones too); ``last`` the current game's last transaction;
    ``undone`` the ids it has reversed; ``bankruptcies`` its bankruptcy
    entries; ``pin_failures`` the wall-clock times of the recent wrong
    PINs (:mod:`banker.fold.lockout`); ``next_*`` the numbers the next records take;
    ``played`` the seconds a time-limit game has been played (its last
    :class:`~banker.journal.records.PlayClock`); :attr:`time_up` once that reached the limit.
    """

    editions: Mapping[str, Edition] = field(default_factory=_empty)
    id: int = 0
    settings: GameSettings = GameSettings()
    started: float | None = None
    cards: tuple[Card, ...] = ()
    names: Mapping[int, str] = field(default_factory=_empty)
    balances: Mapping[int, int] = field(default_factory=_empty)
    estate: Estate = None  # type: ignore[assignment]  # set by the first NewGame
    deed_tags: Mapping[str, str] = field(default_factory=_empty)
    options: Mapping[str, str] = field(default_factory=_empty)
    pin_hash: str | None = None
    pin_failures: tuple[float, ...] = ()
    last: Transaction | None = None
    undone: frozenset[int] = frozenset()
    bankruptcies: frozenset[int] = frozenset()
    transactions: int = 0
    played: float = 0.0
    next_tx: int = 1
    next_card: int = 1
    next_game: int = 1
    _by_uid: Mapping[str, Card] = field(default_factory=_empty, repr=False, compare=False)

    # -- what the rules read -------------------------------------------------------------

    @property
    def edition(self) -> Edition:
        """The deed set of the current game."""
        try:
            return self.editions[self.settings.edition]
        except KeyError:
            raise Refused(f"this banker has no edition {self.settings.edition!r}") from None

    @property
    def rules(self) -> RuleSettings:
        """The rules engine's settings for the current game."""
        s = self.settings
        return RuleSettings(allow_negative=s.allow_negative, houses_for_hotel=s.houses_for_hotel,
                            income_tax_choice=s.income_tax_choice, luxury_tax=s.luxury_tax,
                            jackpot=s.jackpot)

    # -- questions -----------------------------------------------------------------------

    def balance(self, card_id: int) -> int:
        return self.balances.get(card_id, 0)

    def balances_by_name(self) -> dict[str, int]:
        """Each enrolled player's balance, by name (what ``banker script --json`` and the expectations report)."""
        return {c.name: self.balance(c.id) for c in self.cards}

    def card_by_uid(self, uid: str | None) -> Card | None:
        return None if uid is None else self._by_uid.get(uid)

    def card_by_id(self, card_id: int | None) -> Card | None:
        return next((c for c in self.cards if c.id == card_id), None)

    def card_by_name(self, name: str) -> Card | None:
        key = fold_name(name)
        return next((c for c in self.cards if fold_name(c.name) == key), None)

    def name_of(self, card_id: int | None) -> str:
        """A card's name (a retired card keeps its name); "Bank" for the bank, "Free Parking" for the pot."""
        return "Bank" if card_id is BANK else "Free Parking" if card_id == POT else self.names.get(card_id, f"card {card_id}")

    @property
    def pot(self) -> int | None:
        """The Free Parking pot (the jackpot house rule), or None when the game has none."""
        return None if self.settings.jackpot is None else self.balances.get(POT, 0)

    @property
    def time_up(self) -> bool:
        """A time-limit game played to its limit: over, every further transaction refused."""
        limit = self.settings.time_limit
        return limit is not None and self.played >= limit

    @property
    def time_left(self) -> float | None:
        """The seconds of play left in a time-limit game (as of its last play-clock record), or None."""
        limit = self.settings.time_limit
        return None if limit is None else max(0.0, limit - self.played)

    @property
    def volume(self) -> int:
        stored = self.options.get(VOLUME_KEY, str(DEFAULT_VOLUME))
        return int(stored) if stored in ("0", "1", "2", "3") else DEFAULT_VOLUME

    @property
    def language(self) -> str:
        """The game's language (:data:`banker.text.i18n.LANGUAGES`): its ``language`` setting, English without one."""
        return language_of(self.options.get(LANGUAGE_KEY))

    @property
    def is_short_game(self) -> bool:
        """A short game is one whose hotels need 3 houses (``banker game new --short-game``)."""
        return self.settings.is_short_game

    def in_game(self) -> list[Card]:
        """The players still playing: not retired, with money left or a deed (a bankrupt player has neither)."""
        estate = self.estate
        return [c for c in self.cards if c.id not in estate.retired and (self.balance(c.id) > 0 or estate.deeds_of(c.id))]

    def live_bankruptcies(self) -> int:
        """How many bankruptcies the current game has seen (undone ones not counted)."""
        return len(self.bankruptcies - self.undone)

    # -- numbering the next records ------------------------------------------------------

    def numbered(self, tx: Transaction, offset: int = 0) -> Transaction:
        """``tx`` as the current game's next transaction (``offset`` more for a batch)."""
        return replace(tx, id=self.next_tx + offset, game=self.id)

    def checkpoint(self) -> Checkpoint:
        """The current game's own state, to restore it later."""
        return Checkpoint(self.id, self.settings, self.started, tuple(sorted(self.balances.items())),
                          building_changes(self.estate), self.last, tuple(sorted(self.undone)),
                          tuple(sorted(self.bankruptcies)), self.transactions, self.played or None)

    def snapshot(self) -> Snapshot:
        """The whole state, for the journal: opening then folds only the records after it."""
        return Snapshot(self.checkpoint() if self.id else None, self.cards, tuple(sorted(self.names.items())),
                        tuple(sorted(self.deed_tags.items())), tuple(sorted(self.options.items())), self.pin_hash,
                        self.pin_failures, self.next_tx, self.next_card, self.next_game)


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
    if game.id == 0:
        raise Refused("no game has started")
    if tx.game != game.id:
        raise Refused(f"#{tx.id} is in game {tx.game}, not the current game {game.id}")
    if tx.id is None or tx.id < game.next_tx:
        raise Refused(f"transaction #{tx.id} is out of order (next is #{game.next_tx})")
    if game.time_up:
        raise Refused(_('Time is up: game over'))
    if game.estate.retired:  # a bankrupt player is out (banker.fold.retired)
        refuse_retired(game, tx)
    names, postings = game.names, tx.postings
    balances = game.balances  # moved(), inline; a proxy's copy() is its dict's (dict(proxy) goes key by key)
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
    if not game.settings.allow_negative:  # the funds rule: here and nowhere else
        for p in postings:  # only a payer can lose over the transaction
            after = balances.get(p.payer, 0)
            if p.payer is not BANK and after < 0 and after < game.balance(p.payer):
                raise InsufficientFunds(_('{name} short {amount}', name=game.name_of(p.payer), amount=format_amount(-after)), -after)
    fields = game.__dict__.copy()  # replace() without __init__ over twenty fields: the fold's hottest lines
    if tx.changes:
        fields["estate"] = apply_changes(game.estate, tx.changes)
    if tx.reverses is not None:
        if tx.reverses in game.undone:
            raise Refused(_('#{id} is already undone', id=tx.reverses))
        fields["undone"] = game.undone | {tx.reverses}
    if tx.kind == "bankruptcy":
        fields["bankruptcies"] = game.bankruptcies | {tx.id}
    fields["balances"], fields["last"] = MappingProxyType(balances), tx
    fields["transactions"], fields["next_tx"] = game.transactions + 1, tx.id + 1
    new = object.__new__(Game)
    object.__setattr__(new, "__dict__", fields)  # the unchanged values shared, as immutable values are
    return new


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
    fresh = replace(game, id=rec.game, settings=rec.settings, started=rec.time, balances=_EMPTY,
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

