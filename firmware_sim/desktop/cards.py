"""The cards on the table beside the simulated unit: which lies on which reader, the rest in the tray.

Pure bookkeeping, no pygame: placing and taking cards returns the unit's
card events. A card is one tile; a tile dragged from one slot to the other
moves. The hotkeys toggle a card on each reader independently, so one card
can lie across both readers (the unit then says "Same card on both
readers"). A card can also be laid on top of the one on a reader
(:meth:`CardTable.stack`): both are then in its field, their answers
collide, and the reader reports a fault until one is taken away.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from banker.unit.events import READERS, CardPlaced, CardRemoved, Event, ReaderFault, ReaderRecovered
from banker.journal.records import Card
from banker.script.syntax import made_up_uid

from .layout import MAX_TILES
from .words import pgettext

#: What the blank card's tile says (in the game's language when drawn).
BLANK_LABEL = pgettext("sim", "New card")
#: What a tile says for a card on a reader that the tray has no tile for.
STRAY_LABEL = pgettext("sim", "Card {uid}")


@dataclass(frozen=True)
class Tile:
    """A card as the window shows it: its UID, what is written on it (English: the window draws its own words in
    the game's language), whether the ledger knows it, whether it is the blank card, or a ``stray`` one (on a
    reader, with no tile in the tray)."""

    uid: str
    label: str
    enrolled: bool
    blank: bool = False
    stray: bool = False


class CardTable:
    """The two readers and the cards that are not enrolled yet (the enrolled ones come from the ledger).

    There is always one blank "New card" to enrol with ``FN``; a script's
    unknown cards are added with :meth:`add_loose`.
    """

    def __init__(self) -> None:
        self.on: dict[str, str | None] = {reader: None for reader in READERS}
        self.stacked: dict[str, list[str]] = {reader: [] for reader in READERS}  # laid on top of ``on``
        self.loose: list[tuple[str, str]] = []  # (label, uid) of cards the ledger does not know

    def add_loose(self, label: str, uid: str) -> None:
        if all(uid != known for _, known in self.loose):
            self.loose.append((label, uid))

    def tiles(self, cards: Iterable[Card]) -> list[Tile]:
        """Every card on the table in tray order (hotkey F1 is the first): players, loose cards, the blank.

        The tray holds :data:`MAX_TILES`; a card beyond them is listed (after them) only while on a reader.
        """
        tiles = self._tray(cards)
        shown, rest = tiles[:MAX_TILES], tiles[MAX_TILES:]
        for uid in dict.fromkeys(self._lying()):  # a card on a reader is always shown
            if uid not in {t.uid for t in shown}:
                shown.append(next((t for t in rest if t.uid == uid),
                                  Tile(uid, STRAY_LABEL.format(uid=uid), False, stray=True)))
        return shown

    def _tray(self, cards: Iterable[Card]) -> list[Tile]:
        """Every card the tray holds, in its order: the players, the loose cards, the blank."""
        enrolled = {c.uid for c in cards}
        tiles = [Tile(c.uid, c.name, True) for c in cards]
        tiles += [Tile(uid, label, False) for label, uid in self.loose if uid not in enrolled]
        blank = self.blank_uid(enrolled | {uid for _, uid in self.loose})
        tiles.append(Tile(blank, BLANK_LABEL, False, blank=True))
        return tiles

    def _lying(self) -> list[str]:
        """The cards on the readers, reader by reader, the one laid first before those on top of it."""
        return [u for r in READERS for u in (self.on[r], *self.stacked[r]) if u is not None]

    @staticmethod
    def blank_uid(taken: set[str]) -> str:
        """The UID of the next blank card: stable, and none that is already in use."""
        return next(uid for n in range(1, 1000) if (uid := made_up_uid(f"new card {n}")) not in taken)

    def reader_of(self, uid: str) -> list[str]:
        return [reader for reader in READERS if uid == self.on[reader] or uid in self.stacked[reader]]

    def place(self, uid: str, reader: str, t: float) -> list[Event]:
        """Lay card ``uid`` alone on ``reader`` (the cards already there go back to the tray)."""
        if self.on[reader] == uid and not self.stacked[reader]:
            return []
        events: list[Event] = []
        if self.stacked[reader]:
            self.stacked[reader] = []
            events.append(ReaderRecovered(reader, t))  # type: ignore[arg-type]
        elif self.on[reader] is not None:
            events.append(CardRemoved(reader, t))  # type: ignore[arg-type]
        self.on[reader] = uid
        events.append(CardPlaced(reader, uid, t))  # type: ignore[arg-type]
        return events

    def stack(self, uid: str, reader: str, t: float) -> list[Event]:
        """Lay card ``uid`` on top of the one on ``reader``: both in its field, the reader's answers collide."""
        if self.on[reader] is None:
            return self.place(uid, reader, t)
        if reader in self.reader_of(uid):
            return []
        self.stacked[reader].append(uid)
        return [ReaderFault(reader, "two-cards", t)] if len(self.stacked[reader]) == 1 else []  # type: ignore[arg-type]

    def take(self, reader: str, t: float, uid: str | None = None) -> list[Event]:
        """Take card ``uid`` (default: every card) off ``reader``, back to the tray."""
        if self.on[reader] is None:
            return []
        lying = [self.on[reader], *self.stacked[reader]]
        if uid is None or len(lying) == 1:
            self.on[reader], self.stacked[reader] = None, []
            return [ReaderRecovered(reader, t)] if len(lying) > 1 else [CardRemoved(reader, t)]  # type: ignore[arg-type]
        lying.remove(uid)
        self.on[reader], self.stacked[reader] = lying[0], lying[1:]
        if len(lying) > 1:
            return []  # still two cards in the field
        return [ReaderRecovered(reader, t), CardPlaced(reader, lying[0], t)]  # type: ignore[arg-type]

    def drop(self, uid: str, origin: str | None, target: str | None, t: float, *, on_top: bool = False) -> list[Event]:
        """A tile dragged from ``origin`` (a reader, or None for the tray) and let go over ``target``
        (``on_top``: laid on the card there rather than instead of it)."""
        if origin == target:
            return []
        events = self.take(origin, t, uid) if origin is not None else []
        if target is not None:
            events += self.stack(uid, target, t) if on_top else self.place(uid, target, t)
        return events

    def toggle(self, uid: str, reader: str, t: float, *, on_top: bool = False) -> list[Event]:
        """A hotkey: put ``uid`` on ``reader`` (``on_top``: on the card there), or take it off if it lies there."""
        if reader in self.reader_of(uid):
            return self.take(reader, t, uid)
        return self.stack(uid, reader, t) if on_top else self.place(uid, reader, t)
