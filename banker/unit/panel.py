"""The unit's own short-lived state between events: what lies on the readers, what is being typed, the mode."""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.unit.entry import AmountEntry
from banker.unit.events import Reader
from banker.unit.screen import Screen

#: Seconds ``C`` must be held (with no card on a reader) to start a new game.
NEW_GAME_HOLD = 2.0
#: Default seconds without a key or card before the screen sleeps.
SLEEP_AFTER = 60.0
#: Default seconds an auction's countdown runs from its start and from each bid (``[auction] seconds``).
AUCTION_SECONDS = 10.0


@dataclass(frozen=True)
class Panel:
    """Everything the unit itself remembers (the ledger's game holds the rest); compared by value.

    ``left``/``right``: the UID lying on the ``+``/``-`` reader; ``deed_on``:
    the reader a deed's tag lies on; ``message``: a transient screen shown
    until the next key or card; ``mode``: a multi-key flow that owns the
    keys; ``c_down_at``/``c_hold_done``: the hold of ``C`` that starts a new
    game; ``swallow_key_up``: the key that woke the unit (its release is
    ignored); ``now``: the time of the last event; ``sleep_after``:
    the idle seconds before the screen sleeps; ``faults``: the readers that
    can't read now, as ``(reader, fault)`` pairs (:class:`~banker.unit.events.ReaderFault`);
    ``web_url``: the table page's address, when one is served; ``c_salt``:
    the fresh bytes of the ``C`` held (a short game's deal is shuffled with
    them); ``clock``: where this process started counting a time-limit
    game's play (:mod:`banker.unit.play_clock`): the game, its play time then, ``t`` then;
    ``auction_seconds``: how long an auction's countdown runs (:mod:`banker.unit.flows.auction`); ``speaks``: the
    unit has a voice (``[voice]``): only then does the step say what happened (:mod:`banker.unit.voice`).
    """

    left: str | None = None
    right: str | None = None
    entry: AmountEntry = AmountEntry()
    message: Screen | None = None
    asleep: bool = False
    last_activity: float = 0.0
    c_down_at: float | None = None
    c_hold_done: bool = False
    swallow_key_up: str | None = None
    mode: object | None = None  # a banker.unit.modes.base.Mode (modes import the panel, not the other way)
    deed_on: str | None = None
    now: float = 0.0
    sleep_after: float = SLEEP_AFTER
    faults: tuple[tuple[str, str], ...] = ()
    web_url: str | None = None
    c_salt: bytes = b""
    clock: tuple[int, float, float] | None = None
    auction_seconds: float = AUCTION_SECONDS
    speaks: bool = False

    @property
    def cards_down(self) -> bool:
        """Whether a card lies on either reader."""
        return self.left is not None or self.right is not None

    def fault(self, reader: str) -> str | None:
        """The fault standing on ``reader``, if any."""
        return next((fault for where, fault in self.faults if where == reader), None)

    def card_on(self, reader: Reader) -> str | None:
        """The UID lying on ``reader``."""
        return self.left if reader == "left" else self.right

    def with_card(self, reader: Reader, uid: str | None) -> Panel:
        """This panel with ``uid`` (None: no card) lying on ``reader``."""
        return replace(self, left=uid) if reader == "left" else replace(self, right=uid)
