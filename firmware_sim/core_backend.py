"""The ``core`` keypad-script backend, by its old name: events straight into the one shell, on simulated time.

It is :class:`runtime.script_driver.CoreBackend` (the one script driver with
:class:`~runtime.script_driver.SimulatedHands`); this module keeps the name
the simulators and tests import.
"""

from runtime.script_driver import PRESS_SECONDS, TICK_SECONDS, CoreBackend

__all__ = ["PRESS_SECONDS", "TICK_SECONDS", "CoreBackend"]
