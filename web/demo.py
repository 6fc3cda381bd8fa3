"""A lively demo game for the table page: four players, deeds by colour, houses, a mortgage, an undone payment.

Played as a keypad script through the one shell, so every record is one the
unit itself would write. The screenshots (:mod:`web.screenshots`), the
benchmark and the browser tests use it.
"""

from __future__ import annotations

from banker import script

from banker import script_run

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
    from runtime.script_driver import CoreBackend

    failure = script_run.run(script.parse(DEMO), CoreBackend(ledger))
    if failure is not None:
        raise AssertionError(f"the demo game went wrong: {failure}")
