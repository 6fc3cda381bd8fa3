"""The journal's records: every change of money or authority, as typed, immutable, append-only data.

A ledger is the sequence of these records, in the order they were committed. The game is their fold
(:func:`banker.fold.game.replay`); nothing else changes it. Money only moves as :class:`Posting` values inside a
:class:`Transaction` (an enrolment's and a new game's opening balances are transactions too), committed whole or
not at all. Ids (transaction, card and game numbers) are given by the core from the game's counters; a record's
wall-clock ``time`` is stamped (:func:`stamped`) before it is folded and written. Each kind's word in the store is
in :data:`KINDS`.

Records describe themselves to the store (:mod:`store.codec`): a record is stored as a JSON object of its fields,
by name (its own ``time`` is the row's), and a record nested in it likewise, its ``time`` included; the records of
a field marked :data:`ROWS` are stored as arrays of their fields in order, headed by their ``word`` when the field
holds several kinds (the estate changes). A field with a default may be missing from a stored object (a field
added later reads older rows); one marked :data:`WHEN_SET` is left out while it is None (older rows keep their bytes).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from collections.abc import Iterable, Mapping
from banker.frozen import replace
from banker.journal.estate_records import (EstateChange, HousesChange, JailCardChange, MortgageChange, OwnerChange,  # noqa: F401
                             RetiredChange)
from banker.journal.key_records import JournalAccepted, KeyAdopted, KeyShown
from banker.journal.worth_trail import WorthTrail

#: The bank as a party to a posting.
BANK = None

#: Players a game can have (the board has 8 tokens).
MAX_PLAYERS = 8

#: The Free Parking pot as a party to a posting (the jackpot house rule, :attr:`GameSettings.jackpot`); card ids
#: start at 1. Taxes and fines go in, the player who lands there takes it out.
POT = 0

#: How a game shows the sum of a payment to children (:attr:`GameSettings.sums`).
SUMS = ("show", "ask")

#: Field metadata: the store writes each record in this field as an array of its fields, in order.
ROWS: Mapping[str, str] = MappingProxyType({"stored": "rows"})
#: Field metadata: the store leaves this field out while it is None (rows written before it existed read alike).
WHEN_SET: Mapping[str, str] = MappingProxyType({"stored": "when-set"})


@dataclass(frozen=True)
class Posting:
    """``amount`` dollars (> 0) move from ``payer`` to ``payee``. Parties are card ids (int); ``BANK`` (None) is
    the bank, which issues money as needed and never goes broke."""

    payer: int | None
    payee: int | None
    amount: int
    kind: str

    def __post_init__(self) -> None:
        if not isinstance(self.amount, int) or isinstance(self.amount, bool):
            raise TypeError(f"amount must be an int, not {type(self.amount).__name__}")
        if self.amount <= 0:
            raise ValueError(f"amount must be positive, got {self.amount}")
        if self.payer is not BANK and self.payer == self.payee:
            raise ValueError("a card cannot pay itself")


@dataclass(frozen=True)
class Transaction:
    """What one action of a player committed: postings and estate changes.

    ``id`` and ``game`` are given by the core when it builds the record
    (:meth:`banker.fold.game.Game.numbered`), ``time`` when it is committed
    (:func:`stamped`). ``reverses`` names the transaction this one undoes, if any.
    ``changes`` holds its estate changes (deeds, buildings, jail cards).
    """

    kind: str
    postings: tuple[Posting, ...] = field(metadata=ROWS)
    memo: str = ""
    reverses: int | None = None
    changes: tuple[EstateChange, ...] = field(default=(), metadata=ROWS)
    id: int | None = None
    game: int | None = None
    time: float | None = None


@dataclass(frozen=True)
class Card:
    """An enrolled card: ``id`` in the ledger, its RFID ``uid`` (hex) and the player's name."""

    id: int
    uid: str
    name: str


@dataclass(frozen=True)
class GameSettings:
    """Per-game settings, with the Electronic Banking edition's defaults.

    ``start_balance`` and ``go_salary`` in dollars; ``allow_negative``: the
    house rule letting payments take a balance below zero; ``edition``: the
    deed set (``cards/editions/NAME.toml``); ``houses_for_hotel``: 4, or 3 in
    the short game; ``income_tax_choice``: the older rule offering 10% of
    worth instead of the flat Income Tax; ``luxury_tax``: None for the
    edition's (1M), or an amount (older sets: 750K).

    The house rules and modes, left out of a stored game while off (older
    rows keep their bytes): ``jackpot``, the Free Parking pot's seed (None:
    no pot, taxes and fines go to the bank); ``time_limit``, the seconds of
    play agreed for a time-limit game (None: no limit); ``sums``: ``"show"``
    shows each payment's arithmetic, ``"ask"`` also asks the player to type
    the new balance first (None: neither).
    """

    start_balance: int = 15_000_000
    go_salary: int = 2_000_000
    allow_negative: bool = False
    edition: str = "us"
    houses_for_hotel: int = 4
    income_tax_choice: bool = False
    luxury_tax: int | None = None
    jackpot: int | None = field(default=None, metadata=WHEN_SET)
    time_limit: int | None = field(default=None, metadata=WHEN_SET)
    sums: str | None = field(default=None, metadata=WHEN_SET)

    @property
    def is_short_game(self) -> bool:
        """The short game: its hotels need 3 houses (``banker game new --short-game``)."""
        return self.houses_for_hotel == 3


@dataclass(frozen=True)
class Enrolment:
    """``card`` joins; ``opening`` (a transaction of the current game) gives it the start balance."""

    card: Card
    opening: Transaction
    time: float | None = None


@dataclass(frozen=True)
class Rename:
    """The card ``card_id`` is now called ``name``."""

    card_id: int
    name: str
    time: float | None = None


@dataclass(frozen=True)
class Removal:
    """The card ``card_id`` retires: it leaves the players; its journal entries stay."""

    card_id: int
    time: float | None = None


@dataclass(frozen=True)
class DeedTag:
    """The RFID tag ``uid`` now stands for the title deed ``slug`` (replacing any tag either had)."""

    uid: str
    slug: str
    time: float | None = None


@dataclass(frozen=True)
class Setting:
    """A unit setting kept across games and restarts (today: ``volume``, "0"-"3")."""

    key: str
    value: str
    time: float | None = None


@dataclass(frozen=True)
class PinChange:
    """The banker's PIN is now the one whose salted hash is ``pin_hash``."""

    pin_hash: str
    time: float | None = None


@dataclass(frozen=True)
class NewGame:
    """Game ``game`` starts with ``settings``; ``openings`` give each enrolled card the start balance."""

    game: int
    settings: GameSettings
    openings: tuple[Transaction, ...] = ()
    time: float | None = None


@dataclass(frozen=True)
class Checkpoint:
    """One game's own state at a moment: enough to carry on playing it without its journal.

    ``balances`` by card id; ``estate`` as the changes that build it from a
    new game's estate; ``last`` the game's last transaction; ``undone`` the
    transactions reversed in it; ``bankruptcies`` its bankruptcy entries;
    ``transactions`` how many it has; ``played`` the seconds it had been
    played (a time-limit game's count; None: none counted, as in older rows).
    """

    game: int
    settings: GameSettings
    started: float | None
    balances: tuple[tuple[int, int], ...]
    estate: tuple[EstateChange, ...] = field(metadata=ROWS)
    last: Transaction | None
    undone: tuple[int, ...]
    bankruptcies: tuple[int, ...]
    transactions: int
    played: float | None = field(default=None, metadata=WHEN_SET)


@dataclass(frozen=True)
class PlayClock:
    """Game ``game`` has been played for ``played`` seconds: the unit's own count of the time it was on with the
    game current, written once a minute of play in a time-limit game (never the wall clock, which a Pi without
    a clock chip may have wrong). A restart counts on from the last one; the one that reaches the limit ends
    the game."""

    game: int
    played: float
    time: float | None = None


@dataclass(frozen=True)
class GameRestored:
    """An archived game is current again, as ``checkpoint`` recorded it when it was last played."""

    checkpoint: Checkpoint
    time: float | None = None


@dataclass(frozen=True)
class PinFailure:
    """A wrong banker's PIN was given (``via``: "keypad", "cli", "script", "serial"); its ``time`` is the wall clock's.

    Wrong tries are kept in the journal, so a lockout holds across every path
    and every process (:mod:`banker.fold.lockout`).
    """

    via: str = "keypad"
    time: float | None = None


@dataclass(frozen=True)
class Snapshot:
    """The whole folded state at this point of the journal, so that opening replays only what follows.

    ``current``: the current game's own state (None before the first game);
    ``cards`` the enrolled cards; ``names`` every card ever enrolled with its
    latest name; ``deed_tags`` (uid, slug); ``options`` (key, value);
    ``pin_hash``; ``pin_failures`` the recent wrong PINs' times; ``next_*``
    the numbers the next records take. Folding it checks that it equals the
    state the records before it give: a snapshot can't change the game.
    ``worth``: the current game's worth chart so far (derived, for the table
    page; the store adds it as it writes the snapshot, none in older
    ledgers), left out of that check.
    """

    current: Checkpoint | None
    cards: tuple[Card, ...] = field(metadata=ROWS)
    names: tuple[tuple[int, str], ...]
    deed_tags: tuple[tuple[str, str], ...]
    options: tuple[tuple[str, str], ...]
    pin_hash: str | None
    pin_failures: tuple[float, ...]
    next_tx: int
    next_card: int
    next_game: int
    worth: WorthTrail | None = field(default=None, compare=False, metadata=WHEN_SET)
    time: float | None = None


@dataclass(frozen=True)
class TokenRenewal:
    """The table page's access token was renewed (the banker's act): every page opened with the old one closes.
    The token itself is never journalled; the record says that, and when, the banker renewed it."""

    time: float | None = None


@dataclass(frozen=True)
class ChainStart:
    """The journal's chain is keyed from here on; the rows before were chained by ``scheme`` up to ``previous``.

    Written once, when a ledger of an earlier release is upgraded (``banker ledger upgrade``): those rows keep
    their own, unkeyed hashes, and this first keyed record binds their last hash ``previous`` into the keyed chain.
    """

    scheme: str
    previous: str
    rows: int
    time: float | None = None


Record = (Transaction | Enrolment | Rename | Removal | DeedTag | Setting | PinChange | NewGame | GameRestored |
    PinFailure | Snapshot | ChainStart | JournalAccepted | TokenRenewal | KeyAdopted | KeyShown | PlayClock)

#: Each record type with the word that names its kind in the store.
KINDS: Mapping[type, str] = {
    Transaction: "tx",
    Enrolment: "enrol",
    Rename: "rename",
    Removal: "remove",
    DeedTag: "deed-tag",
    Setting: "setting",
    PinChange: "pin",
    NewGame: "new-game",
    GameRestored: "restore",
    PinFailure: "pin-failure",
    Snapshot: "snapshot",
    ChainStart: "chain",
    JournalAccepted: "accepted",
    TokenRenewal: "token",
    KeyAdopted: "adopt",
    KeyShown: "key-shown",
    PlayClock: "clock",
}


def kind_of(record: Record) -> str:
    """The store's word for the record's kind (``"tx"``, ``"enrol"``, ...)."""
    return KINDS[type(record)]


def game_of(record: Record) -> int | None:
    """The game a record belongs to (its money's game), or None for records of the whole ledger."""
    if type(record) is Transaction or isinstance(record, Transaction):
        return record.game
    if isinstance(record, Enrolment):
        return record.opening.game
    if isinstance(record, NewGame):
        return record.game
    if isinstance(record, GameRestored):
        return record.checkpoint.game
    if isinstance(record, PlayClock):
        return record.game
    return None


def transactions_in(record: Record) -> tuple[Transaction, ...]:
    """The transactions (money) a record carries: itself, an enrolment's opening, a new game's openings."""
    if type(record) is Transaction or isinstance(record, Transaction):
        return (record,)
    if isinstance(record, Enrolment):
        return (record.opening,)
    if isinstance(record, NewGame):
        return record.openings
    return ()


def net_flows(postings: Iterable[Posting]) -> dict[int, int]:
    """Each card's net gain over the postings (the bank is left out)."""
    flows: dict[int, int] = {}
    for p in postings:
        if p.payer is not BANK:
            flows[p.payer] = flows.get(p.payer, 0) - p.amount
        if p.payee is not BANK:
            flows[p.payee] = flows.get(p.payee, 0) + p.amount
    return flows


def moved(balances: Mapping[int, int], postings: Iterable[Posting], sign: int = 1) -> dict[int, int]:
    """The balances after the postings (``sign`` -1: with them taken back)."""
    after = dict(balances)
    for card, change in net_flows(postings).items():
        after[card] = after.get(card, 0) + sign * change
    return after


def normalise_uid(uid: str) -> str:
    """A card UID as upper-case hex without separators; raises ValueError if it is not hex."""
    cleaned = uid.strip().replace(":", "").replace("-", "").replace(" ", "").upper()
    if not cleaned or len(cleaned) > 20 or any(ch not in "0123456789ABCDEF" for ch in cleaned):
        raise ValueError(f"not a card UID (hex): {uid!r}")
    return cleaned


def stamped(record: Record, time: float) -> Record:
    """``record`` with its wall-clock ``time`` set, and that of the transactions it carries in its own fields
    (an enrolment's opening, a new game's openings; not a checkpoint's last transaction, which keeps its own)."""
    changes: dict[str, object] = {"time": time}
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, Transaction) and f.name != "time":
            changes[f.name] = replace(value, time=time)
        elif type(value) is tuple and value and all(isinstance(v, Transaction) for v in value):
            changes[f.name] = tuple(replace(v, time=time) for v in value)
    return replace(record, **changes)
