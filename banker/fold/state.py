"""The game as one immutable value: what the fold of the journal gives, and what the rules, the unit and the page read.

:class:`Game` holds the current game's money and deeds and what holds across
games; it changes only by :func:`banker.fold.game.apply` (the fold), which is
also where the rest of the project imports it from. The rules of the fold
(:mod:`banker.fold.house_rules`, :mod:`banker.fold.retired`) read it from
here: the fold imports them, and none of them imports the fold back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from collections.abc import Mapping

from banker.frozen import replace
from banker.rules.deeds import Edition
from banker.errors import Refused
from banker.journal.records import BANK, POT, Card, Checkpoint, GameSettings, Snapshot, Transaction
from banker.text.i18n import LANGUAGE_KEY, language_of
from banker.fold.names import fold_name
from banker.rules.estate import Estate, building_changes
from banker.rules.settings import RuleSettings

#: The volume a unit starts at (0 off, 1 low, 2 medium, 3 high).
DEFAULT_VOLUME = 2
VOLUME_KEY = "volume"

EMPTY: Mapping = MappingProxyType({})


def _empty() -> Mapping:
    return EMPTY


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

    def deed_of_tag(self, uid: str) -> tuple[str, str | None] | None:
        """The deed a tag stands for in this game: (its slug here, None), or for a tag written in a game of another
        board, the deed on the same square here and the short name it was written for (a tag of Boardwalk is
        Schlossallee on the German board). None: not a deed's tag, or one of no square of this board."""
        slug = self.deed_tags.get(uid)
        if slug is None:
            return None
        here = self.edition
        if here.find(slug) is not None:
            return slug, None
        written = next((e.find(slug) for _n, e in sorted(self.editions.items()) if e.find(slug)), None)
        square = None if written is None else here.find_at(written.position)
        return None if square is None else (square.slug, written.short)

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

