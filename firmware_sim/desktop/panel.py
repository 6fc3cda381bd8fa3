"""The side panel's text: the game, every player's balance and the last transactions, read from the ledger."""

from __future__ import annotations

from dataclasses import dataclass

from banker.records import Card, Transaction
from banker.money import format_amount

HISTORY = 12


@dataclass(frozen=True)
class PanelText:
    """What the side panel says: ``balances`` as (mark, name, amount) with mark ``+``/``-`` for a card on a reader."""

    game: str
    balances: tuple[tuple[str, str, str], ...]
    history: tuple[str, ...]


def describe(tx: Transaction, names: dict[int, str]) -> str:
    """One journal entry in a few words: ``Bob pays Alice 60K``, ``Alice passed GO +2M``."""
    def who(card_id: int | None) -> str:
        return "Bank" if card_id is None else names.get(card_id, f"card {card_id}")

    if len(tx.postings) != 1:
        total = sum(p.amount for p in tx.postings)
        return f"{tx.memo or tx.kind} {format_amount(total)}"
    p = tx.postings[0]
    amount = format_amount(p.amount)
    if tx.kind == "opening":
        return f"{who(p.payee)} starts {amount}"
    if tx.kind == "go":
        return f"{who(p.payee)} passed GO +{amount}"
    if tx.reverses is not None:
        return f"Undo #{tx.reverses}: {who(p.payer)} pays {who(p.payee)} {amount}"
    if tx.changes and tx.memo:  # a deed changed: say which
        return f"{tx.memo}: {who(p.payer)} pays {who(p.payee)} {amount}"
    return f"{who(p.payer)} pays {who(p.payee)} {amount}"


def panel_text(ledger, on_readers: dict[str, str | None]) -> PanelText:
    """The panel for ``ledger``'s current game; ``on_readers`` maps reader to the UID lying there."""
    game = ledger.game()
    s = game.settings
    title = f"Game {game.id}: start {format_amount(s.start_balance)}, GO {format_amount(s.go_salary)}"
    cards: list[Card] = ledger.cards()
    marks = {on_readers.get("left"): "+", on_readers.get("right"): "-"}
    if on_readers.get("left") is not None and on_readers.get("left") == on_readers.get("right"):
        marks[on_readers["left"]] = "+-"
    balances = tuple((marks.get(c.uid, ""), c.name, format_amount(ledger.balance(c.id))) for c in cards)
    names = ledger.card_names() if hasattr(ledger, "card_names") else {c.id: c.name for c in cards}
    recent = ledger.transactions()[-HISTORY:] if hasattr(ledger, "transactions") else []
    history = tuple(f"#{tx.id} {describe(tx, names)}" for tx in reversed(recent))
    return PanelText(title, balances, history)
