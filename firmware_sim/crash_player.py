"""A tireless player for the crash harness: plays a game on a ledger file until it is killed.

    python -m firmware_sim.crash_player LEDGER SEED

Four players transfer random amounts and now and then start a new game,
through the real unit (keypad events into the core, the SQLite ledger). After
each transaction the unit reports as done it prints ``tx ID`` (and ``game ID``
after a new game), flushed, so whoever kills it knows what was promised.
:func:`check_after_kill` is what must hold of the ledger after any kill.
"""

from __future__ import annotations

import random
import sys

from banker.journal.records import net_flows
from runtime.ledger import SqliteLedger
from runtime.script_shell import CoreBackend

PLAYERS = (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3"), ("Dan", "D4"))


def play(path: str, seed: int) -> None:
    ledger = SqliteLedger(path)
    table = CoreBackend(ledger)
    for name, uid in PLAYERS:
        table.enrol(name, uid)
    rng = random.Random(seed)
    names = [name for name, _ in PLAYERS]
    while True:
        if rng.random() < 0.03:
            table.remove("left")
            table.remove("right")
            table.hold("C", 2.5)
            print("game", ledger.game().id, flush=True)
            continue
        payee, payer = rng.sample(names, 2)
        table.insert("left", payee)
        table.insert("right", payer)
        for key in str(rng.randint(1, 500)) + "K":
            table.press(key)
        if next((e.tone for e in reversed(table.effects) if hasattr(e, "tone")), None) == "success":
            print("tx", ledger.transactions()[-1].id, flush=True)
        table.remove("left")
        table.remove("right")


def reported_ids(output: str) -> set[int]:
    """The transaction ids a killed player reported as committed (a line cut short by the kill does not count)."""
    complete = output.split("\n")[:-1]
    return {int(line[3:]) for line in complete if line.startswith("tx ") and line[3:].isdigit()}


def check_after_kill(path: str, reported: set[int]) -> tuple[int, int]:
    """Verify the ledger after a kill; return (lost, doubled) transactions; raise AssertionError if torn."""
    with SqliteLedger(path, backups=False) as ledger:
        ledger.check()
        assert ledger.verify().ok, ledger.verify().problems
        ids = [tx.id for game in ledger.games() for tx in ledger.transactions(game.id)]
        cards = {c.id for c in ledger.game().cards}
        for game in ledger.games():
            txs = ledger.transactions(game.id)
            _check_openings(game.id, txs, cards)
            _check_money(txs)
    lost = len(reported - set(ids))
    doubled = len(ids) - len(set(ids))
    return lost, doubled


def _check_openings(game_id: int, txs: list, cards: set) -> None:
    """A game's openings are whole after a kill: no torn enrolment, no torn new game."""
    opened = [p.payee for tx in txs if tx.kind == "opening" for p in tx.postings]
    # each enrolment commits the card and its opening together; a new game opens every card at once
    expected = sorted(cards) if game_id > 1 else sorted(opened)
    assert sorted(opened) == expected, f"game {game_id} opened {sorted(opened)}: a torn new game"
    if game_id == 1:
        assert set(opened) == cards, f"cards {sorted(cards)} but openings for {sorted(opened)}: a torn enrolment"


def _check_money(txs: list) -> None:
    """A game holds the money its openings issued: none created or destroyed."""
    issued = sum(p.amount for tx in txs if tx.kind == "opening" for p in tx.postings)
    assert sum(net_flows(p for tx in txs for p in tx.postings).values()) == issued, "money created or destroyed"


if __name__ == "__main__":
    play(sys.argv[1], int(sys.argv[2]))
