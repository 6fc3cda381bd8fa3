"""A lively demo game for the table page: four players, deeds by colour, houses, a mortgage, an undone payment.

Played as a keypad script through the one shell, so every record is one the
unit itself would write. The screenshots (:mod:`web.screenshots`), the
benchmark and the browser tests use it. :func:`play_house_rules_demo` plays
a short game with the house rules and modes (the Free Parking pot, a time
limit, the sums shown) through the ledger's write path, its deal shuffled by
fixed bytes so that it is the same every time.
"""

from __future__ import annotations

from banker.script import syntax as script
from banker.journal.records import GameSettings, PlayClock

from banker.script import run as script_run

#: The keypad script of the demo game.
DEMO = """\
enrol Alice
enrol Bob
enrol Cleo
enrol Dan
insert right Alice
press FN 3 9
press M
press FN 3 7
press M
press FN 3 9
press 1 1
remove right
insert right Bob
press FN 0 6
press M
press FN 0 8
press M
press FN 0 9
press M
press FN 0 9
press 1 1 1
remove right
insert right Cleo
press FN 0 5
press M
press FN 2 5
press M
press FN 1 2
press M
press FN 1 2
press .
remove right
insert right Dan
press FN 3 9
press GO
remove right
insert left Dan
press GO
remove left
insert left Cleo
insert right Bob
press 5 0 0 K
remove left
remove right
insert right Dan
press 1 M
press FN C
press M
remove right
insert right Dan
press FN 0 8
press GO
remove right
expect houses boardwalk 1
"""


def play_demo(ledger) -> None:
    """Play :data:`DEMO` on ``ledger`` (a :class:`runtime.ledger.Ledger`) through the one script driver, events straight in."""
    from runtime.script_shell import CoreBackend

    failure = script_run.run(script.parse(DEMO), CoreBackend(ledger))
    if failure is not None:
        raise AssertionError(f"the demo game went wrong: {failure}")


#: The house-rules demo's game: the short game (its deal), the Free Parking pot seeded 500K, 90 minutes, sums shown.
HOUSE_RULES = GameSettings(houses_for_hotel=3, jackpot=500_000, time_limit=90 * 60, sums="show")
#: The bytes the house-rules demo's deal is shuffled by.
DEAL_SHUFFLE = bytes(range(16))


def play_house_rules_demo(ledger, *, played: float = 48 * 60) -> None:
    """A short game of four with the house rules on ``ledger`` (a :class:`runtime.ledger.Ledger` with no PIN set):
    the deal, taxes and the jail fine into the pot, Bob takes it, a payment in; ``played`` seconds of its 90 minutes
    played (48 min: 42 min left)."""
    from banker.fold import acts
    from banker.rules.jackpot import pay_pot, take_pot
    from banker.rules.taxes import income_tax, jail_fine, luxury_tax

    for i, name in enumerate(("Alice", "Bob", "Cleo", "Dan")):
        ledger.enrol(name, f"D{i}")
    ledger.commit(acts.new_game(ledger.game(), HOUSE_RULES, shuffle=DEAL_SHUFFLE))
    who = {c.name: c.id for c in ledger.game().cards}

    def play(rule, **args) -> None:
        ledger.post(rule(ledger.game(), **args).to_transaction())

    play(income_tax, player=who["Alice"])
    play(luxury_tax, player=who["Cleo"])
    play(take_pot, player=who["Bob"])
    play(jail_fine, player=who["Dan"])
    play(pay_pot, player=who["Cleo"], amount=1_000_000)
    play(income_tax, player=who["Dan"])
    ledger.commit(PlayClock(ledger.game().id, float(played)))
