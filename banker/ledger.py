"""The ledger model: postings, transactions, the ledger port and the fold to balances.

Money only moves as :class:`Posting` records grouped in a :class:`Transaction`,
which a ledger commits whole or not at all. Balances are never stored as
truth: they are the fold of the journal (:func:`fold_balances`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

#: The bank as a party to a posting.
BANK = None


@dataclass(frozen=True)
class Posting:
    """``amount`` dollars (> 0) move from ``payer`` to ``payee``.

    Parties are card ids (int); ``BANK`` (None) is the bank, which issues
    money as needed and never goes broke.
    """

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
    """What one action of a player committed: postings (and, later, deed changes).

    ``id`` and ``time`` are given by the ledger when it commits.
    ``reverses`` names the transaction this one undoes, if any.
    ``changes`` holds estate changes (deeds, buildings) as plain data.
    """

    kind: str
    postings: tuple[Posting, ...]
    memo: str = ""
    reverses: int | None = None
    changes: tuple[tuple, ...] = ()
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
    """

    start_balance: int = 15_000_000
    go_salary: int = 2_000_000
    allow_negative: bool = False
    edition: str = "us"
    houses_for_hotel: int = 4
    income_tax_choice: bool = False
    luxury_tax: int | None = None


@dataclass(frozen=True)
class Game:
    """A game in the ledger: its id, settings, start time (epoch seconds) and whether it is current."""

    id: int
    settings: GameSettings
    started: float
    current: bool = False
    transactions: int = 0


class Ledger(Protocol):
    """The port through which the unit reads and commits the journal.

    ``post`` returns only once the transaction is durable, and raises
    :class:`banker.errors.LedgerError` with nothing committed otherwise.
    """

    def game(self) -> Game: ...
    def cards(self) -> list[Card]: ...
    def balance(self, card_id: int) -> int: ...
    def post(self, tx: Transaction) -> Transaction: ...
    def last_transaction(self) -> Transaction | None: ...
    def deed_tags(self) -> dict[str, str]: ...
    def enrol(self, name: str, uid: str) -> Card: ...
    def new_game(self, settings: GameSettings | None = None) -> Game: ...
    def setting(self, key: str, default: str | None = None) -> str | None: ...
    def set_setting(self, key: str, value: str) -> None: ...


def fold_balances(transactions: Iterable[Transaction]) -> dict[int, int]:
    """Each card's balance: what it received minus what it paid, over the journal."""
    balances: dict[int, int] = {}
    for tx in transactions:
        for p in tx.postings:
            if p.payer is not BANK:
                balances[p.payer] = balances.get(p.payer, 0) - p.amount
            if p.payee is not BANK:
                balances[p.payee] = balances.get(p.payee, 0) + p.amount
    return balances


#: Players a game can have (the board has 8 tokens).
MAX_PLAYERS = 8


def normalise_uid(uid: str) -> str:
    """A card UID as upper-case hex without separators; raises ValueError if it is not hex."""
    cleaned = uid.strip().replace(":", "").replace("-", "").replace(" ", "").upper()
    if not cleaned or len(cleaned) > 20 or any(ch not in "0123456789ABCDEF" for ch in cleaned):
        raise ValueError(f"not a card UID (hex): {uid!r}")
    return cleaned


def check_enrolment(cards: Iterable[Card], name: str, uid: str) -> None:
    """Refuse an enrolment that would clash with the enrolled ``cards`` or exceed 8 players."""
    from .errors import Refused

    cards = list(cards)
    if not name.strip() or len(name) > 24 or not name.isprintable():
        raise Refused(f"not a usable name: {name!r}")
    if any(c.name.casefold() == name.casefold() for c in cards):
        raise Refused(f"{name} is already enrolled")
    owner = next((c for c in cards if c.uid == uid), None)
    if owner is not None:
        raise Refused(f"card {uid} is already {owner.name}'s")
    if len(cards) >= MAX_PLAYERS:
        raise Refused(f"{MAX_PLAYERS} players at most")
