"""What the audit checks of a game's openings: the start balances, the Free Parking pot's seed, the short game's deal.

:func:`openings` gives the problems of one new game's or enrolment's
openings against the game's settings (:mod:`banker.audit.checks` runs it
over every record).
"""

from __future__ import annotations

from banker.audit.findings import Problem
from banker.rules.deeds import Edition
from banker.fold.game import Game
from banker.money import format_amount
from banker.rules.short_deal import deals_deeds
from banker.journal.records import BANK, POT, Enrolment, GameSettings, NewGame, OwnerChange, Record, Transaction


def openings(record: Record, game: Game) -> list[Problem]:
    """A new game's or an enrolment's openings that are not what the game's settings give: a start balance other
    than the game's, a Free Parking seed other than its own, a short game's deal not at the printed prices."""
    if isinstance(record, NewGame):
        settings, openings = record.settings, record.openings
    elif isinstance(record, Enrolment):
        settings, openings = game.settings, (record.opening,)
    else:
        return []
    return [problem for tx in openings if (problem := _opening_problem(tx, settings, game)) is not None]


def _opening_problem(tx: Transaction, settings: GameSettings, game: Game) -> Problem | None:
    """What is wrong with one of a game's openings, or None: its kind, and its amounts against the settings."""
    if tx.kind not in ("opening", "pot-seed", "deal"):
        return Problem(tx.id, f"a {tx.kind} entry among a game's openings")
    if tx.kind == "opening":
        opened = sum(p.amount for p in tx.postings)
        if opened == settings.start_balance:
            return None
        return Problem(tx.id, f"opens with {format_amount(opened)}, but the game's start balance "
                              f"is {format_amount(settings.start_balance)}")
    if tx.kind == "pot-seed":
        seeded = _seeds_the_pot(tx, settings.jackpot)
        return None if seeded else Problem(tx.id, "seeds the Free Parking pot with other than the game's seed")
    if not _dealt_at_prices(tx, game.editions.get(settings.edition)):
        return Problem(tx.id, "deals deeds other than at their printed prices")
    if not deals_deeds(settings):  # a short or time-limit game's deal (old time-limit games have none)
        return Problem(tx.id, f"a {tx.kind} entry among a game's openings")
    return None


def _seeds_the_pot(tx: Transaction, jackpot: int | None) -> bool:
    """Whether a pot-seed entry is the game's seed: the bank pays the pot exactly the jackpot, in one posting."""
    return jackpot is not None and [(p.payer, p.payee, p.amount) for p in tx.postings] == [(BANK, POT, jackpot)]


def _dealt_at_prices(tx: Transaction, edition: Edition | None) -> bool:
    """Whether each player of a short game's deal paid the bank the printed prices of the deeds dealt to them."""
    owed: dict[int, int] = {}
    for change in tx.changes:
        if type(change) is not OwnerChange or change.before is not BANK or edition is None:
            return False
        owed[change.after] = owed.get(change.after, 0) + edition.deed(change.slug).price
    paid: dict[int, int] = {}
    for p in tx.postings:
        if p.payee is not BANK or p.payer is BANK:
            return False
        paid[p.payer] = paid.get(p.payer, 0) + p.amount
    return paid == owed
