"""A ready game for a fresh ledger, so the simulator is playable with nothing to configure."""

from __future__ import annotations

from banker.script.syntax import made_up_uid

DEMO_PLAYERS = ("Alice", "Bob", "Cleo", "Dan")


def is_fresh(ledger) -> bool:
    """True for a ledger nobody has used: no card ever enrolled, one empty game."""
    return not ledger.game().names and len(ledger.games()) == 1 and ledger.game().transactions == 0


def seed_demo(ledger) -> bool:
    """Enrol the demo players (each with the start balance) in a fresh ledger; False if it was not fresh."""
    if not is_fresh(ledger):
        return False
    for name in DEMO_PLAYERS:
        ledger.enrol(name, made_up_uid(name))
    return True
