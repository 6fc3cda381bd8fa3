"""The records of the banker's acts, built from the game: enrolments, renames, removals, deed tags, new games.

The keypad (:mod:`banker.unit.step`) and the ``banker`` command build their
records here, so an act means the same whichever path asks for it. Each
function checks what it can decide alone and raises
:class:`banker.errors.Refused`; :func:`banker.fold.game.apply` checks the rest.
"""

from __future__ import annotations

from collections.abc import Mapping

from banker.frozen import replace
from banker.rules.deeds import Edition, UnknownDeed
from banker.text.i18n import ENGLISH, Tr, _
from banker.errors import Refused
from banker.fold.game import Game, apply, check_enrolment, fold_name
from banker.journal.records import BANK, POT, Card, DeedTag, Enrolment, GameRestored, GameSettings, NewGame, Posting, Removal, Rename, Transaction, normalise_uid
from banker.rules.short_deal import deal_deeds, deals_deeds
from banker.text.words import did_you_mean


def _uid(uid: str) -> str:
    try:
        return normalise_uid(uid)
    except ValueError as exc:
        raise Refused(str(exc)) from None


def enrolment(game: Game, name: str, uid: str) -> Enrolment:
    """``name``'s card ``uid`` joins with the current game's start balance."""
    uid, name = _uid(uid), name.strip()
    check_enrolment(game, name, uid)
    card = Card(game.next_card, uid, name)
    opening = game.numbered(Transaction("opening", (Posting(BANK, card.id, game.settings.start_balance, "opening"),),
                                        f"{name} joins"))
    return Enrolment(card, opening)


def next_player_name(game: Game, tr: Tr = ENGLISH) -> str:
    """The name a card enrolled on the keypad gets: ``Player N`` in the game's language (``tr``, its catalog:
    ``Spieler N``, ``Joueur N``), with the first N nobody is called in it or in English (a ledger of an older
    release has ``Player 1``: a German game's next card is ``Spieler 2``)."""
    names = {fold_name(c.name) for c in game.cards}
    # Translators: the name of a card enrolled on the keypad (FN on an unknown card), until it is renamed
    pattern = tr.gettext("Player {n}")
    return next(pattern.format(n=n) for n in range(1, 100)
                if not {fold_name(pattern.format(n=n)), f"player {n}"} & names)


def card_named(game: Game, name: str) -> Card:
    card = game.card_by_name(name)
    if card is None:
        known = (c.name for c in game.cards)
        raise Refused(f"no card is enrolled as {name!r}{did_you_mean(name, known, fold=fold_name)}")
    return card


def rename(game: Game, name: str, new_name: str) -> Rename:
    card = card_named(game, name)
    new_name = new_name.strip()
    check_enrolment(game, new_name, card.uid, card_id=card.id)
    return Rename(card.id, new_name)


def removal(game: Game, name: str) -> Removal:
    return Removal(card_named(game, name).id)


def deed_tag(game: Game, slug: str, uid: str) -> DeedTag:
    """Give the deed ``slug`` the RFID tag ``uid`` (replacing any tag it had)."""
    uid = _uid(uid)
    try:
        game.edition.deed(slug)
    except UnknownDeed as exc:
        raise Refused(str(exc)) from None
    return DeedTag(uid, slug)


def new_game(game: Game, settings: GameSettings | None = None, *, shuffle: bytes = b"") -> NewGame:
    """Archive the current game and start one (its settings by default): every card at the start balance, the
    Free Parking pot at its seed, and in a short or time-limit game the deal (two deeds each at their printed
    prices, shuffled by ``shuffle``: fresh random bytes from the event or the caller; such a game can't start
    without them)."""
    settings = settings or game.settings
    number = game.next_game
    openings = tuple(
        Transaction("opening", (Posting(BANK, c.id, settings.start_balance, "opening"),), f"{c.name} starts",
                    id=game.next_tx + i, game=number)
        for i, c in enumerate(game.cards)
    )
    if settings.jackpot:
        seed = Transaction("pot-seed", (Posting(BANK, POT, settings.jackpot, "pot-seed"),), "Free Parking seeded")
        openings += (replace(seed, id=game.next_tx + len(openings), game=number),)
    record = NewGame(number, settings, openings)
    if not deals_deeds(settings) or not game.cards:
        return record
    try:
        started = apply(game, record)
        deal = deal_deeds(started, players=[c.id for c in game.cards], shuffle=shuffle)
    except ValueError as exc:
        raise Refused(f"the opening deal: {exc}") from None
    memo = _("The short game's deal") if settings.is_short_game else _("The time-limit deal")
    return replace(record, openings=openings + (started.numbered(deal.to_transaction(memo)),))


def on_board(settings: GameSettings, editions: Mapping[str, Edition], name: str) -> GameSettings:
    """``settings`` moved to the board ``name`` (one of ``editions``): the start balance and the GO salary become
    the new board's own where they were the old board's own (a house amount typed stays)."""
    old, new = editions.get(settings.edition), editions[name]
    start = settings.start_balance if old is not None and settings.start_balance != old.start_balance \
        else new.start_balance
    salary = settings.go_salary if old is not None and settings.go_salary != old.go_salary else new.go_salary
    return replace(settings, edition=new.name, start_balance=start, go_salary=salary)


def restore(game: Game, checkpoint) -> GameRestored:
    """Make an archived game current again, as ``checkpoint`` (``Ledger.restore_game`` finds it) recorded it."""
    if checkpoint.game == game.id:
        raise Refused(f"game {game.id} is the current game")
    return GameRestored(checkpoint)
