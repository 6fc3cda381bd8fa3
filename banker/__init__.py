"""The banker core: money, amount entry, the unit's state machine, ledger model and screen model.

Pure: it imports only the standard library and itself.
"""

__version__ = "0.1.0"
